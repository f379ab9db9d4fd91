import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import {
  Conflict,
  Forbidden,
  identifier,
  idAscending,
  NotFound,
  storeErrorFromPostgres,
  searchWords,
  UUID,
  EXACT_COUNT_LIMIT,
  type Filter,
  type FilterOp,
  type ListQuery,
  type ListResult,
  type Row,
  type Store,
} from "./store";

/**
 * The store port over a hosted Supabase project, through PostgREST (`@supabase/supabase-js`).
 *
 * Every request carries the project's public (anon) key as `apikey` and the signed-in user's JWT
 * as `Authorization: Bearer …`, so PostgREST runs it as role `authenticated` with the user's
 * claims and the schema's row-level security decides, exactly as in the SQL adapter. The
 * service-role key never comes near this file.
 */
export type SupabaseConnection = {
  url: string;
  anonKey: string;
  /** For tests: the fetch every request goes through (default: the global one). */
  fetch?: typeof fetch;
};

/**
 * supabase-js builds a Realtime client with every client, and on Node 20 that throws unless a
 * WebSocket class is given. Oficina never subscribes to anything: this stand-in is only stored,
 * and would refuse if anything ever tried to open a socket.
 */
export class NoRealtime {
  constructor() {
    throw new Error("Oficina no usa Supabase Realtime");
  }
}

/** A supabase-js client whose every request carries `accessToken` (never the service-role key). */
export function userClient(conn: SupabaseConnection, accessToken: string): SupabaseClient {
  if (!accessToken)
    throw new Error("Falta el JWT del usuario: el almacén de Supabase solo trabaja en nombre de un usuario.");
  return createClient(conn.url, conn.anonKey, {
    accessToken: async () => accessToken,
    realtime: { transport: NoRealtime as never },
    global: conn.fetch ? { fetch: conn.fetch } : {},
  });
}

/** Function of the migration 20261125000007_escala that sums columns over a list's filter (see there). */
export const SUM_FUNCTION = "sumar_lista";

