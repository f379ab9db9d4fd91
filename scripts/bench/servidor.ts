/**
 * A built app's production server for the paired benches (pareja.ts, memoria.ts): started on a
 * free port against a given database, and a demo account's session on it.
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
export type Variante = { nombre: string; dir: string; env: Record<string, string>; node: string[]; arranque?: string[] };

/**
 * Starts `v` (as `npm start` does, NODE_ENV=production) with `procesos` workers and waits until it
 * answers /healthz with every worker running. `detener` stops it (SIGTERM, then its exit).
 */
export async function arrancarServidor(v: Variante, o: { databaseUrl: string; datos: string; procesos?: number }) {
  const procesos = o.procesos ?? 1;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const hijo: ChildProcess = spawn(process.execPath, [...v.node, ...(v.arranque?.length ? v.arranque : ARRANQUE)], {
    cwd: v.dir,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...entornoDeProduccion({ port, ...o }), WEB_CONCURRENCY: String(procesos), ...v.env },
  });
  let err = "";
  hijo.stderr!.on("data", (c: Buffer) => (err += c));
  const detener = async () => {
    if (hijo.exitCode !== null) return;
    hijo.kill("SIGTERM");
    await new Promise((r) => hijo.once("exit", r));
  };
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok && servidorPids(hijo.pid!).length === procesos + 1) return { ...v, base, pid: hijo.pid!, detener };
    if (hijo.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await detener();
  throw new Error(`El servidor ${v.nombre} no arrancó:\n${err}`);
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
