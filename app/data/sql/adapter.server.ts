import { CompiledQuery, sql, type Kysely } from "kysely";
import type { Database } from "../database";
import {
  Conflict,
  EXACT_COUNT_LIMIT,
  Forbidden,
  identifier,
  NotFound,
  UUID,
  type ListQuery,
  type ListResult,
  type ReadOptions,
  type Row,
  type Store,
} from "../store";
import type { AnyTrx } from "./connection.server";
import { pageRows } from "./performance/page-rows.server";
import { estimateTotal } from "./performance/estimate.server";
import { remembered } from "./performance/kept.server";
import { withValues } from "./performance/prepared.server";
import { withSearchFunction } from "./performance/search.server";
import { transactions } from "./performance/transactions.server";
import { applyOrder, applyWhere } from "./where.server";

/**
 * The store port over Postgres, the way PostgREST serves it to the Supabase adapter: every call
 * runs as the signed-in user (connection.server.ts), so row-level security decides what is
 * visible. What makes it fast without changing any answer lives in performance/ (ADR 0015).
 */
export function sqlStore(db: Kysely<Database>, userId: string): Store {
  const { run, read, keptRead } = transactions(db, userId);

  return {
    async list<T>(source: string, listQuery: ListQuery, o: ReadOptions = {}): Promise<ListResult<T>> {
      if (o.keep) return keptRead([source, "keep", listQuery], (trx, cambios) => readList<T>(trx, cambios));
      return read((trx, cambios) => readList<T>(trx, cambios));
      async function readList<T>(trx: AnyTrx, cambios: string): Promise<ListResult<T>> {
        const from = identifier(source);
        // The count and sums are kept while nothing has changed (per database, user and filter).
        const aggregate = <A>(compute: () => Promise<A>) =>
          remembered(
            db,
            [cambios, userId, source, listQuery.filters, listQuery.search, listQuery.sum, listQuery.count],
            compute,
          );
        const cap = listQuery.count === "exact" ? null : EXACT_COUNT_LIMIT;
        const searched = await withSearchFunction(trx, listQuery, cap, { db, key: [cambios, userId] });
        const { query, found } = searched;
        // The page's rows: `query`'s, or the same rows found by their ids alone (search.server.ts).
        const page = searched.page ?? query;
        const filtered = () => applyWhere(trx.selectFrom(from), query);
        const rows = (await withValues(trx, await pageRows(trx, from, page), page)) as T[];

        const sums: Record<string, string> = {};
        let total = rows.length + query.offset;
        const needAggregate = (query.sum?.length ?? 0) > 0 || rows.length === query.limit || query.offset > 0;
        if (query.count === "estimated" && needAggregate) {
          // A search of many matches and nothing else: what the search function said.
          const alone =
            found && !listQuery.filters?.length && (found.estimated || (query.sum ?? []).every((c) => c in found.sums));
          const estimate = alone
            ? found
            : await aggregate(() => estimateTotal(trx, filtered(), query.sum ?? [], found?.total));
          return estimate.estimated
            ? { rows, total: Math.max(estimate.total, total), estimated: true, sums }
            : { rows, total: estimate.total, estimated: false, sums: estimate.sums };
        }
        if (query.count !== "none" && needAggregate) {
          let agg = filtered().select(sql<number>`count(*)::int`.as("total"));
          for (const column of query.sum ?? [])
            agg = agg.select(sql<string>`coalesce(sum(${sql.ref(identifier(column))}), 0)::text`.as(`sum_${column}`));
          const result: Row = await aggregate(() => agg.executeTakeFirstOrThrow());
          total = Number(result.total);
          for (const column of query.sum ?? []) sums[column] = String(result[`sum_${column}`]);
        }
        return { rows, total, estimated: false, sums };
      }
    },

    async get<T>(source: string, id: string): Promise<T> {
      if (!UUID.test(id)) throw new NotFound("El registro no existe");
      const row = await read((trx) =>
        trx.selectFrom(identifier(source)).selectAll().where("id", "=", id).executeTakeFirst(),
      );
      if (!row) throw new NotFound("El registro no existe o no tiene acceso a él");
      return row as T;
    },

    async insert<T>(table: string, values: Row): Promise<T> {
      return run(
        async (trx) =>
          (await trx
            .insertInto(identifier(table))
            .values(columns(values))
            .returningAll()
            .executeTakeFirstOrThrow()) as T,
      );
    },

    async update<T>(table: string, id: string, version: number, values: Row): Promise<T> {
      if (!UUID.test(id)) throw new NotFound("El registro no existe");
      return run(async (trx) => {
        const row = await trx
          .updateTable(identifier(table))
          .set(columns(values))
          .where("id", "=", id)
          .where("version", "=", version)
          .returningAll()
          .executeTakeFirst();
        return (row ?? (await whyUntouched(trx, table, id, version))) as T;
      });
    },

    async remove(table: string, id: string, version?: number): Promise<void> {
      if (!UUID.test(id)) throw new NotFound("El registro no existe");
      await run(async (trx) => {
        let query = trx.deleteFrom(identifier(table)).where("id", "=", id);
        if (version !== undefined) query = query.where("version", "=", version);
        const row = await query.returning("id").executeTakeFirst();
        if (!row) await whyUntouched(trx, table, id, version);
      });
    },

    async stream<T>(source: string, query: ListQuery, onPage: (rows: T[]) => Promise<void>): Promise<void> {
      // A cursor in one transaction as the user: each FETCH continues where the last stopped.
      await run(async (trx) => {
        const all = (await withSearchFunction(trx, query, null)).query;
        const compiled = applyOrder(applyWhere(trx.selectFrom(identifier(source)), all).selectAll(), all).compile();
        await trx.executeQuery(
          CompiledQuery.raw(`declare exportacion no scroll cursor for ${compiled.sql}`, [...compiled.parameters]),
        );
        for (;;) {
          const { rows } = await sql<T>`fetch forward ${sql.raw(String(STREAM_PAGE))} from exportacion`.execute(trx);
          if (rows.length) await onPage(rows);
          if (rows.length < STREAM_PAGE) break;
        }
      });
    },

    async rpc<T>(fn: string, args: Row, o: ReadOptions = {}): Promise<T> {
      if (o.keep) return keptRead(["rpc", fn, args], (trx) => call<T>(trx, fn, args));
      return o.reads ? read((trx) => call<T>(trx, fn, args)) : run((trx) => call<T>(trx, fn, args));
    },
  };
}

