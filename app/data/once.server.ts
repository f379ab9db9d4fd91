import { sql, type Kysely } from "kysely";
import type { Database } from "./database";
import { sweeper } from "./sweep.server";

/**
 * Double-submit guard for create forms: each rendered form carries a random `_envio` token, and
 * a second POST of the same user with a token already used (double click without JavaScript, a
 * retried request) gets the first one's redirect instead of creating a second record. A token
 * only matters for a few minutes. Only a success (a redirect) is remembered: a refused
 * submission may be corrected and sent again.
 */
export type Once = (scope: string, token: unknown, run: () => Promise<Response>) => Promise<Response>;

const TTL_MS = 10 * 60_000;
const isToken = (token: unknown): token is string => typeof token === "string" && /^[0-9a-f-]{36}$/.test(token);
const remembered = (response: Response) => response.status >= 300 && response.status < 400;

/** In the process's memory: for a backend served by one process (Supabase). */
export function memoryOnce(): Once {
  const done = new Map<string, { at: number; result: Promise<Response> }>();
  return async (scope, token, run) => {
    if (!isToken(token)) return run();
    const key = `${scope}:${token}`;
    const now = Date.now();
    for (const [k, entry] of done) if (now - entry.at > TTL_MS) done.delete(k);
    const previous = done.get(key);
    if (previous) return (await previous.result).clone();
    const result = run();
    done.set(key, { at: now, result });
    const response = await result.catch((error) => {
      done.delete(key);
      throw error;
    });
    if (!remembered(response)) done.delete(key);
    return response.clone();
  };
}

/** How long a duplicate waits for the first submission before taking over (its server died). */
const ABANDONED_MS = 30_000;
const POLL_MS = 50;

/**
 * In the database (`auth.local_submissions`), shared by every process of the server: the first
 * submission claims the token with an insert, a duplicate waits for its answer and replays it.
 */
export function sqlOnce(db: Kysely<Database>): Once {
  const sweep = sweeper(
    db,
    sql`delete from auth.local_submissions where created_at < now() - make_interval(secs => ${TTL_MS / 1000})`,
  );
  return async (scope, token, run) => {
    if (!isToken(token)) return run();
    const key = `${scope}:${token}`;
    await sweep();
    for (;;) {
      const claim =
        await sql`insert into auth.local_submissions (key) values (${key}) on conflict (key) do nothing returning key`.execute(
          db,
        );
      if (claim.rows.length) break;
      const { rows } = await sql<{
        status: number | null;
        location: string | null;
        set_cookie: string[] | null;
        age_ms: number;
      }>`
        select status, location, set_cookie, extract(epoch from now() - created_at) * 1000 as age_ms
        from auth.local_submissions where key = ${key}`.execute(db);
      const first = rows[0];
      if (first?.status) {
        const headers = new Headers(first.location ? { Location: first.location } : {});
        for (const cookie of first.set_cookie ?? []) headers.append("Set-Cookie", cookie);
        return new Response(null, { status: first.status, headers });
      }
      if (first && first.age_ms > ABANDONED_MS)
        await sql`delete from auth.local_submissions where key = ${key} and status is null`.execute(db);
      else if (first) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      // No row: the first one was refused or failed and let go; this one claims it now.
    }
    let response: Response;
    try {
      response = await run();
    } catch (error) {
      await sql`delete from auth.local_submissions where key = ${key}`.execute(db).catch(() => {});
      throw error;
    }
    if (remembered(response))
      await sql`update auth.local_submissions
        set status = ${response.status}, location = ${response.headers.get("Location")}, set_cookie = ${response.headers.getSetCookie()}
        where key = ${key}`.execute(db);
    else await sql`delete from auth.local_submissions where key = ${key}`.execute(db);
    return response;
  };
}
