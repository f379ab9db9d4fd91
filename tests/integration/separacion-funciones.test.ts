import { sql } from "kysely";
import { sqlStore } from "~/data/sql/adapter.server";
import { guardarAjustes } from "~/data/ajustes.server";
import { todayISO } from "~/lib/dates";
import { loader as panelLoader } from "~/routes/_index";
import { createTestApp, json, ORIGIN, request, respond } from "../support/app";
import { insertDepartamento, insertSucursal, setProfile } from "../support/fixtures";
import { gastosPage, type FilaLista, type Gasto } from "../support/gastos";

/**
 * Separation of duties (docs/producto.md), through the real loaders and actions and
 * straight against the database as each person (row-level security, the workflow functions):
 *
 * - who approves is decided by the solicitante, never by the gasto's department (cost centre);
 * - approval rights are read when acting: a demoted or deactivated aprobador's open session
 *   approves nothing, and their pending gastos are reassigned at once, with a history entry;
 * - whoever created or last edited a gasto on someone's behalf does not approve it;
 * - whoever approved it does not mark it paid, unless PERMITIR_ADMIN_UNICO (then in the history);
 * - the list's «Mis pendientes de aprobar», its checkboxes, «aprobar todos» and the panel offer
 *   exactly what aprobar_gasto accepts.
 */
let app: Awaited<ReturnType<typeof createTestApp>>;
type U = Awaited<ReturnType<typeof app.createUser>>;
let admin: U, admin2: U, pablo: U, carla: U, elena: U, emilio: U, dario: U;
let dep: { ventas: string; compras: string; direccion: string };
let suc: string;
const hoy = todayISO();

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  admin2 = await app.createUser({ nombre: "Beatriz", rol: "administrador" });
  pablo = await app.createUser({ nombre: "Pablo", rol: "aprobador" }); // Ventas
  carla = await app.createUser({ nombre: "Carla", rol: "aprobador" }); // Compras' responsable
  elena = await app.createUser({ nombre: "Elena", rol: "empleado" }); // Ventas
  emilio = await app.createUser({ nombre: "Emilio", rol: "empleado" }); // Compras
  dario = await app.createUser({ nombre: "Darío", rol: "aprobador" }); // Dirección's responsable
  const direccion = await insertDepartamento(app.db, { nombre: "Dirección", codigo: "DIR", responsable_id: dario.id });
  dep = {
    direccion,
    ventas: await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN", departamento_padre_id: direccion }),
    compras: await insertDepartamento(app.db, { nombre: "Compras", codigo: "COM", responsable_id: carla.id }),
  };
  suc = await insertSucursal(app.db);
  const perfil = (u: U, departamento_id: string) => setProfile(app.db, u.id, { sucursal_id: suc, departamento_id });
  await perfil(admin, dep.direccion);
  await perfil(admin2, dep.direccion);
  await perfil(pablo, dep.ventas);
  await perfil(carla, dep.compras);
  await perfil(elena, dep.ventas);
  await perfil(emilio, dep.compras);
  await perfil(dario, dep.direccion);
});
afterAll(() => app?.close());

// ------------------------------------------------------------------------------------------

const { post, list, row, created } = gastosPage(() => app);
const rpc = (u: U, fn: string, args: Record<string, unknown>) =>
  sqlStore(app.db, u.id).rpc<{ version: number }>(fn, args);
/** The database error of a call that must fail (SQLSTATE and message). */
async function refused(p: Promise<unknown>) {
  try {
    await p;
  } catch (error) {
    return { message: (error as Error).message, name: (error as Error).name };
  }
  throw new Error("Se esperaba un rechazo y la llamada se ejecutó");
}

let seq = 0;
/** A gasto created through the form by `u` (for `solicitante` when an administrador says so). */
async function nuevo(u: U, o: Record<string, string> = {}) {
  seq += 1;
  const form = {
    intent: "crear",
    descripcion: `Separación ${seq}`,
    fecha_gasto: hoy,
    categoria: "comidas",
    importe: `${20 + seq},00`,
    metodo_pago: "efectivo",
    ...o,
  };
  return created(await post(form, u.cookie));
}
const act = (u: U, intent: string, g: { id: string; version: number }, extra: Record<string, string> = {}) =>
  post({ intent, id: g.id, version: String(g.version), ...extra }, u.cookie, `/gastos?gasto=${g.id}`);