/** After an update/delete touched no row: tell apart gone, changed meanwhile, and not allowed. */
async function whyUntouched(trx: AnyTrx, table: string, id: string, version?: number): Promise<never> {
  const current = await trx.selectFrom(table).select("version").where("id", "=", id).executeTakeFirst();
  if (!current) throw new NotFound("El registro no existe o ha sido eliminado");
  if (version !== undefined && current.version !== version)
    throw new Conflict("Otra persona modificó este registro mientras lo editaba");
  throw new Forbidden("No tiene permiso para modificar este registro");
}

/** A database function's answer, like PostgREST's: a function returning a table gives its rows, a scalar one its value. */
async function call<T>(trx: AnyTrx, fn: string, args: Row): Promise<T> {
  const names = Object.keys(args).map(identifier);
  const params = sql.join(names.map((n) => sql`${sql.raw(n)} => ${args[n]}`));
  const result = await sql<Row>`select * from ${sql.raw(`public.${identifier(fn)}`)}(${params}) as r`.execute(trx);
  const scalar = (result as { fields?: { name: string }[] }).fields;
  const columns = Object.keys(result.rows[0] ?? {});
  if (columns.length === 1 && columns[0] === "r") return result.rows[0]!.r as T;
  if (!result.rows.length && scalar?.length === 1 && scalar[0]!.name === "r") return null as T;
  return result.rows as T;
}

/** Rows per FETCH of `stream`. */
const STREAM_PAGE = 2000;

/**
 * The values to write, by checked column name. Arrays and objects are JSON (jsonb columns), as
 * PostgREST takes them; pg alone would send an array as a Postgres array.
 */
function columns(values: Row): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const json = value !== null && typeof value === "object" && !(value instanceof Date);
    out[identifier(key)] = json ? JSON.stringify(value) : value;
  }
  return out;
}
