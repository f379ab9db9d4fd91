import { leerPeriodo, type LecturaPeriodo } from "~/fiscal/periodo";
import type { ColumnaDescarga } from "~/lib/descarga.server";
import { fromCents, toCents } from "~/lib/money";

/**
 * The longest period the libro diario takes, in calendar months: it is read a month at a time,
 * so this bounds the calls one request makes (the database refuses longer periods too).
 */
export const MAX_MESES_DIARIO = 24;

/** Calendar months a period touches: 2025-12-15 → 2026-01-10 is two. */
export function mesesDelPeriodo(desde: string, hasta: string): number {
  const mes = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7));
  return mes(hasta) - mes(desde) + 1;
}

/** The widest asiento number ContaPlus takes (its «Asien» has 6 characters). */
export const MAX_ASIENTO = 999_999;

/**
 * Why ContaPlus cannot take the period numbered from `primerAsiento` (its last asiento would pass
 * MAX_ASIENTO), or null: the XDiario download refuses it and the screen says it beforehand.
 */
export function numeracionFueraDeContaPlus(primerAsiento: number, asientos: number): string | null {
  return primerAsiento - 1 + asientos > MAX_ASIENTO
    ? `Empezando en el ${primerAsiento}, el último de los ${asientos} asientos del periodo sería el ${primerAsiento - 1 + asientos}, y ContaPlus admite como mucho el ${MAX_ASIENTO}. Elija un primer número menor`
    : null;
}

/**
 * The journal's form: the libro de IVA's period (app/fiscal/periodo.ts), at most
 * MAX_MESES_DIARIO months long (a longer one is said beside «Hasta»), and the optional number of
 * its first asiento (`primero`, 1 when empty), for a gestoría that carries on its own numbering.
 */
export type LecturaDiario = LecturaPeriodo & {
  /** The field as sent. */
  primero: string;
  /** The first asiento's number; 1 unless one is given. */
  primerAsiento: number;
  errorPrimero: string | null;
};

export function leerPeriodoDiario(params: URLSearchParams, hoy: string, locale = "es-ES"): LecturaDiario {
  const lectura = leerPeriodo(params, hoy, locale);
  const primero = (params.get("primero") ?? "").trim().slice(0, 20);
  const numero = primero === "" ? 1 : /^\d{1,6}$/.test(primero) ? Number(primero) : 0;
  const errorPrimero =
    numero >= 1 && numero <= MAX_ASIENTO
      ? null
      : `Escriba el primer número de asiento como un número entero de 1 a ${MAX_ASIENTO}, o déjelo vacío para empezar en 1`;
  const p = lectura.periodo;
  const largo = p !== null && mesesDelPeriodo(p.desde, p.hasta) > MAX_MESES_DIARIO;
  return {
    ...lectura,
    periodo: largo || errorPrimero ? null : p,
    errores: largo
      ? {
          ...lectura.errores,
          hasta: `El libro diario abarca como mucho ${MAX_MESES_DIARIO} meses: elija una fecha «Hasta» anterior o descárguelo en varias veces`,
        }
      : lectura.errores,
    primero,
    primerAsiento: errorPrimero ? 1 : numero,
    errorPrimero,
  };
}

/**
 * One apunte of the libro diario, as public.libro_diario gives it (docs/contabilidad.md): the
 * asiento it belongs to (numbered within the period, by date), its line, the 8-digit subcuenta
 * and its title, and the amounts as exact decimal strings.
 */
export type Apunte = {
  n: number;
  asiento: number;
  linea: number;
  fecha: string;
  cuenta: string;
  subcuenta: string;
  titulo: string;
  concepto: string;
  debe: string;
  haber: string;
  documento: string;
  contrapartida: string | null;
  base_imponible: string | null;
  porcentaje_iva: string | null;
  nif: string | null;
  numero_factura: string | null;
  /** How many apuntes the period (the one asked for) has. */
  total: number;
  /** A digest of all the period's apuntes: it changes when the period does. */
  huella: string;
};

/** An amount as it came (pg: "12.50"; PostgREST: 12.5) → "12.50". */
export function importe(v: unknown): string {
  return fromCents(toCents(String(v)));
}

