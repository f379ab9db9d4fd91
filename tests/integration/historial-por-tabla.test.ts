import type pg from "pg";
import { connect, createUser } from "../support/as-user";
import { createTestDatabase } from "../support/database";

/**
 * Who reads a table's history is said table by table in historial_select
 * (20261226000001_datos_por_necesidad). A table with history that the policy does not name is
 * read by nobody, not by everyone signed in: a new table's changes (a salary, a bank detail) must
 * not show to the whole office because nobody thought of its history.
 */
let client: pg.Client;

beforeAll(async () => {
  client = await connect(await createTestDatabase());
});
afterAll(() => client.end());

describe("el historial, tabla a tabla", () => {
  it("cada tabla con historial (registrar_historial) tiene su regla en historial_select", async () => {
    const { rows: tablas } = await client.query<{ tabla: string }>(`
      select distinct c.relname as tabla
        from pg_trigger t join pg_class c on c.oid = t.tgrelid
       where t.tgfoid = 'interno.registrar_historial()'::regprocedure
       order by 1`);
    const { rows: politica } = await client.query<{ qual: string }>(
      "select qual from pg_policies where schemaname = 'public' and tablename = 'historial' and policyname = 'historial_select'",
    );
    expect(tablas.length).toBeGreaterThan(10);
    expect(politica).toHaveLength(1);
    expect(tablas.map((t) => t.tabla).filter((t) => !politica[0]!.qual.includes(`'${t}'::text`))).toEqual([]);
  });

  it("el de una tabla nueva que la política no nombra no lo ve nadie, ni un administrador", async () => {
    const admin = await createUser(client, { email: "admin-historial@oficina.test", rol: "administrador" });
    const empleado = await createUser(client, { email: "empleado-historial@oficina.test", rol: "empleado" });
    const como = (id: string) =>
      client.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
        JSON.stringify({ sub: id, role: "authenticated" }),
      ]);
    const cuantos = async (tabla: string) =>
      Number((await client.query("select count(*) from public.historial where tabla = $1", [tabla])).rows[0].count);

    await client.query("begin");
    try {
      await client.query(`create table public.prueba_historial (
        id uuid primary key default gen_random_uuid(), nombre text,
        version integer not null default 1, creado_en timestamptz not null default now(),
        actualizado_en timestamptz not null default now())`);
      await client.query("select interno.tabla_con_historial('prueba_historial')");
      await client.query("insert into public.prueba_historial (nombre) values ('sueldo de alguien')");
      await client.query("insert into public.departamentos (nombre, codigo) values ('Historial visible', 'HISTV')");
      // Written: the owner sees both.
      expect(await cuantos("prueba_historial")).toBe(1);
      expect(await cuantos("departamentos")).toBeGreaterThan(0);

      for (const id of [admin, empleado]) {
        await como(id);
        expect(await cuantos("prueba_historial")).toBe(0);
        // A table the policy names still shows to whoever it says.
        expect(await cuantos("departamentos")).toBeGreaterThan(0);
      }
    } finally {
      await client.query("rollback");
    }
  });
});
