import type pg from "pg";
import { sqlStore } from "~/data/sql/adapter.server";
import { Conflict, Forbidden, Invalid, NotFound } from "~/data/store";
import { addDaysISO, todayISO } from "~/lib/dates";
import { generateValidEsIban, validateIban } from "~/lib/iban";
import { generateValidCif } from "~/lib/nif";
import * as usuario from "~/routes/usuarios.$id";
import { createTestApp, json, request, respond, type TestApp, type TestUser } from "../support/app";
import { asUser, connect, pgError } from "../support/as-user";
import { insertDepartamento, insertSucursal, setProfile, tableHashes } from "../support/fixtures";

/**
 * Remesas (SEPA transfers that pay approved gastos) in the database, on a real Postgres under
 * row-level security: who sees each IBAN, who may put which gasto in a remesa and why not, one
 * live remesa per gasto (also with two administradores at once), confirming as one transaction,
 * cancelling, and the single «Marcar como pagado» refusing a gasto that is in a remesa.
 */
let app: TestApp;
let admin: TestUser, admin2: TestUser, aprobador: TestUser, empleado: TestUser, empleado2: TestUser;
let dep: string, suc: string;
let cuenta: string, cuentaInactiva: string;
let prov: { ok: string; malo: string; sinIban: string; turco: string };
let owner: pg.Client;
const hoy = todayISO();
const IBAN_ELENA = generateValidEsIban(2);
const IBAN_PROVEEDOR = generateValidEsIban(3);
/** A valid IBAN with its last digit changed: the right shape, a wrong check sum. */
const alterado = (iban: string) => iban.slice(0, -1) + String((Number(iban.slice(-1)) + 1) % 10);

