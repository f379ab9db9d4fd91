import { XmlDocument, XsdValidator } from "libxml2-wasm";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import { sqlStore } from "~/data/sql/adapter.server";
import type { Store } from "~/data/store";
import { todayISO, addDaysISO } from "~/lib/dates";
import { generateValidEsIban } from "~/lib/iban";
import { generateValidCif } from "~/lib/nif";
import { generar } from "~/pagos/remesas.server";
import * as fichero from "~/routes/remesas.$id.fichero";
import * as remesa from "~/routes/remesas.$id";
import * as remesas from "~/routes/remesas._index";
import { createTestApp, json, ORIGIN, request, respond, type TestApp, type TestUser } from "../support/app";
import { connect } from "../support/as-user";
import { insertDepartamento, insertSucursal, setProfile, tableHashes } from "../support/fixtures";

/**
 * The remesas screens through their real loaders and actions (the rules are the database's:
 * tests/integration/remesas.test.ts): what goes and what does not and why, generating one with
 * its SEPA file (valid against the ISO schema, the same bytes on every download), a second remesa
 * of the same gastos refused, confirming (the gastos pagados) and cancelling.
 */
let app: TestApp;
let admin: TestUser, aprobador: TestUser, empleado: TestUser;
let owner: pg.Client;
let cuenta: string;
const hoy = todayISO();

beforeAll(async () => {
  app = await createTestApp();
  owner = await connect(app.url);
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
  const dep = await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" });
  const suc = await insertSucursal(app.db);
  for (const u of [admin, aprobador, empleado])
    await setProfile(app.db, u.id, { departamento_id: dep, sucursal_id: suc });
  await owner.query(
    "update public.empresa set razon_social = 'Oficina Demo SL', nif = $1, direccion = 'Calle Mayor 1', codigo_postal = '28013', ciudad = 'Madrid'",
    [generateValidCif(7)],
  );
  cuenta = (
    await owner.query<{ id: string }>(
      "insert into public.cuentas_empresa (nombre, iban, bic, formato) values ('Principal', $1, 'CAIXESBBXXX', 'pain.001.001.09') returning id",
      [generateValidEsIban(1)],
    )
  ).rows[0]!.id;
  await owner.query("insert into public.datos_bancarios (usuario_id, iban) values ($1, $2)", [
    empleado.id,
    generateValidEsIban(2),
  ]);
});
afterAll(async () => {
  await owner?.end();
  await app?.close();
});

let n = 0;
/** An approved gasto of Elena's, approved by Pablo, paid the way `metodo` says. */
async function aprobado(metodo = "efectivo") {
  n += 1;
  const { rows } = await owner.query<{ id: string; folio: string }>(
    `insert into public.gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id,
       departamento_id, sucursal_id, estado, aprobador_id, aprobado_por_id, fecha_aprobacion)
     select $1, $2, 'otros', $3, $4, u.id, u.departamento_id, u.sucursal_id, 'aprobado', $5, $5, now()
       from public.usuarios u where u.id = $6
     returning id, folio`,
    [`Gasto remesa ${n}`, hoy, `${20 + n}.40`, metodo, aprobador.id, empleado.id],
  );
  return rows[0]!;
}

const ruta = (path: string, u: TestUser, o: { form?: Record<string, string | string[]>; id?: string } = {}) => ({
  request: request(path, { cookie: u.cookie, form: o.form }),
  context: app.context(),
  params: o.id ? { id: o.id } : {},
});
/** Everything a remesa touches: unchanged after a refusal. */
const estado = () =>
  tableHashes(app.db, {
    gastos: ["public.gastos", "id"],
    remesas: ["public.remesas", "id"],
    remesa_gastos: ["public.remesa_gastos", "id"],
  });
/** «Generar remesa» for `gasto` as `propuesta` (the page's) offered it: today, from the test's account. */
const generarDe = (gasto: string[], propuesta: { importe_total: string; huella: string }) => ({
  gasto,
  cuenta,
  fecha_ejecucion: hoy,
  importe_total: propuesta.importe_total,
  huella: propuesta.huella,
});
const pantalla = async (u: TestUser, path = "/remesas") => json(await respond(() => remesas.loader(ruta(path, u))));

