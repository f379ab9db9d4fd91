import type pg from "pg";
import { correoDeAvisos, type AvisoDeGasto } from "~/avisos/mensajes";
import { todayISO } from "~/lib/dates";
import { generateValidEsIban } from "~/lib/iban";
import { generateValidCif } from "~/lib/nif";
import * as remesa from "~/routes/remesas.$id";
import * as remesas from "~/routes/remesas._index";
import { createTestApp, json, ORIGIN, request, respond, type TestApp, type TestUser } from "../support/app";
import { connect } from "../support/as-user";
import { insertDepartamento, insertSucursal, setProfile, tableHashes } from "../support/fixtures";
import { gastosPage } from "../support/gastos";

/**
 * A remesa built from the gastos list: the view «Aprobados pendientes de pago» (approved and in
 * no live remesa), «Crear remesa» with the checked rows or with every gasto that matches the
 * filter (administradores only), the builder proposing exactly those with what cannot go and
 * why, and the aviso each solicitante gets when the remesa is confirmed.
 */
let app: TestApp;
let admin: TestUser, aprobador: TestUser, empleado: TestUser, empleado2: TestUser;
let owner: pg.Client;
let cuenta: string, ventas: string, compras: string;
const hoy = todayISO();

beforeAll(async () => {
  app = await createTestApp();
  owner = await connect(app.url);
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
  empleado2 = await app.createUser({ nombre: "Eva", rol: "empleado" });
  ventas = await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" });
  compras = await insertDepartamento(app.db, { nombre: "Compras", codigo: "COM" });
  const suc = await insertSucursal(app.db);
  for (const u of [admin, aprobador, empleado])
    await setProfile(app.db, u.id, { departamento_id: ventas, sucursal_id: suc });
  await setProfile(app.db, empleado2.id, { departamento_id: compras, sucursal_id: suc });
  await owner.query("update public.empresa set razon_social = 'Oficina Demo SL', nif = $1", [generateValidCif(7)]);
  cuenta = (
    await owner.query<{ id: string }>(
      "insert into public.cuentas_empresa (nombre, iban, bic) values ('Principal', $1, 'CAIXESBBXXX') returning id",
      [generateValidEsIban(1)],
    )
  ).rows[0]!.id;
  for (const [u, n] of [
    [empleado, 2],
    [empleado2, 3],
  ] as const)
    await owner.query("insert into public.datos_bancarios (usuario_id, iban) values ($1, $2)", [
      u.id,
      generateValidEsIban(n),
    ]);
});
afterAll(async () => {
  await owner?.end();
  await app?.close();
});

let n = 0;
/** A gasto of `quien` (Elena by default), approved by Pablo unless `estado` says otherwise. */
async function gasto(o: { metodo?: string; quien?: TestUser; estado?: "pendiente" | "aprobado" } = {}) {
  n += 1;
  const estado = o.estado ?? "aprobado";
  const { rows } = await owner.query<{ id: string; folio: string; version: number }>(
    `insert into public.gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id,
       departamento_id, sucursal_id, estado, aprobador_id, aprobado_por_id, fecha_aprobacion)
     select $1, $2, 'otros', $3, $4, u.id, u.departamento_id, u.sucursal_id, $5, $6,
            case when $5 = 'aprobado' then $6::uuid end, case when $5 = 'aprobado' then now() end
       from public.usuarios u where u.id = $7
     returning id, folio, version`,
    [`Gasto lista ${n}`, hoy, `${30 + n}.25`, o.metodo ?? "efectivo", estado, aprobador.id, (o.quien ?? empleado).id],
  );
  return rows[0]!;
}

const { post, list } = gastosPage(() => app);
const ruta = (path: string, u: TestUser, o: { form?: Record<string, string | string[]>; id?: string } = {}) => ({
  request: request(path, { cookie: u.cookie, form: o.form }),
  context: app.context(),
  params: o.id ? { id: o.id } : {},
});
const constructor = async (search: string, u: TestUser = admin) =>
  json(await respond(() => remesas.loader(ruta(`/remesas${search}`, u))));
type Linea = { gasto_id: string; folio: string; motivo: string | null };
const ids = (lineas: Linea[]) => lineas.map((l) => l.gasto_id);
const estado = () =>
  tableHashes(app.db, {
    gastos: ["public.gastos", "id"],
    remesas: ["public.remesas", "id"],
    remesa_gastos: ["public.remesa_gastos", "id"],
  });

