import type { AppLoadContext, TypedResponse } from "@remix-run/node";
import { requireUser, type Signed } from "~/auth/session.server";
import { forbidden } from "~/crud/respuestas.server";
import type { ColumnOf, ListQuery, Store } from "~/data/store";
import { CSV_BOM, csvLine } from "~/lib/csv";
import {
  cabecerasDescarga,
  celdaCsv,
  celdaXlsx,
  conPlazo,
  hojaXlsx,
  totalXlsx,
  xlsxEnFlujo,
} from "~/lib/descarga.server";
import type { Formats } from "~/lib/format";
import { fromCents, toCents } from "~/lib/money";
import { COLUMNAS_FUENTE, COLUMNAS_LIBRO, FUENTE_LIBRO, SUMAS_LIBRO, type FilaLibro, type SumaLibro } from "./libro";
import { filtrosEntre, type Periodo } from "./periodo";

/** The libro and its exports are for administradores only (docs/producto.md «Datos fiscales»). */
export async function requireAdministrador(request: Request, context: AppLoadContext): Promise<Signed> {
  const signed = await requireUser(request, context);
  if (signed.user.rol !== "administrador")
    forbidden("Solo un administrador puede ver y descargar el libro registro de IVA.");
  return signed;
}

/**
 * The lines of a period (chosen by operation date), in the order the invoices were booked: their
 * reception number, given at approval and correlative within the year (a book read in date
 * order would show the numbers jumping back and forth).
 */
export function consultaLibro(periodo: Periodo): ListQuery<ColumnOf<typeof FUENTE_LIBRO>> {
  return {
    filters: filtrosEntre("fecha_operacion", periodo),
    order: [
      { column: "numero_recepcion", ascending: true },
      { column: "folio", ascending: true },
      { column: "linea", ascending: true },
    ],
    columns: [...COLUMNAS_FUENTE],
    limit: 0,
    offset: 0,
  };
}

export type ResumenLibro = {
  lineas: number;
  sumas: Record<SumaLibro, string>;
  porRevisar: number;
  /** The lines with inversión del sujeto pasivo: their cuota is IVA the company also owes. */
  inversion: { lineas: number; base_imponible: string; cuota_soportada: string };
};

/**
 * How many lines and their totals, summed by the database (exact); those with inversión del
 * sujeto pasivo apart; and how many approved or paid gastos of the period are missing from it
 * because their IVA breakdown is still to be reviewed.
 */
export async function resumenLibro(store: Store, periodo: Periodo): Promise<ResumenLibro> {
  const consulta = consultaLibro(periodo);
  const [{ total, sums }, inversion, revisar] = await Promise.all([
    store.list(FUENTE_LIBRO, { ...consulta, count: "exact", sum: [...SUMAS_LIBRO] }),
    store.list(FUENTE_LIBRO, {
      ...consulta,
      filters: [...(consulta.filters ?? []), { column: "inversion_sujeto_pasivo", op: "eq", value: true }],
      count: "exact",
      sum: ["base_imponible", "cuota_soportada"],
    }),
    store.list("gastos_vista", {
      filters: [
        { column: "estado", op: "in", value: ["aprobado", "pagado"] },
        ...filtrosEntre("fecha_gasto", periodo),
        { column: "desglose_revisar", op: "eq", value: true },
      ],
      columns: ["id"],
      limit: 0,
      offset: 0,
      count: "exact",
    }),
  ]);
  // The database's sums as canonical decimal strings ("0.00" when there is nothing to add).
  const exacto = (v: string | undefined) => fromCents(toCents(v ?? "0"));
  const sumas = Object.fromEntries(SUMAS_LIBRO.map((s) => [s, exacto(sums[s])])) as Record<SumaLibro, string>;
  return {
    lineas: total,
    sumas,
    porRevisar: revisar.total,
    inversion: {
      lineas: inversion.total,
      base_imponible: exacto(inversion.sums.base_imponible),
      cuota_soportada: exacto(inversion.sums.cuota_soportada),
    },
  };
}

const PAGINA = 1000;

/**
 * Every line of the query, page by page: from the store's stream (one cursor, one snapshot)
 * when it has one, else by offset. The reader's pace drives the reading: a page is fetched when
 * the previous one has been taken, and stopping the reader stops the stream.
 */
/** What reading the book needs of a store: a list, streamed where the adapter can. */
type LectorLibro = Pick<Store, "list" | "stream">;