/** A row of the function, with its amounts and numbers in one shape whatever the backend. */
export function normalizarApunte(row: Record<string, unknown>): Apunte {
  const opcional = (v: unknown) => (v === null || v === undefined ? null : importe(v));
  return {
    n: Number(row.n),
    asiento: Number(row.asiento),
    linea: Number(row.linea),
    fecha: String(row.fecha).slice(0, 10),
    cuenta: String(row.cuenta),
    subcuenta: String(row.subcuenta),
    titulo: String(row.titulo ?? ""),
    concepto: String(row.concepto ?? ""),
    debe: importe(row.debe),
    haber: importe(row.haber),
    documento: String(row.documento),
    contrapartida: (row.contrapartida as string | null) ?? null,
    base_imponible: opcional(row.base_imponible),
    porcentaje_iva: opcional(row.porcentaje_iva),
    nif: (row.nif as string | null) ?? null,
    numero_factura: (row.numero_factura as string | null) ?? null,
    total: Number(row.total),
    huella: String(row.huella ?? ""),
  };
}

export type ResumenDiario = {
  asientos: number;
  apuntes: number;
  debe: string;
  haber: string;
  descuadrados: number;
  gastos: number;
  remesas: number;
  pendientes: number;
  por_revisar: number;
  pagados_fuera: number;
};

export function normalizarResumen(r: Record<string, unknown>): ResumenDiario {
  const n = (k: string) => Number(r[k] ?? 0);
  return {
    asientos: n("asientos"),
    apuntes: n("apuntes"),
    debe: importe(r.debe ?? "0"),
    haber: importe(r.haber ?? "0"),
    descuadrados: n("descuadrados"),
    gastos: n("gastos"),
    remesas: n("remesas"),
    pendientes: n("pendientes"),
    por_revisar: n("por_revisar"),
    pagados_fuera: n("pagados_fuera"),
  };
}

/** The columns of the XLSX and CSV files (and of the screen's preview). */
export const COLUMNAS_DIARIO: readonly ColumnaDescarga<Apunte, "debe" | "haber">[] = [
  { header: "Asiento", kind: "integer", width: 9, value: (a) => a.asiento },
  { header: "Fecha", kind: "date", width: 12, value: (a) => a.fecha },
  { header: "Cuenta", width: 8, value: (a) => a.cuenta },
  { header: "Subcuenta", width: 11, value: (a) => a.subcuenta },
  { header: "Descripción de la subcuenta", width: 36, value: (a) => a.titulo },
  { header: "Concepto", width: 44, value: (a) => a.concepto },
  { header: "Debe", kind: "money", width: 13, value: (a) => (a.debe === "0.00" ? null : a.debe), sum: "debe" },
  { header: "Haber", kind: "money", width: 13, value: (a) => (a.haber === "0.00" ? null : a.haber), sum: "haber" },
  { header: "Documento", width: 17, value: (a) => a.documento },
  { header: "Contrapartida", width: 11, value: (a) => a.contrapartida },
  { header: "Base imponible", kind: "money", width: 13, value: (a) => a.base_imponible },
  { header: "Tipo de IVA (%)", kind: "money", width: 9, value: (a) => a.porcentaje_iva },
  { header: "NIF", width: 14, value: (a) => a.nif },
  { header: "Número de factura", width: 20, value: (a) => a.numero_factura },
];

/** A subcuenta the period uses, with its title and NIF: what the gestoría creates before importing. */
export type Subcuenta = { subcuenta: string; titulo: string; nif: string | null };

/**
 * Collects the period's subcuentas as the apuntes go by (the first title seen). Only a 410's NIF
 * is its own: a 472 line carries its invoice's issuer for the IVA register.
 */
export class Subcuentas {
  private readonly map = new Map<string, Subcuenta>();
  add(a: Apunte) {
    const nif = a.cuenta === "410" ? a.nif : null;
    const s = this.map.get(a.subcuenta);
    if (!s) this.map.set(a.subcuenta, { subcuenta: a.subcuenta, titulo: a.titulo, nif });
    else if (!s.nif && nif) s.nif = nif;
  }
  list(): Subcuenta[] {
    return [...this.map.values()].sort((x, y) => (x.subcuenta < y.subcuenta ? -1 : x.subcuenta > y.subcuenta ? 1 : 0));
  }
}
