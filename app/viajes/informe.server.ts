import type { AppLoadContext, TypedResponse } from "@remix-run/node";
import ExcelJS from "exceljs";
import { requireUser, type Signed } from "~/auth/session.server";
import { forbidden } from "~/crud/respuestas.server";
import type { Filter, Store } from "~/data/store";
import { filtrosEntre, type Periodo } from "~/fiscal/periodo";
import { CSV_BOM, csvLine, type CsvCell } from "~/lib/csv";
import { cabecerasDescarga, textoXlsx, TIPO_XLSX } from "~/lib/descarga.server";
import type { Formats } from "~/lib/format";
import { formatDecimal, fromCents, toCents } from "~/lib/money";
import { COLUMNAS_IRPF, IMPORTES, totalDeCuenta, type FilaIrpf, type Importe } from "./informe";

/**
 * The IRPF report of dietas and kilometraje for payroll and the modelo 190 (docs/producto.md
 * «Viajes, kilometraje y dietas»): per person, the exempt and the taxable parts of what was
 * approved or paid in a period (by the gasto's date), from the view `informe_irpf`. Every sum is
 * in cents, never with floating point.
 */
export { INFORME_IRPF_PATH } from "./enlaces";

export async function requireAdministrador(request: Request, context: AppLoadContext): Promise<Signed> {
  const signed = await requireUser(request, context);
  if (signed.user.rol !== "administrador") forbidden("Solo un administrador puede ver y descargar el informe de IRPF.");
  return signed;
}

export type InformeIrpf = { filas: FilaIrpf[]; totales: Record<Importe, string>; gastos: number };

const PAGINA = 1000;

/**
 * Every approved or paid kilometraje and dieta of the period, summed per person in cents. Read
 * by pages after the last id read, not by offset: a gasto approved or revoked meanwhile cannot
 * shift the pages and so count another twice or skip it (the rows are summed, in any order).
 */
export async function informeIrpf(store: Store, periodo: Periodo, pagina = PAGINA): Promise<InformeIrpf> {
  const porPersona = new Map<string, Omit<FilaIrpf, Importe> & { c: Record<Importe, bigint> }>();
  const total = Object.fromEntries(IMPORTES.map((k) => [k, 0n])) as Record<Importe, bigint>;
  let gastos = 0;
  for (let despues: string | null = null; ;) {
    const rows = await paginaIrpf(store, periodo, despues, pagina);
    for (const l of rows) {
      despues = String(l.id);
      gastos += 1;
      // A view's columns are nullable by type; the report's lines always have a solicitante.
      const solicitante = String(l.solicitante_id);
      let p = porPersona.get(solicitante);
      if (!p) {
        p = {
          solicitante_id: solicitante,
          nombre: l.solicitante_nombre ?? l.solicitante_email ?? "",
          email: l.solicitante_email ?? "",
          nif: l.solicitante_nif ?? "",
          dietas: 0,
          kilometrajes: 0,
          c: Object.fromEntries(IMPORTES.map((k) => [k, 0n])) as Record<Importe, bigint>,
        };
        porPersona.set(solicitante, p);
      }
      // Exact text from pg, a JSON number from PostgREST.
      const exento = toCents(String(l.exento_irpf ?? 0));
      const sujeto = toCents(String(l.sujeto_irpf ?? 0));
      const suma = (k: Importe, v: bigint) => {
        p.c[k] += v;
        total[k] += v;
      };
      if (l.clase === "dieta") {
        p.dietas += 1;
        suma("dietas_exento", exento);
        suma("dietas_sujeto", sujeto);
      } else {
        p.kilometrajes += 1;
        suma("km_exento", exento);
        suma("km_sujeto", sujeto);
      }
      suma("exento", exento);
      suma("sujeto", sujeto);
    }
    if (rows.length < pagina) break;
  }
  const filas = [...porPersona.values()]
    .map(({ c, ...p }) => ({
      ...p,
      ...(Object.fromEntries(IMPORTES.map((k) => [k, fromCents(c[k])])) as Record<Importe, string>),
    }))
    .sort((a, b) => a.nombre.localeCompare(b.nombre, "es"));
  return {
    filas,
    totales: Object.fromEntries(IMPORTES.map((k) => [k, fromCents(total[k])])) as Record<Importe, string>,
    gastos,
  };
}