/** Generates the remesa of `search`'s proposal through the builder's own form; its id. */
async function generar(search: string) {
  const datos = await constructor(search);
  const gasto = (datos.propuesta.gastos as Linea[]).filter((g) => !g.motivo).map((g) => g.gasto_id);
  const r = await respond(() =>
    remesas.action(
      ruta(`/remesas?index&${search.slice(1)}`, admin, {
        form: {
          gasto,
          cuenta,
          fecha_ejecucion: hoy,
          importe_total: datos.propuesta.importe_total,
          huella: datos.propuesta.huella,
        },
      }),
    ),
  );
  expect(r.status).toBe(302);
  return new URL(r.headers.get("Location")!, ORIGIN).pathname.split("/").at(-1)!;
}

describe("la vista «Aprobados pendientes de pago»", () => {
  it("aprobados que no están en una remesa viva: al generarla salen, al anularla vuelven; solo para administradores", async () => {
    const a = await gasto();
    const b = await gasto();
    const pendiente = await gasto({ estado: "pendiente" });
    const vista = async () =>
      ((await list("?vista=por_pagar&por_pagina=100", admin.cookie)).result.rows as { id: string }[]).map((r) => r.id);
    expect(await vista()).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(await vista()).not.toContain(pendiente.id);

    const panel = async () => (await list(`?gasto=${a.id}`, admin.cookie)).panel;
    expect((await panel()).acciones).toEqual(expect.arrayContaining(["pagar", "revertir"]));

    const id = await generar(`?gasto=${a.id}`);
    expect(await vista()).toContain(b.id);
    expect(await vista()).not.toContain(a.id);
    const { remesa: hecha } = await json(await respond(() => remesa.loader(ruta(`/remesas/${id}`, admin, { id }))));
    // Its panel says where it is, and offers neither paying it nor reverting it apart.
    const enRemesa = await panel();
    expect(enRemesa.acciones).not.toContain("pagar");
    expect(enRemesa.acciones).not.toContain("revertir");
    expect(enRemesa.remesa).toEqual({ id, folio: hecha.folio, estado: "generada" });
    expect(enRemesa.separacion).toBe(
      `El gasto está en la remesa ${hecha.folio}: se marca como pagado al confirmar la remesa. Para pagarlo o cambiarlo aparte, anule antes la remesa.`,
    );
    const anulada = await respond(() =>
      remesa.action(
        ruta(`/remesas/${id}`, admin, {
          id,
          form: { intent: "anular", version: String(hecha.version), motivo: "Cuenta equivocada" },
        }),
      ),
    );
    expect(anulada.status).toBe(302);
    expect(await vista()).toContain(a.id);
    expect(await panel()).toMatchObject({ remesa: null, separacion: null });
    expect((await panel()).acciones).toEqual(expect.arrayContaining(["pagar", "revertir"]));
  });
});

describe("«Crear remesa» desde la lista", () => {
  it("con los seleccionados: al constructor con ellos elegidos y el filtro de la lista para volver", async () => {
    const a = await gasto();
    const b = await gasto({ metodo: "tarjeta_corporativa" });
    const antes = await estado();
    const r = await post(
      { intent: "remesa_seleccion", seleccion: [`${a.id}:${a.version}`, `${b.id}:${b.version}`, "no-es-un-id:1"] },
      admin.cookie,
      "/gastos?index&vista=por_pagar&seleccionar=todos",
    );
    expect(r.status).toBe(303);
    const destino = new URL(r.headers.get("Location")!, ORIGIN);
    expect(destino.pathname).toBe("/remesas");
    expect(destino.hash).toBe("#nueva-remesa");
    expect(destino.searchParams.getAll("gasto")).toEqual([a.id, b.id]);
    expect(destino.searchParams.get("lista")).toBe("vista=por_pagar");
    // Nothing is written until the builder's own form generates it.
    expect(await estado()).toEqual(antes);

    const datos = await constructor(destino.search);
    expect(ids(datos.propuesta.gastos)).toEqual([a.id, b.id]);
    const [va, noVa] = datos.propuesta.gastos as Linea[];
    expect(va!.motivo).toBeNull();
    expect(noVa!.motivo).toBe("Tarjeta corporativa: no se reembolsa.");
    expect(datos.origen).toEqual({ volver: "/gastos?vista=por_pagar", coinciden: false, ilegible: false, total: 2 });
  });

  it("sin ninguno marcado: el error en el resumen del formulario y nada más", async () => {
    const r = await post({ intent: "remesa_seleccion" }, admin.cookie, "/gastos?index&vista=por_pagar");
    expect(r.status).toBe(400);
    expect((await json(r)).result.error).toEqual({ seleccion: ["Marque al menos un gasto de la lista."] });
  });

  it("solo un administrador: un aprobador o un empleado, 403", async () => {
    const a = await gasto();
    for (const u of [aprobador, empleado]) {
      const r = await post({ intent: "remesa_seleccion", seleccion: [`${a.id}:${a.version}`] }, u.cookie);
      expect(r.status).toBe(403);
      const c = await respond(() => remesas.loader(ruta(`/remesas?gasto=${a.id}`, u)));
      expect(c.status).toBe(403);
    }
  });

  it("con todos los que coinciden: los aprobados pendientes de pago del filtro, ni otros estados ni los que ya van en una remesa", async () => {
    const de = [await gasto({ quien: empleado2 }), await gasto({ quien: empleado2 })];
    const enOtra = await gasto({ quien: empleado2 });
    const pendiente = await gasto({ quien: empleado2, estado: "pendiente" });
    const otroDepartamento = await gasto();
    await generar(`?gasto=${enOtra.id}`);

    const lista = new URLSearchParams({ departamento: compras }).toString();
    const search = `?${new URLSearchParams({ lista, coinciden: "1" }).toString()}`;
    const datos = await constructor(search);
    expect(ids(datos.propuesta.gastos).sort()).toEqual(de.map((g) => g.id).sort());
    expect(ids(datos.propuesta.gastos)).not.toContain(pendiente.id);
    expect(ids(datos.propuesta.gastos)).not.toContain(otroDepartamento.id);
    expect(datos.origen).toMatchObject({ volver: `/gastos?${lista}`, coinciden: true, total: 2 });

    // Generated from that very URL (a refusal would show the same proposal again).
    const id = await generar(search);
    const { remesa: hecha } = await json(await respond(() => remesa.loader(ruta(`/remesas/${id}`, admin, { id }))));
    expect(hecha).toMatchObject({ estado: "generada", num_gastos: 2, num_transferencias: 1 });
    expect((await constructor(search)).propuesta.gastos).toEqual([]);
  });

  it("un filtro que no se puede leer no propone nada (la remesa llevaría más de lo pedido)", async () => {
    await gasto();
    const search = `?${new URLSearchParams({ lista: "importe_min=mucho", coinciden: "1" }).toString()}`;
    const datos = await constructor(search);
    expect(datos.propuesta.gastos).toEqual([]);
    expect(datos.origen).toMatchObject({ ilegible: true });
  });
});

