/** Lo que comparten los generadores de la organización y de los gastos. */
import { fromCents } from "../../../app/lib/money";

/** Los gastos se reparten a lo largo de los últimos 18 meses; la organización existe desde antes. */
export const DAYS_BACK = 548;

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Medianoche UTC del día ISO, en milisegundos. */
export function dayStartMs(iso: string): number {
  return Date.parse(`${iso}T00:00:00Z`);
}

/** Céntimos enteros → "1234.56" (nunca un float). */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Importe no válido: ${cents}`);
  return fromCents(BigInt(cents));
}