/** The report's lines of the period after the one with id `despues` (from the first if null). */
async function paginaIrpf(store: Store, periodo: Periodo, despues: string | null, limit: number) {
  const { rows } = await store.list("informe_irpf", {
    filters: [
      ...filtrosEntre("fecha_gasto", periodo),
      ...(despues === null ? [] : [{ column: "id", op: "gt", value: despues } satisfies Filter]),
    ],
    order: [{ column: "id", ascending: true }],
    columns: [
      "id",
      "solicitante_id",
      "solicitante_nombre",
      "solicitante_email",
      "solicitante_nif",
      "clase",
      "importe",
      "exento_irpf",
      "sujeto_irpf",
    ],
    limit,
    offset: 0,
    count: "none",
  });
  return rows;
}

export function nombreArchivoIrpf(periodo: Periodo, extension: "xlsx" | "csv") {
  return `informe-irpf-dietas-kilometraje-${periodo.clave}.${extension}`;
}

/** The report as a workbook: one row per person, a frozen header, amounts with two decimals and a bold totals row. */
export async function xlsxIrpf(store: Store, periodo: Periodo): Promise<TypedResponse<never>> {
  const informe = await informeIrpf(store, periodo);
  const libro = new ExcelJS.Workbook();
  const hoja = libro.addWorksheet("IRPF", { views: [{ state: "frozen", ySplit: 1 }] });
  hoja.columns = COLUMNAS_IRPF.map((c, i) => ({
    key: String(i),
    width: c.ancho ?? 16,
    ...(c.money ? { style: { numFmt: "#,##0.00" } } : {}),
  }));
  const cabecera = hoja.addRow(COLUMNAS_IRPF.map((c) => c.header));
  cabecera.font = { bold: true };
  for (const f of informe.filas)
    // An empty text (a person without a NIF) is an empty cell.
    hoja.addRow(
      COLUMNAS_IRPF.map((c) => (c.money ? Number(c.value(f)) : c.value(f) === "" ? null : textoXlsx(c.value(f)))),
    );
  const total = hoja.addRow(
    COLUMNAS_IRPF.map((c, i) => {
      if (i === 0) return `Total (${periodo.titulo})`;
      if (c.cuenta) return totalDeCuenta(c, informe.filas);
      return c.total ? Number(informe.totales[c.total]) : null;
    }),
  );
  total.font = { bold: true };
  const buffer = await libro.xlsx.writeBuffer();
  return new Response(new Uint8Array(buffer as ArrayBuffer), {
    headers: cabecerasDescarga(TIPO_XLSX, nombreArchivoIrpf(periodo, "xlsx")),
  }) as TypedResponse<never>;
}

/** The report as CSV for a Spanish Excel (BOM, `;`, decimal comma), one row per person, no totals row. */
export async function csvIrpf(store: Store, periodo: Periodo, formats: Formats): Promise<TypedResponse<never>> {
  const informe = await informeIrpf(store, periodo);
  const celda = (c: (typeof COLUMNAS_IRPF)[number], f: FilaIrpf): CsvCell =>
    c.money ? formatDecimal(String(c.value(f)), formats.locale) : c.value(f);
  const texto =
    CSV_BOM +
    csvLine(COLUMNAS_IRPF.map((c) => c.header)) +
    informe.filas.map((f) => csvLine(COLUMNAS_IRPF.map((c) => celda(c, f)))).join("");
  return new Response(texto, {
    headers: cabecerasDescarga("text/csv; charset=utf-8", nombreArchivoIrpf(periodo, "csv")),
  }) as TypedResponse<never>;
}
