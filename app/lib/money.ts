/**
 * Money is never a float here: amounts travel as canonical decimal strings ("1234.56", what
 * Postgres returns for numeric(14,2)) and arithmetic is done on BigInt cents.
 */
import { numberFormat } from "./intl";

/** numeric(14,2): at most 12 integer digits. */
const MAX_INTEGER_DIGITS = 12;
const CANONICAL = /^-?\d+(\.\d{1,2})?$/;

/**
 * Parses what a person types into an amount field and returns a canonical string with two
 * decimals ("1234.56"), or null when it is not an amount.
 *
 * Spanish first: a single comma is the decimal separator; dots followed by groups of exactly
 * three digits are thousands separators ("1.234" is 1234). A single dot followed by one or two
 * digits is a decimal point ("1234.56"). With both separators present, the last one is the
 * decimal separator ("1.234,56" and "1,234.56"). Accepts a leading sign, "€", spaces and
 * no-break spaces; rejects more than two decimals, exponents, letters and values that do not
 * fit numeric(14,2).
 */
export function parseMoney(input: string): string | null {
  const p = leerImporte(input);
  if (!p || p.digits.length > MAX_INTEGER_DIGITS) return null;
  const cents = BigInt(p.digits) * 100n + BigInt(p.decPart.padEnd(2, "0"));
  return fromCents(p.negative ? -cents : cents);
}

/** Whether `input` is written as an amount but has more integer digits than numeric(14,2) holds. */
export function tieneDemasiadasCifras(input: string): boolean {
  const p = leerImporte(input);
  return p !== null && p.digits.length > MAX_INTEGER_DIGITS;
}

/** An amount's sign, integer digits (no leading zeros) and decimals as typed, whatever its size; null if not one. */
function leerImporte(input: string): { negative: boolean; digits: string; decPart: string } | null {
  if (typeof input !== "string") return null;
  let s = input.replace(/[\s\u00a0\u202f€]/g, "");
  let negative = false;
  if (s.startsWith("-") || s.startsWith("+")) {
    negative = s[0] === "-";
    s = s.slice(1);
  }
  if (!/^[\d.,]+$/.test(s)) return null; // also rejects a second sign, letters, "e", empty

  let intPart: string;
  let decPart = "";
  const lastComma = s.lastIndexOf(",");
  const lastDot = s.lastIndexOf(".");

  if (lastComma >= 0 && lastDot >= 0) {
    const decSep = lastComma > lastDot ? "," : ".";
    const thouSep = decSep === "," ? "." : ",";
    const [whole, dec, ...rest] = s.split(decSep);
    if (rest.length > 0 || dec === undefined) return null;
    if (!isGrouped(whole, thouSep)) return null;
    intPart = whole.split(thouSep).join("");
    decPart = dec;
  } else if (lastComma >= 0) {
    const parts = s.split(",");
    if (parts.length !== 2) return null;
    [intPart, decPart] = parts as [string, string];
  } else if (lastDot >= 0) {
    const parts = s.split(".");
    if (parts.length === 2 && /^\d{1,2}$/.test(parts[1]!)) {
      [intPart, decPart] = parts as [string, string];
    } else if (isGrouped(s, ".")) {
      intPart = parts.join("");
    } else {
      return null;
    }
  } else {
    intPart = s;
  }

  if (!/^\d+$/.test(intPart) || !/^\d{0,2}$/.test(decPart)) return null;
  if (decPart === "" && /[.,]$/.test(s)) return null; // "12," or "12."
  return { negative, digits: intPart.replace(/^0+(?=\d)/, ""), decPart };
}

/** "1.234.567" with sep "." → true: 1–3 leading digits then groups of exactly three. */
function isGrouped(s: string, sep: string): boolean {
  const groups = s.split(sep);
  if (groups.length === 1) return /^\d+$/.test(s);
  return /^\d{1,3}$/.test(groups[0]!) && groups.slice(1).every((g) => /^\d{3}$/.test(g));
}

/** Is `value` a canonical decimal string ("12", "12.5", "-12.50")? */
export function isMoneyString(value: string): boolean {
  return typeof value === "string" && CANONICAL.test(value);
}

/** Canonical decimal string → integer cents. Throws on anything else (a programming error). */
export function toCents(value: string): bigint {
  if (!isMoneyString(value)) throw new TypeError(`Importe no válido: ${JSON.stringify(value)}`);
  const negative = value.startsWith("-");
  const [i, d = ""] = value.replace("-", "").split(".");
  const cents = BigInt(i!) * 100n + BigInt(d.padEnd(2, "0"));
  return negative ? -cents : cents;
}

/** Integer cents → canonical string with two decimals ("-0.05"); never "-0.00". */
export function fromCents(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const s = `${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
  return negative ? `-${s}` : s;
}

export function addMoney(a: string, b: string): string {
  return fromCents(toCents(a) + toCents(b));
}

export function subtractMoney(a: string, b: string): string {
  return fromCents(toCents(a) - toCents(b));
}

/** Exact sum of canonical decimal strings; "0.00" for an empty list. */
export function sumMoney(values: readonly string[]): string {
  return fromCents(values.reduce((acc, v) => acc + toCents(v), 0n));
}

/** -1, 0 or 1, for Array.prototype.sort and range checks. */
export function compareMoney(a: string, b: string): -1 | 0 | 1 {
  const x = toCents(a);
  const y = toCents(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The options of an amount in each currency, kept frozen (intl.ts finds its formatter by them). */
const IMPORTES = new Map<string, Intl.NumberFormatOptions>();
function importeEn(currency: string): Intl.NumberFormatOptions {
  let o = IMPORTES.get(currency);
  if (!o) IMPORTES.set(currency, (o = Object.freeze({ style: "currency", currency, useGrouping: "always" })));
  return o;
}

/**
 * "1234.56" → "1.234,56 €" (es-ES). Strings are passed to Intl as exact decimals, never through
 * a float. es-ES does not group four-digit numbers by default, hence useGrouping "always".
 */
export function formatMoney(value: string | number, locale = "es-ES", currency = "EUR"): string {
  if (typeof value === "string" && !isMoneyString(value)) {
    throw new TypeError(`Importe no válido: ${JSON.stringify(value)}`);
  }
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new TypeError(`Importe no válido: ${value}`);
  }
  return numberFormat(locale, importeEn(currency)).format(value as Intl.StringNumericLiteral | number);
}

/**
 * An amount as a spreadsheet of `locale` reads a plain number: its digits as they are, with the
 * locale's decimal separator and no grouping or currency ("1234.56" → "1234,56" in es-ES), for CSV.
 */
export function formatDecimal(value: string, locale: string): string {
  return value.replace(".", decimalSeparator(locale));
}

function decimalSeparator(locale: string) {
  return (
    numberFormat(locale)
      .formatToParts(1.5)
      .find((p) => p.type === "decimal")?.value ?? "."
  );
}