beforeAll(async () => {
  app = await createTestApp();
  owner = await connect(app.url);
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  admin2 = await app.createUser({ nombre: "Beatriz", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
  empleado2 = await app.createUser({ nombre: "Eva", rol: "empleado" });
  dep = await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" });
  suc = await insertSucursal(app.db);
  for (const u of [admin, admin2, aprobador, empleado2])
    await setProfile(app.db, u.id, { departamento_id: dep, sucursal_id: suc });
  await setProfile(app.db, empleado.id, { departamento_id: dep, sucursal_id: suc, aprobador_id: aprobador.id });
  await owner.query("update public.empresa set razon_social = 'Oficina Demo SL', nif = $1", [generateValidCif(7)]);
  const c = async (nombre: string, iban: string, activa: boolean) =>
    (
      await owner.query<{ id: string }>(
        "insert into public.cuentas_empresa (nombre, iban, bic, activa) values ($1, $2, 'CAIXESBBXXX', $3) returning id",
        [nombre, iban, activa],
      )
    ).rows[0]!.id;
  cuenta = await c("Cuenta principal", generateValidEsIban(1), true);
  cuentaInactiva = await c("Cuenta cerrada", generateValidEsIban(9), false);
  await owner.query("insert into public.datos_bancarios (usuario_id, iban) values ($1, $2)", [empleado.id, IBAN_ELENA]);
  const p = async (razon: string, n: number, iban: string | null) =>
    (
      await owner.query<{ id: string }>(
        "insert into public.proveedores (razon_social, tipo_persona, nif, iban) values ($1, 'empresa', $2, $3) returning id",
        [razon, generateValidCif(n), iban],
      )
    ).rows[0]!.id;
  prov = {
    ok: await p("Papelería La Castellana SL", 11, IBAN_PROVEEDOR),
    malo: await p("Cuenta Errónea SL", 12, alterado(generateValidEsIban(4))),
    sinIban: await p("Sin Cuenta SL", 13, null),
    // A valid IBAN, of a bank outside SEPA.
    turco: await p("İstanbul Tekstil AŞ", 14, "TR330006100519786457841326"),
  };
  // These accounts were given long ago: written just now with no one signed in, every proposal
  // would flag them (the tests about a recent account write their own).
  await owner.query(
    "update public.historial set creado_en = creado_en - interval '1 year' where tabla in ('datos_bancarios', 'proveedores_pago')",
  );
});
afterAll(async () => {
  await owner?.end();
  await app?.close();
});

// ------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------

let n = 0;
/**
 * A gasto written as the owner and put straight into its state (its setting, not what the test
 * is about). Approved by Pablo unless told otherwise. Distinct amounts with cents.
 */
async function gasto(
  o: {
    solicitante?: TestUser;
    importe?: string;
    metodo?: string;
    proveedor?: string | null;
    aprobadoPor?: TestUser;
    estado?: "borrador" | "pendiente" | "aprobado";
  } = {},
): Promise<string> {
  n += 1;
  const { rows } = await owner.query<{ id: string }>(
    `insert into public.gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, proveedor_id,
       solicitante_id, departamento_id, sucursal_id)
     values ($1, $2, 'otros', $3, $4, $5, $6, $7, $8) returning id`,
    [
      `Gasto de prueba ${n}`,
      hoy,
      o.importe ?? `${10 + n}.15`,
      o.metodo ?? "efectivo",
      o.proveedor ?? null,
      (o.solicitante ?? empleado).id,
      dep,
      suc,
    ],
  );
  const id = rows[0]!.id;
  const estado = o.estado ?? "aprobado";
  if (estado === "pendiente")
    await owner.query("update public.gastos set estado = 'pendiente', aprobador_id = $2 where id = $1", [
      id,
      aprobador.id,
    ]);
  if (estado === "aprobado")
    await owner.query(
      `update public.gastos set estado = 'aprobado', aprobador_id = $2, aprobado_por_id = $3, fecha_aprobacion = now()
        where id = $1`,
      [id, aprobador.id, (o.aprobadoPor ?? aprobador).id],
    );
  return id;
}

const rpc = <T = Record<string, unknown>>(u: TestUser, fn: string, args: Record<string, unknown>) =>
  sqlStore(app.db, u.id).rpc<T>(fn, args);

type Linea = {
  gasto_id: string;
  folio: string | null;
  importe: string;
  beneficiario: string | null;
  beneficiario_id: string | null;
  nombre: string | null;
  iban: string | null;
  motivo: string | null;
  cuenta_reciente: { en: string; por_id: string | null; por: string | null } | null;
};
type Candidatos = {
  huella: string;
  gastos: Linea[];
  incluidos: number;
  excluidos: number;
  transferencias: number;
  importe_total: string;
};
type Transferencia = {
  end_to_end_id: string;
  beneficiario: string;
  beneficiario_id: string;
  nombre: string;
  iban: string;
  importe: string;
  concepto: string;
  cuenta_reciente: { en: string; por_id: string | null; por: string | null } | null;
  gastos: { id: string; folio: string; importe: string }[];
};
type Remesa = {
  id: string;
  folio: string;
  estado: string;
  version: number;
  mensaje_id: string;
  fecha_ejecucion: string;
  num_transferencias: number;
  num_gastos: number;
  importe_total: string;
  xml_guardado: boolean;
  cuenta: { id: string; iban: string; bic: string; sufijo: string; formato: string };
  ordenante: { nombre: string; nif: string; identificador: string };
  transferencias: Transferencia[];
};

const candidatos = (u: TestUser, ids: string[]) => rpc<Candidatos>(u, "remesa_candidatos", { p_gasto_ids: ids });
const crear = (u: TestUser, ids: string[], o: { cuenta?: string; fecha?: string; total?: string } = {}) =>
  rpc<Remesa>(u, "crear_remesa", {
    p_gasto_ids: ids,
    p_cuenta_id: o.cuenta ?? cuenta,
    p_fecha_ejecucion: o.fecha ?? hoy,
    ...(o.total ? { p_importe_total: o.total } : {}),
  });
/** The pain.001 the app would build: here only its MsgId matters to the database. */
const xmlDe = (r: Remesa) =>
  `<?xml version="1.0" encoding="UTF-8"?><Document><MsgId>${r.mensaje_id}</MsgId></Document>`;
/** A remesa made by Beatriz with its file saved, as the route leaves it. */
async function remesaGuardada(ids: string[], fecha = hoy) {
  const r = await crear(admin2, ids, { fecha });
  const g = await rpc<{ version: number }>(admin2, "guardar_xml_remesa", { p_id: r.id, p_xml: xmlDe(r) });
  return { ...r, version: g.version };
}

const fila = async (id: string) =>
  (
    await owner.query<{ estado: string; fecha_pago: string | null; referencia_pago: string | null; version: number }>(
      "select estado, to_char(fecha_pago, 'YYYY-MM-DD') as fecha_pago, referencia_pago, version from public.gastos where id = $1",
      [id],
    )
  ).rows[0]!;
const remesa = async (id: string) =>
  (
    await owner.query("select *, to_char(fecha_ejecucion, 'YYYY-MM-DD') as fecha from public.remesas where id = $1", [
      id,
    ])
  ).rows[0];

/** «Nothing changed»: the tables of this feature, the gastos and the history. */
const snapshot = () =>
  tableHashes(app.db, {
    gastos: ["public.gastos", "id"],
    remesas: ["public.remesas", "id"],
    remesa_gastos: ["public.remesa_gastos", "id"],
    datos_bancarios: ["public.datos_bancarios", "id"],
    cuentas_empresa: ["public.cuentas_empresa", "id"],
  });

/** `run` is refused with an error of `tipo` and `mensaje`, and the database is as before. */
async function rechaza(run: () => Promise<unknown>, tipo: typeof Invalid, mensaje: string | RegExp) {
  const antes = await snapshot();
  const error = await run().then(
    () => new Error("se ejecutó sin error"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(tipo);
  if (typeof mensaje === "string") expect((error as Error).message).toBe(mensaje);
  else expect((error as Error).message).toMatch(mensaje);
  expect(await snapshot()).toEqual(antes);
}

const SOLO_ADMIN = "Solo un administrador puede preparar y gestionar remesas de pago.";

// ------------------------------------------------------------------------------------------

describe("IBAN en la base de datos", () => {
  it("interno.iban_valido dice lo mismo que validateIban (app/lib/iban.ts)", async () => {
    const muestras = [
      ...Array.from({ length: 40 }, (_, i) => generateValidEsIban(i * 37 + 5)),
      ...Array.from({ length: 40 }, (_, i) => alterado(generateValidEsIban(i * 37 + 5))),
      "GB82WEST12345698765432",
      "DE89370400440532013000",
      "FR1420041010050500013M02606",
      "NL91ABNA0417164300",
      "NL91ABNA0417164301",
      "ES91 2100 0418 4502 0005 1332",
      "es9121000418450200051332",
      "IBAN ES9121000418450200051332",
      "ES9121000418450200051333",
      "ES91210004184502000513",
      "ES9121000418450200A51332",
      "ES0121000418450200051332",
      "MX123456789012345678",
      "XX12345678901234",
      "12345",
      "",
    ];
    const { rows } = await owner.query<{ iban: string; valido: boolean }>(
      "select m as iban, interno.iban_valido(m) as valido from unnest($1::text[]) as m",
      [muestras],
    );
    expect(rows.map((r) => [r.iban, r.valido])).toEqual(muestras.map((m) => [m, validateIban(m)]));
    expect(rows.filter((r) => r.valido).length).toBeGreaterThan(40);
  });
});

describe("datos bancarios: el IBAN de cada persona", () => {
  it("no es una columna de usuarios (que ve cualquier usuario activo)", async () => {
    const { rows } = await owner.query(
      "select column_name from information_schema.columns where table_schema = 'public' and table_name = 'usuarios' and column_name ilike '%iban%'",
    );
    expect(rows).toEqual([]);
  });

  it("lo ven y lo cambian la persona y los administradores; ni su aprobador ni otro empleado; su historial, igual", async () => {
    const db = await connect(app.url);
    try {
      const ver = (quien: TestUser, de: TestUser) =>
        asUser(
          db,
          quien.id,
          async (q) => (await q("select iban from public.datos_bancarios where usuario_id = $1", [de.id])).rows,
        );
      // Eva writes her own, with spaces as it is printed: stored normalized.
      const iban = generateValidEsIban(21);
      await asUser(db, empleado2.id, (q) =>
        q("insert into public.datos_bancarios (usuario_id, iban, titular) values ($1, $2, 'Eva Ruiz')", [
          empleado2.id,
          ` ${iban.replace(/(.{4})/g, "$1 ")}`.toLowerCase(),
        ]),
      );
      expect(await ver(empleado2, empleado2)).toEqual([{ iban }]);
      expect(await ver(admin, empleado2)).toEqual([{ iban }]);
      expect(await ver(empleado, empleado2)).toEqual([]);
      // Elena's own approver does not see hers.
      expect(await ver(aprobador, empleado)).toEqual([]);
      expect(await ver(empleado, empleado)).toEqual([{ iban: IBAN_ELENA }]);

      const antes = await snapshot();
      const invalido = await pgError(
        asUser(db, empleado2.id, (q) =>
          q("update public.datos_bancarios set iban = $2 where usuario_id = $1", [empleado2.id, alterado(iban)]),
        ),
      );
      expect([invalido.code, invalido.detail, invalido.message]).toEqual([
        "OFINV",
        "iban",
        "IBAN no válido: revise el código de país, los dígitos de control y el número de cuenta (por ejemplo, ES91 2100 0418 4502 0005 1332).",
      ]);
      // Someone else's: not seen, so not updated; inserting one for another person, refused.
      expect(
        (
          await asUser(db, empleado.id, (q) =>
            q("update public.datos_bancarios set iban = $2 where usuario_id = $1", [empleado2.id, IBAN_ELENA]),
          )
        ).rowCount,
      ).toBe(0);
      expect(
        (
          await asUser(db, aprobador.id, (q) =>
            q("update public.datos_bancarios set titular = 'Otro' where usuario_id = $1", [empleado.id]),
          )
        ).rowCount,
      ).toBe(0);
      const ajena = await pgError(
        asUser(db, aprobador.id, (q) =>
          q("insert into public.datos_bancarios (usuario_id, iban) values ($1, $2)", [
            admin.id,
            generateValidEsIban(22),
          ]),
        ),
      );
      expect(ajena.code).toBe("42501");
      expect(await snapshot()).toEqual(antes);

      // An administrador corrects it.
      const nuevo = generateValidEsIban(23);
      expect(
        (
          await asUser(db, admin.id, (q) =>
            q("update public.datos_bancarios set iban = $2 where usuario_id = $1", [empleado2.id, nuevo]),
          )
        ).rowCount,
      ).toBe(1);
      expect(await ver(empleado2, empleado2)).toEqual([{ iban: nuevo }]);

      const entradas = Number(
        (
          await owner.query(
            "select count(*) as n from public.historial h join public.datos_bancarios d on d.id = h.registro_id where d.usuario_id = $1",
            [empleado2.id],
          )
        ).rows[0].n,
      );
      expect(entradas).toBe(2);
      // Read as owner the id, then count as each user what their RLS lets through.
      const id = (await owner.query("select id from public.datos_bancarios where usuario_id = $1", [empleado2.id]))
        .rows[0].id;
      const historialDe = (quien: TestUser) =>
        asUser(db, quien.id, async (q) =>
          Number(
            (
              await q(
                "select count(*) as n from public.historial where tabla = 'datos_bancarios' and registro_id = $1",
                [id],
              )
            ).rows[0].n,
          ),
        );
      expect(await historialDe(empleado2)).toBe(2);
      expect(await historialDe(admin)).toBe(2);
      expect(await historialDe(empleado)).toBe(0);
      expect(await historialDe(aprobador)).toBe(0);
    } finally {
      await db.end();
    }
  });
});

describe("cuentas de la empresa", () => {
  it("solo las ven y las cambian los administradores; IBAN, BIC y sufijo se comprueban", async () => {
    const db = await connect(app.url);
    try {
      const ver = (quien: TestUser) =>
        asUser(db, quien.id, async (q) => (await q("select id from public.cuentas_empresa")).rows.length);
      expect(await ver(admin)).toBe(2);
      expect(await ver(aprobador)).toBe(0);
      expect(await ver(empleado)).toBe(0);
      const antes = await snapshot();
      const alta = (quien: TestUser, iban: string, bic = "CAIXESBBXXX", sufijo = "000") =>
        asUser(db, quien.id, (q) =>
          q("insert into public.cuentas_empresa (nombre, iban, bic, sufijo) values ('Otra', $1, $2, $3)", [
            iban,
            bic,
            sufijo,
          ]),
        );
      expect((await pgError(alta(aprobador, generateValidEsIban(31)))).code).toBe("42501");
      const iban = await pgError(alta(admin, alterado(generateValidEsIban(31))));
      expect([iban.code, iban.detail]).toEqual(["OFINV", "iban"]);
      const bic = await pgError(alta(admin, generateValidEsIban(31), "CAIX"));
      expect([bic.code, bic.detail, bic.message]).toEqual([
        "OFINV",
        "bic",
        "BIC no válido: 8 u 11 caracteres, por ejemplo CAIXESBBXXX.",
      ]);
      const sufijo = await pgError(alta(admin, generateValidEsIban(31), "CAIXESBBXXX", "0001"));
      expect([sufijo.code, sufijo.detail]).toEqual(["OFINV", "sufijo"]);
      expect(
        (await asUser(db, aprobador.id, (q) => q("update public.cuentas_empresa set activa = false"))).rowCount,
      ).toBe(0);
      expect(await snapshot()).toEqual(antes);
    } finally {
      await db.end();
    }
  });
});

describe("candidatos: a quién se paga cada gasto, o por qué no puede ir", () => {
  it("cada gasto, en el orden pedido, con su beneficiario y su IBAN o el motivo; la suma exacta, en SQL", async () => {
    const ids = {
      efectivo: await gasto({ importe: "0.10" }),
      credito: await gasto({ metodo: "tarjeta_credito", importe: "0.20" }),
      proveedor: await gasto({ metodo: "transferencia", proveedor: prov.ok, importe: "1000000.00" }),
      corporativa: await gasto({ metodo: "tarjeta_corporativa" }),
      cajaChica: await gasto({ metodo: "caja_chica" }),
      domiciliacion: await gasto({ metodo: "domiciliacion", proveedor: prov.ok }),
      cheque: await gasto({ metodo: "cheque" }),
      transferenciaSinProveedor: await gasto({ metodo: "transferencia" }),
      sinIban: await gasto({ solicitante: empleado2, metodo: "tarjeta_debito" }),
      proveedorSinIban: await gasto({ metodo: "transferencia", proveedor: prov.sinIban }),
      ibanMalo: await gasto({ metodo: "transferencia", proveedor: prov.malo }),
      fueraDeSepa: await gasto({ metodo: "transferencia", proveedor: prov.turco }),
      pendiente: await gasto({ estado: "pendiente" }),
      borrador: await gasto({ estado: "borrador" }),
      aprobadoPorAna: await gasto({ aprobadoPor: admin }),
    };
    // Eva has given her NIF but no account in this test's view of the world.
    await owner.query("delete from public.datos_bancarios where usuario_id = $1", [empleado2.id]);
    await owner.query("insert into public.datos_bancarios (usuario_id, nif) values ($1, '00000000T')", [empleado2.id]);
    const noExiste = "00000000-0000-4000-8000-000000000000";
    const pedidos = [...Object.values(ids), noExiste, ids.efectivo];
    const c = await candidatos(admin, pedidos);
    const por = Object.fromEntries(Object.entries(ids).map(([k, id]) => [k, c.gastos.find((l) => l.gasto_id === id)!]));
    expect(c.gastos.map((l) => l.gasto_id)).toEqual([...Object.values(ids), noExiste]);
    expect(por.efectivo).toMatchObject({
      beneficiario: "solicitante",
      beneficiario_id: empleado.id,
      nombre: "Elena",
      iban: IBAN_ELENA,
      motivo: null,
      importe: "0.10",
    });
    expect(por.credito).toMatchObject({ beneficiario: "solicitante", iban: IBAN_ELENA, motivo: null });
    expect(por.proveedor).toMatchObject({
      beneficiario: "proveedor",
      beneficiario_id: prov.ok,
      nombre: "Papelería La Castellana SL",
      iban: IBAN_PROVEEDOR,
      motivo: null,
    });
    expect(Object.fromEntries(Object.entries(por).map(([k, l]) => [k, l.motivo]))).toEqual({
      efectivo: null,
      credito: null,
      proveedor: null,
      corporativa: "Tarjeta corporativa: no se reembolsa.",
      cajaChica: "Caja chica: se pagó con dinero de la empresa, no se reembolsa.",
      domiciliacion: "Domiciliación: el proveedor lo cobra por adeudo, no por transferencia.",
      cheque: "Cheque: se paga fuera de las remesas.",
      transferenciaSinProveedor: "Transferencia sin proveedor: indique en el gasto a qué proveedor se paga.",
      sinIban: "Sin IBAN: Eva no ha indicado su cuenta bancaria.",
      proveedorSinIban: "Sin IBAN: el proveedor Sin Cuenta SL no tiene IBAN.",
      ibanMalo: "IBAN no válido: revise el de Cuenta Errónea SL.",
      fueraDeSepa:
        "IBAN de fuera de la zona SEPA (TR): a İstanbul Tekstil AŞ no se le paga con una transferencia SEPA.",
      pendiente: "No está aprobado.",
      borrador: "No está aprobado.",
      aprobadoPorAna: "Lo aprobó usted: debe incluirlo en una remesa otro administrador.",
    });
    expect(c.gastos.at(-1)).toMatchObject({ gasto_id: noExiste, motivo: "El gasto no existe." });
    expect(c).toMatchObject({ incluidos: 3, excluidos: 13, transferencias: 2, importe_total: "1000000.30" });
    // Another administrador may: separation of duties is about who approved it.
    const otra = await candidatos(admin2, [ids.aprobadoPorAna]);
    expect(otra.gastos[0]!.motivo).toBeNull();
  });

  it("solo los administradores; quien lo aprobó puede con PERMITIR_ADMIN_UNICO", async () => {
    const g = await gasto({ aprobadoPor: admin });
    for (const u of [empleado, aprobador]) await rechaza(() => candidatos(u, [g]), Forbidden, SOLO_ADMIN);
    await owner.query("update interno.ajustes set permitir_admin_unico = true");
    try {
      expect((await candidatos(admin, [g])).gastos[0]!.motivo).toBeNull();
    } finally {
      await owner.query("update interno.ajustes set permitir_admin_unico = false");
    }
    expect((await candidatos(admin, [g])).gastos[0]!.motivo).toBe(
      "Lo aprobó usted: debe incluirlo en una remesa otro administrador.",
    );
  });

  it("quien pidió un gasto no lo pone en una remesa ni confirma la que lo paga; otro administrador, sí", async () => {
    // Ana's own invoice, paid to the supplier: not her account, still her gasto.
    const suyo = await gasto({ solicitante: admin, metodo: "transferencia", proveedor: prov.ok });
    const SUYO = "Es un gasto suyo: debe incluirlo en una remesa otro administrador.";
    expect((await candidatos(admin, [suyo])).gastos[0]!.motivo).toBe(SUYO);
    await rechaza(() => crear(admin, [suyo]), Invalid, /Es un gasto suyo/);
    expect((await candidatos(admin2, [suyo])).gastos[0]!.motivo).toBeNull();
    const r = await remesaGuardada([suyo]);
    await rechaza(
      () => rpc(admin, "confirmar_remesa", { p_id: r.id, p_version: r.version }),
      Forbidden,
      /^El gasto GAS-\d{4}-\d{5} es suyo: debe confirmar la remesa otro administrador\.$/,
    );
    await rpc(admin2, "confirmar_remesa", { p_id: r.id, p_version: r.version });
    expect(await fila(suyo)).toMatchObject({ estado: "pagado", referencia_pago: r.folio });
  });

  it("quien cambió por última vez la cuenta de otro no le paga a ella; otro administrador, sí", async () => {
    const persona = await app.createUser({ nombre: "Irene", rol: "empleado" });
    await setProfile(app.db, persona.id, { departamento_id: dep, sucursal_id: suc, aprobador_id: aprobador.id });
    const proveedor = (
      await owner.query<{ id: string }>(
        "insert into public.proveedores (razon_social, tipo_persona, nif, iban) values ('Cuentas Cambiantes SL', 'empresa', $1, $2) returning id",
        [generateValidCif(31), generateValidEsIban(32)],
      )
    ).rows[0]!.id;
    const suyo = await gasto({ solicitante: persona });
    const factura = await gasto({ metodo: "transferencia", proveedor });
    const db = await connect(app.url);
    const motivos = async (u: TestUser) => (await candidatos(u, [suyo, factura])).gastos.map((l) => l.motivo);
    const cuentaIndicada = async (quien: TestUser) => {
      const pagina = await respond(() =>
        usuario.loader({
          request: request(`/usuarios/${persona.id}`, { cookie: quien.cookie }),
          context: app.context(),
          params: { id: persona.id },
        }),
      );
      return (await json(pagina)).datosBancarios.cambio;
    };
    try {
      // Irene gives her own account, and the supplier's comes with it: anyone may pay them.
      await asUser(db, persona.id, (q) =>
        q("insert into public.datos_bancarios (usuario_id, iban) values ($1, $2)", [
          persona.id,
          generateValidEsIban(33),
        ]),
      );
      expect(await motivos(admin)).toEqual([null, null]);
      // Ana changes both: she may no longer put them in a remesa; Beatriz may.
      await asUser(db, admin.id, async (q) => {
        await q("update public.datos_bancarios set iban = $2 where usuario_id = $1", [
          persona.id,
          generateValidEsIban(34),
        ]);
        await q("update public.proveedores set iban = $2 where id = $1", [proveedor, generateValidEsIban(35)]);
      });
      expect(await motivos(admin)).toEqual([
        "Usted cambió la cuenta de Irene: debe incluirlo en una remesa otro administrador.",
        "Usted cambió la cuenta de Cuentas Cambiantes SL: debe incluirlo en una remesa otro administrador.",
      ]);
      expect(await motivos(admin2)).toEqual([null, null]);
      // Beatriz reads who wrote each account, and when, beside it: to be checked before paying.
      const recientes = async () => (await candidatos(admin2, [suyo, factura])).gastos.map((l) => l.cuenta_reciente);
      const porAna = { en: expect.any(String), por_id: admin.id, por: `Ana (${admin.email})` };
      expect(await recientes()).toEqual([porAna, porAna]);
      // Written more than 30 days ago: no longer flagged.
      await owner.query(
        `update public.historial set creado_en = creado_en - interval '31 days'
          where tabla = 'proveedores_pago' and registro_id = $1`,
        [proveedor],
      );
      expect((await recientes())[1]).toBeNull();
      // Irene's profile says who wrote the account her refunds go to.
      expect(await cuentaIndicada(persona)).toEqual({ en: expect.any(String), quien: "por Ana" });
      await rechaza(
        () => crear(admin, [suyo]),
        Invalid,
        /Usted cambió la cuenta de Irene: debe incluirlo en una remesa otro administrador\./,
      );
      // A change of the name alone is not a change of the account.
      await asUser(db, admin2.id, (q) =>
        q("update public.datos_bancarios set titular = 'Irene Sanz' where usuario_id = $1", [persona.id]),
      );
      expect((await motivos(admin))[0]).toMatch(/^Usted cambió la cuenta de Irene Sanz/);
      // Once the person writes hers again, the account is hers.
      await asUser(db, persona.id, (q) =>
        q("update public.datos_bancarios set iban = $2 where usuario_id = $1", [persona.id, generateValidEsIban(36)]),
      );
      expect((await motivos(admin))[0]).toBeNull();
      expect(await cuentaIndicada(persona)).toMatchObject({ quien: "por usted" });
      expect(await cuentaIndicada(admin)).toMatchObject({ quien: "por Irene" });
      // An account changed between the proposal and «Generar remesa»: refused, nothing written.
      const vista = await candidatos(admin2, [suyo]);
      await asUser(db, persona.id, (q) =>
        q("update public.datos_bancarios set iban = $2 where usuario_id = $1", [persona.id, generateValidEsIban(37)]),
      );
      const remesasAntes = (await owner.query("select count(*)::int as n from public.remesas")).rows[0].n;
      await rechaza(
        () =>
          rpc(admin2, "crear_remesa", {
            p_gasto_ids: [suyo],
            p_cuenta_id: cuenta,
            p_fecha_ejecucion: hoy,
            p_huella: vista.huella,
          }),
        Conflict,
        /^La cuenta o el beneficiario de algún gasto ha cambiado desde que consultó la propuesta/,
      );
      expect((await owner.query("select count(*)::int as n from public.remesas")).rows[0].n).toBe(remesasAntes);
      // Proposed again, it goes.
      const nueva = await candidatos(admin2, [suyo]);
      expect(nueva.huella).not.toBe(vista.huella);
      const hecha = await rpc<Remesa>(admin2, "crear_remesa", {
        p_gasto_ids: [suyo],
        p_cuenta_id: cuenta,
        p_fecha_ejecucion: hoy,
        p_huella: nueva.huella,
      });
      await rpc(admin2, "anular_remesa", {
        p_id: hecha.id,
        p_version: hecha.version,
        p_motivo: "Solo para probar la huella",
      });
      // With a single administrador allowed to approve and pay, also to pay where she wrote the account.
      await owner.query("update interno.ajustes set permitir_admin_unico = true");
      try {
        expect((await motivos(admin))[1]).toBeNull();
      } finally {
        await owner.query("update interno.ajustes set permitir_admin_unico = false");
      }
      // Written with nobody signed in (a load, the SQL editor): her profile says so too.
      await owner.query("update public.datos_bancarios set iban = $2 where usuario_id = $1", [
        persona.id,
        generateValidEsIban(38),
      ]);
      expect(await cuentaIndicada(persona)).toEqual({
        en: expect.any(String),
        quien: "sin sesión en Oficina (una carga de datos o el editor SQL)",
      });
    } finally {
      await db.end();
    }
  });
});

describe("crear una remesa", () => {
  it("a un proveedor, el concepto nombra sus facturas una vez: «Pago de facturas A, B»", async () => {
    const conFactura = async (numero: string | null) => {
      const id = await gasto({ metodo: "transferencia", proveedor: prov.ok });
      await owner.query("update public.gastos set numero_factura = $2 where id = $1", [id, numero]);
      return id;
    };
    const concepto = async (ids: string[]) => {
      const r = await crear(admin, ids);
      await rpc(admin, "anular_remesa", { p_id: r.id, p_version: r.version, p_motivo: "Solo para leer su concepto" });
      return r.transferencias[0]!.concepto;
    };
    expect(await concepto([await conFactura("F-7")])).toBe("Pago de factura F-7");
    expect(await concepto([await conFactura("A-1"), await conFactura("A-2")])).toBe("Pago de facturas A-1, A-2");
    // One without its number goes by its folio: then each factura says it is one.
    const sin = await conFactura(null);
    const { rows } = await owner.query<{ folio: string }>("select folio from public.gastos where id = $1", [sin]);
    expect(await concepto([await conFactura("B-1"), sin])).toBe(`Pago de ${rows[0]!.folio}, factura B-1`);
  });

  it("el concepto nombra folios enteros y dice cuántos no caben en sus 140 caracteres", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await gasto());
    const r = await crear(admin, ids);
    const { concepto } = r.transferencias[0]!;
    await rpc(admin, "anular_remesa", { p_id: r.id, p_version: r.version, p_motivo: "Solo para leer su concepto" });
    const { rows } = await owner.query<{ folio: string }>(
      "select folio from public.gastos where id = any($1) order by folio",
      [ids],
    );
    const [, lista, mas] = /^Reembolso de gastos (.*) y (\d+) más$/.exec(concepto)!;
    const nombrados = lista!.split(", ");
    expect(nombrados).toEqual(rows.slice(0, nombrados.length).map((g) => g.folio));
    expect(nombrados.length + Number(mas)).toBe(10);
    expect(concepto.length).toBeLessThanOrEqual(140);
    // One more folio would not have fitted.
    expect(
      `${lista}, ${rows[nombrados.length]!.folio}`.length + 20 + ` y ${Number(mas) - 1} más`.length,
    ).toBeGreaterThan(140);
  });

  it("folio REM-AAAA-NNNN, una transferencia por beneficiario con la suma exacta de sus gastos y su EndToEndId", async () => {
    const a = await gasto({ importe: "0.10" });
    const b = await gasto({ metodo: "tarjeta_credito", importe: "0.20" });
    const p = await gasto({ metodo: "transferencia", proveedor: prov.ok, importe: "1234.56" });
    const r = await crear(admin, [p, a, b, a], { total: "1234.86" });
    expect(r.folio).toMatch(new RegExp(`^REM-${hoy.slice(0, 4)}-\\d{4}$`));
    // Its creation time in Madrid, as the file's CreDtTm says it.
    const { rows } = await owner.query(
      "select to_char(creado_en at time zone 'Europe/Madrid', 'YYYYMMDDHH24MISS') as t from public.remesas where id = $1",
      [r.id],
    );
    expect(r.mensaje_id).toBe(`${r.folio}-${rows[0].t}`);
    expect(r.mensaje_id.length).toBeLessThanOrEqual(35);
    expect(r).toMatchObject({
      estado: "generada",
      version: 1,
      fecha_ejecucion: hoy,
      num_transferencias: 2,
      num_gastos: 3,
      importe_total: "1234.86",
      xml_guardado: false,
      cuenta: { id: cuenta, bic: "CAIXESBBXXX", sufijo: "000", formato: "pain.001.001.03" },
      ordenante: { nombre: "Oficina Demo SL", nif: generateValidCif(7), identificador: `${generateValidCif(7)}000` },
    });
    // Ordered by the beneficiary's name: Elena, then the supplier.
    expect(r.transferencias.map((t) => [t.end_to_end_id, t.beneficiario, t.nombre, t.iban, t.importe])).toEqual([
      [`${r.folio}-001`, "solicitante", "Elena", IBAN_ELENA, "0.30"],
      [`${r.folio}-002`, "proveedor", "Papelería La Castellana SL", IBAN_PROVEEDOR, "1234.56"],
    ]);
    expect(r.transferencias[0]!.gastos.map((g) => g.id).sort()).toEqual([a, b].sort());
    expect(r.transferencias[0]!.concepto).toMatch(/^Reembolso de gastos GAS-/);
    // They are in it now: nobody can put them in another.
    const c = await candidatos(admin2, [a, p]);
    expect(c.gastos.map((l) => l.motivo)).toEqual([
      `Ya está en la remesa ${r.folio}.`,
      `Ya está en la remesa ${r.folio}.`,
    ]);
    // The same remesa asked for again (another tab, a second post): said once, by its folio.
    await rechaza(
      () => crear(admin2, [a, p]),
      Invalid,
      `Estos gastos ya están en la remesa ${r.folio}: se generó antes (quizá desde otra pestaña). Ábrala en la lista de remesas.`,
    );
    // With one that could go, each one that cannot, with its reason.
    const libre = await gasto();
    await rechaza(
      () => crear(admin2, [a, libre]),
      Invalid,
      `Un gasto no puede ir en la remesa: quítelo o resuelva el motivo. ${c.gastos[0]!.folio}: Ya está en la remesa ${r.folio}.`,
    );
    expect(await remesa(r.id)).toMatchObject({ estado: "generada", creado_por_id: admin.id, xml: null });
    // The same data again, to build the file later.
    expect(await rpc<Remesa>(admin, "remesa_datos", { p_id: r.id })).toEqual(r);
  });

  it("cada transferencia guarda cuándo y quién escribió su cuenta: la escrita en los 30 días antes de generarla se dice", async () => {
    const persona = await app.createUser({ nombre: "Rosa", rol: "empleado" });
    await setProfile(app.db, persona.id, { departamento_id: dep, sucursal_id: suc, aprobador_id: aprobador.id });
    const proveedor = (
      await owner.query<{ id: string }>(
        "insert into public.proveedores (razon_social, tipo_persona, nif, iban) values ('Cuenta Antigua SL', 'empresa', $1, $2) returning id",
        [generateValidCif(41), generateValidEsIban(42)],
      )
    ).rows[0]!.id;
    const db = await connect(app.url);
    try {
      // Rosa writes her own account; Ana wrote the supplier's, 31 days ago; Elena's, long ago.
      await asUser(db, persona.id, (q) =>
        q("insert into public.datos_bancarios (usuario_id, iban) values ($1, $2)", [
          persona.id,
          generateValidEsIban(43),
        ]),
      );
      await asUser(db, admin.id, (q) =>
        q("update public.proveedores set iban = $2 where id = $1", [proveedor, generateValidEsIban(44)]),
      );
    } finally {
      await db.end();
    }
    await owner.query(
      `update public.historial set creado_en = creado_en - interval '31 days'
        where tabla = 'proveedores_pago' and registro_id = $1`,
      [proveedor],
    );
    const suyo = await gasto({ solicitante: persona });
    const factura = await gasto({ metodo: "transferencia", proveedor });
    const deElena = await gasto();
    const propuesta = await candidatos(admin2, [suyo, factura, deElena]);
    const r = await crear(admin2, [suyo, factura, deElena]);
    // Ordered by name: Cuenta Antigua SL, Elena, Rosa. As the proposal said it.
    const porRosa = { en: expect.any(String), por_id: persona.id, por: `Rosa (${persona.email})` };
    expect(r.transferencias.map((t) => [t.nombre, t.cuenta_reciente])).toEqual([
      ["Cuenta Antigua SL", null],
      ["Elena", null],
      ["Rosa", porRosa],
    ]);
    expect(r.transferencias[2]!.cuenta_reciente!.en).toBe(propuesta.gastos[0]!.cuenta_reciente!.en);
    // Kept with the remesa: the account it pays was written then, whatever is written or aged since.
    await owner.query(
      `update public.historial set creado_en = creado_en - interval '60 days'
        where tabla = 'datos_bancarios' and registro_id = (select id from public.datos_bancarios where usuario_id = $1)`,
      [persona.id],
    );
    await owner.query("update public.datos_bancarios set iban = $2 where usuario_id = $1", [
      persona.id,
      generateValidEsIban(45),
    ]);
    expect((await rpc<Remesa>(admin, "remesa_datos", { p_id: r.id })).transferencias[2]!.cuenta_reciente).toEqual(
      r.transferencias[2]!.cuenta_reciente,
    );
    // Written more than 30 days before the remesa was generated: not said.
    await owner.query(
      "update public.remesa_gastos set cuenta_indicada_en = cuenta_indicada_en - interval '30 days' where remesa_id = $1",
      [r.id],
    );
    expect(
      (await rpc<Remesa>(admin, "remesa_datos", { p_id: r.id })).transferencias.map((t) => t.cuenta_reciente),
    ).toEqual([null, null, null]);
    await rpc(admin2, "anular_remesa", { p_id: r.id, p_version: r.version, p_motivo: "Solo para probar la cuenta" });
  });

  it("una cuenta escrita sin sesión (una carga, el editor SQL) en los últimos 30 días se dice también, sin autor", async () => {
    const persona = await app.createUser({ nombre: "Marta", rol: "empleado" });
    await setProfile(app.db, persona.id, { departamento_id: dep, sucursal_id: suc, aprobador_id: aprobador.id });
    // Both written as the owner, with no one signed in: Marta's account now, the supplier's 31 days ago.
    await owner.query("insert into public.datos_bancarios (usuario_id, iban) values ($1, $2)", [
      persona.id,
      generateValidEsIban(51),
    ]);
    const proveedor = (
      await owner.query<{ id: string }>(
        "insert into public.proveedores (razon_social, tipo_persona, nif, iban) values ('Cuenta Cargada SL', 'empresa', $1, $2) returning id",
        [generateValidCif(52), generateValidEsIban(53)],
      )
    ).rows[0]!.id;
    await owner.query(
      `update public.historial set creado_en = creado_en - interval '31 days'
        where tabla = 'proveedores_pago' and registro_id = $1`,
      [proveedor],
    );
    const suyo = await gasto({ solicitante: persona });
    const factura = await gasto({ metodo: "transferencia", proveedor });
    const sinSesion = { en: expect.any(String), por_id: null, por: null };
    // Said in the proposal; and any administrador may still pay it (only a known writer may not).
    const propuesta = await candidatos(admin2, [suyo, factura]);
    expect(propuesta.gastos.map((l) => [l.motivo, l.cuenta_reciente])).toEqual([
      [null, sinSesion],
      [null, null],
    ]);
    expect((await candidatos(admin, [suyo, factura])).gastos.map((l) => l.motivo)).toEqual([null, null]);
    // And on the remesa generated from it, until it is confirmed.
    const r = await crear(admin2, [suyo, factura]);
    expect(r.transferencias.map((t) => [t.nombre, t.cuenta_reciente])).toEqual([
      ["Cuenta Cargada SL", null],
      ["Marta", sinSesion],
    ]);
    expect(r.transferencias[1]!.cuenta_reciente!.en).toBe(propuesta.gastos[0]!.cuenta_reciente!.en);
    expect((await rpc<Remesa>(admin, "remesa_datos", { p_id: r.id })).transferencias[1]!.cuenta_reciente).toEqual(
      sinSesion,
    );
    await rpc(admin2, "anular_remesa", { p_id: r.id, p_version: r.version, p_motivo: "Solo para probar la cuenta" });
  });

  it("si un gasto no puede ir no se genera nada, y el mensaje dice cuáles y por qué", async () => {
    const ok = await gasto();
    const corp = await gasto({ metodo: "tarjeta_corporativa" });
    const pend = await gasto({ estado: "pendiente" });
    const folio = async (id: string) =>
      (await owner.query("select folio from public.gastos where id = $1", [id])).rows[0].folio as string;
    const [fc, fp] = [await folio(corp), await folio(pend)];
    await rechaza(
      () => crear(admin, [ok, corp, pend]),
      Invalid,
      `2 gastos no pueden ir en la remesa: quítelos o resuelva los motivos. ${fc}: Tarjeta corporativa: no se reembolsa. ${fp}: No está aprobado.`,
    );
    const suyo = await gasto({ aprobadoPor: admin });
    await rechaza(
      () => crear(admin, [ok, suyo]),
      Invalid,
      /Lo aprobó usted: debe incluirlo en una remesa otro administrador\.$/,
    );
  });

  it("datos que faltan o han cambiado: no se genera nada", async () => {
    const g = await gasto({ importe: "50.00" });
    await rechaza(() => crear(admin, []), Invalid, "Elija al menos un gasto para la remesa.");
    await rechaza(
      () => crear(admin, [g], { cuenta: cuentaInactiva }),
      Invalid,
      "Elija una cuenta activa de la empresa desde la que pagar.",
    );
    await rechaza(
      () => crear(admin, [g], { fecha: addDaysISO(hoy, -1) }),
      Invalid,
      "La fecha de ejecución no puede ser anterior a hoy.",
    );
    await rechaza(
      () => crear(admin, [g], { fecha: "9999-12-31" }),
      Invalid,
      "La fecha de ejecución puede ser futura, pero como mucho dentro de un año.",
    );
    for (const total of ["Infinity", "NaN", "50.000000000001", "9".repeat(400)])
      await rechaza(
        () => crear(admin, [g], { total }),
        Invalid,
        "La suma de la remesa no es un importe en euros: vuelva a la lista y genérela de nuevo.",
      );
    await rechaza(
      () => crear(admin, [g], { total: "49.99" }),
      Conflict,
      "Los gastos han cambiado desde que los consultó: la remesa sumaría 50,00 € y no 49,99 €. Revíselos y vuelva a intentarlo.",
    );
    for (const u of [empleado, aprobador]) await rechaza(() => crear(u, [g]), Forbidden, SOLO_ADMIN);
    await owner.query("update public.empresa set nif = null");
    try {
      await rechaza(() => crear(admin, [g]), Invalid, /^Complete la razón social y el NIF de la empresa/);
    } finally {
      await owner.query("update public.empresa set nif = $1", [generateValidCif(7)]);
    }
  });

  it("un gasto en una remesa generada no se marca como pagado ni se revierte aparte", async () => {
    const g = await gasto();
    const r = await crear(admin, [g]);
    const v = (await fila(g)).version;
    const mensaje = `El gasto está en la remesa ${r.folio}: se marca como pagado al confirmar la remesa. Para pagarlo o cambiarlo aparte, anule antes la remesa.`;
    await rechaza(
      () => rpc(admin2, "pagar_gasto", { p_id: g, p_version: v, p_fecha_pago: hoy, p_referencia: "TR-9" }),
      Invalid,
      mensaje,
    );
    await rechaza(
      () => rpc(admin2, "revertir_gasto", { p_id: g, p_version: v, p_motivo: "Importe mal" }),
      Invalid,
      mensaje,
    );
    // The panel says so instead of offering either button.
    const motivos = await rpc<Record<string, string | null>>(admin2, "motivos_gasto", { p_id: g });
    expect([motivos.pagar, motivos.revertir]).toEqual([mensaje, mensaje]);
  });

  it("un gasto en dos remesas vivas es imposible, también para el propietario (índice único)", async () => {
    const g = await gasto();
    const r = await crear(admin, [g]);
    const otra = await owner.query<{ id: string }>(
      `insert into public.remesas (cuenta_id, fecha_ejecucion, num_transferencias, importe_total)
       values ($1, current_date, 1, 1) returning id`,
      [cuenta],
    );
    const e = await pgError(
      owner.query(
        `insert into public.remesa_gastos (remesa_id, gasto_id, beneficiario, beneficiario_id, nombre, iban, importe, end_to_end_id)
         values ($1, $2, 'solicitante', $3, 'Elena', $4, 1, 'X-001')`,
        [otra.rows[0]!.id, g, empleado.id, IBAN_ELENA],
      ),
    );
    expect([e.code, e.constraint]).toEqual(["23505", "remesa_gastos_gasto_id_viva_key"]);
    expect(r.estado).toBe("generada");
  });

  it("dos administradores a la vez con gastos en común: cada gasto acaba en exactamente una remesa", async () => {
    const [a, b, c] = [await gasto(), await gasto(), await gasto()];
    const [c1, c2, vigia] = await Promise.all([connect(app.url), connect(app.url), connect(app.url)]);
    try {
      const comoAdmin = async (client: pg.Client, u: TestUser) => {
        await client.query("begin");
        await client.query(
          "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)",
          [JSON.stringify({ sub: u.id, role: "authenticated" })],
        );
      };
      const crearSql = "select public.crear_remesa($1::uuid[], $2, interno.hoy()) as r";
      await comoAdmin(c1, admin);
      await comoAdmin(c2, admin2);
      const pid2 = (await c2.query("select pg_backend_pid() as pid")).rows[0].pid as number;
      const primera = (await c1.query(crearSql, [[a, b], cuenta])).rows[0].r as Remesa;
      // The second asks for b and c while the first holds b: it must wait for it.
      const segunda = c2.query(crearSql, [[b, c], cuenta]).then(
        () => null,
        (e: pg.DatabaseError) => e,
      );
      for (;;) {
        const { rows } = await vigia.query("select cardinality(pg_blocking_pids($1)) > 0 as espera", [pid2]);
        if (rows[0].espera) break;
      }
      await c1.query("commit");
      const error = await segunda;
      await c2.query("rollback");
      expect(error?.code).toBe("OFINV");
      expect(error?.message).toMatch(`Ya está en la remesa ${primera.folio}.`);
      const { rows } = await owner.query(
        "select gasto_id, count(*)::int as n from public.remesa_gastos where viva and gasto_id = any($1) group by gasto_id order by gasto_id",
        [[a, b, c]],
      );
      expect(Object.fromEntries(rows.map((r) => [r.gasto_id, r.n]))).toEqual({ [a]: 1, [b]: 1 });
    } finally {
      await Promise.all([c1.end(), c2.end(), vigia.end()]);
    }
  });
});

describe("el fichero, confirmar y anular", () => {
  it("el fichero se guarda una vez, el de esta remesa, y se lee idéntico", async () => {
    const r = await crear(admin2, [await gasto()]);
    await rechaza(
      () => rpc(admin2, "guardar_xml_remesa", { p_id: r.id, p_xml: "<Document><MsgId>OTRA</MsgId></Document>" }),
      Invalid,
      `El fichero no corresponde a la remesa ${r.folio}.`,
    );
    await rechaza(() => rpc(empleado, "guardar_xml_remesa", { p_id: r.id, p_xml: xmlDe(r) }), Forbidden, SOLO_ADMIN);
    const xml = `${xmlDe(r)}\n<!-- ñ € -->`;
    expect(await rpc(admin2, "guardar_xml_remesa", { p_id: r.id, p_xml: xml })).toMatchObject({
      estado: "generada",
      version: 2,
    });
    await rechaza(
      () => rpc(admin, "guardar_xml_remesa", { p_id: r.id, p_xml: xmlDe(r) }),
      Conflict,
      "El fichero de esta remesa ya está guardado: no se sustituye.",
    );
    expect((await remesa(r.id)).xml).toBe(xml);
    expect((await rpc<Remesa>(admin, "remesa_datos", { p_id: r.id })).xml_guardado).toBe(true);
    await rechaza(
      () => rpc(admin, "remesa_datos", { p_id: "00000000-0000-4000-8000-000000000000" }),
      NotFound,
      "La remesa no existe.",
    );
    // Not even the owner replaces it.
    const e = await pgError(owner.query("update public.remesas set xml = 'otro' where id = $1", [r.id]));
    expect(e.code).toBe("OFINV");
  });

  it("confirmar: todos sus gastos pagados, con la fecha de ejecución y el folio, y una nota en su historial", async () => {
    const ids = [
      await gasto(),
      await gasto({ metodo: "tarjeta_debito" }),
      await gasto({ metodo: "transferencia", proveedor: prov.ok }),
    ];
    const r = await remesaGuardada(ids);
    const hecho = await rpc(admin2, "confirmar_remesa", {
      p_id: r.id,
      p_version: r.version,
      p_referencia: " N43 0001 ",
    });
    expect(hecho).toMatchObject({ id: r.id, estado: "confirmada", version: r.version + 1, gastos: 3 });
    for (const id of ids)
      expect(await fila(id)).toMatchObject({ estado: "pagado", fecha_pago: hoy, referencia_pago: r.folio });
    const notas = await owner.query(
      `select cambios -> 'nota' ->> 'despues' as nota, actor_id from public.historial
        where tabla = 'gastos' and registro_id = any($1) and cambios -> 'estado' ->> 'despues' = 'pagado'`,
      [ids],
    );
    expect(notas.rows).toEqual(ids.map(() => ({ nota: `Pagado con la remesa ${r.folio}.`, actor_id: admin2.id })));
    expect(await remesa(r.id)).toMatchObject({
      estado: "confirmada",
      confirmada_por_id: admin2.id,
      referencia: "N43 0001",
    });
    // Its page says who generated and who confirmed it.
    expect(await rpc(admin, "remesa_datos", { p_id: r.id })).toMatchObject({
      creado_por: `Beatriz (${admin2.email})`,
      confirmada_por: `Beatriz (${admin2.email})`,
      anulada_por: null,
    });
    // The solicitante is told, as with «Marcar como pagado».
    const avisos = await owner.query(
      "select count(*)::int as n from public.avisos where destinatario_id = $1 and tipo = 'pagado' and datos ->> 'referencia_pago' = $2",
      [empleado.id, r.folio],
    );
    expect(avisos.rows[0].n).toBe(3);
    // The invoice went to the supplier: her aviso says to whom, so she does not look for it in her account.
    const aQuien = await owner.query(
      "select gasto_id, datos ->> 'proveedor' as proveedor from public.avisos where tipo = 'pagado' and gasto_id = any($1)",
      [ids],
    );
    expect(Object.fromEntries(aQuien.rows.map((a) => [a.gasto_id, a.proveedor]))).toEqual({
      [ids[0]!]: null,
      [ids[1]!]: null,
      [ids[2]!]: "Papelería La Castellana SL",
    });
    // Done: neither again nor cancelled.
    await rechaza(
      () => rpc(admin2, "confirmar_remesa", { p_id: r.id, p_version: r.version + 1 }),
      Conflict,
      "La remesa ya está confirmada: otra persona la ha cambiado.",
    );
    await rechaza(
      () => rpc(admin2, "anular_remesa", { p_id: r.id, p_version: r.version + 1, p_motivo: "Error" }),
      Conflict,
      "La remesa ya está confirmada: otra persona la ha cambiado.",
    );
    expect((await candidatos(admin, [ids[0]!])).gastos[0]!.motivo).toBe("Ya está pagado.");
  });

  it("confirmar: versión vieja, quien aprobó un gasto, sin fichero, fecha por llegar o sin ser administrador: nada cambia", async () => {
    const r = await remesaGuardada([await gasto(), await gasto({ aprobadoPor: admin })]);
    await rechaza(
      () => rpc(admin2, "confirmar_remesa", { p_id: r.id, p_version: r.version - 1 }),
      Conflict,
      "Otra persona modificó esta remesa mientras la consultaba. Revise los datos actuales y vuelva a intentarlo.",
    );
    await rechaza(
      () => rpc(admin, "confirmar_remesa", { p_id: r.id, p_version: r.version }),
      Forbidden,
      /^Usted aprobó el gasto GAS-\d{4}-\d{5}: debe confirmar la remesa otro administrador\.$/,
    );
    await rechaza(
      () => rpc(aprobador, "confirmar_remesa", { p_id: r.id, p_version: r.version }),
      Forbidden,
      SOLO_ADMIN,
    );
    const sinFichero = await crear(admin2, [await gasto()]);
    await rechaza(
      () => rpc(admin2, "confirmar_remesa", { p_id: sinFichero.id, p_version: sinFichero.version }),
      Invalid,
      `La remesa ${sinFichero.folio} no tiene su fichero guardado: anúlela y genérela de nuevo.`,
    );
    const futura = await remesaGuardada([await gasto()], addDaysISO(hoy, 5));
    await rechaza(
      () => rpc(admin2, "confirmar_remesa", { p_id: futura.id, p_version: futura.version }),
      Invalid,
      `La remesa se ejecuta el ${addDaysISO(hoy, 5).split("-").reverse().join("/")}: confírmela cuando el banco la haya ejecutado.`,
    );
  });

  it("confirmar es todo o nada: si un gasto no puede pasar a pagado, ninguno lo hace", async () => {
    const ids = [await gasto(), await gasto(), await gasto()];
    const r = await remesaGuardada(ids);
    const ultimo = [...ids].sort().at(-1)!;
    // One gasto's update fails inside the confirmation (after the others were already written).
    await owner.query(`
      create function public.prueba_falla() returns trigger language plpgsql as $$
      begin raise exception using errcode = 'OFINV', message = 'Fallo de prueba'; end $$`);
    await owner.query(
      `create trigger prueba_falla before update on public.gastos for each row
         when (old.id = '${ultimo}' and new.estado = 'pagado') execute function public.prueba_falla()`,
    );
    try {
      await rechaza(
        () => rpc(admin2, "confirmar_remesa", { p_id: r.id, p_version: r.version }),
        Invalid,
        "Fallo de prueba",
      );
    } finally {
      await owner.query("drop trigger prueba_falla on public.gastos; drop function public.prueba_falla()");
    }
    for (const id of ids) expect((await fila(id)).estado).toBe("aprobado");
    expect((await remesa(r.id)).estado).toBe("generada");
    // Once it can, it does.
    expect(await rpc(admin2, "confirmar_remesa", { p_id: r.id, p_version: r.version })).toMatchObject({ gastos: 3 });
  });

  it("anular (con motivo) deja los gastos libres: otra remesa o «Marcar como pagado»", async () => {
    const [a, b] = [await gasto(), await gasto()];
    const r = await crear(admin, [a, b]);
    await rechaza(
      () => rpc(admin, "anular_remesa", { p_id: r.id, p_version: r.version, p_motivo: "  " }),
      Invalid,
      "Escriba el motivo de la anulación.",
    );
    await rechaza(
      () => rpc(empleado, "anular_remesa", { p_id: r.id, p_version: r.version, p_motivo: "No" }),
      Forbidden,
      SOLO_ADMIN,
    );
    expect(
      await rpc(admin, "anular_remesa", { p_id: r.id, p_version: r.version, p_motivo: "El banco la rechazó" }),
    ).toMatchObject({ estado: "anulada", version: r.version + 1 });
    expect(await remesa(r.id)).toMatchObject({
      estado: "anulada",
      motivo_anulacion: "El banco la rechazó",
      anulada_por_id: admin.id,
    });
    const { rows } = await owner.query("select bool_or(viva) as viva from public.remesa_gastos where remesa_id = $1", [
      r.id,
    ]);
    expect(rows[0].viva).toBe(false);
    expect((await candidatos(admin, [a, b])).gastos.map((l) => l.motivo)).toEqual([null, null]);
    const otra = await crear(admin, [a]);
    expect(otra.folio).not.toBe(r.folio);
    await rpc(admin2, "pagar_gasto", {
      p_id: b,
      p_version: (await fila(b)).version,
      p_fecha_pago: hoy,
      p_referencia: "TR-7",
    });
    expect(await fila(b)).toMatchObject({ estado: "pagado", referencia_pago: "TR-7" });
    await rechaza(
      () => rpc(admin, "anular_remesa", { p_id: r.id, p_version: r.version + 1, p_motivo: "Otra vez" }),
      Conflict,
      "La remesa ya está anulada: otra persona la ha cambiado.",
    );
  });

  it("remesas y sus gastos: solo los administradores los ven; nadie los escribe directamente", async () => {
    const r = await crear(admin, [await gasto()]);
    const db = await connect(app.url);
    try {
      for (const [u, visibles] of [
        [admin, 1],
        [aprobador, 0],
        [empleado, 0],
      ] as const) {
        const n = await asUser(db, u.id, async (q) => ({
          remesas: (await q("select id from public.remesas where id = $1", [r.id])).rows.length,
          vista: (await q("select id from public.remesas_vista where id = $1", [r.id])).rows.length,
          lineas: (await q("select id from public.remesa_gastos where remesa_id = $1", [r.id])).rows.length,
          historial: (await q("select id from public.historial where tabla = 'remesas' and registro_id = $1", [r.id]))
            .rows.length,
        }));
        expect(n).toEqual({ remesas: visibles, vista: visibles, lineas: visibles, historial: visibles });
      }
      for (const op of [
        "update public.remesas set estado = 'confirmada'",
        "delete from public.remesa_gastos",
        "update public.remesa_gastos set viva = false",
      ])
        expect((await pgError(asUser(db, admin.id, (q) => q(op)))).code, op).toBe("42501");
    } finally {
      await db.end();
    }
  });
});
