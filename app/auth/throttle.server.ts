import { sql, type Kysely } from "kysely";
import { sweeper } from "../lib/sweep.server";

/**
 * Failed sign-ins counted per account (the email typed, whether or not it exists) and per
 * address. Past the limit every attempt is refused with the same answer for a while, so guessing
 * is slow and nothing tells a real account from an unknown one.
 */
export type SignInThrottle = {
  isLocked(email: string, ip: string): Promise<boolean>;
  recordFailure(email: string, ip: string): Promise<void>;
  clearFailures(email: string): Promise<void>;
};

const WINDOW_MS = 15 * 60_000;
const LIMITS = { cuenta: 5, ip: 30 } as const;
const accountKey = (email: string) => `cuenta:${email.trim().toLowerCase()}`;
const keys = (email: string, ip: string) => [
  { key: accountKey(email), limit: LIMITS.cuenta },
  { key: `ip:${ip}`, limit: LIMITS.ip },
];

/** In the process's memory: for a backend served by one process (Supabase). */
export function memoryThrottle(clock = () => Date.now()): SignInThrottle {
  const failures = new Map<string, number[]>();
  const recent = (key: string, now: number) => {
    const list = (failures.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };
  return {
    async isLocked(email, ip) {
      const now = clock();
      return keys(email, ip).some(({ key, limit }) => recent(key, now).length >= limit);
    },
    async recordFailure(email, ip) {
      const now = clock();
      for (const { key } of keys(email, ip)) failures.set(key, [...recent(key, now), now]);
    },
    async clearFailures(email) {
      failures.delete(accountKey(email));
    },
  };
}

/** In the database (`auth.local_sign_in_failures`), shared by every process of the server. */
export function sqlThrottle(db: Kysely<any>): SignInThrottle {
  const window = sql`now() - make_interval(secs => ${WINDOW_MS / 1000})`;
  const sweep = sweeper(db, sql`delete from auth.local_sign_in_failures where at <= ${window}`);
  return {
    async isLocked(email, ip) {
      const [account, address] = keys(email, ip);
      const { rows } = await sql<{ locked: boolean }>`
        select count(*) filter (where key = ${account!.key}) >= ${account!.limit}
            or count(*) filter (where key = ${address!.key}) >= ${address!.limit} as locked
        from auth.local_sign_in_failures
        where key in (${account!.key}, ${address!.key}) and at > ${window}`.execute(db);
      return rows[0]?.locked ?? false;
    },
    async recordFailure(email, ip) {
      await sweep();
      const [account, address] = keys(email, ip);
      await sql`insert into auth.local_sign_in_failures (key) values (${account!.key}), (${address!.key})`.execute(db);
    },
    async clearFailures(email) {
      await sql`delete from auth.local_sign_in_failures where key = ${accountKey(email)}`.execute(db);
    },
  };
}