export function supabaseStore(conn: SupabaseConnection, accessToken: string): Store {
  const client = userClient(conn, accessToken);

  /** After an update/delete touched no row: tell apart gone, changed meanwhile, and not allowed. */
  async function whyUntouched(table: string, id: string, version?: number): Promise<never> {
    const { data, error, status } = await client.from(table).select("id,version").eq("id", id).maybeSingle();
    if (error) throw toStoreError(error, status);
    if (!data) throw new NotFound("El registro no existe o ha sido eliminado");
    if (version !== undefined && (data as Row).version !== version)
      throw new Conflict("Otra persona modificó este registro mientras lo editaba");
    throw new Forbidden("No tiene permiso para modificar este registro");
  }

  return {
    async list<T>(source: string, query: ListQuery): Promise<ListResult<T>> {
      const from = identifier(source);
      const counting = query.count !== "none";
      const sumColumns = (query.sum ?? []).map(identifier);
      if ((query.filters ?? []).some(matchesNothing)) {
        // Like `where false` in SQL: no request can find anything.
        return {
          rows: [],
          total: counting ? 0 : query.offset,
          estimated: false,
          sums: counting ? Object.fromEntries(sumColumns.map((c) => [c, "0"])) : {},
        };
      }
      const search = searchParts(query.search);
      /** The list's filter and search on `select`. */
      const filtered = (select: string, options?: { count?: "exact" | "planned"; head?: boolean }) => {
        let q = client.from(from).select(select, options);
        for (const filter of query.filters ?? []) q = applyFilter(q, filter);
        for (const body of search) q = q.or(body);
        return q;
      };

      // The page. With "estimated", the planner's count comes with it (PostgREST runs EXPLAIN).
      let rowsQuery = filtered(
        query.columns?.map(identifier).join(",") ?? "*",
        query.count === "estimated" ? { count: "planned" } : counting ? { count: "exact" } : undefined,
      );
      for (const o of query.order ?? []) rowsQuery = rowsQuery.order(identifier(o.column), { ascending: o.ascending });
      rowsQuery = rowsQuery
        .order("id", { ascending: idAscending(query) })
        .range(query.offset, query.offset + query.limit - 1);

      const exactSums = () => (sumColumns.length ? client.rpc(SUM_FUNCTION, sumArgs(from, sumColumns, query)) : null);
      const [rowsAnswer, sumsAnswer] = await Promise.all([
        rowsQuery,
        query.count === "exact" || query.count === undefined ? exactSums() : null,
      ]);
      if (rowsAnswer.error) throw toStoreError(rowsAnswer.error, rowsAnswer.status);
      const rows = (rowsAnswer.data ?? []) as T[];
      const seen = rows.length + query.offset;
      if (!counting) return { rows, total: seen, estimated: false, sums: {} };

      if (query.count === "estimated") {
        // As the SQL adapter: few matches are counted (and summed) exactly; past EXACT_COUNT_LIMIT,
        // confirmed by asking for row EXACT_COUNT_LIMIT + 1, the planner's estimate, without sums.
        const needAggregate = sumColumns.length > 0 || rows.length === query.limit || query.offset > 0;
        if (!needAggregate) return { rows, total: seen, estimated: false, sums: {} };
        const planned = rowsAnswer.count ?? 0;
        if (planned > EXACT_COUNT_LIMIT) {
          const probe = await filtered("id").range(EXACT_COUNT_LIMIT, EXACT_COUNT_LIMIT);
          if (probe.error) throw toStoreError(probe.error, probe.status);
          if (probe.data?.length)
            return { rows, total: Math.max(planned, EXACT_COUNT_LIMIT + 1, seen), estimated: true, sums: {} };
        }
        const [countAnswer, estimatedSums] = await Promise.all([
          filtered("id", { count: "exact", head: true }),
          exactSums(),
        ]);
        if (countAnswer.error) throw toStoreError(countAnswer.error, countAnswer.status);
        return { rows, total: countAnswer.count ?? seen, estimated: false, sums: sumsOf(sumColumns, estimatedSums) };
      }
      return { rows, total: rowsAnswer.count ?? seen, estimated: false, sums: sumsOf(sumColumns, sumsAnswer) };
    },

    async get<T>(source: string, id: string): Promise<T> {
      if (!UUID.test(id)) throw new NotFound("El registro no existe");
      const { data, error, status } = await client.from(identifier(source)).select("*").eq("id", id).maybeSingle();
      if (error) throw toStoreError(error, status);
      if (!data) throw new NotFound("El registro no existe o no tiene acceso a él");
      return data as T;
    },

    async insert<T>(table: string, values: Row): Promise<T> {
      const { data, error, status } = await client.from(identifier(table)).insert(columns(values)).select();
      if (error) throw toStoreError(error, status);
      const row = (data as T[] | null)?.[0];
      if (!row) throw new Error(`Supabase no devolvió la fila insertada en ${table}`);
      return row;
    },

    async update<T>(table: string, id: string, version: number, values: Row): Promise<T> {
      if (!UUID.test(id)) throw new NotFound("El registro no existe");
      const { data, error, status } = await client
        .from(identifier(table))
        .update(columns(values))
        .eq("id", id)
        .eq("version", version)
        .select();
      if (error) throw toStoreError(error, status);
      const row = (data as T[] | null)?.[0];
      return row ?? whyUntouched(table, id, version);
    },

    async remove(table: string, id: string, version?: number): Promise<void> {
      if (!UUID.test(id)) throw new NotFound("El registro no existe");
      let query = client.from(identifier(table)).delete().eq("id", id);
      if (version !== undefined) query = query.eq("version", version);
      const { data, error, status } = await query.select("id");
      if (error) throw toStoreError(error, status);
      if (!(data as Row[] | null)?.length) await whyUntouched(table, id, version);
    },

    async rpc<T>(fn: string, args: Row): Promise<T> {
      for (const name of Object.keys(args)) identifier(name);
      const { data, error, status } = await client.rpc(identifier(fn), args);
      if (error) throw toStoreError(error, status);
      // PostgREST gives a function's value, or its rows for a set-returning one (as the SQL adapter).
      return (data ?? null) as T;
    },
  };
}

/**
 * A PostgREST error body (`{code, message, details, hint}`) → the store's typed errors, with the
 * same mapping as the SQL adapter; what has no typed meaning becomes a plain Error (a 500 page,
 * never the raw text on screen).
 */
export function toStoreError(
  error: { code?: string; message?: string; details?: string | null; hint?: string | null },
  status: number,
): Error {
  const typed = storeErrorFromPostgres(error);
  if (typed) return typed;
  // PGRST116: an object was asked for (`Accept: application/vnd.pgrst.object+json`) and no row came.
  if (error.code === "PGRST116") return new NotFound("El registro no existe o no tiene acceso a él");
  if (status === 401 || status === 403)
    return new Forbidden(
      error.code === "PGRST301" || error.code === "PGRST303"
        ? "La sesión ha caducado: vuelva a iniciar sesión"
        : "No tiene permiso para hacer esto",
    );
  if (status === 0) return new Error(`No se pudo contactar con Supabase: ${error.message ?? ""}`.trim());
  return new Error(
    `Supabase respondió ${status}${error.code ? ` (${error.code})` : ""}: ${error.message ?? "error desconocido"}`,
  );
}

