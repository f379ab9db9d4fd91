import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Database } from "../../app/data/database";
import { verifyPassword } from "../../app/auth/password.server";
import { createDatabase } from "../../app/data/sql/connection.server";
import { todayISO } from "../../app/lib/dates";
import { validateIban } from "../../app/lib/iban";
import { validateNif } from "../../app/lib/nif";
import { addGastos, DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo, seedIfEmpty } from "../../scripts/seed";
import { PROVEEDOR_DE_PLANTILLA } from "../../scripts/seed/catalog/gastos";
import { createTestDatabase } from "../support/database";

/**
 * The demo data seeded into an empty database (scripts/seed.ts), as build/seed.js does on the
 * server's first start, and the bulk loader behind `npm run seed -- --gastos N`.
 */

let db: Kysely<Database>;
let lines: string[];
let seeded: boolean;
let seconds: number;

async function count(query: ReturnType<typeof sql<{ n: number }>>): Promise<number> {
  const { rows } = await query.execute(db);
  return Number(rows[0]!.n);
}

beforeAll(async () => {
  db = createDatabase(await createTestDatabase(), 2);
  lines = [];
  const start = Date.now();
  seeded = await seedIfEmpty(db, (line) => lines.push(line));
  seconds = (Date.now() - start) / 1000;
  console.info(`seedIfEmpty: ${seconds.toFixed(1)} s`);
}, 60_000);

afterAll(async () => {
  await db?.destroy();
});

