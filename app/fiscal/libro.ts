import type { ColumnaDescarga } from "~/lib/descarga.server";
import { trimestreDe } from "./periodo";

/**
 * The libro registro de facturas recibidas as the AEAT lays it out for the IVA books kept in a
 * spreadsheet or CSV (sheet RECIBIDAS: one line per invoice and IVA rate), as far as Oficina has
 * the data; docs/producto.md «Datos fiscales» says which columns and why. One row of the view
 * public.libro_facturas_recibidas is one line.
 */
export type FilaLibro = {
  id: string;
  folio: string;
  numero_recepcion: string | null;
  fecha_expedicion: string;
  fecha_operacion: string;
  numero_factura: string | null;
  tipo_documento: string;
  emisor_nif: string | null;
  emisor_nombre: string | null;
  /** The issuer's country (ISO 3166-1 alpha-2): the supplier's, or the one typed with its NIF. */
  pais_expedidor: string | null;
  linea: number;
  /** The breakdown line's key: a percentage, or «exento». */
  tipo_iva: string;
  porcentaje: string | null;
  base_imponible: string;
  cuota_soportada: string;
  cuota_deducible: string;
  total: string;
  /** The invoice came without IVA and the company declares it (its cuota is not in the total). */
  inversion_sujeto_pasivo: boolean;
};

/** The view, and the amounts the totals add up (numeric(14,2): exact decimal strings). */
export const FUENTE_LIBRO = "libro_facturas_recibidas";
export const SUMAS_LIBRO = ["total", "base_imponible", "cuota_soportada", "cuota_deducible"] as const;
export type SumaLibro = (typeof SUMAS_LIBRO)[number];

/**
 * «Tipo de factura» in the AEAT's codes: F1 an invoice naming the recipient, F2 a simplified one
 * (a ticket is one since 2013). A gasto without any document has no code.
 */
export const TIPO_FACTURA: Record<string, string> = {
  factura_completa: "F1",
  factura_simplificada: "F2",
  ticket: "F2",
};

/**
 * The columns: `kind` as the lists' columns say it (the CSV writes it with the same conventions),
 * plus `integer` for the year; `sum` names the total each carries in the totals row.
 */
export const COLUMNAS_LIBRO: readonly ColumnaDescarga<FilaLibro, SumaLibro>[] = [
  // Ejercicio and Periodo: the year and quarter of the operation's date (the AEAT's rule).
  { header: "Ejercicio", kind: "integer", width: 10, value: (f) => Number(f.fecha_operacion.slice(0, 4)) },
  { header: "Periodo", width: 9, value: (f) => `${trimestreDe(f.fecha_operacion)}T` },
  { header: "Tipo de factura", width: 10, value: (f) => TIPO_FACTURA[f.tipo_documento] ?? null },
  { header: "Fecha de expedición", kind: "date", width: 13, value: (f) => f.fecha_expedicion },
  { header: "Fecha de operación", kind: "date", width: 13, value: (f) => f.fecha_operacion },
  { header: "Serie-número de la factura", width: 22, value: (f) => f.numero_factura },
  // The AEAT's correlative reception number, given when the gasto is approved (fijar_al_aprobar).
  { header: "Número de recepción", width: 17, value: (f) => f.numero_recepcion },
  // Only for a foreign issuer, as the AEAT's books fill it (a Spanish NIF needs no country).
  {
    header: "Código país del expedidor",
    width: 10,
    value: (f) => (f.pais_expedidor && f.pais_expedidor !== "ES" ? f.pais_expedidor : null),
  },
  { header: "NIF del expedidor", width: 14, value: (f) => f.emisor_nif },
  { header: "Nombre del expedidor", width: 36, value: (f) => f.emisor_nombre },
  { header: "Total factura", kind: "money", width: 14, value: (f) => f.total, sum: "total" },
  { header: "Base imponible", kind: "money", width: 14, value: (f) => f.base_imponible, sum: "base_imponible" },
  // An exempt operation has no rate (left empty, as the AEAT's books do); one at 0 % has 0.
  {
    header: "Tipo de IVA (%)",
    kind: "percent",
    width: 10,
    value: (f) => (f.tipo_iva === "exento" ? null : f.porcentaje),
  },
  {
    header: "Cuota de IVA soportado",
    kind: "money",
    width: 14,
    value: (f) => f.cuota_soportada,
    sum: "cuota_soportada",
  },
  { header: "Cuota deducible", kind: "money", width: 14, value: (f) => f.cuota_deducible, sum: "cuota_deducible" },
  // «S» or «N», as the AEAT's books write it.
  { header: "Inversión del sujeto pasivo", width: 12, value: (f) => (f.inversion_sujeto_pasivo ? "S" : "N") },
];

/** The view's columns the libro reads (the rest of the view is not fetched). */
export const COLUMNAS_FUENTE: readonly (keyof FilaLibro)[] = [
  "id",
  "folio",
  "numero_recepcion",
  "fecha_expedicion",
  "fecha_operacion",
  "numero_factura",
  "tipo_documento",
  "emisor_nif",
  "emisor_nombre",
  "pais_expedidor",
  "linea",
  "tipo_iva",
  "porcentaje",
  "base_imponible",
  "cuota_soportada",
  "cuota_deducible",
  "total",
  "inversion_sujeto_pasivo",
];
