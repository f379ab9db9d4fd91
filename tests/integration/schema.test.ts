import type pg from "pg";
import { createTestDatabase } from "../support/database";
import { addDaysISO, todayISO } from "~/lib/dates";
import { asUser, connect, createUser, pgError } from "../support/as-user";

/**
 * The schema in supabase/compat + supabase/migrations, as applied to the test template:
 * tables, views, folio, version, history, hierarchy, uniqueness and account → profile.
 * Everything here runs as the owner unless it goes through asUser (role authenticated).
 */

let db: pg.Client;
let admin: string;
let empleado: string;
let departamento: string;
let sucursal: string;

async function insertDepartamento(nombre: string, codigo: string, extra: Record<string, unknown> = {}) {
  const cols = ["nombre", "codigo", ...Object.keys(extra)];
  const params = [nombre, codigo, ...Object.values(extra)];
  const { rows } = await db.query(
    `insert into departamentos (${cols.join(", ")}) values (${cols.map((_, i) => `$${i + 1}`).join(", ")}) returning *`,
    params,
  );
  return rows[0];
}

async function insertGasto(extra: Record<string, unknown> = {}) {
  const values: Record<string, unknown> = {
    descripcion: "Taxi al aeropuerto",
    fecha_gasto: new Date().toISOString().slice(0, 10),
    categoria: "viajes_transporte",
    importe: "42.50",
    metodo_pago: "tarjeta_corporativa",
    solicitante_id: empleado,
    departamento_id: departamento,
    sucursal_id: sucursal,
    ...extra,
  };
  const cols = Object.keys(values);
  const { rows } = await db.query(
    `insert into gastos (${cols.join(", ")}) values (${cols.map((_, i) => `$${i + 1}`).join(", ")}) returning *`,
    Object.values(values),
  );
  return rows[0];
}

beforeAll(async () => {
  db = await connect(await createTestDatabase());
  admin = await createUser(db, { email: "ana@example.com", nombre: "Ana", apellidos: "Pérez" });
  empleado = await createUser(db, { email: "eva@example.com", nombre: "Eva" });
  departamento = (await insertDepartamento("Ventas", "VEN")).id;
  const { rows } = await db.query(
    "insert into sucursales (nombre, codigo, direccion, ciudad, pais) values ('Madrid', 'MAD', 'Gran Vía 1', 'Madrid', 'ES') returning id",
  );
  sucursal = rows[0].id;
});

afterAll(async () => {
  await db?.end();
});

