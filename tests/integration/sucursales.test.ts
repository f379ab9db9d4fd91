import { createTestApp, json, request, respond, type TestApp, type TestUser } from "../support/app";
import { entityPages } from "../support/entity-pages";
import { countRows } from "../support/fixtures";
import { pantallasDe } from "../support/pantallas";

const recordRoute = pantallasDe("sucursales").ficha;

const listRoute = pantallasDe("sucursales").lista;

/** Sucursales through their real loaders and actions, on a real Postgres under RLS. */
let app: TestApp;
let admin: TestUser, aprobador: TestUser, empleado: TestUser;

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
});
afterAll(() => app.close());

const { create, list, load, post } = entityPages("/sucursales", { index: listRoute, record: recordRoute }, () => ({
  app,
  cookie: admin.cookie,
}));
const count = () => countRows(app.db, "sucursales");
const rec = (codigo: string) =>
  app.db.selectFrom("sucursales").selectAll().where("codigo", "=", codigo).executeTakeFirstOrThrow();
const base = (o: Record<string, string> = {}) => ({
  nombre: "Madrid Centro",
  codigo: "MAD",
  direccion: "Gran Vía 1",
  ciudad: "Madrid",
  pais: "ES",
  activo: "on",
  ...o,
});

describe("crear", () => {
  it("el formulario «Nueva sucursal» propone el país configurado y la marca activa", async () => {
    const data = await list("");
    expect(data.nuevo.defaults).toMatchObject({ pais: "ES", activo: "on" });
    expect(data.can).toEqual({ crear: true, editar: true, eliminar: true });
    expect(data.options.usuarios.options.map((o: { label: string }) => o.label)).toEqual(
      expect.arrayContaining(["Ana", "Pablo", "Elena"]),
    );
  });

  it("crea una sucursal con todos los campos, normaliza código y va a su ficha con aviso", async () => {
    const r = await create(
      base({
        codigo: "mad-1",
        provincia: "Madrid",
        codigo_postal: "28013",
        telefono: "+34 912 345 678",
        email: " Madrid@Empresa.ES ",
        responsable_id: aprobador.id,
      }),
      admin.cookie,
      "/sucursales?pais=ES",
    );
    expect(r.status).toBe(302);
    const { id } = await rec("MAD-1");
    expect(r.headers.get("Location")).toBe(
      `/sucursales/${id}?volver=${encodeURIComponent("/sucursales?pais=ES")}#contenido`,
    );
    expect(await rec("MAD-1")).toMatchObject({
      nombre: "Madrid Centro",
      ciudad: "Madrid",
      pais: "ES",
      email: "madrid@empresa.es",
      telefono: "+34 912 345 678",
      responsable_id: aprobador.id,
      activo: true,
      version: 1,
    });
  });

  it("datos no válidos: 400, mensajes en español en cada campo, valores conservados, nada escrito", async () => {
    const before = await count();
    const r = await create({
      nombre: "B",
      codigo: "no vale",
      direccion: "",
      ciudad: "",
      pais: "XX",
      telefono: "llámame",
      email: "no-es-correo",
      responsable_id: "123",
    });
    expect(r.status).toBe(400);
    const { result } = await json(r);
    expect(result.error.nombre[0]).toMatch(/al menos 2 caracteres/);
    expect(result.error.codigo[0]).toMatch(/letras sin tilde/);
    expect(result.error.direccion[0]).toMatch(/Escriba la dirección/);
    expect(result.error.ciudad[0]).toMatch(/Escriba la ciudad/);
    expect(result.error.pais[0]).toMatch(/Elija un país/);
    expect(result.error.telefono[0]).toMatch(/de 6 a 20 cifras/);
    expect(result.error.email[0]).toMatch(/correo válido/);
    expect(result.error.responsable_id[0]).toMatch(/Elija un responsable/);
    expect(result.initialValue).toMatchObject({ nombre: "B", telefono: "llámame" });
    expect(await count()).toBe(before);
  });

  it("código o nombre repetidos (el nombre sin distinguir mayúsculas): error en el campo, nada escrito", async () => {
    const before = await count();
    const r1 = await create(base({ nombre: "Otra", codigo: "mad-1" }));
    expect(r1.status).toBe(400);
    expect((await json(r1)).result.error.codigo[0]).toBe("Ya existe una sucursal con código «MAD-1»");
    const r2 = await create(base({ nombre: "MADRID CENTRO", codigo: "MAD-2" }));
    expect(r2.status).toBe(400);
    expect((await json(r2)).result.error.nombre[0]).toMatch(/Ya existe una sucursal con nombre «MADRID CENTRO»/);
    expect(await count()).toBe(before);
  });

  it.each([
    ["empleado", () => empleado],
    ["aprobador", () => aprobador],
  ])("%s: ve la lista pero no puede crear (403, nada escrito)", async (_rol, who) => {
    const before = await count();
    const data = await list("", who().cookie);
    expect(data.can).toEqual({ crear: false, editar: false, eliminar: false });
    expect(data.result.total).toBe(before);
    expect((await create(base({ nombre: "Intrusa", codigo: "INT" }), who().cookie)).status).toBe(403);
    expect(await count()).toBe(before);
  });
});

