import express from "express";
import type { AddressInfo } from "node:net";
import { mountMonitoring, MAX_ENVELOPE_BYTES } from "../../server/monitoring";
import { envelope, startFakeIngest } from "../support/fake-sentry";

/** The /monitoring tunnel over real HTTP on loopback, with a fake ingest recording what arrives. */
let ingest: Awaited<ReturnType<typeof startFakeIngest>>;
let elsewhere: Awaited<ReturnType<typeof startFakeIngest>>;

beforeAll(async () => {
  ingest = await startFakeIngest();
  elsewhere = await startFakeIngest();
});
afterAll(async () => {
  await ingest.close();
  await elsewhere.close();
});
beforeEach(() => {
  ingest.received.length = 0;
  elsewhere.received.length = 0;
});

async function tunnel(configuredDsn: string | undefined) {
  const app = express();
  mountMonitoring(app, configuredDsn);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    post: (body: string) => fetch(`${base}/monitoring`, { method: "POST", body }),
    base,
    close: () => server.close(),
  };
}

it("reenvía a la ingesta configurada un sobre con el DSN exacto, sin devolver su respuesta", async () => {
  const t = await tunnel(ingest.dsn());
  const r = await t.post(envelope(ingest.dsn()));
  expect(r.status).toBe(200);
  expect(await r.text()).toBe("");
  expect(ingest.received).toHaveLength(1);
  expect(ingest.received[0]!.url).toBe("/api/1/envelope/?sentry_key=clave&sentry_version=7");
  expect(ingest.received[0]!.body).toContain('"message":"prueba"');
  t.close();
});

it.each([
  ["otro servidor", () => elsewhere.dsn()],
  ["otro proyecto", () => ingest.dsn(2)],
  ["otra clave", () => ingest.dsn(1, "otra")],
  ["metadatos de la nube", () => "http://clave@169.254.169.254/1"],
])("rechaza un DSN de %s (403) y no sale ninguna petición", async (_name, dsn) => {
  const t = await tunnel(ingest.dsn());
  const r = await t.post(envelope(dsn()));
  expect(r.status).toBe(403);
  expect(ingest.received).toHaveLength(0);
  expect(elsewhere.received).toHaveLength(0);
  t.close();
});

it("no sigue redirecciones de la ingesta (502) ni llega al destino de la redirección", async () => {
  const redirecting = await startFakeIngest({ status: 302, location: `http://127.0.0.1:${elsewhere.port}/robado` });
  const t = await tunnel(redirecting.dsn());
  const r = await t.post(envelope(redirecting.dsn()));
  expect(r.status).toBe(502);
  expect(redirecting.received).toHaveLength(1);
  expect(elsewhere.received).toHaveLength(0);
  t.close();
  await redirecting.close();
});

it("sobre demasiado grande: 413; sobre ilegible: 400; GET: 405; sin Sentry configurado: 404", async () => {
  const t = await tunnel(ingest.dsn());
  expect((await t.post(envelope(ingest.dsn(), "x".repeat(MAX_ENVELOPE_BYTES)))).status).toBe(413);
  expect((await t.post("esto no es json\n{}")).status).toBe(400);
  expect((await t.post(`${JSON.stringify({ dsn: "no es una url" })}\n`)).status).toBe(400);
  expect((await fetch(`${t.base}/monitoring`)).status).toBe(405);
  expect(ingest.received).toHaveLength(0);
  t.close();
  const off = await tunnel(undefined);
  expect((await off.post(envelope(ingest.dsn()))).status).toBe(404);
  off.close();
});
