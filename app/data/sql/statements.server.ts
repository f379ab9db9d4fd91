import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import { createHash } from "node:crypto";
import type pg from "pg";

/** Not prepared: transaction control and the cursor and EXPLAIN statements. */
const UTILITY = /^\s*(begin|commit|rollback|start|savepoint|release|declare|fetch|close|explain)\b/i;

/** Without parameters only a single SELECT is prepared (others keep pg's simple protocol: several statements, VACUUM…). */
const SINGLE_SELECT = /^\s*(select|with)\b[^;]*$/i;

/** Statements each connection keeps prepared, at most (then further ones run unnamed): each kept plan holds memory (ADR 0008). */
const MAX_PREPARED = 100;

/** The names each connection has prepared (pg parses a named statement once per connection). */
const preparedOn = new WeakMap<pg.ClientBase, Set<string>>();

/**
 * Runs a statement on `client` as a named (prepared) one where it can, as PostgREST does: each
 * connection parses a statement's text once and PostgreSQL may keep its plan. The gastos_vista
 * queries (six joins, row-level security on every table) cost more to plan than to run. Names
 * are a hash of the text, so a name always means the same statement. Plans still follow the role
 * and the claims of each transaction: PostgreSQL replans a cached plan when the role it was made
 * for changes. pg's named statements (`{ name, text, values }`), nothing else.
 */
export function query<R extends pg.QueryResultRow>(
  client: pg.ClientBase,
  text: string,
  values: readonly unknown[],
): Promise<pg.QueryResult<R>> {
  return inTurn(client, () => {
    const name = preparedName(client, text, values);
    return name ? client.query<R>({ name, text, values: [...values] }) : client.query<R>(text, [...values]);
  });
}

/** Per connection: the last statement sent, and how many sent have not finished. */
const turns = new WeakMap<pg.ClientBase, { last: Promise<unknown>; pending: number }>();

/**
 * Sends `send`'s statement at once on an idle connection, else once the statements before it
 * have finished. Reads started together share a connection (performance/transactions.server.ts)
 * and each may run several statements; pg's own queue for a query sent while another runs is
 * deprecated (gone in pg 9), so the turns are kept here, in the order they were asked for.
 */
export function inTurn<T>(client: pg.ClientBase, send: () => Promise<T>): Promise<T> {
  let turn = turns.get(client);
  if (!turn) turns.set(client, (turn = { last: Promise.resolve(), pending: 0 }));
  const next = turn.pending === 0 ? send() : turn.last.then(send, send);
  turn.pending += 1;
  const t = turn;
  // Counted down before anyone awaiting `next` resumes (this handler is registered first), so a
  // statement sent right after (a transaction's COMMIT) goes at once.
  t.last = next.then(
    () => void (t.pending -= 1),
    () => void (t.pending -= 1),
  );
  return next;
}

/**
 * The name a statement runs under, prepared (a single SELECT without values, or any statement
 * with values, but transaction control), or null: pg's simple protocol or an unnamed statement.
 */
function preparedName(client: pg.ClientBase, text: string, values: readonly unknown[]) {
  if (UTILITY.test(text) || !(values.length > 0 || SINGLE_SELECT.test(text))) return null;
  let names = preparedOn.get(client);
  if (!names) preparedOn.set(client, (names = new Set()));
  const name = `o_${createHash("sha1").update(text).digest("base64url")}`;
  if (!names.has(name)) {
    if (names.size >= MAX_PREPARED) return null;
    names.add(name);
  }
  return name;
}

/** One connection as Kysely's PostgresDialect wants it, every statement through `query` (no cursors). */
export function preparingClient(client: pg.ClientBase, release: () => void): PostgresPoolClient {
  function run<R>(text: string, values: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  function run<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function run(
    text: string | PostgresCursor<unknown>,
    values: readonly unknown[] = [],
  ): Promise<PostgresQueryResult<unknown>> | PostgresCursor<unknown> {
    if (typeof text !== "string") throw new Error("Sin cursores: el adaptador usa DECLARE y FETCH");
    // pg's `command` is any string; Kysely's type names the ones it reads.
    return query(client, text, values) as Promise<PostgresQueryResult<unknown>>;
  }
  return { query: run, release };
}

/**
 * pg's pool for Kysely's PostgresDialect, with the connections' statements prepared
 * (`preparingClient`). Ending it twice ends the pool once.
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  let ended: Promise<void> | undefined;
  return {
    async connect() {
      const client = await pool.connect();
      // Kysely knows a connection by the object it gets: the same one each time for a pg client.
      let wrapped = clients.get(client);
      if (!wrapped) clients.set(client, (wrapped = preparingClient(client, () => client.release())));
      return wrapped;
    },
    end: () => (ended ??= pool.end()),
  };
}