describe("lista", () => {
  beforeAll(async () => {
    await create(base({ nombre: "Barcelona Diagonal", codigo: "BCN", ciudad: "Barcelona", direccion: "Diagonal 1" }));
    await create(
      base({ nombre: "Guadalajara", codigo: "GDL", ciudad: "Guadalajara", direccion: "Av. Vallarta 1", pais: "MX" }),
    );
    await create(
      base({
        nombre: "Madrid Norte (cerrada)",
        codigo: "MADN",
        ciudad: "MADRID",
        direccion: "Castellana 200",
        activo: "",
      }),
    );
  });

  it("filtra por ciudad (contiene, sin distinguir mayúsculas), país y activa; cuenta en el servidor", async () => {
    const porCiudad = await list("?ciudad=mad");
    expect(porCiudad.result.rows.map((r: { codigo: string }) => r.codigo).sort()).toEqual(["MAD-1", "MADN"]);
    const activas = await list("?ciudad=mad&activo=si");
    expect(activas.result.rows.map((r: { codigo: string }) => r.codigo)).toEqual(["MAD-1"]);
    const mexico = await list("?pais=MX");
    expect(mexico.result.total).toBe(1);
    expect(mexico.result.rows[0].codigo).toBe("GDL");
    const inventado = await list("?pais=ZZ"); // an unknown value is ignored, not an error
    expect(inventado.state.filtros).toEqual({});
    expect(inventado.result.total).toBe(await count());
  });

  it("busca, ordena y pagina", async () => {
    const data = await list("?q=diagonal&orden=ciudad&dir=desc");
    expect(data.result.rows.map((r: { codigo: string }) => r.codigo)).toEqual(["BCN"]);
    const page = await list("?orden=codigo&por_pagina=2&pagina=2");
    expect(page.result.rows.map((r: { codigo: string }) => r.codigo)).toEqual(["MAD-1", "MADN"]);
  });

  it("exporta CSV con cabeceras en español", async () => {
    // The list's CSV is served at /sucursales/exportar (a resource route calling this same loader).
    const r = await respond(() =>
      listRoute.loader({
        request: request("/sucursales/exportar?pais=ES&formato=csv", { cookie: empleado.cookie }),
        context: app.context(),
        params: {},
      }),
    );
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array(await r.arrayBuffer())).slice(1);
    expect(text.split("\r\n")[0]).toBe(
      '"Nombre";"Código";"Ciudad";"Provincia / Estado";"País";"Responsable";"Teléfono";"Activa"',
    );
    expect(text).toContain('"Barcelona Diagonal";"BCN";"Barcelona";;"España";;;"Sí"');
    expect(text).not.toContain("Guadalajara");
  });
});

