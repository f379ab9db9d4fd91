import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import type { Database } from "../../database";

/**
 * Results already computed — counts and sums, `keep` lists and `rpc` calls, a search function's
 * answer — per database: valid while the change counter read at the start of the transaction
 * (interno.cambios(), advanced by every committed write to the tables lists depend on) has not
 * moved, so every key starts with it. Counting under row-level security reads up to 10 001 rows
 * per request (ADR 0006); a person paging, sorting or coming back to a list pays it once per
 * change. Keyed by the user too: row-level security makes the same filter count differently per
 * person. The least recently used entries go first.
 */
const RESULTS_KEPT = 2000;

// Boxed: lru-cache keeps no null or undefined, and a function may answer null.
const keptResults = new WeakMap<Kysely<Database>, LRUCache<string, { value: unknown }>>();

/** The value kept under `key`, if any (and it becomes the most recently used). */
export function kept<A>(db: Kysely<Database>, key: unknown[]): { value: A } | undefined {
  return keptResults.get(db)?.get(JSON.stringify(key)) as { value: A } | undefined;
}

export function keep<A>(db: Kysely<Database>, key: unknown[], value: A): A {
  let all = keptResults.get(db);
  if (!all) keptResults.set(db, (all = new LRUCache({ max: RESULTS_KEPT })));
  all.set(JSON.stringify(key), { value });
  return value;
}

export async function remembered<A>(db: Kysely<Database>, key: unknown[], compute: () => Promise<A>): Promise<A> {
  const hit = kept<A>(db, key);
  return hit ? hit.value : keep(db, key, await compute());
}
