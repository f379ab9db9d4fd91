import { createHash } from "node:crypto";
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
 *
 * Until the first release a migration is rewritten in place (ADR 0016), which a database that
 * already applied it never sees. So each file applied here leaves its SHA-256 beside its version
 * (supabase_migrations.huellas_oficina; a database the Supabase CLI pushed has none and is not
 * judged), and a database is refused, before anything is applied, when a file it applied has
 * changed since or a file older than its newest one was never applied: either way it lacks the
 * schema this tree describes, silently (a policy, a function body).
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
        version text primary key, name text, statements text[]);
      create table if not exists supabase_migrations.huellas_oficina (version text primary key, sha256 text not null)`);
    const { rows } = await client.query<{ version: string; sha256: string | null }>(
      `select m.version, h.sha256 from supabase_migrations.schema_migrations m
         left join supabase_migrations.huellas_oficina h on h.version = m.version`,
    );
    const applied = new Map(rows.map((r) => [r.version, r.sha256]));
    const files = sqlFilesInOrder();
    const unknown = [...applied.keys()].filter((version) => !files.some((f) => f.version === version)).sort();
    if (unknown.length > 0) throw new Error(obsoleteDatabase(unknown));
    const outdated = outdatedBy(files, applied);
    if (outdated) throw new Error(outdatedDatabase(outdated));

    for (const { version, name, file, sql } of files.filter((f) => !applied.has(f.version))) {
      await client.query("begin");
      try {
        await client.query(sql);
        await client.query("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [
          version,
          name,
        ]);
        await client.query("insert into supabase_migrations.huellas_oficina (version, sha256) values ($1, $2)", [
          version,
          sha256(sql),
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

type SqlFile = { version: string; name: string; file: string; sql: string };

function sqlFilesInOrder(): SqlFile[] {
  return [
    ...sqlFiles(path.join(ROOT, "compat")).map((f) => ({ ...f, version: `compat_${f.version}` })),
    ...sqlFiles(path.join(ROOT, "migrations")),
  ];
}

const sha256 = (sql: string) => createHash("sha256").update(sql).digest("hex");

/**
 * What this database lacks of the files' schema, if anything: files it applied that have changed
 * since, and files it never applied that come before one it applied here. Only what it applied
 * with a fingerprint is judged.
 */
function outdatedBy(files: SqlFile[], applied: Map<string, string | null>) {
  const changed = files.filter((f) => {
    const huella = applied.get(f.version);
    return huella != null && huella !== sha256(f.sql);
  });
  const skipped = files.filter(
    (f, i) => !applied.has(f.version) && files.slice(i + 1).some((later) => applied.get(later.version) != null),
  );
  return changed.length || skipped.length ? { changed, skipped } : null;
}

const START_EMPTY =
  `Empiece con una base de datos vacía: con la base de datos integrada, detenga el servidor, borre ` +
  `el directorio DATA_DIR/postgres (./data/postgres por defecto) y arranque de nuevo; con ` +
  `DATABASE_URL, use una base de datos nueva.`;

function obsoleteDatabase(versions: string[]) {
  const list =
    versions.length > 3 ? `${versions[0]} … ${versions.at(-1)}, ${versions.length} en total` : versions.join(", ");
  return (
    `La base de datos se creó con migraciones anteriores a la versión base de supabase/migrations ` +
    `(${list}), que ya no existen y no se pueden actualizar. ${START_EMPTY}`
  );
}

function outdatedDatabase({ changed, skipped }: { changed: SqlFile[]; skipped: SqlFile[] }) {
  const list = (files: SqlFile[]) => {
    const names = files.map((f) => path.relative(process.cwd(), f.file));
    return names.length > 3 ? `${names.slice(0, 3).join(", ")} y ${names.length - 3} más` : names.join(", ");
  };
  const why = [
    changed.length === 1 ? `la migración ${list(changed)} cambió después de aplicarse` : null,
    changed.length > 1 ? `las migraciones ${list(changed)} cambiaron después de aplicarse` : null,
    skipped.length === 1 ? `la migración ${list(skipped)} es anterior a otras ya aplicadas y no se aplicó` : null,
    skipped.length > 1
      ? `las migraciones ${list(skipped)} son anteriores a otras ya aplicadas y no se aplicaron`
      : null,
  ].filter(Boolean);
  return (
    `La base de datos no tiene el esquema de esta versión de Oficina: ${why.join("; ")}. Hasta la ` +
    `primera versión publicada las migraciones se reescriben en su sitio (ADR 0016), y una base ya ` +
    `creada no se puede poner al día. ${START_EMPTY}`
  );
}

function sqlFiles(dir: string) {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((name) => {
      const [version, ...rest] = name.replace(/\.sql$/, "").split("_");
      const file = path.join(dir, name);
      // A checkout with Windows line endings is the same migration.
      return { version: version!, name: rest.join("_"), file, sql: readFileSync(file, "utf8").replace(/\r\n/g, "\n") };
    });
}
