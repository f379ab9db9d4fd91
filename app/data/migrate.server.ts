import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/**
 * Applies supabase/compat (only on plain Postgres: what Supabase already has) and then
 * supabase/migrations, each file once, in name order, each in its own transaction. Applied files
 * are recorded in supabase_migrations.schema_migrations, the table the Supabase CLI uses.
 */
const ROOT = path.resolve(process.cwd(), "supabase");

export async function migrate(databaseUrl: string, log: (line: string) => void = () => {}) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // One migrator at a time, even if two servers start together.
    await client.query("select pg_advisory_lock(7256001)");
    await client.query(`create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (
        version text primary key, name text, statements text[])`);
    const { rows } = await client.query<{ version: string }>(
      "select version from supabase_migrations.schema_migrations",
    );
    const applied = new Set(rows.map((r) => r.version));

    for (const { version, name, file } of pending(applied)) {
      const sql = readFileSync(file, "utf8");
      await client.query("begin");
      try {
        await client.query(sql);
        await client.query("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [
          version,
          name,
        ]);
        await client.query("commit");
        log(`migración aplicada: ${path.relative(process.cwd(), file)}`);
      } catch (error) {
        await client.query("rollback");
        throw new Error(`La migración ${path.relative(process.cwd(), file)} falló: ${(error as Error).message}`);
      }
    }
  } finally {
    await client.query("select pg_advisory_unlock(7256001)").catch(() => {});
    await client.end();
  }
}

function pending(applied: Set<string>) {
  const files = [
    ...sqlFiles(path.join(ROOT, "compat")).map((f) => ({ ...f, version: `compat_${f.version}` })),
    ...sqlFiles(path.join(ROOT, "migrations")),
  ];
  return files.filter((f) => !applied.has(f.version));
}

function sqlFiles(dir: string) {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((name) => {
      const [version, ...rest] = name.replace(/\.sql$/, "").split("_");
      return { version, name: rest.join("_"), file: path.join(dir, name) };
    });
}