export async function* paginasLibro(
  store: LectorLibro,
  query: ListQuery<ColumnOf<typeof FUENTE_LIBRO>>,
): AsyncGenerator<FilaLibro[]> {
  if (!store.stream) {
    for (let offset = 0; ; offset += PAGINA) {
      const { rows } = await store.list<FilaLibro>(FUENTE_LIBRO, { ...query, limit: PAGINA, offset, count: "none" });
      if (rows.length) yield rows;
      if (rows.length < PAGINA) return;
    }
  }
  const llegadas: FilaLibro[][] = [];
  let despertar: (() => void) | null = null;
  let seguir: (() => void) | null = null;
  let terminado = false;
  let fallo: { error: unknown } | null = null;
  let parado = false;
  const leyendo = store
    .stream<FilaLibro>(FUENTE_LIBRO, query, async (rows) => {
      if (parado) throw new Error("Descarga cancelada");
      // Until the reader asks for the next page; a reader that stops asking releases the cursor.
      await conPlazo(
        new Promise<void>((resolve) => {
          seguir = resolve;
          llegadas.push(rows);
          despertar?.();
        }),
      );
      if (parado) throw new Error("Descarga cancelada");
    })
    .then(
      () => void (terminado = true),
      (error: unknown) => void (fallo = { error }),
    )
    .finally(() => despertar?.());
  try {
    for (;;) {
      const rows = llegadas.shift();
      if (rows) {
        yield rows;
        const s = seguir as (() => void) | null;
        seguir = null;
        s?.();
        continue;
      }
      if (fallo) throw (fallo as { error: unknown }).error;
      if (terminado) return;
      await new Promise<void>((resolve) => (despertar = resolve));
      despertar = null;
    }
  } finally {
    parado = true;
    (seguir as (() => void) | null)?.();
    await leyendo;
  }
}

/** The file's name: «libro-facturas-recibidas-2026-4T.xlsx». */
export function nombreArchivo(periodo: Periodo, extension: "xlsx" | "csv") {
  return `libro-facturas-recibidas-${periodo.clave}.${extension}`;
}

/**
 * The libro as an XLSX workbook, streamed to the response as it is read (exceljs's streaming
 * writer: rows are committed as they come, nothing holds the whole period). A header row,
 * frozen; amounts as numbers with two decimals; dates as dates; a bold totals row whose figures
 * are the exact sums of the lines, added in cents.
 */
export function xlsxLibro(store: LectorLibro, periodo: Periodo): TypedResponse<never> {
  return xlsxEnFlujo(nombreArchivo(periodo, "xlsx"), async (libro, descarga) => {
    const hoja = hojaXlsx(libro, "RECIBIDAS", COLUMNAS_LIBRO, { alignment: { wrapText: true, vertical: "top" } });
    const sumas = Object.fromEntries(SUMAS_LIBRO.map((s) => [s, 0n])) as Record<SumaLibro, bigint>;
    let lineas = 0;
    // The client went away: leaving the loop ends the reading (paginasLibro's finally).
    for await (const filas of descarga.alRitmo(paginasLibro(store, consultaLibro(periodo)))) {
      for (const f of filas) {
        hoja.addRow(COLUMNAS_LIBRO.map((c) => celdaXlsx(c, f))).commit();
        for (const c of COLUMNAS_LIBRO) if (c.sum) sumas[c.sum] += toCents(String(c.value(f)));
      }
      lineas += filas.length;
    }
    if (descarga.cerrada) return;
    totalXlsx(hoja, COLUMNAS_LIBRO, sumas, `Total (${lineas} ${lineas === 1 ? "línea" : "líneas"})`);
    hoja.commit();
  });
}

/**
 * The libro as CSV for a Spanish Excel (app/lib/csv.ts: BOM, `;`, CRLF, formulas neutralised),
 * streamed. Lines only: a data file, without the totals row the workbook shows.
 */
export function csvLibro(store: LectorLibro, periodo: Periodo, formats: Formats): TypedResponse<never> {
  const encoder = new TextEncoder();
  const paginas = paginasLibro(store, consultaLibro(periodo));
  let empezado = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!empezado) {
        empezado = true;
        controller.enqueue(encoder.encode(CSV_BOM + csvLine(COLUMNAS_LIBRO.map((c) => c.header))));
        return;
      }
      const { value, done } = await paginas.next();
      if (done) return controller.close();
      controller.enqueue(
        encoder.encode(value.map((f) => csvLine(COLUMNAS_LIBRO.map((c) => celdaCsv(c, f, formats)))).join("")),
      );
    },
    async cancel() {
      await paginas.return(undefined);
    },
  });
  return new Response(body, {
    headers: cabecerasDescarga("text/csv; charset=utf-8", nombreArchivo(periodo, "csv")),
  }) as TypedResponse<never>;
}
