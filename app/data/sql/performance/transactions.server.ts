import type { Kysely } from "kysely";
import type { Database } from "../../database";
import { anyTables, asUser, type AnyTrx, type AsUser } from "../connection.server";
import { kept, remembered } from "./kept.server";

/**
 * How the adapter's calls become transactions as the user: `run` one of its own (writes, `rpc`,
 * `stream`); `read` shared with the reads started together (`readBatcher`); `keptRead` answered
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
 * — share one transaction as the user instead of opening one each: one BEGIN, one set_config
 * and one COMMIT for all of them. Same role, same claims, so the same row-level security; each
 * read still runs its own statements. If any of them fails, that transaction is rolled back and
 * the reads that failed run again, each in its own transaction as before, so a failure (or a
 * read that failed only because another one aborted the shared transaction) ends exactly as it
 * did with one transaction per call; the reads that had succeeded keep their rows. Writes, `rpc`
 * (which may write) and `stream` keep a transaction of their own.
 */
function readBatcher(db: Kysely<Database>, userId: string) {
  type Task = { fn: AsUser<unknown>; resolve: (value: unknown) => void; reject: (error: unknown) => void };
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
  return <T>(fn: AsUser<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (!pending) {
        const batch: Task[] = (pending = []);
        setImmediate(() => {
          pending = null;
          void flush(batch);
        });
      }
      pending.push({ fn, resolve: (value) => resolve(value as T), reject });
    });
}
