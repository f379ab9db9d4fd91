import { sql } from "kysely";
import { anyTables } from "~/data/sql/connection.server";
import { sqlStore } from "~/data/sql/adapter.server";
import { writableFields, type Entity } from "~/entities/entity";
import { departamentos } from "~/entities/departamentos";
import { proveedores } from "~/entities/proveedores";
import { sucursales } from "~/entities/sucursales";
import { usuarios } from "~/entities/usuarios";
import { todayISO } from "~/lib/dates";
import { generateValidEsIban } from "~/lib/iban";
import { generateValidCif } from "~/lib/nif";
import * as auth_confirm from "~/routes/auth.confirm";
import * as auth_invitacion from "~/routes/auth.invitacion";
import * as auth_recuperar from "~/routes/auth.recuperar";
import * as empresa_route from "~/routes/empresa";
import * as gastos_index from "~/routes/gastos._index";
import * as gastos_csv from "~/routes/gastos.exportar";
import * as gastos_justificantes from "~/routes/gastos.$id.justificantes";
import * as justificante from "~/routes/justificantes.$id";
import * as home from "~/routes/_index";
import * as libro_iva from "~/routes/libro-iva";
import * as libro_iva_exportar from "~/routes/libro-iva.exportar";
import * as asientos from "~/routes/asientos";
import * as asientos_exportar from "~/routes/asientos.exportar";
import * as remesas_id from "~/routes/remesas.$id";
import * as remesas_fichero from "~/routes/remesas.$id.fichero";
import * as remesas_index from "~/routes/remesas._index";
import * as root from "~/root";
import * as login from "~/routes/login";
import * as logout from "~/routes/logout";
import * as sentry from "~/routes/sentry-example-page";
import * as signup from "~/routes/signup-confirmation";
import * as splat from "~/routes/$";
import * as usu_id from "~/routes/usuarios.$id";
import * as usu_index from "~/routes/usuarios._index";
import * as usu_csv from "~/routes/usuarios.exportar";
import { createTestApp, ORIGIN, request, respond, type RouteModule, type TestTransaction } from "../support/app";
import { insertDepartamento, insertMaestro, insertSucursal, setProfile, tableHashes } from "../support/fixtures";
import { archivos, formulario } from "../support/justificantes";
import * as viajes_id from "~/routes/viajes.$id";
import * as viajes_index from "~/routes/viajes._index";
import * as viajes_csv from "~/routes/viajes.exportar";
import * as informe_irpf from "~/routes/viajes.informe-irpf";
import * as informe_irpf_csv from "~/routes/viajes.informe-irpf.exportar";
import { pantallasDe } from "../support/pantallas";

const dep_id = pantallasDe("departamentos").ficha;
const dep_csv = pantallasDe("departamentos").exportar;
const prov_id = pantallasDe("proveedores").ficha;
const prov_csv = pantallasDe("proveedores").exportar;
const suc_id = pantallasDe("sucursales").ficha;
const suc_csv = pantallasDe("sucursales").exportar;

const cat_id = pantallasDe("categorias-fiscales").ficha;
const cat_index = pantallasDe("categorias-fiscales").lista;
const cat_csv = pantallasDe("categorias-fiscales").exportar;
const ce_id = pantallasDe("cuentas-empresa").ficha;
const ce_index = pantallasDe("cuentas-empresa").lista;
const ce_csv = pantallasDe("cuentas-empresa").exportar;
const dep_index = pantallasDe("departamentos").lista;
const prov_index = pantallasDe("proveedores").lista;
const suc_index = pantallasDe("sucursales").lista;
const iva_id = pantallasDe("tipos-iva").ficha;
const iva_index = pantallasDe("tipos-iva").lista;
const iva_csv = pantallasDe("tipos-iva").exportar;
const pol_id = pantallasDe("politicas-gasto").ficha;
const pol_index = pantallasDe("politicas-gasto").lista;
const pol_csv = pantallasDe("politicas-gasto").exportar;
const lim_id = pantallasDe("limites-irpf").ficha;
const lim_index = pantallasDe("limites-irpf").lista;
const lim_csv = pantallasDe("limites-irpf").exportar;

/**
 * The authorization matrix, in the manner of Django's AdminViewPermissionsTest: every
 * route × method × role (anonymous, empleado, aprobador, administrador, inactive user) × kind
 * of record (own, another's, another department's…) with the outcome docs/producto.md «Roles» expects. A refused
 * request gets its 403/404/redirect AND the database is unchanged (every table hashed before and
 * after); an allowed one does what it says. Then the same straight against the database as each
 * role (RLS): select, insert, update, delete per table, and `estado` out of reach.
 *
 * Each cell records its failure instead of stopping the test, so one run lists all of them.
 */
let app: Awaited<ReturnType<typeof createTestApp>>;
type U = {
  id: string;
  email: string;
  cookie: string;
  rol: "administrador" | "aprobador" | "empleado";
  departamento: string;
};

const ACTORES = ["anonimo", "empleado", "aprobador", "administrador", "inactivo"] as const;
type Actor = (typeof ACTORES)[number];

let dep: { A: string; B: string; C: string };
let suc: string;
const u = {} as Record<
  "admin" | "admin2" | "jefeC" | "aprobadorA" | "empleadoA" | "colegaA" | "empleadoB" | "aprobadorB" | "inactivo",
  U
>;
const hoy = todayISO();
let cells = 0;
const failures: string[] = [];
let seq = 0;

const actorUser = (a: Actor): U | null =>
  ({ anonimo: null, empleado: u.empleadoA, aprobador: u.aprobadorA, administrador: u.admin, inactivo: u.inactivo })[a];

function cookieOf(a: Actor) {
  return actorUser(a)?.cookie;
}

beforeAll(async () => {
  app = await createTestApp();
  const d = (nombre: string, codigo: string) => insertDepartamento(app.db, { nombre, codigo });
  dep = { A: await d("Ventas", "VEN"), B: await d("Compras", "COM"), C: await d("Dirección", "DIR") };
  suc = await insertSucursal(app.db);
  const make = async (key: keyof typeof u, rol: U["rol"], departamento: string, aprobador?: U) => {
    const created = await app.createUser({ nombre: key, rol });
    await setProfile(app.db, created.id, {
      departamento_id: departamento,
      sucursal_id: suc,
      aprobador_id: aprobador?.id ?? null,
    });
    u[key] = { ...created, rol, departamento };
  };
  await make("admin", "administrador", dep.C);
  await make("admin2", "administrador", dep.C);
  await make("jefeC", "empleado", dep.C);
  await make("aprobadorA", "aprobador", dep.A);
  await make("aprobadorB", "aprobador", dep.B);
  await make("empleadoA", "empleado", dep.A, u.aprobadorA);
  await make("colegaA", "empleado", dep.A);
  await make("empleadoB", "empleado", dep.B, u.aprobadorB);
  await make("inactivo", "empleado", dep.A, u.aprobadorA);
  // Signed in while active, then deactivated: the cookie is still in the browser.
  await app.db.updateTable("usuarios").set({ activo: false }).where("id", "=", u.inactivo.id).execute();
});

