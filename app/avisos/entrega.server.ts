import path from "node:path";
import { sql, type Kysely } from "kysely";
import { createMailer, type Mailer } from "~/auth/mail.server";
import type { Database } from "~/data/database";
import { createDatabase } from "~/data/sql/connection.server";
import { DEFAULT_TIME_ZONE } from "~/lib/dates";
import type { Env } from "~/lib/env.server";
import { correoDeAvisos, correoResumen, preferencesUrl, type Aviso, type Lector, type Pendiente } from "./mensajes";

/**
 * The delivery worker of the avisos outbox (SPEC §3, ADR 0017). The workflow writes the mail rows
 * in the same transaction as the change; this claims them (interno.reclamar_correos: a lock per
 * recipient and SKIP LOCKED, so several servers never send one message twice at once), sends one
 * mail per claimed group and marks it sent. A crash between the send and the mark leaves the rows
 * claimed; when the claim expires they are sent again with the same Message-ID, which mail
 * clients (and the development outbox) recognise as the same message.
 */
export type DeliveryOptions = {
  /** The database owner's connection (the outbox is not readable by `authenticated`). */
  db: Kysely<Database>;
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
  const digests = await sql<{ n: number }>`select interno.programar_resumenes(${o.timeZone}) as n`.execute(o.db);
  const claimed = await sql<{ id: string; mensaje_id: string; destinatario_id: string }>`
    select id, mensaje_id, destinatario_id from interno.reclamar_correos(${o.batch ?? 50}, ${o.lease ?? "2 minutes"}::interval)`.execute(
    o.db,
  );
  const groups = new Map<string, string>();
  for (const row of claimed.rows) groups.set(row.mensaje_id, row.destinatario_id);
  const pass: Pass = { sent: 0, failed: 0, digests: Number(digests.rows[0]?.n ?? 0) };
  for (const [mensajeId, userId] of groups) {
    try {
      await sendGroup(o, mensajeId, userId);
      await sql`select interno.correo_enviado(${mensajeId})`.execute(o.db);
      pass.sent += 1;
    } catch (error) {
      await sql`select interno.correo_fallido(${mensajeId}, ${String((error as Error)?.message ?? error)})`.execute(
        o.db,
      );
      pass.failed += 1;
    }
  }
  return pass;
}

async function sendGroup(o: DeliveryOptions, mensajeId: string, userId: string) {
  const persona = await o.db
    .selectFrom("usuarios")
    .select(["email", "nombre"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const lector: Lector = { nombre: persona.nombre, appUrl: o.appUrl, locale: o.locale, currency: o.currency };
  const rows = await sql<{
    resumen_fecha: string | null;
    tipo: Aviso["tipo"] | null;
    gasto_id: string | null;
    datos: Aviso["datos"] | null;
  }>`
    select c.resumen_fecha::text, a.tipo, a.gasto_id, a.datos
      from interno.correos c left join public.avisos a on a.id = c.aviso_id
     where c.mensaje_id = ${mensajeId} and c.estado = 'pendiente'
     order by c.creado_en, c.id`.execute(o.db);
  const avisos = rows.rows
    .filter((r) => r.tipo && r.datos)
    .map((r) => ({ tipo: r.tipo!, gasto_id: r.gasto_id, datos: r.datos! }));
  const correo = avisos.length > 0 ? correoDeAvisos(avisos, lector) : await digest(o, userId, lector);
  if (!correo) return; // a digest whose pendientes were all approved meanwhile: nothing to say
  await o.mail({
    to: persona.email,
    ...correo,
    messageId: `<${mensajeId}@${new URL(o.appUrl).hostname}>`,
    headers: { "List-Unsubscribe": `<${preferencesUrl(o.appUrl)}>` },
  });
}

const DIGEST_ROWS = 20;

async function digest(o: DeliveryOptions, userId: string, lector: Lector) {
  const pendientes = await sql<Pendiente & { total: number }>`
    select g.id, g.folio, g.descripcion, g.importe::text as importe, g.fecha_gasto::text as fecha_gasto,
           trim(u.nombre || ' ' || coalesce(u.apellidos, '')) as solicitante, count(*) over () as total
      from public.gastos g join public.usuarios u on u.id = g.solicitante_id
     where g.aprobador_id = ${userId} and g.estado = 'pendiente'
     order by g.actualizado_en, g.id
     limit ${DIGEST_ROWS}`.execute(o.db);
  if (pendientes.rows.length === 0) return null;
  return correoResumen(pendientes.rows, Number(pendientes.rows[0]!.total), lector);
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
 * The worker as the server's primary process (or `npm run avisos`) runs it: its own small pool
 * on the owner's connection, the configured mailer (SMTP_URL, else the development outbox).
 */
export function startAvisos(config: Env, databaseUrl: string) {
  const db = createDatabase(databaseUrl, 2);
  const worker = startDelivery({
    db,
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
    log: (line) => console.info(line),
  });
  return {
    async stop() {
      await worker.stop();
      await db.destroy();
    },
  };
}
