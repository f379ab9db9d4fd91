import { sql, type Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import type { Database } from "../../database";
import { identifier, searchWords, type ListQuery } from "../../store";
import type { AnyTrx } from "../connection.server";
import { IdsText } from "../where.server";
import type { Aggregate } from "./estimate.server";
import { keep, kept } from "./kept.server";

/** Whether `withSearchFunction` reads through the list's search function (else it leaves the query as it is). */
function usesSearchFunction(query: ListQuery) {
  return Boolean(query.search?.fn) && searchWords(query.search).length > 0;
}

/**
 * `search.fn` (ListQuery): the function, given the search's words, reads at most `cap` + 1
 * matches through the trigram indexes (migrations 20261201000001_busqueda,
 * 20261211000001_busqueda_proveedor) and says how many there are and what they add up to (exact
 * up to `cap`, an estimate past it). Up to `cap`, their ids come too, sorted as the list is when
 * the function can sort by its column (ORDERS), and become an `id = any(…)` filter: the row
 * query uses the primary key (in that order, only the page's ids), and the count and sum found
 * with them are the list's when nothing else filters it, so the matches are read once. The ids
 * travel as one text (`a,b,c`), not as a uuid[] that node would parse and write back (ADR 0008).
 * Past `cap`, a page in one of those orders comes from the function's page function, which walks
 * the order's index as the owner; in another order or with more filters the search stays a
 * condition on the rows. `found` and the ids are kept while nothing changes (the ids within a
 * budget of characters, IDS_KEPT_CHARS), so paging or coming back costs only the page. Without
 * `cap` (the export), always the ids, unsorted and not kept.
 */
export async function withSearchFunction(
  trx: AnyTrx,
  query: ListQuery,
  cap: number | null,
  keptAs?: { db: Kysely<Database>; key: unknown[] },
): Promise<{ query: ListQuery; found?: Aggregate; page?: ListQuery }> {
  if (!usesSearchFunction(query)) return { query };
  const words = searchWords(query.search);
  const fn = query.search!.fn!;
  const order = idsOrder(query, fn);
  // The count and sum do not depend on the order; the ids do.
  const key = keptAs && [...keptAs.key, "busqueda", fn, words, cap];
  const idsKey = key && JSON.stringify([...key, order.column, order.ascending]);
  let found = keptAs && kept<Aggregate>(keptAs.db, key!)?.value;
  if (!found) {
    const idsKept = keptAs && keptIds(keptAs.db).get(idsKey!);
    if (idsKept) return byIdsWithPage(query, order, idsKept.ids, idsKept.found, cap);
    const { rows } = await sql<{
      ids: string | null;
      coincidencias: number;
      exacto: boolean;
      sumas: Record<string, string> | null;
    }>`
      select ids, coincidencias, exacto, sumas
        from ${sql.raw(`public.${identifier(fn)}`)}(${words}::text[], ${cap}, ${order.column}, ${order.ascending})`.execute(
      trx,
    );
    const r = rows[0] ?? { ids: "", coincidencias: 0, exacto: true, sumas: null };
    found = { total: Number(r.coincidencias), estimated: !r.exacto, sums: r.sumas ?? {} };
    if (r.ids !== null) {
      if (keptAs) keptIds(keptAs.db).set(idsKey!, { ids: r.ids, found });
      return byIdsWithPage(query, order, r.ids, found, cap);
    }
    if (keptAs) keep(keptAs.db, key!, found);
  }
  const asCondition = { ...query, search: { ...query.search!, fn: undefined } };
  if (!inIdsOrder(query, order, cap)) return { query: asCondition, found };
  const { rows } = await sql<{ ids: string }>`
    select ${sql.raw(`public.${identifier(ORDERS[fn]!.page)}`)}(${words}::text[], ${order.column}, ${order.ascending},
      ${query.offset}, ${query.limit}) as ids`.execute(trx);
  return { query: asCondition, found, page: { ...byIds(query, rows[0]?.ids ?? ""), offset: 0 } };
}

type Order = { column: string; ascending: boolean };

/**
 * What each function can sort its ids by when it has a cap (its migration says so; without one,
 * for the export, they come unsorted), the keys it sorts by after some of them (before `id`, in
 * the same direction: the entity's `thenBy`), the order it uses otherwise, and the function that
 * gives a page in one of those orders when there are too many matches for ids. A list in that
 * order and filtered by nothing else reads its page from its slice of them: 25 rows by primary
 * key, not every match sorted, and a statement planned for 25 ids rather than thousands.
 */
const ORDERS: Record<string, { columns: string[]; thenBy: Record<string, string[]>; otherwise: Order; page: string }> =
  {
    buscar_gastos: {
      columns: ["fecha_gasto", "importe", "descripcion", "categoria", "estado", "folio"],
      thenBy: { fecha_gasto: ["creado_en"] },
      otherwise: { column: "fecha_gasto", ascending: false },
      page: "buscar_gastos_pagina",
    },
  };

/**
 * The order to ask `fn` for, and whether it is the list's own: its first key, when `fn` sorts by
 * it and then by the same keys as the list.
 */
function idsOrder(query: ListQuery, fn: string): Order & { listas: boolean } {
  const orders = ORDERS[fn];
  if (!orders) throw new Error(`Función de búsqueda sin órdenes: ${fn}`);
  const [first, ...rest] = query.order ?? [];
  const then = first ? (orders.thenBy[first.column] ?? []) : [];
  const listas =
    first !== undefined &&
    orders.columns.includes(first.column) &&
    rest.length === then.length &&
    rest.every((o, i) => o.column === then[i] && o.ascending === first.ascending);
  return listas ? { column: first.column, ascending: first.ascending, listas } : { ...orders.otherwise, listas };
}

/** Whether the list is in the ids' order with nothing else filtering it (and a cap: else the ids are unsorted). */
function inIdsOrder(query: ListQuery, order: { listas: boolean }, cap: number | null) {
  return cap !== null && !query.filters?.length && order.listas;
}

/** The search as a filter on its ids; `page`: the query that reads the page, when a slice of them is the page. */
function byIdsWithPage(
  query: ListQuery,
  order: { listas: boolean },
  ids: string,
  found: Aggregate,
  cap: number | null,
) {
  const slice = () =>
    ids
      .split(",")
      .slice(query.offset, query.offset + query.limit)
      .join(",");
  return {
    query: byIds(query, ids),
    found,
    page: inIdsOrder(query, order, cap) ? { ...byIds(query, slice()), offset: 0 } : undefined,
  };
}

/** The search as a filter on the ids it found. */
function byIds(query: ListQuery, ids: string): ListQuery {
  return {
    ...query,
    search: undefined,
    filters: [...(query.filters ?? []), { column: "id", op: "in", value: new IdsText(ids) }],
  };
}

/** Characters of id lists kept per database (37 a match): a few hundred searches' worth, or some twenty of the cap's size. */
const IDS_KEPT_CHARS = 8_000_000;
type IdsFound = { ids: string; found: Aggregate };
const idsKeptByDb = new WeakMap<Kysely<Database>, LRUCache<string, IdsFound>>();

function keptIds(db: Kysely<Database>): LRUCache<string, IdsFound> {
  let all = idsKeptByDb.get(db);
  if (!all)
    idsKeptByDb.set(
      db,
      (all = new LRUCache<string, IdsFound>({ maxSize: IDS_KEPT_CHARS, sizeCalculation: (k) => k.ids.length + 100 })),
    );
  return all;
}