afterAll(async () => {
  console.info(`\n  ▶ Matriz de autorización: ${cells} celdas comprobadas, ${failures.length} fallan\n`);
  await app?.close();
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** «The database is unchanged»: every table's hash equal (history included). */
const snapshot = () =>
  tableHashes(app.db, {
    departamentos: ["public.departamentos", "id"],
    sucursales: ["public.sucursales", "id"],
    proveedores: ["public.proveedores", "id"],
    proveedores_pago: ["public.proveedores_pago", "id"],
    departamentos_presupuesto: ["public.departamentos_presupuesto", "id"],
    usuarios: ["public.usuarios", "id"],
    gastos: ["public.gastos", "id"],
    cuentas: ["auth.users", "id"],
    invitaciones: ["public.invitaciones", "usuario_id"],
    justificantes: ["public.justificantes", "id"],
    tipos_iva: ["public.tipos_iva", "id"],
    categorias_fiscales: ["public.categorias_fiscales", "id"],
    empresa: ["public.empresa", "id"],
    datos_bancarios: ["public.datos_bancarios", "id"],
    cuentas_empresa: ["public.cuentas_empresa", "id"],
    remesas: ["public.remesas", "id"],
    remesa_gastos: ["public.remesa_gastos", "id"],
    politicas_gasto: ["public.politicas_gasto", "id"],
    viajes: ["public.viajes", "id"],
    limites_exentos_irpf: ["public.limites_exentos_irpf", "id"],
  });

type Expect = "ok" | "login" | 400 | 403 | 404 | 405 | 409 | "sin-cambio";
type Result = { status: number; location: string | null; body: string; error?: string };

async function call(fn: (() => unknown) | null): Promise<Result> {
  if (!fn) return { status: 405, location: null, body: "" };
  try {
    const r = await respond(fn);
    return { status: r.status, location: r.headers.get("Location"), body: await r.text() };
  } catch (error) {
    return { status: 500, location: null, body: "", error: (error as Error).message };
  }
}

/**
 * One cell: runs the request, checks the status for the expected outcome, the database unchanged
 * when refused, and `done` (the effect) when allowed.
 */
async function cell(
  name: string,
  expected: Expect,
  run: () => Promise<Result>,
  done?: (r: Result) => Promise<string | null>,
) {
  cells += 1;
  const before = expected === "ok" ? null : await snapshot();
  const r = await run();
  const fail = (why: string) => failures.push(`${name}: se esperaba ${expected}, ${why}`);
  if (r.error) return fail(`excepción: ${r.error}`);
  if (expected === "ok") {
    if (r.status >= 400) return fail(`llegó ${r.status} ${r.body.slice(0, 160)}`);
    const problem = done ? await done(r) : null;
    if (problem) fail(problem);
    return;
  }
  if (expected === "login") {
    if (r.status !== 302 || !r.location?.startsWith("/login")) return fail(`llegó ${r.status} → ${r.location}`);
  } else if (expected === "sin-cambio") {
    if (r.status >= 500) return fail(`llegó ${r.status}`);
  } else if (r.status !== expected) return fail(`llegó ${r.status} ${r.body.slice(0, 160)}`);
  const after = await snapshot();
  const changed = Object.keys(before!).filter((k) => before![k] !== after[k]);
  if (changed.length) fail(`la base de datos cambió (${changed.join(", ")})`);
}

const args = (
  path: string,
  a: Actor,
  o: { form?: Record<string, string | string[]>; params?: Record<string, string> } = {},
) => ({
  request: request(path, { cookie: cookieOf(a), form: o.form }),
  context: app.context(),
  params: o.params ?? {},
});

// ---------------------------------------------------------------------------------------------
// Gastos: who may see and do what on whose gasto
// ---------------------------------------------------------------------------------------------

type Estado = "borrador" | "pendiente" | "aprobado" | "rechazado";
type G = {
  id: string;
  version: number;
  folio: string;
  solicitante_id: string;
  aprobador_id: string | null;
  aprobado_por_id: string | null;
  departamento_id: string;
  estado: string;
};

/** The approver the chain would assign, fixed for this world. */
function aprobadorDe(solicitante: U): U {
  if (solicitante === u.empleadoA || solicitante === u.inactivo) return u.aprobadorA;
  if (solicitante === u.empleadoB) return u.aprobadorB;
  if (solicitante === u.admin) return u.admin2;
  return u.admin;
}

/** A gasto of `solicitante` in `estado`, written as the owner. */
async function gasto(solicitante: U, estado: Estado, o: { aprobador?: U } = {}): Promise<G> {
  seq += 1;
  const g = await app.db
    .insertInto("gastos")
    .values({
      descripcion: `Gasto de la matriz ${seq}`,
      fecha_gasto: hoy,
      categoria: "comidas",
      importe: `${10 + seq}.00`,
      metodo_pago: "efectivo",
      solicitante_id: solicitante.id,
      departamento_id: solicitante.departamento,
      sucursal_id: suc,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (estado !== "borrador") {
    const aprobador = o.aprobador ?? aprobadorDe(solicitante);
    const extra =
      estado === "aprobado"
        ? { aprobado_por_id: aprobador.id, fecha_aprobacion: sql<string>`now()` }
        : estado === "rechazado"
          ? { motivo_rechazo: "Falta el ticket" }
          : {};
    await app.db
      .updateTable("gastos")
      .set({ estado, aprobador_id: aprobador.id, ...extra })
      .where("id", "=", g.id)
      .execute();
  }
  return (await app.db.selectFrom("gastos").selectAll().where("id", "=", g.id).executeTakeFirstOrThrow()) as G;
}

/**
 * docs/producto.md «Roles» (gastos: ver), as an oracle independent of the app's code. A borrador is private to its
 * solicitante and the administradores: no one approves it yet.
 */
function ve(actor: U, g: G) {
  return (
    actor.rol === "administrador" ||
    g.solicitante_id === actor.id ||
    (g.estado !== "borrador" &&
      (g.aprobador_id === actor.id || (actor.rol === "aprobador" && g.departamento_id === actor.departamento)))
  );
}
function puedeAprobar(actor: U, g: G) {
  if (g.solicitante_id === actor.id) return false;
  return (
    actor.rol === "administrador" ||
    g.aprobador_id === actor.id ||
    (actor.rol === "aprobador" && g.departamento_id === actor.departamento)
  );
}

/** The kinds of gasto for an actor: own, a colleague's (same department), another department's; an approver also one assigned from elsewhere. */
function kindsFor(a: Actor): { kind: string; solicitante: U; aprobador?: U }[] {
  const me = actorUser(a) ?? u.empleadoA;
  const colega = me.departamento === dep.C ? u.jefeC : u.colegaA;
  const otro = me.departamento === dep.A ? u.empleadoB : u.empleadoA;
  const kinds = [
    { kind: "propio", solicitante: a === "anonimo" ? u.empleadoA : me },
    { kind: "de otra persona del departamento", solicitante: colega },
    { kind: "de otro departamento", solicitante: otro },
  ];
  if (a === "aprobador")
    kinds.push({ kind: "asignado de otro departamento", solicitante: u.empleadoB, aprobador: u.aprobadorA } as never);
  return kinds;
}

type Intent =
  | "ver"
  | "guardar"
  | "eliminar"
  | "enviar"
  | "retirar"
  | "aprobar"
  | "rechazar"
  | "reabrir"
  | "pagar"
  | "revertir"
  | "aprobar_seleccion"
  | "rechazar_seleccion"
  | "pagar_seleccion";
const DESDE: Record<Intent, Estado> = {
  ver: "pendiente",
  guardar: "borrador",
  eliminar: "borrador",
  enviar: "borrador",
  retirar: "pendiente",
  aprobar: "pendiente",
  rechazar: "pendiente",
  reabrir: "rechazado",
  pagar: "aprobado",
  revertir: "aprobado",
  aprobar_seleccion: "pendiente",
  rechazar_seleccion: "pendiente",
  pagar_seleccion: "aprobado",
};
const A: Partial<Record<Intent, string>> = {
  enviar: "pendiente",
  retirar: "borrador",
  aprobar: "aprobado",
  rechazar: "rechazado",
  reabrir: "borrador",
  pagar: "pagado",
  revertir: "pendiente",
  aprobar_seleccion: "aprobado",
  rechazar_seleccion: "rechazado",
  pagar_seleccion: "pagado",
};

function esperado(intent: Intent, a: Actor, g: G): Expect {
  const me = actorUser(a);
  if (!me || a === "inactivo") return "login";
  const visible = ve(me, g);
  const propio = g.solicitante_id === me.id;
  const admin = me.rol === "administrador";
  switch (intent) {
    case "ver":
      return visible ? "ok" : 404;
    case "guardar":
    case "eliminar":
    case "enviar":
    case "retirar":
    case "reabrir":
      return !visible ? 404 : propio || admin ? "ok" : 403;
    case "aprobar":
    case "rechazar":
      return !visible ? 404 : puedeAprobar(me, g) ? "ok" : 403;
    case "pagar":
      // Separation of duties: whoever asked for it or approved it does not mark it paid.
      return !visible ? 404 : admin && !propio && g.aprobado_por_id !== me.id ? "ok" : 403;
    case "revertir":
      return !visible ? 404 : admin ? "ok" : 403;
    case "aprobar_seleccion":
    case "rechazar_seleccion":
      return me.rol === "empleado" ? 403 : visible && puedeAprobar(me, g) ? "ok" : "sin-cambio";
    case "pagar_seleccion":
      // Administradores only; whoever asked for or approved a gasto is refused it in the summary, not the request.
      return !admin ? 403 : !propio && g.aprobado_por_id !== me.id ? "ok" : "sin-cambio";
  }
}

function formFor(intent: Intent, g: G, a: Actor): Record<string, string | string[]> {
  const base = { intent, id: g.id, version: String(g.version) };
  switch (intent) {
    case "guardar":
      return {
        ...base,
        descripcion: `Editado en la matriz ${g.id.slice(0, 8)}`,
        fecha_gasto: hoy,
        categoria: "comidas",
        importe: "12,50",
        metodo_pago: "efectivo",
        departamento_id: g.departamento_id,
        sucursal_id: suc,
        ...(a === "administrador" ? { solicitante_id: g.solicitante_id } : {}),
      };
    case "rechazar":
    case "revertir":
      return { ...base, motivo: "Motivo de la matriz" };
    case "pagar":
      return { ...base, fecha_pago: hoy, referencia_pago: "TR-MATRIZ" };
    case "aprobar_seleccion":
      return { intent, seleccion: [`${g.id}:${g.version}`], confirmado: "1" };
    case "rechazar_seleccion":
      return { intent, seleccion: [`${g.id}:${g.version}`], motivo: "Motivo de la matriz" };
    case "pagar_seleccion":
      return { intent, seleccion: [`${g.id}:${g.version}`], fecha_pago: hoy, referencia_pago: "TR-MATRIZ" };
    default:
      return base;
  }
}

/** A row of any table, as stored. */
type Fila = { id: string; version: number; [column: string]: unknown };
const row = (table: string, id: string) =>
  anyTables(app.db).selectFrom(table).selectAll().where("id", "=", id).executeTakeFirst() as Promise<Fila | undefined>;

describe("rutas × métodos × roles × tipo de registro", () => {
  it("gastos: ver, editar, eliminar, cada transición y las acciones en bloque", async () => {
    const intents = Object.keys(DESDE) as Intent[];
    for (const a of ACTORES) {
      for (const k of kindsFor(a)) {
        for (const intent of intents) {
          const g = await gasto(k.solicitante, DESDE[intent], { aprobador: (k as { aprobador?: U }).aprobador });
          const expected = esperado(intent, a, g);
          const name = `gastos ${intent} · ${a} · ${k.kind}`;
          if (intent === "ver") {
            await cell(
              name,
              expected,
              () => call(() => gastos_index.loader(args(`/gastos?gasto=${g.id}`, a))),
              async (r) => {
                const data = JSON.parse(r.body);
                return data.panel?.record?.id === g.id ? null : "la ficha no es la del gasto";
              },
            );
            continue;
          }
          await cell(
            name,
            expected,
            () => call(() => gastos_index.action(args(`/gastos?gasto=${g.id}`, a, { form: formFor(intent, g, a) }))),
            async (r) => {
              const now = await row("gastos", g.id);
              if (intent === "eliminar") return now ? "el gasto sigue ahí" : null;
              if (intent === "guardar")
                return String(now?.descripcion).startsWith("Editado en la matriz")
                  ? null
                  : `no se guardó (${r.status})`;
              return now?.estado === A[intent] ? null : `estado ${now?.estado}, se esperaba ${A[intent]}`;
            },
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("gastos: crear (para sí; solicitante_id colado solo lo usa el administrador) y la lista y el CSV muestran exactamente lo que cada uno ve", async () => {
    // A gasto of every kind and state, so the list has something to show and something to hide
    // (found by their description: the other tests' gastos stay out of the comparison).
    for (const s of [u.admin, u.jefeC, u.aprobadorA, u.empleadoA, u.colegaA, u.empleadoB])
      for (const e of ["borrador", "pendiente", "aprobado", "rechazado"] as Estado[]) {
        const g = await gasto(s, e);
        await app.db
          .updateTable("gastos")
          .set({ descripcion: `Lista de la matriz ${g.folio}` })
          .where("id", "=", g.id)
          .execute();
      }
    const todos = (await app.db
      .selectFrom("gastos")
      .selectAll()
      .where("descripcion", "like", "Lista de la matriz%")
      .execute()) as G[];
    const filtro = `q=${encodeURIComponent("Lista de la matriz")}`;
    for (const a of ACTORES) {
      const me = actorUser(a);
      const visibles = me && a !== "inactivo" ? new Set(todos.filter((g) => ve(me, g)).map((g) => g.id)) : null;
      await cell(
        `gastos lista · ${a}`,
        visibles ? "ok" : "login",
        () => call(() => gastos_index.loader(args(`/gastos?por_pagina=100&${filtro}`, a))),
        async (r) => {
          const ids = new Set((JSON.parse(r.body).result.rows as { id: string }[]).map((x) => x.id));
          return ids.size === visibles!.size && [...ids].every((id) => visibles!.has(id))
            ? null
            : `ve ${ids.size} gastos, debería ver ${visibles!.size}`;
        },
      );
      await cell(
        `gastos CSV · ${a}`,
        visibles ? "ok" : "login",
        () => call(() => gastos_csv.loader(args(`/gastos/exportar?${filtro}`, a))),
        async (r) => {
          const folios = new Set([...r.body.matchAll(/GAS-\d{4}-\d{5}/g)].map((m) => m[0]));
          const esperados = new Set(todos.filter((g) => visibles!.has(g.id)).map((g) => g.folio));
          return folios.size === esperados.size && [...folios].every((f) => esperados.has(f))
            ? null
            : `el CSV trae ${folios.size} folios, debería traer ${esperados.size}`;
        },
      );
      const descripcion = `Alta de la matriz ${a} ${++seq}`;
      await cell(
        `gastos crear (con solicitante_id de otra persona) · ${a}`,
        visibles ? "ok" : "login",
        () =>
          call(() =>
            gastos_index.action(
              args("/gastos?index", a, {
                form: {
                  intent: "crear",
                  descripcion,
                  fecha_gasto: hoy,
                  categoria: "comidas",
                  importe: "33,10",
                  metodo_pago: "efectivo",
                  solicitante_id: u.colegaA.id,
                  departamento_id: dep.A,
                  sucursal_id: suc,
                },
              }),
            ),
          ),
        async () => {
          const creado = await app.db.selectFrom("gastos").selectAll().where("descripcion", "=", descripcion).execute();
          if (creado.length !== 1) return `${creado.length} gastos creados`;
          const quien = a === "administrador" ? u.colegaA.id : me!.id;
          return creado[0]!.solicitante_id === quien && creado[0]!.estado === "borrador"
            ? null
            : `solicitante ${creado[0]!.solicitante_id}, estado ${creado[0]!.estado}`;
        },
      );
    }
    expect(failures).toEqual([]);
  });

  // Departamentos, sucursales, proveedores: the same machinery, different permissions.
  type Maestro = {
    entity: Entity;
    index: Required<RouteModule>;
    record: Required<RouteModule>;
    csv: RouteModule;
    crean: readonly Actor[];
    editan: readonly Actor[];
    eliminan: readonly Actor[];
  };
  const ADMIN = ["administrador"] as const;
  const maestros: Maestro[] = [
    {
      entity: departamentos,
      index: dep_index,
      record: dep_id,
      csv: dep_csv,
      crean: ADMIN,
      editan: ADMIN,
      eliminan: ADMIN,
    },
    {
      entity: sucursales,
      index: suc_index,
      record: suc_id,
      csv: suc_csv,
      crean: ADMIN,
      editan: ADMIN,
      eliminan: ADMIN,
    },
    {
      entity: proveedores,
      index: prov_index,
      record: prov_id,
      csv: prov_csv,
      crean: ["administrador", "aprobador"],
      editan: ["administrador", "aprobador"],
      eliminan: ADMIN,
    },
  ];

  /** A fresh record as the owner; `referenciado`: a gasto or a person points to it. */
  async function maestro(entity: Entity, referenciado: boolean) {
    seq += 1;
    const code = `M${seq}X${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
    const id = await insertMaestro(app.db, entity.table, code, 900_000 + seq * 7919);
    if (referenciado) {
      const column =
        entity === departamentos ? "departamento_id" : entity === sucursales ? "sucursal_id" : "proveedor_id";
      const g = await gasto(u.empleadoA, "borrador");
      await app.db
        .updateTable("gastos")
        .set({ [column]: id })
        .where("id", "=", g.id)
        .execute();
    }
    return (await row(entity.table, id))!;
  }

  /** The record form as its page posts it, from the row (every writable field). */
  function formDe(entity: Entity, r: Fila, intent: string, cambio: Record<string, string>) {
    const form: Record<string, string> = { intent, version: String(r.version) };
    for (const f of writableFields(entity)) {
      const v = r[f.name];
      form[f.name] = f.input.type === "checkbox" ? (v ? "on" : "") : v === null || v === undefined ? "" : String(v);
    }
    return { ...form, ...cambio };
  }

  function nuevoForm(entity: Entity): Record<string, string> {
    seq += 1;
    const code = `N${seq}Y${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
    if (entity === departamentos) return { intent: "crear", nombre: `Nuevo ${code}`, codigo: code, activo: "on" };
    if (entity === sucursales)
      return {
        intent: "crear",
        nombre: `Nueva ${code}`,
        codigo: code,
        direccion: "Calle Real 2",
        ciudad: "Ávila",
        pais: "ES",
        activo: "on",
      };
    return {
      intent: "crear",
      razon_social: `Nuevo ${code} SA`,
      tipo_persona: "empresa",
      pais: "ES",
      nif: generateValidCif(500_000 + seq * 104_729, "A"),
      categoria: "otros",
      activo: "on",
    };
  }

  it("departamentos, sucursales y proveedores: lista, CSV, ficha, alta, edición y baja (con y sin registros que dependan)", async () => {
    for (const m of maestros) {
      const { entity } = m;
      for (const a of ACTORES) {
        const signed = a !== "anonimo" && a !== "inactivo";
        const allow = (who: readonly Actor[]): Expect => (!signed ? "login" : who.includes(a) ? "ok" : 403);
        await cell(`${entity.path} lista · ${a}`, signed ? "ok" : "login", () =>
          call(() => m.index.loader(args(entity.path, a))),
        );
        await cell(`${entity.path}/exportar · ${a}`, signed ? "ok" : "login", () =>
          call(() => m.csv.loader(args(`${entity.path}/exportar`, a))),
        );
        const alta = nuevoForm(entity);
        await cell(
          `${entity.path} crear · ${a}`,
          allow(m.crean),
          () => call(() => m.index.action(args(`${entity.path}?index`, a, { form: alta }))),
          async () => {
            const n = await anyTables(app.db)
              .selectFrom(entity.table)
              .select("id")
              .where(
                entity.labelColumn === "razon_social" ? "razon_social" : "nombre",
                "=",
                entity === proveedores ? alta.razon_social! : alta.nombre!,
              )
              .execute();
            return n.length === 1 ? null : `${n.length} creados`;
          },
        );
        for (const referenciado of [false, true]) {
          const kind = referenciado ? "con gastos que dependen de él" : "sin dependencias";
          const r = await maestro(entity, referenciado);
          await cell(`${entity.path}/{id} ver · ${a} · ${kind}`, signed ? "ok" : "login", () =>
            call(() => m.record.loader(args(`${entity.path}/${r.id}`, a, { params: { id: r.id } }))),
          );
          // A supplier's notes are the administradores' (below): what an aprobador also edits.
          const cambio: Record<string, string> =
            entity === sucursales
              ? { provincia: `Provincia ${seq}` }
              : entity === proveedores
                ? { ciudad: `Ciudad ${seq}` }
                : { notas: `Nota de la matriz ${seq}` };
          await cell(
            `${entity.path}/{id} guardar · ${a} · ${kind}`,
            allow(m.editan),
            () =>
              call(() =>
                m.record.action(
                  args(`${entity.path}/${r.id}`, a, {
                    params: { id: r.id },
                    form: formDe(entity, r, "guardar", cambio),
                  }),
                ),
              ),
            async () => {
              const now = await row(entity.table, r.id);
              const [k, v] = Object.entries(cambio)[0]!;
              return now?.[k] === v ? null : `${k} no se guardó`;
            },
          );
          const fresh = await row(entity.table, r.id);
          const eliminar = !signed ? "login" : !m.eliminan.includes(a) ? 403 : referenciado ? 409 : "ok";
          await cell(
            `${entity.path}/{id} eliminar · ${a} · ${kind}`,
            eliminar,
            () =>
              call(() =>
                m.record.action(
                  args(`${entity.path}/${r.id}`, a, {
                    params: { id: r.id },
                    form: { intent: "eliminar", version: String(fresh!.version) },
                  }),
                ),
              ),
            async () => ((await row(entity.table, r.id)) ? "sigue ahí" : null),
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("datos por necesidad: el IBAN y las notas de un proveedor, solo los administradores; el presupuesto de un departamento, quien está a su cargo", async () => {
    seq += 1;
    const IBAN = generateValidEsIban(6_000_000 + seq);
    const NOTAS = `Paga a 30 días, matriz ${seq}`;
    // As the owner, through the columns the forms write: the database keeps them apart.
    const prov = await insertMaestro(app.db, "proveedores", `P${seq}DN`, 950_000 + seq * 7919);
    await app.db.updateTable("proveedores").set({ iban: IBAN, notas: NOTAS }).where("id", "=", prov).execute();
    const PRESUPUESTO = { [dep.A]: "1234.56", [dep.B]: "6543.21" };
    for (const [id, importe] of Object.entries(PRESUPUESTO))
      await app.db.updateTable("departamentos").set({ presupuesto_mensual: importe }).where("id", "=", id).execute();
    const pago = () =>
      app.db.selectFrom("proveedores_pago").select(["iban", "notas"]).where("id", "=", prov).executeTakeFirst();
    expect(await pago()).toEqual({ iban: IBAN, notas: NOTAS });

    const lee = (body: string, ...valores: string[]) => valores.some((v) => body.includes(v));
    for (const a of ACTORES) {
      const me = actorUser(a);
      const signed = a !== "anonimo" && a !== "inactivo";
      const admin = a === "administrador";
      const expected = signed ? "ok" : "login";
      // The supplier's page, its list and its CSV: the IBAN and the notes only for an administrador.
      for (const [what, run] of [
        ["ficha", () => call(() => prov_id.loader(args(`/proveedores/${prov}`, a, { params: { id: prov } })))],
        ["lista", () => call(() => prov_index.loader(args(`/proveedores?q=P${seq}DN`, a)))],
        ["CSV", () => call(() => prov_csv.loader(args(`/proveedores/exportar?q=P${seq}DN`, a)))],
      ] as const)
        await cell(`/proveedores ${what} · IBAN y notas · ${a}`, expected, run, async (r) => {
          const visto = lee(r.body, IBAN, NOTAS);
          if (what === "ficha" && admin) return visto ? null : "no muestra el IBAN ni las notas";
          return visto ? "muestra el IBAN o las notas" : null;
        });
      // A department's page: its budget for the administradores and the aprobador in charge of it.
      for (const [d, importe] of Object.entries(PRESUPUESTO)) {
        const suyo = admin || (me?.rol === "aprobador" && me.departamento === d);
        await cell(
          `/departamentos/{id} presupuesto · ${d === dep.A ? "A" : "B"} · ${a}`,
          expected,
          () => call(() => dep_id.loader(args(`/departamentos/${d}`, a, { params: { id: d } }))),
          async (r) => {
            const visto = (JSON.parse(r.body) as { record: { presupuesto_mensual: string | null } }).record
              .presupuesto_mensual;
            return visto === (suyo ? importe : null) ? null : `presupuesto ${visto}`;
          },
        );
      }
      await cell(
        `/departamentos CSV · presupuestos · ${a}`,
        expected,
        () => call(() => dep_csv.loader(args("/departamentos/exportar", a))),
        async (r) => {
          // «1234,56» or «1.234,56»: its last digits, with the decimal comma.
          const enCsv = (importe: string) => r.body.includes(importe.slice(-6).replace(".", ","));
          for (const [d, importe] of Object.entries(PRESUPUESTO)) {
            const suyo = admin || (me?.rol === "aprobador" && me.departamento === d);
            if (enCsv(importe) !== suyo)
              return `presupuesto de ${d === dep.A ? "A" : "B"}: ${suyo ? "falta" : "se ve"}`;
          }
          return null;
        },
      );
      if (!signed || !me) continue;
      // The store as PostgREST serves it (`select=iban`): nothing for anyone but an administrador.
      const store = sqlStore(app.db, me.id);
      for (const [source, column] of [
        ["proveedores", "iban"],
        ["proveedores", "notas"],
        ["proveedores_vista", "iban"],
        ["proveedores_vista", "notas"],
        ["proveedores_pago", "iban"],
      ] as const) {
        cells += 1;
        const { rows } = await store.list<Record<string, unknown>>(source, {
          filters: [{ column: "id", op: "eq", value: prov }],
          columns: ["id", column],
          limit: 1,
          offset: 0,
          count: "none",
        });
        const got = rows.filter((r) => r[column] !== null).length;
        const want = admin && source !== "proveedores" ? 1 : 0;
        if (got !== want) failures.push(`almacén ${source}?select=${column} · ${a}: se esperaba ${want}, llegó ${got}`);
      }
      for (const [d, importe] of Object.entries(PRESUPUESTO)) {
        cells += 1;
        const suyo = admin || (me.rol === "aprobador" && me.departamento === d);
        const { rows } = await store.list<Record<string, unknown>>("departamentos_presupuesto", {
          filters: [{ column: "id", op: "eq", value: d }],
          columns: ["presupuesto_mensual"],
          limit: 1,
          offset: 0,
          count: "none",
        });
        const got = rows[0]?.presupuesto_mensual ?? null;
        if (got !== (suyo ? importe : null))
          failures.push(`almacén departamentos_presupuesto · ${d === dep.A ? "A" : "B"} · ${a}: llegó ${String(got)}`);
      }
    }

    // An aprobador edits the supplier: the IBAN and notes he posts are not his to write (dropped),
    // and the ones stored stay as they were.
    const antes = (await row("proveedores", prov))!;
    await cell(
      "/proveedores/{id} guardar con IBAN y notas · aprobador",
      "ok",
      () =>
        call(() =>
          prov_id.action(
            args(`/proveedores/${prov}`, "aprobador", {
              params: { id: prov },
              form: {
                intent: "guardar",
                version: String(antes.version),
                razon_social: String(antes.razon_social),
                tipo_persona: "empresa",
                pais: "ES",
                nif: String(antes.nif),
                categoria: "otros",
                activo: "on",
                ciudad: "Soria",
                iban: generateValidEsIban(7_000_000 + seq),
                notas: "Cambiada por el aprobador",
              },
            }),
          ),
        ),
      async () => {
        const now = await row("proveedores", prov);
        const guardado = await pago();
        if (now?.ciudad !== "Soria") return "la ciudad no se guardó";
        return guardado?.iban === IBAN && guardado.notas === NOTAS ? null : `IBAN o notas cambiados: ${guardado?.iban}`;
      },
    );
    // An administrador does write them, from the same form.
    const nuevo = generateValidEsIban(8_000_000 + seq);
    const ahora = (await row("proveedores", prov))!;
    await cell(
      "/proveedores/{id} guardar IBAN y notas · administrador",
      "ok",
      () =>
        call(() =>
          prov_id.action(
            args(`/proveedores/${prov}`, "administrador", {
              params: { id: prov },
              form: {
                intent: "guardar",
                version: String(ahora.version),
                razon_social: String(ahora.razon_social),
                tipo_persona: "empresa",
                pais: "ES",
                nif: String(ahora.nif),
                categoria: "otros",
                activo: "on",
                ciudad: "Soria",
                iban: nuevo,
                notas: "Cambiada por la administradora",
              },
            }),
          ),
        ),
      async () => {
        const guardado = await pago();
        return guardado?.iban === nuevo && guardado.notas === "Cambiada por la administradora" ? null : "no se guardó";
      },
    );
    expect(failures).toEqual([]);
  });

  it("usuarios: lista, CSV, ficha, el propio perfil, el de otra persona del departamento y el de otro departamento; nadie crea aquí", async () => {
    const fresh = async (departamento: string) => {
      seq += 1;
      const { id } = await app.db
        .insertInto("auth.users")
        .values({
          email: `matriz${seq}@oficina.test`,
          email_confirmed_at: sql`now()`,
          raw_user_meta_data: JSON.stringify({ nombre: `Persona ${seq}` }),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await app.db
        .updateTable("usuarios")
        .set({ departamento_id: departamento, sucursal_id: suc, rol: "empleado" })
        .where("id", "=", id)
        .execute();
      return String(id);
    };
    for (const a of ACTORES) {
      const me = actorUser(a);
      const signed = a !== "anonimo" && a !== "inactivo";
      await cell(`/usuarios lista · ${a}`, signed ? "ok" : "login", () =>
        call(() => usu_index.loader(args("/usuarios", a))),
      );
      await cell(`/usuarios/exportar · ${a}`, signed ? "ok" : "login", () =>
        call(() => usu_csv.loader(args("/usuarios/exportar", a))),
      );
      // There is no «Nuevo usuario»: people are invited (intent «invitar»), by administradores only.
      const refused = a === "administrador" ? 400 : signed ? 403 : "login";
      await cell(`/usuarios crear · ${a}`, refused, () =>
        call(() => usu_index.action(args("/usuarios?index", a, { form: { nombre: "X" } }))),
      );
      seq += 1;
      const invitada = `invitada${seq}@oficina.test`;
      await cell(
        `/usuarios invitar · ${a}`,
        a === "administrador" ? "ok" : signed ? 403 : "login",
        () =>
          call(() =>
            usu_index.action(
              args("/usuarios?index", a, {
                form: {
                  intent: "invitar",
                  _envio: crypto.randomUUID(),
                  nombre: "Invitada",
                  email: invitada,
                  rol: "administrador",
                },
              }),
            ),
          ),
        async () =>
          (await app.db.selectFrom("auth.users").select("id").where("email", "=", invitada).executeTakeFirst())
            ? null
            : "no se creó la cuenta invitada",
      );
      const pendiente = await app.services.invitations!(app.services.storeFor({ userId: u.admin.id })).create(
        u.admin.id,
        {
          nombre: "Pendiente",
          apellidos: null,
          email: `pendiente${seq}@oficina.test`,
          rol: "empleado",
          departamento_id: null,
          sucursal_id: null,
          aprobador_id: null,
        },
      );
      const pid = pendiente.ok ? pendiente.id : "";
      for (const intent of ["reenviar", "cancelar"])
        await cell(`/usuarios ${intent} invitación · ${a}`, a === "administrador" ? "ok" : signed ? 403 : "login", () =>
          call(() => usu_index.action(args("/usuarios?index", a, { form: { intent, id: pid } }))),
        );
      const mine = me ?? u.empleadoA;
      const otroDep = mine.departamento === dep.B ? dep.A : dep.B;
      for (const [kind, target] of [
        ["propio", async () => mine.id],
        ["de otra persona del departamento", () => fresh(mine.departamento)],
        ["de otro departamento", () => fresh(otroDep)],
      ] as const) {
        const id = await target();
        const propio = id === me?.id;
        await cell(`/usuarios/{id} ver · ${a} · ${kind}`, signed ? "ok" : "login", () =>
          call(() => usu_id.loader(args(`/usuarios/${id}`, a, { params: { id } }))),
        );
        const r = (await row("usuarios", id))!;
        const puesto = `Puesto ${++seq}`;
        const guardar: Expect = !signed ? "login" : propio || a === "administrador" ? "ok" : 403;
        await cell(
          `/usuarios/{id} guardar · ${a} · ${kind}`,
          guardar,
          () =>
            call(() =>
              usu_id.action(
                args(`/usuarios/${id}`, a, {
                  params: { id },
                  form: formDe(usuarios, r, "guardar", {
                    puesto,
                    ...(propio && a !== "administrador" ? { rol: "administrador", activo: "" } : {}),
                  }),
                }),
              ),
            ),
          async () => {
            const now = (await row("usuarios", id))!;
            if (now.puesto !== puesto) return "el puesto no se guardó";
            if (propio && a !== "administrador" && (now.rol !== r.rol || now.activo !== r.activo))
              return "cambió su propio rol o estado";
            return null;
          },
        );
        const eliminar: Expect = !signed ? "login" : a === "administrador" && !propio ? "ok" : 403;
        const v = (await row("usuarios", id))!.version;
        await cell(
          `/usuarios/{id} eliminar · ${a} · ${kind}`,
          eliminar,
          () =>
            call(() =>
              usu_id.action(
                args(`/usuarios/${id}`, a, { params: { id }, form: { intent: "eliminar", version: String(v) } }),
              ),
            ),
          async () => ((await row("usuarios", id)) ? "sigue ahí" : null),
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it("justificantes: adjuntar, abrir y quitar, en borrador y pendiente, por rol y tipo de gasto", async () => {
    // Every cell uploads as the same few people: their per-person upload limit (tested on its
    // own in justificantes.test.ts) starts afresh for each.
    const subir = async (gastoId: string, cookie: string | undefined, nombre: string) => {
      await sql`delete from auth.local_rate_limits where key like 'subidas:%'`.execute(app.db);
      return call(() =>
        gastos_justificantes.action({
          request: new Request(new URL(`/gastos/${gastoId}/justificantes`, ORIGIN), {
            method: "POST",
            headers: { Origin: ORIGIN, ...(cookie ? { Cookie: cookie } : {}) },
            body: formulario([{ nombre, datos: recibo, tipo: "image/png" }]),
          }),
          context: app.context(),
          params: { id: gastoId },
        }),
      );
    };
    const recibo = await archivos.png();
    const justificantesDe = (gastoId: string) =>
      app.db.selectFrom("justificantes").select(["id", "nombre"]).where("gasto_id", "=", gastoId).execute();
    for (const a of ACTORES) {
      for (const k of kindsFor(a)) {
        for (const estado of ["borrador", "pendiente"] as const) {
          // A gasto with one receipt, attached while a borrador (by an administrador: the
          // inactive person's own gasto has one too).
          const g = await gasto(k.solicitante, "borrador");
          expect((await subir(g.id, u.admin.cookie, "ticket.png")).status).toBe(302);
          const [uno] = await justificantesDe(g.id);
          if (estado === "pendiente") {
            const aprobador = (k as { aprobador?: U }).aprobador ?? aprobadorDe(k.solicitante);
            await app.db
              .updateTable("gastos")
              .set({ estado, aprobador_id: aprobador.id })
              .where("id", "=", g.id)
              .execute();
          }
          const ahora = (await row("gastos", g.id)) as G;
          const me = actorUser(a);
          const visible = me !== null && a !== "inactivo" && ve(me, ahora);
          const editable = visible && (ahora.solicitante_id === me!.id || me!.rol === "administrador");
          const escribir: Expect =
            !me || a === "inactivo" ? "login" : !visible ? 404 : editable && estado === "borrador" ? "ok" : 403;
          const name = `justificantes · ${a} · ${k.kind} · ${estado}`;

          await cell(
            `${name} · abrir`,
            !me || a === "inactivo" ? "login" : visible ? "ok" : 404,
            () =>
              call(() =>
                justificante.loader({
                  request: request(`/justificantes/${uno!.id}`, { cookie: cookieOf(a) }),
                  context: app.context(),
                  params: { id: uno!.id },
                }),
              ),
            async (r) => (r.status === 200 ? null : `llegó ${r.status}`),
          );
          await cell(
            `${name} · adjuntar`,
            escribir,
            () => subir(g.id, cookieOf(a), "otro.png"),
            async () => ((await justificantesDe(g.id)).length === 2 ? null : "no se adjuntó"),
          );
          await cell(
            `${name} · quitar`,
            escribir,
            () =>
              call(() =>
                gastos_justificantes.action({
                  request: request(`/gastos/${g.id}/justificantes`, {
                    cookie: cookieOf(a),
                    form: { intent: "eliminar", justificante: uno!.id },
                  }),
                  context: app.context(),
                  params: { id: g.id },
                }),
              ),
            async () =>
              (await justificantesDe(g.id)).some((j) => j.id === uno!.id) ? "el justificante sigue ahí" : null,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("administración fiscal (tipos de IVA, IVA por categoría, empresa): solo los administradores; para los demás no existe", async () => {
    for (const a of ACTORES) {
      const signed = a !== "anonimo" && a !== "inactivo";
      const admin = a === "administrador";
      // What an administrador may do, «ok» or its refusal; to anyone else signed in, a 404 as for any page that does not exist.
      const only = (paraAdmin: Expect): Expect => (!signed ? "login" : admin ? paraAdmin : 404);
      for (const [path, m] of [
        ["/tipos-iva", { index: iva_index, csv: iva_csv }],
        ["/categorias-fiscales", { index: cat_index, csv: cat_csv }],
      ] as const) {
        await cell(`${path} lista · ${a}`, only("ok"), () => call(() => m.index.loader(args(path, a))));
        await cell(`${path}/exportar · ${a}`, only("ok"), () => call(() => m.csv.loader(args(`${path}/exportar`, a))));
      }

      seq += 1;
      const nombre = `Tipo de la matriz ${seq}`;
      const desde = `${2100 + (seq % 7000)}-01-01`;
      await cell(
        `/tipos-iva crear · ${a}`,
        only("ok"),
        () =>
          call(() =>
            iva_index.action(
              args("/tipos-iva?index", a, { form: { clave: "10", nombre, desde, _envio: crypto.randomUUID() } }),
            ),
          ),
        async () =>
          (await app.db.selectFrom("tipos_iva").select("id").where("nombre", "=", nombre).execute()).length === 1
            ? null
            : "no se creó",
      );
      const tipo = (await app.db
        .insertInto("tipos_iva")
        .values({ clave: "4", porcentaje: "4", nombre: `Tipo ${seq}`, desde: `${2100 + (seq % 7000)}-06-01` })
        .returning(["id", "version", "desde"])
        .executeTakeFirstOrThrow()) as { id: string; version: number; desde: string };
      await cell(`/tipos-iva/{id} ver · ${a}`, only("ok"), () =>
        call(() => iva_id.loader(args(`/tipos-iva/${tipo.id}`, a, { params: { id: tipo.id } }))),
      );
      const renombrado = `Renombrado ${seq}`;
      await cell(
        `/tipos-iva/{id} guardar · ${a}`,
        only("ok"),
        () =>
          call(() =>
            iva_id.action(
              args(`/tipos-iva/${tipo.id}`, a, {
                params: { id: tipo.id },
                form: { intent: "guardar", version: String(tipo.version), nombre: renombrado, desde: tipo.desde },
              }),
            ),
          ),
        async () => ((await row("tipos_iva", tipo.id))?.nombre === renombrado ? null : "no se guardó"),
      );
      const vigente = (await row("tipos_iva", tipo.id))!;
      await cell(`/tipos-iva/{id} eliminar · ${a}`, only(403), () =>
        call(() =>
          iva_id.action(
            args(`/tipos-iva/${tipo.id}`, a, {
              params: { id: tipo.id },
              form: { intent: "eliminar", version: String(vigente.version) },
            }),
          ),
        ),
      );

      await cell(`/categorias-fiscales crear · ${a}`, only(403), () =>
        call(() =>
          cat_index.action(
            args("/categorias-fiscales?index", a, {
              form: {
                categoria: "otros",
                tipo_iva: "21",
                deducibilidad: "factura_empresa",
                _envio: crypto.randomUUID(),
              },
            }),
          ),
        ),
      );
      const categoria = (await app.db
        .selectFrom("categorias_fiscales")
        .selectAll()
        .where("categoria", "=", "mensajeria")
        .executeTakeFirstOrThrow()) as Fila;
      await cell(`/categorias-fiscales/{id} ver · ${a}`, only("ok"), () =>
        call(() => cat_id.loader(args(`/categorias-fiscales/${categoria.id}`, a, { params: { id: categoria.id } }))),
      );
      const otroTipo = categoria.tipo_iva === "21" ? "10" : "21";
      await cell(
        `/categorias-fiscales/{id} guardar · ${a}`,
        only("ok"),
        () =>
          call(() =>
            cat_id.action(
              args(`/categorias-fiscales/${categoria.id}`, a, {
                params: { id: categoria.id },
                form: {
                  intent: "guardar",
                  version: String(categoria.version),
                  tipo_iva: otroTipo,
                  deducibilidad: "factura_empresa",
                  cuenta_gasto: "624",
                },
              }),
            ),
          ),
        async () => ((await row("categorias_fiscales", categoria.id))?.tipo_iva === otroTipo ? null : "no se guardó"),
      );
      const cat = (await row("categorias_fiscales", categoria.id))!;
      await cell(`/categorias-fiscales/{id} eliminar · ${a}`, only(403), () =>
        call(() =>
          cat_id.action(
            args(`/categorias-fiscales/${cat.id}`, a, {
              params: { id: cat.id },
              form: { intent: "eliminar", version: String(cat.version) },
            }),
          ),
        ),
      );

      await cell(`/empresa ver · ${a}`, only("ok"), () => call(() => empresa_route.loader(args("/empresa", a))));
      const empresa = (await app.db.selectFrom("empresa").selectAll().executeTakeFirstOrThrow()) as Fila;
      const ciudad = `Ciudad ${seq}`;
      await cell(
        `/empresa guardar · ${a}`,
        only("ok"),
        () =>
          call(() =>
            empresa_route.action(
              args("/empresa", a, {
                form: {
                  intent: "guardar",
                  version: String(empresa.version),
                  razon_social: "Matriz, S.L.",
                  nif: generateValidCif(612_345),
                  direccion: "Calle Mayor 1",
                  codigo_postal: "26001",
                  ciudad,
                  pais: "ES",
                  tarifa_km: "0,26",
                  dieta_espana_sin_pernocta: "26,67",
                  dieta_espana_con_pernocta: "53,34",
                  dieta_extranjero_sin_pernocta: "48,08",
                  dieta_extranjero_con_pernocta: "91,35",
                },
              }),
            ),
          ),
        async () =>
          (await app.db.selectFrom("empresa").select("ciudad").executeTakeFirstOrThrow()).ciudad === ciudad
            ? null
            : "no se guardó",
      );
      const ahora = await app.db.selectFrom("empresa").select("version").executeTakeFirstOrThrow();
      await cell(`/empresa eliminar · ${a}`, only(403), () =>
        call(() =>
          empresa_route.action(args("/empresa", a, { form: { intent: "eliminar", version: String(ahora.version) } })),
        ),
      );
    }
    expect(failures).toEqual([]);
  });

  it("políticas de gasto: las lee cualquier usuario activo y ubicado; las crea, cambia y elimina un administrador", async () => {
    const categorias = ["comidas", "alojamiento", "formacion", "mensajeria", "combustible"] as const;
    for (const [i, a] of ACTORES.entries()) {
      const signed = a !== "anonimo" && a !== "inactivo";
      const admin = a === "administrador";
      const leer: Expect = signed ? "ok" : "login";
      const escribir = (paraAdmin: Expect): Expect => (!signed ? "login" : admin ? paraAdmin : 403);
      await cell(`/politicas-gasto lista · ${a}`, leer, () =>
        call(() => pol_index.loader(args("/politicas-gasto", a))),
      );
      await cell(`/politicas-gasto/exportar · ${a}`, leer, () =>
        call(() => pol_csv.loader(args("/politicas-gasto/exportar", a))),
      );
      const categoria = categorias[i]!;
      await cell(
        `/politicas-gasto crear · ${a}`,
        escribir("ok"),
        () =>
          call(() =>
            pol_index.action(
              args("/politicas-gasto?index", a, {
                form: { categoria, departamento_id: dep.C, maximo_por_gasto: "80,00", _envio: crypto.randomUUID() },
              }),
            ),
          ),
        async () =>
          (await app.db.selectFrom("politicas_gasto").select("id").where("categoria", "=", categoria).execute())
            .length === 1
            ? null
            : "no se creó",
      );
      const politica = (await app.db
        .insertInto("politicas_gasto")
        .values({ categoria, departamento_id: dep.B, maximo_por_dia: "40.00" })
        .returning(["id", "version"])
        .executeTakeFirstOrThrow()) as { id: string; version: number };
      await cell(`/politicas-gasto/{id} ver · ${a}`, leer, () =>
        call(() => pol_id.loader(args(`/politicas-gasto/${politica.id}`, a, { params: { id: politica.id } }))),
      );
      await cell(
        `/politicas-gasto/{id} guardar · ${a}`,
        escribir("ok"),
        () =>
          call(() =>
            pol_id.action(
              args(`/politicas-gasto/${politica.id}`, a, {
                params: { id: politica.id },
                form: {
                  intent: "guardar",
                  version: String(politica.version),
                  categoria,
                  departamento_id: dep.B,
                  maximo_por_dia: "45,00",
                },
              }),
            ),
          ),
        async () => ((await row("politicas_gasto", politica.id))?.maximo_por_dia === "45.00" ? null : "no se guardó"),
      );
      const vigente = (await row("politicas_gasto", politica.id))!;
      await cell(
        `/politicas-gasto/{id} eliminar · ${a}`,
        escribir("ok"),
        () =>
          call(() =>
            pol_id.action(
              args(`/politicas-gasto/${politica.id}`, a, {
                params: { id: politica.id },
                form: { intent: "eliminar", version: String(vigente.version) },
              }),
            ),
          ),
        async () => ((await row("politicas_gasto", politica.id)) ? "no se eliminó" : null),
      );
    }
    expect(failures).toEqual([]);
  });

  it("viajes: cada uno los suyos, quien aprueba los de su gente; límites de IRPF e informe, solo administradores", async () => {
    const viaje = async () => {
      const { id, version } = await app.db
        .insertInto("viajes")
        .values({
          solicitante_id: u.empleadoA.id,
          destino_municipio: "Bilbao",
          motivo: "Matriz",
          salida: `${hoy} 08:00`,
          regreso: `${hoy} 20:00`,
        })
        .returning(["id", "version"])
        .executeTakeFirstOrThrow();
      return { id: String(id), version: Number(version) };
    };
    const gastoDe = (viajeId: string, estado: "borrador" | "pendiente") =>
      app.db
        .insertInto("gastos")
        .values({
          descripcion: "Kilometraje de la matriz",
          fecha_gasto: hoy,
          categoria: "viajes_transporte",
          metodo_pago: "efectivo",
          solicitante_id: u.empleadoA.id,
          departamento_id: dep.A,
          sucursal_id: suc,
          viaje_id: viajeId,
          clase: "kilometraje",
          km_origen: "Madrid",
          km_destino: "Getafe",
          km: "14",
          estado,
          aprobador_id: estado === "pendiente" ? u.aprobadorA.id : null,
        } as never)
        .execute();
    for (const a of ACTORES) {
      const signed = a !== "anonimo" && a !== "inactivo";
      const admin = a === "administrador";
      const si = (e: Expect): Expect => (!signed ? "login" : e);
      const soloAdmin = (e: Expect, otro: Expect = 404): Expect => (!signed ? "login" : admin ? e : otro);
      await cell(`/viajes lista · ${a}`, si("ok"), () => call(() => viajes_index.loader(args("/viajes", a))));
      await cell(`/viajes/exportar · ${a}`, si("ok"), () => call(() => viajes_csv.loader(args("/viajes/exportar", a))));
      seq += 1;
      const motivo = `Viaje de la matriz ${seq}`;
      await cell(
        `/viajes crear · ${a}`,
        si("ok"),
        () =>
          call(() =>
            viajes_index.action(
              args("/viajes?index", a, {
                form: {
                  destino_municipio: "Sevilla",
                  destino_pais: "ES",
                  motivo,
                  salida: `${hoy}T08:00`,
                  regreso: `${hoy}T20:00`,
                  _envio: crypto.randomUUID(),
                },
              }),
            ),
          ),
        async () =>
          (await app.db.selectFrom("viajes").select("id").where("motivo", "=", motivo).execute()).length === 1
            ? null
            : "no se creó",
      );
      const v = await viaje();
      const ver = (id: string) => args(`/viajes/${id}`, a, { params: { id } });
      await cell(`/viajes/{id} ver · ${a}`, si("ok"), () => call(() => viajes_id.loader(ver(v.id))));
      await cell(
        `/viajes/{id} guardar · ${a}`,
        si(a === "aprobador" ? 403 : "ok"),
        () =>
          call(() =>
            viajes_id.action({
              ...ver(v.id),
              request: request(`/viajes/${v.id}`, {
                cookie: cookieOf(a),
                form: {
                  intent: "guardar",
                  version: String(v.version),
                  destino_municipio: "Vitoria",
                  destino_pais: "ES",
                  motivo: "Matriz",
                  salida: `${hoy}T08:00`,
                  regreso: `${hoy}T20:00`,
                  ...(admin ? { solicitante_id: u.empleadoA.id } : {}),
                },
              }),
            }),
          ),
        async () => ((await row("viajes", v.id))?.destino_municipio === "Vitoria" ? null : "no se guardó"),
      );
      const e = await viaje();
      await gastoDe(e.id, "borrador");
      await cell(
        `/viajes/{id} enviar · ${a}`,
        si(a === "aprobador" ? 403 : "ok"),
        () =>
          call(() =>
            viajes_id.action({
              ...ver(e.id),
              request: request(`/viajes/${e.id}`, {
                cookie: cookieOf(a),
                form: { intent: "enviar", version: String(e.version) },
              }),
            }),
          ),
        async () =>
          (await app.db.selectFrom("gastos").select("estado").where("viaje_id", "=", e.id).executeTakeFirstOrThrow())
            .estado === "pendiente"
            ? null
            : "no se envió",
      );
      const p = await viaje();
      await gastoDe(p.id, "pendiente");
      await cell(
        `/viajes/{id} aprobar · ${a}`,
        si(a === "empleado" ? 403 : "ok"),
        () =>
          call(() =>
            viajes_id.action({
              ...ver(p.id),
              request: request(`/viajes/${p.id}`, {
                cookie: cookieOf(a),
                form: { intent: "aprobar", version: String(p.version) },
              }),
            }),
          ),
        async () =>
          (await app.db.selectFrom("gastos").select("estado").where("viaje_id", "=", p.id).executeTakeFirstOrThrow())
            .estado === "aprobado"
            ? null
            : "no se aprobó",
      );

      // The same steps on the trips checked in the list: the empleado is refused before anything
      // is read (and without a motivo, rejecting changes nothing, for whoever may).
      const q = await viaje();
      await gastoDe(q.id, "pendiente");
      const estadoDe = async (id: string) =>
        (await app.db.selectFrom("gastos").select("estado").where("viaje_id", "=", id).executeTakeFirstOrThrow())
          .estado;
      await cell(`/viajes rechazar seleccionados sin motivo · ${a}`, si(a === "empleado" ? 403 : 400), () =>
        call(() =>
          viajes_index.action(
            args("/viajes?index", a, { form: { intent: "rechazar_seleccion", seleccion: `${q.id}:${q.version}` } }),
          ),
        ),
      );
      await cell(
        `/viajes aprobar seleccionados · ${a}`,
        si(a === "empleado" ? 403 : "ok"),
        () =>
          call(() =>
            viajes_index.action(
              args("/viajes?index", a, { form: { intent: "aprobar_seleccion", seleccion: `${q.id}:${q.version}` } }),
            ),
          ),
        async () => ((await estadoDe(q.id)) === "aprobado" ? null : "no se aprobó"),
      );

      await cell(`/limites-irpf lista · ${a}`, soloAdmin("ok"), () =>
        call(() => lim_index.loader(args("/limites-irpf", a))),
      );
      await cell(`/limites-irpf/exportar · ${a}`, soloAdmin("ok"), () =>
        call(() => lim_csv.loader(args("/limites-irpf/exportar", a))),
      );
      const desde = `${2100 + (seq % 7000)}-01-01`;
      await cell(
        `/limites-irpf crear · ${a}`,
        soloAdmin("ok"),
        () =>
          call(() =>
            lim_index.action(
              args("/limites-irpf?index", a, {
                form: { tipo: "km", vigente_desde: desde, importe: "0,30", _envio: crypto.randomUUID() },
              }),
            ),
          ),
        async () =>
          (await app.db.selectFrom("limites_exentos_irpf").select("id").where("vigente_desde", "=", desde).execute())
            .length === 1
            ? null
            : "no se creó",
      );
      const limite = (await app.db
        .insertInto("limites_exentos_irpf")
        .values({ tipo: "dieta_espana_sin_pernocta", vigente_desde: `${2100 + (seq % 7000)}-06-01`, importe: "30.00" })
        .returning(["id", "version", "vigente_desde"])
        .executeTakeFirstOrThrow()) as { id: string; version: number; vigente_desde: string };
      const lim = (form?: Record<string, string>) =>
        args(`/limites-irpf/${limite.id}`, a, { params: { id: limite.id }, form });
      await cell(`/limites-irpf/{id} ver · ${a}`, soloAdmin("ok"), () => call(() => lim_id.loader(lim())));
      await cell(
        `/limites-irpf/{id} guardar · ${a}`,
        soloAdmin("ok"),
        () =>
          call(() =>
            lim_id.action(
              lim({
                intent: "guardar",
                version: String(limite.version),
                vigente_desde: limite.vigente_desde,
                importe: "31,00",
              }),
            ),
          ),
        async () => ((await row("limites_exentos_irpf", limite.id))?.importe === "31.00" ? null : "no se guardó"),
      );
      const vigente = (await row("limites_exentos_irpf", limite.id))!;
      await cell(`/limites-irpf/{id} eliminar · ${a}`, soloAdmin(403), () =>
        call(() => lim_id.action(lim({ intent: "eliminar", version: String(vigente.version) }))),
      );

      await cell(`/viajes/informe-irpf · ${a}`, soloAdmin("ok", 403), () =>
        call(() => informe_irpf.loader(args(`/viajes/informe-irpf?anio=${hoy.slice(0, 4)}`, a))),
      );
      await cell(`/viajes/informe-irpf/exportar · ${a}`, soloAdmin("ok", 403), () =>
        call(() =>
          informe_irpf_csv.loader(args(`/viajes/informe-irpf/exportar?anio=${hoy.slice(0, 4)}&formato=csv`, a)),
        ),
      );
    }
    expect(failures).toEqual([]);
  });

  it("cuentas de la empresa (solo los administradores) y datos bancarios en la ficha (la persona y los administradores)", async () => {
    for (const a of ACTORES) {
      const signed = a !== "anonimo" && a !== "inactivo";
      const admin = a === "administrador";
      const only = (paraAdmin: Expect): Expect => (!signed ? "login" : admin ? paraAdmin : 404);
      await cell(`/cuentas-empresa lista · ${a}`, only("ok"), () =>
        call(() => ce_index.loader(args("/cuentas-empresa", a))),
      );
      await cell(`/cuentas-empresa/exportar · ${a}`, only("ok"), () =>
        call(() => ce_csv.loader(args("/cuentas-empresa/exportar", a))),
      );
      seq += 1;
      const datos = (nombre: string, iban: string) => ({ nombre, iban, sufijo: "000", formato: "pain.001.001.09" });
      const nombre = `Cuenta de la matriz ${seq}`;
      await cell(
        `/cuentas-empresa crear · ${a}`,
        only("ok"),
        () =>
          call(() =>
            ce_index.action(
              args("/cuentas-empresa?index", a, {
                form: { ...datos(nombre, generateValidEsIban(2_000_000 + seq)), _envio: crypto.randomUUID() },
              }),
            ),
          ),
        async () =>
          (await app.db.selectFrom("cuentas_empresa").select("id").where("nombre", "=", nombre).execute()).length === 1
            ? null
            : "no se creó",
      );
      const iban = generateValidEsIban(3_000_000 + seq);
      const cuenta = (await app.db
        .insertInto("cuentas_empresa")
        .values({ nombre: `Cuenta ${seq}`, iban })
        .returning(["id", "version"])
        .executeTakeFirstOrThrow()) as Fila;
      await cell(`/cuentas-empresa/{id} ver · ${a}`, only("ok"), () =>
        call(() => ce_id.loader(args(`/cuentas-empresa/${cuenta.id}`, a, { params: { id: cuenta.id } }))),
      );
      const renombrada = `Renombrada ${seq}`;
      await cell(
        `/cuentas-empresa/{id} guardar · ${a}`,
        only("ok"),
        () =>
          call(() =>
            ce_id.action(
              args(`/cuentas-empresa/${cuenta.id}`, a, {
                params: { id: cuenta.id },
                form: { intent: "guardar", version: String(cuenta.version), ...datos(renombrada, iban) },
              }),
            ),
          ),
        async () => ((await row("cuentas_empresa", cuenta.id))?.nombre === renombrada ? null : "no se guardó"),
      );
      const vigente = (await row("cuentas_empresa", cuenta.id))!;
      await cell(`/cuentas-empresa/{id} eliminar · ${a}`, only(403), () =>
        call(() =>
          ce_id.action(
            args(`/cuentas-empresa/${cuenta.id}`, a, {
              params: { id: cuenta.id },
              form: { intent: "eliminar", version: String(vigente.version) },
            }),
          ),
        ),
      );

      // The profile's «Datos bancarios»: its own, one of the people an aprobador approves, another department's.
      const me = actorUser(a);
      for (const [kind, target] of [
        ["propio", signed ? me! : u.empleadoA],
        ["de una persona a la que aprueba", a === "empleado" ? u.colegaA : u.empleadoA],
        ["de otro departamento", u.empleadoB],
      ] as const) {
        const propio = target.id === me?.id;
        const suya = propio || admin;
        await cell(
          `/usuarios/{id} datos bancarios ver · ${a} · ${kind}`,
          signed ? "ok" : "login",
          () => call(() => usu_id.loader(args(`/usuarios/${target.id}`, a, { params: { id: target.id } }))),
          async (r) => {
            const { datosBancarios } = JSON.parse(r.body);
            if (suya) return datosBancarios ? null : "no ve la sección";
            return datosBancarios === null ? null : "ve la sección";
          },
        );
        const actual = await app.db
          .selectFrom("datos_bancarios")
          .select("version")
          .where("usuario_id", "=", target.id)
          .executeTakeFirst();
        const nuevo = generateValidEsIban(4_000_000 + ++seq);
        await cell(
          `/usuarios/{id} datos bancarios guardar · ${a} · ${kind}`,
          !signed ? "login" : suya ? "ok" : 403,
          () =>
            call(() =>
              usu_id.action(
                args(`/usuarios/${target.id}`, a, {
                  params: { id: target.id },
                  form: {
                    intent: "datos_bancarios",
                    iban: nuevo,
                    ...(actual ? { version: String(actual.version) } : {}),
                  },
                }),
              ),
            ),
          async () =>
            (
              await app.db
                .selectFrom("datos_bancarios")
                .select("iban")
                .where("usuario_id", "=", target.id)
                .executeTakeFirst()
            )?.iban === nuevo
              ? null
              : "no se guardó",
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it("el resto de rutas: panel, 404, página de prueba de errores, acceso, cierre de sesión, confirmación", async () => {
    for (const a of ACTORES) {
      const signed = a !== "anonimo" && a !== "inactivo";
      await cell(`/ · ${a}`, signed ? "ok" : "login", () => call(() => home.loader(args("/", a))));
      await cell(`/ruta-que-no-existe · ${a}`, signed ? 404 : "login", () =>
        call(() => splat.loader(args("/ruta-que-no-existe", a, { params: { "*": "ruta-que-no-existe" } }))),
      );
      // What the generic screens do not serve is answered as a path no route serves: a 404 to
      // read it (after sign-in), a 405 to post to it (to anyone, as to a route without an action).
      // A first segment that is no entity of theirs: empresa has one record; gastos, screens of its own.
      const sinPantalla = pantallasDe("ruta-que-no-existe");
      const empresa = pantallasDe("empresa");
      const gastosGenericos = pantallasDe("gastos");
      for (const [nombre, run] of [
        ["/ruta-que-no-existe", () => sinPantalla.lista.loader(args("/ruta-que-no-existe", a))],
        ["/empresa/1", () => empresa.ficha.loader(args("/empresa/1", a, { params: { id: "1" } }))],
        ["/gastos/1", () => gastosGenericos.ficha.loader(args("/gastos/1", a, { params: { id: "1" } }))],
        ["/empresa/exportar", () => empresa.exportar.loader(args("/empresa/exportar", a))],
      ] as const)
        await cell(`${nombre} (pantallas genéricas) · ${a}`, signed ? 404 : "login", () => call(run));
      for (const [nombre, run] of [
        ["/ruta-que-no-existe", () => sinPantalla.lista.action(args("/ruta-que-no-existe", a, { form: {} }))],
        ["/empresa/1", () => empresa.ficha.action(args("/empresa/1", a, { form: {}, params: { id: "1" } }))],
      ] as const)
        await cell(`${nombre} POST (pantallas genéricas) · ${a}`, 405, () => call(run));
      // The error test page is an administrador's: to anyone else signed in it does not exist.
      const admin = a === "administrador";
      await cell(`/sentry-example-page GET · ${a}`, admin ? "ok" : signed ? 404 : "login", () =>
        call(() => sentry.loader(args("/sentry-example-page", a))),
      );
      // An administrador's POST throws on purpose (the error screen); anyone else's is a 404 or
      // the sign-in wall, never that 500.
      if (!admin)
        await cell(`/sentry-example-page POST · ${a}`, signed ? 404 : "login", () =>
          call(() => sentry.action(args("/sentry-example-page", a, { form: {} }))),
        );
      else {
        cells += 1;
        const r = await call(() => sentry.action(args("/sentry-example-page", a, { form: {} })));
        if (r.error !== "Error de prueba de Sentry en el servidor")
          failures.push(
            `/sentry-example-page POST · ${a}: se esperaba el error de prueba, llegó ${r.status} ${r.error ?? ""}`,
          );
      }
      // The libro registro de IVA and its downloads: an administrador's only.
      const libro = admin ? "ok" : signed ? 403 : "login";
      const trimestre = "periodo=trimestre&anio=2026&trimestre=1";
      await cell(`/libro-iva GET · ${a}`, libro, () =>
        call(() => libro_iva.loader(args(`/libro-iva?${trimestre}`, a))),
      );
      for (const formato of ["xlsx", "csv"])
        await cell(`/libro-iva/exportar ${formato} · ${a}`, libro, () =>
          call(() => libro_iva_exportar.loader(args(`/libro-iva/exportar?${trimestre}&formato=${formato}`, a))),
        );
      // The libro diario and its four files: an administrador's only.
      await cell(`/asientos GET · ${a}`, libro, () => call(() => asientos.loader(args(`/asientos?${trimestre}`, a))));
      for (const formato of ["xlsx", "csv", "xdiario", "xsubcta"])
        await cell(`/asientos/exportar ${formato} · ${a}`, libro, () =>
          call(() => asientos_exportar.loader(args(`/asientos/exportar?${trimestre}&formato=${formato}`, a))),
        );
      // Remesas de pago: an administrador's only (a remesa that does not exist: 404 to them).
      const remesas = admin ? "ok" : signed ? 403 : "login";
      const ninguna = "00000000-0000-4000-8000-000000000000";
      await cell(`/remesas GET · ${a}`, remesas, () => call(() => remesas_index.loader(args("/remesas", a))));
      await cell(`/remesas POST · ${a}`, admin ? 400 : signed ? 403 : "login", () =>
        call(() => remesas_index.action(args("/remesas?index", a, { form: { gasto: ninguna } }))),
      );
      // Built from the gastos list: the checked rows, or every approved gasto the filter matches.
      await cell(`/remesas?gasto={id} GET · ${a}`, remesas, () =>
        call(() => remesas_index.loader(args(`/remesas?gasto=${ninguna}&lista=vista%3Dpor_pagar`, a))),
      );
      await cell(`/remesas?lista=…&coinciden=1 GET · ${a}`, remesas, () =>
        call(() => remesas_index.loader(args("/remesas?lista=vista%3Dpor_pagar&coinciden=1", a))),
      );
      await cell(
        `/gastos POST remesa_seleccion · ${a}`,
        remesas,
        () =>
          call(() =>
            gastos_index.action(
              args("/gastos?index&vista=por_pagar", a, {
                form: { intent: "remesa_seleccion", seleccion: [`${ninguna}:1`] },
              }),
            ),
          ),
        async (r) =>
          r.status === 303 && r.location === `/remesas?gasto=${ninguna}&lista=vista%3Dpor_pagar#nueva-remesa`
            ? null
            : `llegó ${r.status} → ${r.location}`,
      );
      for (const [ruta, modulo] of [
        [`/remesas/${ninguna}`, remesas_id],
        [`/remesas/${ninguna}/fichero`, remesas_fichero],
      ] as const)
        await cell(`${ruta.replace(ninguna, "{id}")} GET · ${a}`, admin ? 404 : signed ? 403 : "login", () =>
          call(() => modulo.loader(args(ruta, a, { params: { id: ninguna } }))),
        );
      await cell(
        `/login GET · ${a}`,
        signed ? "ok" : "ok",
        () => call(() => login.loader(args("/login", a))),
        async (r) =>
          signed
            ? r.status === 302 && r.location === "/"
              ? null
              : `llegó ${r.status}`
            : r.status === 200
              ? null
              : `llegó ${r.status}`,
      );
      await cell(`/signup-confirmation POST desconocido · ${a}`, 400, () =>
        call(() => signup.action(args("/signup-confirmation", a, { form: { intent: "otra" } }))),
      );
      await cell(`/auth/confirm POST con código falso · ${a}`, 400, () =>
        call(() =>
          auth_confirm.action(args("/auth/confirm", a, { form: { token: "no-es-un-codigo", type: "email" } })),
        ),
      );
      // The invitation's landing: open to anyone (the token is the credential), never a 500.
      await cell(`/auth/invitacion GET · ${a}`, "ok", () =>
        call(() => auth_invitacion.loader(args("/auth/invitacion", a))),
      );
      await cell(`/auth/invitacion?token=falso GET · ${a}`, "ok", () =>
        call(() => auth_invitacion.loader(args("/auth/invitacion?token=no-es-un-codigo", a))),
      );
      await cell(`/auth/invitacion POST desconocido · ${a}`, 400, () =>
        call(() => auth_invitacion.action(args("/auth/invitacion", a, { form: { intent: "otra" } }))),
      );
      await cell(`/auth/invitacion POST con código falso · ${a}`, 400, () =>
        call(() =>
          auth_invitacion.action(
            args("/auth/invitacion", a, {
              form: {
                intent: "aceptar",
                token: "no-es-un-codigo",
                password: "una contraseña larga",
                confirmacion: "una contraseña larga",
              },
            }),
          ),
        ),
      );
      // Password reset: open to anyone (the token is the credential), never a 500.
      await cell(`/auth/recuperar GET · ${a}`, "ok", () =>
        call(() => auth_recuperar.loader(args("/auth/recuperar", a))),
      );
      await cell(`/auth/recuperar?token=falso GET · ${a}`, "ok", () =>
        call(() => auth_recuperar.loader(args("/auth/recuperar?token=no-es-un-codigo", a))),
      );
      await cell(`/auth/recuperar POST desconocido · ${a}`, 400, () =>
        call(() => auth_recuperar.action(args("/auth/recuperar", a, { form: { intent: "otra" } }))),
      );
      await cell(`/auth/recuperar POST con código falso · ${a}`, 400, () =>
        call(() =>
          auth_recuperar.action(
            args("/auth/recuperar", a, {
              form: {
                intent: "cambiar",
                token: "no-es-un-codigo",
                password: "una contraseña larga",
                confirmacion: "una contraseña larga",
              },
            }),
          ),
        ),
      );
    }
    // Sign-out last: it ends the sessions the cells above used.
    for (const a of ACTORES) {
      await cell(
        `/logout POST · ${a}`,
        "ok",
        () => call(() => logout.action(args("/logout", a, { form: {} }))),
        async (r) => (r.location === "/login" ? null : `llegó a ${r.location}`),
      );
      if (a !== "anonimo")
        await cell(`/ tras cerrar sesión · ${a}`, "login", () => call(() => home.loader(args("/", a))));
    }
    expect(failures).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Straight against the database, as each role (RLS and column privileges)
// ---------------------------------------------------------------------------------------------

const ROLLBACK = new Error("rollback");

/** Runs `fn` as `who` (null: anon) the way the app and PostgREST do. Rolls back when `rollback`. */
async function asRole<T>(
  who: Pick<U, "id"> | null,
  fn: (trx: TestTransaction) => Promise<T>,
  rollback: boolean,
): Promise<{ value?: T; code?: string }> {
  let value: T | undefined;
  try {
    await app.db.transaction().execute(async (trx) => {
      const claims = who ? { sub: who.id, role: "authenticated" } : { role: "anon" };
      await sql`select set_config('role', ${who ? "authenticated" : "anon"}, true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`.execute(
        trx,
      );
      value = await fn(trx);
      if (rollback) throw ROLLBACK;
    });
    return { value };
  } catch (error) {
    if (error === ROLLBACK) return { value };
    return { code: (error as { code?: string }).code ?? (error as Error).message };
  }
}

/** Expected: a row count (select/update/delete), "ok" (insert accepted), or the SQLSTATE of the refusal. */
async function dbCell(
  name: string,
  who: U | null,
  statement: (trx: TestTransaction) => Promise<number>,
  expected: number | "ok" | "42501" | "OFPRM",
) {
  cells += 1;
  const allowedChange = expected === "ok" || (typeof expected === "number" && expected > 0 && !/select/.test(name));
  const before = allowedChange ? null : await snapshot();
  const r = await asRole(who, statement, allowedChange);
  const got = r.code ?? (expected === "ok" ? "ok" : r.value);
  if (String(got) !== String(expected)) failures.push(`BD ${name}: se esperaba ${expected}, llegó ${got}`);
  if (before) {
    const after = await snapshot();
    const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
    if (changed.length) failures.push(`BD ${name}: la base de datos cambió (${changed.join(", ")})`);
  }
}

/** Rows an update/delete touched (0 when row-level security hid every row). */
const count = async (
  trx: TestTransaction,
  q: { execute: (trx: TestTransaction) => Promise<{ numAffectedRows?: bigint }> },
) => Number((await q.execute(trx)).numAffectedRows ?? 0);

describe("una cuenta de alta propia sin departamento", () => {
  it("solo ve sus gastos y su perfil (ni las tablas de referencia), y la pantalla se lo dice; al asignarle un departamento, lo demás", async () => {
    const alta = await app.createUser({ nombre: "Alta propia", altaPropia: true });
    const as = (path: string, params: Record<string, string> = {}) => ({
      request: request(path, { cookie: alta.cookie }),
      context: app.context(),
      params,
    });
    const listed = async (m: RouteModule, path: string) => {
      const r = await call(() => m.loader(as(path)));
      expect([path, r.status]).toEqual([path, 200]);
      return (JSON.parse(r.body) as { result: { rows: { id: string }[] } }).result.rows.map((x) => x.id);
    };
    const csvLines = async (m: RouteModule, path: string) => {
      const r = await call(() => m.loader(as(path)));
      return r.body.split("\r\n").filter(Boolean).length;
    };
    const layout = async () => JSON.parse((await call(() => root.loader(as("/")))).body);
    // The reference tables too (what the company is, pays and allows): their rows as this
    // account reads them, beside all of them.
    const REFERENCIA = ["tipos_iva", "categorias_fiscales", "empresa", "politicas_gasto", "limites_exentos_irpf"];
    const referencia = async () => {
      const ve: Record<string, [number, number]> = {};
      for (const t of REFERENCIA) {
        const suyas = await asRole(alta, (trx) => sql`select 1 from ${sql.table(`public.${t}`)}`.execute(trx), true);
        const todas = await sql`select 1 from ${sql.table(`public.${t}`)}`.execute(app.db);
        ve[t] = [suyas.value?.rows.length ?? -1, todas.rows.length];
      }
      return ve;
    };

    const antes = await layout();
    expect(antes.user.pendiente).toBe(true);
    expect(antes.navegacion.principal.map((x: { to: string }) => x.to)).toEqual(["/gastos"]);
    expect(antes.navegacion.grupos).toEqual([]);
    for (const [m, path] of [
      [dep_index, "/departamentos"],
      [suc_index, "/sucursales"],
      [prov_index, "/proveedores"],
    ] as const)
      expect([path, await listed(m, path)]).toEqual([path, []]);
    expect(await listed(usu_index, "/usuarios")).toEqual([alta.id]);
    for (const [m, path] of [
      [dep_csv, "/departamentos/exportar"],
      [prov_csv, "/proveedores/exportar"],
      [usu_csv, "/usuarios/exportar"],
    ] as const)
      expect([path, await csvLines(m, path)]).toEqual([path, path === "/usuarios/exportar" ? 2 : 1]);
    const otro = u.colegaA.id;
    expect((await call(() => usu_id.loader(as(`/usuarios/${otro}`, { id: otro })))).status).toBe(404);
    expect((await call(() => dep_id.loader(as(`/departamentos/${dep.A}`, { id: dep.A })))).status).toBe(404);
    expect((await call(() => usu_id.loader(as(`/usuarios/${alta.id}`, { id: alta.id })))).status).toBe(200);
    const sinUbicar = await referencia();
    for (const t of REFERENCIA) expect([t, sinUbicar[t]![0]]).toEqual([t, 0]);

    await setProfile(app.db, alta.id, { departamento_id: dep.A, sucursal_id: suc, aprobador_id: null });
    const despues = await layout();
    expect(despues.user.pendiente).toBe(false);
    // Placed, an empleado: what they can change (the rest is read-only to them, not in the navigation).
    expect(despues.navegacion.principal.map((x: { to: string }) => x.to)).toEqual(["/gastos", "/viajes"]);
    expect((await listed(dep_index, "/departamentos")).length).toBeGreaterThan(0);
    expect((await listed(usu_index, "/usuarios")).length).toBeGreaterThan(1);
    const ubicada = await referencia();
    for (const t of REFERENCIA) expect([t, ubicada[t]![0]]).toEqual([t, ubicada[t]![1]]);
    expect(ubicada.empresa).toEqual([1, 1]);
    expect(ubicada.tipos_iva![0]).toBeGreaterThan(0);
    await app.db.deleteFrom("auth.users").where("id", "=", alta.id).execute();
  });
});

describe("la base de datos como cada rol (RLS)", () => {
  const ROLES: [Actor, () => U | null][] = [
    ["anon", () => null],
    ["inactivo", () => u.inactivo],
    ["empleado", () => u.empleadoA],
    ["aprobador", () => u.aprobadorA],
    ["administrador", () => u.admin],
  ] as never;

  it("departamentos, sucursales y proveedores: ver todos los activos; escribir según el rol", async () => {
    const tables: [string, readonly string[], readonly string[], () => Record<string, unknown>][] = [
      ["departamentos", ["administrador"], ["administrador"], () => ({ nombre: `RLS ${++seq}`, codigo: `RLS${seq}` })],
      [
        "sucursales",
        ["administrador"],
        ["administrador"],
        () => ({ nombre: `RLS ${++seq}`, codigo: `RLS${seq}`, direccion: "Calle 1", ciudad: "Lugo" }),
      ],
      [
        "proveedores",
        ["administrador", "aprobador"],
        ["administrador"],
        () => ({
          razon_social: `RLS ${++seq} SL`,
          tipo_persona: "empresa",
          pais: "ES",
          nif: generateValidCif(700_000 + seq * 31),
          categoria: "otros",
        }),
      ],
    ];
    for (const [table, writers, deleters, values] of tables) {
      for (const [name, who] of ROLES) {
        const user = who();
        const anon = user === null;
        const active = !anon && name !== "inactivo";
        const target = String(
          (await anyTables(app.db).insertInto(table).values(values()).returning("id").executeTakeFirstOrThrow()).id,
        );
        await dbCell(
          `${table} select · ${name}`,
          user,
          async (trx) =>
            (await sql`select id from public.${sql.table(table)} where id = ${target}`.execute(trx)).rows.length,
          anon ? "42501" : active ? 1 : 0,
        );
        const v = values();
        await dbCell(
          `${table} insert · ${name}`,
          user,
          async (trx) => (
            await sql`insert into public.${sql.table(table)} (${sql.join(Object.keys(v).map((k) => sql.ref(k)))}) values (${sql.join(Object.values(v))})`.execute(
              trx,
            ),
            1
          ),
          anon ? "42501" : active && writers.includes(name) ? "ok" : "42501",
        );
        await dbCell(
          `${table} update · ${name}`,
          user,
          (trx) => count(trx, sql`update public.${sql.table(table)} set activo = false where id = ${target}`),
          anon ? "42501" : active && writers.includes(name) ? 1 : 0,
        );
        await dbCell(
          `${table} delete · ${name}`,
          user,
          (trx) => count(trx, sql`delete from public.${sql.table(table)} where id = ${target}`),
          anon ? "42501" : active && deleters.includes(name) ? 1 : 0,
        );
        await dbCell(
          `${table} update version · ${name}`,
          user,
          (trx) => count(trx, sql`update public.${sql.table(table)} set version = 99 where id = ${target}`),
          "42501",
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it("IBAN y notas de un proveedor, solo los administradores; presupuesto de un departamento, los administradores y su aprobador; los avisos de presupuesto siguen llegando a quien aprueba", async () => {
    seq += 1;
    const IBAN = generateValidEsIban(9_000_000 + seq);
    const prov = await insertMaestro(app.db, "proveedores", `P${seq}BD`, 960_000 + seq * 7919);
    await app.db
      .updateTable("proveedores")
      .set({ iban: IBAN, notas: `Notas ${seq}` })
      .where("id", "=", prov)
      .execute();
    // dep.A's budget is small: a pending gasto of empleadoA goes over it.
    await app.db.updateTable("departamentos").set({ presupuesto_mensual: "5.00" }).where("id", "=", dep.A).execute();
    await app.db.updateTable("departamentos").set({ presupuesto_mensual: "9000.00" }).where("id", "=", dep.B).execute();
    const sinPago = await insertMaestro(app.db, "proveedores", `P${seq}BE`, 970_000 + seq * 7919);
    // Deleting a supplier takes its IBAN and notes with it.
    const conPago = await insertMaestro(app.db, "proveedores", `P${seq}BF`, 980_000 + seq * 7919);
    await app.db
      .updateTable("proveedores")
      .set({ iban: generateValidEsIban(9_200_000 + seq) })
      .where("id", "=", conPago)
      .execute();
    const pendiente = await gasto(u.empleadoA, "pendiente");
    const apruebaAlgunoDe = async (actor: string, departamento: string) =>
      (
        await sql<{ n: number }>`select count(*)::int as n from public.gastos g
                                  where g.departamento_id = ${departamento} and g.estado = 'pendiente'
                                    and interno.motivo_no_aprueba(${actor}::uuid, g, 'aprobar') is null`.execute(app.db)
      ).rows[0]!.n > 0;
    const avisos = async (trx: TestTransaction, q: ReturnType<typeof sql<{ r: string[] | null }>>) =>
      ((await q.execute(trx)).rows[0]?.r ?? []).filter((a) => a.includes("presupuesto")).length;
    for (const [name, who] of ROLES) {
      const user = who();
      const anon = user === null;
      const active = !anon && name !== "inactivo";
      const admin = name === "administrador";
      // aprobadorA is dep.A's aprobador, not dep.B's.
      const presupuestoA = anon ? "42501" : admin || name === "aprobador" ? 1 : 0;
      const presupuestoB = anon ? "42501" : admin ? 1 : 0;
      const statements: [string, (trx: TestTransaction) => Promise<number>, number | "ok" | "42501" | "OFPRM"][] = [
        [
          "proveedores_pago select",
          async (trx) =>
            (await sql`select iban, notas from public.proveedores_pago where id = ${prov}`.execute(trx)).rows.length,
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "proveedores_vista select iban y notas",
          async (trx) =>
            (
              await sql`select iban, notas from public.proveedores_vista
                         where id = ${prov} and iban is not null and notas is not null`.execute(trx)
            ).rows.length,
          anon ? "42501" : admin ? 1 : 0,
        ],
        // The columns the forms write stay empty: the data is only in proveedores_pago.
        [
          "proveedores select iban y notas",
          async (trx) =>
            (
              await sql`select id from public.proveedores
                         where id = ${prov} and (iban is not null or notas is not null)`.execute(trx)
            ).rows.length,
          anon ? "42501" : 0,
        ],
        [
          "proveedores select (nombre y NIF para elegirlo)",
          async (trx) =>
            (await sql`select razon_social, nif from public.proveedores where id = ${prov}`.execute(trx)).rows.length,
          anon ? "42501" : active ? 1 : 0,
        ],
        [
          "proveedores update iban",
          (trx) =>
            count(
              trx,
              sql`update public.proveedores set iban = ${generateValidEsIban(9_100_000 + seq)} where id = ${prov}`,
            ),
          anon ? "42501" : admin ? 1 : name === "aprobador" ? "42501" : 0,
        ],
        [
          "proveedores update notas",
          (trx) => count(trx, sql`update public.proveedores set notas = 'Otra' where id = ${prov}`),
          anon ? "42501" : admin ? 1 : name === "aprobador" ? "42501" : 0,
        ],
        [
          "proveedores_pago update",
          (trx) => count(trx, sql`update public.proveedores_pago set notas = 'Otra' where id = ${prov}`),
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "proveedores_pago insert",
          async (trx) => (
            await sql`insert into public.proveedores_pago (id, notas) values (${sinPago}, 'Nuevas')`.execute(trx),
            1
          ),
          anon ? "42501" : admin ? "ok" : "42501",
        ],
        [
          "proveedores_pago delete",
          (trx) => count(trx, sql`delete from public.proveedores_pago where id = ${prov}`),
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "proveedores delete con IBAN",
          async (trx) => {
            const n = await count(trx, sql`delete from public.proveedores where id = ${conPago}`);
            // The IBAN goes with its supplier (-1: the supplier went, its IBAN stayed).
            const queda = (await sql`select 1 from public.proveedores_pago where id = ${conPago}`.execute(trx)).rows;
            return n === 1 && queda.length > 0 ? -1 : n;
          },
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "historial de proveedores_pago",
          async (trx) =>
            (
              await sql`select id from public.historial where tabla = 'proveedores_pago' and registro_id = ${prov}`.execute(
                trx,
              )
            ).rows.length > 0
              ? 1
              : 0,
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "historial de proveedores con IBAN o notas",
          async (trx) =>
            (
              await sql`select id from public.historial
                         where tabla = 'proveedores' and registro_id = ${prov} and cambios ?| array['iban', 'notas']`.execute(
                trx,
              )
            ).rows.length,
          anon ? "42501" : 0,
        ],
        [
          "departamentos_presupuesto select · A",
          async (trx) =>
            (
              await sql`select presupuesto_mensual from public.departamentos_presupuesto where id = ${dep.A}`.execute(
                trx,
              )
            ).rows.length,
          presupuestoA,
        ],
        [
          "departamentos_presupuesto select · B",
          async (trx) =>
            (
              await sql`select presupuesto_mensual from public.departamentos_presupuesto where id = ${dep.B}`.execute(
                trx,
              )
            ).rows.length,
          presupuestoB,
        ],
        [
          "departamentos_vista presupuesto · A",
          async (trx) =>
            (
              await sql`select id from public.departamentos_vista
                         where id = ${dep.A} and presupuesto_mensual is not null`.execute(trx)
            ).rows.length,
          presupuestoA,
        ],
        [
          "departamentos_vista presupuesto · B",
          async (trx) =>
            (
              await sql`select id from public.departamentos_vista
                         where id = ${dep.B} and presupuesto_mensual is not null`.execute(trx)
            ).rows.length,
          presupuestoB,
        ],
        // Called directly (the budget warnings call it): the same people, or whoever may approve
        // a pending gasto of that department now.
        [
          "interno.presupuesto_del_mes · A",
          async (trx) =>
            (
              await sql`select 1 from interno.presupuesto_del_mes(${dep.A}, current_date)
                         where presupuesto is not null and aprobado is not null`.execute(trx)
            ).rows.length,
          presupuestoA,
        ],
        // dep.B's is not theirs: they see it only while they may approve one of its pending
        // gastos (other tests leave some), by the approval rule read as the owner.
        [
          "interno.presupuesto_del_mes · B",
          async (trx) =>
            (
              await sql`select 1 from interno.presupuesto_del_mes(${dep.B}, current_date)
                         where presupuesto is not null or aprobado is not null`.execute(trx)
            ).rows.length,
          anon ? "42501" : admin || (active && (await apruebaAlgunoDe(user.id, dep.B))) ? 1 : 0,
        ],
        [
          "departamentos select presupuesto",
          async (trx) =>
            (
              await sql`select id from public.departamentos
                         where id in (${dep.A}, ${dep.B}) and presupuesto_mensual is not null`.execute(trx)
            ).rows.length,
          anon ? "42501" : 0,
        ],
        [
          "historial de departamentos_presupuesto · B",
          async (trx) =>
            (
              await sql`select id from public.historial
                         where tabla = 'departamentos_presupuesto' and registro_id = ${dep.B}`.execute(trx)
            ).rows.length > 0
              ? 1
              : 0,
          presupuestoB,
        ],
        [
          "departamentos update presupuesto",
          (trx) => count(trx, sql`update public.departamentos set presupuesto_mensual = 1 where id = ${dep.A}`),
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "departamentos_presupuesto update",
          (trx) =>
            count(trx, sql`update public.departamentos_presupuesto set presupuesto_mensual = 1 where id = ${dep.A}`),
          anon ? "42501" : admin ? 1 : 0,
        ],
        // Security definer functions still read the budget for whoever approves the gasto.
        [
          "avisos_antes_de_aprobar · presupuesto",
          (trx) =>
            avisos(trx, sql<{ r: string[] | null }>`select public.avisos_antes_de_aprobar(${pendiente.id}) as r`),
          anon ? "42501" : admin || name === "aprobador" ? 1 : 0,
        ],
        [
          "avisos_presupuesto_en_bloque · presupuesto",
          (trx) =>
            avisos(
              trx,
              sql<{
                r: string[] | null;
              }>`select public.avisos_presupuesto_en_bloque(array[${pendiente.id}]::uuid[]) as r`,
            ),
          anon ? "42501" : admin || name === "aprobador" ? 1 : 0,
        ],
      ];
      for (const [what, statement, expected] of statements)
        await dbCell(`${what} · ${name}`, user, statement, expected);
    }
    await app.db
      .updateTable("departamentos")
      .set({ presupuesto_mensual: null })
      .where("id", "in", [dep.A, dep.B])
      .execute();
    expect(failures).toEqual([]);
  });

  it("usuarios: nadie inserta; cada uno edita su perfil (sin rol ni activo); el administrador, cualquiera; historial solo lectura", async () => {
    for (const [name, who] of ROLES) {
      const user = who();
      const anon = user === null;
      const active = !anon && name !== "inactivo";
      const admin = name === "administrador";
      seq += 1;
      const otro = String(
        (
          await app.db
            .insertInto("auth.users")
            .values({ email: `rls${seq}@oficina.test`, email_confirmed_at: sql`now()`, raw_user_meta_data: "{}" })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id,
      );
      await app.db.updateTable("usuarios").set({ departamento_id: dep.A }).where("id", "=", otro).execute();
      const self = user?.id ?? u.empleadoA.id;
      await dbCell(
        `usuarios select · ${name}`,
        user,
        async (trx) =>
          (await sql`select id from public.usuarios where id in (${self}, ${otro})`.execute(trx)).rows.length,
        anon ? "42501" : active ? 2 : 0,
      );
      await dbCell(
        `usuarios insert · ${name}`,
        user,
        async (trx) => (
          await sql`insert into public.usuarios (id, nombre, email) values (gen_random_uuid(), 'X', ${`x${seq}@oficina.test`})`.execute(
            trx,
          ),
          1
        ),
        "42501",
      );
      if (!anon) {
        await dbCell(
          `usuarios update propio puesto · ${name}`,
          user,
          (trx) => count(trx, sql`update public.usuarios set puesto = 'RLS' where id = ${self}`),
          active ? 1 : 0,
        );
        await dbCell(
          `usuarios update propio rol · ${name}`,
          user,
          (trx) => count(trx, sql`update public.usuarios set rol = 'administrador' where id = ${self}`),
          admin ? 1 : active ? "OFPRM" : 0,
        );
      }
      await dbCell(
        `usuarios update otro · ${name}`,
        user,
        (trx) => count(trx, sql`update public.usuarios set puesto = 'RLS' where id = ${otro}`),
        anon ? "42501" : admin ? 1 : 0,
      );
      await dbCell(
        `usuarios update email · ${name}`,
        user,
        (trx) => count(trx, sql`update public.usuarios set email = 'otro@oficina.test' where id = ${otro}`),
        "42501",
      );
      await dbCell(
        `usuarios delete otro · ${name}`,
        user,
        (trx) => count(trx, sql`delete from public.usuarios where id = ${otro}`),
        anon ? "42501" : admin ? 1 : 0,
      );
      // Invitations: only the server (the owner) reads or writes them, administradores included (ADR 0013).
      for (const op of [
        "select * from public.invitaciones",
        `insert into public.invitaciones (usuario_id) values ('${otro}')`,
        "update public.invitaciones set enviada_en = now()",
        "delete from public.invitaciones",
      ])
        await dbCell(`invitaciones ${op.split(" ")[0]} · ${name}`, user, (trx) => count(trx, sql.raw(op)), "42501");
      for (const op of [
        "insert into public.historial (tabla, registro_id, accion) values ('gastos', gen_random_uuid(), 'alta')",
        "update public.historial set accion = 'baja'",
        "delete from public.historial",
      ])
        await dbCell(`historial ${op.split(" ")[0]} · ${name}`, user, (trx) => count(trx, sql.raw(op)), "42501");
    }
    expect(failures).toEqual([]);
  });

  it("tipos de IVA, IVA por categoría y empresa: los ve cualquier usuario activo y ubicado; los cambia un administrador, solo en sus columnas; nadie los elimina", async () => {
    for (const [name, who] of ROLES) {
      const user = who();
      const anon = user === null;
      const active = !anon && name !== "inactivo";
      const admin = name === "administrador";
      seq += 1;
      const tipo = String(
        (
          await app.db
            .insertInto("tipos_iva")
            .values({ clave: "5", porcentaje: "5", nombre: `RLS ${seq}`, desde: `${2100 + (seq % 7000)}-09-01` })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id,
      );
      const statements: [string, (trx: TestTransaction) => Promise<number>, number | "ok" | "42501"][] = [
        [
          "tipos_iva select",
          async (trx) => (await sql`select id from public.tipos_iva where id = ${tipo}`.execute(trx)).rows.length,
          anon ? "42501" : active ? 1 : 0,
        ],
        [
          "tipos_iva insert",
          async (trx) => (
            await sql`insert into public.tipos_iva (clave, porcentaje, nombre, desde) values ('5', 5, 'RLS', ${`${2100 + (seq % 7000)}-10-01`})`.execute(
              trx,
            ),
            1
          ),
          admin ? "ok" : "42501",
        ],
        [
          "tipos_iva update nombre",
          (trx) => count(trx, sql`update public.tipos_iva set nombre = 'RLS editado' where id = ${tipo}`),
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "tipos_iva update clave",
          (trx) => count(trx, sql`update public.tipos_iva set clave = '21', porcentaje = 21 where id = ${tipo}`),
          "42501",
        ],
        ["tipos_iva delete", (trx) => count(trx, sql`delete from public.tipos_iva where id = ${tipo}`), "42501"],
        [
          "categorias_fiscales select",
          async (trx) => (await sql`select id from public.categorias_fiscales`.execute(trx)).rows.length,
          anon ? "42501" : active ? 14 : 0,
        ],
        [
          "categorias_fiscales update tipo_iva",
          (trx) => count(trx, sql`update public.categorias_fiscales set tipo_iva = '4' where categoria = 'otros'`),
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "categorias_fiscales update categoria",
          (trx) =>
            count(trx, sql`update public.categorias_fiscales set categoria = 'comidas' where categoria = 'otros'`),
          "42501",
        ],
        [
          "categorias_fiscales insert",
          async (trx) => (
            await sql`insert into public.categorias_fiscales (categoria, tipo_iva, deducibilidad) values ('otros', '21', 'factura_empresa')`.execute(
              trx,
            ),
            1
          ),
          "42501",
        ],
        [
          "categorias_fiscales delete",
          (trx) => count(trx, sql`delete from public.categorias_fiscales where categoria = 'otros'`),
          "42501",
        ],
        [
          "empresa select",
          async (trx) => (await sql`select id from public.empresa`.execute(trx)).rows.length,
          anon ? "42501" : active ? 1 : 0,
        ],
        [
          "empresa update",
          (trx) => count(trx, sql`update public.empresa set ciudad = 'RLS'`),
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "empresa insert",
          async (trx) => (await sql`insert into public.empresa (unica) values (true)`.execute(trx), 1),
          "42501",
        ],
        ["empresa delete", (trx) => count(trx, sql`delete from public.empresa`), "42501"],
      ];
      for (const [what, statement, expected] of statements)
        await dbCell(`${what} · ${name}`, user, statement, expected);
    }
    expect(failures).toEqual([]);
  });

  it("viajes: los ve quien ve sus gastos, los escribe su solicitante o un administrador; límites de IRPF, como los tipos de IVA", async () => {
    for (const [name, who] of ROLES) {
      const user = who();
      const anon = user === null;
      const active = !anon && name !== "inactivo";
      const admin = name === "administrador";
      const propio = name === "empleado";
      seq += 1;
      const viaje = String(
        (
          await app.db
            .insertInto("viajes")
            .values({
              solicitante_id: u.empleadoA.id,
              destino_municipio: "Bilbao",
              motivo: `RLS ${seq}`,
              salida: `${hoy} 08:00`,
              regreso: `${hoy} 20:00`,
            })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id,
      );
      // Another department's trip, with nothing sent: only its solicitante and administradores see it.
      const ajeno = String(
        (
          await app.db
            .insertInto("viajes")
            .values({
              solicitante_id: u.empleadoB.id,
              destino_municipio: "Vigo",
              motivo: `RLS ajeno ${seq}`,
              salida: `${hoy} 08:00`,
              regreso: `${hoy} 20:00`,
            })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id,
      );
      const limite = String(
        (
          await app.db
            .insertInto("limites_exentos_irpf")
            .values({ tipo: "km", vigente_desde: `${2100 + (seq % 7000)}-03-01`, importe: "0.30" })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id,
      );
      const statements: [string, (trx: TestTransaction) => Promise<number>, number | "ok" | "42501"][] = [
        [
          "viajes select propio",
          async (trx) => (await sql`select id from public.viajes where id = ${viaje}`.execute(trx)).rows.length,
          anon ? "42501" : active ? 1 : 0,
        ],
        [
          "viajes select ajeno sin gastos enviados",
          async (trx) => (await sql`select id from public.viajes where id = ${ajeno}`.execute(trx)).rows.length,
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "viajes insert para sí",
          async (trx) => (
            await sql`insert into public.viajes (destino_municipio, motivo, salida, regreso)
                      values ('Toledo', 'RLS', now()::timestamp(0), now()::timestamp(0))`.execute(trx),
            1
          ),
          active ? "ok" : "42501",
        ],
        [
          "viajes insert para otra persona",
          async (trx) => (
            await sql`insert into public.viajes (solicitante_id, destino_municipio, motivo, salida, regreso)
                      values (${u.empleadoB.id}, 'Toledo', 'RLS', now()::timestamp(0), now()::timestamp(0))`.execute(
              trx,
            ),
            1
          ),
          admin ? "ok" : "42501",
        ],
        [
          "viajes update",
          (trx) => count(trx, sql`update public.viajes set motivo = 'RLS editado' where id = ${viaje}`),
          anon ? "42501" : propio || admin ? 1 : 0,
        ],
        [
          "viajes update solicitante",
          (trx) => count(trx, sql`update public.viajes set solicitante_id = ${u.empleadoB.id} where id = ${viaje}`),
          "42501",
        ],
        [
          "viajes delete",
          (trx) => count(trx, sql`delete from public.viajes where id = ${viaje}`),
          anon ? "42501" : propio || admin ? 1 : 0,
        ],
        [
          "limites_exentos_irpf select",
          async (trx) =>
            (await sql`select id from public.limites_exentos_irpf where id = ${limite}`.execute(trx)).rows.length,
          anon ? "42501" : active ? 1 : 0,
        ],
        [
          "limites_exentos_irpf update importe",
          (trx) => count(trx, sql`update public.limites_exentos_irpf set importe = 0.31 where id = ${limite}`),
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "limites_exentos_irpf update tipo",
          (trx) =>
            count(
              trx,
              sql`update public.limites_exentos_irpf set tipo = 'dieta_espana_sin_pernocta' where id = ${limite}`,
            ),
          "42501",
        ],
        [
          "limites_exentos_irpf delete",
          (trx) => count(trx, sql`delete from public.limites_exentos_irpf where id = ${limite}`),
          "42501",
        ],
      ];
      for (const [what, statement, expected] of statements)
        await dbCell(`${what} · ${name}`, user, statement, expected);
    }
    expect(failures).toEqual([]);
  });

  it("IBAN de las personas, cuentas de la empresa y remesas: el IBAN, la persona y los administradores; lo demás, solo los administradores; las remesas, solo por sus funciones", async () => {
    const owner = async (q: ReturnType<typeof sql>) => (await q.execute(app.db)).rows as { id: string }[];
    await owner(
      sql`insert into public.datos_bancarios (usuario_id, iban) values (${u.colegaA.id}, ${generateValidEsIban(501)})
          on conflict (usuario_id) do nothing`,
    );
    const [cuenta] = await owner(
      sql`insert into public.cuentas_empresa (nombre, iban) values ('Matriz', ${generateValidEsIban(502 + seq)}) returning id`,
    );
    seq += 1;
    const [remesa] = await owner(
      sql`insert into public.remesas (cuenta_id, fecha_ejecucion, num_transferencias, importe_total)
          values (${cuenta!.id}, current_date, 1, 1) returning id`,
    );
    for (const [name, who] of ROLES) {
      const user = who();
      const anon = user === null;
      const admin = name === "administrador";
      const statements: [string, (trx: TestTransaction) => Promise<number>, number | "ok" | "42501" | "OFPRM"][] = [
        [
          "datos_bancarios select de otra persona",
          async (trx) =>
            (await sql`select iban from public.datos_bancarios where usuario_id = ${u.colegaA.id}`.execute(trx)).rows
              .length,
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "datos_bancarios update de otra persona",
          (trx) =>
            count(trx, sql`update public.datos_bancarios set titular = 'Matriz' where usuario_id = ${u.colegaA.id}`),
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "datos_bancarios insert para otra persona",
          async (trx) => (
            await sql`insert into public.datos_bancarios (usuario_id, iban) values (${u.jefeC.id}, ${generateValidEsIban(503)})`.execute(
              trx,
            ),
            1
          ),
          admin ? "ok" : "42501",
        ],
        [
          "datos_bancarios delete de otra persona",
          (trx) => count(trx, sql`delete from public.datos_bancarios where usuario_id = ${u.colegaA.id}`),
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "cuentas_empresa select",
          async (trx) =>
            (await sql`select id from public.cuentas_empresa where id = ${cuenta!.id}`.execute(trx)).rows.length,
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "cuentas_empresa insert",
          async (trx) => (
            await sql`insert into public.cuentas_empresa (nombre, iban) values ('Otra', ${generateValidEsIban(504)})`.execute(
              trx,
            ),
            1
          ),
          admin ? "ok" : "42501",
        ],
        [
          "cuentas_empresa update",
          (trx) => count(trx, sql`update public.cuentas_empresa set activa = false where id = ${cuenta!.id}`),
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "remesas select",
          async (trx) => (await sql`select id from public.remesas where id = ${remesa!.id}`.execute(trx)).rows.length,
          anon ? "42501" : admin ? 1 : 0,
        ],
        [
          "remesas update",
          (trx) => count(trx, sql`update public.remesas set estado = 'confirmada' where id = ${remesa!.id}`),
          "42501",
        ],
        ["remesa_gastos delete", (trx) => count(trx, sql`delete from public.remesa_gastos`), "42501"],
        [
          "remesa_candidatos",
          async (trx) => (await sql`select public.remesa_candidatos('{}') as r`.execute(trx)).rows.length,
          anon ? "42501" : admin ? 1 : "OFPRM",
        ],
        // The libro diario: only through its functions, only an administrador.
        [
          "libro_diario",
          async (trx) =>
            (await sql`select * from public.libro_diario('2026-01-01', '2026-03-31', 0, 5)`.execute(trx)).rows.length,
          anon ? "42501" : admin ? "ok" : "OFPRM",
        ],
        [
          "resumen_libro_diario",
          async (trx) =>
            (await sql`select public.resumen_libro_diario('2026-01-01', '2026-03-31') as r`.execute(trx)).rows.length,
          anon ? "42501" : admin ? 1 : "OFPRM",
        ],
        [
          "meses_libro_diario",
          async (trx) =>
            (await sql`select public.meses_libro_diario('2026-01-01', '2026-03-31') as r`.execute(trx)).rows.length,
          anon ? "42501" : admin ? 1 : "OFPRM",
        ],
        [
          "interno.subcuentas select",
          async (trx) => (await sql`select * from interno.subcuentas`.execute(trx)).rows.length,
          "42501",
        ],
      ];
      for (const [what, statement, expected] of statements)
        await dbCell(`${what} · ${name}`, user, statement, expected);
    }
    expect(failures).toEqual([]);
  });

  it("gastos: ver, crear, editar y eliminar según de quién sea y su estado; estado, folio, aprobación y pago nunca se escriben directamente", async () => {
    const PROHIBIDAS: [string, unknown][] = [
      ["estado", "aprobado"],
      ["folio", "GAS-2000-00001"],
      ["aprobador_id", null],
      ["aprobado_por_id", null],
      ["fecha_aprobacion", null],
      ["fecha_pago", "2020-01-01"],
      ["referencia_pago", "X"],
      ["motivo_rechazo", "X"],
      ["version", 50],
      ["creado_en", "2020-01-01"],
      ["id", "00000000-0000-4000-8000-000000000000"],
    ];
    for (const [name, who] of ROLES) {
      const user = who();
      const anon = user === null;
      const active = !anon && name !== "inactivo";
      const me = user ?? u.empleadoA;
      const kinds = kindsFor((anon ? "empleado" : name) as Actor);
      for (const k of kinds) {
        for (const estado of ["borrador", "pendiente", "aprobado"] as Estado[]) {
          const g = await gasto(k.solicitante, estado, { aprobador: (k as { aprobador?: U }).aprobador });
          const label = `gastos ${estado} ${k.kind} · ${name}`;
          const visible = active && ve(me, g);
          const editable =
            active && estado === "borrador" && (g.solicitante_id === me.id || me.rol === "administrador");
          await dbCell(
            `${label} select`,
            user,
            async (trx) => (await sql`select id from public.gastos where id = ${g.id}`.execute(trx)).rows.length,
            anon ? "42501" : visible ? 1 : 0,
          );
          await dbCell(
            `${label} historial select`,
            user,
            async (trx) =>
              (await sql`select id from public.historial where registro_id = ${g.id}`.execute(trx)).rows.length > 0
                ? 1
                : 0,
            anon ? "42501" : visible ? 1 : 0,
          );
          await dbCell(
            `${label} update`,
            user,
            (trx) => count(trx, sql`update public.gastos set notas = 'RLS' where id = ${g.id}`),
            anon ? "42501" : editable ? 1 : 0,
          );
          await dbCell(
            `${label} delete`,
            user,
            (trx) => count(trx, sql`delete from public.gastos where id = ${g.id}`),
            anon ? "42501" : editable ? 1 : 0,
          );
          // The columns only the workflow writes: tried on the borrador, the one state that is otherwise editable.
          if (estado === "borrador")
            for (const [column, value] of PROHIBIDAS)
              await dbCell(
                `${label} update ${column}`,
                user,
                (trx) => count(trx, sql`update public.gastos set ${sql.ref(column)} = ${value} where id = ${g.id}`),
                "42501",
              );
        }
        // Insert for themself (the solicitante of the kind): allowed only for their own, or an administrador.
        const propio = k.solicitante.id === me.id;
        await dbCell(
          `gastos insert para ${k.kind} · ${name}`,
          user,
          async (trx) => (
            await sql`insert into public.gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id)
                      values ('RLS', ${hoy}, 'comidas', 1, 'efectivo', ${k.solicitante.id}, ${k.solicitante.departamento}, ${suc})`.execute(
              trx,
            ),
            1
          ),
          active && (propio || me.rol === "administrador") ? "ok" : "42501",
        );
        await dbCell(
          `gastos insert con estado aprobado · ${name}`,
          user,
          async (trx) => (
            await sql`insert into public.gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id, estado)
                      values ('RLS', ${hoy}, 'comidas', 1, 'efectivo', ${me.id}, ${me.departamento}, ${suc}, 'aprobado')`.execute(
              trx,
            ),
            1
          ),
          "42501",
        );
      }
    }
    expect(failures).toEqual([]);
  });
});
