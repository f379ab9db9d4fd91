import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** What the bench reads of other processes from /proc (Linux): CPU ticks and children. */

/** Clock ticks per second of the CPU times in /proc/PID/stat (USER_HZ: 100 on Linux). */
export const TICKS = 100;

/** User + system CPU of `pid` in clock ticks (0 once it is gone). */
export function cpuDe(pid: number): number {
  try {
    const campos = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(campos[11]) + Number(campos[12]);
  } catch {
    return 0;
  }
}

/** The processes whose parent is `pid`. */
export function hijosDe(pid: number): number[] {
  const out: number[] = [];
  for (const nombre of readdirSync("/proc")) {
    if (!/^\d+$/.test(nombre)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${nombre}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      if (ppid === pid) out.push(Number(nombre));
    } catch {
      /* gone */
    }
  }
  return out;
}

/** The arguments `pid` was started with ([] once it is gone). */
function argumentosDe(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * The server is a primary and its workers: node:cluster children running the primary's own script
 * (`build/server.js`, or an older checkout's `server.ts`), not PostgreSQL or the seed.
 */
export function servidorPids(servidor: number): number[] {
  const guion = path.basename(argumentosDe(servidor).at(-1) ?? "");
  const trabajadores = hijosDe(servidor).filter(
    (pid) => guion && path.basename(argumentosDe(pid).at(-1) ?? "") === guion,
  );
  return [servidor, ...trabajadores];
}

/** Memory of `pid` in KiB: VmRSS, resident now; VmHWM, its peak so far (0 once it is gone). */
export function memoriaKiB(pid: number, campo: "VmRSS" | "VmHWM" = "VmRSS"): number {
  try {
    const m = new RegExp(`${campo}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of `pid` in MiB (0 once it is gone). */
export const rssMiB = (pid: number) => Math.round(memoriaKiB(pid) / 1024);

/** Proportional memory of `pid` in MiB (shared pages divided among their processes; 0 once it is gone). */
export function pssMiB(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** The postmaster of the embedded PostgreSQL under `raiz` (the root given to startEmbeddedPostgres). */
export function postmasterDe(raiz: string): number {
  return Number(readFileSync(path.join(raiz, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
}

/** The postmaster and every process it started (backends, autovacuum…). */
export const procesosDePostgres = (postmaster: number) => [postmaster, ...hijosDe(postmaster)];

/**
 * CPU ticks of `procesos()` since the last `desde()`, counted per process: one that ends during
 * the run (an autovacuum worker, a replaced server worker) cannot make the sum go down, and one
 * that starts during it counts from 0.
 */
export function contadorDeCpu(procesos: () => number[]) {
  const ahora = () => new Map(procesos().map((p) => [p, cpuDe(p)]));
  let inicio = ahora();
  return {
    desde: () => void (inicio = ahora()),
    ticks: () => {
      let total = 0;
      for (const [pid, ticks] of ahora()) total += ticks - (inicio.get(pid) ?? 0);
      return total;
    },
  };
}
