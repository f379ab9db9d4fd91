import { once } from "node:events";
import { PassThrough, Readable } from "node:stream";
import type { AppLoadContext, TypedResponse } from "@remix-run/node";
import ExcelJS from "exceljs";
import { requireUser, type Signed } from "~/auth/session.server";
import { forbidden } from "~/crud/crud.server";
import type { Store } from "~/data/store";
import type { Periodo } from "~/fiscal/periodo";
import { CSV_BOM, csvLine, type CsvCell } from "~/lib/csv";
import { addDaysISO, formatDate, monthRange } from "~/lib/dates";
import type { Formats } from "~/lib/format";
import { formatDecimal, fromCents, toCents } from "~/lib/money";
import { bytesAnsi, FIN_DE_LINEA, registroDiario, registroSubcuenta } from "./contaplus";
import {
  COLUMNAS_DIARIO,
  normalizarApunte,
  normalizarResumen,
  Subcuentas,
  type Apunte,
  type ColumnaDiario,
  type ResumenDiario,
} from "./diario";

/** The libro diario and its files are for administradores only (docs/contabilidad.md). */
export async function requireAdministrador(request: Request, context: AppLoadContext): Promise<Signed> {
  const signed = await requireUser(request, context);
  if (signed.user.rol !== "administrador") forbidden("Solo un administrador puede ver y descargar el libro diario.");
  return signed;
}

const argumentos = (periodo: Periodo) => ({ p_desde: periodo.desde, p_hasta: periodo.hasta });

/** The period's figures, summed by the database (exact). */
export async function resumenDiario(store: Store, periodo: Periodo): Promise<ResumenDiario> {
  return normalizarResumen(await store.rpc<Record<string, unknown>>("resumen_diario", argumentos(periodo)));
}

async function pagina(store: Store, periodo: Periodo, despues: number, limite: number): Promise<Apunte[]> {
  const rows = await store.rpc<Record<string, unknown>[] | null>("libro_diario", {
    ...argumentos(periodo),
    p_despues: despues,
    p_limite: limite,
  });
  return (rows ?? []).map(normalizarApunte);
}

/**
 * The first asientos of the period, whole, for the screen: up to `max` apuntes, without an
 * asiento cut in two (unless the first alone is longer). Only the first months are read.
 */
export async function primerosAsientos(store: Store, periodo: Periodo, max = 60): Promise<Apunte[]> {
  const apuntes: Apunte[] = [];
  for await (const leidos of paginasDiario(store, periodo)) {
    apuntes.push(...leidos);
    if (apuntes.length > max) break;
  }
  if (apuntes.length <= max) return apuntes;
  const ultimo = apuntes[max]!.asiento;
  const enteros = apuntes.slice(0, max).filter((a) => a.asiento !== ultimo);
  return enteros.length ? enteros : apuntes.slice(0, max);
}

/**
 * Apuntes asked for per call. More than PostgREST usually gives (its max-rows cuts the page, and
 * the loop goes on), so that the SQL adapter, which has no cap, reads a month in one call.
 */
const PAGINA = 5000;

/** The period in calendar months (the first and last cut to the period). */
export function meses(periodo: Periodo): Periodo[] {
  const out: Periodo[] = [];
  for (let desde = periodo.desde; desde <= periodo.hasta;) {
    const fin = monthRange(desde.slice(0, 7)).to;
    const hasta = fin < periodo.hasta ? fin : periodo.hasta;
    out.push({ ...periodo, desde, hasta });
    desde = addDaysISO(fin, 1);
  }
  return out;
}

/**
 * Every apunte of the period, a page at a time, each page read when the previous one has been
 * taken. Read month by month, so that no call works out more than a month (asientos are numbered
 * by date: a month's come after the previous months', and their numbers carry on from them). A
 * month is read until its last apunte (`total`), not until a short page: a server that caps the
 * rows of an answer (PostgREST's max-rows) shortens the pages but never the journal.
 */