describe("ficha", () => {
  it("muestra a las personas de la sucursal, con enlace a su ficha", async () => {
    const s = await rec("BCN");
    await app.db
      .updateTable("usuarios")
      .set({ sucursal_id: s.id, apellidos: "Ruiz", puesto: "Contable" })
      .where("id", "=", empleado.id)
      .execute();
    const data = await json(await load(s.id, empleado.cookie));
    expect(data.secciones.personas).toMatchObject({
      total: 1,
      filtro: `/usuarios?sucursal=${s.id}`,
      rows: [{ id: empleado.id, nombre: "Elena Ruiz", puesto: "Contable", rol: "empleado", activo: true }],
    });
    expect(data.can).toEqual({ crear: false, editar: false, eliminar: false });
    const vacia = await json(await load((await rec("GDL")).id));
    expect(vacia.secciones.personas).toMatchObject({ total: 0, rows: [] });
  });

  it("id mal formado o desconocido: 404", async () => {
    for (const id of ["nope", crypto.randomUUID()]) expect((await load(id)).status).toBe(404);
  });

  it("edita con versión, vuelve a la lista filtrada y deja historial", async () => {
    const s = await rec("GDL");
    const r = await post(
      s.id,
      {
        intent: "guardar",
        version: "1",
        ...base({
          nombre: "Guadalajara Centro",
          codigo: "GDL",
          ciudad: "Guadalajara",
          direccion: "Av. Vallarta 2",
          pais: "MX",
          provincia: "Jalisco",
        }),
      },
      admin.cookie,
      `?volver=${encodeURIComponent("/sucursales?pais=MX")}`,
    );
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/sucursales?pais=MX#contenido");
    expect(await rec("GDL")).toMatchObject({ nombre: "Guadalajara Centro", provincia: "Jalisco", version: 2 });
    const data = await json(await load(s.id));
    expect(data.history[0]).toMatchObject({
      accion: "modificacion",
      cambios: { nombre: { antes: "Guadalajara", despues: "Guadalajara Centro" } },
    });
  });

  it("guardar sobre una versión antigua: 409 con los valores actuales; nada se sobrescribe", async () => {
    const s = await rec("GDL");
    const r = await post(s.id, {
      intent: "guardar",
      version: "1",
      ...base({ nombre: "Pisada", codigo: "GDL", pais: "MX" }),
    });
    expect(r.status).toBe(409);
    const data = await json(r);
    expect(data.result.error[""][0]).toMatch(/Otra persona modificó este registro/);
    expect(data.current).toMatchObject({ nombre: "Guadalajara Centro", version: 2 });
    expect((await rec("GDL")).nombre).toBe("Guadalajara Centro");
  });

  it.each([
    ["empleado", () => empleado],
    ["aprobador", () => aprobador],
  ])("%s: no edita ni elimina (403) y la sucursal queda igual", async (_rol, who) => {
    const s = await rec("GDL");
    expect(
      (
        await post(
          s.id,
          { intent: "guardar", version: String(s.version), ...base({ nombre: "Hackeada", codigo: "GDL", pais: "MX" }) },
          who().cookie,
        )
      ).status,
    ).toBe(403);
    expect((await post(s.id, { intent: "eliminar", version: String(s.version) }, who().cookie)).status).toBe(403);
    expect(await rec("GDL")).toEqual(s);
  });

  it("eliminar: con personas asignadas se rechaza y nada cambia; libre se elimina", async () => {
    const s = await rec("BCN");
    const refused = await post(s.id, { intent: "eliminar", version: String(s.version) });
    expect(refused.status).toBe(409);
    expect((await json(refused)).deleteError).toBe(
      "No se puede eliminar: tiene 1 usuario asociado. Desactívela en su lugar.",
    );
    expect(await rec("BCN")).toEqual(s);
    const libre = await rec("MADN");
    const ok = await post(
      libre.id,
      { intent: "eliminar", version: String(libre.version) },
      admin.cookie,
      `?volver=${encodeURIComponent("/sucursales?ciudad=mad")}`,
    );
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/sucursales?ciudad=mad");
    expect(
      await app.db.selectFrom("sucursales").select("id").where("id", "=", libre.id).executeTakeFirst(),
    ).toBeUndefined();
  });
});
