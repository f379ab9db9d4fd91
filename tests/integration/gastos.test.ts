import { sqlStore } from "~/data/sql/adapter.server";
import type { Motivos } from "~/entities/entity";
import { addDaysISO, addYearsISO, todayISO } from "~/lib/dates";
import { generateValidCif } from "~/lib/nif";
import { loader } from "~/routes/gastos._index";
import { createTestApp, json, ORIGIN, request, respond } from "../support/app";
import { countRows, insertDepartamento, insertProveedor, insertSucursal, setProfile } from "../support/fixtures";
import { gastosPage, type FilaLista } from "../support/gastos";

/**
 * /gastos through its real loader and action, on a real Postgres under row-level security:
 * creating, the list (visibility per role, filters, views, count and sum, CSV), the record
 * panel, every workflow transition as every role, concurrency, and bulk actions.
 */
let app: Awaited<ReturnType<typeof createTestApp>>;
type U = Awaited<ReturnType<typeof app.createUser>>;
let admin: U, aprobador: U, aprobador2: U, empleado: U, empleado2: U, responsable: U;
let dep: { ventas: string; compras: string; direccion: string };
let suc: string;
let prov: { activo: string; inactivo: string };
const hoy = todayISO();

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  aprobador2 = await app.createUser({ nombre: "Paula", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
  empleado2 = await app.createUser({ nombre: "Eva", rol: "empleado" });
  responsable = await app.createUser({ nombre: "Rosa", rol: "empleado" });
  dep = {
    ventas: await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN", presupuesto_mensual: "1000.00" }),
    compras: await insertDepartamento(app.db, { nombre: "Compras", codigo: "COM", responsable_id: responsable.id }),
    direccion: await insertDepartamento(app.db, { nombre: "Dirección", codigo: "DIR" }),
  };
  suc = await insertSucursal(app.db);
  const p = (razon_social: string, nif: string, activo: boolean) =>
    insertProveedor(app.db, { razon_social, nif, tipo_persona: "empresa", activo });
  prov = {
    activo: await p("Papelería La Castellana", "B11111111", true),
    inactivo: await p("Cerrada SL", "B22222222", false),
  };
  await setProfile(app.db, admin.id, { departamento_id: dep.direccion, sucursal_id: suc });
  await setProfile(app.db, aprobador.id, { departamento_id: dep.ventas, sucursal_id: suc });
  await setProfile(app.db, aprobador2.id, { departamento_id: dep.compras, sucursal_id: suc });
  await setProfile(app.db, empleado.id, { departamento_id: dep.ventas, sucursal_id: suc, aprobador_id: aprobador.id });
  await setProfile(app.db, empleado2.id, { departamento_id: dep.compras, sucursal_id: suc });
  await setProfile(app.db, responsable.id, { departamento_id: dep.direccion, sucursal_id: suc });
});
afterAll(() => app.close());

// ------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------

const { post, load, list, row, created } = gastosPage(() => app);
/** The flash message a redirect carries (read as the next page would). */
async function flashOf(r: Response) {
  const cookie = r.headers.get("Set-Cookie")?.split(";")[0];
  if (!cookie) return null;
  return (await app.services.flash.take(new Request(ORIGIN, { headers: { Cookie: cookie } }))).flash;
}
/** An entry of the record panel's history. */
type Cambio = { cambios: { estado?: { despues: string } } | null; actor_nombre: string };
const countGastos = () => countRows(app.db, "gastos");
const form = (o: Record<string, string> = {}) => ({
  intent: "crear",
  descripcion: "Comida con cliente",
  fecha_gasto: hoy,
  categoria: "comidas",
  importe: "45,30",
  metodo_pago: "tarjeta_corporativa",
  ...o,
});
let seq = 0;
/** A gasto created through the form by `u` (distinct importe each, so no duplicate warning). */
async function nuevo(u: U, o: Record<string, string> = {}) {
  seq += 1;
  return created(
    await post(
      form({
        importe: `${10 + seq},${String(seq % 100).padStart(2, "0")}`,
        descripcion: `Gasto de prueba ${seq}`,
        ...o,
      }),
      u.cookie,
    ),
  );
}
/** Runs a workflow function directly as `u` (to set a state up). */
const rpc = (u: U, fn: string, args: Record<string, unknown>) =>
  sqlStore(app.db, u.id).rpc<{ version: number }>(fn, args);
async function enEstado(
  u: U,
  estado: "borrador" | "pendiente" | "aprobado" | "rechazado" | "pagado",
  o: Record<string, string> = {},
) {
  let g = await nuevo(u, o);
  if (estado === "borrador") return g;
  await rpc(u, "enviar_gasto", { p_id: g.id, p_version: g.version });
  g = await row(g.id);
  if (estado === "pendiente") return g;
  if (estado === "rechazado")
    await rpc(admin, "rechazar_gasto", { p_id: g.id, p_version: g.version, p_motivo: "Falta el ticket" });
  // Approved by the solicitante's approver where there is one, so an administrador may pay it
  // (whoever approved a gasto does not mark it paid).
  else
    await rpc(u === empleado ? aprobador : u === empleado2 ? aprobador2 : admin, "aprobar_gasto", {
      p_id: g.id,
      p_version: g.version,
    });
  g = await row(g.id);
  if (estado === "pagado") {
    await rpc(admin, "pagar_gasto", { p_id: g.id, p_version: g.version, p_fecha_pago: hoy, p_referencia: "TR-1" });
    g = await row(g.id);
  }
  return g;
}
const act = (
  u: U,
  intent: string,
  g: { id: string; version: number },
  extra: Record<string, string> = {},
  path = `/gastos?gasto=${g.id}&estado=pendiente`,
) => post({ intent, id: g.id, version: String(g.version), ...extra }, u.cookie, path);

// ------------------------------------------------------------------------------------------