describe("objetos del esquema", () => {
  it("crea todas las tablas y vistas de la aplicación", async () => {
    const { rows } = await db.query<{ table_name: string; table_type: string }>(
      "select table_name, table_type from information_schema.tables where table_schema = 'public' order by table_name",
    );
    const tables = rows.filter((r) => r.table_type === "BASE TABLE").map((r) => r.table_name);
    const views = rows.filter((r) => r.table_type === "VIEW").map((r) => r.table_name);
    expect(tables).toEqual(
      expect.arrayContaining([
        ...["departamentos", "sucursales", "proveedores", "usuarios", "gastos", "historial"],
        ...["empresa", "tipos_iva", "categorias_fiscales"],
        ...["datos_bancarios", "cuentas_empresa", "remesas", "remesa_gastos"],
        "politicas_gasto",
        ...["viajes", "limites_exentos_irpf"],
      ]),
    );
    expect(views.sort()).toEqual([
      "departamentos_vista",
      "gastos_vista",
      "historial_vista",
      "informe_irpf",
      "libro_facturas_recibidas",
      "politicas_gasto_vista",
      "proveedores_vista",
      "remesas_vista",
      "sucursales_vista",
      "usuarios_vista",
      "viajes_opciones",
      "viajes_vista",
    ]);
  });

  it("tiene las columnas comunes en cada tabla de entidad", async () => {
    const REMESAS = ["datos_bancarios", "cuentas_empresa", "remesas"];
    for (const table of ["departamentos", "sucursales", "proveedores", "usuarios", "gastos", ...REMESAS]) {
      const { rows } = await db.query(
        `select column_name, data_type, is_nullable, column_default from information_schema.columns
         where table_schema = 'public' and table_name = $1 and column_name in ('id','creado_en','actualizado_en','version')
         order by column_name`,
        [table],
      );
      expect(rows.map((r) => [r.column_name, r.data_type, r.is_nullable])).toEqual([
        ["actualizado_en", "timestamp with time zone", "NO"],
        ["creado_en", "timestamp with time zone", "NO"],
        ["id", "uuid", "NO"],
        ["version", "integer", "NO"],
      ]);
    }
  });

  it("las vistas de lista usan security_invoker y añaden los nombres de las claves foráneas", async () => {
    const { rows } = await db.query<{ relname: string; reloptions: string[] | null }>(
      "select relname, reloptions from pg_class where relkind = 'v' and relnamespace = 'public'::regnamespace",
    );
    for (const row of rows) expect(row.reloptions).toContain("security_invoker=true");

    const { rows: cols } = await db.query<{ column_name: string }>(
      "select column_name from information_schema.columns where table_schema = 'public' and table_name = 'gastos_vista'",
    );
    expect(cols.map((c) => c.column_name)).toEqual(
      expect.arrayContaining([
        "folio",
        "estado",
        "importe",
        "version",
        "proveedor_nombre",
        "solicitante_nombre",
        "departamento_nombre",
        "sucursal_nombre",
        "aprobador_nombre",
        "aprobado_por_nombre",
      ]),
    );
    const g = await insertGasto();
    const { rows: vista } = await db.query("select * from gastos_vista where id = $1", [g.id]);
    expect(vista[0]).toMatchObject({
      solicitante_nombre: "Eva",
      departamento_nombre: "Ventas",
      sucursal_nombre: "Madrid",
      aprobador_nombre: null,
    });
    const { rows: u } = await db.query("select nombre_completo from usuarios_vista where id = $1", [admin]);
    expect(u[0].nombre_completo).toBe("Ana Pérez");
  });

  it("dinero en numeric(14,2)", async () => {
    const { rows } = await db.query(
      `select table_name, column_name, numeric_precision, numeric_scale from information_schema.columns
       where table_schema = 'public' and column_name in ('importe', 'importe_impuestos', 'presupuesto_mensual')
         and table_name in ('gastos', 'departamentos')`,
    );
    expect(rows).toHaveLength(3);
    for (const r of rows) expect([r.numeric_precision, r.numeric_scale]).toEqual([14, 2]);
  });
});

describe("compatibilidad con Supabase (supabase/compat)", () => {
  it("auth.uid(), auth.role() y auth.jwt() leen los claims como en Supabase, con el respaldo heredado", async () => {
    await db.query("begin");
    try {
      const none = await db.query("select auth.uid() as uid, auth.role() as role, auth.jwt() as jwt");
      expect(none.rows[0]).toEqual({ uid: null, role: null, jwt: null });
      await db.query("select set_config('request.jwt.claims', $1, true)", [
        JSON.stringify({ sub: admin, role: "authenticated", email: "ana@example.com" }),
      ]);
      const { rows } = await db.query(
        "select auth.uid() as uid, auth.role() as role, auth.email() as email, auth.jwt() ->> 'sub' as sub",
      );
      expect(rows[0]).toEqual({ uid: admin, role: "authenticated", email: "ana@example.com", sub: admin });
      await db.query("select set_config('request.jwt.claim.sub', $1, true)", [empleado]);
      expect((await db.query("select auth.uid() as uid")).rows[0].uid).toBe(empleado);
    } finally {
      await db.query("rollback");
    }
  });

  it("roles de la API sin login; service_role salta la RLS; authenticated no toca auth.*", async () => {
    const { rows } = await db.query(
      "select rolname, rolcanlogin, rolbypassrls from pg_roles where rolname in ('anon', 'authenticated', 'service_role') order by rolname",
    );
    expect(rows).toEqual([
      { rolname: "anon", rolcanlogin: false, rolbypassrls: false },
      { rolname: "authenticated", rolcanlogin: false, rolbypassrls: false },
      { rolname: "service_role", rolcanlogin: false, rolbypassrls: true },
    ]);
    const { rows: privs } = await db.query(
      `select table_name, privilege_type from information_schema.role_table_grants
       where table_schema = 'auth' and grantee in ('anon', 'authenticated', 'PUBLIC')`,
    );
    expect(privs).toEqual([]);
  });

  it("auth.users guarda el correo en minúsculas y las sesiones caen con la cuenta", async () => {
    const { rows } = await db.query(
      "insert into auth.users (email) values ('  Mixto@Example.COM ') returning id, email",
    );
    expect(rows[0].email).toBe("mixto@example.com");
    await db.query(
      "insert into auth.local_sessions (token_hash, user_id, expires_at) values ('h1', $1, now() + interval '1 day')",
      [rows[0].id],
    );
    await db.query(
      "insert into auth.local_tokens (token_hash, user_id, kind, expires_at) values ('t1', $1, 'confirm', now() + interval '1 day')",
      [rows[0].id],
    );
    const kind = await pgError(
      db.query(
        "insert into auth.local_tokens (token_hash, user_id, kind, expires_at) values ('t2', $1, 'otro', now())",
        [rows[0].id],
      ),
    );
    expect(kind.code).toBe("23514");
    await db.query("delete from auth.users where id = $1", [rows[0].id]);
    expect((await db.query("select count(*)::int as n from auth.local_sessions")).rows[0].n).toBe(0);
    expect((await db.query("select count(*)::int as n from auth.local_tokens")).rows[0].n).toBe(0);
  });
});

