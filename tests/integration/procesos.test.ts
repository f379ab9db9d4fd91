import { memoryOnce } from "~/data/once.server";
import { LIMITS, memoryThrottle } from "~/auth/throttle.server";
import express from "express";
import { sql } from "kysely";
import type { AddressInfo } from "node:net";
import { mountMonitoring } from "../../server/monitoring";
import { SqlRateLimitStore } from "~/data/rate-limit.server";
import { sqlServices } from "~/services.server";
import { createTestApp, request, respond } from "../support/app";
import { envelope, startFakeIngest } from "../support/fake-sentry";
import { pantallasDe } from "../support/pantallas";

const { action } = pantallasDe("departamentos").lista;

/**
 * The server runs several processes (node:cluster, ADR 0010). What they must agree on lives in
 * the database; here two services built on the same database stand for two processes, each with
 * its own connection pool, as the workers have.
 */
let app: Awaited<ReturnType<typeof createTestApp>>;
let otro: ReturnType<typeof sqlServices>;
type U = Awaited<ReturnType<typeof app.createUser>>;
let ana: U, bea: U;

beforeAll(async () => {
  app = await createTestApp();
  otro = sqlServices(app.config, app.url);
  ana = await app.createUser({ nombre: "Ana", rol: "administrador" });
  bea = await app.createUser({ nombre: "Bea", rol: "administrador" });
});
afterAll(async () => {
  await otro.close();
  await app.close();
});

const proceso = (n: 1 | 2) => (n === 1 ? app.context() : { ...app.context(), services: otro });
const crear = (n: 1 | 2, form: Record<string, string>, cookie = ana.cookie) =>
  respond(() => action({ request: request("/departamentos", { cookie, form }), context: proceso(n), params: {} }));