describe("crear", () => {
  it("un empleado crea su gasto: solicitante él, departamento y sucursal de su perfil, folio de la base de datos; abre su ficha", async () => {
    const r = await post(
      form({ importe: "1.234,56", numero_factura: "F-1", proveedor_id: prov.activo }),
      empleado.cookie,
      "/gastos?index&estado=borrador",
    );
    expect(r.status).toBe(302);
    const location = new URL(r.headers.get("Location")!, ORIGIN);
    expect(location.pathname).toBe("/gastos");
    expect(location.searchParams.get("estado")).toBe("borrador");
    expect(location.searchParams.has("index")).toBe(false);
    expect(location.hash).toBe("#gasto"); // the new panel, focused: «Enviar a aprobación» is a few Tabs away
    const g = await row(location.searchParams.get("gasto")!);
    expect(g).toMatchObject({
      solicitante_id: empleado.id,
      departamento_id: dep.ventas,
      sucursal_id: suc,
      estado: "borrador",
      importe: "1234.56",
      version: 1,
    });
    expect(g.folio).toMatch(/^GAS-\d{4}-\d{5}$/);
    expect((await flashOf(r))?.message).toMatch(new RegExp(`Gasto creado: ${g.folio}`));
  });

  it("los campos colados en el formulario (estado, folio, aprobado_por_id, solicitante_id, version) se ignoran", async () => {
    const r = await post(
      form({
        estado: "aprobado",
        folio: "GAS-1999-99999",
        aprobado_por_id: admin.id,
        aprobador_id: admin.id,
        solicitante_id: empleado2.id,
        version: "99",
        fecha_aprobacion: hoy,
        importe: "77,00",
      }),
      empleado.cookie,
    );
    expect(r.status).toBe(302);
    const g = await row(new URL(r.headers.get("Location")!, ORIGIN).searchParams.get("gasto")!);
    expect(g).toMatchObject({
      solicitante_id: empleado.id,
      estado: "borrador",
      aprobado_por_id: null,
      aprobador_id: null,
      fecha_aprobacion: null,
      version: 1,
    });
    expect(g.folio).not.toBe("GAS-1999-99999");
  });

  it("un administrador crea para otra persona: departamento y sucursal de esa persona", async () => {
    const r = await post(form({ solicitante_id: empleado2.id, importe: "12,00" }), admin.cookie);
    expect(r.status).toBe(302);
    const g = await row(new URL(r.headers.get("Location")!, ORIGIN).searchParams.get("gasto")!);
    expect(g).toMatchObject({ solicitante_id: empleado2.id, departamento_id: dep.compras });
  });

  it("departamento y sucursal empiezan vacíos y se toman del solicitante al guardar, también el elegido por un administrador", async () => {
    const { nuevo } = await list("?nuevo=1", admin.cookie);
    expect(nuevo.defaults).toEqual({
      fecha_gasto: hoy,
      solicitante_id: admin.id,
      tipo_documento: "ticket",
      emisor_pais: "ES",
    });
    // What the form says it will use, per solicitante offered (an empleado: only themself).
    expect(nuevo.perfiles[empleado.id]).toEqual({ departamento: "Ventas", sucursal: expect.any(String) });
    expect(Object.keys((await list("?nuevo=1", empleado.cookie)).nuevo.perfiles)).toEqual([empleado.id]);
    // The form as the page gives it, another solicitante chosen: hers, not the administrador's (Dirección).
    const g = await created(await post(form({ solicitante_id: empleado.id, importe: "13,00" }), admin.cookie));
    expect(g).toMatchObject({ solicitante_id: empleado.id, departamento_id: dep.ventas, sucursal_id: suc });
    // Chosen by hand, they stay.
    const h = await created(
      await post(form({ solicitante_id: empleado.id, departamento_id: dep.compras, importe: "14,00" }), admin.cookie),
    );
    expect(h).toMatchObject({ solicitante_id: empleado.id, departamento_id: dep.compras });
  });

  it("«Nuevo gasto como este» (`?como=`): los datos de un gasto que ve, salvo fecha y documento; el tipo de IVA sin importes", async () => {
    const original = await nuevo(empleado, {
      proveedor_id: prov.activo,
      numero_factura: "F-2026-118",
      tipo_documento: "factura_completa",
      fecha_expedicion: hoy,
      factura_a_empresa: "on",
      "desglose_iva[0].tipo": "21",
      "desglose_iva[0].base": "",
      "desglose_iva[0].cuota": "",
    });
    const { nuevo: copia } = await list(`?nuevo=1&como=${original.id}`, empleado.cookie);
    expect(copia.copia).toEqual({ id: original.id, de: original.folio, notas: [] });
    expect(copia.defaults).toEqual({
      descripcion: original.descripcion,
      fecha_gasto: hoy,
      categoria: "comidas",
      importe: String(original.importe).replace(".", ","),
      metodo_pago: "tarjeta_corporativa",
      proveedor_id: prov.activo,
      tipo_documento: "factura_completa",
      emisor_pais: "ES",
      factura_a_empresa: "on",
      // Unticked in the gasto: unticked in the copy.
      inversion_sujeto_pasivo: "",
      km_ida_vuelta: "",
      dieta_pernocta: "",
      desglose_iva: [{ tipo: "21", base: "", cuota: "" }],
      otros_no_sujetos: "0,00",
      departamento_id: dep.ventas,
      sucursal_id: suc,
      clase: "ordinario",
      // Not the person's to choose: the solicitante is whoever creates it.
      solicitante_id: empleado.id,
    });
    // An administrador copies the solicitante too (she creates on anyone's behalf), and with it
    // what goes with that person: department, branch, trip.
    expect((await list(`?nuevo=1&como=${original.id}`, admin.cookie)).nuevo.defaults).toMatchObject({
      solicitante_id: empleado.id,
      departamento_id: dep.ventas,
      sucursal_id: suc,
    });
    // Her aprobador copies one she sent for himself: department and branch start empty, as for a
    // new gasto of his (they follow his profile when saved).
    const enviado = await enEstado(empleado, "pendiente");
    const delAprobador = (await list(`?nuevo=1&como=${enviado.id}`, aprobador.cookie)).nuevo.defaults;
    expect(delAprobador).toMatchObject({ solicitante_id: aprobador.id, descripcion: enviado.descripcion });
    expect(delAprobador).not.toHaveProperty("departamento_id");
    expect(delAprobador).not.toHaveProperty("sucursal_id");
    // A supplier deactivated since cannot be chosen: left out, and said.
    const cerrado = await insertProveedor(app.db, {
      razon_social: "Cerrará Pronto SL",
      nif: generateValidCif(8_001),
      tipo_persona: "empresa",
      activo: true,
    });
    const suyo = await nuevo(empleado, { proveedor_id: cerrado, metodo_pago: "transferencia" });
    await app.db.updateTable("proveedores").set({ activo: false }).where("id", "=", cerrado).execute();
    const sinProveedor = (await list(`?nuevo=1&como=${suyo.id}`, empleado.cookie)).nuevo;
    expect(sinProveedor.defaults).not.toHaveProperty("proveedor_id");
    expect(sinProveedor.copia.notas).toEqual(["El proveedor «Cerrará Pronto SL» está desactivado: elija otro."]);
    // What this person does not see is not copied: the same 404 as its record.
    for (const como of [original.id, crypto.randomUUID(), "no-es-un-uuid"]) {
      const r = await load(`?nuevo=1&como=${como}`, empleado2.cookie);
      expect(r.status, como).toBe(404);
      expect(await r.text()).toContain("El gasto que quiere copiar no existe o no tiene acceso a él.");
    }
  });

  it("«Nuevo gasto» solo con `?nuevo=1`: la lista sola no lleva el formulario ni sus listas, solo las de sus filtros", async () => {
    const tablas = (data: { options: object }) => Object.keys(data.options).sort();
    const todas = ["departamentos", "proveedores", "sucursales", "usuarios", "viajes"];
    // An empleado has no «Solicitante» filter: the list's data has no people in it.
    const lista = await list("?vista=mios", empleado.cookie);
    expect(lista.nuevo).toBeNull();
    expect(tablas(lista)).toEqual(["departamentos", "proveedores", "sucursales", "viajes"]);
    expect(lista.proveedoresInactivos).toEqual([]);
    // An administrador filters by solicitante, but gets no form and no solicitantes' profiles.
    const deAdmin = await list("", admin.cookie);
    expect(deAdmin.nuevo).toBeNull();
    expect(tablas(deAdmin)).toEqual(todas);
    // The form open: its data, every list it offers, and the suppliers it leaves out.
    const conFormulario = await list("?vista=mios&nuevo=1", empleado.cookie);
    expect(conFormulario.nuevo).toMatchObject({ defaults: { solicitante_id: empleado.id } });
    expect(tablas(conFormulario)).toEqual(todas);
    expect(conFormulario.proveedoresInactivos).toContain(prov.inactivo);
    // A gasto's panel has forms too (editing a borrador): the same lists, but not «Nuevo gasto».
    const g = await nuevo(empleado, { descripcion: "Con su panel" });
    const conPanel = await list(`?nuevo=1&gasto=${g.id}`, empleado.cookie);
    expect(conPanel.nuevo).toBeNull();
    expect(tablas(conPanel)).toEqual(todas);
  });

  it("todos los errores a la vez: los del formulario y los que dependen de otros datos (perfil del solicitante, proveedor)", async () => {
    const sinPerfil = await app.createUser({ nombre: "Sonia", rol: "empleado" });
    const before = await countGastos();
    const r = await post(
      form({ solicitante_id: sinPerfil.id, importe: "0", proveedor_id: prov.inactivo }),
      admin.cookie,
    );
    expect(r.status).toBe(400);
    const { intent, result } = await json(r);
    expect(intent).toBe("crear");
    expect(Object.keys(result.error).sort()).toEqual(["departamento_id", "importe", "proveedor_id", "sucursal_id"]);
    expect(result.error.importe[0]).toMatch(/mayor que 0/);
    expect(result.error.departamento_id[0]).toMatch(/no tiene uno en su perfil/);
    expect(result.error.proveedor_id[0]).toMatch(/desactivado/);
    expect(result.initialValue).toMatchObject({ importe: "0", solicitante_id: sinPerfil.id });
    expect(await countGastos()).toBe(before);
  });

  it("valida las reglas del gasto con mensajes en español, 400, y no escribe nada", async () => {
    const before = await countGastos();
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ fecha_gasto: addDaysISO(hoy, 1) }, "fecha_gasto", /no puede ser futura/],
      [{ fecha_gasto: addDaysISO(hoy, -366) }, "fecha_gasto", /más de 365 días/],
      [{ importe: "0" }, "importe", /mayor que 0/],
      [{ importe: "1000000,01" }, "importe", /como máximo/],
      [{ importe: "12,345" }, "importe", /hasta 2 decimales/],
      [{ importe: "10,00", otros_no_sujetos: "10,01" }, "otros_no_sujetos", /no pueden ser mayores que el importe/],
      [{ descripcion: "ab" }, "descripcion", /al menos 3/],
      [{ categoria: "caprichos" }, "categoria", /Elija una categoría/],
    ];
    for (const [o, campo, message] of cases) {
      const r = await post(form(o), empleado.cookie);
      expect(r.status, JSON.stringify(o)).toBe(400);
      const data = await json(r);
      expect(data.intent).toBe("crear");
      expect(data.result.error[campo]?.[0], JSON.stringify(o)).toMatch(message);
    }
    expect(await countGastos()).toBe(before);
  });

  it("un proveedor desactivado se rechaza en su campo y no se escribe nada", async () => {
    const before = await countGastos();
    const r = await post(form({ proveedor_id: prov.inactivo }), empleado.cookie);
    expect(r.status).toBe(400);
    expect((await json(r)).result.error.proveedor_id[0]).toMatch(/desactivado/);
    expect(await countGastos()).toBe(before);
  });

  it("un posible duplicado (mismo solicitante, fecha, importe y proveedor) se crea con un aviso y un enlace al otro", async () => {
    const datos = form({ importe: "333,33", proveedor_id: prov.activo });
    const primero = await post(datos, empleado.cookie);
    expect((await flashOf(primero))?.kind).toBe("exito");
    const firstId = new URL(primero.headers.get("Location")!, ORIGIN).searchParams.get("gasto")!;
    const segundo = await post(
      { ...datos, descripcion: "Otra descripción" },
      empleado.cookie,
      "/gastos?index&q=comida",
    );
    expect(segundo.status).toBe(302);
    const flash = await flashOf(segundo);
    const first = await row(firstId);
    expect(flash).toMatchObject({ kind: "aviso" });
    expect(flash!.message).toMatch(new RegExp(`parece un duplicado de ${first.folio}`));
    expect(flash!.enlace!.href).toBe(`/gastos?q=comida&gasto=${firstId}#gasto`);
    // Another person's identical gasto is not a duplicate.
    const otro = await post({ ...datos, _envio: crypto.randomUUID() }, empleado2.cookie);
    expect((await flashOf(otro))?.kind).toBe("exito");
  });

  it("un doble envío del mismo formulario crea un solo gasto", async () => {
    const before = await countGastos();
    const datos = form({ importe: "5,55", _envio: crypto.randomUUID() });
    const [a, b] = await Promise.all([post(datos, empleado.cookie), post(datos, empleado.cookie)]);
    expect([a.status, b.status]).toEqual([302, 302]);
    expect(await countGastos()).toBe(before + 1);
  });
});