async function enviado(u: U, g: Gasto) {
  const r = await act(u, "enviar", g);
  expect(r.status, await r.clone().text()).toBe(302);
  return row(g.id);
}
async function pendienteDe(u: U, o: Record<string, string> = {}) {
  return enviado(u, await nuevo(u, o));
}
const historial = (id: string) =>
  app.db
    .selectFrom("historial")
    .selectAll()
    .where("tabla", "=", "gastos")
    .where("registro_id", "=", id)
    .orderBy("id")
    .$castTo<{ actor_id: string | null; cambios: Record<string, { antes?: unknown; despues: unknown }> }>()
    .execute();

// ------------------------------------------------------------------------------------------

describe("quién aprueba lo decide el solicitante, no el departamento del gasto (hueco b)", () => {
  it("un empleado que carga su gasto a Compras no consigue que lo apruebe Compras", async () => {
    // Elena (Ventas) picks Compras as the cost centre, then edits it again to be sure.
    const g = await nuevo(elena, { departamento_id: dep.compras });
    expect(g.departamento_id).toBe(dep.compras);
    const p = await enviado(elena, g);
    // Assigned by her own chain: Ventas has no responsable → Dirección's (Darío), not Compras' Carla.
    expect(p.aprobador_id).toBe(dario.id);
    // Carla sees it (Compras is its cost centre) but may not approve or reject it.
    const data = await list(`?gasto=${p.id}`, carla.cookie);
    expect(data.panel.acciones).toEqual([]);
    const r = await act(carla, "aprobar", p);
    expect(r.status).toBe(403);
    expect(await r.text()).toMatch(/No tiene permiso para aprobar este gasto/);
    expect((await act(carla, "rechazar", p, { motivo: "No" })).status).toBe(403);
    // Straight against the database, the same answer.
    const err = await refused(rpc(carla, "aprobar_gasto", { p_id: p.id, p_version: p.version }));
    expect(err.message).toMatch(/No tiene permiso para aprobar este gasto/);
    expect((await row(p.id)).estado).toBe("pendiente");
    // Nor does a checkbox, «Mis pendientes de aprobar» or the confirm step of «aprobar todos» offer it to her.
    const pendientes = await list("?vista=pendientes&por_pagina=100", carla.cookie);
    expect(pendientes.result.rows.map((x: FilaLista) => x.id)).not.toContain(p.id);
    const todos = await list(`?estado=pendiente&por_pagina=100`, carla.cookie);
    expect(todos.result.rows.find((x: FilaLista) => x.id === p.id)?.puede_aprobar).toBe(false);
    const bulk = await post(
      { intent: "aprobar_seleccion", seleccion: [`${p.id}:${p.version}`], confirmado: "1" },
      carla.cookie,
    );
    expect(bulk.status).toBe(302);
    expect((await row(p.id)).estado).toBe("pendiente");
    // Darío, responsable of Ventas' parent, approves it (and sees it though it is charged to Compras).
    expect((await list(`?gasto=${p.id}`, dario.cookie)).panel.acciones).toEqual(["aprobar", "rechazar"]);
    expect((await act(dario, "aprobar", p)).status).toBe(302);
    expect(await row(p.id)).toMatchObject({ estado: "aprobado", aprobado_por_id: dario.id });
  });

  it("el aprobador del departamento del solicitante aprueba aunque el gasto se cargue a otro", async () => {
    const p = await pendienteDe(elena, { departamento_id: dep.compras });
    // Pablo is an aprobador of Ventas (Elena's department), not the assigned one.
    expect(p.aprobador_id).not.toBe(pablo.id);
    expect(
      (await list("?vista=pendientes&por_pagina=100", pablo.cookie)).result.rows.map((x: FilaLista) => x.id),
    ).toContain(p.id);
    expect((await act(pablo, "aprobar", p)).status).toBe(302);
    expect((await row(p.id)).aprobado_por_id).toBe(pablo.id);
  });
});

