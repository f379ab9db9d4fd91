import { json } from "@remix-run/node";
import { sql, type Kysely } from "kysely";
import type { Database } from "../data/database";
import { sweeper } from "../data/sweep.server";
import { minutos } from "./forms";

/**
 * Throttling (docs/producto.md «Cuentas»): protects accounts, never locks out an office.
 *
 * - Only FAILED sign-ins count, per account (the email typed, whether or not it exists: the same
 *   answer for both) and per address, with an address threshold an office behind one NAT never
 *   reaches honestly. A successful sign-in counts nowhere.
 * - Mails (sign-up, resend, reset) are limited per target inbox and purpose, and account creation
 *   per address: `take` counts them in fixed windows.
 *
 * The routes' actions call this, after the router decoded the path: `/%6Cogin` meets the same
 * limits as `/login`.
 */
export type Refusal = { scope: "cuenta" | "direccion"; retryAfter: number };

export type SignInThrottle = {
  /** The refusal in force for this account or address, or null. `retryAfter` in seconds. */
  lockedFor(email: string, ip: string): Promise<Refusal | null>;
  isLocked(email: string, ip: string): Promise<boolean>;
  recordFailure(email: string, ip: string): Promise<void>;
  /** A password reset unlocks the account. */
  clearFailures(email: string): Promise<void>;
  /** Counts one use of `key` in its window: null while within `limit`, else seconds to wait. */
  take(key: string, limit: number, windowMs: number): Promise<{ retryAfter: number } | null>;
};

export const WINDOW_MS = 15 * 60_000;
export const LIMITS = { cuenta: 5, direccion: 300 } as const;
/** Mails per inbox and purpose per hour; accounts created per address per hour. */
export const MAIL_LIMIT = { limit: 3, windowMs: 60 * 60_000 } as const;
export const SIGNUP_LIMIT = { limit: 20, windowMs: 60 * 60_000 } as const;
/**
 * Passwords chosen through a mailed link (reset, invitation) per address: a person uses one or two
 * links; an office behind one NAT, a handful an hour.
 */
export const LINK_LIMIT = { limit: 30, windowMs: 15 * 60_000 } as const;

const normal = (email: string) => email.trim().toLowerCase();
const accountKey = (email: string) => `cuenta:${normal(email)}`;
const keys = (email: string, ip: string) => [
  { key: accountKey(email), limit: LIMITS.cuenta, scope: "cuenta" as const },
  { key: `ip:${ip}`, limit: LIMITS.direccion, scope: "direccion" as const },
];
type MailPurpose = "confirmacion" | "recuperar" | "invitacion";
export const mailKey = (purpose: MailPurpose, email: string) => `correo:${purpose}:${normal(email)}`;
export const signUpKey = (ip: string) => `altas:${ip}`;
export const linkKey = (ip: string) => `enlaces:${ip}`;

/**
 * Counts one mail to `email` for `purpose` whether or not an account is there (so the refusal
 * reveals nothing either): null while within MAIL_LIMIT, else the wait and what to tell.
 */
export async function mailRefusal(
  throttle: SignInThrottle,
  purpose: MailPurpose,
  email: string,
): Promise<{ retryAfter: number; message: string } | null> {
  const refused = await throttle.take(mailKey(purpose, email), MAIL_LIMIT.limit, MAIL_LIMIT.windowMs);
  return (
    refused && {
      retryAfter: refused.retryAfter,
      message: `Ha pedido demasiados correos para esta dirección: no hemos enviado otro. Espere ${minutos(refused.retryAfter)} o use el enlace del último correo que recibió (mire también en el correo no deseado).`,
    }
  );
}

/** The page again with status 429 and `Retry-After` (forms.ts retryAfterHeaders carries it). */
export const tooMany = <T>(retryAfter: number, body: T) =>
  json(body, { status: 429, headers: { "Retry-After": String(retryAfter) } });

/** In the process's memory: for a backend served by one process (Supabase). */
export function memoryThrottle(clock = () => Date.now()): SignInThrottle {
  const failures = new Map<string, number[]>();
  const counters = new Map<string, { hits: number; resetAt: number }>();
  const recent = (key: string, now: number) => {
    const list = (failures.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };
  const throttle: SignInThrottle = {
    async lockedFor(email, ip) {
      const now = clock();
      for (const { key, limit, scope } of keys(email, ip)) {
        const list = recent(key, now);
        // The lock lasts until the limit-th most recent failure leaves the window.
        if (list.length >= limit)
          return { scope, retryAfter: Math.max(1, Math.ceil((list[list.length - limit]! + WINDOW_MS - now) / 1000)) };
      }
      return null;
    },
    async isLocked(email, ip) {
      return (await throttle.lockedFor(email, ip)) !== null;
    },
    async recordFailure(email, ip) {
      const now = clock();
      for (const { key } of keys(email, ip)) failures.set(key, [...recent(key, now), now]);
    },
    async clearFailures(email) {
      failures.delete(accountKey(email));
    },
    async take(key, limit, windowMs) {
      const now = clock();
      for (const [k, v] of counters) if (v.resetAt <= now) counters.delete(k);
      const counter = counters.get(key) ?? { hits: 0, resetAt: now + windowMs };
      counter.hits += 1;
      counters.set(key, counter);
      return counter.hits > limit ? { retryAfter: Math.max(1, Math.ceil((counter.resetAt - now) / 1000)) } : null;
    },
  };
  return throttle;
}

/**
 * In the database, shared by every process of the server: failures in
 * `auth.local_sign_in_failures`, counters in `auth.local_rate_limits`.
 */
export function sqlThrottle(db: Kysely<Database>): SignInThrottle {
  const window = sql`now() - make_interval(secs => ${WINDOW_MS / 1000})`;
  const sweep = sweeper(db, sql`delete from auth.local_sign_in_failures where at <= ${window}`);
  const sweepCounters = sweeper(db, sql`delete from auth.local_rate_limits where reset_at < now()`);
  const throttle: SignInThrottle = {
    async lockedFor(email, ip) {
      for (const { key, limit, scope } of keys(email, ip)) {
        // The limit-th most recent failure in the window: the lock ends when it leaves it.
        const { rows } = await sql<{ wait: number }>`
          select ceil(extract(epoch from (at + make_interval(secs => ${WINDOW_MS / 1000}) - now())))::int as wait
          from auth.local_sign_in_failures
          where key = ${key} and at > ${window}
          order by at desc offset ${limit - 1} limit 1`.execute(db);
        if (rows[0]) return { scope, retryAfter: Math.max(1, rows[0].wait) };
      }
      return null;
    },
    async isLocked(email, ip) {
      return (await throttle.lockedFor(email, ip)) !== null;
    },
    async recordFailure(email, ip) {
      await sweep();
      const [account, address] = keys(email, ip);
      await sql`insert into auth.local_sign_in_failures (key) values (${account!.key}), (${address!.key})`.execute(db);
    },
    async clearFailures(email) {
      await sql`delete from auth.local_sign_in_failures where key = ${accountKey(email)}`.execute(db);
    },
    async take(key, limit, windowMs) {
      await sweepCounters();
      const { rows } = await sql<{ hits: number; wait: number }>`
        insert into auth.local_rate_limits as r (key, hits, reset_at)
        values (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}))
        on conflict (key) do update set
          hits = case when r.reset_at <= now() then 1 else r.hits + 1 end,
          reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
        returning hits, ceil(extract(epoch from (reset_at - now())))::int as wait`.execute(db);
      const row = rows[0]!;
      return row.hits > limit ? { retryAfter: Math.max(1, row.wait) } : null;
    },
  };
  return throttle;
}
