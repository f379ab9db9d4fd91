/**
 * The store port: what routes may ask of the data, whichever backend serves it.
 * Adapters: sql/adapter.server.ts (Kysely over Postgres) and supabase.server.ts (PostgREST).
 * Both run every call as the signed-in user, so row-level security decides what is visible.
 */
import type { Selectable } from "kysely";
import type { Database, Numeric } from "./database";
export type Row = Record<string, unknown>;

/** `ilike`: case-insensitive substring match of a text value (the adapter escapes `%` and `_`). */
export type FilterOp = "eq" | "neq" | "gt" | "gte" | "lt" | "lte" | "in" | "is_null" | "not_null" | "ilike";
export type Filter = { column: string; op: FilterOp; value?: unknown };

export type ListQuery<C extends string = string> = {
  filters?: Filter[];
  /**
   * Case-insensitive substring search: each of `words` (without them, the trimmed term as one
   * word) is contained in one of the columns. The caller normalises the words as the columns
   * are (app/lib/busqueda.ts for the `busqueda` columns). `fn`: a database function
   * `fn(words, cap)` finding the visible rows that match by that same rule through indexes
   * (performance/search.server.ts): under row-level security PostgreSQL uses no index for ILIKE
   * (not LEAKPROOF). An adapter may use it instead of the columns.
   */
  search?: {
    columns: string[];
    term: string;
    words?: string[];
    fn?: string;
  };
  /** Then `id`, in the direction of the first key (idAscending), on both adapters. */
  order?: { column: string; ascending: boolean }[];
  /** The columns each row carries (default: all of them). */
  columns?: C[];
  limit: number;
  offset: number;
  /**
   * "exact" counts every match; "estimated" may use the planner's estimate for large results:
   * above EXACT_COUNT_LIMIT matches the result says `estimated: true` and carries no `sums`.
   */
  count?: "exact" | "estimated" | "none";
  /** Columns to sum over the whole filter (e.g. importe), as exact decimal strings (not with an estimated count). */
  sum?: string[];
  /**
   * The table `source` is a view of, one view row per table row (a security-invoker view that
   * only adds columns through left joins on keys, like gastos_vista). An adapter may find the
   * page's ids in `base` first, when every filter, search column and sort key is a column of it,
   * and read only those rows from the view: the joins then run for one page, not for every
   * match sorted (same rows, same order).
   */
  base?: string;
};

/**
 * The last sort key, for a stable order: `id`, in the direction of the first key, so one index on
 * (column, id) serves both directions (backwards for descending) and a search function's ids
 * (sorted the same way) are the list's order on either adapter.
 */
export function idAscending(query: Pick<ListQuery, "order">): boolean {
  return query.order?.[0]?.ascending !== false;
}

/** The words `search` must all find: `words`, or else the whole trimmed term; none when empty. */
export function searchWords(search: ListQuery["search"]): string[] {
  if (!search) return [];
  if (search.words) return search.words.filter((w) => w.trim() !== "");
  const term = search.term.trim();
  return term ? [term] : [];
}

/** With `count: "estimated"`, up to this many matches are counted (and summed) exactly. */
export const EXACT_COUNT_LIMIT = 10_000;

export type ListResult<T = Row> = {
  rows: T[];
  total: number;
  estimated: boolean;
  sums: Record<string, string>;
};

/**
 * How a read may be served, apart from what it reads. `keep`: side data read on every visit
 * (option lists, the departments a person is in charge of, a panel), by a caller that never
 * mutates what it gets: an adapter may answer with the result of the same user's identical read
 * while nothing has changed since (the SQL adapter: interno.cambios), sharing the rows. For `rpc`,
 * the function must only read the tables behind interno.cambios.
 */
export type ReadOptions = {
  keep?: boolean;
  /**
   * `rpc` of a function that only reads: it may run with the reads started together instead of
   * in a transaction of its own (the SQL adapter: ADR 0008, «Statements and round trips»).
   */
  reads?: boolean;
};

/** A table or view of the migrated schema, by the name a store reads it with. */
export type Source = Extract<keyof Database, string>;
/** The numeric columns of a table: pg reads them as exact strings, PostgREST as JSON numbers. */
type NumericColumn<T> = { [K in keyof T]: Numeric extends T[K] ? K : never }[keyof T];
/** A row of table or view `S` as a store returns it: every column, typed as the schema says. */
export type RowOf<S extends Source> = {
  [K in keyof Selectable<Database[S]>]: K extends NumericColumn<Database[S]>
    ? Selectable<Database[S]>[K] | number
    : Selectable<Database[S]>[K];
};
/** A column of `S`; a read that names its `columns` gets rows of just those. */
export type ColumnOf<S extends Source> = Extract<keyof RowOf<S>, string>;

