import { once } from "node:events";
import { PassThrough, Readable } from "node:stream";
import type { TypedResponse } from "@remix-run/node";
import ExcelJS from "exceljs";
import { formatDate } from "./dates";
import type { Formats } from "./format";
import { formatDecimal, fromCents } from "./money";
import type { CsvCell } from "./csv";

/**
 * The plumbing of the downloaded books (the libro diario, the libro registro de IVA, the IRPF
 * report): their headers, their cells by kind and the XLSX workbook streamed as it is written.
 */

/** The headers of a file to download, which no cache keeps. */
export function cabecerasDescarga(tipo: string, nombre: string) {
  return {
    "Content-Type": tipo,
    "Content-Disposition": `attachment; filename="${nombre}"`,
    "Cache-Control": "private, no-store",
  };
}

/**
 * How long a download that holds a database cursor may wait for a client that takes nothing.
 * Past it the download stops and the connection goes back to its pool: a stalled client (or ten
 * of them, the whole pool) would otherwise hold it for as long as its socket stays open.
 */
export const PLAZO_DESCARGA_DETENIDA_MS = 60_000;

export class DescargaDetenida extends Error {
  override readonly name = "DescargaDetenida";
  constructor() {
    super(`Descarga detenida: el cliente no ha leído nada en ${PLAZO_DESCARGA_DETENIDA_MS / 1000} s`);
  }
}

/** `espera` (the client's next read), or DescargaDetenida once the client has taken nothing for the limit. */
export async function conPlazo<T>(espera: Promise<T>): Promise<T> {
  let plazo: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      espera,
      new Promise<never>((_, reject) => {
        plazo = setTimeout(() => reject(new DescargaDetenida()), PLAZO_DESCARGA_DETENIDA_MS);
      }),
    ]);
  } finally {
    clearTimeout(plazo);
  }
}

export const TIPO_XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * A column of a downloaded book: `kind` says how the XLSX and the CSV write its value; `sum` names
 * the total it carries in the totals row (`totalXlsx`).
 */
export type ColumnaDescarga<F, S extends string = string> = {
  header: string;
  kind?: "money" | "date" | "integer" | "percent";
  width: number;
  value: (f: F) => string | number | null;
  sum?: S;
};

const NUM_FMT: Record<NonNullable<ColumnaDescarga<unknown>["kind"]>, string> = {
  money: "#,##0.00",
  percent: "0.00",
  integer: "0",
  date: "dd/mm/yyyy",
};

/**
 * What XML 1.0 does not allow in a text and exceljs leaves in (it drops C0 controls and DEL
 * itself): U+FFFE, U+FFFF and a lone surrogate. One of them in a name someone typed made the
 * whole workbook unreadable (Excel's «problema con el contenido»), so they go.
 */
const NO_XML = /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A text as a workbook's cell can hold it. */
export function textoXlsx<T>(v: T): T {
  return (typeof v === "string" ? v.replace(NO_XML, "") : v) as T;
}

/** A cell's value in the workbook: amounts as numbers (only to be shown; every sum is in cents). */
export function celdaXlsx<F>(c: ColumnaDescarga<F>, f: F): ExcelJS.CellValue {
  const v = c.value(f);
  if (v === null || v === "") return null;
  if (c.kind === "money" || c.kind === "percent") return Number(v);
  // A date without time as the spreadsheet's date (midnight UTC: no zone can shift the day).
  if (c.kind === "date") return new Date(`${String(v)}T00:00:00Z`);
  return textoXlsx(v);
}

/** A CSV cell with the lists' conventions (app/crud/cells.ts): decimal comma, dates as shown. */
export function celdaCsv<F>(c: ColumnaDescarga<F>, f: F, formats: Formats): CsvCell {
  const v = c.value(f);
  if (v === null || v === "") return null;
  if (c.kind === "money" || c.kind === "percent") return formatDecimal(String(v), formats.locale);
  if (c.kind === "date") return formatDate(String(v), formats.locale);
  return v;
}

type Libro = ExcelJS.stream.xlsx.WorkbookWriter;

/** A sheet whose first row, frozen and bold, holds the columns' headers. */
export function hojaXlsx<F>(
  libro: Libro,
  nombre: string,
  columnas: readonly ColumnaDescarga<F>[],
  cabecera: Partial<Pick<ExcelJS.Row, "alignment">> = {},
): ExcelJS.Worksheet {
  const hoja = libro.addWorksheet(nombre, { views: [{ state: "frozen", ySplit: 1 }] });
  hoja.columns = columnas.map((c, i) => ({
    key: String(i),
    width: c.width,
    ...(c.kind ? { style: { numFmt: NUM_FMT[c.kind] } } : {}),
  }));
  const fila = hoja.addRow(columnas.map((c) => c.header));
  fila.font = { bold: true };
  Object.assign(fila, cabecera);
  fila.commit();
  return hoja;
}

/** The bold totals row: `etiqueta` in the first column, each summed column's exact sum (cents). */
export function totalXlsx<F, S extends string>(
  hoja: ExcelJS.Worksheet,
  columnas: readonly ColumnaDescarga<F, S>[],
  sumas: Record<S, bigint>,
  etiqueta: string,
) {
  const total = hoja.addRow(
    columnas.map((c, i) => (c.sum ? Number(fromCents(sumas[c.sum])) : i === 0 ? etiqueta : null)),
  );
  total.font = { bold: true };
  total.commit();
}

/** What a streamed workbook's writer knows of its download. */
export type Descarga = {
  /** The client went away: nothing more is to be written. */
  readonly cerrada: boolean;
  /**
   * The pages at the download's pace: the next is read only when the client has taken what is
   * written, and none once it has gone (leaving the loop ends the reading); DescargaDetenida when
   * it has taken nothing for PLAZO_DESCARGA_DETENIDA_MS.
   */
  alRitmo<T>(paginas: AsyncIterable<T>): AsyncGenerator<T>;
};

/**
 * An XLSX workbook streamed to the response as it is written (exceljs's streaming writer: rows
 * are committed as they come, nothing holds the whole book). What `escribir` does before its
 * first wait is done before the answer; a later failure errors the body, and the browser
 * reports a failed download.
 */
export function xlsxEnFlujo(
  nombre: string,
  escribir: (libro: Libro, descarga: Descarga) => Promise<void>,
): TypedResponse<never> {
  const salida = new PassThrough();
  const libro = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: salida, useStyles: true, useSharedStrings: false });
  const descarga: Descarga = {
    get cerrada() {
      return salida.destroyed;
    },
    async *alRitmo(paginas) {
      for await (const pagina of paginas) {
        if (salida.destroyed) return;
        yield pagina;
        // A client that stops reading without going away ends the download past the limit: its
        // socket and what is buffered for it are not held for as long as it stays connected.
        if (salida.writableNeedDrain) await conPlazo(drenada(salida));
      }
    },
  };
  escribir(libro, descarga)
    .then(() => (salida.destroyed ? undefined : libro.commit()))
    .catch((error: unknown) => salida.destroy(error instanceof Error ? error : new Error(String(error))));
  return new Response(Readable.toWeb(salida) as ReadableStream, {
    headers: cabecerasDescarga(TIPO_XLSX, nombre),
  }) as TypedResponse<never>;
}

/** Until `stream` drains or closes, without leaving listeners behind on it. */
async function drenada(stream: PassThrough) {
  const fin = new AbortController();
  try {
    await Promise.race([once(stream, "drain", { signal: fin.signal }), once(stream, "close", { signal: fin.signal })]);
  } finally {
    fin.abort();
  }
}