describe("folio de los gastos", () => {
  it("lo asigna la base de datos como GAS-AAAA-NNNNN, por año de creado_en, ignorando el enviado", async () => {
    const a = await insertGasto({ creado_en: "2024-03-01T10:00:00Z", folio: "MIO-1" });
    const b = await insertGasto({ creado_en: "2024-07-01T10:00:00Z" });
    const c = await insertGasto({ creado_en: "2023-12-15T10:00:00Z" });
    expect(a.folio).toBe("GAS-2024-00001");
    expect(b.folio).toBe("GAS-2024-00002");
    expect(c.folio).toBe("GAS-2023-00001");
    const now = await insertGasto();
    expect(now.folio).toMatch(new RegExp(`^GAS-${todayISO().slice(0, 4)}-\\d{5}$`));
  });

  it("no cambia al actualizar", async () => {
    const g = await insertGasto();
    const { rows } = await db.query(
      "update gastos set folio = 'X', descripcion = 'Otro taxi' where id = $1 returning folio",
      [g.id],
    );
    expect(rows[0].folio).toBe(g.folio);
  });
});

describe("versión y actualizado_en", () => {
  it("cada actualización suma 1 a version y renueva actualizado_en", async () => {
    const d = await insertDepartamento("Compras", "COM");
    expect(d.version).toBe(1);
    // Compared in the database, to the microsecond (a Date keeps milliseconds).
    const { rows } = await db.query(
      `with antes as (select actualizado_en from departamentos where id = $1)
       update departamentos set notas = 'x' where id = $1 and version = $2
       returning version, departamentos.actualizado_en > (select actualizado_en from antes) as renovado`,
      [d.id, 1],
    );
    expect(rows[0].version).toBe(2);
    expect(rows[0].renovado).toBe(true);
    const stale = await db.query("update departamentos set notas = 'y' where id = $1 and version = $2", [d.id, 1]);
    expect(stale.rowCount).toBe(0);
  });
});

describe("historial", () => {
  it("registra alta, modificación (solo campos cambiados, con actor) y baja", async () => {
    const d = await insertDepartamento("Marketing", "MKT", { centro_costo: "CC1" });
    await asUser(db, admin, (q) =>
      q("update departamentos set nombre = 'Marketing y Comunicación', centro_costo = 'CC1' where id = $1", [d.id]),
    );
    await asUser(db, admin, (q) => q("update departamentos set notas = notas where id = $1", [d.id]));
    await asUser(db, admin, (q) => q("delete from departamentos where id = $1", [d.id]));

    const { rows } = await db.query(
      "select accion, actor_id, cambios from historial where tabla = 'departamentos' and registro_id = $1 order by id",
      [d.id],
    );
    expect(rows.map((r) => r.accion)).toEqual(["alta", "modificacion", "baja"]);
    expect(rows[0].actor_id).toBeNull();
    expect(rows[0].cambios).toEqual({
      nombre: { antes: null, despues: "Marketing" },
      codigo: { antes: null, despues: "MKT" },
      centro_costo: { antes: null, despues: "CC1" },
      activo: { antes: null, despues: true },
    });
    expect(rows[1].actor_id).toBe(admin);
    expect(rows[1].cambios).toEqual({ nombre: { antes: "Marketing", despues: "Marketing y Comunicación" } });
    expect(rows[2].actor_id).toBe(admin);
    expect(rows[2].cambios.nombre).toEqual({ antes: "Marketing y Comunicación", despues: null });

    const { rows: vista } = await asUser(db, admin, (q) =>
      q("select actor_nombre from historial_vista where registro_id = $1 and accion = 'modificacion'", [d.id]),
    );
    expect(vista[0].actor_nombre).toBe("Ana Pérez");
  });

  it("no se puede escribir ni borrar como usuario", async () => {
    const err = await pgError(
      asUser(db, admin, (q) =>
        q("insert into historial (tabla, registro_id, accion) values ('x', gen_random_uuid(), 'alta')"),
      ),
    );
    expect(err.code).toBe("42501");
    const del = await pgError(asUser(db, admin, (q) => q("delete from historial")));
    expect(del.code).toBe("42501");
  });
});

