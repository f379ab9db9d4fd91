import { currentUser } from "~/auth/session.server";
import { Forbidden, Invalid } from "~/data/store";
import { CAMPOS_PERFIL_PROPIO } from "~/entities/usuarios";
import * as listRoute from "~/routes/usuarios._index";
import * as recordRoute from "~/routes/usuarios.$id";
import { createTestApp, json, request, respond, type TestApp, type TestUser } from "../support/app";
import { entityPages } from "../support/entity-pages";
import { insertDepartamento, insertSucursal, setProfile } from "../support/fixtures";
import { pantallasDe } from "../support/pantallas";

/** Usuarios through their real loaders and actions, on a real Postgres under RLS. */
let app: TestApp;
type U = TestUser;
let admin: U;
let aprobador: U;
let empleado: U;
let otro: U;
let departamento: string;
let sucursal: string;

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
  otro = await app.createUser({ nombre: "Óscar", rol: "empleado" });
  departamento = await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" });
  sucursal = await insertSucursal(app.db, {
    nombre: "Sevilla",
    codigo: "SEV",
    direccion: "Calle Sierpes 1",
    ciudad: "Sevilla",
  });
});
afterAll(() => app.close());

const row = (id: string) => app.db.selectFrom("usuarios").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const { list, load, post } = entityPages("/usuarios", { index: listRoute, record: recordRoute }, () => ({
  app,
  cookie: admin.cookie,
}));
/** The whole form an administrador sends for `u`, with changes. */
async function adminForm(id: string, o: Record<string, string> = {}) {
  const u = await row(id);
  return {
    intent: "guardar",
    version: String(u.version),
    nombre: u.nombre,
    apellidos: u.apellidos ?? "",
    rol: u.rol,
    activo: u.activo ? "on" : "",
    departamento_id: u.departamento_id ?? "",
    sucursal_id: u.sucursal_id ?? "",
    aprobador_id: u.aprobador_id ?? "",
    ...o,
  };
}

describe("lista", () => {
  it("todos la ven; nadie crea aquí (sin formulario ni acción) y el texto explica de dónde salen las cuentas", async () => {
    for (const u of [admin, aprobador, empleado]) {
      const data = await list("", u.cookie);
      expect(data.result.total).toBe(4);
      expect(data.can.crear).toBe(false);
    }
    // The list's only action invites people (administradores only: tests/integration/invitaciones.test.ts).
    expect(listRoute.action.length).toBe(1);
    const { usuarios } = await import("~/entities/usuarios");
    expect(usuarios.intro).toMatch(/Crear cuenta/);
  });

  it("filtra por rol, departamento, sucursal y activo; busca por correo", async () => {
    await app.db
      .updateTable("usuarios")
      .set({ departamento_id: departamento, sucursal_id: sucursal })
      .where("id", "=", otro.id)
      .execute();
    const ids = (data: { result: { rows: { id: string }[] } }) => data.result.rows.map((r) => r.id);
    expect(ids(await list("?rol=aprobador", empleado.cookie))).toEqual([aprobador.id]);
    expect(ids(await list(`?departamento=${departamento}`))).toEqual([otro.id]);
    expect(ids(await list(`?sucursal=${sucursal}&rol=empleado`))).toEqual([otro.id]);
    expect((await list("?activo=no")).result.total).toBe(0);
    expect(ids(await list(`?q=${encodeURIComponent(empleado.email.slice(0, 8))}`))).toEqual([empleado.id]);
    const data = await list("?orden=nombre_completo&dir=desc");
    // In Spanish alphabetical order: «Óscar» between «Elena» and «Pablo», not after «Pablo».
    expect(data.result.rows.map((r: { nombre_completo: string }) => r.nombre_completo)).toEqual([
      "Pablo",
      "Óscar",
      "Elena",
      "Ana",
    ]);
  });
});

