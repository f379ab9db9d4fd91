import { sql, type Kysely } from "kysely";
import type pg from "pg";
import type { Database } from "~/data/database";

/**
 * Uploads and the sweep, kept apart per content (ADR 0018, SQL backend). An upload stores bytes
 * and then records the row that names them; the sweep removes bytes no row names. Without a lock
 * the sweep could judge a content unused, the upload store it again and record its row, and the
 * sweep then remove it: a row naming bytes that are gone. So both hold a PostgreSQL advisory lock
 * on the content's hash: the upload a shared one while it checks its bytes are there and records
 * its row, the sweep an exclusive one while it checks no row names them and removes them. The
 * locks are transaction-level, so a process that dies releases them with its connection.
 */

/** Runs `fn` with these contents reserved; rows recorded inside are safe from the sweep. */
export type Reservar = <T>(hashes: string[], fn: () => Promise<T>) => Promise<T>;

// The two-integer key space: apart from the one-bigint locks of migrations and the seed. The
// hash is already uniform: its first 32 bits are the key (two contents that share them only wait
// for each other).
const CLASE = 0x4f46_4a55;
const clave = (sha256: string) => {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error("hash no válido");
  return Number.parseInt(sha256.slice(0, 8), 16) | 0;
};

/**
 * The uploads' side: a transaction of the owner's pool holds shared locks (uploads of the same
 * content do not wait for each other) while `fn` runs; it waits while a sweep holds one of them.
 */
export function reservarEn(db: Kysely<Database>): Reservar {
  return (hashes, fn) =>
    db.transaction().execute(async (trx) => {
      // In one order, so that two uploads never wait on each other's half.
      for (const k of [...new Set(hashes.map(clave))].sort((a, b) => a - b))
        await sql`select pg_advisory_xact_lock_shared(${CLASE}, ${k})`.execute(trx);
      return fn();
    });
}

/**
 * The sweep's side, on its own connection: runs `quitar` holding the content's exclusive lock,
 * or returns false at once if an upload holds it (that upload is about to record its row).
 */
export async function siNadieLoReserva(
  client: pg.ClientBase,
  sha256: string,
  quitar: () => Promise<boolean>,
): Promise<boolean> {
  await client.query("begin");
  try {
    const { rows } = await client.query<{ libre: boolean }>("select pg_try_advisory_xact_lock($1, $2) as libre", [
      CLASE,
      clave(sha256),
    ]);
    const quitado = rows[0]!.libre ? await quitar() : false;
    await client.query("commit");
    return quitado;
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  }
}
