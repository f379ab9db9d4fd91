import { CompiledQuery, sql } from "kysely";
import { EXACT_COUNT_LIMIT, identifier } from "../../store";
import type { AnyTrx } from "../connection.server";
import type { Select } from "../where.server";
import { literal } from "./prepared.server";

/** A count and sums over a list's whole filter; `estimated`: the planner's figure, without sums. */
export type Aggregate = { estimated: boolean; total: number; sums: Record<string, string> };

/**
 * `count: "estimated"`: first a count capped at EXACT_COUNT_LIMIT + 1 rows (it stops there),
 * summing `sum` on the way: up to the limit, that is the exact count and the exact sums. Past
 * it, the planner's row estimate for the filter (EXPLAIN, nothing more is read) is the answer,
 * at least the cap, without sums. (Capping first means a planner that underestimates never
 * leads to an unbounded count.) `atMost`: a known bound (a broad search's own estimate: the
 * planner cannot estimate a substring search, and more filters only keep fewer).
 */
export async function estimateTotal(
  trx: AnyTrx,
  filtered: Select<object>,
  sum: string[],
  atMost = Infinity,
): Promise<Aggregate> {
  let capped = filtered.select(sql<number>`1`.as("uno"));
  for (const column of sum) capped = capped.select(sql.ref(identifier(column)).as(`c_${column}`));
  let agg = trx
    .selectFrom(capped.limit(literal(EXACT_COUNT_LIMIT + 1)).as("t"))
    .select(sql<number>`count(*)::int`.as("n"));
  for (const column of sum)
    agg = agg.select(sql<string>`coalesce(sum(${sql.ref(`t.c_${column}`)}), 0)::text`.as(`sum_${column}`));
  const result: Record<string, unknown> = await agg.executeTakeFirstOrThrow();
  const n = Number(result.n);
  if (n <= EXACT_COUNT_LIMIT)
    return { estimated: false, total: n, sums: Object.fromEntries(sum.map((c) => [c, String(result[`sum_${c}`])])) };
  const compiled = filtered.select(sql<number>`1`.as("uno")).compile();
  const explained = await trx.executeQuery<{ "QUERY PLAN": unknown }>(
    CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
  );
  const json = explained.rows[0]?.["QUERY PLAN"];
  const parsed = (typeof json === "string" ? JSON.parse(json) : json) as { Plan?: { "Plan Rows"?: number } }[];
  const plan = Number(parsed?.[0]?.Plan?.["Plan Rows"] ?? 0);
  return { estimated: true, total: Math.max(Math.min(Math.round(plan), atMost), EXACT_COUNT_LIMIT + 1), sums: {} };
}
