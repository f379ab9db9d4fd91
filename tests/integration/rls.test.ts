import type pg from "pg";
import { addDaysISO, addYearsISO } from "~/lib/dates";
import { createTestDatabase } from "../support/database";
import { asUser, connect, createUser, pgError } from "../support/as-user";

/**
 * docs/producto.md «Roles» enforced by the database: every query runs as the role `authenticated` with the user's
 * JWT claims (as the app and PostgREST do). Refused changes must leave the table as it was.
 */

let url: string;
let db: pg.Client;
const u = {} as Record<
  "admin" | "aprobador" | "aprobadorCompras" | "empleado" | "empleado2" | "responsable" | "inactivo" | "jefe",
  string
>;
const dep = {} as Record<"direccion" | "ventas" | "compras", string>;
let sucursal: string;
let proveedor: string;

const hoy = () => new Date().toISOString().slice(0, 10);

async function nuevoGasto(solicitante: string, departamento: string, extra: Record<string, unknown> = {}) {
  const values: Record<string, unknown> = {
    descripcion: "Comida con cliente",
    fecha_gasto: hoy(),
    categoria: "comidas",
    importe: "30.00",
    metodo_pago: "tarjeta_credito",
    solicitante_id: solicitante,
    departamento_id: departamento,
    sucursal_id: sucursal,
    ...extra,
  };
  const cols = Object.keys(values);
  const { rows } = await db.query(
    `insert into gastos (${cols.join(", ")}) values (${cols.map((_, i) => `$${i + 1}`).join(", ")}) returning id, version, folio`,
    Object.values(values),
  );
  return rows[0] as { id: string; version: number; folio: string };
}

async function gasto(id: string) {
  const { rows } = await db.query("select * from gastos where id = $1", [id]);
  return rows[0];
}

type Resultado = { id: string; estado: string; version: number; aviso: string | null };

async function rpc(user: string | null, fn: string, args: unknown[], client: pg.ClientBase = db): Promise<Resultado> {
  const placeholders = args.map((_, i) => `$${i + 1}`).join(", ");
  const { rows } = await asUser(client, user, (q) => q(`select public.${fn}(${placeholders}) as r`, args));
  return rows[0].r;
}

async function count(user: string | null, sql: string, params: unknown[] = []) {
  const { rows } = await asUser(user === null ? db : db, user, (q) => q(sql, params));
  return rows;
}

/** Runs a change as `user` and returns its rowCount (0 when RLS filtered every row). */
async function change(user: string, sql: string, params: unknown[] = []) {
  const result = await asUser(db, user, (q) => q(sql, params));
  return result.rowCount;
}

beforeAll(async () => {
  url = await createTestDatabase();
  db = await connect(url);
  u.admin = await createUser(db, { email: "admin@example.com", nombre: "Ana", apellidos: "Admin" });
  const d = async (nombre: string, codigo: string, extra: Record<string, unknown> = {}) => {
    const cols = ["nombre", "codigo", ...Object.keys(extra)];
    const { rows } = await db.query(
      `insert into departamentos (${cols.join(",")}) values (${cols.map((_, i) => `$${i + 1}`).join(",")}) returning id`,
      [nombre, codigo, ...Object.values(extra)],
    );
    return rows[0].id as string;
  };
  dep.direccion = await d("Dirección", "DIR");
  dep.ventas = await d("Ventas", "VEN", { departamento_padre_id: dep.direccion, presupuesto_mensual: "100.00" });
  dep.compras = await d("Compras", "COM");
  sucursal = (
    await db.query(
      "insert into sucursales (nombre, codigo, direccion, ciudad) values ('Madrid', 'MAD', 'Gran Vía 1', 'Madrid') returning id",
    )
  ).rows[0].id;
  proveedor = (
    await db.query(
      "insert into proveedores (razon_social, tipo_persona, pais, nif, categoria) values ('Restaurante Sol SL', 'empresa', 'ES', 'B11111111', 'otros') returning id",
    )
  ).rows[0].id;

  u.aprobador = await createUser(db, {
    email: "apro@example.com",
    nombre: "Alba",
    rol: "aprobador",
    departamento_id: dep.ventas,
  });
  u.aprobadorCompras = await createUser(db, {
    email: "apro2@example.com",
    nombre: "Bruno",
    rol: "aprobador",
    departamento_id: dep.compras,
  });
  u.empleado = await createUser(db, {
    email: "emp@example.com",
    nombre: "Elena",
    departamento_id: dep.ventas,
    sucursal_id: sucursal,
  });
  u.empleado2 = await createUser(db, { email: "emp2@example.com", nombre: "Emilio", departamento_id: dep.compras });
  // Responsable of Compras and an aprobador by role (an empleado approves nothing, even as responsable).
  u.responsable = await createUser(db, {
    email: "resp@example.com",
    nombre: "Rosa",
    rol: "aprobador",
    departamento_id: dep.compras,
  });
  u.jefe = await createUser(db, { email: "jefe@example.com", nombre: "Jorge", departamento_id: dep.direccion });
  u.inactivo = await createUser(db, {
    email: "off@example.com",
    nombre: "Íñigo",
    departamento_id: dep.ventas,
    activo: false,
  });
  await db.query("update departamentos set responsable_id = $1 where id = $2", [u.responsable, dep.compras]);
});

afterAll(async () => {
  await db?.end();
});

