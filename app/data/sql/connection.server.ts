import { CompiledQuery, Kysely, PostgresDialect, sql, type Transaction } from "kysely";
import pg from "pg";
import type { Database } from "../database";
import { storeErrorFromPostgres } from "../store";
import { AS_USER, IN_ONE_TRIP, PreparingClient, ROLE_FOR_READS, WithRole } from "./performance/prepared.server";

// Dates, timestamps and numerics stay strings: no time-zone shifts, no floats for money.
// (scripts/db-types.ts generates app/data/database.ts with the same types.)
for (const oid of [1082, 1114, 1184, 1700]) pg.types.setTypeParser(oid, (v: string) => v);
pg.types.setTypeParser(20, (v: string) => Number(v));

export function createDatabase(url: string, max = 10): Kysely<Database> {
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
  // Whoever takes the client next must not inherit a read's user (PreparingClient).
  pool.on("release", (_error, client) => (client as unknown as PreparingClient).devolver());
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * What runs inside `asUser` or `readAsUser`: the connection, the data's change counter as it
 * began, and (`readAsUser`) the rows of the read sent with the role, if it was.
 */
export type AsUser<T> = (trx: Transaction<Database>, cambios: string, firstRows?: unknown[]) => Promise<T>;

/** The JWT claims PostgREST would set for this user (auth.uid() reads `sub`). */
function claimsOf(userId: string) {
  return JSON.stringify({ sub: userId, role: "authenticated", aud: "authenticated" });
}

/**
 * Runs `fn` in one transaction as the given user, the way PostgREST does it: role
 * `authenticated` and the JWT claims in `request.jwt.claims`, so the schema's row-level
 * security applies to the embedded backend exactly as on Supabase.
 *
 * BEGIN travels with the role's `set_config` in one message (the claims as a literal, so the
 * two statements can share the simple protocol): a round trip costs this server more than the
 * statement (ADR 0008). Commit and rollback are Kysely's own rules: commit when `fn` succeeds,
 * roll back when anything fails.
 */
export async function asUser<T>(db: Kysely<Database>, userId: string, fn: AsUser<T>): Promise<T> {
  const claims = claimsOf(userId);
  // With the role, the data's change counter (migration 20261125000007_escala), read before anything is counted.
  const begin = sql.raw<{ cambios: string }>(
    `${IN_ONE_TRIP}${AS_USER}begin; select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${pg.escapeLiteral(claims)}, true), interno.cambios()::text as cambios`,
  );
  try {
    return await db.connection().execute(async (conn) => {
      try {
        const { rows } = await begin.execute(conn);
        // A connection inside BEGIN … COMMIT is what Kysely's Transaction is; only nesting differs, and nothing here nests.
        const result = await fn(conn as unknown as Transaction<Database>, rows[0]!.cambios);
        await sql`commit`.execute(conn);
        return result;
      } catch (error) {
        await sql`rollback`.execute(conn).catch(() => {});
        throw error;
      }
    });
  } catch (error) {
    throw storeErrorFromPostgres(error as pg.DatabaseError) ?? error;
  }
}

/**
 * Runs the reads of `fn` as the given user without a transaction (ADR 0008, «Statements and round
 * trips»): one message gives the connection role `authenticated` and the user's claims —
 * for the connection, not a transaction — and reads the change counter; then the reads. No BEGIN,
 * no COMMIT: under READ COMMITTED each statement saw its own snapshot inside one anyway, so the
 * answers are the same, two round trips fewer. Row-level security applies exactly as in
 * `asUser`; the connection forgets the user before anyone else's statement (PreparingClient).
 * Only for reads: whatever may write goes through `asUser`.
 *
 * `first`, a read that does not depend on the change counter (a list's page), travels in the
 * role's message and `fn` gets its rows. If that message fails, nothing in it ran as
 * anyone: the role goes alone and `fn` reads everything itself, so a failing read fails by itself.
 */
export async function readAsUser<T>(
  db: Kysely<Database>,
  userId: string,
  fn: AsUser<T>,
  first?: CompiledQuery,
): Promise<T> {
  const claims = claimsOf(userId);
  try {
    return await db.connection().execute(async (conn) => {
      const trx = conn as unknown as Transaction<Database>;
      if (first) {
        const role = new WithRole(claims);
        const read = await conn
          .executeQuery(CompiledQuery.raw(first.sql, [role, ...first.parameters]))
          .catch(() => null);
        if (read) return fn(trx, role.cambios!, read.rows);
      }
      const { rows } = await conn.executeQuery<{ cambios: string }>(CompiledQuery.raw(ROLE_FOR_READS, [claims]));
      return fn(trx, rows[0]!.cambios);
    });
  } catch (error) {
    throw storeErrorFromPostgres(error as pg.DatabaseError) ?? error;
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