describe("perfil propio (no administrador)", () => {
  it("abre su ficha con permiso para editar solo los campos de su perfil; la de otro, solo lectura", async () => {
    const own = await json(await load(empleado.id, empleado.cookie));
    expect(own.can).toEqual({ crear: false, editar: true, eliminar: false });
    expect(own.campos).toEqual([...CAMPOS_PERFIL_PROPIO]);
    expect(own.campos).not.toContain("rol");
    expect(own.campos).not.toContain("activo");
    const other = await json(await load(otro.id, empleado.cookie));
    expect(other.can).toEqual({ crear: false, editar: false, eliminar: false });
  });

  it("edita su perfil; rol, activo, departamento, aprobador y correo enviados a escondidas se ignoran", async () => {
    const before = await row(empleado.id);
    const r = await post(
      empleado.id,
      {
        intent: "guardar",
        version: String(before.version),
        nombre: "Elena",
        apellidos: "García Ruiz",
        puesto: "Técnica de compras",
        telefono: "+34 600 111 222",
        sucursal_id: sucursal,
        rol: "administrador",
        activo: "",
        departamento_id: departamento,
        aprobador_id: aprobador.id,
        email: "otra@oficina.test",
      },
      empleado.cookie,
    );
    expect(r.status).toBe(302);
    const after = await row(empleado.id);
    expect(after).toMatchObject({
      apellidos: "García Ruiz",
      puesto: "Técnica de compras",
      telefono: "+34 600 111 222",
      sucursal_id: sucursal,
      version: before.version + 1,
    });
    expect(after).toMatchObject({
      rol: "empleado",
      activo: true,
      departamento_id: null,
      aprobador_id: null,
      email: before.email,
    });
  });

  it("la base de datos también rechaza que cambie su rol o su estado (aunque la ruta se saltara)", async () => {
    const store = app.services.storeFor({ userId: empleado.id });
    const u = await row(empleado.id);
    await expect(store.update("usuarios", empleado.id, u.version, { rol: "administrador" })).rejects.toBeInstanceOf(
      Forbidden,
    );
    await expect(store.update("usuarios", empleado.id, u.version, { activo: false })).rejects.toBeInstanceOf(Forbidden);
    await expect(
      store.update("usuarios", empleado.id, u.version, { departamento_id: departamento }),
    ).rejects.toBeInstanceOf(Forbidden);
    expect(await row(empleado.id)).toEqual(u);
  });

  it("no edita ni elimina el perfil de otro (403) y nada cambia", async () => {
    const before = await row(otro.id);
    for (const who of [empleado, aprobador]) {
      expect(
        (await post(otro.id, { intent: "guardar", version: String(before.version), nombre: "Cambiado" }, who.cookie))
          .status,
      ).toBe(403);
      expect((await post(otro.id, { intent: "eliminar", version: String(before.version) }, who.cookie)).status).toBe(
        403,
      );
    }
    expect(await row(otro.id)).toEqual(before);
  });

  it("datos no válidos: 400 con mensajes en español; nada cambia", async () => {
    const before = await row(empleado.id);
    const r = await post(
      empleado.id,
      { intent: "guardar", version: String(before.version), nombre: "", telefono: "abc", puesto: "x".repeat(81) },
      empleado.cookie,
    );
    expect(r.status).toBe(400);
    const { result } = await json(r);
    expect(result.error.nombre[0]).toMatch(/Escriba el nombre/);
    expect(result.error.telefono[0]).toMatch(/de 6 a 20 cifras/);
    expect(result.error.puesto[0]).toMatch(/como máximo 80/);
    expect(await row(empleado.id)).toEqual(before);
  });
});