describe("anon", () => {
  it("no tiene ningún privilegio en las tablas, vistas ni funciones", async () => {
    for (const t of [
      "departamentos",
      "sucursales",
      "proveedores",
      "usuarios",
      "gastos",
      "historial",
      "gastos_vista",
      "usuarios_vista",
    ]) {
      const err = await pgError(asUser(db, null, (q) => q(`select count(*) from public.${t}`)));
      expect(err.code, t).toBe("42501");
    }
    const ins = await pgError(
      asUser(db, null, (q) => q("insert into departamentos (nombre, codigo) values ('Anon', 'ANON')")),
    );
    expect(ins.code).toBe("42501");
    const fn = await pgError(asUser(db, null, (q) => q("select public.aprobar_gasto(gen_random_uuid(), 1)")));
    expect(fn.code).toBe("42501");
    const interno = await pgError(asUser(db, null, (q) => q("select interno.es_admin()")));
    expect(interno.code).toBe("42501");
  });

  it("authenticated no ve auth.users ni el contador de folios", async () => {
    for (const t of ["auth.users", "auth.local_sessions", "auth.local_tokens", "public.gastos_folio_contador"]) {
      const err = await pgError(asUser(db, u.admin, (q) => q(`select * from ${t}`)));
      expect(err.code, t).toBe("42501");
    }
  });
});

describe("departamentos y sucursales", () => {
  it("los ve cualquier usuario activo; el inactivo no ve nada", async () => {
    for (const who of [u.admin, u.aprobador, u.empleado]) {
      expect(await count(who, "select id from departamentos")).toHaveLength(3);
      expect(await count(who, "select id from sucursales")).toHaveLength(1);
      expect(await count(who, "select id from departamentos_vista")).toHaveLength(3);
    }
    expect(await count(u.inactivo, "select id from departamentos")).toHaveLength(0);
    expect(await count(u.inactivo, "select id from usuarios")).toHaveLength(0);
    expect(await count(u.inactivo, "select id from gastos")).toHaveLength(0);
  });

  it("solo el administrador crea, edita y elimina", async () => {
    for (const who of [u.aprobador, u.empleado, u.inactivo]) {
      const err = await pgError(
        asUser(db, who, (q) => q("insert into departamentos (nombre, codigo) values ('Nuevo', 'NEW')")),
      );
      expect(err.code).toBe("42501");
      expect(await change(who, "update departamentos set nombre = 'Hackeado' where id = $1", [dep.compras])).toBe(0);
      expect(await change(who, "delete from departamentos where id = $1", [dep.compras])).toBe(0);
      const err2 = await pgError(
        asUser(db, who, (q) =>
          q("insert into sucursales (nombre, codigo, direccion, ciudad) values ('X', 'XX', 'c', 'c')"),
        ),
      );
      expect(err2.code).toBe("42501");
      expect(await change(who, "update sucursales set nombre = 'Hackeada' where id = $1", [sucursal])).toBe(0);
      expect(await change(who, "delete from sucursales where id = $1", [sucursal])).toBe(0);
    }
    const { rows } = await db.query("select nombre, version from departamentos where id = $1", [dep.compras]);
    expect(rows[0]).toEqual({ nombre: "Compras", version: 2 }); // 2: responsable set in beforeAll
    expect((await db.query("select nombre from sucursales where id = $1", [sucursal])).rows[0].nombre).toBe("Madrid");

    const { rows: nuevo } = await asUser(db, u.admin, (q) =>
      q("insert into departamentos (nombre, codigo) values ('Calidad', 'cal') returning id, codigo"),
    );
    expect(nuevo[0].codigo).toBe("CAL");
    expect(await change(u.admin, "update departamentos set notas = 'ok' where id = $1", [nuevo[0].id])).toBe(1);
    expect(await change(u.admin, "delete from departamentos where id = $1", [nuevo[0].id])).toBe(1);
  });

  it("ni el administrador puede escribir version, id ni creado_en", async () => {
    const err = await pgError(
      asUser(db, u.admin, (q) => q("update departamentos set version = 99 where id = $1", [dep.compras])),
    );
    expect(err.code).toBe("42501");
  });
});

describe("proveedores", () => {
  it("empleado solo ve; aprobador crea y edita; solo el administrador elimina", async () => {
    expect(await count(u.empleado, "select id from proveedores")).toHaveLength(1);
    const ins =
      "insert into proveedores (razon_social, tipo_persona, pais, nif, categoria) values ($1, 'empresa', 'ES', $2, 'tecnologia') returning id";
    const err = await pgError(asUser(db, u.empleado, (q) => q(ins, ["Por empleado SL", "B22222222"])));
    expect(err.code).toBe("42501");
    expect(await change(u.empleado, "update proveedores set notas = 'x' where id = $1", [proveedor])).toBe(0);

    const { rows } = await asUser(db, u.aprobador, (q) => q(ins, ["Por aprobador SL", "B33333333"]));
    const nuevo = rows[0].id;
    expect(await change(u.aprobador, "update proveedores set ciudad = 'Lugo' where id = $1", [nuevo])).toBe(1);
    // The IBAN and the notes are the administradores' (proveedores_pago): not even the aprobador writes them.
    const notas = await pgError(
      asUser(db, u.aprobador, (q) => q("update proveedores set notas = 'buen proveedor' where id = $1", [nuevo])),
    );
    expect(notas.code).toBe("42501");
    expect(await change(u.aprobador, "delete from proveedores where id = $1", [nuevo])).toBe(0);
    expect((await db.query("select count(*)::int as n from proveedores where id = $1", [nuevo])).rows[0].n).toBe(1);
    expect(await change(u.admin, "delete from proveedores where id = $1", [nuevo])).toBe(1);
  });
});

