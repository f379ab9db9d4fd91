import { createTestApp, json, request, respond, type TestApp, type TestUser } from "../support/app";
import { entityPages } from "../support/entity-pages";
import { countRows } from "../support/fixtures";
import { pantallasDe } from "../support/pantallas";

const recordRoute = pantallasDe("departamentos").ficha;

const listRoute = pantallasDe("departamentos").lista;

/** Departamentos through its real loaders and actions: the generic machinery every entity uses. */
let app: TestApp;
let admin: TestUser, empleado: TestUser;

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
});
afterAll(() => app.close());

const { create, list, load, post } = entityPages("/departamentos", { index: listRoute, record: recordRoute }, () => ({
  app,
  cookie: admin.cookie,
}));
const count = () => countRows(app.db, "departamentos");

describe("crear", () => {
  it("crea un departamento, normaliza el código y va a su ficha (volver: la lista filtrada) con un aviso", async () => {
    // Posted from the list with the form open (`?nuevo=1`, a prefill): back to the list without it.
    const r = await create(
      { nombre: "  Compras  ", codigo: "com-1", activo: "on", presupuesto_mensual: "1.234,50" },
      admin.cookie,
      "/departamentos?q=x&orden=codigo&nuevo=1&nuevo.nombre=Compras",
    );
    expect(r.status).toBe(302);
    expect(r.headers.get("Set-Cookie")).toContain("oficina_aviso=");
    const row = await app.db
      .selectFrom("departamentos_vista")
      .selectAll()
      .where("codigo", "=", "COM-1")
      .executeTakeFirstOrThrow();
    // The new row may not be on the list's first page: its record is where it can be seen and
    // corrected, with the focus at its content.
    expect(r.headers.get("Location")).toBe(
      `/departamentos/${row.id}?volver=${encodeURIComponent("/departamentos?q=x&orden=codigo")}#contenido`,
    );
    expect((await load(String(row.id))).status).toBe(200);
    expect(row).toMatchObject({ nombre: "Compras", activo: true, presupuesto_mensual: "1234.50", version: 1 });
  });

  it("rechaza datos no válidos con mensajes en español, 400, y no escribe nada", async () => {
    const before = await count();
    const r = await create({ nombre: "X", codigo: "no vale!", presupuesto_mensual: "12,345", notas: "a".repeat(2001) });
    expect(r.status).toBe(400);
    const { result } = await json(r);
    expect(result.error.nombre[0]).toMatch(/al menos 2 caracteres/);
    expect(result.error.codigo[0]).toMatch(/letras sin tilde, números o guiones/);
    expect(result.error.presupuesto_mensual[0]).toMatch(/hasta 2 decimales/);
    expect(result.error.notas[0]).toMatch(/como máximo 2000/);
    expect(result.initialValue.nombre).toBe("X");
    expect(await count()).toBe(before);
  });

  it("nombre repetido (sin distinguir mayúsculas): mensaje en el campo, nada escrito", async () => {
    await create({ nombre: "Logística", codigo: "LOG" });
    const before = await count();
    const r = await create({ nombre: "LOGÍSTICA", codigo: "LOG2" });
    expect(r.status).toBe(400);
    expect((await json(r)).result.error.nombre[0]).toMatch(/Ya existe un departamento con nombre «LOGÍSTICA»/);
    expect(await count()).toBe(before);
  });

  it("un doble envío del mismo formulario crea un solo registro", async () => {
    const before = await count();
    const form = { nombre: "Doble envío", codigo: "DOB", _envio: crypto.randomUUID() };
    const [a, b] = await Promise.all([create(form), create(form)]);
    expect([a.status, b.status]).toEqual([302, 302]);
    expect(await count()).toBe(before + 1);
  });

  it("un empleado no puede crear: 403 y nada escrito", async () => {
    const before = await count();
    const r = await create({ nombre: "Intruso", codigo: "INT" }, empleado.cookie);
    expect(r.status).toBe(403);
    expect(await count()).toBe(before);
  });

  it("HTML y metacaracteres SQL se guardan tal cual, como texto", async () => {
    const nombre = `<script>alert(1)</script>'; drop table departamentos; --`;
    expect((await create({ nombre, codigo: "XSS" })).status).toBe(302);
    const row = await app.db
      .selectFrom("departamentos")
      .select("nombre")
      .where("codigo", "=", "XSS")
      .executeTakeFirstOrThrow();
    expect(row.nombre).toBe(nombre);
  });
});

describe("lista", () => {
  it("busca, ordena, pagina y cuenta en el servidor", async () => {
    for (let i = 0; i < 12; i++)
      await create({ nombre: `Zona ${String(i).padStart(2, "0")}`, codigo: `ZON-${i}`, activo: i % 2 ? "on" : "" });
    const data = await list("?q=zona&activo=si&orden=codigo&dir=desc&por_pagina=5&pagina=2", empleado.cookie);
    expect(data.result.total).toBe(6);
    expect(data.result.rows.map((row: { codigo: string }) => row.codigo)).toEqual(["ZON-1"]); // text order: ZON-9, 7, 5, 3, 11 | 1
    expect(data.state).toMatchObject({ q: "zona", orden: "codigo", dir: "desc", pagina: 2, porPagina: 5 });
    expect(data.can).toEqual({ crear: false, editar: false, eliminar: false });
  });

  it("exporta CSV (BOM, punto y coma, cabeceras en español) de todo el filtro", async () => {
    const r = await respond(() =>
      listRoute.loader({
        request: request("/departamentos/exportar?q=zona&formato=csv", { cookie: admin.cookie }),
        context: app.context(),
        params: {},
      }),
    );
    expect(r.headers.get("Content-Type")).toContain("text/csv");
    const bytes = new Uint8Array(await r.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 BOM, so Excel reads the accents
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1);
    expect(
      text.startsWith(
        '"Nombre";"Código";"Departamento superior";"Responsable";"Centro de coste";"Presupuesto mensual";"Activo"\r\n',
      ),
    ).toBe(true);
    expect(text.trim().split("\r\n")).toHaveLength(13);
  });

  it("sin sesión redirige a /login con redirectTo", async () => {
    const r = await respond(() =>
      listRoute.loader({ request: request("/departamentos?q=a"), context: app.context(), params: {} }),
    );
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/login?redirectTo=%2Fdepartamentos%3Fq%3Da");
  });
});

