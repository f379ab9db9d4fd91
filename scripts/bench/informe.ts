/**
 * The report of `npm run bench`: the machine, a table per number of connections, the first load's
 * JavaScript, the with/without-DSN pair and, with `--escala`, /gastos as the gastos grow.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import type { JsInicial } from "./js-inicial";
import type { Fila, Medida } from "./medida";
import type { Opciones } from "./opciones";
import { rangoDelFiltro, type Parametros } from "./pantallas";
import { mediana, type ResultadoDelPar } from "./pares";

export type Maquina = ReturnType<typeof maquina>;

/** The machine, and its load average now. */
export function maquina() {
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

/** /gastos and its searches at one size of `--escala`: the gastos there were, and the filter's matches. */
export type Escalon = { gastos: number; total: number; coincidencias: number; medidas: Record<string, Medida> };

function tablaEscala(escala: Escalon[]) {
  if (!escala.length) return [];
  const l = [
    "",
    "### Crecimiento de /gastos con el número de gastos (10 conexiones)",
    "",
    "| gastos sintéticos | total | pantalla | pet/s | p50 ms | p95 ms | p99 ms | errores |",
    "|---:|---:|---|---:|---:|---:|---:|---:|",
  ];
  for (const e of escala)
    for (const [id, m] of Object.entries(e.medidas))
      l.push(
        `| ${e.gastos.toLocaleString("es-ES")} | ${e.total.toLocaleString("es-ES")} | ${id}${id === "filtrado" ? ` (${e.coincidencias} coincidencias)` : ""} | ${m.rps.toFixed(0)} | ${ms(m.p50)} | ${ms(m.p95)} | ${ms(m.p99)} | ${m.errores} |`,
      );
  return l;
}

/** Everything the report says, in Markdown. */
export function informe(d: {
  o: Opciones;
  demo: number;
  total: number;
  equipo: Maquina;
  cargaInicial: number[];
  trabajadores: number;
  rssPicoMiB: number;
  porProceso: string;
  parametros: Parametros;
  filas: Fila[];
  js: JsInicial;
  parDsn: ResultadoDelPar[];
  escala: Escalon[];
  inicio: number;
}) {
  const { o, equipo, trabajadores, parametros: p } = d;
  const { desde, hasta } = rangoDelFiltro();
  return [
    `## Oficina — bench, ${o.gastos.toLocaleString("es-ES")} gastos sintéticos (+ ${d.demo.toLocaleString("es-ES")} de demostración; ${d.total.toLocaleString("es-ES")} al terminar)`,
    "",
    `Máquina: ${equipo.nproc} núcleos, ${equipo.modelo}, ${equipo.memoriaGiB} GiB, Node ${equipo.node}, ${equipo.fecha.slice(0, 10)}. ${o.segundos} s por medida (tras ${o.calentar} s de carga sobre las pantallas de lectura antes de la primera, y 1 s de calentamiento antes de cada una), carga desde otro proceso en la misma máquina; Sentry ${o.sentry ? "activo" : "desactivado"}. Servidor: un proceso primario y ${trabajadores} ${trabajadores === 1 ? "trabajador" : "trabajadores"} (node:cluster; CPU y memoria del servidor son las de todos). Pico de memoria del servidor en toda la ejecución (VmHWM, suma de los procesos): ${d.rssPicoMiB} MiB; por proceso: ${d.porProceso}. Carga media de la máquina al empezar ${d.cargaInicial.join(" / ")}, al terminar ${equipo.cargaMedia.join(" / ")} (1/5/15 min; con otros procesos ocupando los núcleos, las cifras absolutas bajan: compare las razones con el suelo).`,
    "",
    `Filtro de «página 40»: estado=${p.filtro.estado}, departamento con más gastos (${p.filtro.n.toLocaleString("es-ES")} coincidencias al elegirlo), fechas ${desde}…${hasta}, por importe descendente.`,
    tabla(d.filas, o.conexiones),
    tablaJs(d.js),
    tablaParDsn(d.parDsn, o.parDsn),
    ...tablaEscala(d.escala),
    "",
    `Duración total: ${((Date.now() - d.inicio) / 1000).toFixed(0)} s.`,
  ].join("\n");
}