describe("altas pendientes de ubicar", () => {
  it("quien se da de alta solo ve sus gastos y su perfil hasta que un administrador le asigna un departamento", async () => {
    // A sign-up, as its confirmation leaves it: the auth.users trigger writes the profile.
    const { rows } = await db.query(
      "insert into auth.users (email, raw_user_meta_data, email_confirmed_at) values ('alta@example.com', '{\"nombre\":\"Alta\"}', now()) returning id",
    );
    const alta = rows[0].id as string;
    expect((await db.query("select rol, alta_propia from usuarios where id = $1", [alta])).rows[0]).toEqual({
      rol: "empleado",
      alta_propia: true,
    });
    const suyo = await nuevoGasto(alta, dep.ventas);
    const ajeno = await nuevoGasto(u.empleado, dep.ventas);
    await db.query("update gastos set estado = 'pendiente', aprobador_id = $2 where id = $1", [ajeno.id, alta]);
    await db.query(
      "insert into historial (tabla, registro_id, accion, cambios) values ('proveedores', $1, 'modificacion', '{}')",
      [proveedor],
    );

    const ve = async (who: string) => ({
      usuarios: (await count(who, "select id from usuarios")).map((r) => r.id),
      usuarios_vista: (await count(who, "select id from usuarios_vista")).length,
      departamentos: (await count(who, "select id from departamentos_vista")).length,
      sucursales: (await count(who, "select id from sucursales_vista")).length,
      proveedores: (await count(who, "select id from proveedores_vista")).length,
      gastos: (await count(who, "select id from gastos_vista order by folio")).map((r) => r.id),
      historial_proveedores: (await count(who, "select id from historial where tabla = 'proveedores'")).length,
    });
    expect(await ve(alta)).toEqual({
      usuarios: [alta],
      usuarios_vista: 1,
      departamentos: 0,
      sucursales: 0,
      proveedores: 0,
      gastos: [suyo.id],
      historial_proveedores: 0,
    });
    // It cannot place itself, nor clear its own mark.
    expect(
      (
        await pgError(
          asUser(db, alta, (q) => q("update usuarios set departamento_id = $2 where id = $1", [alta, dep.ventas])),
        )
      ).code,
    ).toBe("OFPRM");
    expect(
      (await pgError(asUser(db, alta, (q) => q("update usuarios set alta_propia = false where id = $1", [alta])))).code,
    ).toBe("42501");

    // Placed by an administrador: from then on, what any empleado of its department sees.
    expect(await change(u.admin, "update usuarios set departamento_id = $2 where id = $1", [alta, dep.ventas])).toBe(1);
    const ubicada = await ve(alta);
    expect(ubicada.usuarios.length).toBeGreaterThan(1);
    expect(ubicada).toMatchObject({ departamentos: 3, sucursales: 1, proveedores: 1 });
    expect(ubicada.gastos).toContain(ajeno.id);
    expect(ubicada.historial_proveedores).toBeGreaterThan(0);
    await db.query("delete from gastos where id = any($1)", [[suyo.id, ajeno.id]]);
    await db.query("delete from historial where tabla = 'proveedores' and accion = 'modificacion' and cambios = '{}'");
    await db.query("delete from auth.users where id = $1", [alta]);
  });
});

describe("usuarios", () => {
  it("todos los activos ven la lista; nadie crea perfiles", async () => {
    expect(await count(u.empleado, "select id from usuarios")).toHaveLength(8);
    expect(await count(u.empleado, "select id from usuarios_vista")).toHaveLength(8);
    const err = await pgError(
      asUser(db, u.admin, (q) =>
        q("insert into usuarios (id, email, nombre) values (gen_random_uuid(), 'x@example.com', 'X')"),
      ),
    );
    expect(err.code).toBe("42501");
  });

  it("cada uno edita su perfil, pero no su rol, su estado ni su correo", async () => {
    expect(
      await change(u.empleado, "update usuarios set puesto = 'Comercial', telefono = '+34 600 000 000' where id = $1", [
        u.empleado,
      ]),
    ).toBe(1);
    expect(await change(u.empleado, "update usuarios set puesto = 'Pirata' where id = $1", [u.empleado2])).toBe(0);

    const rol = await pgError(
      asUser(db, u.empleado, (q) => q("update usuarios set rol = 'administrador' where id = $1", [u.empleado])),
    );
    expect([rol.code, rol.detail]).toEqual(["OFPRM", "rol"]);
    const activo = await pgError(
      asUser(db, u.aprobador, (q) => q("update usuarios set activo = false where id = $1", [u.aprobador])),
    );
    expect([activo.code, activo.detail]).toEqual(["OFPRM", "activo"]);
    const email = await pgError(
      asUser(db, u.empleado, (q) => q("update usuarios set email = 'otro@example.com' where id = $1", [u.empleado])),
    );
    expect(email.code).toBe("42501");
    const depto = await pgError(
      asUser(db, u.aprobador, (q) =>
        q("update usuarios set departamento_id = $2 where id = $1", [u.aprobador, dep.compras]),
      ),
    );
    expect([depto.code, depto.detail]).toEqual(["OFPRM", "departamento_id"]);
    const apro = await pgError(
      asUser(db, u.empleado, (q) =>
        q("update usuarios set aprobador_id = $2 where id = $1", [u.empleado, u.aprobador]),
      ),
    );
    expect([apro.code, apro.detail]).toEqual(["OFPRM", "aprobador_id"]);
    // Sending the unchanged values back (a full profile form) is fine.
    expect(
      await change(
        u.empleado,
        "update usuarios set departamento_id = departamento_id, aprobador_id = aprobador_id, nombre = 'Elena' where id = $1",
        [u.empleado],
      ),
    ).toBe(1);
    const inactivo = await change(u.inactivo, "update usuarios set puesto = 'x' where id = $1", [u.inactivo]);
    expect(inactivo).toBe(0);

    const { rows } = await db.query("select rol, activo, email, puesto from usuarios where id = $1", [u.empleado]);
    expect(rows[0]).toEqual({ rol: "empleado", activo: true, email: "emp@example.com", puesto: "Comercial" });
  });

  it("el administrador cambia rol y activo de otros y elimina", async () => {
    expect(await change(u.admin, "update usuarios set rol = 'aprobador' where id = $1", [u.jefe])).toBe(1);
    expect(await change(u.admin, "update usuarios set rol = 'empleado' where id = $1", [u.jefe])).toBe(1);
    expect(
      await change(u.admin, "update usuarios set activo = false, departamento_id = $2 where id = $1", [
        u.jefe,
        dep.ventas,
      ]),
    ).toBe(1);
    expect(
      await change(u.admin, "update usuarios set activo = true, departamento_id = $2 where id = $1", [
        u.jefe,
        dep.direccion,
      ]),
    ).toBe(1);
    expect(await change(u.empleado, "delete from usuarios where id = $1", [u.jefe])).toBe(0);
    const extra = await createUser(db, { email: "temporal@example.com" });
    expect(await change(u.aprobador, "delete from usuarios where id = $1", [extra])).toBe(0);
    expect(await change(u.admin, "delete from usuarios where id = $1", [extra])).toBe(1);
  });
});

