import { leerPeriodo } from "~/fiscal/periodo";
import { todayISO } from "~/lib/dates";

/**
 * What the IRPF report's screen and its files share (browser-safe): the period it reads and its
 * columns. The reading and the files are in informe.server.ts.
 */

/** The form's fields: a year, or two dates (which then count instead of the year). */
export const CAMPOS_IRPF = ["anio", "desde", "hasta"] as const;

/**
 * The period from the screen's GET form: two dates if either is given, else the year. Without
 * any of its fields (the screen's first visit) it is this year, not a form sent empty.
 */
export function periodoIrpf(params: URLSearchParams, hoy = todayISO()) {
  const p = new URLSearchParams();
  if (CAMPOS_IRPF.some((c) => params.has(c))) {
    for (const c of CAMPOS_IRPF) p.set(c, params.get(c) ?? "");
    p.set("periodo", p.get("desde")?.trim() || p.get("hasta")?.trim() ? "fechas" : "anio");
  }
  return leerPeriodo(p, hoy, "es-ES", "anio");
}

export const IMPORTES = ["dietas_exento", "dietas_sujeto", "km_exento", "km_sujeto", "exento", "sujeto"] as const;
export type Importe = (typeof IMPORTES)[number];

/** One person's totals (amounts as decimal strings, exact). */
export type FilaIrpf = {
  solicitante_id: string;
  nombre: string;
  /** From the person's «Datos bancarios»; empty when not written there. */
  nif: string;
  email: string;
  dietas: number;
  kilometrajes: number;
} & Record<Importe, string>;

/**
 * The columns of the screen, the workbook and the CSV, in this order. `total`: the report's
 * total of that amount; `cuenta`: a count, totalled by adding the rows; `soloArchivo`: in the
 * files, not on the screen (it must fit without scrolling sideways); `ancho`: the workbook's
 * column width (16 unless said).
 */
export const COLUMNAS_IRPF: {
  header: string;
  value: (f: FilaIrpf) => string | number;
  money?: boolean;
  total?: Importe;
  cuenta?: boolean;
  soloArchivo?: boolean;
  ancho?: number;
  /** On the screen, a second line under the value (what a file gives a column of its own). */
  debajo?: (f: FilaIrpf) => string;
  /** On the screen, the value links there. */
  enlace?: (f: FilaIrpf) => string;
}[] = [
  // Without a NIF in their «Datos bancarios», the screen says so under the name, which leads there.
  {
    header: "Persona",
    value: (f) => f.nombre,
    ancho: 28,
    debajo: (f) => (f.nif ? `NIF ${f.nif}` : "Sin NIF"),
    enlace: (f) => `/usuarios/${f.solicitante_id}#titulo-datos-bancarios`,
  },
  // On the screen, under the person's name (the table must fit without scrolling sideways).
  { header: "NIF", value: (f) => f.nif, soloArchivo: true, ancho: 12 },
  { header: "Correo", value: (f) => f.email, soloArchivo: true, ancho: 28 },
  { header: "Dietas", value: (f) => f.dietas, cuenta: true },
  { header: "Dietas exentas", value: (f) => f.dietas_exento, money: true, total: "dietas_exento" },
  { header: "Dietas sujetas", value: (f) => f.dietas_sujeto, money: true, total: "dietas_sujeto" },
  { header: "Kilometrajes", value: (f) => f.kilometrajes, cuenta: true },
  { header: "Kilometraje exento", value: (f) => f.km_exento, money: true, total: "km_exento" },
  { header: "Kilometraje sujeto", value: (f) => f.km_sujeto, money: true, total: "km_sujeto" },
  { header: "Total exento", value: (f) => f.exento, money: true, total: "exento" },
  { header: "Total sujeto", value: (f) => f.sujeto, money: true, total: "sujeto" },
];

/** The total of a count column (`cuenta`): its rows added up. */
export const totalDeCuenta = (c: (typeof COLUMNAS_IRPF)[number], filas: readonly FilaIrpf[]) =>
  filas.reduce((n, f) => n + Number(c.value(f)), 0);
