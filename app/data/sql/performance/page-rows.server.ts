import { sql, type Kysely } from "kysely";
import { identifier, type ListQuery } from "../../store";
import type { AnyTables } from "../connection.server";
import { applyOrder, applyWhere, type Select } from "../where.server";
import { literal, skip } from "./prepared.server";

/**
 * The statement that reads a page's rows from `from` (a table or view): the page's own, or its
 * rows found by the ids `pageIdsInBase` reads in the base table. Built on any connection: the
 * same statement for the same page (one prepared plan), whether it runs alone or with the role.
 */
export async function pageRows(q: Kysely<AnyTables>, from: string, page: ListQuery) {
  const selected = <O>(s: Select<O>) => (page.columns ? s.select(page.columns.map(identifier)) : s.selectAll());
  const ids = await pageIdsInBase(q, page);
  return ids
    ? applyOrder(selected(q.selectFrom(from)).where(sql<boolean>`id = any(array(${ids}))`), page)
    : applyOrder(skip(selected(applyWhere(q.selectFrom(from), page)).limit(literal(page.limit)), page.offset), page);
}

/**
 * `ListQuery.base`: the ids of the page, found in the table the view adds columns to (no joins
 * while sorting and skipping), when every column the query filters, searches or sorts by is a
 * column of that table; the caller then reads only those rows from the view. Null otherwise.
 */
async function pageIdsInBase(trx: Kysely<AnyTables>, query: ListQuery) {
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

async function inBase(trx: Kysely<AnyTables>, query: ListQuery): Promise<boolean> {
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
    ...(query.search?.term.trim() ? query.search.columns : []),
  ];
  return used.every((c) => columns.has(c));
}