it("propone lo que va y lo que no con su motivo; genera la remesa con su fichero SEPA válido; no dos veces; confirma", async () => {
  const va = await aprobado("efectivo");
  const noVa = await aprobado("tarjeta_corporativa");
  const datos = await pantalla(admin);
  const linea = (id: string) => datos.propuesta.gastos.find((g: { gasto_id: string }) => g.gasto_id === id);
  expect(linea(va.id)).toMatchObject({ motivo: null, nombre: "Elena" });
  expect(linea(noVa.id).motivo).toMatch(/Tarjeta corporativa/);
  expect(datos.cuentas.map((c: { id: string }) => c.id)).toEqual([cuenta]);

  // A bad form: said, nothing written.
  const antes = await estado();
  const mala = await respond(() =>
    remesas.action(
      ruta("/remesas?index", admin, { form: { gasto: [va.id], cuenta: "", fecha_ejecucion: addDaysISO(hoy, -1) } }),
    ),
  );
  expect(mala.status).toBe(400);
  expect((await json(mala)).errores).toMatchObject({
    cuenta: "Elija la cuenta de la empresa desde la que se paga",
    fecha_ejecucion: "Fecha de ejecución: hoy o después, como mucho dentro de un año",
  });
  expect(await estado()).toEqual(antes);
  // Past a year (it becomes the gastos' fecha de pago), or a sum that is not an amount (the hidden
  // field, forged): said, nothing written.
  for (const importe_total of ["Infinity", "233,00", "9".repeat(400)]) {
    const lejos = { gasto: [va.id], cuenta, fecha_ejecucion: "9999-12-31", importe_total };
    const r = await respond(() => remesas.action(ruta("/remesas?index", admin, { form: lejos })));
    expect(r.status).toBe(400);
    expect((await json(r)).errores).toEqual({
      fecha_ejecucion: "Fecha de ejecución: hoy o después, como mucho dentro de un año",
      gasto: "No se pudo leer la suma de la remesa: vuelva a la lista",
    });
  }
  expect(await estado()).toEqual(antes);

  const form = generarDe([va.id], datos.propuesta);
  const r = await respond(() => remesas.action(ruta("/remesas?index", admin, { form })));
  expect(r.status).toBe(302);
  const id = new URL(r.headers.get("Location")!, ORIGIN).pathname.split("/").at(-1)!;
  const { remesa: hecha } = await json(await respond(() => remesa.loader(ruta(`/remesas/${id}`, admin, { id }))));
  expect(hecha).toMatchObject({ estado: "generada", num_gastos: 1, xml_guardado: true });

  // The file: the ISO 20022 schema of its format, and the same bytes each time.
  const descarga = async () => {
    const f = await respond(() => fichero.loader(ruta(`/remesas/${id}/fichero`, admin, { id })));
    expect(f.headers.get("Content-Disposition")).toBe(`attachment; filename="${hecha.folio}.xml"`);
    return f.text();
  };
  const xml = await descarga();
  expect(await descarga()).toBe(xml);
  const xsd = XmlDocument.fromBuffer(
    readFileSync(fileURLToPath(new URL("../fixtures/xsd/pain.001.001.09.xsd", import.meta.url))),
  );
  const validador = XsdValidator.fromDoc(xsd);
  const doc = XmlDocument.fromString(xml);
  expect(() => validador.validate(doc)).not.toThrow();
  [doc, validador, xsd].forEach((d) => d.dispose());
  expect(xml).toContain(`<MsgId>${hecha.mensaje_id}</MsgId>`);
  expect(xml).toContain(`<InstdAmt Ccy="EUR">${hecha.importe_total}</InstdAmt>`);

  // The same gasto again: refused with the database's reason, nothing written.
  const otra = await respond(() => remesas.action(ruta("/remesas?index", admin, { form })));
  expect(otra.status).toBe(400);
  expect((await json(otra)).errores.remesa).toMatch(new RegExp(`^Estos gastos ya están en la remesa ${hecha.folio}:`));

  // Refused by the database (a stale version, a reference too long): said, what was typed comes
  // back to the form, nothing written.
  const antesDeConfirmar = await estado();
  for (const [version, referencia] of [
    [String(hecha.version - 1), "TRF-2026-0042"],
    [String(hecha.version), "R".repeat(101)],
  ] as const) {
    const rechazada = await respond(() =>
      remesa.action(ruta(`/remesas/${id}`, admin, { id, form: { intent: "confirmar", version, referencia } })),
    );
    expect(rechazada.status).toBe(400);
    expect(await json(rechazada)).toMatchObject({ intent: "confirmar", valor: referencia, error: expect.any(String) });
  }
  // A reference or a motivo with a line break or a bidirectional override, or only invisible
  // characters: said beside the field.
  const unaLinea = (etiqueta: string) =>
    `${etiqueta}: escríbalo en una sola línea, sin saltos de línea, tabuladores ni otros caracteres de control (quizá vinieron al pegar el texto)`;
  const visible = (etiqueta: string) => `${etiqueta}: escriba letras o cifras, no solo signos o caracteres invisibles`;
  for (const [intent, campo, valor, error] of [
    ["confirmar", "referencia", "=cmd|' /C calc'!A0\u202E", unaLinea("Referencia del banco")],
    ["confirmar", "referencia", "TRF-1\r\nTRF-2", unaLinea("Referencia del banco")],
    ["confirmar", "referencia", "\u200B", visible("Referencia del banco")],
    ["anular", "motivo", "Cuenta\u2066 equivocada", unaLinea("Motivo de la anulación")],
    ["anular", "motivo", "\u200B\u200B", visible("Motivo de la anulación")],
    ["anular", "motivo", " ", "Escriba el motivo de la anulación"],
  ] as const) {
    const rechazada = await respond(() =>
      remesa.action(
        ruta(`/remesas/${id}`, admin, { id, form: { intent, version: String(hecha.version), [campo]: valor } }),
      ),
    );
    expect(rechazada.status).toBe(400);
    expect(await json(rechazada)).toEqual({ intent, valor, campo: true, error });
  }
  expect(await estado()).toEqual(antesDeConfirmar);

  const confirmada = await respond(() =>
    remesa.action(ruta(`/remesas/${id}`, admin, { id, form: { intent: "confirmar", version: String(hecha.version) } })),
  );
  expect(confirmada.status).toBe(302);
  const { rows } = await owner.query(
    "select estado, referencia_pago, fecha_pago::text from public.gastos where id = $1",
    [va.id],
  );
  expect(rows[0]).toEqual({ estado: "pagado", referencia_pago: hecha.folio, fecha_pago: hoy });
});