describe("gastos: visibilidad", () => {
  let deEmpleado: string;
  let deEmpleado2: string;
  let deAprobador: string;

  // Sent (pendiente): what others may see; a borrador is its solicitante's alone (below).
  beforeAll(async () => {
    deEmpleado = (await nuevoGasto(u.empleado, dep.ventas, { estado: "pendiente" })).id;
    deEmpleado2 = (await nuevoGasto(u.empleado2, dep.compras, { estado: "pendiente" })).id;
    deAprobador = (await nuevoGasto(u.aprobador, dep.ventas, { estado: "pendiente" })).id;
  });

  const visibles = async (who: string) => {
    const { rows } = await asUser(db, who, (q) =>
      q("select id from gastos where id = any($1) order by id", [[deEmpleado, deEmpleado2, deAprobador]]),
    );
    return rows.map((r) => r.id).sort();
  };

  it("administrador: todos", async () => {
    expect(await visibles(u.admin)).toEqual([deEmpleado, deEmpleado2, deAprobador].sort());
  });
  it("empleado: solo los suyos", async () => {
    expect(await visibles(u.empleado)).toEqual([deEmpleado]);
    expect(await visibles(u.empleado2)).toEqual([deEmpleado2]);
  });
  it("aprobador: los suyos y los de su departamento", async () => {
    expect(await visibles(u.aprobador)).toEqual([deEmpleado, deAprobador].sort());
    expect(await visibles(u.aprobadorCompras)).toEqual([deEmpleado2]);
  });
  it("responsable del departamento (aunque sea empleado): los de su departamento", async () => {
    expect(await visibles(u.responsable)).toEqual([deEmpleado2]);
    await db.query("update usuarios set rol = 'empleado' where id = $1", [u.responsable]);
    try {
      expect(await visibles(u.responsable)).toEqual([deEmpleado2]);
    } finally {
      await db.query("update usuarios set rol = 'aprobador' where id = $1", [u.responsable]);
    }
  });
  it("un borrador solo lo ven su solicitante y los administradores: ni su aprobador, ni su departamento, ni su responsable", async () => {
    const borrador = (await nuevoGasto(u.empleado2, dep.compras, { aprobador_id: u.responsable })).id;
    const ve = async (who: string) =>
      (await asUser(db, who, (q) => q("select id from gastos_vista where id = $1", [borrador]))).rows.length === 1;
    expect(await ve(u.empleado2)).toBe(true);
    expect(await ve(u.admin)).toBe(true);
    // aprobador_id, the department's aprobador, its responsable: all saw it before.
    for (const who of [u.responsable, u.aprobadorCompras, u.empleado]) expect(await ve(who)).toBe(false);
    // Nor through its history, the indexed search or a workflow function (as if it did not exist).
    const { rows: historia } = await asUser(db, u.aprobadorCompras, (q) =>
      q("select id from historial_vista where registro_id = $1", [borrador]),
    );
    expect(historia).toHaveLength(0);
    const folio = (await gasto(borrador)).folio as string;
    const { rows: busqueda } = await asUser(db, u.aprobadorCompras, (q) =>
      q("select ids, coincidencias from public.buscar_gastos($1, 100)", [folio]),
    );
    expect(busqueda[0]).toMatchObject({ coincidencias: "0" });
    const e = await pgError(rpc(u.responsable, "rechazar_gasto", [borrador, 1, "No"]));
    expect(e.code).toBe("OFNTF");
    // Sent, it is theirs to see; back to borrador (withdrawn), private again.
    await rpc(u.empleado2, "enviar_gasto", [borrador, 1]);
    for (const who of [u.responsable, u.aprobadorCompras]) expect(await ve(who)).toBe(true);
    await rpc(u.empleado2, "retirar_gasto", [borrador, 2]);
    for (const who of [u.responsable, u.aprobadorCompras]) expect(await ve(who)).toBe(false);
  });
  it("inactivo: ninguno, ni siquiera los suyos", async () => {
    const propio = (await nuevoGasto(u.inactivo, dep.ventas)).id;
    const { rows } = await asUser(db, u.inactivo, (q) => q("select id from gastos where id = $1", [propio]));
    expect(rows).toHaveLength(0);
  });
  it("el historial de un gasto sigue la visibilidad del gasto", async () => {
    const { rows: suyo } = await asUser(db, u.empleado, (q) =>
      q("select id from historial where registro_id = $1", [deEmpleado]),
    );
    expect(suyo.length).toBeGreaterThan(0);
    const { rows: ajeno } = await asUser(db, u.empleado, (q) =>
      q("select id from historial_vista where registro_id = $1", [deEmpleado2]),
    );
    expect(ajeno).toHaveLength(0);
    const { rows: dep_ } = await asUser(db, u.empleado, (q) =>
      q("select id from historial where tabla = 'departamentos'"),
    );
    expect(dep_.length).toBeGreaterThan(0);
  });
});

