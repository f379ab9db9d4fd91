import path from "node:path";
import { startFakeIngest } from "../support/fake-sentry";
import { Browser, until, withOwner, type ServerProcess } from "../support/server-process";
import { disposeServer, startOnEmptyDataDir } from "../support/server-suite";
import { createOrganisation, PASSWORD, workDir } from "./support";

/**
 * A server error reaches Sentry (a loopback stand-in for its ingest) with what helps to find it —
 * the method and the URL's path — and nothing that identifies a person: no query string, no
 * cookies, no session. Sentry has no per-request instrumentation (ADR 0008, «Sentry»): the
 * request is attached when the error is reported.
 */
const dataDir = path.join(workDir("sentry-servidor"), "datos");
let server: ServerProcess;
let ingest: Awaited<ReturnType<typeof startFakeIngest>>;

beforeAll(async () => {
  ingest = await startFakeIngest();
  server = await startOnEmptyDataDir({
    dataDir,
    nodeEnv: "production",
    env: { SENTRY_DSN: ingest.dsn(), WEB_CONCURRENCY: "1" },
  });
});
afterAll(async () => {
  await disposeServer(server, dataDir);
  await ingest?.close();
});

it("el error del servidor llega a Sentry con el método y la ruta, sin consulta ni cookies", async () => {
  const org = await withOwner(dataDir, (c) => createOrganisation(c, [{ key: "admin", rol: "administrador" }]));
  const browser = new Browser(server.url);
  await browser.signIn(org.accounts.admin!.email, PASSWORD);
  const r = await browser.post("/sentry-example-page?secreto=no-debe-salir", { intent: "fallar" });
  expect(r.status).toBe(500);
  const recibido = () => ingest.received.map((x) => x.body).join("\n");
  await until("el error en la ingesta de Sentry", () =>
    recibido().includes("Error de prueba de Sentry en el servidor"),
  );
  const body = recibido();
  expect(body).toContain("Error de prueba de Sentry en el servidor");
  expect(body).toContain(`"url":"${server.url}/sentry-example-page"`);
  expect(body).toContain('"method":"POST"');
  expect(body).not.toContain("no-debe-salir");
  for (const [name, value] of browser.cookies) {
    expect(body).not.toContain(value);
    expect(body.toLowerCase()).not.toContain(`"${name.toLowerCase()}"`);
  }
  expect(body.toLowerCase()).not.toContain('"cookie"');
});
