import { CompiledQuery, Kysely, PostgresDialect, sql, type Transaction } from "kysely";
import { createHash } from "node:crypto";
import pg from "pg";
import {
  Conflict,
  EXACT_COUNT_LIMIT,
  Forbidden,
  identifier,
  NotFound,
  storeErrorFromPostgres,
  UUID,
  type Filter,
  type ListQuery,
  type ListResult,
  type Row,
  type Store,
} from "./store";

// Dates, timestamps and numerics stay strings: no time-zone shifts, no floats for money.
for (const oid of [1082, 1114, 1184, 1700]) pg.types.setTypeParser(oid, (v: string) => v);
pg.types.setTypeParser(20, (v: string) => Number(v));

type DB = Kysely<any>;

/** Not prepared: transaction control and the cursor and EXPLAIN statements. */
const UTILITY = /^\s*(begin|commit|rollback|start|savepoint|release|declare|fetch|close|explain)\b/i;

/** Without parameters only a single SELECT is prepared (others keep pg's simple protocol: several statements, VACUUM…). */
const SINGLE_SELECT = /^\s*(select|with)\b[^;]*$/i;

/**
 * A statement that starts with this comment is planned with its values every time (sent
 * unnamed): see `withValues`.
 */
const WITH_VALUES = "/* planificada con sus valores */ ";

/** Statements each connection keeps prepared, at most (then further ones run unnamed, as before): ~100 × ≤ 260 KB. */
const MAX_PREPARED = 100;

/**
 * A pg client that runs every statement (but transaction control) as a named (prepared) one, as PostgREST
 * does: each connection parses a statement's text once and PostgreSQL may keep its plan. The
 * gastos_vista queries (six joins, row-level security on every table) cost more to plan than to
 * run. Names are a hash of the text, so a name always means the same statement. Plans still
 * follow the role and the claims of each transaction: row-level security is evaluated as before
 * (PostgreSQL replans a cached plan when the role it was made for changes).
 */
class PreparingClient extends pg.Client {
  private readonly preparados = new Set<string>();
  override query(config: any, values?: any, callback?: any): any {
    if (
      typeof config === "string" &&
      Array.isArray(values) &&
      !UTILITY.test(config) &&
      !config.startsWith(WITH_VALUES) &&
      (values.length > 0 || SINGLE_SELECT.test(config))
    ) {
      const name = `o_${createHash("sha1").update(config).digest("base64url")}`;
      if (this.preparados.has(name) || this.preparados.size < MAX_PREPARED) {
        this.preparados.add(name);
        return super.query({ name, text: config, values }, callback);
      }
    }
    return super.query(config, values, callback);
  }
}

export function createDatabase(url: string, max = 10): DB {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    Client: PreparingClient,
  });
  // An idle client's error (database restarted) must not crash the process; the pool drops it.
  pool.on("error", () => {});
  // Nor may a checked-out client's: pg-pool removes its listener while a request holds the client,
  // and a connection ended by the server between two statements of a transaction ("terminating
  // connection due to administrator command") was an unhandled 'error' event that killed the
  // process. The request in flight fails with its error; the broken client is dropped on release.
  pool.on("connect", (client) => client.on("error", () => {}));
  return new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Runs `fn` in one transaction as the given user, the way PostgREST does it: role
 * `authenticated` and the JWT claims in `request.jwt.claims`, so the schema's row-level
 * security applies to the embedded backend exactly as on Supabase.
 */
export async function asUser<T>(
  db: DB,
  userId: string,
  fn: (trx: Transaction<any>, cambios: string) => Promise<T>,
): Promise<T> {
  const claims = JSON.stringify({ sub: userId, role: "authenticated", aud: "authenticated" });
  try {
    return await db.transaction().execute(async (trx) => {
      // With the role, the data's change counter (migration 20261122000040), read before anything is counted.
      const { rows } = await sql<{
        cambios: string;
      }>`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${claims}, true), interno.cambios()::text as cambios`.execute(
        trx,
      );
      return fn(trx, rows[0]!.cambios);
    });
  } catch (error) {
    throw storeErrorFromPostgres(error as pg.DatabaseError) ?? error;
  }
}

