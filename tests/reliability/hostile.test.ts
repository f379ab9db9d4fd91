import fc from "fast-check";
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { anyTables } from "~/data/sql/connection.server";
import { writableFields, type Entity } from "~/entities/entity";
import { departamentos } from "~/entities/departamentos";
import { CAMPOS_NO_ADMIN } from "~/entities/gastos";
import { proveedores } from "~/entities/proveedores";
import { sucursales } from "~/entities/sucursales";
import { CAMPOS_PERFIL_PROPIO, usuarios } from "~/entities/usuarios";
import { todayISO } from "~/lib/dates";
import { generateValidCif } from "~/lib/nif";
import * as auth_confirm from "~/routes/auth.confirm";
import * as avisos_index from "~/routes/avisos._index";
import * as avisos_preferencias from "~/routes/avisos.preferencias";
import * as gastos_csv from "~/routes/gastos.exportar";
import * as gastos_index from "~/routes/gastos._index";
import * as gastos_justificantes from "~/routes/gastos.$id.justificantes";
import * as login from "~/routes/login";
import * as logout from "~/routes/logout";
import * as remesas_index from "~/routes/remesas._index";
import * as signup from "~/routes/signup-confirmation";
import * as usu_id from "~/routes/usuarios.$id";
import * as usu_index from "~/routes/usuarios._index";
import { createTestApp, ORIGIN, type RouteModule } from "../support/app";
import { insertDepartamento, insertMaestro, insertSucursal, setProfile } from "../support/fixtures";
import { figure } from "./support";
import { pantallasDe } from "../support/pantallas";

const dep_csv = pantallasDe("departamentos").exportar;
const dep_id = pantallasDe("departamentos").ficha;
const prov_id = pantallasDe("proveedores").ficha;
const suc_id = pantallasDe("sucursales").ficha;

const dep_index = pantallasDe("departamentos").lista;
const prov_index = pantallasDe("proveedores").lista;
const suc_index = pantallasDe("sucursales").lista;

/**
 * Hostile input, part 1 (in process, through the real loaders/actions on a real Postgres): every
 * action fuzzed with fast-check — random, empty, huge, Unicode, control characters, numbers in
 * every locale's format, missing and duplicated fields, and extra fields a form never has
 * (rol=administrador, solicitante_id, version, estado, folio…). Nothing may answer 5xx, and an
 * accepted request may write only the columns its form allows for that person.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1200);
/**
 * The same inputs on every run, so a commit passes or fails here as it will in CI; another seed
 * (FUZZ_SEED=<n>, printed with the figures) explores new ones and replays them exactly.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261130);
let app: Awaited<ReturnType<typeof createTestApp>>;
type U = Awaited<ReturnType<typeof app.createUser>> & { rol: "administrador" | "aprobador" | "empleado" };
let admin: U, aprobador: U, empleado: U, otro: U, contable: U;
let dep: string, suc: string;
const hoy = todayISO();

beforeAll(async () => {
  app = await createTestApp();
  admin = { ...(await app.createUser({ nombre: "Ana", rol: "administrador" })), rol: "administrador" };
  aprobador = { ...(await app.createUser({ nombre: "Pablo", rol: "aprobador" })), rol: "aprobador" };
  empleado = { ...(await app.createUser({ nombre: "Elena", rol: "empleado" })), rol: "empleado" };
  otro = { ...(await app.createUser({ nombre: "Óscar", rol: "empleado" })), rol: "empleado" };
  // Not among the fuzzed actors (whose profiles the fuzz may leave without a branch): types amounts.
  contable = { ...(await app.createUser({ nombre: "Carmen", rol: "empleado" })), rol: "empleado" };
  dep = await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN", responsable_id: aprobador.id });
  suc = await insertSucursal(app.db);
  for (const u of [admin, aprobador, empleado, otro, contable])
    await setProfile(app.db, u.id, {
      departamento_id: dep,
      sucursal_id: suc,
      aprobador_id: u === empleado || u === otro ? aprobador.id : null,
    });
});
afterAll(() => app?.close());

// ---------------------------------------------------------------------------------------------
// What hostile values look like
// ---------------------------------------------------------------------------------------------

const LOCALES = [
  "es-ES",
  "en-US",
  "de-DE",
  "fr-FR",
  "de-CH",
  "en-IN",
  "ar-EG",
  "fa-IR",
  "hi-IN",
  "ja-JP",
  "pt-BR",
  "ru-RU",
  "it-IT",
  "nl-NL",
  "sv-SE",
  "pl-PL",
  "bn-BD",
  "th-TH-u-nu-thai",
];

/** A number as some locale writes it: grouping or not, 0–3 decimals, currency or not, any sign. */
const localeNumber = fc
  .record({
    locale: fc.constantFrom(...LOCALES),
    value: fc.oneof(
      fc.double({ min: -2_000_000, max: 2_000_000, noNaN: true }),
      fc.integer({ min: 0, max: 1_000_000 }),
      fc.constantFrom(0, 0.01, 0.005, 999_999.99, 1_000_000, 1_000_000.01, 1e15),
    ),
    digits: fc.integer({ min: 0, max: 3 }),
    grouping: fc.boolean(),
    currency: fc.boolean(),
  })
  .map(({ locale, value, digits, grouping, currency }) =>
    new Intl.NumberFormat(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: grouping,
      ...(currency ? { style: "currency", currency: "EUR" } : {}),
    }).format(value),
  );

