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
  const panel = panelSchema.parse(raw);
  // Which of the oldest pending ones lack a receipt: their count, from gastos_vista.
  const pendientes = panel.pendientes?.mas_antiguos ?? [];
  if (pendientes.length) {
    const { rows } = await store.list<{ id: string; justificantes: number }>(
      "gastos_vista",
      {
        filters: [{ column: "id", op: "in", value: pendientes.map((g) => g.id) }],
        columns: ["id", "justificantes"],
        limit: pendientes.length,
        offset: 0,
        count: "none",
      },
      { keep: true },
    );
    const n = new Map(rows.map((r) => [r.id, Number(r.justificantes)]));
    for (const g of pendientes) g.justificantes = n.get(g.id) ?? 0;
  }
  return panel;
}
