import { EventEmitter } from "node:events";
import path from "node:path";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "~/data/embedded.server";
import {
  freePort,
  httpRequest,
  killEverything,
  removeDataDir,
  sleep,
  spawnServer,
  startServer,
  stopServer,
  type ServerProcess,
} from "../support/server-process";
import { createOrganisation, figure, workDir } from "./support";

/**
 * Avisos delivered exactly once (ADR 0017), against real processes: the app server
 * (its primary runs the delivery worker) on a PostgreSQL of its own, and a real SMTP server on
 * loopback that records every message it accepts by Message-ID.
 *
 * - SIGKILL of the server during delivery, ×FAULT_KILLS: afterwards every aviso is delivered,
 *   none lost; a message is repeated only in the window between «SMTP accepted» and «marked
 *   sent», and then with the same Message-ID (the mailbox keeps it once).
 * - SMTP down until every pending message has failed FAILED_ATTEMPTS times (retried with its
 *   backoff, still «pendiente», not «fallido»): nothing lost, everything delivered after it
 *   returns, the pages answer meanwhile.
 * - Two servers on one database: each message delivered once.
 */
const dir = workDir("avisos");
const KILLS = Number(process.env.FAULT_KILLS ?? 20);
/** Failed deliveries per message while SMTP is down: several backoff rounds, fewer than the cap. */
const FAILED_ATTEMPTS = Number(process.env.SMTP_FAILED_ATTEMPTS ?? 4);
let database: EmbeddedDatabase;
let org: Awaited<ReturnType<typeof createOrganisation>>;

/** A real SMTP server: every accepted message, by Message-ID (a slow accept widens the crash window). */
class Mailbox {
  received: { id: string; to: string; subject: string }[] = [];
  /** Each message's start of DATA and its acceptance, as they happen (a test can act on either). */
  readonly events = new EventEmitter<{ data: []; accepted: [] }>();
  private server: SMTPServer | null = null;
  constructor(
    readonly port: number,
    private delayMs = 0,
  ) {}
  async up() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData: (stream, session, callback) => {
        this.events.emit("data");
        let raw = "";
        stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
        stream.on("end", () => {
          const header = (name: string) =>
            new RegExp(`^${name}:\\s*(.+)$`, "im").exec(raw.split(/\r?\n\r?\n/)[0] ?? "")?.[1]?.trim() ?? "";
          setTimeout(() => {
            this.received.push({
              id: header("Message-ID"),
              to: session.envelope.rcptTo[0]?.address ?? "",
              subject: header("Subject"),
            });
            callback();
            this.events.emit("accepted");
          }, this.delayMs);
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(this.port, "127.0.0.1", () => resolve());
    });
    // A sender killed mid-message resets its connection: expected here, not a failure.
    this.server.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "ECONNRESET") throw error;
    });
  }
  async down() {
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  ids() {
    return new Set(this.received.map((m) => m.id));
  }
}

/** Resolves at the `n`-th `event` from now (a delivery that never comes fails the test's timeout). */
function nth(events: EventEmitter<{ data: []; accepted: [] }>, event: "data" | "accepted", n: number) {
  return new Promise<void>((resolve) => {
    let seen = 0;
    const on = () => {
      if (++seen < n) return;
      events.off(event, on);
      resolve();
    };
    events.on(event, on);
  });
}

async function withDb<T>(fn: (c: pg.Client) => Promise<T>) {
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** `n` gastos sent for approval by the empleados, round robin, each as its solicitante (the workflow function). */
async function enviar(n: number, o: { rollback?: boolean } = {}) {
  const empleados = Object.values(org.accounts).filter((a) => a.rol === "empleado");
  return withDb(async (c) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const e = empleados[i % empleados.length]!;
      await c.query("begin");
      await c.query("select set_config('request.jwt.claims', $1, true)", [
        JSON.stringify({ sub: e.id, role: "authenticated" }),
      ]);
      const { rows } = await c.query(
        `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id)
         values ($1, current_date, 'comidas', 12.5, 'efectivo', $2, $3, $4) returning id, version`,
        [`Aviso fiable ${i}`, e.id, org.departamentos.ventas, org.sucursal],
      );
      await c.query("select public.enviar_gasto($1, $2)", [rows[0].id, rows[0].version]);
      await c.query(o.rollback ? "rollback" : "commit");
      ids.push(rows[0].id);
    }
    return ids;
  });
}