describe("los derechos se comprueban al actuar (hueco a)", () => {
  it("un aprobador bajado a empleado: su sesión abierta ya no aprueba, y sus pendientes pasan a otro con historial", async () => {
    await app.db.updateTable("usuarios").set({ aprobador_id: pablo.id }).where("id", "=", elena.id).execute();
    try {
      const p = await pendienteDe(elena);
      expect(p.aprobador_id).toBe(pablo.id);
      // The page Pablo has open offers «Aprobar»…
      expect((await list(`?gasto=${p.id}`, pablo.cookie)).panel.acciones).toEqual(["aprobar", "rechazar"]);
      // …an administrador demotes him (as the app does: under RLS, with the version)…
      const yo = await app.db
        .selectFrom("usuarios")
        .select("version")
        .where("id", "=", pablo.id)
        .executeTakeFirstOrThrow();
      await sqlStore(app.db, admin.id).update("usuarios", pablo.id, Number(yo.version), { rol: "empleado" });
      // …and his next click, with the same cookie and the version he saw, is refused.
      const r = await act(pablo, "aprobar", p);
      expect([403, 404]).toContain(r.status);
      const ahora = await row(p.id);
      expect(ahora.estado).toBe("pendiente");
      // Reassigned by the rule (Elena's aprobador is gone → Ventas has no responsable → Dirección's Darío).
      expect(ahora.aprobador_id).toBe(dario.id);
      const h = (await historial(p.id)).at(-1)!;
      expect(h.actor_id).toBe(admin.id);
      expect(h.cambios.aprobador_id).toEqual({ antes: pablo.id, despues: dario.id });
      expect(h.cambios.nota.despues).toMatch(
        /^Reasignado: Pablo ya no puede aprobarlo \(ahora es empleado\)\. Lo aprueba ahora Darío\.$/,
      );
      // His aprobador_id still points at him: a new gasto skips him.
      expect((await pendienteDe(elena)).aprobador_id).toBe(dario.id);
      // No bulk approval for him, nothing in his «pendientes».
      expect((await list("", pablo.cookie)).aprueba).toBe(false);
    } finally {
      await app.db.updateTable("usuarios").set({ rol: "aprobador" }).where("id", "=", pablo.id).execute();
      await app.db.updateTable("usuarios").set({ aprobador_id: null }).where("id", "=", elena.id).execute();
    }
  });

  it("en la base de datos: un empleado que sigue viendo el gasto (responsable) no lo aprueba", async () => {
    const p = await pendienteDe(emilio);
    expect(p.aprobador_id).toBe(carla.id);
    await app.db.updateTable("usuarios").set({ rol: "empleado" }).where("id", "=", carla.id).execute();
    try {
      const ahora = await row(p.id);
      expect(ahora.aprobador_id).not.toBe(carla.id); // reassigned (the trigger runs for the owner too)
      // She still sees Compras' gastos as its responsable, but the function reads her role now.
      const { rows } = await sqlStore(app.db, carla.id).list("gastos", {
        filters: [{ column: "id", op: "eq", value: p.id }],
        limit: 1,
        offset: 0,
      });
      expect(rows).toHaveLength(1);
      const err = await refused(rpc(carla, "aprobar_gasto", { p_id: p.id, p_version: ahora.version }));
      expect(err.message).toMatch(/^Su rol es empleado: no puede aprobar gastos/);
      const err2 = await refused(
        rpc(carla, "rechazar_gasto", { p_id: p.id, p_version: ahora.version, p_motivo: "No" }),
      );
      expect(err2.message).toMatch(/^Su rol es empleado: no puede rechazar gastos/);
      expect((await row(p.id)).estado).toBe("pendiente");
    } finally {
      await app.db.updateTable("usuarios").set({ rol: "aprobador" }).where("id", "=", carla.id).execute();
    }
  });

  it("un aprobador desactivado: sus pendientes se reasignan con historial y su sesión no aprueba", async () => {
    const p = await pendienteDe(emilio);
    expect(p.aprobador_id).toBe(carla.id);
    const yo = await app.db
      .selectFrom("usuarios")
      .select("version")
      .where("id", "=", carla.id)
      .executeTakeFirstOrThrow();
    await sqlStore(app.db, admin2.id).update("usuarios", carla.id, Number(yo.version), { activo: false });
    try {
      const ahora = await row(p.id);
      // Compras has no other responsable and no parent: the oldest administrador.
      expect(ahora.aprobador_id).toBe(admin.id);
      const h = (await historial(p.id)).at(-1)!;
      expect(h.actor_id).toBe(admin2.id);
      expect(h.cambios.nota.despues).toMatch(/Carla ya no puede aprobarlo \(se desactivó su usuario\)/);
      const err = await refused(rpc(carla, "aprobar_gasto", { p_id: p.id, p_version: ahora.version }));
      expect(err.message).toMatch(/no está activo/);
      const r = await act(carla, "aprobar", ahora);
      expect(r.status).toBe(302);
      expect(r.headers.get("Location")).toMatch(/^\/login/);
      expect((await row(p.id)).estado).toBe("pendiente");
    } finally {
      await app.db.updateTable("usuarios").set({ activo: true }).where("id", "=", carla.id).execute();
      carla = { ...carla, cookie: (await reSignIn(carla)).cookie };
    }
  });
});

