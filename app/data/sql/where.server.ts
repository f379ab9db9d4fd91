import { sql, type SelectQueryBuilder } from "kysely";
import { identifier, idAscending, searchWords, type Filter, type ListQuery } from "../store";
import type { AnyTables } from "./connection.server";

/** A select over a table or view named at run time. */
export type Select<O> = SelectQueryBuilder<AnyTables, string, O>;

/** Ids (uuids) as one comma-separated text, for an `in` filter (performance/search.server.ts). */
export class IdsText {
  constructor(readonly text: string) {}
}

/** The list's filters and search, as the WHERE of `query`. */
export function applyWhere<O>(query: Select<O>, list: ListQuery): Select<O> {
  let q = query;
  for (const filter of list.filters ?? []) q = applyFilter(q, filter);
  const search = list.search;
  if (!search?.columns.length) return q;
  // Every word somewhere: one condition per word, each an OR over the columns.
  for (const word of searchWords(search)) {
    const pattern = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = (c: string) => sql<boolean>`${sql.ref(identifier(c))}::text ilike ${pattern}`;
    q = q.where(sql<boolean>`(${sql.join(search.columns.map(like), sql` or `)})`);
  }
  return q;
}

function applyFilter<O>(q: Select<O>, { column, op, value }: Filter): Select<O> {
  const col = identifier(column);
  switch (op) {
    case "eq":
      return q.where(col, "=", value);
    case "neq":
      return q.where(col, "<>", value);
    case "gt":
      return q.where(col, ">", bound(value));
    case "gte":
      return q.where(col, ">=", bound(value));
    case "lt":
      return q.where(col, "<", bound(value));
    case "lte":
      return q.where(col, "<=", bound(value));
    case "in":
      if (value instanceof IdsText)
        return value.text
          ? q.where(sql<boolean>`${sql.ref(col)} = any(string_to_array(${value.text}, ',')::uuid[])`)
          : q.where(sql<boolean>`false`);
      // One array parameter, however many values.
      return (value as unknown[]).length
        ? q.where(sql<boolean>`${sql.ref(col)} = any(${value})`)
        : q.where(sql<boolean>`false`);
    case "is_null":
      return q.where(col, "is", null);
    case "not_null":
      return q.where(col, "is not", null);
    case "ilike":
      return q.where(sql`${sql.ref(col)}::text`, "ilike", `%${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
}

/** A date (2026-02-28) or an amount (1500, 15.00): what a range filter's end can be written as in the statement. */
const LITERAL = /^(\d{4}-\d{2}-\d{2}|-?\d{1,15}(\.\d{1,4})?)$/;

/** A range filter whose end stays a parameter, not written into the statement (see `bound`). */
export function rangeAsParameter({ op, value }: Filter): boolean {
  return ["gt", "gte", "lt", "lte"].includes(op) && !LITERAL.test(String(value));
}

/**
 * A range's end as a literal when it is a plain date or amount: a prepared statement's generic
 * plan cannot know how much of the table `fecha_gasto >= $1` keeps (it assumes very little, and with
 * many gastos sorted a department's matches instead of walking the index: ADR 0008), while
 * with the dates in its text it can, so the statement keeps its plan — the joins and row-level
 * security of gastos_vista are planned once per connection and range, not on every page. Anything
 * else stays a parameter (and the page is planned with its values, prepared.server.ts).
 */
function bound(value: unknown) {
  return LITERAL.test(String(value)) ? sql.lit(String(value)) : value;
}

/** The list's sort, then `id` for a stable order (idAscending). */
export function applyOrder<O>(q: Select<O>, query: ListQuery): Select<O> {
  for (const o of query.order ?? []) q = q.orderBy(identifier(o.column), o.ascending ? "asc" : "desc");
  return q.orderBy("id", idAscending(query) ? "asc" : "desc");
}