/** A source named only at run time; a name the schema knows must take the typed signature. */
type Dynamic<N extends string> = N extends Source ? never : N;

/**
 * The data port. A read of a source named in the code is typed by the schema (app/data/database.ts,
 * generated); a source known only at run time (an entity's view, for the generic screens) gives
 * plain rows, or the type its caller names.
 */
export interface Store {
  list<S extends Source, C extends ColumnOf<S> = ColumnOf<S>>(
    source: S,
    query: ListQuery<C>,
    o?: ReadOptions,
  ): Promise<ListResult<Pick<RowOf<S>, C>>>;
  list<T = Row, N extends string = string>(
    source: Dynamic<N>,
    query: ListQuery,
    o?: ReadOptions,
  ): Promise<ListResult<T>>;
  /** One row by id; throws NotFound when missing or not visible. */
  get<S extends Source>(source: S, id: string): Promise<RowOf<S>>;
  get<T = Row, N extends string = string>(source: Dynamic<N>, id: string): Promise<T>;
  insert<T = Row>(table: string, values: Row): Promise<T>;
  /** Updates only when `version` still matches; Conflict when someone changed it meanwhile. */
  update<T = Row>(table: string, id: string, version: number, values: Row): Promise<T>;
  remove(table: string, id: string, version?: number): Promise<void>;
  /** Calls a database function; without `keep` or `reads` it may write, in a transaction of its own. */
  rpc<T = unknown>(fn: string, args: Row, o?: ReadOptions): Promise<T>;
  /**
   * Optional: every row of the query (its limit and offset ignored), in its order, page by page
   * (`onPage` awaited before the next page is read), from one consistent snapshot. For exports of
   * huge lists, where paging by offset would read the skipped rows again for every page. An
   * adapter without it is paged by offset (list). A rejection of `onPage` stops the stream.
   */
  stream?<T = Row>(source: string, query: ListQuery, onPage: (rows: T[]) => Promise<void>): Promise<void>;
}

export class StoreError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
/** The record does not exist or this user may not see it. */
export class NotFound extends StoreError {}
/** Someone else changed the record first (stale version or a transition already made). */
export class Conflict extends StoreError {}
/** The user may not do this (row-level security or a workflow rule). */
export class Forbidden extends StoreError {}
/** Other records point to this one; it cannot be deleted. */
export class Referenced extends StoreError {}
/** The database refused the values; `field` names the column when known. */
export class Invalid extends StoreError {}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
/** Table, view, column and function names come from entity definitions; check them anyway. */
export function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Identificador no válido: ${name}`);
  return name;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The version a form posted (optimistic locking), or null when it is not one a record can have:
 * every version column is a Postgres `integer`, so anything past nine digits would fail there.
 */
export function versionDe(value: unknown): number | null {
  return typeof value === "string" && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;
}

/**
 * Postgres (or PostgREST, which passes the same codes through) error → typed store error.
 * Constraint names follow `<tabla>_<columna>_key|check|fkey`, so the column is recoverable.
 */
export function storeErrorFromPostgres(error: {
  code?: string;
  message?: string;
  detail?: string | null;
  details?: string | null;
  constraint?: string;
}): StoreError | null {
  const detail = error.detail ?? error.details ?? "";
  const constraint = error.constraint ?? /constraint "([^"]+)"/.exec(error.message ?? "")?.[1];
  const column = constraint ? columnOf(constraint) : undefined;
  switch (error.code) {
    case "OFINV":
      return new Invalid(error.message ?? "Valor no válido", detail || undefined);
    case "OFCNF":
      return new Conflict(error.message ?? "Otra persona modificó este registro");
    case "OFPRM":
      return new Forbidden(error.message ?? "No tiene permiso para hacer esto");
    case "OFNTF":
      return new NotFound(error.message ?? "No existe");
    case "23505":
      return new Invalid("Ya existe un registro con este valor", column);
    case "23503":
      return /still referenced|sigue siendo referenciad|is referenced/i.test(`${error.message} ${detail}`)
        ? new Referenced("Otros registros dependen de este")
        : new Invalid("El registro relacionado no existe", column);
    case "23514":
    case "23502":
    case "22001":
    case "22003":
    case "22007":
    case "22008":
    case "22P02":
      return new Invalid("Valor no válido", column);
    case "42501":
      return new Forbidden("No tiene permiso para hacer esto");
    // NUL in text ("invalid byte sequence for encoding UTF8: 0x00"), or \u0000 in JSON.
    case "22021":
    case "22P05":
      return new Invalid("Hay un carácter no válido en lo escrito; escríbalo de nuevo");
    default:
      return null;
  }
}

function columnOf(constraint: string): string | undefined {
  const m = /^[a-z]+_(.+)_(key|check|fkey)$/.exec(constraint);
  return m?.[1];
}