describe("restricciones", () => {
  it("rechaza ciclos en la jerarquía de departamentos con OFINV", async () => {
    const a = await insertDepartamento("Dirección", "DIR");
    const b = await insertDepartamento("Finanzas", "FIN", { departamento_padre_id: a.id });
    const c = await insertDepartamento("Tesorería", "TES", { departamento_padre_id: b.id });
    const err = await pgError(
      db.query("update departamentos set departamento_padre_id = $1 where id = $2", [c.id, a.id]),
    );
    expect(err.code).toBe("OFINV");
    expect(err.detail).toBe("departamento_padre_id");
    const self = await pgError(db.query("update departamentos set departamento_padre_id = id where id = $1", [a.id]));
    expect(self.code).toBe("OFINV");
    expect(self.detail).toBe("departamento_padre_id");
    const { rows } = await db.query("select departamento_padre_id from departamentos where id = $1", [a.id]);
    expect(rows[0].departamento_padre_id).toBeNull();
    // A legitimate move is still fine.
    await db.query("update departamentos set departamento_padre_id = $1 where id = $2", [a.id, c.id]);
  });

  it("nombre único sin distinguir mayúsculas (23505, departamentos_nombre_key); código en mayúsculas y único", async () => {
    await insertDepartamento("Logística", "LOG");
    const err = await pgError(insertDepartamento("LOGÍSTICA", "LOG2"));
    expect(err.code).toBe("23505");
    expect(err.constraint).toBe("departamentos_nombre_key");
    const cod = await pgError(insertDepartamento("Logística 2", "log"));
    expect(cod.code).toBe("23505");
    expect(cod.constraint).toBe("departamentos_codigo_key");
    const bad = await pgError(insertDepartamento("Logística 3", "L_3"));
    expect(bad.code).toBe("23514");
    expect(bad.constraint).toBe("departamentos_codigo_check");
  });

  it("proveedores: (pais, nif) único como proveedores_nif_key", async () => {
    const sql =
      "insert into proveedores (razon_social, tipo_persona, pais, nif, categoria) values ($1, 'empresa', $2, $3, 'tecnologia')";
    await db.query(sql, ["Acme SL", "ES", "B12345678"]);
    await db.query(sql, ["Acme MX", "MX", "B12345678"]);
    const err = await pgError(db.query(sql, ["Acme bis", "ES", "b12345678"]));
    expect(err.code).toBe("23505");
    expect(err.constraint).toBe("proveedores_nif_key");
  });

  it("importes y enumeraciones por CHECK con su nombre", async () => {
    expect((await pgError(insertGasto({ importe: "0" }))).constraint).toBe("gastos_importe_check");
    expect((await pgError(insertGasto({ importe: "1000000.01" }))).constraint).toBe("gastos_importe_check");
    expect((await pgError(insertGasto({ importe: "10", importe_impuestos: "11" }))).constraint).toBe(
      "gastos_importe_impuestos_check",
    );
    const cat = await pgError(insertGasto({ categoria: "juergas" }));
    expect([cat.code, cat.constraint]).toEqual(["23514", "gastos_categoria_check"]);
    expect((await pgError(insertGasto({ metodo_pago: "bitcoin" }))).constraint).toBe("gastos_metodo_pago_check");
    await insertGasto({ importe: "1000000.00", importe_impuestos: "1000000.00" });
  });

  it("un registro referenciado no se elimina (23503) y referencias() lo cuenta", async () => {
    const d = await insertDepartamento("Soporte", "SOP");
    await insertGasto({ departamento_id: d.id });
    await insertGasto({ departamento_id: d.id });
    const err = await pgError(db.query("delete from departamentos where id = $1", [d.id]));
    expect(err.code).toBe("23503");
    expect(err.constraint).toBe("gastos_departamento_id_fkey");
    // Called the way both store adapters call an rpc: one jsonb value.
    const { rows } = await asUser(db, admin, (q) =>
      q("select public.referencias(p_tabla => 'departamentos', p_id => $1) as r", [d.id]),
    );
    expect(rows[0].r).toEqual([{ tabla: "gastos", total: 2 }]);
    // Only to whoever may delete it: an empleado may not.
    const { rows: ajeno } = await asUser(db, empleado, (q) =>
      q("select public.referencias('departamentos', $1) as r", [d.id]),
    );
    expect(ajeno[0].r).toEqual([]);
    // Nothing names it: none, and the attempt that found out deleted nothing.
    const libre = await insertDepartamento("Sin uso", "LIBRE");
    const { rows: none } = await asUser(db, admin, (q) =>
      q("select public.referencias('departamentos', $1) as r", [libre.id]),
    );
    expect(none[0].r).toEqual([]);
    expect((await db.query("select 1 from departamentos where id = $1", [libre.id])).rowCount).toBe(1);
    const unknown = await pgError(
      asUser(db, empleado, (q) => q("select public.referencias('auth.users', $1)", [libre.id])),
    );
    expect(unknown.code).toBe("OFINV");
  });

  it("referencias() lee las claves foráneas del catálogo: una tabla nueva cuenta sin tocarla", async () => {
    const d = await insertDepartamento("Catálogo", "CAT");
    // Counted: the foreign keys that refuse a delete, once per row whichever of them points at d;
    // also rows the caller does not see (RLS on, no policy), since they refuse the delete too.
    // Not counted: `on delete cascade` / `set null`, and a table authenticated cannot read.
    await db.query(`
      create table public.prueba_centros (
        id uuid primary key default gen_random_uuid(),
        departamento_id uuid not null references public.departamentos (id),
        otro_id uuid references public.departamentos (id),
        por_codigo text references public.departamentos (codigo),
        cascada_id uuid references public.departamentos (id) on delete cascade,
        nulo_id uuid references public.departamentos (id) on delete set null);
      alter table public.prueba_centros enable row level security;
      grant select on public.prueba_centros to authenticated;
      create table public.prueba_oculta (departamento_id uuid references public.departamentos (id));`);
    try {
      await db.query(
        `insert into prueba_centros (departamento_id, otro_id, por_codigo, cascada_id, nulo_id) values
           ($1, null, null, null, null), ($2, $1, 'CAT', null, null), ($2, null, 'CAT', null, null),
           ($2, null, null, $1, $1)`,
        [d.id, departamento],
      );
      await db.query("insert into prueba_oculta values ($1)", [d.id]);
      await insertGasto({ departamento_id: d.id });
      const contar = async () =>
        (await asUser(db, admin, (q) => q("select public.referencias('departamentos', $1) as r", [d.id]))).rows[0].r;
      expect(await contar()).toEqual([
        { tabla: "gastos", total: 1 },
        { tabla: "prueba_centros", total: 3 },
      ]);
      const { rows: visibles } = await asUser(db, empleado, (q) => q("select count(*)::int as n from prueba_centros"));
      expect(visibles[0].n).toBe(0);
      expect((await pgError(db.query("delete from departamentos where id = $1", [d.id]))).code).toBe("23503");
      await db.query("delete from prueba_centros where departamento_id = $1", [d.id]);
      expect(await contar()).toEqual([
        { tabla: "gastos", total: 1 },
        { tabla: "prueba_centros", total: 2 },
      ]);
    } finally {
      await db.query("drop table public.prueba_centros, public.prueba_oculta");
    }
  });

  it("un usuario no puede ser su propio aprobador (OFINV aprobador_id)", async () => {
    const err = await pgError(db.query("update usuarios set aprobador_id = id where id = $1", [empleado]));
    expect([err.code, err.detail]).toEqual(["OFINV", "aprobador_id"]);
  });

  it("no se puede dejar el sistema sin administrador activo", async () => {
    const demote = await pgError(
      asUser(db, admin, (q) => q("update usuarios set rol = 'empleado' where id = $1", [admin])),
    );
    expect([demote.code, demote.detail]).toEqual(["OFINV", "rol"]);
    const off = await pgError(asUser(db, admin, (q) => q("update usuarios set activo = false where id = $1", [admin])));
    expect([off.code, off.detail]).toEqual(["OFINV", "activo"]);
    const del = await pgError(asUser(db, admin, (q) => q("delete from usuarios where id = $1", [admin])));
    expect([del.code, del.detail]).toEqual(["OFINV", "rol"]);
    const { rows } = await db.query("select rol, activo from usuarios where id = $1", [admin]);
    expect(rows[0]).toEqual({ rol: "administrador", activo: true });
  });
});

