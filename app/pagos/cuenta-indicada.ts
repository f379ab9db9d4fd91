/**
 * When and by whom an account was written: `por_id` null when no one was signed in (a load, the
 * SQL editor); `por`, the writer's name (null: gone from Oficina).
 */
export type CuentaIndicada = { en: string; por_id: string | null; por: string | null };

/**
 * Who wrote it, as the remesas and the person's profile say it (`yo`: the reader). An account
 * written with no one signed in is said too: that is the way round the app.
 */
export function quienIndico(cuenta: Pick<CuentaIndicada, "por_id" | "por">, yo: string): string {
  if (cuenta.por_id === null) return "sin sesión en Oficina (una carga de datos o el editor SQL)";
  if (cuenta.por_id === yo) return "por usted";
  return `por ${cuenta.por ?? "un usuario que ya no está en Oficina"}`;
}
