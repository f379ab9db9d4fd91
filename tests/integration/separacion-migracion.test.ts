import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { withDatabase } from "../support/global-setup";

/**
 * Migration 20261124000001 (separation of duties) on a database that already has gastos made
 * under the old rule: authorship is recovered from the history, and pending gastos assigned to
 * someone the solicitante's rule would not choose (an empleado responsable, or the cost centre's
 * responsable an empleado picked by changing departamento_id) are reassigned, with a note.
 */
const ROOT = path.resolve("supabase");
const MIA = "20261124000001_separacion_funciones.sql";
const files = (dir: string) =>
  readdirSync(path.join(ROOT, dir))
    .filter((f) => f.endsWith(".sql"))
    .sort();

let client: pg.Client;

beforeAll(async () => {
  const server = inject("databaseServerUrl");
  const name = `oficina_separacion_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  client = new pg.Client({ connectionString: withDatabase(server, name) });
  await client.connect();
  // The schema as it was before this migration.
  for (const f of files("compat")) await client.query(readFileSync(path.join(ROOT, "compat", f), "utf8"));
  for (const f of files("migrations").filter((f) => f < MIA))
    await client.query(readFileSync(path.join(ROOT, "migrations", f), "utf8"));
});
afterAll(() => client?.end());

async function usuario(email: string, o: Record<string, unknown> = {}) {
  const { rows } = await client.query(
    "insert into auth.users (email, raw_user_meta_data) values ($1, $2) returning id",
    [email, JSON.stringify({ nombre: email.split("@")[0] })],
  );
  const id = rows[0].id as string;
  for (const [k, v] of Object.entries(o)) await client.query(`update usuarios set ${k} = $2 where id = $1`, [id, v]);
  return id;
}
/** As a signed-in user (role authenticated and their claims), committed. */
async function como<T>(user: string, sql: string, params: unknown[] = []): Promise<T[]> {
  await client.query("begin");
  try {
    await client.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
      JSON.stringify({ sub: user, role: "authenticated" }),
    ]);
    const { rows } = await client.query(sql, params);
    await client.query("commit");
    return rows as T[];
  } catch (error) {
    await client.query("rollback");
    throw error;
  }
}

it("recupera la autoría del historial y reasigna los pendientes mal asignados, con nota", async () => {
  const admin = await usuario("ana@oficina.test"); // the first account: administrador
  const ventas = (
    await client.query("insert into departamentos (nombre, codigo) values ('Ventas', 'VEN') returning id")
  ).rows[0].id;
  const compras = (
    await client.query("insert into departamentos (nombre, codigo) values ('Compras', 'COM') returning id")
  ).rows[0].id;
  const suc = (
    await client.query(
      "insert into sucursales (nombre, codigo, direccion, ciudad) values ('Madrid', 'MAD', 'Gran Vía 1', 'Madrid') returning id",
    )
  ).rows[0].id;
  const carlos = await usuario("carlos@oficina.test", { rol: "aprobador", departamento_id: compras });
  const rosa = await usuario("rosa@oficina.test", { departamento_id: ventas }); // empleado
  const elena = await usuario("elena@oficina.test", { departamento_id: ventas, sucursal_id: suc });
  await client.query("update departamentos set responsable_id = $1 where id = $2", [carlos, compras]);
  await client.query("update departamentos set responsable_id = $1 where id = $2", [rosa, ventas]);
  const hoy = new Date().toISOString().slice(0, 10);
  const alta = (who: string, extra = "", values: unknown[] = []) =>
    como<{ id: string; version: number }>(
      who,
      `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, sucursal_id${extra ? `, ${extra}` : ""})
       values ('Antes de la migración', $1, 'comidas', 10, 'efectivo', $2${values.map((_, i) => `, $${i + 3}`).join("")}) returning id, version`,
      [hoy, suc, ...values],
    ).then((r) => r[0]!);

  // Hole (b) under the old rule: charged to Compras, so Compras' responsable was assigned.
  const porCentro = await alta(elena, "departamento_id", [compras]);
  await como(elena, "select public.enviar_gasto($1, $2)", [porCentro.id, porCentro.version]);
  // Assigned to Ventas' responsable, an empleado.
  const aEmpleada = await alta(elena);
  await como(elena, "select public.enviar_gasto($1, $2)", [aEmpleada.id, aEmpleada.version]);
  // Created by the administrador for Elena; and one Elena created that the administrador edited.
  const deAdmin = await alta(admin, "solicitante_id, departamento_id", [elena, ventas]);
  const editado = await alta(elena);
  await como(admin, "update gastos set descripcion = 'Corregido' where id = $1", [editado.id]);
  await como(elena, "update gastos set notas = 'Visto' where id = $1", [editado.id]);
  const antes = (
    await client.query("select id, aprobador_id from gastos where id = any($1)", [[porCentro.id, aEmpleada.id]])
  ).rows;
  expect(Object.fromEntries(antes.map((r) => [r.id, r.aprobador_id]))).toEqual({
    [porCentro.id]: carlos,
    [aEmpleada.id]: rosa,
  });

  await client.query("begin");
  await client.query(readFileSync(path.join(ROOT, "migrations", MIA), "utf8"));
  await client.query("commit");

  const g = async (id: string) => (await client.query("select * from gastos where id = $1", [id])).rows[0];
  expect(await g(deAdmin.id)).toMatchObject({ creado_por_id: admin, editado_por_id: null });
  expect(await g(editado.id)).toMatchObject({ creado_por_id: elena, editado_por_id: admin });
  for (const id of [porCentro.id, aEmpleada.id]) {
    const ahora = await g(id);
    expect(ahora).toMatchObject({ estado: "pendiente", aprobador_id: admin });
    const { rows } = await client.query(
      "select actor_id, cambios from historial where tabla = 'gastos' and registro_id = $1 order by id desc limit 1",
      [id],
    );
    expect(rows[0].actor_id).toBeNull();
    expect(rows[0].cambios.nota.despues).toMatch(/^Reasignado al aplicar la separación de funciones/);
  }
  // Nothing else was touched: the backfill wrote no history and bumped no version.
  expect((await g(deAdmin.id)).version).toBe(1);
  const { rows: h } = await client.query("select count(*)::int as n from historial where registro_id = $1", [
    deAdmin.id,
  ]);
  expect(h[0].n).toBe(1);
  // The triggers are on again.
  const { rows: t } = await client.query(
    "select count(*)::int as n from pg_trigger where tgrelid = 'public.gastos'::regclass and not tgisinternal and tgenabled = 'D'",
  );
  expect(t[0].n).toBe(0);
});