describe("cuentas → perfiles", () => {
  it("la primera cuenta es administrador y las siguientes empleado; nombre de los metadatos o del correo", async () => {
    const fresh = await connect(await createTestDatabase());
    try {
      const first = await fresh.query(
        "insert into auth.users (email, raw_user_meta_data, email_confirmed_at) values ('Jefa@Example.com', '{\"nombre\":\"Julia\"}', now()) returning id",
      );
      const second = await fresh.query(
        "insert into auth.users (email, email_confirmed_at) values ('pepe.gomez@example.com', now()) returning id",
      );
      const { rows } = await fresh.query(
        "select id, email, nombre, rol, activo from usuarios order by creado_en, email",
      );
      expect(rows).toEqual([
        { id: first.rows[0].id, email: "jefa@example.com", nombre: "Julia", rol: "administrador", activo: true },
        { id: second.rows[0].id, email: "pepe.gomez@example.com", nombre: "pepe.gomez", rol: "empleado", activo: true },
      ]);
      await fresh.query("update auth.users set email = 'PEPE@example.com' where id = $1", [second.rows[0].id]);
      const { rows: synced } = await fresh.query("select email from usuarios where id = $1", [second.rows[0].id]);
      expect(synced[0].email).toBe("pepe@example.com");
      // Deleting the account removes the profile.
      await fresh.query("delete from auth.users where id = $1", [second.rows[0].id]);
      const { rowCount } = await fresh.query("select 1 from usuarios where id = $1", [second.rows[0].id]);
      expect(rowCount).toBe(0);
    } finally {
      await fresh.end();
    }
  });

  it("dos altas simultáneas en un sistema vacío: exactamente un administrador", async () => {
    const url = await createTestDatabase();
    const clients = await Promise.all([connect(url), connect(url), connect(url)]);
    try {
      await Promise.all(
        clients.map((c, i) =>
          c.query("insert into auth.users (email, email_confirmed_at) values ($1, now())", [`u${i}@example.com`]),
        ),
      );
      const { rows } = await clients[0].query("select rol, count(*)::int as n from usuarios group by rol order by rol");
      expect(rows).toEqual([
        { rol: "administrador", n: 1 },
        { rol: "empleado", n: 2 },
      ]);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });
});

describe("«hoy» es el día de la oficina, sea cual sea la zona horaria de la sesión", () => {
  // Madrid ± 13 h: at any hour, one of the two zones is already on another day than Madrid.
  const ZONAS = ["Pacific/Kiritimati", "Etc/GMT+12"];

  it("cada función que usa current_date o el año de creado_en fija la zona de la oficina o pregunta interno.hoy()", async () => {
    const { rows } = await db.query<{ funcion: string }>(
      `select p.oid::regprocedure::text as funcion
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'interno') and p.prosrc ~* '\\mcurrent_date\\M|extract\\(year from new\\.creado_en\\)'
          and not coalesce('TimeZone=Europe/Madrid' = any (p.proconfig), false)
          and p.oid <> 'interno.hoy()'::regprocedure
        order by 1`,
    );
    expect(rows.map((r) => r.funcion)).toEqual([]);
  });

  it("la fecha del gasto: hasta mañana y hasta 366 días atrás, contados en Madrid", async () => {
    const hoy = todayISO();
    for (const zona of ZONAS) {
      await db.query("select set_config('timezone', $1, false)", [zona]);
      try {
        // The rule is for people (the owner's data loads have no JWT): insert as the employee.
        const comoEva = (dias: number) =>
          asUser(db, empleado, () => insertGasto({ fecha_gasto: addDaysISO(hoy, dias) }), { rollback: true });
        for (const dias of [1, -366]) await comoEva(dias);
        for (const dias of [2, -367]) expect((await pgError(comoEva(dias))).code).toBe("OFINV");
      } finally {
        await db.query("reset timezone");
      }
    }
  });
});