describe("ficha", () => {
  const rec = async (codigo: string) =>
    app.db.selectFrom("departamentos").selectAll().where("codigo", "=", codigo).executeTakeFirstOrThrow();

  it("id mal formado o desconocido: 404", async () => {
    for (const id of ["no-es-un-uuid", crypto.randomUUID()]) {
      const r = await load(id);
      expect(r.status).toBe(404);
    }
  });

  it("edita con versión, vuelve a la lista filtrada y deja historial", async () => {
    await create({ nombre: "Calidad", codigo: "CAL" });
    const d = await rec("CAL");
    const r = await post(
      d.id,
      { intent: "guardar", version: "1", nombre: "Calidad y Procesos", codigo: "CAL", activo: "on" },
      admin.cookie,
      `?volver=${encodeURIComponent("/departamentos?q=cal")}`,
    );
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/departamentos?q=cal#contenido");
    expect(await rec("CAL")).toMatchObject({ nombre: "Calidad y Procesos", version: 2 });
    const data = await json(await load(d.id));
    expect(data.history[0]).toMatchObject({
      accion: "modificacion",
      cambios: { nombre: { antes: "Calidad", despues: "Calidad y Procesos" } },
    });
    expect(data.history[0].actor_nombre).toMatch(/Ana/);
  });

  it("guardar sobre una versión antigua se rechaza (409) mostrando los valores actuales; nada se sobrescribe", async () => {
    await create({ nombre: "Auditoría", codigo: "AUD" });
    const d = await rec("AUD");
    expect(
      (await post(d.id, { intent: "guardar", version: "1", nombre: "Auditoría Interna", codigo: "AUD" })).status,
    ).toBe(302);
    const r = await post(d.id, { intent: "guardar", version: "1", nombre: "Auditoría Externa", codigo: "AUD" });
    expect(r.status).toBe(409);
    const data = await json(r);
    expect(data.result.error[""][0]).toMatch(/Otra persona modificó este registro mientras lo editaba/);
    expect(data.current).toMatchObject({ nombre: "Auditoría Interna", version: 2 });
    expect((await rec("AUD")).nombre).toBe("Auditoría Interna");
  });

  it("un ciclo de departamentos superiores se rechaza con mensaje en el campo", async () => {
    await create({ nombre: "Padre", codigo: "PAD" });
    const padre = await rec("PAD");
    await create({ nombre: "Hijo", codigo: "HIJ", departamento_padre_id: padre.id });
    const hijo = await rec("HIJ");
    const r = await post(padre.id, {
      intent: "guardar",
      version: String(padre.version),
      nombre: "Padre",
      codigo: "PAD",
      departamento_padre_id: hijo.id,
    });
    expect(r.status).toBe(400);
    expect((await json(r)).result.error.departamento_padre_id[0]).toBeTruthy();
    expect((await rec("PAD")).departamento_padre_id).toBeNull();
  });

  it("eliminar: referenciado se rechaza con el mensaje y nada cambia; libre se elimina", async () => {
    const padre = await rec("PAD");
    const refused = await post(padre.id, { intent: "eliminar", version: String(padre.version) });
    expect(refused.status).toBe(409);
    expect((await json(refused)).deleteError).toMatch(/^No se puede eliminar: tiene 1 departamento asociado/);
    expect(await rec("PAD")).toBeTruthy();
    const hijo = await rec("HIJ");
    const ok = await post(
      hijo.id,
      { intent: "eliminar", version: String(hijo.version) },
      admin.cookie,
      `?volver=${encodeURIComponent("//evil.example")}`,
    );
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/departamentos");
    expect(
      await app.db.selectFrom("departamentos").select("id").where("id", "=", hijo.id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("una versión que ningún registro puede tener (más de nueve cifras, decimal): se rechaza y nada cambia", async () => {
    const d = await rec("CAL");
    for (const version of ["1000000000000000.0", "99999999999", "1.5", "-1"]) {
      const borrar = await post(d.id, { intent: "eliminar", version });
      expect(borrar.status).toBe(409);
      expect((await json(borrar)).deleteError).toMatch(/^Otra persona modificó este registro/);
      const guardar = await post(d.id, { intent: "guardar", version, nombre: "Otro nombre", codigo: "CAL" });
      expect(guardar.status).toBe(400);
      expect((await json(guardar)).result.error[""][0]).toMatch(/Falta la versión del registro/);
    }
    expect(await rec("CAL")).toEqual(d);
  });

  it("intent desconocido: 400; empleado que intenta editar: 403 y nada cambia", async () => {
    const d = await rec("CAL");
    expect((await post(d.id, { intent: "borrar-todo" })).status).toBe(400);
    expect(
      (
        await post(
          d.id,
          { intent: "guardar", version: String(d.version), nombre: "Hackeado", codigo: "CAL" },
          empleado.cookie,
        )
      ).status,
    ).toBe(403);
    expect((await rec("CAL")).nombre).toBe("Calidad y Procesos");
  });
});
