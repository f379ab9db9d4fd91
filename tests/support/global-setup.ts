import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../app/data/embedded.server";
import { migrate } from "../../app/data/migrate.server";

/**
 * One real PostgreSQL server per test run, and a template database with every migration
 * applied; each test file clones its own database from it (tests/support/database.ts).
 */
declare module "vitest" {
  export interface ProvidedContext {
    databaseServerUrl: string;
  }
}

export default async function setup(project: TestProject) {
  // One directory per run, so two runs at once (a developer and CI, two terminals) never collide.
  const dir = path.resolve(`.tmp/vitest-postgres-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  const server = await startEmbeddedPostgres(dir, { fsync: false });
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query("create database oficina_template");
  await admin.end();
  await migrate(withDatabase(server.url, "oficina_template"));
  // Receipts are not required in the template (the suites send gastos without any); the tests
  // of the rule turn it on in their own database (tests/integration/justificantes.test.ts).
  const template = new pg.Client({ connectionString: withDatabase(server.url, "oficina_template") });
  await template.connect();
  await template.query("update interno.ajustes set justificante_obligatorio_desde = null");
  await template.end();
  project.provide("databaseServerUrl", server.url);
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
