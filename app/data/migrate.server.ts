import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/**
 * Applies supabase/compat (only on plain Postgres: what Supabase already has) and then
 * supabase/migrations, each file once, in name order, each in its own transaction. Applied files
 * are recorded in supabase_migrations.schema_migrations, the table the Supabase CLI uses.
 *
 * A database that recorded a migration this tree no longer has (one made before the baseline of
 * ADR 0016) is refused before anything is applied: the baseline would collide with its tables,
 * and there is no upgrade path from the old chain.
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
    const files = sqlFilesInOrder();
    const unknown = [...applied].filter((version) => !files.some((f) => f.version === version)).sort();
    if (unknown.length > 0) throw new Error(obsoleteDatabase(unknown));

    for (const { version, name, file } of files.filter((f) => !applied.has(f.version))) {
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

function sqlFilesInOrder() {
  return [
    ...sqlFiles(path.join(ROOT, "compat")).map((f) => ({ ...f, version: `compat_${f.version}` })),
    ...sqlFiles(path.join(ROOT, "migrations")),
  ];
}

function obsoleteDatabase(versions: string[]) {
  const list =
    versions.length > 3 ? `${versions[0]} … ${versions.at(-1)}, ${versions.length} en total` : versions.join(", ");
  return (
    `La base de datos se creó con migraciones anteriores a la versión base de supabase/migrations ` +
    `(${list}), que ya no existen y no se pueden actualizar. Empiece con una base de ` +
    `datos vacía: con la base de datos integrada, detenga el servidor, borre el directorio ` +
    `DATA_DIR/postgres (./data/postgres por defecto) y arranque de nuevo; con DATABASE_URL, use una ` +
    `base de datos nueva.`
  );
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
