import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { E2E_DATA_DIR } from "./entorno";

/**
 * A connection to the end-to-end server's own embedded database (its port from postmaster.pid,
 * its password from DATA_DIR), as its owner: only to arrange what no screen can (a mail the mail
 * server refused for good, an office with a single administrador), never to check a journey.
 */
export async function conectarBaseDeDatos(): Promise<pg.Client> {
  const pid = readFileSync(path.resolve(E2E_DATA_DIR, "postgres", "postmaster.pid"), "utf8").split("\n");
  const password = readFileSync(path.resolve(E2E_DATA_DIR, "postgres.password"), "utf8").trim();
  const client = new pg.Client({ host: "127.0.0.1", port: Number(pid[3]), user: "postgres", password });
  await client.connect();
  return client;
}

/** One statement on its own connection. */
export async function enLaBaseDeDatos<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = await conectarBaseDeDatos();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}
