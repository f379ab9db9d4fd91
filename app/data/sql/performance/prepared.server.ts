import { sql, type CompiledQuery } from "kysely";
import type { ListQuery } from "../../store";
import { unprepared, type AnyTrx } from "../connection.server";
import { rangeAsParameter } from "../where.server";

/**
 * The page's rows. A prepared statement's generic plan cannot know how much of the table a range
 * (`fecha_gasto between $1 and $2`) keeps, and assumes very little: with many gastos it then sorted
 * the matches of a department instead of walking the (estado, departamento_id, importe) index
 * (ADR 0008). A range's plain dates and amounts are written into the statement (where.server.ts
 * `bound`); a page filtered by a range passed as a parameter is planned with its values (an
 * unnamed statement, `unprepared`); every other page keeps its prepared plan.
 */
export async function withValues<R>(
  trx: AnyTrx,
  rowsQuery: { compile(): CompiledQuery<R>; execute(): Promise<R[]> },
  query: ListQuery,
): Promise<R[]> {
  if (!(query.filters ?? []).some(rangeAsParameter)) return rowsQuery.execute();
  return (await unprepared<R>(trx, rowsQuery.compile())).rows;
}

/**
 * A page's LIMIT written into the statement, not passed as a parameter: a prepared statement's
 * generic plan then knows how few rows are wanted (with `LIMIT $1` the planner assumes a tenth of
 * the table and may sort everything), so PostgreSQL can keep the plan instead of planning the
 * gastos_vista query again on every request. OFFSET stays a parameter (a generic plan with it
 * still walks the sort index), so each page does not become a statement of its own: a kept
 * gastos_vista plan takes a lot of the connection's memory (ADR 0008).
 */
export function literal(n: number) {
  return Number.isSafeInteger(n) && n >= 0 ? sql.lit(n) : n;
}

/**
 * OFFSET only past the first page. With `OFFSET $1` PostgreSQL costs the generic plan for a skip
 * it cannot know and, finding it dearer than the plan for OFFSET 0, planned the first page anew on
 * every request; without it, the first page keeps its plan.
 */
export function skip<Q extends { offset(n: number): Q }>(q: Q, offset: number): Q {
  return offset > 0 ? q.offset(offset) : q;
}