describe("gastos: escritura directa", () => {
  const campos = "descripcion, fecha_gasto, categoria, importe, metodo_pago, departamento_id, sucursal_id";
  const valores = (dept: string) => [
    `Billete de tren`,
    hoy(),
    "viajes_transporte",
    "55.20",
    "tarjeta_debito",
    dept,
    sucursal,
  ];

  it("un empleado crea borradores propios; el solicitante por defecto es él", async () => {
    const { rows } = await asUser(db, u.empleado, (q) =>
      q(
        `insert into gastos (${campos}) values ($1, $2, $3, $4, $5, $6, $7) returning solicitante_id, estado, folio, version`,
        valores(dep.ventas),
      ),
    );
    expect(rows[0]).toMatchObject({ solicitante_id: u.empleado, estado: "borrador", version: 1 });
    expect(rows[0].folio).toMatch(/^GAS-\d{4}-\d{5}$/);
  });

  it("departamento y sucursal por defecto: los del solicitante", async () => {
    const { rows } = await asUser(db, u.empleado, (q) =>
      q(
        "insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago) values ('Papel', $1, 'material_oficina', '9.99', 'efectivo') returning departamento_id, sucursal_id",
        [hoy()],
      ),
    );
    expect(rows[0]).toEqual({ departamento_id: dep.ventas, sucursal_id: sucursal });
  });

  it("un empleado no crea gastos para otro; el administrador sí", async () => {
    const before = (await db.query("select count(*)::int as n from gastos")).rows[0].n;
    const err = await pgError(
      asUser(db, u.empleado, (q) =>
        q(`insert into gastos (${campos}, solicitante_id) values ($1, $2, $3, $4, $5, $6, $7, $8)`, [
          ...valores(dep.compras),
          u.empleado2,
        ]),
      ),
    );
    expect(err.code).toBe("42501");
    expect((await db.query("select count(*)::int as n from gastos")).rows[0].n).toBe(before);
    const { rows } = await asUser(db, u.admin, (q) =>
      q(
        `insert into gastos (${campos}, solicitante_id) values ($1, $2, $3, $4, $5, $6, $7, $8) returning solicitante_id`,
        [...valores(dep.compras), u.empleado2],
      ),
    );
    expect(rows[0].solicitante_id).toBe(u.empleado2);
  });

  it("nadie escribe estado, folio, aprobador ni datos de pago directamente", async () => {
    const g = await nuevoGasto(u.empleado, dep.ventas);
    for (const set of [
      "estado = 'aprobado'",
      "folio = 'GAS-1999-00001'",
      `aprobador_id = '${u.empleado}'`,
      `aprobado_por_id = '${u.admin}'`,
      "fecha_aprobacion = now()",
      "motivo_rechazo = 'x'",
      "fecha_pago = current_date",
      "referencia_pago = 'x'",
      "version = 7",
    ]) {
      for (const who of [u.empleado, u.admin]) {
        const err = await pgError(asUser(db, who, (q) => q(`update gastos set ${set} where id = $1`, [g.id])));
        expect(err.code, set).toBe("42501");
      }
    }
    const err = await pgError(
      asUser(db, u.admin, (q) =>
        q(
          `insert into gastos (${campos}, estado) values ($1, $2, $3, $4, $5, $6, $7, 'aprobado')`,
          valores(dep.ventas),
        ),
      ),
    );
    expect(err.code).toBe("42501");
    expect(await gasto(g.id)).toMatchObject({ estado: "borrador", version: 1, aprobador_id: null });
  });

  it("solo se editan y eliminan borradores, propios (o cualquiera, el administrador)", async () => {
    const propio = await nuevoGasto(u.empleado, dep.ventas);
    const ajeno = await nuevoGasto(u.empleado2, dep.compras);
    expect(await change(u.empleado, "update gastos set importe = 31 where id = $1 and version = 1", [propio.id])).toBe(
      1,
    );
    expect(await change(u.empleado, "update gastos set importe = 31 where id = $1", [ajeno.id])).toBe(0);
    // The department's aprobador sees it but cannot edit it.
    expect(await change(u.aprobador, "update gastos set importe = 99 where id = $1", [propio.id])).toBe(0);
    // Handing it over to someone else is not allowed.
    const err = await pgError(
      asUser(db, u.empleado, (q) => q("update gastos set solicitante_id = $2 where id = $1", [propio.id, u.empleado2])),
    );
    expect(err.code).toBe("42501");

    await rpc(u.empleado, "enviar_gasto", [propio.id, 2]);
    expect(await change(u.empleado, "update gastos set importe = 32 where id = $1", [propio.id])).toBe(0);
    expect(await change(u.admin, "update gastos set importe = 32 where id = $1", [propio.id])).toBe(0);
    expect(await change(u.empleado, "delete from gastos where id = $1", [propio.id])).toBe(0);
    expect(await gasto(propio.id)).toMatchObject({ importe: "31.00", estado: "pendiente", solicitante_id: u.empleado });

    expect(await change(u.admin, "update gastos set notas = 'revisado' where id = $1", [ajeno.id])).toBe(1);
    expect(await change(u.empleado2, "delete from gastos where id = $1", [ajeno.id])).toBe(1);
  });

  it("un proveedor desactivado no se puede elegir (OFINV proveedor_id)", async () => {
    const { rows } = await db.query(
      "insert into proveedores (razon_social, tipo_persona, pais, nif, categoria, activo) values ('Cerrado SL', 'empresa', 'ES', 'B99999999', 'otros', false) returning id",
    );
    const err = await pgError(
      asUser(db, u.empleado, (q) =>
        q(`insert into gastos (${campos}, proveedor_id) values ($1, $2, $3, $4, $5, $6, $7, $8)`, [
          ...valores(dep.ventas),
          rows[0].id,
        ]),
      ),
    );
    expect([err.code, err.detail]).toEqual(["OFINV", "proveedor_id"]);
  });

  it("fecha del gasto: ni futura ni de hace más de un año (OFINV fecha_gasto)", async () => {
    for (const fecha of ["2099-01-01", "2000-01-01"]) {
      const err = await pgError(
        asUser(db, u.empleado, (q) =>
          q(
            "insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago) values ('Cena', $1, 'comidas', '10', 'efectivo')",
            [fecha],
          ),
        ),
      );
      expect([err.code, err.detail]).toEqual(["OFINV", "fecha_gasto"]);
    }
  });
});