/**
 * Reads (`list`, `get`) started in the same turn of the event loop — a loader's `Promise.all`
 * — share one transaction as the user instead of opening one each: one BEGIN, one set_config
 * and one COMMIT for all of them. Same role, same claims, so the same row-level security; each
 * read still runs its own statements. If any of them fails, that transaction is rolled back and
 * the reads that failed run again, each in its own transaction as before, so a failure (or a
 * read that failed only because another one aborted the shared transaction) ends exactly as it
 * did with one transaction per call; the reads that had succeeded keep their rows. Writes, `rpc`
 * (which may write) and `stream` keep a transaction of their own.
 */
function readBatcher(db: DB, userId: string) {
  type Task = {
    fn: (trx: Transaction<any>, cambios: string) => Promise<unknown>;
    resolve: (value: any) => void;
    reject: (error: unknown) => void;
  };
  let pending: Task[] | null = null;
  const alone = (t: Task) => void asUser(db, userId, t.fn).then(t.resolve, t.reject);
  async function flush(tasks: Task[]) {
    if (tasks.length === 1) return alone(tasks[0]!);
    let settled: PromiseSettledResult<unknown>[] = [];
    try {
      await asUser(db, userId, async (trx, cambios) => {
        settled = await Promise.allSettled(tasks.map((t) => t.fn(trx, cambios)));
        if (settled.some((s) => s.status === "rejected")) throw new Error("rollback");
      });
    } catch {
      // Retried below, one by one.
    }
    tasks.forEach((t, i) => {
      const s = settled[i];
      if (s?.status === "fulfilled") t.resolve(s.value);
      else alone(t);
    });
  }
  return <T>(fn: (trx: Transaction<any>, cambios: string) => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (!pending) {
        const batch: Task[] = (pending = []);
        setImmediate(() => {
          pending = null;
          void flush(batch);
        });
      }
      pending.push({ fn, resolve, reject });
    });
}

