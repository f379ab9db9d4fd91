import { readFileSync } from "node:fs";
import path from "node:path";
import {
  Browser,
  killEverything,
  removeDataDir,
  ROOT,
  startServer,
  stopServer,
  withOwner,
  type ServerProcess,
} from "../support/server-process";
import { createOrganisation, PASSWORD, workDir } from "./support";

/**
 * One module graph (ADR 0014): server.ts builds the services and the routes use them, all from one
 * bundle, so an error the store throws is an instance of the very class the routes test for. With
 * two copies of app/data/store.ts (the server from its sources, the routes from the build), the
 * routes' `error instanceof NotFound` was false and an unknown record answered 500, not 404.
 */
const dataDir = workDir("un-grafo");
let server: ServerProcess;

beforeAll(async () => {
  removeDataDir(dataDir);
  server = await startServer({ dataDir, nodeEnv: "production", env: { APP_URL: "https://oficina.example" } });
});

afterAll(async () => {
  if (server?.alive()) await stopServer(server).catch(() => undefined);
  await killEverything(server, dataDir);
  removeDataDir(dataDir);
});

it("el servidor y las rutas son un solo módulo: build/server.js contiene server.ts y store.ts", () => {
  const meta = JSON.parse(readFileSync(path.join(ROOT, "build/metafile.server.json"), "utf8")) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>;
  };
  const inputs = Object.keys(meta.outputs["build/server.js"]?.inputs ?? {});
  expect(inputs).toContain("server.ts");
  expect(inputs).toContain("app/data/store.ts");
  expect(inputs).toContain("app/routes/$entidad.$id.tsx");
});

it("un registro que no existe (NotFound del almacén que creó server.ts) da 404 en la ruta, no 500", async () => {
  const { accounts } = await withOwner(dataDir, (c) => createOrganisation(c, [{ key: "admin", rol: "administrador" }]));
  const admin = new Browser(server.url);
  await admin.signIn(accounts.admin!.email, PASSWORD);
  const missing = await admin.get("/departamentos/00000000-0000-4000-8000-000000000000");
  expect(missing.status).toBe(404);
  expect(missing.text()).toContain("No encontramos lo que busca");
});
