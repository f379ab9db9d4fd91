import type { Store } from "~/data/store";
import { todayISO } from "~/lib/dates";
import { filtrosEntre, rangoTrimestre, trimestreDe } from "~/fiscal/periodo";
import { fromCents, subtractMoney, sumMoney, toCents } from "~/lib/money";
import { panelSchema, type CifrasIva, type IvaTrimestre, type PanelData } from "./datos";

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
    const { rows } = await store.list(
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
  const data: PanelData = panel;
  data.iva = panel.rol === "administrador" ? await ivaTrimestre(store, hoy) : null;
  return data;
}

/**
 * The IVA of this quarter's approved and paid gastos (by the gasto's date, as the list filters
 * them), per estado: summed by the database, exact; the part not deductible is the rest.
 */
async function ivaTrimestre(store: Store, hoy: string): Promise<IvaTrimestre> {
  const anio = Number(hoy.slice(0, 4));
  const trimestre = trimestreDe(hoy);
  const { desde, hasta } = rangoTrimestre(anio, trimestre);
  const estados = await Promise.all(
    (["aprobado", "pagado"] as const).map(async (estado) => {
      const { total, sums } = await store.list(
        "gastos_vista",
        {
          filters: [{ column: "estado", op: "eq", value: estado }, ...filtrosEntre("fecha_gasto", { desde, hasta })],
          columns: ["id"],
          limit: 0,
          offset: 0,
          count: "exact",
          sum: ["importe_impuestos", "iva_deducible"],
        },
        { keep: true },
      );
      return { estado, ...cifras(total, sums.importe_impuestos ?? "0", sums.iva_deducible ?? "0") };
    }),
  );
  const total = cifras(
    estados.reduce((n, e) => n + e.cuenta, 0),
    sumMoney(estados.map((e) => e.soportado)),
    sumMoney(estados.map((e) => e.deducible)),
  );
  return { anio, trimestre, desde, hasta, estados, total };
}

function cifras(cuenta: number, soportado: string, deducible: string): CifrasIva {
  const s = fromCents(toCents(soportado));
  const d = fromCents(toCents(deducible));
  return { cuenta, soportado: s, deducible: d, no_deducible: subtractMoney(s, d) };
}
