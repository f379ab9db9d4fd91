import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { withDatabase } from "./global-setup";

/** A fresh database for one test file, cloned from the migrated template. Returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = inject("databaseServerUrl");
  const name = `oficina_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template oficina_template`);
  } finally {
    await admin.end();
  }
  return withDatabase(serverUrl, name);
}
