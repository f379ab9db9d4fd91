import type { Kysely, RawBuilder } from "kysely";
import type { Database } from "./database";

/**
 * Deletes the expired rows of a table of shared state (double-submit tokens, failed sign-ins,
 * rate limits) at most once a minute per process, in whichever request comes by: no timer to
 * stop at shutdown, and a request pays it rarely.
 */
export function sweeper(db: Kysely<Database>, deleteExpired: RawBuilder<unknown>): () => Promise<void> {
  let sweptAt = 0;
  return async () => {
    if (Date.now() - sweptAt < 60_000) return;
    sweptAt = Date.now();
    await deleteExpired.execute(db);
  };
}