/** A deactivated user's sessions end: sign in again for the next tests. */
async function reSignIn(u: U) {
  const signIn = await app.services.auth.signIn(new Request(ORIGIN), u.email, "contraseña-de-prueba-larga");
  if (!signIn.ok) throw new Error(signIn.reason);
  return { cookie: signIn.headers.get("Set-Cookie")!.split(";")[0]! };
}

describe("quien crea o edita un gasto en nombre de otro no lo aprueba", () => {
  it("creado por un administrador para un empleado: él no lo aprueba; otro administrador sí", async () => {
    const g = await nuevo(admin, { solicitante_id: emilio.id, departamento_id: dep.compras, sucursal_id: suc });
    expect(g).toMatchObject({ solicitante_id: emilio.id, creado_por_id: admin.id, editado_por_id: null });
    await app.db.updateTable("departamentos").set({ responsable_id: null }).where("id", "=", dep.compras).execute();
    try {
      const p = await enviado(emilio, g);
      // The fallback administrador is never its author.
      expect(p.aprobador_id).toBe(admin2.id);
      expect((await list(`?gasto=${p.id}`, admin.cookie)).panel).toMatchObject({
        acciones: ["retirar"],
        separacion: "Usted creó este gasto en nombre de Emilio: debe aprobarlo otra persona.",
      });
      const r = await act(admin, "aprobar", p);
      expect(r.status).toBe(403);
      const err = await refused(rpc(admin, "aprobar_gasto", { p_id: p.id, p_version: p.version }));
      expect(err.message).toBe("Usted creó este gasto en nombre de Emilio: debe aprobarlo otra persona.");
      expect(
        (await list("?vista=pendientes&por_pagina=100", admin.cookie)).result.rows.map((x: FilaLista) => x.id),
      ).not.toContain(p.id);
      expect((await act(admin2, "aprobar", p)).status).toBe(302);
    } finally {
      await app.db
        .updateTable("departamentos")
        .set({ responsable_id: carla.id })
        .where("id", "=", dep.compras)
        .execute();
    }
  });

  it("editado por un administrador en nombre del solicitante: él no lo aprueba, aunque el solicitante lo toque después", async () => {
    const g = await nuevo(emilio);
    expect(g.creado_por_id).toBe(emilio.id);
    const campos = {
      descripcion: "Corregido por administración",
      fecha_gasto: hoy,
      categoria: "comidas",
      importe: "77,00",
      metodo_pago: "efectivo",
      solicitante_id: emilio.id,
      departamento_id: dep.compras,
      sucursal_id: suc,
    };
    const r = await post(
      { intent: "guardar", id: g.id, version: String(g.version), ...campos },
      admin2.cookie,
      `/gastos?gasto=${g.id}`,
    );
    expect(r.status, await r.clone().text()).toBe(302);
    expect((await row(g.id)).editado_por_id).toBe(admin2.id);
    // Emilio edits it himself afterwards: the last edit on his behalf is still admin2's.
    const g2 = await row(g.id);
    await sqlStore(app.db, emilio.id).update("gastos", g.id, g2.version, { notas: "Con ticket" });
    const p = await enviado(emilio, await row(g.id));
    expect(p.editado_por_id).toBe(admin2.id);
    const err = await refused(rpc(admin2, "aprobar_gasto", { p_id: p.id, p_version: p.version }));
    expect(err.message).toBe("Usted editó este gasto en nombre de Emilio: debe aprobarlo otra persona.");
    expect((await act(admin2, "rechazar", p, { motivo: "No" })).status).toBe(403);
    expect((await act(admin, "aprobar", p)).status).toBe(302);
  });

  it("nadie escribe la autoría: ni al crear ni al editar", async () => {
    const g = await nuevo(emilio);
    for (const column of ["creado_por_id", "editado_por_id"]) {
      const err = await refused(sqlStore(app.db, admin.id).update("gastos", g.id, g.version, { [column]: null }));
      expect(err.name).not.toBe("Error");
    }
    expect(await row(g.id)).toMatchObject({ creado_por_id: emilio.id, version: g.version });
  });
});