describe("lista: visibilidad por rol (RLS a través del loader)", () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    ids = {
      empleado: (await enEstado(empleado, "pendiente", { descripcion: "Visibilidad empleado" })).id,
      empleado2: (await enEstado(empleado2, "pendiente", { descripcion: "Visibilidad empleado2" })).id,
      aprobador: (await enEstado(aprobador, "borrador", { descripcion: "Visibilidad aprobador" })).id,
      admin: (await enEstado(admin, "borrador", { descripcion: "Visibilidad admin" })).id,
      // Elena's borrador: hers and the administradores' alone, not her aprobador's nor her department's.
      borrador: (await enEstado(empleado, "borrador", { descripcion: "Visibilidad borrador" })).id,
    };
  });
  const visibles = async (u: U) => {
    const data = await list("?q=Visibilidad&por_pagina=100", u.cookie);
    return new Set(data.result.rows.map((r: { id: string }) => r.id));
  };

  it("empleado: solo los suyos", async () => {
    expect(await visibles(empleado)).toEqual(new Set([ids.empleado, ids.borrador]));
    expect(await visibles(empleado2)).toEqual(new Set([ids.empleado2]));
  });
  it("aprobador: los suyos, los asignados y los de su departamento, salvo los borradores ajenos", async () => {
    expect(await visibles(aprobador)).toEqual(new Set([ids.empleado, ids.aprobador]));
    expect((await load(`?gasto=${ids.borrador}`, aprobador.cookie)).status).toBe(404);
    expect(
      (await list("?estado=borrador&por_pagina=100", aprobador.cookie)).result.rows.map((r: FilaLista) => r.id),
    ).not.toContain(ids.borrador);
    // aprobador2 is in Compras: sees empleado2's (same department), not Ventas'.
    expect(await visibles(aprobador2)).toEqual(new Set([ids.empleado2]));
  });
  it("un responsable de departamento (aunque sea empleado) ve los de su departamento", async () => {
    expect(await visibles(responsable)).toEqual(new Set([ids.empleado2]));
  });
  it("administrador: todos", async () => {
    expect(await visibles(admin)).toEqual(new Set(Object.values(ids)));
  });
  it("la ficha de un gasto que no ve es un 404, como un id desconocido o mal formado", async () => {
    for (const search of [
      `?gasto=${ids.empleado}`,
      `?gasto=${crypto.randomUUID()}`,
      "?gasto=no-es-un-uuid",
      "?gasto=1%27%20or%201=1",
    ]) {
      const r = await load(search, empleado2.cookie);
      expect(r.status, search).toBe(404);
    }
  });
  it("«Mis pendientes de aprobar» es exactamente lo que cada uno puede aprobar", async () => {
    for (const u of [admin, aprobador, aprobador2, responsable, empleado]) {
      const data = await list("?vista=pendientes&por_pagina=100", u.cookie);
      const todos = await list("?estado=pendiente&por_pagina=100", u.cookie);
      // The view's puede_aprobar (a filter) against the function the panel asks (motivos_gasto),
      // record by record: two writings of one rule must agree.
      const visiblesIds: string[] = todos.result.rows.map((g: FilaLista) => String(g.id));
      const store = sqlStore(app.db, u.id);
      const esperados: string[] = [];
      for (const id of visiblesIds)
        if ((await store.rpc<Motivos | null>("motivos_gasto", { p_id: id }))?.aprobar === null) esperados.push(id);
      expect(data.result.rows.map((g: FilaLista) => g.id).sort()).toEqual(esperados.sort());
      expect(data.state.vista).toBe("pendientes");
    }
    expect((await list("?vista=pendientes", aprobador.cookie)).result.rows.map((g: FilaLista) => g.id)).toContain(
      ids.empleado,
    );
    expect((await list("?vista=pendientes", empleado.cookie)).result.rows).toHaveLength(0);
  });
  it("la función de búsqueda indexada (buscar_gastos) solo devuelve ids de gastos que quien la llama ve", async () => {
    const ids = async (u: U) =>
      new Set(
        (
          await sqlStore(app.db, u.id).rpc<{ ids: string }[]>("buscar_gastos", { p_termino: "visibilidad" })
        )[0]!.ids.split(","),
      );
    expect(await ids(empleado)).toEqual(new Set([ids0().empleado, ids0().borrador]));
    expect(await ids(aprobador)).toEqual(new Set([ids0().empleado, ids0().aprobador]));
    expect((await ids(admin)).size).toBe(5);
  });
  const ids0 = () => ids;

  it("una búsqueda de menos de 3 caracteres no filtra y lo dice", async () => {
    const corta = await list("?q=Vi", admin.cookie);
    expect(corta.busquedaCorta).toBe(true);
    expect(corta.state.q).toBe("Vi");
    expect(corta.result.total).toBe((await list("", admin.cookie)).result.total);
  });

  it("«Mis gastos»: solo los del solicitante, también para un administrador", async () => {
    const data = await list("?vista=mios&q=Visibilidad", admin.cookie);
    expect(data.result.rows.map((g: FilaLista) => g.id)).toEqual([ids.admin]);
  });
});