describe("administrador", () => {
  it("edita todo de otro usuario, también rol, activo, departamento y aprobador", async () => {
    const r = await post(
      otro.id,
      await adminForm(otro.id, {
        rol: "aprobador",
        departamento_id: departamento,
        aprobador_id: aprobador.id,
        puesto: "Jefe de zona",
      }),
    );
    expect(r.status).toBe(302);
    expect(await row(otro.id)).toMatchObject({
      rol: "aprobador",
      departamento_id: departamento,
      aprobador_id: aprobador.id,
      puesto: "Jefe de zona",
      activo: true,
    });
    const data = await json(await load(otro.id));
    expect(data.can).toEqual({ crear: false, editar: true, eliminar: true });
    expect(data.campos).toBeNull();
    expect(data.history[0].cambios.rol).toEqual({ antes: "empleado", despues: "aprobador" });
  });

  it("el aprobador no puede ser el propio usuario: error en el campo (y la base de datos también lo impide)", async () => {
    const before = await row(otro.id);
    const r = await post(otro.id, await adminForm(otro.id, { aprobador_id: otro.id }));
    expect(r.status).toBe(400);
    expect((await json(r)).result.error.aprobador_id[0]).toMatch(/otra persona/);
    expect(await row(otro.id)).toEqual(before);
    const store = app.services.storeFor({ userId: admin.id });
    await expect(store.update("usuarios", otro.id, before.version, { aprobador_id: otro.id })).rejects.toMatchObject({
      constructor: Invalid,
      field: "aprobador_id",
    });
  });

  it("el último administrador activo no puede quitarse el rol ni desactivarse: error en el campo, nada cambia", async () => {
    const before = await row(admin.id);
    const demote = await post(admin.id, await adminForm(admin.id, { rol: "empleado", confirmar_degradacion: "1" }));
    expect(demote.status).toBe(400);
    expect((await json(demote)).result.error.rol[0]).toBe(
      "No se puede quitar el rol de administrador al último administrador activo.",
    );
    const deactivate = await post(admin.id, await adminForm(admin.id, { activo: "", confirmar_degradacion: "1" }));
    expect(deactivate.status).toBe(400);
    expect((await json(deactivate)).result.error.activo[0]).toBe(
      "No se puede desactivar al último administrador activo.",
    );
    expect(await row(admin.id)).toEqual(before);
    expect((await json(await load(admin.id))).can.eliminar).toBe(false); // not their own profile either
    expect((await post(admin.id, { intent: "eliminar", version: String(before.version) })).status).toBe(403);
  });

  it("con otro administrador activo, sí puede cambiarse el rol, tras confirmar lo que pierde (sin JS: un segundo POST)", async () => {
    const segundo = await app.createUser({ nombre: "Berta", rol: "administrador" });
    const form = await adminForm(segundo.id, { rol: "aprobador" });
    const before = await row(segundo.id);
    // First POST: nothing changes; the page says what they will lose and carries the same values.
    const ask = await post(segundo.id, form, segundo.cookie);
    expect(ask.status).toBe(200);
    const body = await json(ask);
    expect(body.intent).toBe("confirmar_degradacion");
    expect(body.pierde.join(" ")).toMatch(/Dejará de ser administrador \(pasará a aprobador\)/);
    expect(Object.fromEntries(body.campos)).toMatchObject({ rol: "aprobador", version: form.version });
    expect(await row(segundo.id)).toEqual(before);
    // Deactivating oneself asks too.
    const off = await json(await post(segundo.id, { ...form, rol: "administrador", activo: "" }, segundo.cookie));
    expect(off.pierde.join(" ")).toMatch(/Desactivará su propia cuenta/);
    expect(await row(segundo.id)).toEqual(before);
    // Second POST, with the confirm flag: saved.
    expect(
      (
        await post(
          segundo.id,
          { ...Object.fromEntries(body.campos), intent: "guardar", confirmar_degradacion: "1" },
          segundo.cookie,
        )
      ).status,
    ).toBe(302);
    expect((await row(segundo.id)).rol).toBe("aprobador");
    // Another person's rol (not one's own) needs no confirm step.
    const tercero = await app.createUser({ nombre: "Tere", rol: "administrador" });
    expect((await post(tercero.id, await adminForm(tercero.id, { rol: "empleado" }))).status).toBe(302);
  });

  it("desactivar a un usuario cierra sus sesiones al instante: su cookie deja de valer, incluso si se reactiva", async () => {
    const victima = await app.createUser({ nombre: "Víctor", rol: "empleado" });
    const sessions = () =>
      app.db.selectFrom("auth.local_sessions").select("token_hash").where("user_id", "=", victima.id).execute();
    expect(await currentUser(request("/", { cookie: victima.cookie }), app.context())).not.toBeNull();
    expect(await sessions()).toHaveLength(1);

    expect((await post(victima.id, await adminForm(victima.id, { activo: "" }))).status).toBe(302);
    expect((await row(victima.id)).activo).toBe(false);
    expect(await sessions()).toHaveLength(0);

    // Reactivated: the old cookie still does not sign in (the session really ended).
    expect((await post(victima.id, await adminForm(victima.id, { activo: "on" }))).status).toBe(302);
    expect(await currentUser(request("/", { cookie: victima.cookie }), app.context())).toBeNull();
    const r = await load(victima.id, victima.cookie);
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(`/usuarios/${victima.id}`)}`);
  });

  it("guardar sobre una versión antigua: 409 con los valores actuales; nada se sobrescribe", async () => {
    const form = await adminForm(otro.id, { puesto: "Primero" });
    expect((await post(otro.id, form)).status).toBe(302);
    const r = await post(otro.id, { ...form, puesto: "Segundo" });
    expect(r.status).toBe(409);
    expect((await json(r)).current).toMatchObject({ puesto: "Primero" });
    expect((await row(otro.id)).puesto).toBe("Primero");
  });

  it("eliminar: referenciado se rechaza con el mensaje y nada cambia; sin referencias se elimina", async () => {
    // `aprobador` approves `otro`'s expenses.
    const a = await row(aprobador.id);
    const refused = await post(aprobador.id, { intent: "eliminar", version: String(a.version) });
    expect(refused.status).toBe(409);
    expect((await json(refused)).deleteError).toBe(
      "No se puede eliminar: tiene 1 usuario asociado. Desactívelo en su lugar.",
    );
    expect(await row(aprobador.id)).toEqual(a);

    const libre = await app.createUser({ nombre: "Temporal" });
    const u = await row(libre.id);
    const ok = await post(libre.id, { intent: "eliminar", version: String(u.version) });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/usuarios");
    expect(
      await app.db.selectFrom("usuarios").select("id").where("id", "=", libre.id).executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe("campos relacionados", () => {
  it("con más de 200 opciones, el valor actual de la ficha siempre está entre ellas (guardar no lo borra)", async () => {
    await app.db
      .insertInto("departamentos")
      .values(
        Array.from({ length: 205 }, (_, i) => ({ nombre: `Área ${String(i).padStart(3, "0")}`, codigo: `A-${i}` })),
      )
      .execute();
    const ultimo = await insertDepartamento(app.db, { nombre: "Zona última", codigo: "ZZZ" });
    await setProfile(app.db, empleado.id, { departamento_id: ultimo });
    const data = await json(await load(empleado.id, empleado.cookie));
    expect(data.options.departamentos.truncated).toBe(true);
    expect(data.options.departamentos.options).toContainEqual({ value: ultimo, label: "Zona última" });
  });

  it("paso de búsqueda sin JavaScript: ?buscar_departamentos= filtra las opciones en el servidor", async () => {
    const r = await respond(() =>
      recordRoute.loader({
        request: request(`/usuarios/${otro.id}?buscar_departamentos=${encodeURIComponent("área 20")}`, {
          cookie: admin.cookie,
        }),
        context: app.context(),
        params: { id: otro.id },
      }),
    );
    const data = await json(r);
    expect(data.options.departamentos.busqueda).toBe("área 20");
    expect(data.options.departamentos.truncated).toBe(false);
    // «Área 200» … «Área 204», plus the record's current department (Ventas), always present.
    expect(data.options.departamentos.options.map((o: { label: string }) => o.label).sort()).toEqual(
      ["Ventas", "Área 200", "Área 201", "Área 202", "Área 203", "Área 204"].sort(),
    );
    const lista = await list(`?buscar_departamentos=zona&departamento=${departamento}`);
    expect(lista.options.departamentos.options.map((o: { label: string }) => o.label).sort()).toEqual([
      "Ventas",
      "Zona última",
    ]);
  });

  it("las fichas de departamento y sucursal listan a su gente", async () => {
    const { loader: depLoader } = pantallasDe("departamentos").ficha;
    const { loader: sucLoader } = pantallasDe("sucursales").ficha;
    const dep = await json(
      await respond(() =>
        depLoader({
          request: request(`/departamentos/${departamento}`, { cookie: empleado.cookie }),
          context: app.context(),
          params: { id: departamento },
        }),
      ),
    );
    expect(dep.secciones.personas.rows.map((p: { id: string }) => p.id)).toEqual([otro.id]);
    expect(dep.secciones.personas.filtro).toBe(`/usuarios?departamento=${departamento}`);
    expect(dep.secciones.personas.fichas).toBe("/usuarios");
    const suc = await json(
      await respond(() =>
        sucLoader({
          request: request(`/sucursales/${sucursal}`, { cookie: empleado.cookie }),
          context: app.context(),
          params: { id: sucursal },
        }),
      ),
    );
    expect(suc.secciones.personas.rows.map((p: { nombre: string }) => p.nombre).sort()).toEqual([
      "Elena García Ruiz",
      "Óscar",
    ]);
  });
});