const NASTY = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u202eevil",
  "\ufeff",
  "\r\n\r\nSet-Cookie: x=1",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "'; drop table gastos; --",
  "%00",
  "%",
  "../../etc/passwd",
  '=HYPERLINK("http://evil")',
  "+34 600",
  "@SUM(1)",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-0",
  "1e309",
  "0x10",
  "9".repeat(40),
  "{{7*7}}",
  "${7*7}",
  "\\",
  "\ud800",
  "𝕆𝕗𝕚𝕔𝕚𝕟𝕒 👩🏽‍💼",
  "ÁÉÍÓÚ ñ ç ß",
  "00000000-0000-0000-0000-000000000000",
  "2026-02-30",
  "9999-12-31",
  "-1",
  "on",
  "true",
];

const hostile = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)), maxLength: 10 }),
  },
  { weight: 3, arbitrary: localeNumber },
  { weight: 1, arbitrary: fc.integer({ min: 300, max: 200_000 }).map((n) => "Ñ".repeat(n)) },
  { weight: 1, arbitrary: fc.uuid().map(String) },
);

// ---------------------------------------------------------------------------------------------
// The actions, each with a valid form to start from and what its form may write
// ---------------------------------------------------------------------------------------------

type Ctx = { actor: U; target: string | null; version: string };
type Action = {
  name: string;
  actors: U[];
  table: string | null;
  /** A fresh record to act on (null: a create). */
  target?: (actor: U) => Promise<string>;
  form: (c: Ctx) => Record<string, string>;
  run: (c: Ctx, body: URLSearchParams) => unknown;
  /** Columns this person's form may change (besides version, actualizado_en and derived ones). */
  writes: (actor: U) => readonly string[];
  /** For a create: what a new row must look like whatever was posted. */
  created?: (row: Fila, actor: U) => string | null;
};

// Written by the database itself on every change (authorship: separation of duties, ADR 0012;
// the search text: ADR 0019; a gasto's taxes, the sum of its IVA breakdown's cuotas, and whether
// that breakdown is still to be reviewed: interno.gastos_fiscal; what an approved gasto takes to
// the books, fixed when it is approved and let go when it is not, and its VAT book reception
// number, kept: interno.fijar_al_aprobar).
const SYSTEM = [
  "version",
  "actualizado_en",
  "importe_centimos",
  "editado_por_id",
  "busqueda",
  "importe_impuestos",
  "desglose_revisar",
  "cuenta_al_aprobar",
  "porcentaje_deducible_al_aprobar",
  "motivo_al_aprobar",
  "irpf_exento_al_aprobar",
  "irpf_sujeto_al_aprobar",
  "irpf_explicacion_al_aprobar",
  "numero_recepcion",
];
const EXTRAS = [
  "rol",
  "solicitante_id",
  "version",
  "estado",
  "folio",
  "id",
  "aprobado_por_id",
  "aprobador_id",
  "activo",
  "email",
  "creado_en",
  "fecha_aprobacion",
  "motivo_rechazo",
  "intent",
  "creado_por_id",
  "editado_por_id",
];
const extraValue = fc.constantFrom(
  "administrador",
  "aprobado",
  "pagado",
  "GAS-1999-00001",
  "00000000-0000-4000-8000-000000000001",
  "1",
  "999",
  "on",
  "2020-01-01",
);