describe("seedIfEmpty", () => {
  it("seeds an empty database, logging each step, well under 30 s", () => {
    expect(seeded).toBe(true);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.some((l) => l.includes("3000 gastos"))).toBe(true);
    expect(seconds).toBeLessThan(30);
  });

  it("creates three trips whose approved dietas and kilometraje give the IRPF report its exact totals", async () => {
    expect(await count(sql`select count(*)::int as n from viajes`)).toBe(3);
    expect(await count(sql`select count(*)::int as n from gastos where viaje_id is not null`)).toBe(11);
    // Zaragoza: 650 km at 0,30 (exempt 0,26) and two dietas in Spain; Lisboa: three dietas abroad.
    const { rows } = await sql<{ importe: string; exento: string; sujeto: string; n: number }>`
      select sum(importe)::text as importe, sum(exento_irpf)::text as exento, sum(sujeto_irpf)::text as sujeto,
             count(*)::int as n
        from informe_irpf`.execute(db);
    expect(rows[0]).toEqual({ importe: "535.00", exento: "479.79", sujeto: "55.21", n: 6 });
  });

  it("creates the reference data", async () => {
    const departamentos = await count(sql`select count(*)::int as n from departamentos`);
    expect(departamentos).toBeGreaterThanOrEqual(9);
    expect(departamentos).toBeLessThanOrEqual(12);
    expect(
      await count(sql`select count(*)::int as n from departamentos where departamento_padre_id is not null`),
    ).toBeGreaterThan(5);
    expect(await count(sql`select count(*)::int as n from departamentos where responsable_id is null`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from sucursales`)).toBe(6);
    expect(
      await count(sql`select count(*)::int as n from sucursales where pais = 'ES' and telefono like '+34 %'`),
    ).toBe(6);
    expect(await count(sql`select count(*)::int as n from proveedores`)).toBe(60);
    expect(await count(sql`select count(*)::int as n from proveedores where not activo`)).toBeGreaterThanOrEqual(2);
  });

  it("fills in the company's one row: a razón social, a valid CIF and an address in Spain", async () => {
    const { rows } = await sql<Record<string, string>>`select * from empresa`.execute(db);
    expect(rows).toHaveLength(1);
    const empresa = rows[0]!;
    expect(empresa).toMatchObject({ razon_social: expect.stringMatching(/, S\.L\.$/), pais: "ES", ciudad: "Madrid" });
    expect(validateNif(empresa.nif!, "ES")).toBeNull();
    expect(empresa.nif).toMatch(/^B\d{8}$/);
    expect(empresa.codigo_postal).toMatch(/^\d{5}$/);
    expect(empresa.direccion).toBeTruthy();
  });

  it("adds one active account to pay from, with a valid Spanish IBAN, in the EPC format", async () => {
    const { rows } = await sql<Record<string, unknown>>`select * from cuentas_empresa`.execute(db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ activa: true, formato: "pain.001.001.09", sufijo: "000" });
    expect(rows[0]!.iban).toMatch(/^ES\d{22}$/);
    expect(validateIban(String(rows[0]!.iban))).toBe(true);
  });

  it("gives every proveedor a valid NIF and every IBAN a valid check", async () => {
    const { rows } = await sql<{ nif: string; pais: string; tipo_persona: string; iban: string | null }>`
      select nif, pais, tipo_persona, iban from proveedores_vista`.execute(db);
    for (const p of rows) {
      expect(validateNif(p.nif, p.pais, p.tipo_persona), `${p.pais} ${p.nif}`).toBeNull();
      if (p.iban) expect(validateIban(p.iban), p.iban).toBe(true);
    }
    expect(rows.filter((p) => p.iban).length).toBeGreaterThan(20);
  });

  it("dates each account as given when its person or supplier joined: no remesa flags one as just written", async () => {
    // Written with no one signed in, as every load: dated now, each would be «compruébela antes de pagar».
    expect(
      await count(sql`select count(*)::int as n from historial h
        left join datos_bancarios d on h.tabla = 'datos_bancarios' and d.id = h.registro_id
        left join usuarios u on u.id = d.usuario_id
        left join proveedores p on h.tabla = 'proveedores_pago' and p.id = h.registro_id
       where h.tabla in ('datos_bancarios', 'proveedores_pago')
         and h.creado_en is distinct from coalesce(u.creado_en, p.creado_en)`),
    ).toBe(0);
    // As the demo administrador prepares a remesa of every approved gasto.
    const propuesta = await db.connection().execute(async (conn) => {
      await sql`begin`.execute(conn);
      try {
        await sql`select set_config('role', 'authenticated', true),
                         set_config('request.jwt.claims', json_build_object('sub', u.id, 'role', 'authenticated')::text, true)
                    from usuarios u where u.email = ${DEMO_ACCOUNTS.administrador}`.execute(conn);
        const { rows } = await sql<{ c: { gastos: { iban: string | null; cuenta_reciente: unknown }[] } }>`
          select public.remesa_candidatos(array(select id from gastos where estado = 'aprobado')) as c`.execute(conn);
        return rows[0]!.c.gastos;
      } finally {
        await sql`rollback`.execute(conn);
      }
    });
    expect(propuesta.filter((l) => l.iban).length).toBeGreaterThan(20);
    expect(propuesta.filter((l) => l.cuenta_reciente)).toEqual([]);
  });

  it("creates 40 usuarios with the three demo accounts and their roles", async () => {
    expect(await count(sql`select count(*)::int as n from usuarios`)).toBe(40);
    expect(await count(sql`select count(*)::int as n from auth.users where email_confirmed_at is not null`)).toBe(40);
    const { rows } = await sql<{
      email: string;
      nombre: string;
      rol: string;
      id: string;
      aprobador_id: string | null;
      departamento_id: string;
    }>`
      select email, nombre, rol, id, aprobador_id, departamento_id from usuarios where email like '%@oficina.example'`.execute(
      db,
    );
    const by = (email: string) => rows.find((r) => r.email === email)!;
    const admin = by(DEMO_ACCOUNTS.administrador);
    const aprobador = by(DEMO_ACCOUNTS.aprobador);
    const empleado = by(DEMO_ACCOUNTS.empleado);
    expect([admin.nombre, admin.rol]).toEqual(["Ana", "administrador"]);
    expect([aprobador.nombre, aprobador.rol]).toEqual(["Pablo", "aprobador"]);
    expect([empleado.nombre, empleado.rol]).toEqual(["Elena", "empleado"]);
    expect(empleado.aprobador_id).toBe(aprobador.id);
    const { rows: dep } = await sql<{ responsable_id: string }>`
      select responsable_id from departamentos where id = ${empleado.departamento_id}`.execute(db);
    expect(dep[0]!.responsable_id).toBe(aprobador.id);

    const roles = await sql<{
      rol: string;
      n: number;
    }>`select rol, count(*)::int as n from usuarios group by rol`.execute(db);
    const n = Object.fromEntries(roles.rows.map((r) => [r.rol, r.n]));
    expect(n.administrador).toBe(3);
    expect(n.aprobador).toBeGreaterThanOrEqual(6);
    expect(n.empleado).toBeGreaterThanOrEqual(20);
    expect(await count(sql`select count(*)::int as n from usuarios where not activo`)).toBeGreaterThanOrEqual(2);
    expect(
      await count(sql`select count(*)::int as n from usuarios where departamento_id is null or sucursal_id is null`),
    ).toBe(0);
  });

  it("lets every account sign in with the demo password (one shared hash)", async () => {
    const { rows } = await sql<{ encrypted_password: string }>`
      select encrypted_password from auth.users where email = ${DEMO_ACCOUNTS.empleado}`.execute(db);
    expect(await verifyPassword(DEMO_PASSWORD, rows[0]!.encrypted_password)).toBe(true);
    expect(await verifyPassword("otra-contraseña", rows[0]!.encrypted_password)).toBe(false);
    expect(await count(sql`select count(distinct encrypted_password)::int as n from auth.users`)).toBe(1);
  });

  it("creates 3000 gastos in every estado with folios from the database", async () => {
    expect(await count(sql`select count(*)::int as n from gastos`)).toBe(3000);
    const { rows } = await sql<{
      estado: string;
      n: number;
    }>`select estado, count(*)::int as n from gastos group by estado`.execute(db);
    const n = Object.fromEntries(rows.map((r) => [r.estado, r.n]));
    for (const estado of ["borrador", "pendiente", "aprobado", "rechazado", "pagado"])
      expect(n[estado], estado).toBeGreaterThan(20);
    expect(n.pagado).toBeGreaterThan(n.borrador);

    expect(await count(sql`select count(*)::int as n from gastos where folio !~ '^GAS-\\d{4}-\\d{5,}$'`)).toBe(0);
    // Folio year = year of creado_en, numbered in order of creation, and the counter is consistent.
    expect(
      await count(
        sql`select count(*)::int as n from gastos where substr(folio, 5, 4)::int <> extract(year from creado_en at time zone 'Europe/Madrid')::int`,
      ),
    ).toBe(0);
    const { rows: contador } = await sql<{ anio: number; ultimo: number; n: number }>`
      select c.anio, c.ultimo, (select count(*)::int from gastos g where substr(g.folio, 5, 4)::int = c.anio) as n
      from gastos_folio_contador c`.execute(db);
    for (const c of contador) expect(c.ultimo).toBe(c.n);
  });

  it("keeps every gasto consistent with its estado, its solicitante and the calendar", async () => {
    const today = todayISO();
    const bad = (where: ReturnType<typeof sql>) => count(sql`select count(*)::int as n from gastos g where ${where}`);
    expect(await bad(sql`g.fecha_gasto > ${today}::date or g.fecha_gasto < ${today}::date - 550`)).toBe(0);
    expect(await bad(sql`g.importe_impuestos > g.importe or g.importe <= 0`)).toBe(0);
    expect(await bad(sql`g.estado <> 'borrador' and g.aprobador_id is null`)).toBe(0);
    expect(await bad(sql`g.estado = 'borrador' and g.aprobador_id is not null`)).toBe(0);
    expect(await bad(sql`g.aprobador_id = g.solicitante_id or g.aprobado_por_id = g.solicitante_id`)).toBe(0);
    expect(
      await bad(sql`g.estado in ('aprobado', 'pagado') and (g.aprobado_por_id is null or g.fecha_aprobacion is null)`),
    ).toBe(0);
    expect(
      await bad(
        sql`g.estado not in ('aprobado', 'pagado') and (g.aprobado_por_id is not null or g.fecha_aprobacion is not null)`,
      ),
    ).toBe(0);
    expect(await bad(sql`g.estado = 'rechazado' and g.motivo_rechazo is null`)).toBe(0);
    expect(
      await bad(
        sql`g.estado = 'pagado' and (g.fecha_pago is null or g.referencia_pago is null or g.fecha_pago < g.fecha_gasto or g.fecha_pago > ${today}::date)`,
      ),
    ).toBe(0);
    expect(await bad(sql`g.creado_en > now() or g.fecha_aprobacion > now() or g.fecha_aprobacion < g.creado_en`)).toBe(
      0,
    );
    expect(
      await bad(sql`exists (select 1 from usuarios u where u.id = g.solicitante_id
      and (u.departamento_id <> g.departamento_id or u.sucursal_id <> g.sucursal_id))`),
    ).toBe(0);
    expect(await bad(sql`g.importe::text !~ '^\\d+\\.\\d{2}$'`)).toBe(0);
    // Most have a proveedor; recent ones only active proveedores.
    expect(await bad(sql`g.proveedor_id is not null`)).toBeGreaterThan(2000);
    expect(
      await bad(
        sql`g.fecha_gasto > ${today}::date - 150 and exists (select 1 from proveedores p where p.id = g.proveedor_id and not p.activo)`,
      ),
    ).toBe(0);
    // History: one alta per gasto, dated like the gasto.
    expect(await count(sql`select count(*)::int as n from historial where tabla = 'gastos' and accion = 'alta'`)).toBe(
      3000,
    );
    expect(
      await count(
        sql`select count(*)::int as n from historial h join gastos g on g.id = h.registro_id where h.creado_en <> g.creado_en`,
      ),
    ).toBe(0);
  });

  it("gives each gasto a proveedor that sells what its description says, or none", async () => {
    const { rows } = await sql<{ descripcion: string; nombre: string }>`
      select g.descripcion, p.razon_social || ' ' || coalesce(p.nombre_comercial, '') as nombre
        from gastos g join proveedores p on p.id = g.proveedor_id`.execute(db);
    const mal = rows.filter((g) => {
      const regla = PROVEEDOR_DE_PLANTILLA.find(([d]) => d.test(g.descripcion));
      return regla && !regla[1]?.test(g.nombre);
    });
    expect(mal.slice(0, 5)).toEqual([]);
    // «Taxi aeropuerto» is there, by a taxi company.
    expect(rows.some((g) => g.descripcion.startsWith("Taxi") && /taxi/i.test(g.nombre))).toBe(true);
  });

  it("gives the demo empleado gastos in every estado and the demo aprobador pendientes to approve", async () => {
    const { rows } = await sql<{ estado: string; n: number }>`
      select g.estado, count(*)::int as n from gastos g join usuarios u on u.id = g.solicitante_id
      where u.email = ${DEMO_ACCOUNTS.empleado} group by g.estado`.execute(db);
    const n = Object.fromEntries(rows.map((r) => [r.estado, r.n]));
    for (const estado of ["borrador", "pendiente", "aprobado", "rechazado", "pagado"])
      expect(n[estado], estado).toBeGreaterThanOrEqual(3);

    const pendientes = await sql<{ solicitantes: number; n: number }>`
      select count(distinct g.solicitante_id)::int as solicitantes, count(*)::int as n
      from gastos g join usuarios a on a.id = g.aprobador_id
      where a.email = ${DEMO_ACCOUNTS.aprobador} and g.estado = 'pendiente'`.execute(db);
    expect(pendientes.rows[0]!.n).toBeGreaterThanOrEqual(10);
    expect(pendientes.rows[0]!.solicitantes).toBeGreaterThanOrEqual(3);
  });

  it("seeds the same data again from the same seed, and other data from another", async () => {
    // Ids and text of gastos, people and proveedores; not what depends on the clock: the folios
    // follow the order of creado_en, and today's gastos are never created after «now».
    const fingerprint = async (target: typeof db) => {
      const { rows } = await sql<{ f: string }>`
        select md5(string_agg(x, '|' order by x)) as f from (
          select g.descripcion || g.importe || g.estado || u.email || coalesce(p.nif, '') as x
            from gastos g join usuarios u on u.id = g.solicitante_id left join proveedores p on p.id = g.proveedor_id
          union all select u.id || u.email || u.rol || u.telefono from usuarios u
          union all select p.id || p.nif || p.email || coalesce(p.iban, '') from proveedores p
        ) t`.execute(target);
      return rows[0]!.f;
    };
    const seeded = await fingerprint(db);
    for (const [seed, same] of [
      [undefined, true],
      [7, false],
    ] as const) {
      const other = createDatabase(await createTestDatabase(), 2);
      try {
        await seedDemo(other, { seed });
        expect((await fingerprint(other)) === seeded, `seed ${seed}`).toBe(same);
      } finally {
        await other.destroy();
      }
    }
  }, 60_000);

  it("does nothing the second time", async () => {
    const logged: string[] = [];
    expect(await seedIfEmpty(db, (line) => logged.push(line))).toBe(false);
    expect(logged).toEqual([]);
    expect(await count(sql`select count(*)::int as n from usuarios`)).toBe(40);
    expect(await count(sql`select count(*)::int as n from gastos`)).toBe(3000);
  });
});

describe("addGastos (bulk)", () => {
  beforeAll(async () => {
    await addGastos(db, 1200, { batchSize: 500 }); // fast path: folio and history set-based
    await addGastos(db, 300, { batchSize: 150, fast: false }); // row triggers
  }, 60_000);

  it("adds the gastos with valid, gap-free folios and a consistent per-year counter", async () => {
    expect(await count(sql`select count(*)::int as n from gastos`)).toBe(4500);
    expect(await count(sql`select count(*)::int as n from gastos where folio !~ '^GAS-\\d{4}-\\d{5,}$'`)).toBe(0);
    expect(
      await count(
        sql`select count(*)::int as n from gastos where substr(folio, 5, 4)::int <> extract(year from creado_en at time zone 'Europe/Madrid')::int`,
      ),
    ).toBe(0);
    const { rows } = await sql<{ anio: number; ultimo: number; n: number; max: number }>`
      select c.anio, c.ultimo, count(g.id)::int as n, max(substr(g.folio, 10)::int) as max
      from gastos_folio_contador c left join gastos g on substr(g.folio, 5, 4)::int = c.anio
      group by c.anio, c.ultimo`.execute(db);
    for (const r of rows) expect([r.n, r.max]).toEqual([r.ultimo, r.ultimo]);
  });

  it("writes the same history as the triggers, dated like each gasto, and leaves the triggers on", async () => {
    expect(await count(sql`select count(*)::int as n from historial where tabla = 'gastos' and accion = 'alta'`)).toBe(
      4500,
    );
    expect(
      await count(sql`select count(*)::int as n from historial h join gastos g on g.id = h.registro_id
      where h.tabla = 'gastos' and h.accion = 'alta' and (h.creado_en <> g.creado_en or h.actor_id is not null)`),
    ).toBe(0);
    // registrar_historial itself is the reference (its columns, without the control and derived
    // ones): deleting the gastos, in a transaction rolled back, makes it write each one's baja,
    // which holds the alta's values with antes and despues swapped.
    const comparadas = await db.connection().execute(async (conn) => {
      await sql`begin`.execute(conn);
      try {
        await sql`delete from public.gastos`.execute(conn);
        const { rows } = await sql<{ n: number; distintas: number }>`
          select count(*)::int as n,
                 count(*) filter (where a.cambios <> (
                   select jsonb_object_agg(d.key, jsonb_build_object('antes', null, 'despues', d.value -> 'antes'))
                     from jsonb_each(b.cambios) d))::int as distintas
            from historial a join historial b on b.tabla = 'gastos' and b.registro_id = a.registro_id and b.accion = 'baja'
           where a.tabla = 'gastos' and a.accion = 'alta'`.execute(conn);
        return rows[0]!;
      } finally {
        await sql`rollback`.execute(conn);
      }
    });
    expect(comparadas).toEqual({ n: 4500, distintas: 0 });
    expect(
      await count(
        sql`select count(*)::int as n from pg_trigger where tgrelid = 'public.gastos'::regclass and tgenabled = 'D'`,
      ),
    ).toBe(0);

    // The next gasto still gets its folio from the trigger, right after the bulk ones.
    const { rows } = await sql<{ folio: string; anio: number }>`
      insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id)
      select 'Taxi aeropuerto', current_date, 'viajes_transporte', '30.00', 'efectivo', u.id, u.departamento_id, u.sucursal_id
      from usuarios u where u.email = ${DEMO_ACCOUNTS.empleado}
      returning folio, extract(year from creado_en at time zone 'Europe/Madrid')::int as anio`.execute(db);
    const antes = await count(
      sql`select count(*)::int as n from gastos where substr(folio, 5, 4)::int = ${rows[0]!.anio} and folio <> ${rows[0]!.folio}`,
    );
    const { rows: contador } = await sql<{
      ultimo: number;
    }>`select ultimo from gastos_folio_contador where anio = ${rows[0]!.anio}`.execute(db);
    expect(contador[0]!.ultimo).toBe(antes + 1);
    expect(Number(rows[0]!.folio.slice(9))).toBe(antes + 1);
  });

  it("keeps bulk gastos consistent with their estado and solicitante", async () => {
    const bad = (where: ReturnType<typeof sql>) => count(sql`select count(*)::int as n from gastos g where ${where}`);
    expect(await bad(sql`g.estado <> 'borrador' and g.aprobador_id is null`)).toBe(0);
    expect(await bad(sql`g.aprobador_id = g.solicitante_id or g.aprobado_por_id = g.solicitante_id`)).toBe(0);
    // Inactive proveedores only on old gastos (the bulk loader uses active ones only).
    expect(
      await bad(
        sql`exists (select 1 from proveedores p where p.id = g.proveedor_id and not p.activo) and g.fecha_gasto > current_date - 180`,
      ),
    ).toBe(0);
    expect(
      await bad(sql`exists (select 1 from usuarios u where u.id = g.solicitante_id
      and (not u.activo and g.fecha_gasto > current_date - 200 or u.departamento_id <> g.departamento_id))`),
    ).toBe(0);
  });
});
