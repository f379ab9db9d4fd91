import { sql } from "kysely";
import { identifier, type ListQuery } from "../../store";
import type { AnyTrx } from "../connection.server";
import { applyOrder, applyWhere } from "../where.server";
import { literal, skip } from "./prepared.server";

/**
 * `ListQuery.base`: the ids of the page, found in the table the view adds columns to (no joins
 * while sorting and skipping), when every column the query filters, searches or sorts by is a
 * column of that table; the caller then reads only those rows from the view. Null otherwise.
 */
export async function pageIdsInBase(trx: AnyTrx, query: ListQuery) {
  if (!query.base || !(await inBase(trx, query))) return null;
  return applyOrder(
    skip(
      applyWhere(trx.selectFrom(identifier(query.base)), query)
        .select("id")
        .limit(literal(query.limit)),
      query.offset,
    ),
    query,
  );
}

/** Columns of each table, read once per process. */
const baseColumns = new Map<string, Promise<Set<string>>>();

async function inBase(trx: AnyTrx, query: ListQuery): Promise<boolean> {
  const base = identifier(query.base!);
  let known = baseColumns.get(base);
  if (!known) {
    known = sql<{
      name: string;
    }>`select attname::text as name from pg_attribute where attrelid = ${base}::regclass and attnum > 0 and not attisdropped`
      .execute(trx)
      .then((r) => new Set(r.rows.map((c) => c.name)));
    baseColumns.set(base, known);
    known.catch(() => baseColumns.delete(base));
  }
  const columns = await known;
  const used = [
    ...(query.filters ?? []).map((f) => f.column),
    ...(query.order ?? []).map((o) => o.column),
    ...(query.search?.term.trim() ? [...query.search.columns, ...(query.search.refs ?? []).map((r) => r.column)] : []),
  ];
  return used.every((c) => columns.has(c));
}