export function sqlStore(db: DB, userId: string): Store {
  // The change counter this store's last read saw (a store serves one request). A `keep` read that
  // comes after it needs no transaction of its own when its result is kept for that value: the
  // page is read as of one moment anyway. A write through this store forgets it.
  let seen: string | undefined;
  const run = async <T>(fn: (trx: Transaction<any>) => Promise<T>) => {
    try {
      return await asUser(db, userId, fn);
    } finally {
      seen = undefined;
    }
  };
  const batched = readBatcher(db, userId);
  const read = <T>(fn: (trx: Transaction<any>, cambios: string) => Promise<T>) =>
    batched((trx, cambios) => {
      seen = cambios;
      return fn(trx, cambios);
    });

  /** After an update/delete touched no row: tell apart gone, changed meanwhile, and not allowed. */
  async function whyUntouched(trx: Transaction<any>, table: string, id: string, version?: number): Promise<never> {
    const current = await trx.selectFrom(table).select("version").where("id", "=", id).executeTakeFirst();
    if (!current) throw new NotFound("El registro no existe o ha sido eliminado");
    if (version !== undefined && current.version !== version)
      throw new Conflict("Otra persona modificó este registro mientras lo editaba");
    throw new Forbidden("No tiene permiso para modificar este registro");
  }

  /**
   * A read whose result is kept per change counter value (`keep`): after this request's first
   * read, a kept result for the value it saw needs no transaction at all.
   */
  const keptRead = <T>(key: unknown[], fn: (trx: Transaction<any>, cambios: string) => Promise<T>): Promise<T> => {
    const hit = seen === undefined ? undefined : kept<T>(db, [seen, userId, ...key]);
    if (hit !== undefined) return Promise.resolve(hit);
    return read((trx, cambios) => remembered(db, [cambios, userId, ...key], () => fn(trx, cambios)));
  };

  return {
    async list<T>(source: string, listQuery: ListQuery): Promise<ListResult<T>> {
      if (listQuery.keep) return keptRead([source, "keep", listQuery], (trx, cambios) => readList<T>(trx, cambios));
      return read((trx, cambios) => readList<T>(trx, cambios));
      async function readList<T>(trx: Transaction<any>, cambios: string): Promise<ListResult<T>> {
        const from = identifier(source);
        // The count and sums are kept while nothing has changed (per database, user and filter).
        const aggregate = <A>(compute: () => Promise<A>) =>
          remembered(
            db,
            [cambios, userId, source, listQuery.filters, listQuery.search, listQuery.sum, listQuery.count],
            compute,
          );
        const { query, found } = await withSearchFunction(
          trx,
          listQuery,
          listQuery.count === "exact" ? null : EXACT_COUNT_LIMIT,
          { db, key: [cambios, userId] },
        );
        const filtered = () => applyWhere(trx.selectFrom(from), query);
        const sorted = <Q extends { orderBy: (...args: any[]) => Q }>(q: Q) => {
          for (const o of query.order ?? []) q = q.orderBy(identifier(o.column), o.ascending ? "asc" : "desc");
          return q.orderBy("id", tieBreak(query));
        };
        const selected = <Q extends { selectAll: () => any; select: (columns: string[]) => any }>(
          q: Q,
        ): ReturnType<Q["selectAll"]> => (query.columns ? q.select(query.columns.map(identifier)) : q.selectAll());
        let rowsQuery = sorted(selected(filtered()).limit(literal(query.limit)).offset(query.offset));
        if (query.base && (await inBase(trx, query))) {
          // The page's ids from the table (no joins while sorting and skipping), then their rows from the view.
          const ids = sorted(
            applyWhere(trx.selectFrom(identifier(query.base)), query)
              .select("id")
              .limit(literal(query.limit))
              .offset(query.offset),
          );
          rowsQuery = sorted(selected(trx.selectFrom(from)).where(sql<boolean>`id = any(array(${ids}))`));
        }
        const rows = (await withValues(trx, rowsQuery, query)) as T[];

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
          const result = await aggregate(async () => (await agg.executeTakeFirstOrThrow()) as Row);
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
        let q = applyWhere(
          trx.selectFrom(identifier(source)),
          (await withSearchFunction(trx, query, null)).query,
        ).selectAll();
        for (const o of query.order ?? []) q = q.orderBy(identifier(o.column), o.ascending ? "asc" : "desc");
        const compiled = q.orderBy("id", tieBreak(query)).compile();
        await trx.executeQuery(
          CompiledQuery.raw(`declare exportacion no scroll cursor for ${compiled.sql}`, [...compiled.parameters]),
        );
        for (;;) {
          const { rows } = await sql<T>`fetch forward ${sql.raw(String(STREAM_PAGE))} from exportacion`.execute(trx);
          if (rows.length) await onPage(rows as T[]);
          if (rows.length < STREAM_PAGE) break;
        }
      });
    },

    async rpc<T>(fn: string, args: Row, o: { keep?: boolean } = {}): Promise<T> {
      return o.keep
        ? keptRead(["rpc", fn, args], (trx) => call<T>(trx, fn, args))
        : run((trx) => call<T>(trx, fn, args));
    },
  };
}

/** A database function's answer, like PostgREST's: a function returning a table gives its rows, a scalar one its value. */
async function call<T>(trx: Transaction<any>, fn: string, args: Row): Promise<T> {
  const names = Object.keys(args).map(identifier);
  const params = sql.join(names.map((n) => sql`${sql.raw(n)} => ${args[n]}`));
  const result = await sql<Row>`select * from ${sql.raw(`public.${identifier(fn)}`)}(${params}) as r`.execute(trx);
  const scalar = (result as unknown as { fields?: { name: string }[] }).fields;
  const columns = Object.keys(result.rows[0] ?? {});
  if (columns.length === 1 && columns[0] === "r") return result.rows[0]!.r as T;
  if (!result.rows.length && scalar?.length === 1 && scalar[0]!.name === "r") return null as T;
  return result.rows as T;
}

/**
 * Counts and sums already computed, and `keep` lists (option lists), per database: valid while
 * the change counter read at the start of the transaction (interno.cambios(), advanced by every
 * committed write to the tables lists depend on) has not moved. Counting under row-level
 * security reads up to 10 001 rows per request (ADR 0006); a person paging, sorting or coming
 * back to a list pays it once per change. Keyed by the user too: row-level security makes the
 * same filter count differently per person.
 */
const RESULTS_KEPT = 2000;
const keptResults = new WeakMap<DB, Map<string, unknown>>();

