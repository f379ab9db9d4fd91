import { chmodSync, mkdtempSync } from "node:fs";
import os from "node:os"; import path from "node:path";
import { sql } from "kysely";
import { startEmbeddedPostgres } from "../../app/data/embedded.server";
import { createDatabase } from "../../app/data/sql/connection.server";
import { arrancarServidor, iniciarSesion } from "./servidor";
import { DEMO_ACCOUNTS } from "../seed/catalog/organization";
const [dir, ruta, como = "administrador"] = process.argv.slice(2);
const tmp = mkdtempSync(path.join(os.tmpdir(), "sent-")); chmodSync(tmp, 0o777);
const pg = await startEmbeddedPostgres("/tmp/b100k", { settings: ["shared_preload_libraries=pg_stat_statements","pg_stat_statements.track=top","pg_stat_statements.track_utility=on","pg_stat_statements.track_planning=on"] });
const db = createDatabase(pg.url, 2);
const s = await arrancarServidor({ nombre: "A", dir: dir!, env: {}, node: [] }, { databaseUrl: pg.url, datos: path.join(tmp, "d") });
try {
  const cookie = await iniciarSesion(s.base, (DEMO_ACCOUNTS as any)[como]);
  for (let i = 0; i < 3; i++) await fetch(s.base + ruta, { headers: { cookie } }).then((r) => r.text());
  await sql`select bench.pg_stat_statements_reset()`.execute(db);
  for (let i = 0; i < 10; i++) await fetch(s.base + ruta, { headers: { cookie } }).then((r) => r.text());
  const { rows } = await sql<any>`select query, calls::int as calls, total_plan_time::float8 as plan, total_exec_time::float8 as exec from bench.pg_stat_statements where query not ilike '%pg_stat_statements%' order by calls desc`.execute(db);
  for (const r of rows) console.log(r.calls, (r.plan/r.calls).toFixed(3), (r.exec/r.calls).toFixed(3), r.query.replace(/\s+/g, " ").slice(0, 600));
} finally { await s.detener(); await db.destroy(); await pg.stop(); }