const outbox = () =>
  withDb(async (c) => {
    const { rows } = await c.query<{ estado: string; n: number }>(
      "select estado, count(*)::int as n from interno.correos group by estado",
    );
    const by = Object.fromEntries(rows.map((r) => [r.estado, r.n]));
    const ids = (
      await c.query<{ mensaje_id: string }>("select distinct mensaje_id from interno.correos where estado = 'enviado'")
    ).rows.map((r) => r.mensaje_id);
    return { pendiente: by.pendiente ?? 0, enviado: by.enviado ?? 0, fallido: by.fallido ?? 0, ids };
  });

async function untilDelivered(timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const o = await outbox();
    if (o.pendiente === 0) return o;
    if (Date.now() > deadline) throw new Error(`Quedan ${o.pendiente} correos sin entregar`);
    await sleep(200);
  }
}

/** Every message the database marked sent arrived; nothing arrived that it does not know. */
function expectExactlyOnce(mailbox: Mailbox, sentIds: string[], host: string) {
  const expected = new Set(sentIds.map((id) => `<${id}@${host}>`));
  const arrived = mailbox.ids();
  expect([...expected].filter((id) => !arrived.has(id))).toEqual([]);
  expect([...arrived].filter((id) => !expected.has(id))).toEqual([]);
  return mailbox.received.length - arrived.size;
}

const serverEnv = (smtpPort: number) => ({
  DATABASE_URL: database.url,
  WEB_CONCURRENCY: "1",
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  AVISOS_INTERVALO_SEGUNDOS: "0.1",
  AVISOS_ESPERA_SEGUNDOS: "0",
  AVISOS_REINTENTO_SEGUNDOS: "1",
});

beforeAll(async () => {
  removeDataDir(dir);
  database = await startEmbeddedPostgres(path.join(dir, "postgres"), { fsync: false });
  const first = await startServer({
    dataDir: path.join(dir, "servidor-0"),
    nodeEnv: "production",
    // The installation's settings (kept in the database) as every server here has them: the
    // first round's avisos are mailed at once, not after the default minute's wait.
    env: { ...serverEnv(0), AVISOS_ENTREGA: "0" },
  });
  await stopServer(first);
  org = await withDb((c) =>
    createOrganisation(c, [
      { key: "admin", rol: "administrador" },
      ...Array.from({ length: 6 }, (_, i) => ({ key: `aprobador${i}`, rol: "aprobador" as const })),
      ...Array.from({ length: 24 }, (_, i) => ({
        key: `empleado${i}`,
        rol: "empleado" as const,
        aprobador: `aprobador${i % 6}`,
      })),
    ]),
  );
}, 240_000);
afterAll(async () => {
  await database?.stop();
});

it(`SIGKILL ×${KILLS} durante la entrega: todo llega, nada se pierde, un repetido solo con el mismo Message-ID`, async () => {
  const mailbox = new Mailbox(await freePort(), 30);
  await mailbox.up();
  let server: ServerProcess | undefined;
  const dataDir = path.join(dir, "servidor-kill");
  // A claim left by a killed server is sent again once it expires: a short one here (one server
  // at a time, so no pass can overlap another), not the two minutes of an installation.
  const killEnv = { ...serverEnv(mailbox.port), AVISOS_RECLAMO_SEGUNDOS: "2" };
  let enviados = 0;
  try {
    for (let round = 0; round < KILLS; round++) {
      enviados += (await enviar(8)).length;
      // A change that rolls back leaves neither aviso nor mail.
      const deshechos = await enviar(1, { rollback: true });
      expect(
        await withDb((c) =>
          c.query("select 1 from avisos where gasto_id = any($1)", [deshechos]).then((r) => r.rowCount),
        ),
      ).toBe(0);
      // Killed in the middle of a delivery: while SMTP receives a message (it is sent again) or
      // just after it accepted one (before the outbox marks it sent: the same Message-ID again).
      const killPoint = nth(
        mailbox.events,
        Math.random() < 0.5 ? "data" : "accepted",
        1 + Math.floor(Math.random() * 3),
      );
      server = spawnServer({ dataDir, port: await freePort(), nodeEnv: "production", env: killEnv });
      const s = server;
      await Promise.race([
        killPoint,
        s.exited.then(() => {
          throw new Error(`El servidor terminó antes de entregar:\n${s.output().slice(-4000)}`);
        }),
      ]);
      server.signalGroup("SIGKILL");
      await server.exited;
    }
    server = await startServer({ dataDir, nodeEnv: "production", env: killEnv });
    const o = await untilDelivered(120_000);
    expect(o.fallido).toBe(0);
    const avisos = await withDb((c) =>
      c.query("select count(*)::int as n from avisos where tipo = 'enviado'").then((r) => r.rows[0].n),
    );
    expect(avisos).toBe(enviados);
    const repeats = expectExactlyOnce(mailbox, o.ids, "oficina.test");
    expect(repeats).toBeLessThanOrEqual(KILLS);
    figure(
      `avisos · SIGKILL ×${KILLS} durante la entrega: ${enviados} avisos, ${o.ids.length} correos (agrupados por persona y pasada), todos entregados, 0 perdidos, 0 de cambios deshechos; ${repeats} reenvíos con el mismo Message-ID (ventana «SMTP aceptó» → «marcado enviado»)`,
    );
    await stopServer(server);
  } finally {
    await killEverything(server, dataDir);
    await mailbox.down();
  }
}, 600_000);