/** The value kept under `key`, if any (and it becomes the most recently used). */
function kept<A>(db: DB, key: unknown[]): A | undefined {
  const all = keptResults.get(db);
  const k = JSON.stringify(key);
  if (!all?.has(k)) return undefined;
  const hit = all.get(k) as A;
  // Most recently used last: the oldest is the first to go.
  all.delete(k);
  all.set(k, hit);
  return hit;
}

async function remembered<A>(db: DB, key: unknown[], compute: () => Promise<A>): Promise<A> {
  const hit = kept<A>(db, key);
  if (hit !== undefined) return hit;
  return keep(db, key, await compute());
}

function keep<A>(db: DB, key: unknown[], value: A): A {
  let all = keptResults.get(db);
  if (!all) keptResults.set(db, (all = new Map()));
  all.set(JSON.stringify(key), value);
  if (all.size > RESULTS_KEPT) all.delete(all.keys().next().value!);
  return value;
}

/**
 * `count: "estimated"`: first a count capped at EXACT_COUNT_LIMIT + 1 rows (it stops there),
 * summing `sum` on the way: up to the limit, that is the exact count and the exact sums. Past
 * it, the planner's row estimate for the filter (EXPLAIN, nothing more is read) is the answer,
 * at least the cap, without sums. (Capping first means a planner that underestimates never
 * leads to an unbounded count.) `atMost`: a known bound (a broad search's own estimate: the
 * planner cannot estimate a substring search, and more filters only keep fewer).
 */
