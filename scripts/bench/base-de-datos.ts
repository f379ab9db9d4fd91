/**
 * The database of `npm run bench`: an embedded PostgreSQL with pg_stat_statements, loaded with the
 * demo records and synthetic gastos, and the statements a screen's requests run.
 */
import { existsSync, chmodSync } from "node:fs";
import { sql, type Kysely } from "kysely";
import { alTerminar, log } from "./ejecucion";
import { postmasterDe } from "./proc";
import type { Database } from "../../app/data/database";
import { startEmbeddedPostgres } from "../../app/data/embedded.server";
import { migrate } from "../../app/data/migrate.server";
import { createDatabase } from "../../app/data/sql/connection.server";
import { addGastos, seedIfEmpty } from "../seed";

/** Starts (or reuses) the database under `dir`, migrated and with the demo records; stopped when the run ends. */
export async function arrancarBase(dir: string) {
  if (existsSync(dir)) chmodSync(dir, 0o755);
  const embebida = await startEmbeddedPostgres(dir, {
    settings: [
      "shared_preload_libraries=pg_stat_statements",
      "pg_stat_statements.track=top",
      "pg_stat_statements.track_utility=on",
      "pg_stat_statements.track_planning=on",
    ],
  });
  const postmaster = postmasterDe(dir);
  alTerminar(async () => {
    log(`deteniendo PostgreSQL (pid ${postmaster})`);
    await embebida.stop();
  });
  await migrate(embebida.url, () => {});
  const db = createDatabase(embebida.url, 2);
  alTerminar(() => db.destroy());
  await sql`create schema if not exists bench`.execute(db);
  await sql`create extension if not exists pg_stat_statements schema bench`.execute(db);
  await seedIfEmpty(db, () => {});
  return { embebida, db, postmaster };
}

/** All the gastos there are (synthetic, the demo's and those the create screens added). */
export async function contarGastos(db: Kysely<Database>) {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.gastos`.execute(db);
  return rows[0]!.n;
}

/**
 * Removes the gastos earlier runs' create screen added to a reused database (--datos), with their
 * history: thousands per run, all of one requester and dated today, which made the create
 * screen's duplicate check (same requester, date, amount and supplier) read them all on later
 * runs — a reused database would no longer measure what a fresh one does.
 */
export async function quitarGastosDePrueba(db: Kysely<Database>) {
  const { rows } = await sql<{
    id: string;
  }>`delete from public.gastos where descripcion like 'Gasto de prueba de %' returning id`.execute(db);
  if (!rows.length) return;
  await sql`delete from public.historial where tabla = 'gastos' and registro_id = any(${rows.map((r) => r.id)}::uuid[])`.execute(
    db,
  );
  await sql`vacuum analyze public.gastos`.execute(db);
  log(`${rows.length} gastos de ejecuciones anteriores de «crear» quitados`);
}

/** Loads synthetic gastos until there are `objetivo` of them besides the demo's, fast (no fsync while loading). */
export async function cargarHasta(db: Kysely<Database>, objetivo: number, demo: number) {
  const faltan = objetivo + demo - (await contarGastos(db));
  if (faltan <= 0) return;
  const t0 = Date.now();
  await sql`alter system set fsync = off`.execute(db);
  await sql`alter system set synchronous_commit = off`.execute(db);
  await sql`alter system set full_page_writes = off`.execute(db);
  await sql`select pg_reload_conf()`.execute(db);
  try {
    await addGastos(db, faltan, { log: (l) => log(l) });
  } finally {
    await sql`alter system reset fsync`.execute(db);
    await sql`alter system reset synchronous_commit`.execute(db);
    await sql`alter system reset full_page_writes`.execute(db);
    await sql`select pg_reload_conf()`.execute(db);
    await sql`checkpoint`.execute(db);
  }
  // A database in use is vacuumed by autovacuum; measure it in that steady state.
  await sql`vacuum analyze`.execute(db);
  log(`${faltan.toLocaleString("es-ES")} gastos cargados en ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

export type Sentencias = {
  total: number;
  consultas: number;
  transaccion: number;
  rls: number;
  /** Time PostgreSQL spent planning and executing them, per request (ms). */
  msPlan: number;
  msEjecucion: number;
  detalle: { query: string; calls: number; msPlan: number; msEjecucion: number }[];
};

/** Statements per request from pg_stat_statements over `n` requests made by `hacer` one after another. */
export async function sentenciasPorPeticion(
  db: Kysely<Database>,
  n: number,
  hacer: (i: number) => Promise<void>,
): Promise<Sentencias> {
  await sql`select bench.pg_stat_statements_reset()`.execute(db);
  for (let i = 0; i < n; i++) await hacer(i);
  const { rows } = await sql<{ query: string; calls: number; plan: number; exec: number }>`
    select query, calls::int as calls, total_plan_time::float8 as plan, total_exec_time::float8 as exec from bench.pg_stat_statements
     where dbid = (select oid from pg_database where datname = current_database()) and query not ilike '%pg_stat_statements%'
     order by calls desc`.execute(db);
  // A leading comment (the adapter marks some statements: prepared.server.ts) does not change what a statement is.
  const tipo = (q: string) =>
    /^\s*(\/\*.*?\*\/\s*)?(begin|commit|rollback|start transaction)\b/is.test(q)
      ? "transaccion"
      : /set_config\('role'|^\s*(\/\*.*?\*\/\s*)?reset (role|request\.jwt\.claims)\b/is.test(q)
        ? "rls"
        : "consultas";
  const suma = (t: string) => rows.filter((r) => tipo(r.query) === t).reduce((a, r) => a + r.calls, 0) / n;
  const redondo = (x: number) => Math.round(x * 10) / 10;
  const centesimas = (x: number) => Math.round(x * 100) / 100;
  return {
    total: redondo(rows.reduce((a, r) => a + r.calls, 0) / n),
    consultas: redondo(suma("consultas")),
    transaccion: redondo(suma("transaccion")),
    rls: redondo(suma("rls")),
    msPlan: centesimas(rows.reduce((a, r) => a + r.plan, 0) / n),
    msEjecucion: centesimas(rows.reduce((a, r) => a + r.exec, 0) / n),
    detalle: rows.map((r) => ({
      query: r.query.replace(/\s+/g, " ").slice(0, 400),
      calls: redondo(r.calls / n),
      msPlan: centesimas(r.plan / n),
      msEjecucion: centesimas(r.exec / n),
    })),
  };
}
