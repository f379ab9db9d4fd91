import type { Column } from "~/entities/entity";
import type { Option } from "~/entities/fields";
import { formatDate, formatDateTime } from "./dates";
import { formatMoney } from "./money";

/** Locale and currency from configuration (APP_LOCALE, APP_CURRENCY), passed down by the root loader. */
export type Formats = { locale: string; currency: string };

export function labelOf(options: readonly Option[] | undefined, value: unknown): string {
  return options?.find((o) => o.value === value)?.label ?? String(value ?? "");
}

/** A value as a person reads it, in a table cell or a CSV cell. */
export function formatValue(column: Pick<Column, "kind" | "options">, value: unknown, f: Formats): string {
  if (value === null || value === undefined || value === "") return "";
  switch (column.kind) {
    case "money":
      return formatMoney(String(value), f.locale, f.currency);
    case "date":
      return formatDate(String(value), f.locale);
    case "boolean":
      return value ? "Sí" : "No";
    case "option":
      return labelOf(column.options, value);
    default:
      return String(value);
  }
}

export function formatTimestamp(value: string, f: Formats) {
  return formatDateTime(value, f.locale);
}