it("anular pide el motivo, deja los gastos libres para otra remesa y retira su fichero", async () => {
  const g = await aprobado();
  const datos = await pantalla(admin);
  const form = generarDe([g.id], datos.propuesta);
  const r = await respond(() => remesas.action(ruta("/remesas?index", admin, { form })));
  const id = new URL(r.headers.get("Location")!, ORIGIN).pathname.split("/").at(-1)!;
  const { remesa: hecha } = await json(await respond(() => remesa.loader(ruta(`/remesas/${id}`, admin, { id }))));
  const sinMotivo = await respond(() =>
    remesa.action(ruta(`/remesas/${id}`, admin, { id, form: { intent: "anular", version: String(hecha.version) } })),
  );
  expect(sinMotivo.status).toBe(400);
  expect((await json(sinMotivo)).error).toBe("Escriba el motivo de la anulación");
  const anulada = await respond(() =>
    remesa.action(
      ruta(`/remesas/${id}`, admin, {
        id,
        form: { intent: "anular", version: String(hecha.version), motivo: "El banco la rechazó" },
      }),
    ),
  );
  expect(anulada.status).toBe(302);
  const libre = (await pantalla(admin)).propuesta.gastos.find((x: { gasto_id: string }) => x.gasto_id === g.id);
  expect(libre.motivo).toBeNull();
  // Its file is no longer offered nor served: sent with the next remesa's, it would pay twice.
  const f = await respond(() => fichero.loader(ruta(`/remesas/${id}/fichero`, admin, { id })));
  expect(f.status).toBe(410);
  expect(await f.text()).toContain(`La remesa ${hecha.folio} está anulada: su fichero ya no se descarga`);
  const { remesa: vista } = await json(await respond(() => remesa.loader(ruta(`/remesas/${id}`, admin, { id }))));
  expect(vista.estado).toBe("anulada");
});

it("un nombre que el banco no puede leer (solo caracteres invisibles): 400 que lo dice; la remesa queda anulada, ninguna sin fichero", async () => {
  const g = await aprobado();
  // Written past the form (as a hosted backend's API lets the person do): the database takes it.
  await owner.query("update public.datos_bancarios set titular = $1 where usuario_id = $2", [
    "\u200B\u200B",
    empleado.id,
  ]);
  try {
    const { propuesta } = await pantalla(admin, `/remesas?gasto=${g.id}`);
    const form = generarDe([g.id], propuesta);
    const r = await respond(() => remesas.action(ruta("/remesas?index", admin, { form })));
    expect(r.status).toBe(400);
    expect((await json(r)).errores.remesa).toMatch(
      new RegExp(
        `^No se pudo generar el fichero SEPA: Falta el nombre del beneficiario de la transferencia 1 \\(gasto ${g.folio}\\)\\. La remesa REM-\\d{4}-\\d{4} queda anulada y sus gastos pueden pagarse de nuevo`,
      ),
    );
    const { rows } = await owner.query<{ estado: string; motivo_anulacion: string }>(
      `select r.estado, r.motivo_anulacion from public.remesas r
         join public.remesa_gastos rg on rg.remesa_id = r.id where rg.gasto_id = $1`,
      [g.id],
    );
    expect(rows).toEqual([{ estado: "anulada", motivo_anulacion: expect.stringMatching(/^No se pudo generar/) }]);
    const sinFichero = await owner.query("select 1 from public.remesas where estado <> 'anulada' and xml is null");
    expect(sinFichero.rowCount).toBe(0);
    const libre = (await pantalla(admin)).propuesta.gastos.find((x: { gasto_id: string }) => x.gasto_id === g.id);
    expect(libre.motivo).toBeNull();
  } finally {
    await owner.query("update public.datos_bancarios set titular = null where usuario_id = $1", [empleado.id]);
  }
});

