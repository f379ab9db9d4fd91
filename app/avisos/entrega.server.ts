import path from "node:path";
import { sql, type Kysely } from "kysely";
import { createMailer, type Mailer } from "~/auth/mail.server";
import type { Database } from "~/data/database";
import { createDatabase } from "~/data/sql/connection.server";
import { DEFAULT_TIME_ZONE } from "~/lib/dates";
import type { Env } from "~/lib/env.server";
import {
  correoDeAvisos,
  correoResumen,
  esDeCuenta,
  preferencesUrl,
  type Aviso,
  type Lector,
  type Pendiente,
} from "./mensajes";

/**
 * The delivery worker of the avisos outbox (ADR 0017). The workflow writes the mail rows
 * in the same transaction as the change; this claims them (interno.reclamar_correos: a lock per
 * recipient and SKIP LOCKED, so several servers never send one message twice at once), sends one
 * mail per claimed group and marks it sent. A crash between the send and the mark leaves the rows
 * claimed; when the claim expires they are sent again with the same Message-ID, which mail
 * clients (and the development outbox) recognise as the same message.
 */
/** One mail to one person: the claimed rows that share a Message-ID, with all the mail says. */
export type Envio = {
  mensaje_id: string;
  destinatario_id: string;
  /** Null only if the person is gone: the send fails and is retried, then listed as undelivered. */
  email: string | null;
  nombre: string | null;
  avisos: Aviso[];
  /** A daily digest (no avisos): what is pending now, oldest first, and how many in all. */
  pendientes: Pendiente[] | null;
  total_pendientes: number | null;
};

/**
 * The outbox as the sender sees it: the database functions `entrega_*` of the avisos migration,
 * called by the owner's connection (SQL backend) or by the service role through PostgREST
 * (Supabase: `supabaseOutbox`). The same SQL decides in both.
 */
export type Outbox = {
  scheduleDigests(timeZone: string): Promise<number>;
  claim(people: number, lease: string): Promise<Envio[]>;
  sent(mensajeId: string): Promise<void>;
  failed(mensajeId: string, error: string): Promise<void>;
};

export function sqlOutbox(db: Kysely<Database>): Outbox {
  return {
    async scheduleDigests(timeZone) {
      const r = await sql<{ n: number }>`select public.entrega_programar_resumenes(${timeZone}) as n`.execute(db);
      return Number(r.rows[0]?.n ?? 0);
    },
    async claim(people, lease) {
      const r = await sql<{ e: Envio[] }>`select public.entrega_reclamar(${people}, ${lease}::interval) as e`.execute(
        db,
      );
      return r.rows[0]?.e ?? [];
    },
    async sent(mensajeId) {
      await sql`select public.entrega_enviado(${mensajeId})`.execute(db);
    },
    async failed(mensajeId, error) {
      await sql`select public.entrega_fallido(${mensajeId}, ${error})`.execute(db);
    },
  };
}

export type DeliveryOptions = {
  outbox: Outbox;
  mail: Mailer;
  appUrl: string;
  locale: string;
  currency: string;
  timeZone: string;
  /** People per pass (each gets one mail). */
  batch?: number;
  /** How long a claim lasts before another pass may retry it (a crashed sender). */
  lease?: string;
};

export type Pass = { sent: number; failed: number; digests: number };

/** One pass: schedule the daily digests that are due, then send what is due. */
export async function deliverDue(o: DeliveryOptions): Promise<Pass> {
  const digests = await o.outbox.scheduleDigests(o.timeZone);
  const envios = await o.outbox.claim(o.batch ?? 50, o.lease ?? "2 minutes");
  const pass: Pass = { sent: 0, failed: 0, digests };
  for (const envio of envios) {
    try {
      await send(o, envio);
      await o.outbox.sent(envio.mensaje_id);
      pass.sent += 1;
    } catch (error) {
      await o.outbox.failed(envio.mensaje_id, String((error as Error)?.message ?? error));
      pass.failed += 1;
    }
  }
  return pass;
}

async function send(o: DeliveryOptions, envio: Envio) {
  if (!envio.email) throw new Error("El destinatario ya no existe");
  const lector: Lector = {
    id: envio.destinatario_id,
    nombre: envio.nombre ?? "",
    appUrl: o.appUrl,
    locale: o.locale,
    currency: o.currency,
  };
  const correo =
    envio.avisos.length > 0
      ? correoDeAvisos(envio.avisos, lector)
      : envio.pendientes?.length
        ? correoResumen(envio.pendientes, Number(envio.total_pendientes), lector)
        : null;
  if (!correo) return; // a digest whose pendientes were all approved meanwhile: nothing to say
  // An account change cannot be switched off (ADR 0017): a mail that carries one offers no
  // unsubscribe, which would promise that it stops.
  const seElige = !envio.avisos.some(esDeCuenta);
  await o.mail({
    to: envio.email,
    ...correo,
    messageId: `<${envio.mensaje_id}@${new URL(o.appUrl).hostname}>`,
    ...(seElige && { headers: { "List-Unsubscribe": `<${preferencesUrl(o.appUrl)}>` } }),
  });
}

/**
 * Runs passes every `everyMs` until stopped; a pass that throws (the database restarting) is
 * logged and the next one tries again. `stop()` waits for the pass in flight.
 */
export function startDelivery(o: DeliveryOptions & { everyMs: number; log?: (line: string) => void }) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = deliverDue(o)
      .then((p) => {
        if (p.sent || p.failed) o.log?.(`[avisos] enviados ${p.sent}, fallidos ${p.failed}`);
      })
      .catch((error) => o.log?.(`[avisos] la entrega falló: ${(error as Error).message}`))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, o.everyMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * The worker as the server's primary process (or `npm run avisos`) runs it, on the given outbox
 * (`sqlAvisos` for a database connection, `supabaseOutbox` on Supabase) with the configured
 * mailer (SMTP_URL, else the development outbox).
 */
export function startAvisos(config: Env, outbox: Outbox & { close?: () => Promise<void> }) {
  const worker = startDelivery({
    outbox,
    mail: createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: path.join(config.DATA_DIR, "correo"),
    }),
    appUrl: config.APP_URL,
    locale: config.APP_LOCALE,
    currency: config.APP_CURRENCY,
    timeZone: DEFAULT_TIME_ZONE,
    everyMs: config.AVISOS_INTERVALO_SEGUNDOS * 1000,
    lease: `${config.AVISOS_RECLAMO_SEGUNDOS} seconds`,
    log: (line) => console.info(line),
  });
  return {
    async stop() {
      await worker.stop();
      await outbox.close?.();
    },
  };
}

/** The outbox over its own small pool on the owner's connection (the SQL backend). */
export function sqlAvisos(databaseUrl: string) {
  const db = createDatabase(databaseUrl, 2);
  return { ...sqlOutbox(db), close: () => db.destroy() };
}