function columns(values: Row): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[identifier(key)] = value;
  return out;
}

const COMPARISONS = { eq: "eq", neq: "neq", gt: "gt", gte: "gte", lt: "lt", lte: "lte" } as const;

/** Filters that can match no row at all: `in` an empty list, a comparison with null (SQL: unknown). */
function matchesNothing({ op, value }: Filter): boolean {
  if (op === "in") return !Array.isArray(value) || value.length === 0;
  return op in COMPARISONS && (value === null || value === undefined);
}

type Filterable<Q> = {
  filter(column: string, operator: string, value: unknown): Q;
  is(column: string, value: null): Q;
  not(column: string, operator: string, value: unknown): Q;
};

/**
 * One filter as a PostgREST query parameter. A top-level value is taken verbatim by PostgREST
 * (everything after `op.`), so it needs no quoting; list elements are always double-quoted with
 * `\` and `"` escaped, so a comma, parenthesis or quote in a value stays a value.
 */
function applyFilter<Q extends Filterable<Q>>(q: Q, { column, op, value }: Filter): Q {
  const col = identifier(column);
  switch (op as FilterOp) {
    case "eq":
    case "neq":
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return q.filter(col, COMPARISONS[op as keyof typeof COMPARISONS], scalar(value));
    case "in":
      return q.filter(col, "in", `(${(value as unknown[]).map((v) => quoted(scalar(v))).join(",")})`);
    case "is_null":
      return q.is(col, null);
    case "not_null":
      return q.not(col, "is", null);
    case "ilike":
      return q.filter(col, "ilike", `*${likeEscape(String(value ?? ""))}*`);
    default:
      throw new Error(`Operador de filtro desconocido: ${String(op)}`);
  }
}

function scalar(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** A value inside a PostgREST list or logic tree: `"…"` with `\` and `"` backslash-escaped. */
export function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * A search term as an `ilike` pattern body for PostgREST: `\`, `%` and `_` are escaped for LIKE
 * (backslash is Postgres' default LIKE escape). PostgREST turns every `*` into `%` and has no
 * escape for it, so a literal `*` becomes `_` (any one character): the search may match a little
 * more, never less.
 */
export function likeEscape(term: string): string {
  return term.replace(/[\\%_*]/g, (c) => (c === "*" ? "_" : `\\${c}`));
}

/** `search` as PostgREST parameters, one `or=(col.ilike."*word*",…)` per word (PostgREST ANDs them). */
export function searchParts(search: ListQuery["search"]): string[] {
  if (!search?.columns.length) return [];
  return searchWords(search).map((word) => {
    const pattern = quoted(`*${likeEscape(word)}*`);
    return search.columns.map((c) => `${identifier(c)}.ilike.${pattern}`).join(",");
  });
}

function sumsOf(
  columns: string[],
  answer: { data: unknown; error: unknown; status: number } | null,
): Record<string, string> {
  if (!answer) return {};
  if (answer.error) throw toStoreError(answer.error as { code?: string; message?: string }, answer.status);
  const sums: Record<string, string> = {};
  for (const column of columns) sums[column] = String((answer.data as Row | null)?.[column] ?? "0");
  return sums;
}

/**
 * Arguments for `public.sumar_lista` (hosted projects have PostgREST aggregates switched off):
 * the same filters and search as the rows request, as JSON, for the function to rebuild with
 * quoted identifiers and literals under the caller's row-level security.
 */
export function sumArgs(source: string, sumColumns: string[], query: ListQuery): Row {
  const search = query.search;
  const term = search?.term.trim();
  const words = searchWords(search);
  return {
    p_fuente: identifier(source),
    p_columnas: sumColumns.map(identifier),
    p_filtros: (query.filters ?? []).map(({ column, op, value }) => ({
      column: identifier(column),
      op,
      value:
        value instanceof Date
          ? value.toISOString()
          : Array.isArray(value)
            ? value.map((v) => (v instanceof Date ? v.toISOString() : String(v)))
            : (value ?? null),
    })),
    p_busqueda:
      search && words.length && search.columns.length
        ? { columns: search.columns.map(identifier), term, ...(search.words ? { words } : {}) }
        : null,
  };
}