export async function* paginasDiario(store: Store, periodo: Periodo): AsyncGenerator<Apunte[]> {
  let asientos = 0;
  let apuntes = 0;
  for (const mes of meses(periodo)) {
    let ultimo: Apunte | null = null;
    for (let despues = 0; ;) {
      const leidos = await pagina(store, mes, despues, PAGINA);
      if (!leidos.length) break;
      const fin = leidos[leidos.length - 1]!;
      despues = fin.n;
      ultimo = { ...fin, asiento: fin.asiento + asientos, n: fin.n + apuntes };
      yield leidos.map((a) => ({ ...a, asiento: a.asiento + asientos, n: a.n + apuntes }));
      if (despues >= fin.total) break;
    }
    if (ultimo) {
      asientos = ultimo.asiento;
      apuntes = ultimo.n;
    }
  }
}

/** «libro-diario-2026-4T.xlsx». */
export function nombreArchivo(periodo: Periodo, extension: "xlsx" | "csv") {
  return `libro-diario-${periodo.clave}.${extension}`;
}

function cabeceras(tipo: string, nombre: string) {
  return {
    "Content-Type": tipo,
    "Content-Disposition": `attachment; filename="${nombre}"`,
    "Cache-Control": "private, no-store",
  };
}

const NUM_FMT: Record<NonNullable<ColumnaDiario["kind"]>, string> = {
  money: "#,##0.00",
  integer: "0",
  date: "dd/mm/yyyy",
};

async function drenada(stream: PassThrough) {
  const fin = new AbortController();
  try {
    await Promise.race([once(stream, "drain", { signal: fin.signal }), once(stream, "close", { signal: fin.signal })]);
  } finally {
    fin.abort();
  }
}

function celdaXlsx(c: ColumnaDiario, a: Apunte): ExcelJS.CellValue {
  const v = c.value(a);
  if (v === null || v === "") return null;
  if (c.kind === "money") return Number(v);
  if (c.kind === "date") return new Date(`${String(v)}T00:00:00Z`);
  return v;
}

/**
 * The diario as an XLSX workbook, streamed as it is read: sheet «Diario» (a header row, frozen;
 * amounts as numbers with two decimals, dates as dates; a bold totals row whose debe and haber
 * are the exact sums, in cents) and sheet «Subcuentas» (each subcuenta the period uses, with its
 * title and NIF: what the gestoría creates before importing).
 */
export function xlsxDiario(store: Store, periodo: Periodo): TypedResponse<never> {
  const salida = new PassThrough();
  const libro = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: salida, useStyles: true, useSharedStrings: false });
  const hoja = libro.addWorksheet("Diario", { views: [{ state: "frozen", ySplit: 1 }] });
  hoja.columns = COLUMNAS_DIARIO.map((c, i) => ({
    key: String(i),
    width: c.width,
    ...(c.kind ? { style: { numFmt: NUM_FMT[c.kind] } } : {}),
  }));
  const cabecera = hoja.addRow(COLUMNAS_DIARIO.map((c) => c.header));
  cabecera.font = { bold: true };
  cabecera.commit();

  (async () => {
    const sumas = { debe: 0n, haber: 0n };
    const subcuentas = new Subcuentas();
    let asientos = 0;
    for await (const apuntes of paginasDiario(store, periodo)) {
      if (salida.destroyed) return;
      for (const a of apuntes) {
        hoja.addRow(COLUMNAS_DIARIO.map((c) => celdaXlsx(c, a))).commit();
        sumas.debe += toCents(a.debe);
        sumas.haber += toCents(a.haber);
        subcuentas.add(a);
        asientos = a.asiento;
      }
      if (salida.writableNeedDrain) await drenada(salida);
    }
    if (salida.destroyed) return;
    const total = hoja.addRow(
      COLUMNAS_DIARIO.map((c, i) =>
        c.sum
          ? Number(fromCents(sumas[c.sum]))
          : i === 0
            ? `Total (${asientos} ${asientos === 1 ? "asiento" : "asientos"})`
            : null,
      ),
    );
    total.font = { bold: true };
    total.commit();
    hoja.commit();

    const hojaSubcuentas = libro.addWorksheet("Subcuentas", { views: [{ state: "frozen", ySplit: 1 }] });
    hojaSubcuentas.columns = [{ width: 11 }, { width: 40 }, { width: 15 }];
    const cab = hojaSubcuentas.addRow(["Subcuenta", "Descripción", "NIF"]);
    cab.font = { bold: true };
    cab.commit();
    for (const s of subcuentas.list()) hojaSubcuentas.addRow([s.subcuenta, s.titulo, s.nif]).commit();
    hojaSubcuentas.commit();
    await libro.commit();
  })().catch((error: unknown) => salida.destroy(error instanceof Error ? error : new Error(String(error))));

  return new Response(Readable.toWeb(salida) as unknown as ReadableStream<Uint8Array>, {
    headers: cabeceras(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      nombreArchivo(periodo, "xlsx"),
    ),
  }) as TypedResponse<never>;
}