const ctxArgs = (path: string, actor: U | null, body: URLSearchParams, params: Record<string, string> = {}) => ({
  request: new Request(new URL(path, ORIGIN), {
    method: "POST",
    headers: {
      Origin: ORIGIN,
      "Content-Type": "application/x-www-form-urlencoded",
      ...(actor ? { Cookie: actor.cookie } : {}),
    },
    body,
  }),
  context: app.context(),
  params,
});

const getArgs = (path: string, actor: U) => ({
  request: new Request(new URL(path, ORIGIN), { headers: { Cookie: actor.cookie } }),
  context: app.context(),
  params: {} as Record<string, string>,
});

let seq = 0;
const code = () => `F${++seq}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;

function recordForm(entity: Entity, row: Fila) {
  const form: Record<string, string> = { intent: "guardar", version: String(row.version) };
  for (const f of writableFields(entity)) {
    const v = row[f.name];
    form[f.name] = f.input.type === "checkbox" ? (v ? "on" : "") : v === null || v === undefined ? "" : String(v);
  }
  return form;
}

async function gastoEn(solicitante: U, estado: "borrador" | "pendiente" | "aprobado" | "rechazado") {
  const g = await app.db
    .insertInto("gastos")
    .values({
      descripcion: `Fuzz ${++seq}`,
      fecha_gasto: hoy,
      categoria: "comidas",
      importe: `${seq % 900}.5`,
      metodo_pago: "efectivo",
      solicitante_id: solicitante.id,
      departamento_id: dep,
      sucursal_id: suc,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (estado !== "borrador")
    await app.db
      .updateTable("gastos")
      .set({
        estado,
        aprobador_id: aprobador.id,
        ...(estado === "aprobado"
          ? { aprobado_por_id: aprobador.id, fecha_aprobacion: sql`now()` }
          : estado === "rechazado"
            ? { motivo_rechazo: "x" }
            : {}),
      })
      .where("id", "=", g.id)
      .execute();
  return String(g.id);
}

/** A row of any table, as stored. */
type Fila = { id: string; version: number; [column: string]: unknown };
const row = (table: string, id: string) =>
  anyTables(app.db).selectFrom(table).selectAll().where("id", "=", id).executeTakeFirst() as Promise<Fila | undefined>;

function maestro(
  entity: Entity,
  index: Required<RouteModule>,
  record: Required<RouteModule>,
  editors: () => U[],
): Action[] {
  const fresh = () => insertMaestro(app.db, entity.table, code(), 100_000 + seq * 7919);
  const createForm = (): Record<string, string> => {
    const c = code();
    if (entity === departamentos)
      return {
        intent: "crear",
        nombre: `Nuevo ${c}`,
        codigo: c,
        presupuesto_mensual: "1.000,00",
        activo: "on",
        _envio: randomUUID(),
      };
    if (entity === sucursales)
      return {
        intent: "crear",
        nombre: `Nueva ${c}`,
        codigo: c,
        direccion: "Calle 2",
        ciudad: "Ávila",
        pais: "ES",
        activo: "on",
        _envio: randomUUID(),
      };
    return {
      intent: "crear",
      razon_social: `Nuevo ${c} SA`,
      tipo_persona: "empresa",
      pais: "ES",
      nif: generateValidCif(600_000 + seq * 104_729, "A"),
      categoria: "otros",
      activo: "on",
      _envio: randomUUID(),
    };
  };
  const writes = () => writableFields(entity).map((f) => f.name);
  return [
    {
      name: `${entity.path} crear`,
      actors: editors(),
      table: entity.table,
      form: createForm,
      run: (c, body) => index.action(ctxArgs(`${entity.path}?index`, c.actor, body)),
      writes,
      created: (r) =>
        r.version === 1 && r.id !== "00000000-0000-4000-8000-000000000001" ? null : `versión ${r.version}, id ${r.id}`,
    },
    {
      name: `${entity.path}/{id} guardar`,
      actors: editors(),
      table: entity.table,
      target: fresh,
      form: () => ({}),
      run: (c, body) => record.action(ctxArgs(`${entity.path}/${c.target}`, c.actor, body, { id: c.target! })),
      writes,
    },
    {
      name: `${entity.path}/{id} eliminar`,
      actors: [admin],
      table: entity.table,
      target: fresh,
      form: (c) => ({ intent: "eliminar", version: c.version }),
      run: (c, body) => record.action(ctxArgs(`${entity.path}/${c.target}`, c.actor, body, { id: c.target! })),
      writes,
    },
  ];
}

const TRANSICION: Record<
  string,
  {
    desde: "borrador" | "pendiente" | "aprobado" | "rechazado";
    quien: () => U;
    solicitante: () => U;
    campos: string[];
    extra?: Record<string, string>;
  }
> = {
  enviar: { desde: "borrador", quien: () => empleado, solicitante: () => empleado, campos: ["estado", "aprobador_id"] },
  retirar: {
    desde: "pendiente",
    quien: () => empleado,
    solicitante: () => empleado,
    campos: ["estado", "aprobador_id"],
  },
  aprobar: {
    desde: "pendiente",
    quien: () => aprobador,
    solicitante: () => empleado,
    campos: ["estado", "aprobado_por_id", "fecha_aprobacion"],
  },
  rechazar: {
    desde: "pendiente",
    quien: () => aprobador,
    solicitante: () => empleado,
    campos: ["estado", "motivo_rechazo"],
    extra: { motivo: "Falta el ticket" },
  },
  reabrir: {
    desde: "rechazado",
    quien: () => empleado,
    solicitante: () => empleado,
    campos: ["estado", "motivo_rechazo", "aprobador_id"],
  },
  pagar: {
    desde: "aprobado",
    quien: () => admin,
    solicitante: () => empleado,
    campos: ["estado", "fecha_pago", "referencia_pago"],
    extra: { fecha_pago: hoy, referencia_pago: "TR-1" },
  },
  revertir: {
    desde: "aprobado",
    quien: () => admin,
    solicitante: () => empleado,
    campos: ["estado", "aprobado_por_id", "fecha_aprobacion", "motivo_rechazo"],
    extra: { motivo: "Error" },
  },
};

function actions(): Action[] {
  const gastoCreate = (c: Ctx): Record<string, string> => ({
    intent: "crear",
    descripcion: `Comida ${++seq}`,
    fecha_gasto: hoy,
    categoria: "comidas",
    importe: "45,30",
    metodo_pago: "tarjeta_corporativa",
    _envio: randomUUID(),
    ...(c.actor.rol === "administrador" ? { solicitante_id: otro.id } : {}),
  });
  const gastoWrites = (u: U) =>
    u.rol === "administrador" ? [...CAMPOS_NO_ADMIN, "solicitante_id"] : [...CAMPOS_NO_ADMIN];
  return [
    ...maestro(departamentos, dep_index, dep_id, () => [admin]),
    ...maestro(sucursales, suc_index, suc_id, () => [admin]),
    ...maestro(proveedores, prov_index, prov_id, () => [admin, aprobador]),
    {
      name: "/usuarios/{id} guardar (perfil propio)",
      actors: [empleado, aprobador],
      table: "usuarios",
      target: async (actor) => actor.id,
      form: () => ({}),
      run: (c, body) => usu_id.action(ctxArgs(`/usuarios/${c.target}`, c.actor, body, { id: c.target! })),
      writes: () => [...CAMPOS_PERFIL_PROPIO],
    },
    {
      name: "/usuarios/{id} guardar (administrador)",
      actors: [admin],
      table: "usuarios",
      target: async () => otro.id,
      form: () => ({}),
      run: (c, body) => usu_id.action(ctxArgs(`/usuarios/${c.target}`, c.actor, body, { id: c.target! })),
      writes: () => writableFields(usuarios).map((f) => f.name),
    },
    {
      name: "/gastos crear",
      actors: [admin, aprobador, empleado],
      table: "gastos",
      form: gastoCreate,
      run: (c, body) => gastos_index.action(ctxArgs("/gastos?index", c.actor, body)),
      writes: gastoWrites,
      created: (r, actor) => {
        if (
          r.estado !== "borrador" ||
          r.aprobador_id ||
          r.aprobado_por_id ||
          r.fecha_aprobacion ||
          r.motivo_rechazo ||
          r.version !== 1
        )
          return `alta con ${JSON.stringify({ estado: r.estado, aprobador_id: r.aprobador_id, version: r.version })}`;
        if (!/^GAS-\d{4}-\d{5}$/.test(String(r.folio)) || r.folio === "GAS-1999-00001") return `folio ${r.folio}`;
        if (actor.rol !== "administrador" && r.solicitante_id !== actor.id)
          return `solicitante ${r.solicitante_id} en lugar de ${actor.id}`;
        return null;
      },
    },
    {
      name: "/gastos guardar",
      actors: [admin, empleado],
      table: "gastos",
      target: () => gastoEn(empleado, "borrador"),
      form: (c) => ({
        intent: "guardar",
        id: c.target!,
        version: c.version,
        descripcion: "Editado",
        fecha_gasto: hoy,
        categoria: "comidas",
        importe: "12,00",
        metodo_pago: "efectivo",
        ...(c.actor.rol === "administrador" ? { solicitante_id: empleado.id } : {}),
      }),
      run: (c, body) => gastos_index.action(ctxArgs(`/gastos?gasto=${c.target}`, c.actor, body)),
      writes: gastoWrites,
    },
    {
      name: "/gastos eliminar",
      actors: [empleado, admin],
      table: "gastos",
      target: () => gastoEn(empleado, "borrador"),
      form: (c) => ({ intent: "eliminar", id: c.target!, version: c.version }),
      run: (c, body) => gastos_index.action(ctxArgs(`/gastos?gasto=${c.target}`, c.actor, body)),
      writes: gastoWrites,
    },
    ...Object.entries(TRANSICION).map(([t, d]): Action => ({
      name: `/gastos ${t}`,
      actors: [d.quien()],
      table: "gastos",
      target: async () => {
        const id = await gastoEn(d.solicitante(), d.desde);
        return id;
      },
      form: (c) => ({ intent: t, id: c.target!, version: c.version, ...d.extra }),
      run: (c, body) => gastos_index.action(ctxArgs(`/gastos?gasto=${c.target}`, c.actor, body)),
      writes: () => d.campos,
    })),
    ...(["aprobar_seleccion", "rechazar_seleccion", "masivo"] as const).map((intent): Action => ({
      name: `/gastos ${intent}`,
      actors: [aprobador, admin],
      table: "gastos",
      target: () => gastoEn(empleado, "pendiente"),
      form: (c) => ({ intent, seleccion: `${c.target}:${c.version}`, motivo: "Sin ticket", accion: "aprobar" }),
      run: (c, body) => gastos_index.action(ctxArgs(`/gastos?q=Fuzz`, c.actor, body)),
      writes: () => ["estado", "aprobado_por_id", "fecha_aprobacion", "motivo_rechazo"],
    })),
    {
      // To the remesa builder with the checked rows: it writes nothing.
      name: "/gastos remesa_seleccion",
      actors: [admin],
      table: "gastos",
      target: () => gastoEn(empleado, "aprobado"),
      form: (c) => ({ intent: "remesa_seleccion", seleccion: `${c.target}:${c.version}` }),
      run: (c, body) => gastos_index.action(ctxArgs(`/gastos?vista=por_pagar&q=Fuzz`, c.actor, body)),
      writes: () => [],
    },
    {
      // Removing a receipt is an ordinary form (attaching one is multipart: its own tests).
      name: "/gastos/{id}/justificantes eliminar",
      actors: [empleado, admin],
      table: null,
      target: () => gastoEn(empleado, "borrador"),
      form: () => ({ intent: "eliminar", justificante: randomUUID() }),
      run: (c, body) =>
        gastos_justificantes.action(ctxArgs(`/gastos/${c.target}/justificantes`, c.actor, body, { id: c.target! })),
      writes: () => [],
    },
    {
      name: "/avisos marcar como leído",
      actors: [empleado, aprobador, admin],
      table: null,
      form: () => ({ id: randomUUID() }),
      run: (c, body) => avisos_index.action(ctxArgs("/avisos", c.actor, body)),
      writes: () => [],
    },
    {
      name: "/avisos/preferencias guardar",
      actors: [empleado, admin],
      table: null,
      form: () => ({
        intent: "guardar",
        enviado: "correo",
        aprobado: "app",
        rechazado: "correo",
        pagado: "nada",
        revertido: "correo",
        resumen_hora: "08:00",
      }),
      run: (c, body) => avisos_preferencias.action(ctxArgs("/avisos/preferencias", c.actor, body)),
      writes: () => [],
    },
    {
      name: "/login iniciar",
      actors: [empleado],
      table: null,
      form: () => ({
        intent: "iniciar",
        email: empleado.email,
        password: "contraseña-incorrecta",
        redirectTo: "/gastos",
      }),
      run: (_c, body) => login.action(ctxArgs("/login", null, body)),
      writes: () => [],
    },
    {
      name: "/login crear",
      actors: [empleado],
      table: null,
      form: () => ({
        intent: "crear",
        nombre: "Nueva",
        email: `fuzz${++seq}@oficina.test`,
        password: "una contraseña larga",
      }),
      run: (_c, body) => login.action(ctxArgs("/login", null, body)),
      writes: () => [],
    },
    {
      name: "/signup-confirmation reenviar",
      actors: [empleado],
      table: null,
      form: () => ({ intent: "reenviar", email: empleado.email }),
      run: (_c, body) => signup.action(ctxArgs("/signup-confirmation", null, body)),
      writes: () => [],
    },
    {
      name: "/auth/confirm",
      actors: [empleado],
      table: null,
      form: () => ({ token: "x".repeat(43), type: "email" }),
      run: (_c, body) => auth_confirm.action(ctxArgs("/auth/confirm", null, body)),
      writes: () => [],
    },
    {
      name: "/logout",
      actors: [otro],
      table: null,
      form: () => ({}),
      run: (_c, body) => logout.action(ctxArgs("/logout", null, body)),
      writes: () => [],
    },
  ];
}

type Mutation =
  { op: "set" | "drop" | "dup"; field: number; value: string } | { op: "extra"; name: string; value: string };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant("set" as const), field: fc.nat(), value: hostile }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("drop" as const), field: fc.nat(), value: fc.constant("") }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("dup" as const), field: fc.nat(), value: hostile }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("extra" as const),
      name: fc.constantFrom(...EXTRAS),
      value: fc.oneof(extraValue, hostile),
    }),
  },
);

describe("acciones con entradas hostiles (fast-check)", () => {
  it(`${RUNS} envíos a todas las acciones: ningún 5xx, ningún campo escrito que el formulario no permita`, async () => {
    const all = actions();
    let sent = 0;
    let accepted = 0;
    const errors5xx: string[] = [];
    const forbidden: string[] = [];
    const perAction = new Map<string, number>();

    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.nat(),
        fc.array(mutation, { minLength: 0, maxLength: 6 }),
        async (which, who, mutations) => {
          const action = all[which % all.length]!;
          const actor = action.actors[who % action.actors.length]!;
          const target = action.target ? await action.target(actor) : null;
          const before = target && action.table ? await row(action.table, target) : null;
          const c: Ctx = { actor, target, version: String(before?.version ?? 1) };
          let base = action.form(c);
          if (target && Object.keys(base).length === 0) {
            const entity =
              action.table === "usuarios"
                ? usuarios
                : action.table === "departamentos"
                  ? departamentos
                  : action.table === "sucursales"
                    ? sucursales
                    : proveedores;
            base = recordForm(entity, (await row(action.table!, target))!);
          }
          const entries: [string, string][] = Object.entries(base);
          for (const m of mutations) {
            if (m.op === "extra") entries.push([m.name, m.value]);
            else if (entries.length) {
              const i = m.field % entries.length;
              if (m.op === "set") entries[i] = [entries[i]![0], m.value];
              else if (m.op === "drop") entries.splice(i, 1);
              else entries.push([entries[i]![0], m.value]);
            }
          }
          const body = new URLSearchParams(entries);
          const known = action.created
            ? new Set(
                (await anyTables(app.db).selectFrom(action.table!).select("id").execute()).map((r) => String(r.id)),
              )
            : null;

          sent += 1;
          perAction.set(action.name, (perAction.get(action.name) ?? 0) + 1);
          let status: number;
          try {
            const r = await action.run(c, body);
            status = r instanceof Response ? r.status : 200;
          } catch (thrown) {
            if (thrown instanceof Response) status = thrown.status;
            else {
              errors5xx.push(
                `${action.name} como ${actor.rol}: ${(thrown as Error).message} con ${JSON.stringify(entries).slice(0, 300)}`,
              );
              return;
            }
          }
          if (status >= 500)
            errors5xx.push(`${action.name} como ${actor.rol}: ${status} con ${JSON.stringify(entries).slice(0, 300)}`);
          if (status !== 302 || !action.table) return;
          accepted += 1;

          // What the accepted request wrote: only the columns its form allows this person.
          if (before) {
            const after = await row(action.table, target!);
            if (!after) return; // deleted (eliminar)
            const allowed = new Set([...action.writes(actor), ...SYSTEM]);
            for (const column of Object.keys(after)) {
              if (allowed.has(column)) continue;
              if (JSON.stringify(after[column]) !== JSON.stringify(before[column]))
                forbidden.push(
                  `${action.name} como ${actor.rol} escribió ${column}: ${JSON.stringify(before[column])} → ${JSON.stringify(after[column])}`,
                );
            }
          }
          if (known && action.created) {
            const fresh = (await anyTables(app.db).selectFrom(action.table).selectAll().execute()).filter(
              (r) => !known.has(String(r.id)),
            );
            if (fresh.length > 1 && action.table !== "gastos")
              forbidden.push(`${action.name}: ${fresh.length} filas nuevas en un alta`);
            for (const r of fresh) {
              const problem = action.created(r as Fila, actor);
              if (problem) forbidden.push(`${action.name} como ${actor.rol}: ${problem}`);
            }
          }
        },
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );

    figure(
      `Entradas hostiles (FUZZ_SEED=${SEED}): ${sent} envíos a ${perAction.size} acciones (${accepted} aceptados), respuestas 5xx: ${errors5xx.length}, campos escritos que el formulario no permite: ${forbidden.length}`,
    );
    expect(errors5xx).toEqual([]);
    expect(forbidden).toEqual([]);
    expect(perAction.size).toBe(all.length);
  });

  it("listas, fichas y exportaciones con parámetros de URL hostiles: ningún 5xx", async () => {
    // A lone surrogate cannot travel in a URL (a browser sends U+FFFD; encodeURIComponent throws):
    // the path is written as a browser would, the loader still gets the raw id as its param.
    const enRuta = (id: string) =>
      encodeURIComponent(
        id.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"),
      );
    const KEYS = [
      "q",
      "orden",
      "dir",
      "pagina",
      "por_pagina",
      "estado",
      "categoria",
      "departamento",
      "sucursal",
      "proveedor",
      "solicitante",
      "desde",
      "hasta",
      "importe_min",
      "importe_max",
      "activo",
      "vista",
      "gasto",
      "masivo",
      "buscar_proveedores",
      "buscar_usuarios",
      "buscar_departamentos",
      "volver",
      "formato",
      "rol",
      "padre",
      "eliminar",
      "lista",
      "coinciden",
    ];
    const loaders: [string, (url: string, u: U, id: string) => Promise<unknown>][] = [
      ["/gastos", (url, u) => gastos_index.loader(getArgs(`/gastos?${url}`, u))],
      [
        "/gastos/exportar",
        async (url, u) => {
          const r = (await gastos_csv.loader(getArgs(`/gastos/exportar?${url}`, u))) as Response;
          await r.text();
          return r;
        },
      ],
      ["/departamentos", (url, u) => dep_index.loader(getArgs(`/departamentos?${url}`, u))],
      [
        "/departamentos/exportar",
        async (url, u) => {
          const r = (await dep_csv.loader(getArgs(`/departamentos/exportar?${url}`, u))) as Response;
          await r.text();
          return r;
        },
      ],
      ["/proveedores", (url, u) => prov_index.loader(getArgs(`/proveedores?${url}`, u))],
      ["/remesas", (url, u) => remesas_index.loader(getArgs(`/remesas?${url}`, u))],
      ["/usuarios", (url, u) => usu_index.loader(getArgs(`/usuarios?${url}`, u))],
      [
        "/departamentos/{id}",
        (url, u, id) => dep_id.loader({ ...getArgs(`/departamentos/${enRuta(id)}?${url}`, u), params: { id } }),
      ],
      [
        "/usuarios/{id}",
        (url, u, id) => usu_id.loader({ ...getArgs(`/usuarios/${enRuta(id)}?${url}`, u), params: { id } }),
      ],
    ];
    let sent = 0;
    const errors: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.nat(),
        fc.array(fc.tuple(fc.constantFrom(...KEYS), hostile), { maxLength: 5 }),
        hostile,
        async (which, who, params, id) => {
          const [name, load] = loaders[which % loaders.length]!;
          const u = [admin, aprobador, empleado][who % 3]!;
          const query = new URLSearchParams(params.map(([k, v]) => [k, v.slice(0, 3000)])).toString();
          sent += 1;
          try {
            const r = await load(query, u, id.slice(0, 200));
            if (r instanceof Response && r.status >= 500) errors.push(`${name}?${query.slice(0, 200)}: ${r.status}`);
          } catch (thrown) {
            if (thrown instanceof Response) {
              if (thrown.status >= 500) errors.push(`${name}?${query.slice(0, 200)}: ${thrown.status}`);
            } else errors.push(`${name}?${query.slice(0, 200)} como ${u.rol}: ${(thrown as Error).message}`);
          }
        },
      ),
      { numRuns: Math.round(RUNS / 3), seed: SEED },
    );
    figure(
      `Parámetros de URL hostiles: ${sent} peticiones a ${loaders.length} listas, fichas y exportaciones, respuestas 5xx: ${errors.length}`,
    );
    expect(errors).toEqual([]);
  });

  it("importes escritos en el formato de cada idioma: si se aceptan, se guarda exactamente ese importe (nunca otro)", async () => {
    let sent = 0;
    let accepted = 0;
    const misread: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...LOCALES),
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        fc.boolean(),
        async (locale, cents, digits, grouping, currency) => {
          const value =
            digits === 0 ? Math.round(cents / 100) || 1 : digits === 1 ? Math.round(cents / 10) / 10 : cents / 100;
          const typed = new Intl.NumberFormat(locale, {
            minimumFractionDigits: digits,
            maximumFractionDigits: digits,
            useGrouping: grouping,
            ...(currency ? { style: "currency", currency: "EUR" } : {}),
          }).format(value);
          const descripcion = `Importe ${++seq}`;
          sent += 1;
          const body = new URLSearchParams({
            intent: "crear",
            descripcion,
            fecha_gasto: hoy,
            categoria: "comidas",
            importe: typed,
            metodo_pago: "efectivo",
            _envio: randomUUID(),
          });
          const r = (await gastos_index
            .action(ctxArgs("/gastos?index", contable, body))
            .catch((e: unknown) => e)) as Response;
          if (!(r instanceof Response) || r.status >= 500)
            return void misread.push(`${typed}: ${r instanceof Response ? r.status : String(r)}`);
          if (r.status !== 302) return;
          accepted += 1;
          const stored = await app.db
            .selectFrom("gastos")
            .select("importe")
            .where("descripcion", "=", descripcion)
            .executeTakeFirstOrThrow();
          if (stored.importe !== value.toFixed(2))
            misread.push(`${locale} «${typed}» (${value.toFixed(2)}) se guardó como ${stored.importe}`);
        },
      ),
      { numRuns: 400, seed: SEED },
    );
    figure(
      `Importes en el formato de ${LOCALES.length} idiomas: ${sent} envíos, ${accepted} aceptados, ${misread.length} leídos como otro importe`,
    );
    expect(misread).toEqual([]);
    expect(accepted).toBeGreaterThan(50);
  });
});
