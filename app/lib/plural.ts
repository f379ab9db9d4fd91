/**
 * Spanish agreement with a number: singular for exactly one, plural otherwise (0 gastos, 1 gasto,
 * 2 gastos). `plural` picks the words; `cuenta` writes the number too, grouped for the locale.
 * Whatever agrees with the noun goes in both forms: plural(n, "gasto pendiente que coincide", …).
 */
export function plural(n: number, singular: string, plural: string): string {
  return n === 1 ? singular : plural;
}

export function cuenta(n: number, singular: string, plural: string, locale = "es-ES"): string {
  return `${n.toLocaleString(locale)} ${n === 1 ? singular : plural}`;
}