function celdaCsv(c: ColumnaDiario, a: Apunte, formats: Formats): CsvCell {
  const v = c.value(a);
  if (v === null || v === "") return null;
  if (c.kind === "money") return formatDecimal(String(v), formats.locale);
  if (c.kind === "date") return formatDate(String(v), formats.locale);
  return v;
}

/** A streamed text file: `inicio` first, then `lineas` of each page. */
function textoEnFlujo(
  paginas: AsyncGenerator<Apunte[]>,
  inicio: Uint8Array | null,
  lineas: (apuntes: Apunte[]) => Uint8Array,
  fin?: () => Uint8Array | null,
): ReadableStream<Uint8Array> {
  let empezado = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!empezado) {
        empezado = true;
        if (inicio) return controller.enqueue(inicio);
      }
      const { value, done } = await paginas.next();
      if (done) {
        const cola = fin?.();
        if (cola?.length) controller.enqueue(cola);
        return controller.close();
      }
      controller.enqueue(lineas(value));
    },
    async cancel() {
      await paginas.return(undefined);
    },
  });
}

/** The diario as CSV for a Spanish Excel (app/lib/csv.ts: BOM, `;`, CRLF, formulas neutralised). */
export function csvDiario(store: Store, periodo: Periodo, formats: Formats): TypedResponse<never> {
  const encoder = new TextEncoder();
  const body = textoEnFlujo(
    paginasDiario(store, periodo),
    encoder.encode(CSV_BOM + csvLine(COLUMNAS_DIARIO.map((c) => c.header))),
    (apuntes) =>
      encoder.encode(apuntes.map((a) => csvLine(COLUMNAS_DIARIO.map((c) => celdaCsv(c, a, formats)))).join("")),
  );
  return new Response(body, {
    headers: cabeceras("text/csv; charset=utf-8", nombreArchivo(periodo, "csv")),
  }) as TypedResponse<never>;
}

/** ContaPlus's XDiario.txt of the period (app/contabilidad/contaplus.ts). */
export function xdiario(store: Store, periodo: Periodo): TypedResponse<never> {
  const body = textoEnFlujo(paginasDiario(store, periodo), null, (apuntes) =>
    bytesAnsi(apuntes.map((a) => registroDiario(a) + FIN_DE_LINEA).join("")),
  );
  return new Response(body, {
    headers: cabeceras("text/plain; charset=windows-1252", "XDiario.txt"),
  }) as TypedResponse<never>;
}

/** ContaPlus's XSubCta.txt: the subcuentas of the period's apuntes, in order. */
export function xsubcta(store: Store, periodo: Periodo): TypedResponse<never> {
  const subcuentas = new Subcuentas();
  const body = textoEnFlujo(
    paginasDiario(store, periodo),
    null,
    (apuntes) => {
      for (const a of apuntes) subcuentas.add(a);
      return new Uint8Array();
    },
    () =>
      bytesAnsi(
        subcuentas
          .list()
          .map((s) => registroSubcuenta(s) + FIN_DE_LINEA)
          .join(""),
      ),
  );
  return new Response(body, {
    headers: cabeceras("text/plain; charset=windows-1252", "XSubCta.txt"),
  }) as TypedResponse<never>;
}