describe("un nombre por proveedor en todas partes", () => {
  it("«Nombre comercial (Razón social)» en la lista, la ficha, los filtros y los selectores; sin nombre comercial, la razón social", async () => {
    const conAmbos = await app.db
      .insertInto("proveedores")
      .values({
        razon_social: "Hostelería Gómez SL",
        nombre_comercial: "Bar Pepe",
        nif: "B33333333",
        tipo_persona: "empresa",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const igual = await app.db
      .insertInto("proveedores")
      .values({
        razon_social: "Taxi Madrid SL",
        nombre_comercial: "taxi madrid sl",
        nif: "B44444444",
        tipo_persona: "empresa",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const g = await nuevo(empleado, { proveedor_id: conAmbos.id, descripcion: "Nombre de proveedor" });
    await nuevo(empleado, { proveedor_id: igual.id, descripcion: "Nombre de proveedor igual" });
    const data = await list(`?q=Nombre de proveedor&gasto=${g.id}`, empleado.cookie);
    const opciones = new Map(
      data.options.proveedores.options.map((o: { value: string; label: string }) => [o.value, o.label]),
    );
    expect(opciones.get(conAmbos.id)).toBe("Bar Pepe (Hostelería Gómez SL)");
    expect(opciones.get(igual.id)).toBe("Taxi Madrid SL");
    expect(opciones.get(prov.activo)).toBe("Papelería La Castellana");
    const nombres = data.result.rows.map((r: { proveedor_nombre: string }) => r.proveedor_nombre).sort();
    expect(nombres).toEqual(["Bar Pepe (Hostelería Gómez SL)", "Taxi Madrid SL"]);
    expect(data.panel.record.proveedor_nombre).toBe("Bar Pepe (Hostelería Gómez SL)");
  });
});

describe("lista: filtros, orden, cuenta y suma", () => {
  beforeAll(async () => {
    const base = { descripcion: "Filtro taxi aeropuerto", categoria: "viajes_transporte", metodo_pago: "efectivo" };
    await nuevo(empleado2, {
      ...base,
      importe: "10,10",
      fecha_gasto: addDaysISO(hoy, -10),
      numero_factura: "TK-778899",
    });
    await nuevo(empleado2, { ...base, importe: "20,20", fecha_gasto: addDaysISO(hoy, -5), proveedor_id: prov.activo });
    await nuevo(empleado2, { ...base, importe: "30,30", fecha_gasto: hoy, categoria: "comidas" });
  });

  it("cuenta y suma el importe de todo el filtro, no solo de la página", async () => {
    const data = await list("?q=filtro%20taxi&por_pagina=1&orden=importe&dir=asc", empleado2.cookie);
    expect(data.result).toMatchObject({ total: 3, estimated: false, sums: { importe: "60.60" } });
    expect(data.result.rows.map((g: FilaLista) => g.importe)).toEqual(["10.10"]);
    const page2 = await list("?q=filtro%20taxi&por_pagina=1&pagina=2&orden=importe&dir=desc", empleado2.cookie);
    expect(page2.result.rows.map((g: FilaLista) => g.importe)).toEqual(["20.20"]);
    expect(page2.result.sums.importe).toBe("60.60");
  });

  it.each([
    ["categoria=comidas", 1],
    ["importe_min=15&importe_max=25,00", 1],
    [`desde=${addDaysISO(hoy, -6)}`, 2],
    [`hasta=${addDaysISO(hoy, -6)}`, 1],
    ["estado=borrador", 3],
    ["estado=pendiente", 0],
    ["q=tk-7788", 1], // número de factura
    ["q=castellana&categoria=viajes_transporte", 1], // proveedor, searched in proveedores
  ])("filtra por %s", async (filtro, n) => {
    const q = filtro.startsWith("q=") ? filtro : `q=filtro%20taxi&${filtro}`;
    const data = await list(`?${q}`, empleado2.cookie);
    expect(data.result.total).toBe(n);
  });

  it("filtra por departamento, sucursal, proveedor y solicitante; busca por folio", async () => {
    const uno = (await list(`?q=filtro%20taxi&proveedor=${prov.activo}`, admin.cookie)).result;
    expect(uno.total).toBe(1);
    const folio = uno.rows[0].folio;
    expect((await list(`?q=${folio}`, admin.cookie)).result.total).toBe(1);
    expect(
      (
        await list(
          `?q=filtro%20taxi&departamento=${dep.compras}&sucursal=${suc}&solicitante=${empleado2.id}`,
          admin.cookie,
        )
      ).result.total,
    ).toBe(3);
    expect((await list(`?q=filtro%20taxi&departamento=${dep.ventas}`, admin.cookie)).result.total).toBe(0);
  });

  it("ordena por cada columna de la tabla sin error; un orden desconocido cae en la fecha", async () => {
    for (const orden of [
      "folio",
      "fecha_gasto",
      "descripcion",
      "proveedor_nombre",
      "categoria",
      "importe",
      "estado",
      "solicitante_nombre",
      "departamento_nombre",
    ]) {
      for (const dir of ["asc", "desc"])
        expect((await list(`?q=filtro%20taxi&orden=${orden}&dir=${dir}`, admin.cookie)).result.total).toBe(3);
    }
    expect((await list("?orden=drop%20table&dir=asc", admin.cookie)).state.orden).toBe("fecha_gasto");
  });

  it("exporta CSV de todo el filtro: BOM, punto y coma, coma decimal, cabeceras en español", async () => {
    const page = await load("?q=filtro%20taxi&formato=csv", admin.cookie);
    expect(page.status).toBe(302); // the page itself sends the browser to the resource route
    expect(page.headers.get("Location")).toBe("/gastos/exportar?q=filtro%20taxi&formato=csv");
    const r = await respond(() =>
      loader({
        request: request("/gastos/exportar?q=filtro%20taxi&por_pagina=1&orden=importe&dir=asc&formato=csv", {
          cookie: admin.cookie,
        }),
        context: app.context(),
        params: {},
      }),
    );
    expect(r.headers.get("Content-Type")).toContain("text/csv");
    const bytes = new Uint8Array(await r.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1).trim().split("\r\n");
    expect(lines[0]).toBe(
      '"Folio";"Fecha";"Descripción";"Proveedor";"Categoría";"Importe";"Estado";"Solicitante";"Departamento";"Justificantes";' +
        '"Tipo de documento";"NIF del emisor";"Emisor";"IVA";"Inversión del sujeto pasivo";"IVA deducible";"Por qué no se deduce todo el IVA";"Clase de gasto";"Viaje";"Exento de IRPF";"Sujeto a IRPF"',
    );
    expect(lines).toHaveLength(4);
    // The fiscal data too (a ticket at the category's usual rate, 10 %: 9,18 + 0,92).
    expect(lines[1]).toMatch(
      /;"Filtro taxi aeropuerto";;"Viajes y transporte";10,10;"Borrador";"Eva";"Compras";0;"Ticket";;;0,92;"No";0,00;"Ticket sin NIF de la empresa";"Ordinario";;;$/,
    );
    expect(lines[2]).toMatch(/;"Papelería La Castellana";"Viajes y transporte";20,20;/);
  });
});

describe("flujo: cada transición como cada rol", () => {
  it("enviar: el solicitante (asigna su aprobador) y el administrador; nadie más; rechazado no cambia nada", async () => {
    const g = await enEstado(empleado, "borrador");
    // Someone else's borrador is not even visible, to her aprobador neither.
    expect((await act(aprobador, "enviar", g)).status).toBe(404);
    expect((await act(empleado2, "enviar", g)).status).toBe(404);
    expect(await row(g.id)).toMatchObject({ estado: "borrador", version: g.version });
    const r = await act(empleado, "enviar", g);
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe(`/gastos?gasto=${g.id}&estado=pendiente#gasto`);
    expect(await flashOf(r)).toMatchObject({ kind: "exito", message: `Gasto ${g.folio} enviado a aprobación.` });
    expect(await row(g.id)).toMatchObject({ estado: "pendiente", aprobador_id: aprobador.id });
    const h = await enEstado(empleado2, "borrador");
    expect((await act(admin, "enviar", h)).status).toBe(302);
    expect((await row(h.id)).estado).toBe("pendiente");
  });

  it("retirar: el solicitante; el aprobador no", async () => {
    const g = await enEstado(empleado, "pendiente");
    expect((await act(aprobador, "retirar", g)).status).toBe(403);
    expect((await row(g.id)).estado).toBe("pendiente");
    expect((await act(empleado, "retirar", g)).status).toBe(302);
    expect(await row(g.id)).toMatchObject({ estado: "borrador", aprobador_id: null });
  });

  it("aprobar: el aprobador asignado, el del departamento, el responsable, el administrador; nunca el solicitante", async () => {
    const g = await enEstado(empleado, "pendiente");
    expect((await act(empleado, "aprobar", g)).status).toBe(403);
    expect((await act(aprobador2, "aprobar", g)).status).toBe(404); // other department: not visible
    expect((await row(g.id)).estado).toBe("pendiente");
    expect((await act(aprobador, "aprobar", g)).status).toBe(302);
    expect(await row(g.id)).toMatchObject({ estado: "aprobado", aprobado_por_id: aprobador.id });

    const propio = await enEstado(aprobador, "pendiente");
    const r = await act(aprobador, "aprobar", propio);
    expect(r.status).toBe(403);
    expect(await r.text()).toMatch(/No puede aprobar sus propios gastos/);
    expect((await row(propio.id)).estado).toBe("pendiente");
    expect((await act(admin, "aprobar", propio)).status).toBe(302);

    // Compras' responsable approves Compras' people — only with an approving role (an
    // empleado approves nothing, even as responsable).
    const deCompras = await enEstado(empleado2, "pendiente");
    const r2 = await act(responsable, "aprobar", deCompras);
    expect(r2.status).toBe(403);
    expect(await r2.text()).toMatch(/Su rol es empleado/);
    await app.db.updateTable("usuarios").set({ rol: "aprobador" }).where("id", "=", responsable.id).execute();
    try {
      expect((await act(responsable, "aprobar", await row(deCompras.id))).status).toBe(302);
      expect(await row(deCompras.id)).toMatchObject({ estado: "aprobado", aprobado_por_id: responsable.id });
    } finally {
      await app.db.updateTable("usuarios").set({ rol: "empleado" }).where("id", "=", responsable.id).execute();
    }
  });

  it("antes de aprobar, quien puede aprobarlo lee en el panel lo que debe saber: sin justificante, y el presupuesto que pasaría en euros", async () => {
    const g = await enEstado(empleado, "pendiente", { importe: "1.000,50" }); // Ventas: 1.000 €/mes
    const panel = async (u: U) => (await list(`?gasto=${g.id}`, u.cookie)).panel;
    const avisos: string[] = (await panel(aprobador)).antesDeAprobar;
    expect(avisos[0]).toBe("No lleva justificante.");
    expect(avisos[1]).toMatch(
      /^Aprobado, Ventas pasaría de su presupuesto de \p{L}+ de \d{4} en [\d.]+,\d\d € \([\d.]+,\d\d € de 1\.000,00 €\)\.$/u,
    );
    // Only whoever may approve it: not its solicitante, nor an aprobador of another department.
    expect((await panel(empleado)).antesDeAprobar).toEqual([]);
    expect((await panel(admin)).antesDeAprobar).toHaveLength(2);
    // The bulk confirm step says it too, for all it would approve at once, before pressing.
    const masivo = (await list("?masivo=aprobar", aprobador.cookie)).masivo;
    expect(masivo.presupuestos).toEqual([
      expect.stringMatching(
        /^Aprobados todos, Ventas pasaría de su presupuesto de \p{L}+ de \d{4} en [\d.]+,\d\d € \([\d.]+,\d\d € de 1\.000,00 €\)\.$/u,
      ),
    ]);
    // Whoever approves nothing in Ventas is told nothing about it.
    expect((await list("?masivo=aprobar", aprobador2.cookie)).masivo.presupuestos).toEqual([]);
    expect((await row(g.id)).estado).toBe("pendiente");
  });

  it("aprobar por encima del presupuesto mensual aprueba y avisa (flash «aviso»)", async () => {
    const g = await enEstado(empleado, "pendiente", { importe: "999,00" }); // Ventas: 1.000 €/mes, already some approved
    const r = await act(aprobador, "aprobar", g);
    expect(r.status).toBe(302);
    const flash = await flashOf(r);
    expect(flash?.kind).toBe("aviso");
    expect(flash?.message).toBe(`Gasto ${g.folio} aprobado.`);
    expect(flash?.detalles).toEqual([
      expect.stringMatching(/^Aviso: El departamento Ventas supera su presupuesto mensual/),
    ]);
    expect((await row(g.id)).estado).toBe("aprobado");
  });

  it("rechazar: pide el motivo (400, nada cambia) y lo guarda", async () => {
    const g = await enEstado(empleado, "pendiente");
    const sin = await act(aprobador, "rechazar", g, { motivo: "   " });
    expect(sin.status).toBe(400);
    const data = await json(sin);
    expect(data.intent).toBe("rechazar");
    expect(data.result.error.motivo[0]).toBe("Escriba el motivo");
    expect((await row(g.id)).estado).toBe("pendiente");
    expect((await act(empleado, "rechazar", g, { motivo: "No" })).status).toBe(403);
    expect((await act(aprobador, "rechazar", g, { motivo: "Falta el ticket" })).status).toBe(302);
    expect(await row(g.id)).toMatchObject({ estado: "rechazado", motivo_rechazo: "Falta el ticket" });
  });

  it("reabrir: el solicitante; el aprobador no", async () => {
    const g = await enEstado(empleado, "rechazado");
    expect((await act(aprobador, "reabrir", g)).status).toBe(403);
    expect((await act(empleado, "reabrir", g)).status).toBe(302);
    expect((await row(g.id)).estado).toBe("borrador");
  });

  it("marcar como pagado: solo el administrador, con fecha y referencia", async () => {
    const g = await enEstado(empleado, "aprobado");
    expect((await act(aprobador, "pagar", g, { fecha_pago: hoy, referencia_pago: "TR-9" })).status).toBe(403);
    expect((await act(empleado, "pagar", g, { fecha_pago: hoy, referencia_pago: "TR-9" })).status).toBe(403);
    const sin = await act(admin, "pagar", g, { fecha_pago: hoy, referencia_pago: "" });
    expect(sin.status).toBe(400);
    expect((await json(sin)).result.error.referencia_pago[0]).toBeTruthy();
    // A future value date is fine, up to a year ahead.
    const lejos = addDaysISO(addYearsISO(hoy, 1), 1);
    const futura = await act(admin, "pagar", g, { fecha_pago: lejos, referencia_pago: "TR-9" });
    expect(futura.status).toBe(400);
    expect((await json(futura)).result.error.fecha_pago[0]).toBe(
      "Fecha de pago: puede ser futura (la fecha valor), pero como mucho dentro de un año",
    );
    // Every error at once: a date too far ahead and no reference, both in one answer.
    const dos = await act(admin, "pagar", g, { fecha_pago: lejos, referencia_pago: "" });
    expect(dos.status).toBe(400);
    const { result } = await json(dos);
    expect(result.error.fecha_pago[0]).toMatch(/como mucho dentro de un año/);
    expect(result.error.referencia_pago[0]).toMatch(/Escriba la referencia de pago/);
    // Before the expense's own date: said by the form, with the reference's error too.
    const antes = await act(admin, "pagar", g, { fecha_pago: addDaysISO(g.fecha_gasto, -1), referencia_pago: " " });
    expect(Object.keys((await json(antes)).result.error).sort()).toEqual(["fecha_pago", "referencia_pago"]);
    expect((await row(g.id)).estado).toBe("aprobado");
    const valor = addDaysISO(hoy, 5);
    expect((await act(admin, "pagar", g, { fecha_pago: valor, referencia_pago: "TR-9" })).status).toBe(302);
    expect(await row(g.id)).toMatchObject({ estado: "pagado", referencia_pago: "TR-9", fecha_pago: valor });
  });

  it("revertir la aprobación: solo el administrador, con motivo; vuelve a pendiente", async () => {
    const g = await enEstado(empleado, "aprobado");
    expect((await act(aprobador, "revertir", g, { motivo: "Error" })).status).toBe(403);
    expect((await act(admin, "revertir", g, { motivo: "" })).status).toBe(400);
    expect((await row(g.id)).estado).toBe("aprobado");
    expect((await act(admin, "revertir", g, { motivo: "Importe mal copiado" })).status).toBe(302);
    expect(await row(g.id)).toMatchObject({
      estado: "pendiente",
      motivo_rechazo: "Importe mal copiado",
      aprobado_por_id: null,
    });
  });

  it("una transición que otra persona ya hizo: mensaje claro, nada se aplica dos veces", async () => {
    const g = await enEstado(empleado, "pendiente");
    expect((await act(admin, "aprobar", g)).status).toBe(302);
    const after = await row(g.id);
    const r = await act(aprobador, "aprobar", g); // with the version it saw
    expect(r.status).toBe(302);
    const flash = await flashOf(r);
    expect(flash?.kind).toBe("error");
    expect(flash?.message).toMatch(/ya no está pendiente de aprobación: otra persona lo ha cambiado/);
    expect(await row(g.id)).toMatchObject({ estado: "aprobado", aprobado_por_id: admin.id, version: after.version });
  });

  it("dos aprobaciones a la vez del mismo gasto: exactamente una gana; la otra recibe el conflicto", async () => {
    const g = await enEstado(empleado, "pendiente");
    const [a, b] = await Promise.all([act(admin, "aprobar", g), act(aprobador, "aprobar", g)]);
    const flashes = [await flashOf(a), await flashOf(b)];
    // The winner's flash is «exito», or «aviso» when Ventas is over budget by now.
    expect(flashes.map((f) => (f?.kind === "error" ? "error" : "hecho")).sort()).toEqual(["error", "hecho"]);
    expect(flashes.find((f) => f?.kind === "error")?.message).toMatch(
      /ya no está pendiente de aprobación|Otra persona modificó este gasto/,
    );
    const cambios = await app.db
      .selectFrom("historial")
      .select("cambios")
      .$castTo<Pick<Cambio, "cambios">>()
      .where("tabla", "=", "gastos")
      .where("registro_id", "=", g.id)
      .execute();
    expect(cambios.filter((h: Pick<Cambio, "cambios">) => h.cambios?.estado?.despues === "aprobado")).toHaveLength(1);
  });

  it("acción desconocida: 400; sin versión: 400; id mal formado: 404", async () => {
    const g = await enEstado(empleado, "borrador");
    expect((await post({ intent: "borrar-todo", id: g.id, version: "1" }, admin.cookie)).status).toBe(400);
    expect((await post({ intent: "enviar", id: g.id }, empleado.cookie)).status).toBe(400);
    expect((await post({ intent: "enviar", id: "nada", version: "1" }, empleado.cookie)).status).toBe(404);
    expect((await row(g.id)).estado).toBe("borrador");
  });
});

describe("flujo: la matriz completa sobre un gasto de Elena (Ventas; su aprobador es Pablo)", () => {
  type Esperado = "ok" | 403 | 404;
  const desde = {
    enviar: "borrador",
    retirar: "pendiente",
    aprobar: "pendiente",
    rechazar: "pendiente",
    reabrir: "rechazado",
    pagar: "aprobado",
    revertir: "aprobado",
  } as const;
  const a = {
    enviar: "pendiente",
    retirar: "borrador",
    aprobar: "aprobado",
    rechazar: "rechazado",
    reabrir: "borrador",
    pagar: "pagado",
    revertir: "pendiente",
  } as const;
  const extra: Record<string, Record<string, string>> = {
    rechazar: { motivo: "No procede" },
    revertir: { motivo: "Revisión" },
    pagar: { fecha_pago: hoy, referencia_pago: "TR-M" },
  };
  // empleado = the solicitante; empleado2 and aprobador2: Compras (do not see it); responsable: of Compras.
  const matriz: Record<keyof typeof desde, Record<string, Esperado>> = {
    // A borrador is private: her aprobador does not see it.
    enviar: { empleado: "ok", empleado2: 404, aprobador: 404, aprobador2: 404, responsable: 404, admin: "ok" },
    retirar: { empleado: "ok", empleado2: 404, aprobador: 403, aprobador2: 404, responsable: 404, admin: "ok" },
    aprobar: { empleado: 403, empleado2: 404, aprobador: "ok", aprobador2: 404, responsable: 404, admin: "ok" },
    rechazar: { empleado: 403, empleado2: 404, aprobador: "ok", aprobador2: 404, responsable: 404, admin: "ok" },
    reabrir: { empleado: "ok", empleado2: 404, aprobador: 403, aprobador2: 404, responsable: 404, admin: "ok" },
    pagar: { empleado: 403, empleado2: 404, aprobador: 403, aprobador2: 404, responsable: 404, admin: "ok" },
    revertir: { empleado: 403, empleado2: 404, aprobador: 403, aprobador2: 404, responsable: 404, admin: "ok" },
  };
  const quien = () => ({ empleado, empleado2, aprobador, aprobador2, responsable, admin }) as Record<string, U>;
  for (const [t, fila] of Object.entries(matriz) as [keyof typeof desde, Record<string, Esperado>][]) {
    it(`${t}: ${Object.entries(fila)
      .map(([r, e]) => `${r} ${e}`)
      .join(", ")}`, async () => {
      for (const [rol, esperado] of Object.entries(fila)) {
        const g = await enEstado(empleado, desde[t]);
        const r = await act(quien()[rol]!, t, g, extra[t] ?? {});
        const after = await row(g.id);
        if (esperado === "ok") {
          expect(r.status, `${t} como ${rol}`).toBe(302);
          expect((await flashOf(r))?.kind, `${t} como ${rol}`).not.toBe("error");
          expect(after.estado, `${t} como ${rol}`).toBe(a[t]);
        } else {
          expect(r.status, `${t} como ${rol}`).toBe(esperado);
          expect(after, `${t} como ${rol}: nada cambia`).toMatchObject({ estado: desde[t], version: g.version });
        }
      }
    });
  }
});

describe("ficha: acciones visibles, edición y borrado del borrador, historial", () => {
  it("muestra solo las acciones que la persona puede hacer ahora", async () => {
    const g = await enEstado(empleado, "pendiente");
    const panel = async (u: U) => (await list(`?gasto=${g.id}`, u.cookie)).panel;
    expect((await panel(empleado)).acciones).toEqual(["retirar"]);
    expect((await panel(aprobador)).acciones).toEqual(["aprobar", "rechazar"]);
    expect((await panel(admin)).acciones).toEqual(["retirar", "aprobar", "rechazar"]);
    expect((await panel(empleado)).editar).toBe(false);
    const aprobado = await enEstado(empleado, "aprobado");
    expect((await list(`?gasto=${aprobado.id}`, admin.cookie)).panel.acciones).toEqual(["pagar", "revertir"]);
    expect((await list(`?gasto=${aprobado.id}`, aprobador.cookie)).panel.acciones).toEqual([]);
  });

  it("edita el borrador con su versión y vuelve a la misma ficha; otra persona: 404; una versión antigua: 409 con los valores actuales", async () => {
    const g = await enEstado(empleado, "borrador");
    const path = `/gastos?gasto=${g.id}&categoria=comidas`;
    // Departamento and sucursal left empty: the solicitante's, as when creating.
    const campos = {
      descripcion: "Cena con cliente",
      fecha_gasto: g.fecha_gasto,
      categoria: "comidas",
      importe: "50,00",
      metodo_pago: "efectivo",
    };
    // Someone else's borrador does not exist for anyone but its solicitante and administradores.
    expect(
      (await post({ intent: "guardar", version: String(g.version), ...campos }, aprobador.cookie, path)).status,
    ).toBe(404);
    const r = await post(
      { intent: "guardar", version: String(g.version), ...campos, solicitante_id: empleado2.id },
      empleado.cookie,
      path,
    );
    expect(r.status, await r.clone().text()).toBe(302);
    expect(r.headers.get("Location")).toBe(`${path}#gasto`);
    expect(await row(g.id)).toMatchObject({
      descripcion: "Cena con cliente",
      importe: "50.00",
      solicitante_id: empleado.id,
      departamento_id: dep.ventas,
      sucursal_id: suc,
      version: g.version + 1,
    });
    const stale = await post(
      { intent: "guardar", version: String(g.version), ...campos, descripcion: "Otra cosa" },
      empleado.cookie,
      path,
    );
    expect(stale.status).toBe(409);
    const data = await json(stale);
    expect(data.intent).toBe("guardar");
    expect(data.current.descripcion).toBe("Cena con cliente");
    const { panel } = await list(`?gasto=${g.id}`, empleado.cookie);
    expect(panel.history[0]).toMatchObject({
      accion: "modificacion",
      cambios: { descripcion: { despues: "Cena con cliente" } },
    });
  });

  it("al guardar un borrador, todos los errores a la vez; su proveedor ya desactivado se conserva", async () => {
    const g = await enEstado(empleado, "borrador", { proveedor_id: prov.activo });
    const path = `/gastos?gasto=${g.id}`;
    const campos = {
      intent: "guardar",
      version: String(g.version),
      descripcion: "Cena",
      fecha_gasto: g.fecha_gasto,
      categoria: "comidas",
      importe: "abc",
      metodo_pago: "efectivo",
    };
    const r = await post({ ...campos, proveedor_id: prov.inactivo }, empleado.cookie, path);
    expect(r.status).toBe(400);
    const { intent, result } = await json(r);
    expect(intent).toBe("guardar");
    expect(Object.keys(result.error).sort()).toEqual(["importe", "proveedor_id"]);
    // A supplier deactivated after it was chosen stays (only choosing one is refused).
    await app.db.updateTable("proveedores").set({ activo: false }).where("id", "=", prov.activo).execute();
    try {
      const ok = await post({ ...campos, importe: "9,99", proveedor_id: prov.activo }, empleado.cookie, path);
      expect(ok.status, await ok.clone().text()).toBe(302);
    } finally {
      await app.db.updateTable("proveedores").set({ activo: true }).where("id", "=", prov.activo).execute();
    }
  });

  it("un gasto enviado ya no se edita ni se elimina", async () => {
    const g = await enEstado(empleado, "pendiente");
    const r = await post(
      {
        intent: "guardar",
        version: String(g.version),
        descripcion: "Cambiado",
        fecha_gasto: g.fecha_gasto,
        categoria: "comidas",
        importe: "1",
        metodo_pago: "efectivo",
      },
      empleado.cookie,
      `/gastos?gasto=${g.id}`,
    );
    expect((await flashOf(r))?.message).toMatch(/ya no está en borrador/);
    expect(
      (await post({ intent: "eliminar", version: String(g.version) }, empleado.cookie, `/gastos?gasto=${g.id}`)).status,
    ).toBe(302);
    expect((await row(g.id)).descripcion).not.toBe("Cambiado");
  });

  it("eliminar pide confirmación (?eliminar=1) y vuelve a la lista filtrada sin la ficha", async () => {
    const g = await enEstado(empleado, "borrador");
    expect((await list(`?gasto=${g.id}`, empleado.cookie)).panel.confirmarEliminar).toBe(false);
    expect((await list(`?gasto=${g.id}&eliminar=1`, empleado.cookie)).panel.confirmarEliminar).toBe(true);
    expect((await load(`?gasto=${g.id}&eliminar=1`, aprobador.cookie)).status).toBe(404); // a borrador is private
    const r = await post(
      { intent: "eliminar", id: g.id, version: String(g.version) },
      empleado.cookie,
      `/gastos?index&q=x&gasto=${g.id}&eliminar=1`,
    );
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/gastos?q=x#contenido");
    expect(await app.db.selectFrom("gastos").select("id").where("id", "=", g.id).executeTakeFirst()).toBeUndefined();
  });

  it("el historial recoge cada cambio de estado con quién", async () => {
    const g = await enEstado(empleado, "aprobado");
    const { panel } = await list(`?gasto=${g.id}`, empleado.cookie);
    const estados = panel.history
      .filter((h: Cambio) => h.cambios?.estado)
      .map((h: Cambio) => [h.cambios!.estado!.despues, h.actor_nombre]);
    expect(estados).toEqual([
      ["aprobado", "Pablo"],
      ["pendiente", "Elena"],
      ["borrador", "Elena"], // the «alta»
    ]);
  });
});

describe("aprobar y rechazar en bloque", () => {
  it("cada fila se comprueba por separado: dice cuántos y cuáles no, y por qué", async () => {
    const ok1 = await enEstado(empleado, "pendiente");
    const ok2 = await enEstado(empleado, "pendiente");
    const propio = await enEstado(aprobador, "pendiente");
    const rechazado = await enEstado(empleado, "rechazado");
    const ajeno = await enEstado(empleado2, "pendiente"); // Compras: not visible to aprobador
    const sel = [ok1, ok2, propio, rechazado, ajeno].map((g) => `${g.id}:${g.version}`);
    const r = await post(
      { intent: "aprobar_seleccion", seleccion: sel, confirmado: "1" },
      aprobador.cookie,
      "/gastos?index&vista=pendientes",
    );
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/gastos?vista=pendientes#contenido");
    const flash = await flashOf(r);
    expect(flash?.kind).toBe("aviso");
    expect(flash?.message).toMatch(/^Se han aprobado 2 de 5 gastos\. 3 no se pudieron aprobar/);
    expect(flash?.detalles?.join("\n")).toMatch(new RegExp(`${propio.folio}: No puede aprobar sus propios gastos`));
    expect(flash?.detalles?.join("\n")).toMatch(new RegExp(`${rechazado.folio}: El gasto ya no está pendiente`));
    expect(flash?.detalles?.join("\n")).toMatch(/no existe o no tiene acceso/);
    // Ventas is over its budget: one warning line for the department, not one per gasto.
    expect(flash?.detalles?.filter((d) => d.startsWith("Aviso: El departamento Ventas"))).toHaveLength(1);
    expect((await row(ok1.id)).estado).toBe("aprobado");
    expect((await row(ok2.id)).estado).toBe("aprobado");
    expect((await row(propio.id)).estado).toBe("pendiente");
    expect((await row(rechazado.id)).estado).toBe("rechazado");
    expect((await row(ajeno.id)).estado).toBe("pendiente");
  });

  it("rechazar en bloque pide un motivo para todos (400 sin él) y lo guarda en cada uno", async () => {
    const a = await enEstado(empleado, "pendiente");
    const b = await enEstado(empleado, "pendiente");
    const sel = [a, b].map((g) => `${g.id}:${g.version}`);
    const sin = await post({ intent: "rechazar_seleccion", seleccion: sel, motivo: " " }, aprobador.cookie);
    expect(sin.status).toBe(400);
    expect((await json(sin)).result.error).toEqual({
      motivo: ["Escriba el motivo del rechazo: se guarda en cada gasto rechazado."],
    });
    expect((await row(a.id)).estado).toBe("pendiente");
    const r = await post({ intent: "rechazar_seleccion", seleccion: sel, motivo: "Duplicados" }, aprobador.cookie);
    expect(await flashOf(r)).toMatchObject({ kind: "exito", message: "Se han rechazado 2 gastos." });
    expect(await row(a.id)).toMatchObject({ estado: "rechazado", motivo_rechazo: "Duplicados" });
    expect(await row(b.id)).toMatchObject({ estado: "rechazado", motivo_rechazo: "Duplicados" });
  });

  it("el resultado concuerda con el número: «Se ha aprobado 1 gasto.»", async () => {
    const g = await enEstado(empleado, "pendiente");
    const r = await post(
      { intent: "aprobar_seleccion", seleccion: [`${g.id}:${g.version}`], confirmado: "1" },
      aprobador.cookie,
    );
    expect((await flashOf(r))?.message).toBe("Se ha aprobado 1 gasto.");
  });

  it("una selección con una versión antigua se rechaza para esa fila", async () => {
    const g = await enEstado(empleado, "pendiente");
    await app.db.updateTable("gastos").set({ notas: "cambiado" }).where("id", "=", g.id).execute();
    const r = await post(
      { intent: "aprobar_seleccion", seleccion: [`${g.id}:${g.version}`], confirmado: "1" },
      aprobador.cookie,
    );
    expect(await flashOf(r)).toMatchObject({ kind: "error" });
    expect((await row(g.id)).estado).toBe("pendiente");
  });

  it("«aplicar a todos los que coinciden»: un paso de confirmación con cuántos, luego solo esos", async () => {
    const marca = `Lote-${Date.now()}`;
    const a = await enEstado(empleado, "pendiente", { descripcion: `${marca} uno` });
    const b = await enEstado(empleado, "pendiente", { descripcion: `${marca} dos` });
    const propio = await enEstado(aprobador, "pendiente", { descripcion: `${marca} propio` });
    const fuera = await enEstado(empleado, "pendiente", { descripcion: "Fuera del lote" });
    const confirm = await list(`?q=${marca}&masivo=aprobar`, aprobador.cookie);
    expect(confirm.masivo).toMatchObject({ accion: "aprobar", total: 2, estimado: false });
    const r = await post(
      { intent: "masivo", accion: "aprobar" },
      aprobador.cookie,
      `/gastos?index&q=${marca}&masivo=aprobar`,
    );
    expect(r.headers.get("Location")).toBe(`/gastos?q=${marca}#contenido`);
    expect(await flashOf(r)).toMatchObject({ message: "Se han aprobado 2 gastos." });
    expect((await row(a.id)).estado).toBe("aprobado");
    expect((await row(b.id)).estado).toBe("aprobado");
    expect((await row(propio.id)).estado).toBe("pendiente");
    expect((await row(fuera.id)).estado).toBe("pendiente");
  });

  it("«aplicar a todos»: con un filtro que no se puede leer no se ofrece ni se aplica (el filtro no se aplicaría)", async () => {
    const marca = `Ilegible-${Date.now()}`;
    const a = await enEstado(empleado, "pendiente", { descripcion: `${marca} uno` });
    const confirm = await list(`?q=${marca}&importe_max=abc&masivo=aprobar`, aprobador.cookie);
    expect(confirm.masivo).toMatchObject({ accion: "aprobar", total: 0 });
    const r = await post(
      { intent: "masivo", accion: "aprobar" },
      aprobador.cookie,
      `/gastos?index&q=${marca}&importe_max=abc&masivo=aprobar`,
    );
    expect(await flashOf(r)).toMatchObject({ kind: "error", message: expect.stringMatching(/no se pueden leer/) });
    expect((await row(a.id)).estado).toBe("pendiente");
  });

  it("un empleado (aunque sea responsable de un departamento) no aprueba en bloque: 403", async () => {
    const g = await enEstado(empleado2, "pendiente");
    expect(
      (await post({ intent: "aprobar_seleccion", seleccion: [`${g.id}:${g.version}`] }, empleado.cookie)).status,
    ).toBe(403);
    expect((await list("", empleado.cookie)).aprueba).toBe(false);
    expect((await list("", responsable.cookie)).aprueba).toBe(false);
    expect(
      (await post({ intent: "aprobar_seleccion", seleccion: [`${g.id}:${g.version}`] }, responsable.cookie)).status,
    ).toBe(403);
  });
});

// Last in the file: it leaves more suppliers than a select offers.
describe("la copia, con más proveedores de los que ofrece una lista", () => {
  it("la lista de proveedores de «Nuevo gasto» trae el del gasto copiado aunque no quepa entre los primeros", async () => {
    await app.db
      .insertInto("proveedores")
      .values(
        Array.from({ length: 205 }, (_, i) => ({
          razon_social: `Zzz Proveedor ${String(i + 1).padStart(3, "0")}`,
          tipo_persona: "empresa",
          nif: generateValidCif(9_000 + i),
        })),
      )
      .execute();
    const ultimo = await app.db
      .selectFrom("proveedores")
      .select("id")
      .where("razon_social", "=", "Zzz Proveedor 205")
      .executeTakeFirstOrThrow();
    const original = await nuevo(empleado, { proveedor_id: ultimo.id });
    expect((await list("?nuevo=1", empleado.cookie)).options.proveedores).toMatchObject({ truncated: true });
    const copia = await list(`?nuevo=1&como=${original.id}`, empleado.cookie);
    expect(copia.nuevo.defaults.proveedor_id).toBe(ultimo.id);
    expect(copia.options.proveedores!.options.map((o: { value: string }) => o.value)).toContain(ultimo.id);
  });
});