describe("quien aprobó no marca como pagado (salvo PERMITIR_ADMIN_UNICO, y queda en el historial)", () => {
  it("sin el ajuste: 403 para quien aprobó; otro administrador sí", async () => {
    const p = await pendienteDe(emilio);
    await rpc(admin, "aprobar_gasto", { p_id: p.id, p_version: p.version });
    const a = await row(p.id);
    expect((await list(`?gasto=${a.id}`, admin.cookie)).panel).toMatchObject({
      acciones: ["revertir"],
      separacion: "Usted aprobó este gasto: debe marcarlo como pagado otro administrador.",
    });
    const r = await act(admin, "pagar", a, { fecha_pago: hoy, referencia_pago: "TR-1" });
    expect(r.status).toBe(403);
    expect(await r.text()).toMatch(/Usted aprobó este gasto: debe marcarlo como pagado otro administrador/);
    const err = await refused(
      rpc(admin, "pagar_gasto", { p_id: a.id, p_version: a.version, p_fecha_pago: hoy, p_referencia: "TR-1" }),
    );
    expect(err.message).toBe("Usted aprobó este gasto: debe marcarlo como pagado otro administrador.");
    expect((await row(a.id)).estado).toBe("aprobado");
    expect((await act(admin2, "pagar", a, { fecha_pago: hoy, referencia_pago: "TR-1" })).status).toBe(302);
    expect((await historial(a.id)).at(-1)!.cambios.nota).toBeUndefined();
  });

  it("con PERMITIR_ADMIN_UNICO=1 (fijado por el servidor al arrancar): lo paga y el historial lo dice", async () => {
    const p = await pendienteDe(emilio);
    await rpc(admin, "aprobar_gasto", { p_id: p.id, p_version: p.version });
    const a = await row(p.id);
    expect(await guardarAjustes(app.url, { PERMITIR_ADMIN_UNICO: true })).toEqual({
      aviso: expect.stringMatching(/^PERMITIR_ADMIN_UNICO=1 con 2 administradores activos/),
    });
    try {
      expect((await list(`?gasto=${a.id}`, admin.cookie)).panel.acciones).toEqual(["pagar", "revertir"]);
      expect((await act(admin, "pagar", a, { fecha_pago: hoy, referencia_pago: "TR-2" })).status).toBe(302);
      const h = (await historial(a.id)).at(-1)!;
      expect(h.actor_id).toBe(admin.id);
      expect(h.cambios.estado).toEqual({ antes: "aprobado", despues: "pagado" });
      expect(h.cambios.nota.despues).toMatch(
        /la misma persona: lo permite esta instalación \(PERMITIR_ADMIN_UNICO=1\)/,
      );
    } finally {
      expect(await guardarAjustes(app.url, { PERMITIR_ADMIN_UNICO: false })).toEqual({ aviso: null });
    }
  });

  it("un administrador no marca como pagado su propio gasto; con PERMITIR_ADMIN_UNICO=1, sí, y el historial lo dice", async () => {
    const p = await pendienteDe(admin);
    expect(p.aprobador_id).toBe(dario.id);
    await rpc(dario, "aprobar_gasto", { p_id: p.id, p_version: p.version });
    const a = await row(p.id);
    const SUYO = "Es un gasto suyo: debe marcarlo como pagado otro administrador.";
    expect((await list(`?gasto=${a.id}`, admin.cookie)).panel).toMatchObject({
      acciones: ["revertir"],
      separacion: SUYO,
    });
    const r = await act(admin, "pagar", a, { fecha_pago: hoy, referencia_pago: "TR-3" });
    expect(r.status).toBe(403);
    expect(await r.text()).toContain(SUYO);
    expect((await row(a.id)).estado).toBe("aprobado");
    await guardarAjustes(app.url, { PERMITIR_ADMIN_UNICO: true });
    try {
      expect((await act(admin, "pagar", a, { fecha_pago: hoy, referencia_pago: "TR-3" })).status).toBe(302);
      expect((await historial(a.id)).at(-1)!.cambios.nota.despues).toBe(
        "Lo pidió y lo marcó como pagado la misma persona: lo permite esta instalación (PERMITIR_ADMIN_UNICO=1).",
      );
    } finally {
      await guardarAjustes(app.url, { PERMITIR_ADMIN_UNICO: false });
    }
  });

  it("ningún cliente puede leer ni cambiar el ajuste (ni con su propio JWT)", async () => {
    for (const who of [admin, emilio]) {
      const err = await app.db
        .transaction()
        .execute(async (trx) => {
          await sql`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify({ sub: who.id, role: "authenticated" })}, true)`.execute(
            trx,
          );
          await sql`update interno.ajustes set permitir_admin_unico = true`.execute(trx);
        })
        .then(
          () => null,
          (e) => (e as { code?: string }).code,
        );
      expect(err).toBe("42501");
    }
    const { rows } = await sql<{ v: boolean }>`select permitir_admin_unico as v from interno.ajustes`.execute(app.db);
    expect(rows[0]!.v).toBe(false);
  });
});