describe("el aviso al confirmar la remesa", () => {
  it("«Su gasto … se ha pagado por transferencia», con la fecha y la remesa; un pago a mano, como siempre", async () => {
    const a = await gasto();
    const b = await gasto();
    const id = await generar(`?gasto=${a.id}&gasto=${b.id}`);
    const { remesa: hecha } = await json(await respond(() => remesa.loader(ruta(`/remesas/${id}`, admin, { id }))));
    const confirmada = await respond(() =>
      remesa.action(
        ruta(`/remesas/${id}`, admin, { id, form: { intent: "confirmar", version: String(hecha.version) } }),
      ),
    );
    expect(confirmada.status).toBe(302);
    const { rows } = await owner.query<AvisoDeGasto & { destinatario_id: string }>(
      `select tipo, gasto_id, datos from public.avisos
        where destinatario_id = $1 and tipo = 'pagado' and gasto_id = any($2) order by datos ->> 'folio'`,
      [empleado.id, [a.id, b.id]],
    );
    expect(rows).toHaveLength(2);
    for (const aviso of rows) expect(aviso.datos).toMatchObject({ remesa: hecha.folio, fecha_pago: hoy });
    const lector = {
      id: empleado.id,
      nombre: "Elena",
      appUrl: "https://oficina.example",
      locale: "es-ES",
      currency: "EUR",
    };
    const uno = correoDeAvisos([rows[0]!], lector);
    expect(uno.subject).toBe(`Su gasto ${rows[0]!.datos.folio} se ha pagado por transferencia`);
    const fecha = hoy.split("-").reverse().join("/");
    expect(uno.text).toContain(`Su gasto ${rows[0]!.datos.folio} «Gasto lista`);
    expect(uno.text).toContain("se ha pagado por transferencia");
    expect(uno.text).toContain(`Transferencia del ${fecha}, remesa ${hecha.folio}`);
    // Both in one mail (one per person and delivery), each line saying so.
    const dos = correoDeAvisos(rows, lector);
    expect(dos.text.match(/se ha pagado por transferencia/g)).toHaveLength(2);

    // «Marcar como pagado» outside a remesa: no «por transferencia» (it may have been paid any way).
    const c = await gasto();
    const pagado = await post(
      { intent: "pagar", id: c.id, version: String(c.version), fecha_pago: hoy, referencia_pago: "TR-77" },
      admin.cookie,
    );
    expect(pagado.status).toBe(302);
    const manual = await owner.query<AvisoDeGasto>(
      "select tipo, gasto_id, datos from public.avisos where gasto_id = $1 and tipo = 'pagado'",
      [c.id],
    );
    expect(manual.rows[0]!.datos.remesa).toBeUndefined();
    expect(correoDeAvisos(manual.rows, lector).subject).toBe(`Su gasto ${c.folio} está pagado`);
  });
});