it("fechas del filtro que no se pueden leer: se dice junto a cada una y no se propone nada (no todos)", async () => {
  await aprobado("efectivo");
  const datos = await json(await respond(() => remesas.loader(ruta("/remesas?desde=2026-02-30&hasta=mañana", admin))));
  const ilegible = "Escriba una fecha real, por ejemplo 31/12/2026, o déjela vacía";
  expect(datos.erroresFechas).toEqual({ desde: ilegible, hasta: ilegible });
  expect(datos.propuesta.gastos).toEqual([]);
  // Written as people write dates, they are read.
  const escritas = await json(
    await respond(() => remesas.loader(ruta("/remesas?desde=01/01/2020&hasta=31/12/2999", admin))),
  );
  expect(escritas).toMatchObject({
    desde: "2020-01-01",
    hasta: "2999-12-31",
    erroresFechas: { desde: null, hasta: null },
  });
  expect(escritas.propuesta.gastos.length).toBeGreaterThan(0);
});

it("solo los administradores: los demás, 403 y nada cambia", async () => {
  for (const u of [aprobador, empleado]) {
    expect((await respond(() => remesas.loader(ruta("/remesas", u)))).status).toBe(403);
    expect(
      (await respond(() => remesas.action(ruta("/remesas?index", u, { form: { cuenta, fecha_ejecucion: hoy } }))))
        .status,
    ).toBe(403);
  }
});

it("el aviso de las remesas por confirmar las nombra todas, también las que quedan fuera de las 50 más recientes", async () => {
  // One sent to the bank long ago and still unconfirmed, then 50 newer ones already settled.
  const remesaDe = async (estado: string, hace: string) =>
    (
      await owner.query<{ id: string }>(
        `insert into public.remesas (cuenta_id, fecha_ejecucion, estado, num_transferencias, importe_total, creado_en,
           anulada_en, motivo_anulacion)
         values ($1, current_date - $2::interval, $3, 1, 10, now() - $2::interval, $4, $5) returning id`,
        [cuenta, hace, estado, ...(estado === "anulada" ? [new Date(), "Prueba"] : [null, null])],
      )
    ).rows[0]!.id;
  const vieja = await remesaDe("generada", "400 days");
  for (let i = 1; i <= 50; i += 1) await remesaDe("anulada", `${i} minutes`);
  const { remesas: recientes, porConfirmar } = await pantalla(admin);
  const ids = (rs: { id: string }[]) => rs.map((r) => r.id);
  expect(recientes).toHaveLength(50);
  expect(ids(recientes)).not.toContain(vieja);
  expect(ids(porConfirmar.remesas)).toContain(vieja);
  expect(porConfirmar.total).toBe(porConfirmar.remesas.length);
  // The oldest first: the one that has waited longest.
  expect(porConfirmar.remesas[0].id).toBe(vieja);
});

it("si guardar el fichero falla (la conexión se pierde), la remesa queda anulada y su gasto libre", async () => {
  const g = await aprobado("efectivo");
  const real = sqlStore(app.db, admin.id);
  const store: Store = {
    ...real,
    rpc: (async (fn: string, ...rest: unknown[]) => {
      if (fn === "guardar_xml_remesa") throw new Error("Connection terminated unexpectedly");
      return (real.rpc as (f: string, ...r: unknown[]) => Promise<unknown>)(fn, ...rest);
    }) as Store["rpc"],
  };
  const { propuesta } = await pantalla(admin, `/remesas?gasto=${g.id}`);
  await expect(
    generar(store, {
      gastoIds: [g.id],
      cuentaId: cuenta,
      fecha: hoy,
      importeTotal: propuesta.importe_total,
      huella: propuesta.huella,
    }),
  ).rejects.toThrow("Connection terminated unexpectedly");
  const { rows } = await owner.query<{ estado: string; motivo_anulacion: string; xml: string | null }>(
    `select r.estado, r.motivo_anulacion, r.xml from public.remesas r
       join public.remesa_gastos rg on rg.remesa_id = r.id where rg.gasto_id = $1`,
    [g.id],
  );
  expect(rows).toEqual([
    { estado: "anulada", motivo_anulacion: "No se pudo generar el fichero SEPA por un error interno.", xml: null },
  ]);
  // Free for the next remesa: it is proposed again, with nothing against it.
  const linea = (await pantalla(admin)).propuesta.gastos.find((l: { gasto_id: string }) => l.gasto_id === g.id);
  expect(linea).toMatchObject({ motivo: null });
});
