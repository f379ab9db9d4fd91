/**
 * A built app's production server for the benches (`npm run bench`, pareja.ts, memoria.ts): started
 * on a free port against a given database, and a demo account's session on it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { servidorPids } from "./proc";
import { freePort } from "../../app/data/embedded.server";
import { DEMO_PASSWORD } from "../seed/catalog/organization";

/** How `npm start` runs the built server (after node's own flags). */
export const ARRANQUE = ["--import", "./build/instrument.js", "build/server.js"];

/** The environment of a production server on this machine: loopback, a fresh session secret. */
export function entornoDeProduccion(o: { port: number; databaseUrl: string; datos: string }) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production" as const,
    PORT: String(o.port),
    HOST: "127.0.0.1",
    DATABASE_URL: o.databaseUrl,
    DATA_DIR: o.datos,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    APP_URL: `http://127.0.0.1:${o.port}`,
  };
}

/**
 * One server to start: its app dir (with build/), its extra environment, node's own flags and, for
 * a checkout that starts differently (before `build/server.js`: `--import tsx … server.ts`), what
 * replaces ARRANQUE.
 */
export type Variante = {
  nombre: string;
  dir: string;
  env: Record<string, string>;
  node: string[];
  arranque?: string[];
};

/**
 * Starts `v` (as `npm start` does, NODE_ENV=production) with `procesos` workers and waits until it
 * answers /healthz with every worker running; `procesos: null` leaves their number to the server
 * (one per core) and waits for its answer only. `detener` stops it (SIGTERM, SIGKILL if it has not
 * ended 15 s later); `salida` is what it has printed.
 */
export async function arrancarServidor(
  v: Variante,
  o: { databaseUrl: string; datos: string; procesos?: number | null },
) {
  const procesos = o.procesos === undefined ? 1 : o.procesos;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const hijo: ChildProcess = spawn(process.execPath, [...v.node, ...(v.arranque?.length ? v.arranque : ARRANQUE)], {
    cwd: v.dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...entornoDeProduccion({ port, databaseUrl: o.databaseUrl, datos: o.datos }),
      ...(procesos === null ? {} : { WEB_CONCURRENCY: String(procesos) }),
      ...v.env,
    },
  });
  const salida: string[] = [];
  hijo.stdout!.on("data", (c: Buffer) => salida.push(c.toString()));
  hijo.stderr!.on("data", (c: Buffer) => salida.push(c.toString()));
  let terminado = false;
  hijo.on("exit", () => (terminado = true));
  const detener = async () => {
    if (terminado) return;
    hijo.kill("SIGTERM");
    let reloj: NodeJS.Timeout | undefined;
    const fin = await Promise.race([
      new Promise((r) => hijo.once("exit", () => r(true))),
      new Promise((r) => (reloj = setTimeout(() => r(false), 15_000))),
    ]);
    clearTimeout(reloj);
    if (!fin) hijo.kill("SIGKILL");
  };
  for (let i = 0; i < 600 && !terminado; i++) {
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok && (procesos === null || servidorPids(hijo.pid!).length === procesos + 1))
      return { ...v, base, pid: hijo.pid!, detener, salida: () => salida.join("") };
    await new Promise((r) => setTimeout(r, 100));
  }
  await detener();
  throw new Error(`El servidor ${v.nombre} no arrancó:\n${salida.join("")}`);
}

/** A session cookie of a demo account on the server at `base`. */
export async function iniciarSesion(base: string, email: string) {
  const r = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "iniciar", email, password: DEMO_PASSWORD, redirectTo: "/" }),
  });
  const cookie = r.headers
    .getSetCookie()
    .map((c) => /^(oficina_sesion=[^;]+)/.exec(c)?.[1])
    .find(Boolean);
  if (r.status !== 302 || !cookie) throw new Error(`No se pudo iniciar sesión como ${email}: ${r.status}`);
  return cookie;
}