describe("gastos: flujo", () => {
  it("enviar: solicitante o administrador; otros no", async () => {
    const g = await nuevoGasto(u.empleado, dep.ventas);
    // Someone else's borrador does not exist for them, even for the department's aprobador.
    expect((await pgError(rpc(u.aprobador, "enviar_gasto", [g.id, 1]))).code).toBe("OFNTF");
    expect((await pgError(rpc(u.empleado2, "enviar_gasto", [g.id, 1]))).code).toBe("OFNTF");
    expect((await pgError(rpc(u.inactivo, "enviar_gasto", [g.id, 1]))).code).toBe("OFPRM");
    expect((await pgError(rpc(u.empleado, "enviar_gasto", [gen(), 1]))).code).toBe("OFNTF");
    expect(await gasto(g.id)).toMatchObject({ estado: "borrador", version: 1 });

    const r = await rpc(u.empleado, "enviar_gasto", [g.id, 1]);
    expect(r).toEqual({ id: g.id, estado: "pendiente", version: 2, aviso: null });

    const otro = await nuevoGasto(u.empleado, dep.ventas);
    expect((await rpc(u.admin, "enviar_gasto", [otro.id, 1])).estado).toBe("pendiente");
  });

  it("versión obsoleta o estado ya cambiado: OFCNF, sin aplicar nada", async () => {
    const g = await nuevoGasto(u.empleado, dep.ventas);
    const stale = await pgError(rpc(u.empleado, "enviar_gasto", [g.id, 0]));
    expect([stale.code, stale.detail]).toEqual(["OFCNF", "version"]);
    await rpc(u.empleado, "enviar_gasto", [g.id, 1]);
    const twice = await pgError(rpc(u.empleado, "enviar_gasto", [g.id, 1]));
    expect(twice.code).toBe("OFCNF");
    expect(twice.message).toBe("El gasto ya no está en borrador: otra persona lo ha cambiado.");
    expect(await gasto(g.id)).toMatchObject({ estado: "pendiente", version: 2 });
  });

  describe("aprobador asignado al enviar", () => {
    const asignado = async (solicitante: string, departamento: string) => {
      const g = await nuevoGasto(solicitante, departamento);
      await rpc(solicitante, "enviar_gasto", [g.id, 1]);
      return (await gasto(g.id)).aprobador_id;
    };

    it("1) el aprobador del solicitante", async () => {
      await db.query("update usuarios set aprobador_id = $1 where id = $2", [u.aprobadorCompras, u.empleado]);
      try {
        expect(await asignado(u.empleado, dep.ventas)).toBe(u.aprobadorCompras);
      } finally {
        await db.query("update usuarios set aprobador_id = null where id = $1", [u.empleado]);
      }
    });
    it("…salvo que no tenga rol de aprobador (un empleado no aprueba)", async () => {
      await db.query("update usuarios set aprobador_id = $1 where id = $2", [u.empleado2, u.empleado]);
      try {
        // Charged to Compras, but the chain is the solicitante's (Ventas → Dirección: nobody) → an administrador.
        expect(await asignado(u.empleado, dep.compras)).toBe(u.admin);
      } finally {
        await db.query("update usuarios set aprobador_id = null where id = $1", [u.empleado]);
      }
    });
    it("2) el responsable del departamento", async () => {
      expect(await asignado(u.empleado2, dep.compras)).toBe(u.responsable);
    });
    it("3) el responsable de un departamento superior", async () => {
      await db.query("update departamentos set responsable_id = $1 where id = $2", [u.jefe, dep.direccion]);
      try {
        // An empleado responsable is skipped; as an aprobador he is the one.
        expect(await asignado(u.empleado, dep.ventas)).toBe(u.admin);
        await db.query("update usuarios set rol = 'aprobador' where id = $1", [u.jefe]);
        expect(await asignado(u.empleado, dep.ventas)).toBe(u.jefe);
      } finally {
        await db.query("update departamentos set responsable_id = null where id = $1", [dep.direccion]);
        await db.query("update usuarios set rol = 'empleado' where id = $1", [u.jefe]);
      }
    });
    it("4) un administrador; nunca el propio solicitante", async () => {
      expect(await asignado(u.empleado, dep.ventas)).toBe(u.admin);
      // The responsable submitting their own expense goes up to an administrador.
      expect(await asignado(u.responsable, dep.compras)).toBe(u.admin);
    });
    it("sin nadie que pueda aprobar: OFINV y sigue en borrador", async () => {
      const g = await nuevoGasto(u.admin, dep.ventas);
      const err = await pgError(rpc(u.admin, "enviar_gasto", [g.id, 1]));
      expect([err.code, err.detail]).toEqual(["OFINV", "aprobador_id"]);
      expect((await gasto(g.id)).estado).toBe("borrador");
    });
  });

  it("aprobar: asignado, responsable, aprobador del departamento o administrador; nunca el solicitante", async () => {
    const pendiente = async (solicitante: string, departamento: string) => {
      const g = await nuevoGasto(solicitante, departamento);
      await rpc(solicitante, "enviar_gasto", [g.id, 1]);
      return g.id;
    };
    // Ventas expense by empleado: assigned to the admin (no responsable up the tree).
    const g1 = await pendiente(u.empleado, dep.ventas);
    expect((await pgError(rpc(u.empleado, "aprobar_gasto", [g1, 2]))).code).toBe("OFPRM");
    expect((await pgError(rpc(u.empleado2, "aprobar_gasto", [g1, 2]))).code).toBe("OFNTF");
    expect((await pgError(rpc(u.responsable, "aprobar_gasto", [g1, 2]))).code).toBe("OFNTF");
    expect((await pgError(rpc(u.aprobadorCompras, "aprobar_gasto", [g1, 2]))).code).toBe("OFNTF");
    expect((await gasto(g1)).estado).toBe("pendiente");
    const r = await rpc(u.aprobador, "aprobar_gasto", [g1, 2]); // aprobador of Ventas
    expect(r).toMatchObject({ id: g1, estado: "aprobado", version: 3 });
    expect(await gasto(g1)).toMatchObject({ aprobado_por_id: u.aprobador });
    expect((await gasto(g1)).fecha_aprobacion).toBeInstanceOf(Date);

    // Compras expense: the responsable approves it.
    const g2 = await pendiente(u.empleado2, dep.compras);
    expect((await rpc(u.responsable, "aprobar_gasto", [g2, 2])).estado).toBe("aprobado");

    // The aprobador's own expense: not by themself, yes by the admin.
    const g3 = await pendiente(u.aprobador, dep.ventas);
    const own = await pgError(rpc(u.aprobador, "aprobar_gasto", [g3, 2]));
    expect(own.code).toBe("OFPRM");
    expect(own.message).toBe("No puede aprobar sus propios gastos.");
    expect((await rpc(u.admin, "aprobar_gasto", [g3, 2])).estado).toBe("aprobado");

    // The admin's own expense: not by the admin; charged to Compras, yet not Compras' responsable
    // (the cost centre picks no approver); their own aprobador, yes.
    const g4 = await nuevoGasto(u.admin, dep.compras);
    await db.query("update usuarios set aprobador_id = $1 where id = $2", [u.responsable, u.admin]);
    try {
      await rpc(u.admin, "enviar_gasto", [g4.id, 1]);
      expect((await pgError(rpc(u.admin, "aprobar_gasto", [g4.id, 2]))).code).toBe("OFPRM");
      expect((await rpc(u.responsable, "aprobar_gasto", [g4.id, 2])).estado).toBe("aprobado");
    } finally {
      await db.query("update usuarios set aprobador_id = null where id = $1", [u.admin]);
    }

    // An aprobador from another department who is the assigned approver can approve.
    await db.query("update usuarios set aprobador_id = $1 where id = $2", [u.aprobadorCompras, u.empleado]);
    try {
      const g5 = await pendiente(u.empleado, dep.ventas);
      expect((await rpc(u.aprobadorCompras, "aprobar_gasto", [g5, 2])).estado).toBe("aprobado");
    } finally {
      await db.query("update usuarios set aprobador_id = null where id = $1", [u.empleado]);
    }

    // Approving something not pending: conflict.
    const borrador = await nuevoGasto(u.empleado, dep.ventas);
    const c = await pgError(rpc(u.admin, "aprobar_gasto", [borrador.id, 1]));
    expect([c.code, c.detail]).toEqual(["OFCNF", "estado"]);
  });

  it("aviso cuando lo aprobado del mes supera el presupuesto del departamento (y aprueba igual)", async () => {
    // Ventas budget: 100.00. Use a month with nothing else in it.
    const fecha = new Date(Date.now() - 200 * 86400_000).toISOString().slice(0, 10);
    const a = await nuevoGasto(u.empleado, dep.ventas, { importe: "60.00", fecha_gasto: fecha });
    const b = await nuevoGasto(u.empleado, dep.ventas, { importe: "50.00", fecha_gasto: fecha });
    await rpc(u.empleado, "enviar_gasto", [a.id, 1]);
    await rpc(u.empleado, "enviar_gasto", [b.id, 1]);
    expect((await rpc(u.aprobador, "aprobar_gasto", [a.id, 2])).aviso).toBeNull();
    const r = await rpc(u.aprobador, "aprobar_gasto", [b.id, 2]);
    expect(r.estado).toBe("aprobado");
    expect(r.aviso).toMatch(
      /^El departamento Ventas supera su presupuesto mensual de \w+ de \d{4}: 110,00 € aprobados frente a un presupuesto de 100,00 €\.$/,
    );
  });

  it("rechazar (motivo obligatorio) → reabrir (solicitante) → enviar", async () => {
    const g = await nuevoGasto(u.empleado, dep.ventas);
    await rpc(u.empleado, "enviar_gasto", [g.id, 1]);
    const sinMotivo = await pgError(rpc(u.aprobador, "rechazar_gasto", [g.id, 2, "   "]));
    expect([sinMotivo.code, sinMotivo.detail]).toEqual(["OFINV", "motivo_rechazo"]);
    expect((await pgError(rpc(u.empleado, "rechazar_gasto", [g.id, 2, "no"]))).code).toBe("OFPRM");
    expect((await gasto(g.id)).estado).toBe("pendiente");

    expect(await rpc(u.aprobador, "rechazar_gasto", [g.id, 2, "Falta el ticket"])).toMatchObject({
      estado: "rechazado",
      version: 3,
    });
    expect((await gasto(g.id)).motivo_rechazo).toBe("Falta el ticket");

    expect((await pgError(rpc(u.aprobador, "reabrir_gasto", [g.id, 3]))).code).toBe("OFPRM");
    expect(await rpc(u.empleado, "reabrir_gasto", [g.id, 3])).toMatchObject({ estado: "borrador", version: 4 });
    // Editable again, then resubmitted (the old reason is cleared).
    expect(await change(u.empleado, "update gastos set numero_factura = 'T-123' where id = $1", [g.id])).toBe(1);
    await rpc(u.empleado, "enviar_gasto", [g.id, 5]);
    expect(await gasto(g.id)).toMatchObject({ estado: "pendiente", motivo_rechazo: null, version: 6 });
  });

  it("retirar: solo el solicitante (o administrador); vuelve a borrador sin aprobador", async () => {
    const g = await nuevoGasto(u.empleado, dep.ventas);
    await rpc(u.empleado, "enviar_gasto", [g.id, 1]);
    expect((await pgError(rpc(u.aprobador, "retirar_gasto", [g.id, 2]))).code).toBe("OFPRM");
    expect(await rpc(u.empleado, "retirar_gasto", [g.id, 2])).toMatchObject({ estado: "borrador", version: 3 });
    expect((await gasto(g.id)).aprobador_id).toBeNull();
    expect((await pgError(rpc(u.empleado, "retirar_gasto", [g.id, 3]))).code).toBe("OFCNF");
  });

  it("pagar y revertir: solo administrador, con sus datos obligatorios", async () => {
    const aprobado = async () => {
      const g = await nuevoGasto(u.empleado2, dep.compras);
      await rpc(u.empleado2, "enviar_gasto", [g.id, 1]);
      await rpc(u.responsable, "aprobar_gasto", [g.id, 2]);
      return g.id;
    };
    const g = await aprobado();
    for (const who of [u.aprobador, u.responsable, u.empleado]) {
      const err = await pgError(rpc(who, "pagar_gasto", [g, 3, hoy(), "TRF-1"]));
      expect(["OFPRM", "OFNTF"]).toContain(err.code);
    }
    const sinFecha = await pgError(rpc(u.admin, "pagar_gasto", [g, 3, null, "TRF-1"]));
    expect([sinFecha.code, sinFecha.detail]).toEqual(["OFINV", "fecha_pago"]);
    const sinRef = await pgError(rpc(u.admin, "pagar_gasto", [g, 3, hoy(), ""]));
    expect([sinRef.code, sinRef.detail]).toEqual(["OFINV", "referencia_pago"]);
    // The value date may be ahead, up to a year from today.
    const lejos = await pgError(rpc(u.admin, "pagar_gasto", [g, 3, addDaysISO(addYearsISO(hoy(), 1), 2), "TRF-1"]));
    expect([lejos.code, lejos.detail, lejos.message]).toEqual([
      "OFINV",
      "fecha_pago",
      "La fecha de pago puede ser futura (la fecha valor), pero como mucho dentro de un año.",
    ]);
    expect((await gasto(g)).estado).toBe("aprobado");
    expect(await rpc(u.admin, "pagar_gasto", [g, 3, hoy(), " TRF-1 "])).toMatchObject({ estado: "pagado", version: 4 });
    expect(await gasto(g)).toMatchObject({ referencia_pago: "TRF-1" });
    expect((await pgError(rpc(u.admin, "revertir_gasto", [g, 4, "error"]))).code).toBe("OFCNF");

    const h = await aprobado();
    expect((await pgError(rpc(u.responsable, "revertir_gasto", [h, 3, "no"]))).code).toBe("OFPRM");
    const sinMotivo = await pgError(rpc(u.admin, "revertir_gasto", [h, 3, null]));
    expect([sinMotivo.code, sinMotivo.detail]).toEqual(["OFINV", "motivo_rechazo"]);
    expect(await rpc(u.admin, "revertir_gasto", [h, 3, "Importe mal"])).toMatchObject({
      estado: "pendiente",
      version: 4,
    });
    expect(await gasto(h)).toMatchObject({
      aprobado_por_id: null,
      fecha_aprobacion: null,
      motivo_rechazo: "Importe mal",
    });
  });

  it("el historial registra cada transición con su actor", async () => {
    const g = await nuevoGasto(u.empleado2, dep.compras);
    await rpc(u.empleado2, "enviar_gasto", [g.id, 1]);
    await rpc(u.responsable, "aprobar_gasto", [g.id, 2]);
    const { rows } = await asUser(db, u.empleado2, (q) =>
      q(
        "select accion, actor_id, actor_nombre, cambios from historial_vista where tabla = 'gastos' and registro_id = $1 order by id",
        [g.id],
      ),
    );
    expect(rows.map((r) => [r.accion, r.actor_id])).toEqual([
      ["alta", null],
      ["modificacion", u.empleado2],
      ["modificacion", u.responsable],
    ]);
    expect(rows[1].cambios.estado).toEqual({ antes: "borrador", despues: "pendiente" });
    expect(rows[2].cambios.estado).toEqual({ antes: "pendiente", despues: "aprobado" });
    expect(rows[2].actor_nombre).toBe("Rosa");
  });

  it("dos aprobaciones simultáneas: exactamente una gana", async () => {
    const g = await nuevoGasto(u.empleado, dep.ventas);
    await rpc(u.empleado, "enviar_gasto", [g.id, 1]);
    const [c1, c2] = await Promise.all([connect(url), connect(url)]);
    try {
      const approve = (client: pg.Client, who: string) =>
        asUser(client, who, async (q) => {
          const { rows } = await q("select public.aprobar_gasto($1, 2) as r", [g.id]);
          await q("select pg_sleep(0.2)"); // hold the row lock so the other call has to wait
          return rows[0].r as Resultado;
        });
      const results = await Promise.allSettled([approve(c1, u.aprobador), approve(c2, u.admin)]);
      const ok = results.filter((r) => r.status === "fulfilled");
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(ok).toHaveLength(1);
      expect(failed).toHaveLength(1);
      expect(failed[0].reason.code).toBe("OFCNF");
      const row = await gasto(g.id);
      expect(row).toMatchObject({ estado: "aprobado", version: 3 });
      const { rows } = await db.query(
        "select count(*)::int as n from historial where registro_id = $1 and cambios ? 'estado' and cambios->'estado'->>'despues' = 'aprobado'",
        [g.id],
      );
      expect(rows[0].n).toBe(1);
    } finally {
      await Promise.all([c1.end(), c2.end()]);
    }
  });

  it("referencias() exige un usuario activo y solo cuenta para quien puede eliminar el registro", async () => {
    expect(
      (await pgError(asUser(db, u.inactivo, (q) => q("select public.referencias('usuarios', $1)", [u.empleado])))).code,
    ).toBe("OFPRM");
    // An empleado may not delete a person: nothing about what names them.
    const { rows: empleado } = await asUser(db, u.empleado, (q) =>
      q("select public.referencias('usuarios', $1) as r", [u.responsable]),
    );
    expect(empleado[0].r).toEqual([]);
    const { rows } = await asUser(db, u.admin, (q) =>
      q("select public.referencias('usuarios', $1) as r", [u.responsable]),
    );
    expect(rows[0].r).toEqual(
      expect.arrayContaining([
        { tabla: "departamentos", total: 1 },
        { tabla: "gastos", total: expect.any(Number) },
      ]),
    );
  });
});

function gen() {
  return crypto.randomUUID();
}
