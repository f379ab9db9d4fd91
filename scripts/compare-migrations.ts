/**
 * One-off proof for folding the feature migrations' rewrites into the baseline (ADR 0016): migrates
 * one fresh embedded Postgres with the migrations as they were at a commit (default 0ff19f3) and
 * another with today's supabase/, then
 * compares a normalised catalogue of both (tables, columns, constraints, indexes, policies,
 * grants, triggers, views, functions with their volatility, security and grants, comments).
 *
 *   npx tsx scripts/compare-migrations.ts [commit]
 *
 * Exits 1 when anything but a function body differs; bodies that differ are listed by name.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../app/data/embedded.server";
import { migrate } from "../app/data/migrate.server";

const COMMIT = process.argv[2] ?? "0ff19f3";
const SCHEMAS = "('public', 'interno', 'auth', 'storage', 'extensions')";

const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" });

async function applyOld(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const dir of ["supabase/compat", "supabase/migrations"]) {
      const files = git("ls-tree", "--name-only", COMMIT, `${dir}/`)
        .split("\n")
        .filter((f) => f.endsWith(".sql"))
        .sort();
      for (const file of files) {
        await client.query("begin");
        await client.query(git("show", `${COMMIT}:${file}`));
        await client.query("commit");
      }
    }
  } finally {
    await client.end();
  }
}

/** Every line says one fact; function bodies go apart, keyed by signature. */
async function catalogue(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const facts: string[] = [];
  const bodies = new Map<string, string>();
  const q = async (sql: string) => (await client.query(sql)).rows as Record<string, unknown>[];
  // An ACL's items in grant order say nothing: sorted.
  const acl = (r: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [
        k,
        k.endsWith("acl") && typeof v === "string" ? v.replace(/^{|}$/g, "").split(",").sort().join(",") : v,
      ]),
    );
  const add = (kind: string, rows: Record<string, unknown>[]) => {
    for (const r of rows) facts.push(`${kind} ${JSON.stringify(acl(r))}`);
  };
  try {
    add("schema", await q(`select nspname, nspacl::text from pg_namespace where nspname in ${SCHEMAS}`));
    add("extension", await q("select extname, extnamespace::regnamespace::text as schema from pg_extension"));
    add(
      "relation",
      await q(`select n.nspname, c.relname, c.relkind, c.reloptions, c.relrowsecurity, c.relforcerowsecurity,
                      c.relacl::text, obj_description(c.oid, 'pg_class') as comment
                 from pg_class c join pg_namespace n on n.oid = c.relnamespace
                where n.nspname in ${SCHEMAS} and c.relkind in ('r', 'v', 'm', 'S', 'p')`),
    );
    add(
      "column",
      await q(`select c.oid::regclass::text as rel, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) as type,
                      a.attnotnull, pg_get_expr(d.adbin, d.adrelid) as default, a.attgenerated, a.attidentity,
                      a.attacl::text, col_description(c.oid, a.attnum) as comment
                 from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
                 left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
                where n.nspname in ${SCHEMAS} and c.relkind in ('r', 'v', 'p') and a.attnum > 0 and not a.attisdropped`),
    );
    add(
      "constraint",
      await q(`select conrelid::regclass::text as rel, conname, contype, condeferrable, condeferred,
                      pg_get_constraintdef(oid) as def
                 from pg_constraint where connamespace in (select oid from pg_namespace where nspname in ${SCHEMAS})`),
    );
    add(
      "index",
      await q(`select schemaname, tablename, indexname, indexdef from pg_indexes where schemaname in ${SCHEMAS}`),
    );
    add(
      "policy",
      await q(`select schemaname, tablename, policyname, permissive, roles::text, cmd, qual, with_check
                 from pg_policies where schemaname in ${SCHEMAS}`),
    );
    add(
      "trigger",
      await q(`select tgrelid::regclass::text as rel, tgname, tgenabled, pg_get_triggerdef(t.oid) as def
                 from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
                where not tgisinternal and n.nspname in ${SCHEMAS}`),
    );
    add(
      "view",
      await q(`select c.oid::regclass::text as view, pg_get_viewdef(c.oid) as def
                 from pg_class c join pg_namespace n on n.oid = c.relnamespace
                where c.relkind = 'v' and n.nspname in ${SCHEMAS}`),
    );
    const functions =
      await q(`select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as sig,
                                      pg_get_function_arguments(p.oid) as args, pg_get_function_result(p.oid) as result,
                                      l.lanname, p.provolatile, p.prosecdef, p.proconfig, p.proacl::text,
                                      p.proisstrict, p.proleakproof, p.prosrc
                                 from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_language l on l.oid = p.prolang
                                where n.nspname in ${SCHEMAS}`);
    for (const { prosrc, ...f } of functions) {
      facts.push(`function ${JSON.stringify(acl(f))}`);
      bodies.set(String(f.sig), String(prosrc).trim());
    }
    // The two one-row settings tables: their rows are part of the schema.
    add(
      "data",
      await q("select 'interno.ajustes' as t, to_jsonb(a) - 'actualizado_en' as fila from interno.ajustes a"),
    );
    add(
      "data",
      await q(
        "select 'storage.buckets' as t, to_jsonb(b) - 'created_at' - 'updated_at' as fila from storage.buckets b",
      ),
    );
    add("data", await q("select 'interno.cambios' as t, n from interno.cambios"));
  } finally {
    await client.end();
  }
  return { facts: new Set(facts), bodies };
}

async function main() {
  const dir = path.resolve(`.tmp/compare-migrations-${process.pid}`);
  const server = await startEmbeddedPostgres(dir, { fsync: false });
  try {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query("create database antigua");
    await admin.query("create database nueva");
    await admin.end();
    const at = (db: string) => Object.assign(new URL(server.url), { pathname: `/${db}` }).toString();
    await applyOld(at("antigua"));
    await migrate(at("nueva"));
    const old = await catalogue(at("antigua"));
    const now = await catalogue(at("nueva"));

    const onlyOld = [...old.facts].filter((f) => !now.facts.has(f)).sort();
    const onlyNew = [...now.facts].filter((f) => !old.facts.has(f)).sort();
    for (const f of onlyOld) console.log(`- ${f}`);
    for (const f of onlyNew) console.log(`+ ${f}`);
    const bodyDiff = [...old.bodies.keys()].filter((k) => now.bodies.has(k) && now.bodies.get(k) !== old.bodies.get(k));
    const code = (body = "") =>
      body
        .replace(/--[^\n]*/g, "")
        .replace(/\s+/g, " ")
        .trim();
    const commentsOnly = bodyDiff.filter((k) => code(now.bodies.get(k)) === code(old.bodies.get(k)));
    const kinds = (facts: Set<string>) =>
      [...facts].reduce<Record<string, number>>(
        (n, f) => ({ ...n, [f.split(" ")[0]!]: (n[f.split(" ")[0]!] ?? 0) + 1 }),
        {},
      );
    console.log(`\nfacts by kind after: ${JSON.stringify(kinds(now.facts))}`);
    console.log(
      `${old.facts.size} facts before, ${now.facts.size} after; ${onlyOld.length} only before, ${onlyNew.length} only after.`,
    );
    console.log(`Function bodies that differ (${bodyDiff.length}): ${bodyDiff.sort().join(", ") || "none"}`);
    console.log(`... of which only in comments: ${commentsOnly.sort().join(", ") || "none"}`);
    process.exitCode = onlyOld.length + onlyNew.length > 0 ? 1 : 0;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
