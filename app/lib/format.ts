import { formatDateTime } from "./dates";

/** Locale and currency from configuration (APP_LOCALE, APP_CURRENCY), passed down by the root loader. */
export type Formats = { locale: string; currency: string };

export function formatTimestamp(value: string, f: Formats) {
  return formatDateTime(value, f.locale);
}