const cuantos = async (nombre: string) =>
  Number(
    (
      await app.db
        .selectFrom("departamentos")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("nombre", "=", nombre)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("doble envío entre procesos (auth.local_submissions)", () => {
  it("el mismo formulario enviado a la vez a dos procesos crea un registro; los dos reciben la misma redirección", async () => {
    const form = { nombre: "Entre procesos", codigo: "EPR", _envio: crypto.randomUUID() };
    const [a, b] = await Promise.all([crear(1, form), crear(2, form)]);
    expect([a.status, b.status]).toEqual([302, 302]);
    expect(b.headers.get("Location")).toBe(a.headers.get("Location"));
    expect(b.headers.getSetCookie()).toEqual(a.headers.getSetCookie());
    expect(await cuantos("Entre procesos")).toBe(1);
    // Sent again later to the other process: still the first one's answer, nothing new.
    const c = await crear(2, form);
    expect(c.status).toBe(302);
    expect(await cuantos("Entre procesos")).toBe(1);
  });

  it("un envío rechazado no gasta el token: corregido y reenviado, se crea", async () => {
    const _envio = crypto.randomUUID();
    const refused = await crear(1, { nombre: "", codigo: "COR", _envio });
    expect(refused.status).toBe(400);
    expect((await crear(2, { nombre: "Corregido", codigo: "COR", _envio })).status).toBe(302);
    expect(await cuantos("Corregido")).toBe(1);
  });

  it("el token de otra persona no le devuelve la redirección ajena: crea el suyo", async () => {
    const _envio = crypto.randomUUID();
    expect((await crear(1, { nombre: "De Ana", codigo: "ANA", _envio })).status).toBe(302);
    const deBea = await crear(2, { nombre: "De Bea", codigo: "BEA", _envio }, bea.cookie);
    expect(deBea.status).toBe(302);
    expect(await cuantos("De Bea")).toBe(1);
  });

  it("un primer envío que quedó a medias (su proceso murió) no bloquea el reenvío para siempre", async () => {
    const _envio = crypto.randomUUID();
    await app.db
      .insertInto("auth.local_submissions")
      .values({ key: `${ana.id}:${_envio}`, created_at: new Date(Date.now() - 60_000) })
      .execute();
    expect((await crear(2, { nombre: "Huérfano", codigo: "HUE", _envio })).status).toBe(302);
    expect(await cuantos("Huérfano")).toBe(1);
  });

  it("en memoria (un solo proceso: Supabase) se comporta igual dentro del proceso", async () => {
    const once = memoryOnce();
    let runs = 0;
    const run = async () => (runs++, new Response(null, { status: 302, headers: { Location: "/x" } }));
    const token = crypto.randomUUID();
    const [a, b] = await Promise.all([once("u", token, run), once("u", token, run)]);
    expect([a.status, b.status, runs]).toEqual([302, 302, 1]);
    await once("otra", token, run);
    expect(runs).toBe(2);
  });
});

describe("intentos fallidos de inicio de sesión entre procesos (auth.local_sign_in_failures)", () => {
  it("cinco fallos repartidos entre dos procesos bloquean la cuenta en los dos; un acierto la libera", async () => {
    const email = "Objetivo@Oficina.test";
    for (let i = 0; i < 5; i++) {
      expect(await (i % 2 ? otro : app.services).throttle.isLocked(email, `10.0.0.${i}`)).toBe(false);
      await (i % 2 ? otro : app.services).throttle.recordFailure(email, `10.0.0.${i}`);
    }
    expect(await app.services.throttle.isLocked("objetivo@oficina.test", "10.9.9.9")).toBe(true);
    expect(await otro.throttle.isLocked(email, "10.9.9.9")).toBe(true);
    await otro.throttle.clearFailures(email);
    expect(await app.services.throttle.isLocked(email, "10.9.9.9")).toBe(false);
  });

  it("LIMITS.direccion fallos desde una dirección la bloquean para cualquier cuenta", async () => {
    for (let i = 0; i < LIMITS.direccion; i++)
      await (i % 2 ? otro : app.services).throttle.recordFailure(`cuenta${i}@oficina.test`, "10.1.1.1");
    expect(await otro.throttle.isLocked("nueva@oficina.test", "10.1.1.1")).toBe(true);
    expect(await otro.throttle.isLocked("nueva@oficina.test", "10.1.1.2")).toBe(false);
  });

  it("fuera de la ventana de 15 minutos los fallos ya no cuentan", async () => {
    await app.db
      .insertInto("auth.local_sign_in_failures")
      .values(
        Array.from({ length: 5 }, () => ({ key: "cuenta:vieja@oficina.test", at: new Date(Date.now() - 16 * 60_000) })),
      )
      .execute();
    expect(await app.services.throttle.isLocked("vieja@oficina.test", "10.2.2.2")).toBe(false);
  });

  it("en memoria: la misma regla y la misma ventana", async () => {
    let now = 1_000_000;
    const throttle = memoryThrottle(() => now);
    for (let i = 0; i < 5; i++) await throttle.recordFailure("a@b.es", "1.1.1.1");
    expect(await throttle.isLocked("A@b.es", "2.2.2.2")).toBe(true);
    now += 15 * 60_000;
    expect(await throttle.isLocked("a@b.es", "2.2.2.2")).toBe(false);
  });
});

describe("límite de envíos de express-rate-limit entre procesos (auth.local_rate_limits)", () => {
  it("dos procesos suman en el mismo contador; al pasar la ventana vuelve a empezar", async () => {
    const a = new SqlRateLimitStore(app.db, "prueba:");
    const b = new SqlRateLimitStore(otro.db, "prueba:");
    for (const s of [a, b]) s.init({ windowMs: 1_000 } as never);
    expect((await a.increment("10.3.3.3")).totalHits).toBe(1);
    expect((await b.increment("10.3.3.3")).totalHits).toBe(2);
    const third = await a.increment("10.3.3.3");
    expect(third.totalHits).toBe(3);
    expect(third.resetTime!.getTime()).toBeGreaterThan(Date.now());
    await b.decrement("10.3.3.3");
    expect((await a.increment("10.3.3.3")).totalHits).toBe(3);
    expect((await b.increment("10.4.4.4")).totalHits).toBe(1);
    // The window passes: the database's clock decides, so move the window's end, not the clock.
    await sql`update auth.local_rate_limits set reset_at = now() - interval '1 millisecond' where key = 'prueba:10.3.3.3'`.execute(
      app.db,
    );
    expect((await b.increment("10.3.3.3")).totalHits).toBe(1);
    await a.resetKey("10.3.3.3");
    expect((await b.increment("10.3.3.3")).totalHits).toBe(1);
  });
});

describe("el túnel de Sentry (/monitoring) entre procesos", () => {
  it("sus 120 envíos por minuto y dirección son para todos los procesos, no para cada uno", async () => {
    const ingest = await startFakeIngest();
    const servers = [app.services, otro].map((services) => {
      const worker = express();
      mountMonitoring(worker, ingest.dsn(), services.rateLimitStore!("monitoring:"));
      return worker.listen(0, "127.0.0.1");
    });
    try {
      await Promise.all(servers.map((s) => new Promise((r) => s.once("listening", r))));
      const post = (i: number) =>
        fetch(`http://127.0.0.1:${(servers[i % 2]!.address() as AddressInfo).port}/monitoring`, {
          method: "POST",
          body: envelope(ingest.dsn()),
        });
      const statuses: number[] = [];
      for (let i = 0; i < 121; i++) statuses.push((await post(i)).status);
      expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
      expect(statuses[120]).toBe(429);
      expect(ingest.received).toHaveLength(120);
    } finally {
      servers.forEach((s) => s.close());
      await ingest.close();
    }
  });
});
