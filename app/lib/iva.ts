/**
 * IVA arithmetic on exact cents, the same rules the database applies to every gasto
 * (interno.gastos_fiscal): cuota = base × tipo rounded to the cent (within one cent of it is
 * accepted), base = importe / (1 + tipo) for an importe with IVA included.
 */
import { formatMoney, fromCents, toCents } from "./money";
import { TIPOS_IVA, type TipoIva } from "./opciones";

export function esTipoIva(value: unknown): value is TipoIva {
  return TIPOS_IVA.some((t) => t.value === value);
}

/** One line of a breakdown: amounts as canonical decimal strings ("12.34"). */
export type LineaIva = { tipo: TipoIva; base: string; cuota: string };
/** A line as typed: its tipo, and its amounts or "" where left out. */
export type LineaParcial = LineaIva;

/** The percentage of a key, as whole percent (every Spanish rate is a whole number). */
export function porcentaje(tipo: TipoIva): bigint {
  return tipo === "exento" ? 0n : BigInt(tipo);
}

/** Half-up division of non-negative integers. */
function dividir(n: bigint, d: bigint): bigint {
  return (n * 2n + d) / (2n * d);
}

/** The cuota of `base` at `tipo`, rounded to the cent. */
export function cuotaDe(base: string, tipo: TipoIva): string {
  return fromCents(dividir(toCents(base) * porcentaje(tipo), 100n));
}

/** The base whose cuota at `tipo` is `cuota` (null at 0 % or exento: any base has cuota 0). */
export function baseDe(cuota: string, tipo: TipoIva): string | null {
  const p = porcentaje(tipo);
  return p === 0n ? null : fromCents(dividir(toCents(cuota) * 100n, p));
}

/** The line of an importe with IVA included: base = importe / (1 + tipo), cuota the rest (they add up exactly). */
export function lineaDeImporte(importe: string, tipo: TipoIva): LineaIva {
  const total = toCents(importe);
  const base = dividir(total * 100n, 100n + porcentaje(tipo));
  return { tipo, base: fromCents(base), cuota: fromCents(total - base) };
}

/** Is `cuota` the cuota of `base` at `tipo`, within one cent (exactly 0 at 0 % or exento)? */
export function cuotaCuadra(linea: LineaIva): boolean {
  const diferencia = toCents(cuotaDe(linea.base, linea.tipo)) - toCents(linea.cuota);
  const tolerancia = porcentaje(linea.tipo) === 0n ? 0n : 1n;
  return diferencia >= -tolerancia && diferencia <= tolerancia;
}

export function etiquetaTipo(tipo: string): string {
  return TIPOS_IVA.find((t) => t.value === tipo)?.label ?? tipo;
}

/** «10 %: base 45,45 €, cuota 4,55 €» — a breakdown in one line, for the record and its history. */
export function describirDesglose(lineas: readonly LineaIva[], locale = "es-ES"): string {
  return lineas
    .map((l) => `${etiquetaTipo(l.tipo)}: base ${formatMoney(l.base, locale)}, cuota ${formatMoney(l.cuota, locale)}`)
    .join("; ");
}

/** A stored breakdown (jsonb) read back, or null when it is not one. */
export function leerDesglose(value: unknown): LineaIva[] | null {
  if (!Array.isArray(value)) return null;
  const lineas: LineaIva[] = [];
  for (const item of value) {
    if (!item || typeof item !== "object") return null;
    const { tipo, base, cuota } = item as Record<string, unknown>;
    if (!esTipoIva(tipo) || typeof base !== "string" || typeof cuota !== "string") return null;
    lineas.push({ tipo, base, cuota });
  }
  return lineas;
}

/**
 * A typed line with only its base or only its cuota gets the other; null when only the cuota is
 * given at a rate whose cuota is always 0 (the base cannot follow from it).
 */
export function completarLinea(tipo: TipoIva, base: string, cuota: string): LineaParcial | null {
  if (base && !cuota) return { tipo, base, cuota: cuotaDe(base, tipo) };
  if (cuota && !base) {
    const calculada = baseDe(cuota, tipo);
    return calculada ? { tipo, base: calculada, cuota } : null;
  }
  return { tipo, base, cuota };
}

/**
 * What a line adds to the importe: base and cuota; only the base when the invoice came without
 * IVA (inversión del sujeto pasivo: the company declares the cuota, it was not paid).
 */
export function enImporte(linea: LineaIva, sinIva = false): bigint {
  return toCents(linea.base) + (sinIva ? 0n : toCents(linea.cuota));
}

/**
 * The breakdown of `importe` (IVA included, unless `sinIva`) less `otros` (not taxed): the line
 * left with only its tipo gets what remains once the others are subtracted. A single line's
 * amounts follow from the importe and its tipo: kept as typed when they add up and agree (an
 * invoice's own rounding), recomputed otherwise (the importe changed since).
 */
export function completarLineas(
  lineas: readonly LineaParcial[],
  importe: string,
  otros: string,
  sinIva = false,
): LineaIva[] {
  const sujeto = toCents(importe) - toCents(otros);
  const linea = (cents: bigint, tipo: TipoIva) =>
    sinIva
      ? { tipo, base: fromCents(cents), cuota: cuotaDe(fromCents(cents), tipo) }
      : lineaDeImporte(fromCents(cents), tipo);
  const [unica] = lineas;
  if (lineas.length === 1 && unica) {
    const cuadra = unica.base !== "" && enImporte(unica, sinIva) === sujeto && cuotaCuadra(unica);
    return cuadra ? [unica] : [linea(sujeto, unica.tipo)];
  }
  const resto = lineas.filter((l) => l.base !== "").reduce((acc, l) => acc - enImporte(l, sinIva), sujeto);
  return lineas.map((l) => (l.base === "" ? linea(resto, l.tipo) : l));
}
