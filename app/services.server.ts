import path from "node:path";
import { sql, type Kysely } from "kysely";
import type { Database } from "./data/database";
import { localAuth } from "./auth/local.server";
import { createMailer } from "./auth/mail.server";
import type { AuthBackend, AuthSession } from "./auth/port";
import { sqlStore } from "./data/sql/adapter.server";
import { createDatabase } from "./data/sql/connection.server";
import type { Store } from "./data/store";
import { almacenLocal, type Almacen } from "./justificantes/almacen.server";
import { almacenS3 } from "./justificantes/almacen.s3.server";
import { reservarEn, type Reservar } from "./justificantes/reserva.server";
import type { Config } from "./lib/env.server";
import { createFlash, type FlashStore } from "./lib/flash.server";
import { sqlOnce, type Once } from "./data/once.server";
import { SqlRateLimitStore } from "./data/rate-limit.server";
import type { Store as RateLimitStore } from "express-rate-limit";
import { sqlThrottle, type SignInThrottle } from "./auth/throttle.server";
import { sqlInvitations, type Invitations } from "./auth/invitations.server";

/**
 * What a request needs from the outside world, built once at start-up from configuration and
 * handed to every loader and action as `context.services`.
 */
export type Services = {
  config: Config;
  auth: AuthBackend;
  flash: FlashStore;
  /** Double-submit guard of create forms (shared by every server process where it can be). */
  once: Once;
  /** Failed sign-ins per account and per address. */
  throttle: SignInThrottle;
  /** Where express-rate-limit counts when every server process must count together (else: in memory). */
  rateLimitStore?: (prefix: string) => RateLimitStore;
  /**
   * Invitations by an administrador (ADR 0013), acting as the signed-in administrador whose
   * store is given. Absent where the backend cannot create accounts (Supabase without the
   * service-role key): the screen explains that instead.
   */
  invitations?: (store: Store) => Invitations;
  /**
   * Where receipts' bytes live when not in DATA_DIR (Supabase Storage as the user of `store`, or
   * the object store ALMACEN_URL names).
   */
  almacenFor?: (store: Store) => Almacen;
  /**
   * Reserves receipts' contents against the sweep while an upload records their rows
   * (justificantes/reserva.server.ts). Absent on Supabase, whose sweep goes through Storage.
   */
  reservarContenido?: Reservar;
  /** The data, as seen by this signed-in user (row-level security applies). */
  storeFor(session: AuthSession): Store;
  /**
   * True while the installation has no account at all: then its first sign-up is let in even
   * where sign-up is by invitation (it becomes the administrador). Absent where the backend has
   * its own way (Supabase: an account created in the dashboard).
   */
  installationEmpty?(): Promise<boolean>;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

export function sqlServices(config: Config, databaseUrl: string): Services & { db: Kysely<Database> } {
  const db = createDatabase(databaseUrl);
  const auth = localAuth({
    db,
    mail: createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: path.join(config.DATA_DIR, "correo"),
    }),
    secrets: [config.SESSION_SECRET],
    secure: config.APP_URL.startsWith("https:"),
    appUrl: config.APP_URL,
  });
  // One client per process; uploads are staged in DATA_DIR/justificantes/tmp before they go up.
  const s3 = config.ALMACEN_S3
    ? almacenS3(config.ALMACEN_S3, { temporal: almacenLocal(config.DATA_DIR).temporal })
    : undefined;
  return {
    config,
    db,
    auth,
    flash: createFlash(config.SESSION_SECRET, config.APP_URL.startsWith("https:")),
    once: sqlOnce(db),
    throttle: sqlThrottle(db),
    rateLimitStore: (prefix) => new SqlRateLimitStore(db, prefix),
    invitations: (store) => sqlInvitations(db, store),
    almacenFor: s3 && (() => s3),
    reservarContenido: reservarEn(db),
    storeFor: (session) => sqlStore(db, session.userId),
    installationEmpty: async () => {
      const { rows } = await sql<{
        vacia: boolean;
      }>`select not exists (select 1 from public.usuarios) as vacia`.execute(db);
      return rows[0]!.vacia;
    },
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      s3?.cerrar();
      await db.destroy();
    },
  };
}