it(`SMTP caído hasta ${FAILED_ATTEMPTS} intentos fallidos por correo: nada se pierde, todo llega al volver, las páginas responden`, async () => {
  const mailbox = new Mailbox(await freePort());
  const dataDir = path.join(dir, "servidor-smtp");
  const server = await startServer({ dataDir, nodeEnv: "production", env: serverEnv(mailbox.port) });
  try {
    const earlier = new Set((await untilDelivered(30_000)).ids); // what earlier tests left
    const before = mailbox.received.length;
    await enviar(12);
    const statuses: number[] = [];
    const downSince = Date.now();
    // Down until the delivery worker has really failed each new message several times.
    for (;;) {
      statuses.push((await httpRequest(server.url, "/login")).status);
      const { rows } = await withDb((c) =>
        c.query<{ n: number }>(
          "select count(*)::int as n from interno.correos where estado = 'pendiente' and intentos < $1",
          [FAILED_ATTEMPTS],
        ),
      );
      if (rows[0]!.n === 0) break;
      await sleep(200);
    }
    const downSeconds = (Date.now() - downSince) / 1000;
    const during = await outbox();
    expect(during.pendiente).toBeGreaterThan(0);
    expect(during.fallido).toBe(0);
    expect(mailbox.received.length).toBe(before);
    await mailbox.up();
    const o = await untilDelivered(3 * 60_000);
    expect(o.fallido).toBe(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(
      expectExactlyOnce(
        mailbox,
        o.ids.filter((id) => !earlier.has(id)),
        "oficina.test",
      ),
    ).toBe(0);
    figure(
      `avisos · SMTP caído ${downSeconds.toFixed(0)} s (${FAILED_ATTEMPTS} intentos fallidos por correo): ${statuses.length} páginas servidas mientras (todas 200), ${mailbox.received.length - before} correos entregados al volver, 0 perdidos, 0 fallidos`,
    );
    await stopServer(server);
  } finally {
    await killEverything(server, dataDir);
    await mailbox.down();
  }
}, 600_000);

it("dos servidores sobre la misma base de datos: cada correo una vez", async () => {
  const mailbox = new Mailbox(await freePort(), 5);
  await mailbox.up();
  const servers: ServerProcess[] = [];
  try {
    for (const n of [1, 2])
      servers.push(
        await startServer({
          dataDir: path.join(dir, `servidor-dos-${n}`),
          nodeEnv: "production",
          env: serverEnv(mailbox.port),
        }),
      );
    const earlier = new Set((await untilDelivered(30_000)).ids);
    const { rows } = await withDb((c) =>
      c.query<{ n: number }>("select count(*)::int as n from interno.correos where estado = 'enviado'"),
    );
    const sentBefore = rows[0]!.n;
    // 200 avisos over 6 aprobadores, written while both servers deliver.
    for (let i = 0; i < 10; i++) {
      await enviar(20);
      await sleep(150);
    }
    const o = await untilDelivered(120_000);
    expect(o.enviado - sentBefore).toBe(200);
    const arrived = mailbox.received.map((m) => m.id);
    expect(
      expectExactlyOnce(
        mailbox,
        o.ids.filter((id) => !earlier.has(id)),
        "oficina.test",
      ),
    ).toBe(0); // no crash: no repeat at all
    figure(
      `avisos · dos servidores, una base de datos: 200 avisos en ${arrived.length} correos, cada Message-ID una vez`,
    );
    for (const s of servers) await stopServer(s);
  } finally {
    for (const [i, s] of servers.entries()) await killEverything(s, path.join(dir, `servidor-dos-${i + 1}`));
    await mailbox.down();
  }
}, 600_000);
