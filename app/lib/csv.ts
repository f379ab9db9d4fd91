/**
 * CSV that a Spanish Excel opens correctly: UTF-8 with BOM, `;` separator, CRLF line ends.
 *
 * CSV injection: a text cell that starts with `=`, `+`, `-`, `@` (also after spaces or quotes,
 * which a reader may trim), TAB, CR or LF could be run as a formula, so it gets a leading `'`.
 * The same holds after any character another program may take for a separator or a line end
 * (`,` `;` TAB `|` CR LF, with quotes or spaces between): a spreadsheet opened with a comma
 * separator splits «Comida,=10*10+SUM(A1:A2)» into a second cell that is a formula. So every text cell is quoted, and every formula start inside it after such
 * a character is neutralised too. Decision: a cell that is a plain number — a JS number, or text
 * that is only an optionally signed number such as "-12,50" (what formatDecimal produces for a
 * negative amount) — is left alone and unquoted: it cannot carry a formula and must stay a
 * number in Excel. E.g. the phone "+34 600 000 000" becomes "'+34 600 000 000".
 */

export const CSV_BOM = "\uFEFF";
export const CSV_SEPARATOR = ";";
export const CSV_EOL = "\r\n";

export type CsvCell = string | number | boolean | null | undefined;

/** Also after leading spaces or quotes: a reader that trims them would find the formula first. */
const FORMULA_START = /^(?:[\s"]*[=+\-@]|[\t\r\n])/;
/** A formula start after something a CSV reader may split on (a separator or a line end). */
const FORMULA_AFTER_SEPARATOR = /([,;\t|\r\n][\s"]*)(?=[=+\-@])/g;
const PLAIN_NUMBER = /^[+-]?\d+([.,]\d+)?$/;

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
  if (text === "" || PLAIN_NUMBER.test(text)) return text;
  if (FORMULA_START.test(text)) text = `'${text}`;
  text = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return `"${text.replace(/"/g, '""')}"`;
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
