import type { Column } from "~/entities/entity";
import { labelOf } from "~/lib/opciones";
import { cuenta } from "~/lib/plural";
import { formatDate, formatLocalDateTime } from "~/lib/dates";
import { formatIban } from "~/lib/iban";
import type { Formats } from "~/lib/format";
import { formatDecimal, formatMoney } from "~/lib/money";

/** A value as a person reads it, in a table cell or a CSV cell. */
export function formatValue(column: Pick<Column, "kind" | "options" | "contar">, value: unknown, f: Formats): string {
  if (value === null || value === undefined || value === "") return "";
  if (column.kind === "count") {
    const n = Number(value);
    return n ? cuenta(n, column.contar?.singular ?? "", column.contar?.plural ?? "", f.locale).trim() : "";
  }
  switch (column.kind) {
    case "money":
      return formatMoney(String(value), f.locale, f.currency);
    case "date":
      return formatDate(String(value), f.locale);
    case "datetime":
      return formatLocalDateTime(String(value));
    case "boolean":
      return value ? "Sí" : "No";
    case "option":
      return labelOf(column.options ?? [], String(value));
    case "iban":
      return formatIban(String(value));
    default:
      return String(value);
  }
}

/** A CSV cell: as on screen, except amounts, which stay plain numbers a spreadsheet can add up. */
export function csvValue(column: Pick<Column, "kind" | "options" | "contar">, value: unknown, f: Formats): string {
  if (column.kind === "count") return String(Number(value ?? 0));
  if (column.kind === "iban") return value == null ? "" : String(value);
  return column.kind === "money" && value != null
    ? formatDecimal(String(value), f.locale)
    : formatValue(column, value, f);
}
