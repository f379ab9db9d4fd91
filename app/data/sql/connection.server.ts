import { Kysely, PostgresDialect, type CompiledQuery, type PostgresPool, type Transaction } from "kysely";
import pg from "pg";
import type { Database } from "../database";
import { storeErrorFromPostgres } from "../store";
import { inTurn, preparingClient, preparingPool, query } from "./statements.server";

// Dates, timestamps and numerics stay strings: no time-zone shifts, no floats for money.
// (scripts/db-types.ts generates app/data/database.ts with the same types.)
for (const oid of [1082, 1114, 1184, 1700]) pg.types.setTypeParser(oid, (v: string) => v);
pg.types.setTypeParser(20, (v: string) => Number(v));

/** Each database's pool of connections that act as users (`asUser`, `readAsUser`). */
const userPools = new WeakMap<Kysely<Database>, pg.Pool>();

function newPool(url: string, max: number) {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 });
  // An idle client's error (database restarted) must not crash the process; the pool drops it.
  pool.on("error", () => {});
  // Nor may a checked-out client's: pg-pool removes its listener while a request holds the client,
  // and a connection ended by the server between two statements of a transaction ("terminating
  // connection due to administrator command") was an unhandled 'error' event that killed the
  // process. The request in flight fails with its error; the broken client is dropped on release.
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

/**
 * Two pools, so that no connection ever changes hands between a user and the owner: up to `max`
 * connections that act as users, and half as many for the owner's own statements (Kysely's: the
 * session check, sign-in, sweeps: short, one at a time), which never take a role. A connection
 * opens when a pool needs it; a hosted database's limit must allow 1.5 × `max` per process.
 */
export function createDatabase(url: string, max = 10): Kysely<Database> {
  const owner = newPool(url, Math.ceil(max / 2));
  const users = newPool(url, max);
  const db = new PooledDatabase(preparingPool(owner), users);
  userPools.set(db, users);
  return db;
}

/**
 * Kysely ends its pool only if it used it itself, and the users' pool is not Kysely's: `destroy`
 * ends both in any case.
 */
class PooledDatabase extends Kysely<Database> {
  constructor(
    private readonly owner: PostgresPool,
    private readonly users: pg.Pool,
  ) {
    super({ dialect: new PostgresDialect({ pool: owner }) });
  }

  override async destroy() {
    await super.destroy();
    await Promise.all([this.owner.end(), this.users.end()]);
  }
}

// ---------------------------------------------------------------------------------------------
// A pooled connection as a user
// ---------------------------------------------------------------------------------------------
//
// A connection becomes a user the way PostgREST does it: role `authenticated` and the JWT claims
// in `request.jwt.claims`, so the schema's row-level security applies to the embedded backend
// exactly as on Supabase. Either for one transaction (`asUser`: COMMIT or ROLLBACK ends it), or
// for the connection (`readAsUser`: reads without a transaction). This is the only place that
// gives a connection a role, and only to connections of the users' pool: each is made the user
// who takes it, role and claims in one statement, before anything else runs on it — whoever had
// it before and however that ended. So it goes back to its pool as it is, and the owner's
// connections never were anyone.

/**
 * What runs inside `asUser` or `readAsUser`: the connection (a Kysely bound to it) and the data's
 * change counter as it began.
 */
export type AsUser<T> = (trx: Transaction<Database>, cambios: string) => Promise<T>;

/** The JWT claims PostgREST would set for this user (auth.uid() reads `sub`). */
function claimsOf(userId: string) {
  return JSON.stringify({ sub: userId, role: "authenticated", aud: "authenticated" });
}

/** Role `authenticated` and the user's claims for the connection, with the data's change counter (migration 20261125000007_escala). */
const BECOME_USER = `select set_config('role', 'authenticated', false), set_config('request.jwt.claims', $1, false), interno.cambios()::text as cambios`;

/** A Kysely over this one connection (made once per connection): what `fn` gets. */
const bound = new WeakMap<pg.PoolClient, Kysely<Database>>();
/** The connection under each of those, for `unprepared`. */
const connectionOf = new WeakMap<object, pg.PoolClient>();

