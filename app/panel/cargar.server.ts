import type { Store } from "~/data/store";
import { todayISO } from "~/lib/dates";
import { panelSchema, type PanelData } from "./datos";

/**
 * The whole panel in one store call: `public.panel(p_hoy)` runs as the user under row-level
 * security and returns every section at once (aggregates in SQL, indexed; see the migration).
 * `hoy` is the office's day (Europe/Madrid), so «este mes» does not depend on the server's zone.
 */
export async function cargarPanel(store: Store, hoy: string = todayISO()): Promise<PanelData> {
  // It only reads, and depends on nothing but the data and the day: kept while nothing changes.
  const raw = await store.rpc<unknown>("panel", { p_hoy: hoy }, { keep: true });
  return panelSchema.parse(raw);
}
