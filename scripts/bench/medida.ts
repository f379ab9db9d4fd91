/**
 * What `npm run bench` measures of a screen: its statements per request, then a load run per
 * number of connections with the server's and PostgreSQL's CPU and the server's memory from /proc.
 */
import { sql } from "kysely";
import { contarGastos, sentenciasPorPeticion, type Sentencias } from "./base-de-datos";
import { log } from "./ejecucion";
import { correrCarga, type Carga } from "./generador";
import { comprobar, DESGLOSE_DOS_TIPOS, pedirUnaVez, type Contexto, type Pantalla } from "./pantallas";
import { contadorDeCpu, cpuDe, memoriaKiB, procesosDePostgres, pssMiB, servidorPids, TICKS } from "./proc";
import { todayISO } from "../../app/lib/dates";

/** Requests per screen for the statement count (sequential, nothing else running). */
const MUESTRA_SQL = 10;
/** At most this many requests per measured run (each run is also bounded in time). */
const TOPE_PETICIONES = 40_000;

/** The measured server: its primary's pid, and the postmaster of its database. */
export type Medido = { pid: number; postmaster: number };

const cpuServidor = (servidor: number) => servidorPids(servidor).reduce((t, p) => t + cpuDe(p), 0);
const memoriaServidorKiB = (servidor: number, campo: "VmRSS" | "VmHWM" = "VmRSS") =>
  servidorPids(servidor).reduce((t, p) => t + memoriaKiB(p, campo), 0);

/**
 * While `fn` runs: the server's peak RSS, and CPU used by the server and by PostgreSQL (% of one
 * core, and milliseconds in all), counted from when `fn` calls `empieza` (after its warm-up).
 */
async function muestreando<T>({ pid, postmaster }: Medido, fn: (empieza: () => void) => Promise<T>) {
  const pg = contadorDeCpu(() => procesosDePostgres(postmaster));
  const nodo = contadorDeCpu(() => servidorPids(pid));
  let pico = memoriaServidorKiB(pid);
  const reloj = setInterval(() => (pico = Math.max(pico, memoriaServidorKiB(pid))), 100);
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
      picoRssMiB: Math.round(Math.max(pico, memoriaServidorKiB(pid)) / 1024),
      cpuNodo: Math.round((nodoTicks / TICKS / segundos) * 100),
      cpuPostgres: Math.round((postgres / TICKS / segundos) * 100),
      msNodo: (nodoTicks * 1000) / TICKS,
      msPostgres: (postgres * 1000) / TICKS,
    };
  } finally {
    clearInterval(reloj);
  }
}

/** A load run on `p`, as a browser with its session would ask for it (a create screen: a new gasto each time). */
export function cargar(
  ctx: Contexto,
  p: Pantalla,
  conexiones: number,
  segundos: number,
  proveedorId: string,
  empieza: () => void = () => {},
): Promise<Carga> {
  return correrCarga(
    {
      url: `${ctx.base}${p.ruta}`,
      conexiones,
      segundos,
      maximo: TOPE_PETICIONES,
      cabeceras: {
        ...ctx.cabeceras,
        ...(p.como ? { cookie: ctx.cookies[p.como] } : {}),
        ...(p.crear ? { origin: ctx.base } : {}),
      },
      ...(p.crear
        ? {
            crear: {
              path: p.ruta,
              fecha: todayISO(),
              proveedorId,
              campos: p.crear === "desglose" ? DESGLOSE_DOS_TIPOS : {},
            },
          }
        : {}),
    },
    empieza,
  );
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

export type Medida = Carga & {
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

export async function medir(
  ctx: Contexto,
  medido: Medido,
  p: Pantalla,
  conexiones: number,
  segundos: number,
  proveedorId: string,
): Promise<Medida> {
  await esperarReposo(ctx, medido.pid);
  const { valor, picoRssMiB, cpuNodo, cpuPostgres, msNodo, msPostgres } = await muestreando(medido, (empieza) =>
    cargar(ctx, p, conexiones, segundos, proveedorId, empieza),
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

/** A screen's row of the report: its HTML's size, its statements per request and a measure per number of connections. */
export type Fila = {
  pantalla: Pantalla;
  html: { bytes: number; gzip: number };
  sentencias: Sentencias | null;
  medidas: Record<number, Medida>;
};

export async function medirPantalla(
  ctx: Contexto,
  medido: Medido,
  pantalla: Pantalla,
  o: { conexiones: number[]; segundos: number },
  proveedorId: string,
): Promise<Fila> {
  const html = await comprobar(ctx, pantalla);
  let sentencias: Sentencias | null = null;
  if (pantalla.id !== "suelo") {
    await esperarReposo(ctx, medido.pid);
    sentencias = await sentenciasPorPeticion(ctx.db, MUESTRA_SQL, (i) => pedirUnaVez(ctx, pantalla, i, proveedorId));
  }
  const antes = pantalla.crear ? await contarGastos(ctx.db) : 0;
  const medidas: Record<number, Medida> = {};
  for (const c of o.conexiones) medidas[c] = await medir(ctx, medido, pantalla, c, o.segundos, proveedorId);
  if (pantalla.crear) {
    // Every 302 must be a new gasto (the warm-up's too), and nothing else may have created one.
    await esperarReposo(ctx, medido.pid);
    const despues = await contarGastos(ctx.db);
    const redirigidas = Object.values(medidas).reduce((a, m) => a + (m.codigos["302"] ?? 0), 0);
    log(`crear: ${despues - antes} gastos nuevos, ${redirigidas} redirecciones medidas (más las del calentamiento)`);
    if (despues - antes < redirigidas) throw new Error("Hubo redirecciones sin gasto nuevo");
  }
  return { pantalla, html, sentencias, medidas };
}

/**
 * The server's memory at the end: its peak over the whole run (VmHWM, all its processes), how many
 * workers it has, and each process apart: its own peak; PostgreSQL's processes share
 * their buffers, so theirs is the proportional share (PSS) of all of them at the end.
 */
export function memoriaAlTerminar({ pid, postmaster }: Medido) {
  const rssPicoMiB = Math.round(memoriaServidorKiB(pid, "VmHWM") / 1024);
  const trabajadores = servidorPids(pid).length - 1;
  const [primario, ...suyos] = servidorPids(pid).map((p) => Math.round(memoriaKiB(p, "VmHWM") / 1024));
  const pgMiB = procesosDePostgres(postmaster).reduce((t, p) => t + pssMiB(p), 0);
  const porProceso = `primario ${primario} MiB, ${suyos.map((m, i) => `trabajador ${i + 1} ${m} MiB`).join(", ")} (VmHWM de cada uno); PostgreSQL ${pgMiB} MiB al terminar (PSS del postmaster y sus procesos)`;
  return { rssPicoMiB, trabajadores, porProceso };
}