async function estimateTotal(
  trx: Transaction<any>,
  filtered: { select: (...args: any[]) => any },
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
  const result = (await agg.executeTakeFirstOrThrow()) as Row;
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

/**
 * The page's rows. A prepared statement's generic plan cannot know how much of the table a range
 * (`fecha_gasto between $1 and $2`) keeps, and assumes 0.5 %: at 1 000 000 gastos it then sorted
 * the matches of a department instead of walking the (estado, departamento_id, importe) index,
 * 60 ms instead of 6 (ADR 0008). A page filtered by a range is planned with its values, which
 * costs ~3 ms of planning; every other page keeps its prepared plan.
 */
async function withValues(
  trx: Transaction<any>,
  rowsQuery: { compile(): CompiledQuery; execute(): Promise<unknown[]> },
  query: ListQuery,
): Promise<unknown[]> {
  const ranged = (query.filters ?? []).some((f) => ["gt", "gte", "lt", "lte"].includes(f.op));
  if (!ranged) return rowsQuery.execute();
  const compiled = rowsQuery.compile();
  return (await trx.executeQuery(CompiledQuery.raw(WITH_VALUES + compiled.sql, [...compiled.parameters]))).rows;
}

/**
 * `search.fn` (ListQuery): the function reads at most `cap` + 1 matches through the trigram
 * indexes (migration 20261122000042) and says how many there are and what they add up to (exact
 * up to `cap`, an estimate past it). When the matches are few, their ids come too and become an
 * `id = any(…)` filter, so the row query and the count use the primary key; they travel as one
 * text (`a,b,c`), not as a uuid[] that node would parse and write back (ADR 0008). When they are
 * many, the search stays a condition on the rows instead: walking the sort's index finds a page
 * after reading fewer rows than sorting all the matches would, and `found` (small) is kept while
 * nothing changes, so paging or coming back costs only the page. Without `cap` (the export),
 * always the ids.
 */
async function withSearchFunction(
  trx: Transaction<any>,
  query: ListQuery,
  cap: number | null,
  keptAs?: { db: DB; key: unknown[] },
): Promise<{ query: ListQuery; found?: Aggregate }> {
  const term = query.search?.term.trim();
  const fn = query.search?.fn;
  if (!term || !fn) return { query };
  const key = keptAs && [...keptAs.key, "busqueda", fn, term, cap];
  let found = keptAs && kept<Aggregate>(keptAs.db, key!);
  if (!found) {
    const { rows } = await sql<{
      ids: string | null;
      coincidencias: number;
      exacto: boolean;
      sumas: Record<string, string> | null;
    }>`
      select ids, coincidencias, exacto, sumas from ${sql.raw(`public.${identifier(fn)}`)}(${term}, ${cap})`.execute(
      trx,
    );
    const r = rows[0] ?? { ids: "", coincidencias: 0, exacto: true, sumas: null };
    if (r.ids !== null)
      return {
        query: {
          ...query,
          search: undefined,
          filters: [...(query.filters ?? []), { column: "id", op: "in", value: new IdsText(r.ids) }],
        },
      };
    found = { total: Number(r.coincidencias), estimated: !r.exacto, sums: r.sumas ?? {} };
    if (keptAs) keep(keptAs.db, key!, found);
  }
  return { query: { ...query, search: { ...query.search!, fn: undefined } }, found };
}

type Aggregate = { estimated: boolean; total: number; sums: Record<string, string> };

/** Ids (uuids) as one comma-separated text, for an `in` filter. */
class IdsText {
  constructor(readonly text: string) {}
}

/** Columns of each table, read once per process (for `ListQuery.base`). */
const baseColumns = new Map<string, Promise<Set<string>>>();

/** Whether every column the query filters, searches or sorts by is a column of `query.base`. */
async function inBase(trx: Transaction<any>, query: ListQuery): Promise<boolean> {
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

/**
 * The last sort key, for a stable order: `id`, in the direction of the first key, so one index
 * on (column, id) serves both directions (backwards for descending).
 */
function tieBreak(query: ListQuery): "asc" | "desc" {
  return query.order?.[0]?.ascending === false ? "desc" : "asc";
}

/**
 * A page's LIMIT written into the statement, not passed as a parameter: a prepared statement's
 * generic plan then knows how few rows are wanted (with `LIMIT $1` the planner assumes a tenth of
 * the table and may sort everything), so PostgreSQL can keep the plan instead of planning the
 * gastos_vista query again on every request. OFFSET stays a parameter (a generic plan with it
 * still walks the sort index), so each page does not become a statement of its own: a kept
 * gastos_vista plan takes ~260 KB of the connection's memory.
 */
function literal(n: number) {
  return Number.isSafeInteger(n) && n >= 0 ? sql.lit(n) : n;
}

/** Rows per FETCH of `stream`. */
const STREAM_PAGE = 2000;

function columns(values: Row): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[identifier(key)] = value;
  return out;
}

function applyWhere<Q extends { where: (...args: any[]) => Q }>(query: Q, list: ListQuery): Q {
  let q = query;
  for (const filter of list.filters ?? []) q = applyFilter(q, filter);
  const term = list.search?.term.trim();
  if (term && (list.search?.columns.length || list.search?.refs?.length)) {
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = (c: string) => sql`${sql.ref(identifier(c))}::text ilike ${pattern}`;
    // A related table's matches as an array (an init plan run once), so `= any(...)` can use the
    // foreign key's index inside the OR (a plain IN (subquery) there would be checked row by row).
    const refs = (list.search!.refs ?? []).map(
      (r) =>
        sql`${sql.ref(identifier(r.column))} = any(array(select x.id from ${sql.table(identifier(r.table))} x where ${sql.join(
          r.columns.map((c) => sql`x.${sql.ref(identifier(c))}::text ilike ${pattern}`),
          sql` or `,
        )}))`,
    );
    q = q.where(sql<boolean>`(${sql.join([...list.search!.columns.map(like), ...refs], sql` or `)})`);
  }
  return q;
}

function applyFilter<Q extends { where: (...args: any[]) => Q }>(q: Q, { column, op, value }: Filter): Q {
  const col = identifier(column);
  switch (op) {
    case "eq":
      return q.where(col, "=", value);
    case "neq":
      return q.where(col, "<>", value);
    case "gt":
      return q.where(col, ">", value);
    case "gte":
      return q.where(col, ">=", value);
    case "lt":
      return q.where(col, "<", value);
    case "lte":
      return q.where(col, "<=", value);
    case "in":
      if (value instanceof IdsText)
        return value.text
          ? q.where(sql<boolean>`${sql.ref(col)} = any(string_to_array(${value.text}, ',')::uuid[])`)
          : q.where(sql`false`);
      // One array parameter, however many values.
      return (value as unknown[]).length ? q.where(sql<boolean>`${sql.ref(col)} = any(${value})`) : q.where(sql`false`);
    case "is_null":
      return q.where(col, "is", null);
    case "not_null":
      return q.where(col, "is not", null);
    case "ilike":
      return q.where(sql`${sql.ref(col)}::text`, "ilike", `%${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
}
