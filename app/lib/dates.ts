/**
 * Dates without times travel as ISO strings ("2026-11-22") and are computed in UTC so that no
 * time zone or daylight-saving change can shift a day. "Today" is the office's day (Madrid).
 */
import { dateTimeFormat } from "./intl";

export const DEFAULT_TIME_ZONE = "Europe/Madrid";

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ES_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const MONTH_KEY = /^(\d{4})-(\d{2})$/;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

function toISO(y: number, m: number, d: number): string | null {
  if (y < 1 || m < 1 || m > 12 || d < 1) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  date.setUTCFullYear(y); // Date.UTC maps years 0–99 to 1900–1999
  if (date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

/** True for a real calendar date in `YYYY-MM-DD` form ("2025-02-29" is false). */
export function isISODate(s: unknown): s is string {
  if (typeof s !== "string") return false;
  const m = ISO_DATE.exec(s);
  return !!m && toISO(+m[1]!, +m[2]!, +m[3]!) === s;
}

/**
 * Accepts `YYYY-MM-DD` (what `<input type="date">` posts) or `DD/MM/YYYY` (what a person types
 * when the browser shows a text box; one-digit day and month allowed) and returns the ISO date,
 * or null when it is not a real calendar date.
 */
export function parseDateInput(s: string): string | null {
  if (typeof s !== "string") return null;
  const t = s.trim();
  let m = ISO_DATE.exec(t);
  if (m) return toISO(+m[1]!, +m[2]!, +m[3]!);
  m = ES_DATE.exec(t);
  if (m) return toISO(+m[3]!, +m[2]!, +m[1]!);
  return null;
}

/**
 * A local date and time without a time zone (a trip's departure, as its clock says): accepts
 * `YYYY-MM-DDTHH:MM` (what `<input type="datetime-local">` posts, seconds allowed), the same with a
 * space, or `DD/MM/YYYY HH:MM`; returns `YYYY-MM-DDTHH:MM`, or null when it is not a real one.
 */
export function parseDateTimeInput(s: string): string | null {
  if (typeof s !== "string") return null;
  const m = /^(\S+)[T ](\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(s.trim());
  if (!m) return null;
  const date = parseDateInput(m[1]!);
  const h = Number(m[2]);
  const min = Number(m[3]);
  if (!date || h > 23 || min > 59) return null;
  return `${date}T${pad(h)}:${pad(min)}`;
}

/** A stored local timestamp ("2026-11-20 08:00:00" or with «T») → "20/11/2026 08:00", as it is (no time zone). */
export function formatLocalDateTime(value: string): string {
  const iso = parseDateTimeInput(value);
  if (!iso) return value;
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 16)}`;
}

function assertISODate(iso: string): void {
  if (!isISODate(iso)) throw new TypeError(`Fecha no válida: ${JSON.stringify(iso)}`);
}

/** Formatter options per time zone, kept frozen: intl.ts finds a formatter by its options object. */
function porZona(cache: Map<string, Intl.DateTimeFormatOptions>, timeZone: string, base: Intl.DateTimeFormatOptions) {
  let options = cache.get(timeZone);
  if (!options) cache.set(timeZone, (options = Object.freeze({ ...base, timeZone })));
  return options;
}
const DIA = new Map<string, Intl.DateTimeFormatOptions>();
const FECHA_HORA = new Map<string, Intl.DateTimeFormatOptions>();
/** The last day asked for: a time zone's day changes only at the turn of a minute. */
let ultimoDia = { timeZone: "", minuto: Number.NaN, dia: "" };

/** The calendar date in `timeZone` at instant `now`, as `YYYY-MM-DD`. */
export function todayISO(timeZone = DEFAULT_TIME_ZONE, now: Date = new Date()): string {
  const minuto = Math.floor(now.getTime() / 60_000);
  if (ultimoDia.timeZone === timeZone && ultimoDia.minuto === minuto) return ultimoDia.dia;
  const options = porZona(DIA, timeZone, { year: "numeric", month: "2-digit", day: "2-digit" });
  const parts = dateTimeFormat("en-CA", options).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  const dia = `${get("year")}-${get("month")}-${get("day")}`;
  ultimoDia = { timeZone, minuto, dia };
  return dia;
}

export function addDaysISO(iso: string, days: number): string {
  assertISODate(iso);
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The same day `years` later (or earlier), as PostgreSQL's `date + interval 'N year'`: a 29
 * February falls on the 28th when the target year has none.
 */
export function addYearsISO(iso: string, years: number): string {
  assertISODate(iso);
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const target = y + years;
  return toISO(target, m, d) ?? toISO(target, m, d - 1)!;
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function diffDaysISO(from: string, to: string): number {
  assertISODate(from);
  assertISODate(to);
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

const FECHA: Intl.DateTimeFormatOptions = Object.freeze({
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  timeZone: "UTC",
});

/**
 * Dates already formatted, by locale. A list or a CSV repeats the same few hundred days, and
 * formatting one is far dearer than finding it; emptied when it grows past what a few years hold.
 */
const fechasFormateadas = new Map<string, Map<string, string>>();
const FECHAS_RECORDADAS = 5_000;

/** "2026-11-22" → "22/11/2026" (es-ES). Also accepts a timestamp and uses its UTC date part. */
export function formatDate(iso: string, locale = "es-ES"): string {
  const date = iso.length > 10 ? iso.slice(0, 10) : iso;
  let delIdioma = fechasFormateadas.get(locale);
  const hecha = delIdioma?.get(date);
  if (hecha !== undefined) return hecha;
  assertISODate(date);
  const texto = dateTimeFormat(locale, FECHA).format(new Date(`${date}T00:00:00Z`));
  if (!delIdioma) fechasFormateadas.set(locale, (delIdioma = new Map()));
  if (delIdioma.size >= FECHAS_RECORDADAS) delIdioma.clear();
  delIdioma.set(date, texto);
  return texto;
}

/** A timestamp (ISO string or Date) → "22/11/2026, 14:05" in the office's time zone. */
export function formatDateTime(timestamp: string | Date, locale = "es-ES", timeZone = DEFAULT_TIME_ZONE): string {
  const d = timestamp instanceof Date ? timestamp : new Date(timestamp);
  if (Number.isNaN(d.getTime())) throw new TypeError(`Fecha no válida: ${String(timestamp)}`);
  const options = porZona(FECHA_HORA, timeZone, {
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
  return dateTimeFormat(locale, options).format(d);
}

/** "2026-11-22" → "2026-11". */
export function monthKey(iso: string): string {
  assertISODate(iso.slice(0, 10));
  return iso.slice(0, 7);
}

export function isMonthKey(s: unknown): s is string {
  if (typeof s !== "string") return false;
  const m = MONTH_KEY.exec(s);
  return !!m && +m[2]! >= 1 && +m[2]! <= 12;
}

function assertMonthKey(key: string): [number, number] {
  if (!isMonthKey(key)) throw new TypeError(`Mes no válido: ${JSON.stringify(key)}`);
  return [+key.slice(0, 4), +key.slice(5, 7)];
}

/** "2026-11" + 2 → "2027-01". */
export function addMonthsKey(key: string, months: number): string {
  const [y, m] = assertMonthKey(key);
  const index = y * 12 + (m - 1) + months;
  return `${pad(Math.floor(index / 12), 4)}-${pad((index % 12) + 1)}`;
}

/** First and last day of the month: "2024-02" → { from: "2024-02-01", to: "2024-02-29" }. */
export function monthRange(key: string): { from: string; to: string } {
  assertMonthKey(key);
  const from = `${key}-01`;
  return { from, to: addDaysISO(`${addMonthsKey(key, 1)}-01`, -1) };
}

/** The `count` months ending with `lastKey`, oldest first (for "the last 12 months"). */
export function lastMonthKeys(count: number, lastKey: string): string[] {
  assertMonthKey(lastKey);
  return Array.from({ length: count }, (_, i) => addMonthsKey(lastKey, i - count + 1));
}

const MES: Record<"short" | "long", Intl.DateTimeFormatOptions> = {
  short: Object.freeze({ month: "short", year: "numeric", timeZone: "UTC" }),
  long: Object.freeze({ month: "long", year: "numeric", timeZone: "UTC" }),
};
/** "2026-11" → "nov 2026" (short) or "noviembre de 2026" (long), for charts and tables. */
export function formatMonthKey(key: string, locale = "es-ES", style: "short" | "long" = "short"): string {
  const [y, m] = assertMonthKey(key);
  const d = new Date(Date.UTC(y, m - 1, 1));
  return dateTimeFormat(locale, MES[style]).format(d);
}
