import { readdirSync, readFileSync } from "node:fs";

/** What the bench reads of other processes from /proc (Linux): CPU ticks and children. */

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

/** The server is a primary and its workers (node:cluster children running build/server.js, not Postgres). */
export function servidorPids(servidor: number): number[] {
  const trabajadores = hijosDe(servidor).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("build/server.js");
    } catch {
      return false;
    }
  });
  return [servidor, ...trabajadores];
}

/** Resident memory of `pid` in MiB (0 once it is gone). */
export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** Proportional memory of `pid` in MiB (shared pages divided among their processes; 0 once it is gone). */
export function pssMiB(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}