function boundTo(client: pg.PoolClient): Transaction<Database> {
  let db = bound.get(client);
  if (!db) {
    // Released by asUser or readAsUser, not by Kysely.
    const one = preparingClient(client, () => {});
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: { connect: () => Promise.resolve(one), end: () => Promise.resolve() } }),
    });
    bound.set(client, db);
    connectionOf.set(db, client);
  }
  // A connection inside BEGIN … COMMIT is what Kysely's Transaction is; only nesting differs, and nothing here nests.
  return db as unknown as Transaction<Database>;
}

function checkout(db: Kysely<Database>) {
  const pool = userPools.get(db);
  if (!pool) throw new Error("Base de datos no creada con createDatabase");
  return pool.connect();
}

/**
 * A statement sent unnamed inside `asUser` or `readAsUser`: PostgreSQL plans it with its values
 * every time, instead of keeping a generic plan (performance/prepared.server.ts `withValues`).
 */
export async function unprepared<R>(trx: object, compiled: CompiledQuery): Promise<{ rows: R[] }> {
  const client = connectionOf.get(trx);
  if (!client) throw new Error("unprepared: solo dentro de asUser o readAsUser");
  return inTurn(client, () => client.query<R & pg.QueryResultRow>(compiled.sql, [...compiled.parameters]));
}

/**
 * Runs `fn` in one transaction as the given user. BEGIN travels with the role's `set_config`
 * in one message (simple protocol, the claims as a literal): a round trip costs this server more
 * than the statement (ADR 0008). Commit when `fn` succeeds, roll back when anything fails; a
 * connection that cannot even roll back is destroyed.
 */
export async function asUser<T>(db: Kysely<Database>, userId: string, fn: AsUser<T>): Promise<T> {
  let broken: Error | undefined;
  let client: pg.PoolClient | undefined;
  try {
    client = await checkout(db);
    const results: unknown = await client.query(
      `begin; select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${pg.escapeLiteral(claimsOf(userId))}, true), interno.cambios()::text as cambios`,
    );
    const began = (Array.isArray(results) ? results.at(-1) : results) as pg.QueryResult<{ cambios: string }>;
    const result = await fn(boundTo(client), began.rows[0]!.cambios);
    // In turn, as every statement on the connection: after whatever `fn` left running.
    const c = client;
    await inTurn(c, () => c.query("commit"));
    return result;
  } catch (error) {
    const c = client;
    await (c ? inTurn(c, () => c.query("rollback")) : Promise.resolve()).catch((e: Error) => (broken = e));
    throw storeErrorFromPostgres(error as pg.DatabaseError) ?? error;
  } finally {
    client?.release(broken);
  }
}

/**
 * Runs the reads of `fn` as the given user without a transaction (ADR 0008, «Reads without a
 * transaction»): one statement gives the connection role `authenticated` and the user's claims —
 * for the connection, not a transaction — and reads the change counter; then the reads. No BEGIN,
 * no COMMIT: under READ COMMITTED each statement saw its own snapshot inside one anyway, so the
 * answers are the same. Row-level security applies exactly as in `asUser`; the next user who
 * takes the connection is made that user first. Only for reads: whatever may write goes through
 * `asUser`.
 */
export async function readAsUser<T>(db: Kysely<Database>, userId: string, fn: AsUser<T>): Promise<T> {
  let client: pg.PoolClient | undefined;
  try {
    client = await checkout(db);
    const { rows } = await query<{ cambios: string }>(client, BECOME_USER, [claimsOf(userId)]);
    return await fn(boundTo(client), rows[0]!.cambios);
  } catch (error) {
    throw storeErrorFromPostgres(error as pg.DatabaseError) ?? error;
  } finally {
    client?.release();
  }
}

/**
 * The store port names tables, views and columns at run time (entity declarations, each name
 * checked by `identifier`), so the adapter's queries cannot be typed against the generated
 * schema: it sees the database as tables of unknown columns, through `anyTables`, and only there
 * (and in tests that walk every entity).
 */
export type AnyTables = Record<string, Record<string, unknown>>;
export type AnyTrx = Transaction<AnyTables>;
export function anyTables(db: Transaction<Database>): AnyTrx;
export function anyTables(db: Kysely<Database>): Kysely<AnyTables>;
export function anyTables(db: Kysely<Database>): Kysely<AnyTables> {
  return db as unknown as Kysely<AnyTables>;
}
