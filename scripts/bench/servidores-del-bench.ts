/**
 * The servers `npm run bench` starts on its copy of the app (servidor.ts): the one measured, as
 * `npm start` runs it, and at the end the pair without and with a Sentry DSN.
 */
import { cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { alTerminar, log } from "./ejecucion";
import { RAIZ, type Opciones } from "./opciones";
import { parear, type ServidorDelPar } from "./pares";
import { arrancarServidor, iniciarSesion } from "./servidor";
import { DEMO_ACCOUNTS } from "../seed";

/** Sentry on as in production, to a DSN on this machine that nothing listens to. */
const SENTRY_DEL_BENCH = { SENTRY_DSN: "http://bench@127.0.0.1:9/1", SENTRY_ENVIRONMENT: "bench" };

/**
 * The measured server: one worker per core unless `--procesos`, Sentry on unless `--sin-sentry`
 * (no event is expected: errors must be 0), with `--perfil` a CPU profile copied into bench/ once
 * it stops. `salida` is what it printed, for a run that fails (a 500 says little without it).
 */
export async function arrancarServidorMedido(app: string, tmp: string, databaseUrl: string, o: Opciones) {
  const perfiles = path.join(tmp, "perfiles");
  const servidor = await arrancarServidor(
    {
      nombre: "medido",
      dir: app,
      env: o.sentry ? SENTRY_DEL_BENCH : {},
      node: o.perfil ? ["--cpu-prof", `--cpu-prof-dir=${perfiles}`] : [],
    },
    { databaseUrl, datos: path.join(tmp, "datos-app"), procesos: o.procesos },
  );
  alTerminar(async () => {
    log(`deteniendo el servidor (pid ${servidor.pid})`);
    await servidor.detener();
    if (o.perfil && existsSync(perfiles)) {
      mkdirSync(path.join(RAIZ, "bench"), { recursive: true });
      for (const f of readdirSync(perfiles)) cpSync(path.join(perfiles, f), path.join(RAIZ, "bench", `servidor-${f}`));
      log(`perfil de CPU del servidor en bench/servidor-*.cpuprofile`);
    }
  });
  return servidor;
}

/**
 * What having a DSN costs: the same build twice, one worker each, without and with
 * SENTRY_DSN, loaded in turns on the ceiling and the filtered page (pares.ts); two rounds warm
 * them up first. `aceptar`: the Accept-Encoding sent.
 */
export async function parConYSinDsn(
  app: string,
  tmp: string,
  databaseUrl: string,
  postmaster: number,
  filtrado: string,
  o: Opciones,
  aceptar: string,
) {
  log(`par sin y con DSN de Sentry: ${o.parDsn} rondas (más 2 de calentamiento) por pantalla…`);
  const servidores: ServidorDelPar[] = [];
  for (const [nombre, env] of [
    ["sin DSN", {}],
    ["con DSN", SENTRY_DEL_BENCH],
  ] as const) {
    const s = await arrancarServidor(
      { nombre, dir: app, env, node: [] },
      { databaseUrl, datos: path.join(tmp, `datos-${servidores.length}`) },
    );
    alTerminar(s.detener);
    const cookie = await iniciarSesion(s.base, DEMO_ACCOUNTS.administrador);
    servidores.push({ nombre, base: s.base, pid: s.pid, postmaster, cookie });
  }
  const opciones = { rondas: o.parDsn, descartadas: 2, segundos: o.segundos, conexiones: 10, aceptar };
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