describe("una sola regla: funciones, lista, casillas, «aprobar todos» y panel", () => {
  it("gastos_vista.puede_aprobar es exactamente lo que aceptan las funciones, para cada persona y gasto", async () => {
    // Some gastos of every kind: own, colleague's, cost centre elsewhere, created on behalf.
    await pendienteDe(elena, { departamento_id: dep.compras });
    await pendienteDe(emilio);
    await pendienteDe(pablo);
    await enviado(
      emilio,
      await nuevo(admin2, { solicitante_id: emilio.id, departamento_id: dep.compras, sucursal_id: suc }),
    );
    const pendientes = (await app.db
      .selectFrom("gastos")
      .selectAll()
      .where("estado", "=", "pendiente")
      .execute()) as Gasto[];
    for (const u of [admin, admin2, pablo, carla, elena, emilio, dario]) {
      const { rows } = await sqlStore(app.db, u.id).list<{ id: string; puede_aprobar: boolean }>("gastos_vista", {
        filters: [{ column: "estado", op: "eq", value: "pendiente" }],
        columns: ["id", "puede_aprobar"],
        limit: 1000,
        offset: 0,
      });
      const segunVista = new Set(rows.filter((r) => r.puede_aprobar).map((r) => r.id));
      for (const g of pendientes) {
        // The function itself, in a transaction rolled back: does it accept?
        const acepta = await app.db
          .transaction()
          .execute(async (trx) => {
            await sql`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify({ sub: u.id, role: "authenticated" })}, true)`.execute(
              trx,
            );
            await sql`select public.aprobar_gasto(${g.id}::uuid, ${g.version}::integer)`.execute(trx);
            throw new Error("deshacer");
          })
          .catch((e: Error) => e.message === "deshacer");
        expect(segunVista.has(g.id), `${g.folio} para ${u.email}`).toBe(acepta);
      }
      // «Mis pendientes de aprobar», the panel's list and «aprobar todos» count the same gastos.
      if (u !== elena && u !== emilio) {
        const vista = await list("?vista=pendientes&por_pagina=100", u.cookie);
        expect(new Set(vista.result.rows.map((x: FilaLista) => x.id)), u.email).toEqual(segunVista);
        const masivo = await list("?estado=pendiente&masivo=aprobar", u.cookie);
        expect(masivo.masivo.total, u.email).toBe(segunVista.size);
        const panel = await json(
          await respond(() =>
            panelLoader({ request: request("/", { cookie: u.cookie }), context: app.context(), params: {} }),
          ),
        );
        expect(panel.panel.pendientes.cuenta, u.email).toBe(segunVista.size);
        expect(
          panel.panel.pendientes.mas_antiguos.every((x: FilaLista) => segunVista.has(x.id)),
          u.email,
        ).toBe(true);
      }
    }
  });
});
