/**
 * CSV that a Spanish Excel opens correctly: UTF-8 with BOM, `;` separator, CRLF line ends.
 *
 * CSV injection: a text cell that starts with `=`, `+`, `-`, `@`, TAB, CR or LF could be run as
 * a formula, so it gets a leading `'`. Decision: a cell that is a plain number — a JS number, or
 * text that is only an optionally signed number such as "-12,50" (what formatDecimalComma
 * produces for a negative amount) — is left alone: it cannot carry a formula and must stay a
 * number in Excel. Anything else starting with those characters is neutralised, e.g. the phone
 * "+34 600 000 000" becomes "'+34 600 000 000".
 */

export const CSV_BOM = "\uFEFF";
export const CSV_SEPARATOR = ";";
export const CSV_EOL = "\r\n";

export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r\n]/;
const PLAIN_NUMBER = /^[+-]?\d+([.,]\d+)?$/;
const NEEDS_QUOTES = /[;"\r\n]/;

/** One cell, escaped and neutralised. */
export function csvCell(value: CsvCell): string {
  let text: string;
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") {
    text = value ? "Sí" : "No";
  } else if (typeof value === "number") {
    if (!Number.isFinite(value)) return "";
    text = String(value).replace(".", ","); // decimal comma for es-ES Excel
  } else {
    text = value;
  }
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, CRLF included: write it straight to a stream. */
export function csvLine(cells: readonly CsvCell[]): string {
  return cells.map(csvCell).join(CSV_SEPARATOR) + CSV_EOL;
}

/** A whole document; starts with the BOM unless `bom: false`. */
export function toCsv(
  headers: readonly string[],
  rows: readonly (readonly CsvCell[])[],
  { bom = true }: { bom?: boolean } = {},
): string {
  return (bom ? CSV_BOM : "") + csvLine(headers) + rows.map(csvLine).join("");
}
