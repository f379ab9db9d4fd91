import type { IncrementResponse, Options, Store } from "express-rate-limit";
import { sql, type Kysely } from "kysely";
import type { Database } from "./database";
import { sweeper } from "./sweep.server";

/**
 * express-rate-limit's counters in the database (`auth.local_rate_limits`), so every process of
 * the server (node:cluster) counts the same hits: in each process's memory, N processes would
 * let N times the limit through.
 */
export class SqlRateLimitStore implements Store {
  localKeys = false;
  private windowMs = 60_000;
  private readonly sweep: () => Promise<void>;

  constructor(
    private readonly db: Kysely<Database>,
    readonly prefix: string,
  ) {
    this.sweep = sweeper(db, sql`delete from auth.local_rate_limits where reset_at < now()`);
  }

  init(options: Options) {
    this.windowMs = options.windowMs;
  }

  async increment(key: string): Promise<IncrementResponse> {
    await this.sweep();
    const { rows } = await sql<{ hits: number; reset_ms: number }>`
      insert into auth.local_rate_limits as r (key, hits, reset_at)
      values (${this.prefix + key}, 1, now() + make_interval(secs => ${this.windowMs / 1000}))
      on conflict (key) do update set
        hits = case when r.reset_at <= now() then 1 else r.hits + 1 end,
        reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
      returning hits, extract(epoch from reset_at) * 1000 as reset_ms`.execute(this.db);
    return { totalHits: rows[0]!.hits, resetTime: new Date(Number(rows[0]!.reset_ms)) };
  }

  async decrement(key: string) {
    await sql`update auth.local_rate_limits set hits = greatest(hits - 1, 0) where key = ${this.prefix + key}`.execute(
      this.db,
    );
  }

  async resetKey(key: string) {
    await sql`delete from auth.local_rate_limits where key = ${this.prefix + key}`.execute(this.db);
  }
}
