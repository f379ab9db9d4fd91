import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { migrate } from "~/data/migrate.server";
import { withDatabase } from "../support/global-setup";

/**
 * supabase/migrations is ONE schema for both backends: it must apply unchanged with the Supabase
 * CLI (`supabase db push`) on a project that already has the auth schema and the API roles, and
 * on plain Postgres after supabase/compat has created those. This file proves the second on a
 * fresh, empty database and checks the first as far as it can be checked here: nothing in
 * supabase/migrations creates what Supabase already has, or uses what only compat creates.
 */
const ROOT = path.resolve("supabase");
const sqlFiles = (dir: string) =>
  readdirSync(path.join(ROOT, dir))
    .filter((f) => f.endsWith(".sql"))
    .sort();
const read = (dir: string, file: string) => readFileSync(path.join(ROOT, dir, file), "utf8");
/** The SQL without comments, lower-case, whitespace collapsed. */
const code = (text: string) =>
  text
    .replace(/--[^\n]*/g, "")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\s+/g, " ")
    .toLowerCase();

/** A new database of its own on the test server, empty (template1, not the migrated template): its URL. */
async function baseVacia(prefijo: string) {
  const server = inject("databaseServerUrl");
  const name = `oficina_${prefijo}_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return withDatabase(server, name);
}

describe("migraciones sobre una base de datos vacía", () => {
  let url: string;
  let client: pg.Client;

  beforeAll(async () => {
    url = await baseVacia("migraciones");
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
  });

  it("compat y después cada migración se aplican, en orden, y quedan registradas como lo hace la CLI de Supabase", async () => {
    const { rows: before } = await client.query("select count(*)::int as n from pg_tables where schemaname = 'public'");
    expect(before[0].n).toBe(0);
    const lines: string[] = [];
    await migrate(url, (line) => lines.push(line));

    const expected = [
      ...sqlFiles("compat").map((f) => `compat_${f.split("_")[0]}`),
      ...sqlFiles("migrations").map((f) => f.split("_")[0]!),
    ];
    const { rows } = await client.query<{ version: string }>(
      "select version from supabase_migrations.schema_migrations order by version",
    );
    expect(rows.map((r) => r.version).sort()).toEqual([...expected].sort());
    expect(lines).toHaveLength(expected.length);
    expect(lines[0]).toMatch(/compat/);

    const { rows: tables } = await client.query<{ tablename: string }>(
      "select tablename from pg_tables where schemaname = 'public' order by 1",
    );
    expect(tables.map((t) => t.tablename)).toEqual(
      expect.arrayContaining(["departamentos", "gastos", "historial", "proveedores", "sucursales", "usuarios"]),
    );
    const { rows: fns } = await client.query(
      "select 1 from pg_proc where proname = 'sumar_lista' and pronamespace = 'public'::regnamespace and not prosecdef",
    );
    expect(fns).toHaveLength(1);
  });

  it("aplicarlas otra vez no hace nada (cada archivo, una vez); cada una dejó la huella de su texto", async () => {
    const lines: string[] = [];
    await migrate(url, (line) => lines.push(line));
    expect(lines).toEqual([]);
    const { rows } = await client.query<{ version: string; sha256: string }>(
      "select version, sha256 from supabase_migrations.huellas_oficina order by version",
    );
    const huella = (dir: string, file: string) =>
      createHash("sha256").update(read(dir, file).replace(/\r\n/g, "\n")).digest("hex");
    expect(rows).toEqual(
      [
        ...sqlFiles("compat").map((f) => ({ version: `compat_${f.split("_")[0]}`, sha256: huella("compat", f) })),
        ...sqlFiles("migrations").map((f) => ({ version: f.split("_")[0]!, sha256: huella("migrations", f) })),
      ].sort((a, b) => (a.version < b.version ? -1 : 1)),
    );
  });

  it("una cuenta confirmada en auth.users tiene su perfil: la primera, administrador; las demás, empleado", async () => {
    await client.query(
      "insert into auth.users (email, raw_user_meta_data, email_confirmed_at) values ('Primera@Example.com', '{\"nombre\":\"Ana\"}', now()), ('segunda@example.com', '{}', now())",
    );
    const { rows } = await client.query("select email, nombre, rol from public.usuarios order by creado_en, email");
    expect(rows).toEqual([
      { email: "primera@example.com", nombre: "Ana", rol: "administrador" },
      { email: "segunda@example.com", nombre: "segunda", rol: "empleado" },
    ]);
  });
});

describe("una base de datos local creada antes de la versión base (ADR 0016)", () => {
  it("se rechaza con un mensaje en español que dice qué hacer, sin aplicar nada", async () => {
    const url = await baseVacia("anterior");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // What the old chain recorded: its compat files and its own migration names.
      await client.query(`create schema supabase_migrations;
        create table supabase_migrations.schema_migrations (version text primary key, name text, statements text[]);
        insert into supabase_migrations.schema_migrations (version, name) values
          ('compat_0001', 'supabase_compat'), ('compat_0003', 'local_tokens_pending'),
          ('20261122000001', 'esquema'), ('20261124000002', 'invitaciones')`);
      const lines: string[] = [];
      await expect(migrate(url, (line) => lines.push(line))).rejects.toThrow(
        /anteriores a la versión base de supabase\/migrations \(20261122000001, 20261124000002, compat_0003\).*borre el directorio DATA_DIR\/postgres/,
      );
      expect(lines).toEqual([]);
      const { rows } = await client.query("select count(*)::int as n from supabase_migrations.schema_migrations");
      expect(rows[0].n).toBe(4);
      const { rows: tables } = await client.query(
        "select count(*)::int as n from pg_tables where schemaname = 'public'",
      );
      expect(tables[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });
});

describe("una base de datos a la que le falta algo de supabase/migrations (reescritas en su sitio, ADR 0016)", () => {
  const migraciones = sqlFiles("migrations");
  const version = (file: string) => file.split("_")[0]!;
  let url: string;
  let client: pg.Client;
  const registradas = async () =>
    (await client.query<{ n: number }>("select count(*)::int as n from supabase_migrations.schema_migrations")).rows[0]!
      .n;

  beforeAll(async () => {
    url = await baseVacia("reescritas");
    client = new pg.Client({ connectionString: url });
    await client.connect();
    await migrate(url);
  });
  afterAll(async () => {
    await client?.end();
  });

  /** Forgets that `file` was applied (as if it were new); the function puts it back as it was. */
  async function olvidar(file: string) {
    const [m, h] = await Promise.all(
      ["schema_migrations", "huellas_oficina"].map(
        async (tabla) =>
          (
            await client.query(`delete from supabase_migrations.${tabla} where version = $1 returning *`, [
              version(file),
            ])
          ).rows[0],
      ),
    );
    return async () => {
      await client.query("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [
        m.version,
        m.name,
      ]);
      await client.query("insert into supabase_migrations.huellas_oficina (version, sha256) values ($1, $2)", [
        h.version,
        h.sha256,
      ]);
    };
  }

  it("una que cambió después de aplicarse: se rechaza con un mensaje que la nombra y dice qué hacer, sin aplicar nada", async () => {
    const cambiada = migraciones[3]!;
    const { rows } = await client.query<{ sha256: string }>(
      "select sha256 from supabase_migrations.huellas_oficina where version = $1",
      [version(cambiada)],
    );
    await client.query("update supabase_migrations.huellas_oficina set sha256 = repeat('0', 64) where version = $1", [
      version(cambiada),
    ]);
    // The newest one pending, as a new file would be: it must stay unapplied.
    const devolver = await olvidar(migraciones.at(-1)!);
    const antes = await registradas();
    const lines: string[] = [];
    await expect(migrate(url, (line) => lines.push(line))).rejects.toThrow(
      new RegExp(
        `no tiene el esquema de esta versión de Oficina: la migración supabase/migrations/${cambiada} cambió después de aplicarse\\..*borre el directorio DATA_DIR/postgres`,
      ),
    );
    expect(lines).toEqual([]);
    expect(await registradas()).toBe(antes);
    await devolver();
    await client.query("update supabase_migrations.huellas_oficina set sha256 = $2 where version = $1", [
      version(cambiada),
      rows[0]!.sha256,
    ]);
    await migrate(url);
  });

  it("una anterior a otras ya aplicadas que no se aplicó: se rechaza igual, sin aplicar nada", async () => {
    const saltada = migraciones[1]!;
    const devolver = await olvidar(saltada);
    const antes = await registradas();
    const lines: string[] = [];
    await expect(migrate(url, (line) => lines.push(line))).rejects.toThrow(
      `la migración supabase/migrations/${saltada} es anterior a otras ya aplicadas y no se aplicó.`,
    );
    expect(lines).toEqual([]);
    expect(await registradas()).toBe(antes);
    await devolver();
  });

  it("una base sin huellas (la migró la CLI de Supabase, o se creó antes de ellas) no se juzga", async () => {
    await client.query("truncate supabase_migrations.huellas_oficina");
    const lines: string[] = [];
    await migrate(url, (line) => lines.push(line));
    expect(lines).toEqual([]);
  });
});

describe("supabase/migrations no crea lo que Supabase ya tiene", () => {
  const migrations = sqlFiles("migrations").map((f) => ({ file: f, sql: code(read("migrations", f)) }));

  it("los nombres de archivo son los que espera `supabase db push` (<14 dígitos>_<nombre>.sql)", () => {
    expect(migrations.length).toBeGreaterThan(0);
    for (const { file } of migrations) expect(file).toMatch(/^\d{14}_[a-z0-9_]+\.sql$/);
  });

  const forbidden: [string, RegExp][] = [
    ["create schema auth", /create schema (if not exists )?"?auth"?\b/],
    ["create schema extensions", /create schema (if not exists )?"?extensions"?\b/],
    [
      "create role anon|authenticated|service_role",
      /create role (if not exists )?"?(anon|authenticated|service_role)"?\b/,
    ],
    ["create function auth.*", /create (or replace )?function "?auth"?\./],
    ["create table/view/type auth.*", /create (table|view|type|sequence|index)( if not exists)? "?auth"?\./],
    ["alter/drop de objetos de auth", /(alter|drop) (table|function|view|type|schema)( if exists)? "?auth"?\b/],
    [
      "objetos que solo crea compat (auth.local_*, auth.normalizar_usuario)",
      /auth\.(local_sessions|local_tokens|normalizar_usuario)/,
    ],
  ];

  for (const [label, pattern] of forbidden) {
    it(`ninguna migración: ${label}`, () => {
      const offenders = migrations.filter((m) => pattern.test(m.sql)).map((m) => m.file);
      expect(offenders).toEqual([]);
    });
  }

  it("lo que Supabase ya tiene está en compat, que solo se aplica en PostgreSQL normal", () => {
    const compat = sqlFiles("compat")
      .map((f) => code(read("compat", f)))
      .join("\n");
    expect(compat).toMatch(/create schema if not exists auth/);
    for (const role of ["anon", "authenticated", "service_role"])
      expect(compat).toMatch(new RegExp(`create role ${role}\\b`));
    for (const fn of ["uid", "role", "email", "jwt"])
      expect(compat).toMatch(new RegExp(`create or replace function auth\\.${fn}\\(\\)`));
    expect(compat).toMatch(/create table if not exists auth\.users/);
  });

  it("las comprobaciones detectan lo prohibido (no pasan por no mirar)", () => {
    const bad = code(
      "-- comentario: create schema auth\ncreate schema if not exists auth; create or replace function auth.uid() returns uuid; CREATE ROLE anon;",
    );
    expect(forbidden.filter(([, p]) => p.test(bad)).map(([l]) => l)).toEqual([
      "create schema auth",
      "create role anon|authenticated|service_role",
      "create function auth.*",
    ]);
    expect(forbidden.some(([, p]) => p.test(code("-- create schema auth\nselect 1")))).toBe(false);
  });
});
