import type { Kysely } from "kysely";
import type pg from "pg";
import { storeErrorFromPostgres } from "../../store";
import type { Database } from "../../database";
import { anyTables, asUser, readAsUser, type AnyTrx, type AsUser } from "../connection.server";
import { kept, remembered } from "./kept.server";

/**
 * How the adapter's calls reach the database as the user: `run` in a transaction of its own
 * (writes, `rpc`, `stream`); `read` on one connection shared with the reads started together
 * (`readBatcher`, no transaction); `keptRead` answered
 * from the kept results (kept.server.ts) while nothing has changed. For one store, that is one
 * request.
 */
export function transactions(db: Kysely<Database>, userId: string) {
  // The change counter this store's last read saw. A `keep` read that comes after it needs no
  // transaction of its own when its result is kept for that value: the page is read as of one
  // moment anyway. A write through this store forgets it.
  let seen: string | undefined;
  const batched = readBatcher(db, userId);
  const read = <T>(fn: (trx: AnyTrx, cambios: string) => Promise<T>) =>
    batched((trx, cambios) => {
      seen = cambios;
      return fn(anyTables(trx), cambios);
    });
  return {
    run: async <T>(fn: (trx: AnyTrx) => Promise<T>): Promise<T> => {
      try {
        return await asUser(db, userId, (trx) => fn(anyTables(trx)));
      } finally {
        seen = undefined;
      }
    },
    read,
    /**
     * A read whose result is kept per change counter value (`keep`): after this request's first
     * read, a kept result for the value it saw needs no transaction at all.
     */
    keptRead: <T>(key: unknown[], fn: (trx: AnyTrx, cambios: string) => Promise<T>): Promise<T> => {
      const hit = seen === undefined ? undefined : kept<T>(db, [seen, userId, ...key]);
      if (hit) return Promise.resolve(hit.value);
      return read((trx, cambios) => remembered(db, [cambios, userId, ...key], () => fn(trx, cambios)));
    },
  };
}

/**
 * Reads (`list`, `get`) started in the same turn of the event loop — a loader's `Promise.all`
 * — share one connection as the user (`readAsUser`: one statement for the role, the claims and
 * the change counter, no transaction) instead of taking one each. Same role, same claims, so the same
 * row-level security; each read still runs its own statements, and each ends with its own answer
 * or error (without a transaction, one read's failure cannot abort the others). Writes, `rpc`
 * (which may write) and `stream` keep a transaction of their own (`asUser`).
 */
function readBatcher(db: Kysely<Database>, userId: string) {
  type Task = {
    fn: AsUser<unknown>;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  };
  let pending: Task[] | null = null;
  function flush(tasks: Task[]) {
    readAsUser(db, userId, (trx, cambios) =>
      // Each read's own error is the store's, as out of `asUser` (a function's Spanish refusal).
      Promise.all(
        tasks.map((t) =>
          t
            .fn(trx, cambios)
            .then(t.resolve, (error: unknown) => t.reject(storeErrorFromPostgres(error as pg.DatabaseError) ?? error)),
        ),
      ),
    ).catch((error) => tasks.forEach((t) => t.reject(error)));
  }
  return <T>(fn: AsUser<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (!pending) {
        const batch: Task[] = (pending = []);
        setImmediate(() => {
          pending = null;
          flush(batch);
        });
      }
      pending.push({ fn, resolve: (value) => resolve(value as T), reject });
    });
}
