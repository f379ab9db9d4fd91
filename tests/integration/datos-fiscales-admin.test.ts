import * as root from "~/root";
import * as empresaRoute from "~/routes/empresa";
import { generateValidCif } from "~/lib/nif";
import { createTestApp, json, request, respond, type TestApp, type TestUser } from "../support/app";
import { entityPages } from "../support/entity-pages";
import { tableHashes } from "../support/fixtures";
import { pantallasDe } from "../support/pantallas";

const catRecord = pantallasDe("categorias-fiscales").ficha;
const catList = pantallasDe("categorias-fiscales").lista;
const catCsv = pantallasDe("categorias-fiscales").exportar;
const tiposRecord = pantallasDe("tipos-iva").ficha;
const tiposList = pantallasDe("tipos-iva").lista;
const tiposCsv = pantallasDe("tipos-iva").exportar;

/**
 * The fiscal administration screens (tipos de IVA, IVA por categoría, empresa) through their real
 * loaders and actions, on a real Postgres under RLS: only administradores see them at all.
 */
let app: TestApp;
let admin: TestUser, aprobador: TestUser, empleado: TestUser;

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
});
afterAll(() => app.close());

const NO_ADMINS = [
  ["empleado", () => empleado],
  ["aprobador", () => aprobador],
] as const;

/** «Nothing changed»: the three tables and the history. */
const snapshot = () =>
  tableHashes(app.db, {
    tipos_iva: ["public.tipos_iva", "id"],
    categorias_fiscales: ["public.categorias_fiscales", "id"],
    empresa: ["public.empresa", "id"],
  });

const csvText = async (r: Response) =>
  new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array(await r.arrayBuffer())).slice(1);

describe("tipos de IVA", () => {
  const { create, list, load, post } = entityPages("/tipos-iva", { index: tiposList, record: tiposRecord }, () => ({
    app,
    cookie: admin.cookie,
  }));
  const tipo = (clave: string, desde: string) =>
    app.db
      .selectFrom("tipos_iva")
      .selectAll()
      .where("clave", "=", clave)
      .where("desde", "=", desde)
      .executeTakeFirstOrThrow();
  const count = async () => (await app.db.selectFrom("tipos_iva").select("id").execute()).length;

  it("la lista: los tipos de la migración, del mayor al menor; se crean y editan, no se eliminan", async () => {
    const data = await list("");
    expect(data.can).toEqual({ crear: true, editar: true, eliminar: false });
    expect(data.nuevo.defaults).toEqual({ clave: "21" });
    expect(data.result.total).toBe(7);
    expect(data.result.rows.map((r: { clave: string }) => r.clave).slice(0, 3)).toEqual(["21", "10", "5"]);
    const exento = await list("?clave=exento");
    expect(exento.result.rows.map((r: { nombre: string }) => r.nombre)).toEqual(["Exento"]);
  });

  it("crea un tipo (el porcentaje, el de su clave) y va a su ficha con aviso", async () => {
    const r = await create({ clave: "21", nombre: "General (reforma)", desde: "01/01/2031", hasta: "" });
    expect(r.status).toBe(302);
    const creado = await tipo("21", "2031-01-01");
    expect(r.headers.get("Location")).toBe(
      `/tipos-iva/${creado.id}?volver=${encodeURIComponent("/tipos-iva")}#contenido`,
    );
    expect(creado).toMatchObject({ nombre: "General (reforma)", porcentaje: "21.00", hasta: null, version: 1 });
    expect((await create({ clave: "exento", nombre: "Exento nuevo", desde: "2031-01-01" })).status).toBe(302);
    expect((await tipo("exento", "2031-01-01")).porcentaje).toBe("0.00");
  });

  it("datos no válidos: 400 con mensajes en español en cada campo, nada escrito", async () => {
    const before = await snapshot();
    const r = await create({ clave: "15", nombre: "X", desde: "31/02/2031", hasta: "" });
    expect(r.status).toBe(400);
    const { result } = await json(r);
    expect(result.error.clave[0]).toBe("Elija un tipo");
    expect(result.error.nombre[0]).toBe("Nombre: al menos 2 caracteres");
    expect(result.error.desde[0]).toBe("En vigor desde: escriba una fecha válida, por ejemplo 31/01/2026");
    const alReves = await create({ clave: "10", nombre: "Al revés", desde: "01/06/2031", hasta: "31/05/2031" });
    expect(alReves.status).toBe(400);
    expect((await json(alReves)).result.error.hasta[0]).toBe(
      "En vigor hasta: no puede ser anterior a la fecha «En vigor desde»",
    );
    expect(await snapshot()).toEqual(before);
  });

  it("el mismo tipo con la misma fecha de entrada en vigor: 400 que dice qué cambiar, nada escrito", async () => {
    const before = await count();
    const r = await create({ clave: "21", nombre: "Repetido", desde: "2031-01-01" });
    expect(r.status).toBe(400);
    expect((await json(r)).result.error[""][0]).toBe(
      "Ya existe un tipo de IVA con estos valores de «Tipo» y «En vigor desde»: cambie alguno de ellos",
    );
    expect(await count()).toBe(before);
  });

  it("la ficha edita nombre y vigencia; el tipo, no (se ignora si se envía); deja historial", async () => {
    const t = await tipo("21", "2031-01-01");
    const data = await json(await load(t.id));
    expect(data.campos).toEqual(["nombre", "desde", "hasta"]);
    expect(data.can).toEqual({ crear: true, editar: true, eliminar: false });
    const r = await post(t.id, {
      intent: "guardar",
      version: "1",
      clave: "4",
      porcentaje: "4",
      nombre: "General 2031",
      desde: "01/01/2031",
      hasta: "31/12/2035",
    });
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/tipos-iva#contenido");
    expect(
      await app.db.selectFrom("tipos_iva").selectAll().where("id", "=", t.id).executeTakeFirstOrThrow(),
    ).toMatchObject({ clave: "21", porcentaje: "21.00", nombre: "General 2031", hasta: "2035-12-31", version: 2 });
    expect((await json(await load(t.id))).history[0]).toMatchObject({
      accion: "modificacion",
      cambios: { nombre: { antes: "General (reforma)", despues: "General 2031" } },
    });
  });

  it("eliminar: 403 también para un administrador (los gastos usan el tipo), nada cambia", async () => {
    const t = await tipo("21", "2031-01-01");
    const before = await snapshot();
    expect((await post(t.id, { intent: "eliminar", version: String(t.version) })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it("exporta CSV con cabeceras en español", async () => {
    const r = await respond(() =>
      tiposCsv.loader({
        request: request("/tipos-iva/exportar?clave=4", { cookie: admin.cookie }),
        context: app.context(),
        params: {},
      }),
    );
    expect(r.status).toBe(200);
    // Named as its address: «tipos de IVA» has spaces, «categorías» an accent.
    expect(r.headers.get("Content-Disposition")).toMatch(/^attachment; filename="tipos-iva-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await csvText(r)).split("\r\n");
    expect(lines[0]).toBe('"Nombre";"Tipo";"En vigor desde";"En vigor hasta"');
    expect(lines[1]).toBe('"Superreducido";"4 %";"01/01/1995";');
  });

  it.each(NO_ADMINS)(
    "%s: la lista, la ficha, el CSV y cada envío no existen para él (404), nada cambia",
    async (_r, who) => {
      const cookie = who().cookie;
      const t = await tipo("21", "2031-01-01");
      const before = await snapshot();
      const listed = await respond(() =>
        tiposList.loader({ request: request("/tipos-iva", { cookie }), context: app.context(), params: {} }),
      );
      expect(listed.status).toBe(404);
      expect((await load(t.id, cookie)).status).toBe(404);
      const csv = await respond(() =>
        tiposCsv.loader({ request: request("/tipos-iva/exportar", { cookie }), context: app.context(), params: {} }),
      );
      expect(csv.status).toBe(404);
      expect((await create({ clave: "21", nombre: "Intruso", desde: "2040-01-01" }, cookie)).status).toBe(404);
      const edit = { intent: "guardar", version: String(t.version), nombre: "Hackeado", desde: "2031-01-01" };
      expect((await post(t.id, edit, cookie)).status).toBe(404);
      expect((await post(t.id, { intent: "eliminar", version: String(t.version) }, cookie)).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe("IVA por categoría", () => {
  const { create, list, load, post } = entityPages(
    "/categorias-fiscales",
    { index: catList, record: catRecord },
    () => ({ app, cookie: admin.cookie }),
  );
  const categoria = (c: string) =>
    app.db.selectFrom("categorias_fiscales").selectAll().where("categoria", "=", c).executeTakeFirstOrThrow();

  it("la lista: una fila por categoría; se editan, no se crean ni se eliminan", async () => {
    const data = await list("");
    expect(data.can).toEqual({ crear: false, editar: true, eliminar: false });
    expect(data.result.total).toBe(14);
    const noDeducibles = await list("?deducibilidad=no_deducible");
    expect(noDeducibles.result.rows.map((r: { categoria: string }) => r.categoria)).toEqual(["atenciones_clientes"]);
    const buscada = await list(`?q=${encodeURIComponent("Telefonía")}`);
    expect(buscada.result.rows.map((r: { categoria: string }) => r.categoria)).toEqual(["telefonia_internet"]);
  });

  it("guarda el tipo habitual, la deducibilidad y la cuenta de gasto; la categoría no cambia aunque se envíe; deja historial", async () => {
    const c = await categoria("formacion");
    expect(c.cuenta_gasto).toBe("629");
    const r = await post(c.id, {
      intent: "guardar",
      version: String(c.version),
      categoria: "otros",
      tipo_iva: "exento",
      deducibilidad: "no_deducible",
      cuenta_gasto: "64900001",
    });
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/categorias-fiscales#contenido");
    expect(await categoria("formacion")).toMatchObject({
      id: c.id,
      tipo_iva: "exento",
      deducibilidad: "no_deducible",
      cuenta_gasto: "64900001",
      version: c.version + 1,
    });
    expect((await json(await load(c.id))).history[0]).toMatchObject({
      accion: "modificacion",
      cambios: { tipo_iva: { antes: "21", despues: "exento" } },
    });
  });

  it("valores que no están en la lista: 400 con mensajes en español, nada escrito", async () => {
    const c = await categoria("comidas");
    const before = await snapshot();
    const r = await post(c.id, {
      intent: "guardar",
      version: String(c.version),
      tipo_iva: "15",
      deducibilidad: "",
      cuenta_gasto: "7001",
    });
    expect(r.status).toBe(400);
    const { result } = await json(r);
    expect(result.error.tipo_iva[0]).toBe("Elija un tipo de IVA");
    expect(result.error.deducibilidad[0]).toBe("Elija si el IVA es deducible");
    expect(result.error.cuenta_gasto[0]).toBe(
      "Cuenta de gasto: de 3 a 8 cifras del grupo 6 del Plan General Contable, por ejemplo 629 o 62900001",
    );
    expect(await snapshot()).toEqual(before);
  });

  it("crear o eliminar: 403 también para un administrador, nada cambia", async () => {
    const c = await categoria("comidas");
    const before = await snapshot();
    expect(
      (await create({ categoria: "otros", tipo_iva: "21", deducibilidad: "factura_empresa", _envio: "x" })).status,
    ).toBe(403);
    expect((await post(c.id, { intent: "eliminar", version: String(c.version) })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it("exporta CSV con las etiquetas de las listas", async () => {
    const r = await respond(() =>
      catCsv.loader({
        request: request("/categorias-fiscales/exportar?deducibilidad=no_deducible", { cookie: admin.cookie }),
        context: app.context(),
        params: {},
      }),
    );
    expect(r.headers.get("Content-Disposition")).toMatch(/filename="categorias-fiscales-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await csvText(r)).split("\r\n");
    expect(lines[0]).toBe('"Categoría";"Tipo de IVA habitual";"IVA deducible";"Cuenta de gasto"');
    expect(lines.slice(1).filter(Boolean)).toEqual([
      '"Atenciones a clientes";"10 %";"No deducible";627',
      expect.anything(),
    ]);
  });

  it.each(NO_ADMINS)(
    "%s: la lista, la ficha, el CSV y cada envío no existen para él (404), nada cambia",
    async (_r, who) => {
      const cookie = who().cookie;
      const c = await categoria("comidas");
      const before = await snapshot();
      const listed = await respond(() =>
        catList.loader({ request: request("/categorias-fiscales", { cookie }), context: app.context(), params: {} }),
      );
      expect(listed.status).toBe(404);
      expect((await load(c.id, cookie)).status).toBe(404);
      const csv = await respond(() =>
        catCsv.loader({
          request: request("/categorias-fiscales/exportar", { cookie }),
          context: app.context(),
          params: {},
        }),
      );
      expect(csv.status).toBe(404);
      const edit = {
        intent: "guardar",
        version: String(c.version),
        tipo_iva: "4",
        deducibilidad: "no_deducible",
        cuenta_gasto: "629",
      };
      expect((await post(c.id, edit, cookie)).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe("empresa", () => {
  const at = (cookie: string, form?: Record<string, string>) => ({
    request: request("/empresa", { cookie, form }),
    context: app.context(),
    params: {},
  });
  const load = (cookie = admin.cookie) => respond(() => empresaRoute.loader(at(cookie)));
  const post = (form: Record<string, string>, cookie = admin.cookie) =>
    respond(() => empresaRoute.action(at(cookie, form)));
  const fila = () => app.db.selectFrom("empresa").selectAll().executeTakeFirstOrThrow();
  const cif = generateValidCif(4_812_345);
  const datos = (o: Record<string, string> = {}) => ({
    razon_social: "Papelería Ejemplo, S.L.",
    nif: cif,
    direccion: "Calle de Alcalá 120",
    codigo_postal: "28009",
    ciudad: "Madrid",
    provincia: "Madrid",
    pais: "ES",
    ...o,
  });
  /** The company's rate and daily amounts, as the form sends them (stored as they are by default). */
  const viajes = {
    tarifa_km: "0,26",
    dieta_espana_sin_pernocta: "26,67",
    dieta_espana_con_pernocta: "53,34",
    dieta_extranjero_sin_pernocta: "48,08",
    dieta_extranjero_con_pernocta: "91,35",
  };

  it("en /empresa, sin id: la única fila, que se edita; ni se crea ni se elimina", async () => {
    const r = await load();
    expect(r.status).toBe(200);
    const data = await json(r);
    expect(data.record.id).toBe((await fila()).id);
    expect(data.can).toEqual({ crear: false, editar: true, eliminar: false });
    expect(data.volver).toBe("/empresa");
  });

  it("guarda los datos con el NIF normalizado, vuelve a /empresa y deja historial", async () => {
    const { version } = await fila();
    const escrito = `${cif.slice(0, 1).toLowerCase()}-${cif.slice(1, 5)}.${cif.slice(5)} `;
    const r = await post({ intent: "guardar", version: String(version), ...datos({ nif: escrito }), ...viajes });
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/empresa#contenido");
    expect(await fila()).toMatchObject({ ...datos(), version: version + 1 });
    const history = (await json(await load())).history;
    expect(history[0]).toMatchObject({ accion: "modificacion", cambios: { nif: { antes: null, despues: cif } } });
  });

  it("un NIF con el dígito de control mal, un código postal español sin 5 cifras, sin razón social: 400, nada escrito", async () => {
    const { version } = await fila();
    const malo = cif.slice(0, 8) + String((Number(cif[8]) + 1) % 10);
    const before = await snapshot();
    const r = await post({
      intent: "guardar",
      version: String(version),
      ...datos({ nif: malo, codigo_postal: "2809", razon_social: "" }),
    });
    expect(r.status).toBe(400);
    const { result } = await json(r);
    expect(result.error.nif[0]).toBe(
      `El carácter de control del CIF no es correcto: para ${cif.slice(0, 8)} es ${cif[8]}.`,
    );
    expect(result.error.codigo_postal[0]).toBe("Código postal: 5 cifras, por ejemplo 28009");
    expect(result.error.razon_social[0]).toBe("Escriba la razón social");
    const texto = await post({ intent: "guardar", version: String(version), ...datos({ nif: "no es un nif" }) });
    expect((await json(texto)).result.error.nif[0]).toMatch(/^Escriba un NIF español válido/);
    expect(await snapshot()).toEqual(before);
  });

  it("guardar sobre una versión antigua: 409 con los valores actuales; eliminar: 403", async () => {
    const actual = await fila();
    const before = await snapshot();
    const r = await post({
      intent: "guardar",
      version: String(actual.version - 1),
      ...datos({ ciudad: "Getafe" }),
      ...viajes,
    });
    expect(r.status).toBe(409);
    expect((await json(r)).current).toMatchObject({ ciudad: "Madrid", version: actual.version });
    expect((await post({ intent: "eliminar", version: String(actual.version) })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it.each(NO_ADMINS)("%s: /empresa no existe para él (404), tampoco al enviar; nada cambia", async (_r, who) => {
    const { version } = await fila();
    const before = await snapshot();
    expect((await load(who().cookie)).status).toBe(404);
    const r = await post({ intent: "guardar", version: String(version), ...datos({ ciudad: "Toledo" }) }, who().cookie);
    expect(r.status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });
});

describe("la navegación", () => {
  const navegacion = async (cookie: string) =>
    (
      await json(
        await respond(() => root.loader({ request: request("/", { cookie }), context: app.context(), params: {} })),
      )
    ).navegacion as { principal: { to: string }[]; grupos: { secciones: { to: string }[] }[] };
  /** Every section a person is shown, in view or in a group, in the navigation's order. */
  const sections = async (cookie: string) => {
    const n = await navegacion(cookie);
    return [...n.principal, ...n.grupos.flatMap((g) => g.secciones)].map((s) => s.to);
  };

  it("muestra los enlaces de administración fiscal y los libros solo a los administradores", async () => {
    const admin_ = await sections(admin.cookie);
    expect(admin_).toEqual(
      expect.arrayContaining(["/tipos-iva", "/categorias-fiscales", "/empresa", "/libro-iva", "/asientos"]),
    );
    // The libro diario right after the libro de IVA.
    expect(admin_.indexOf("/asientos")).toBe(admin_.indexOf("/libro-iva") + 1);
    for (const who of [empleado, aprobador]) {
      const to = await sections(who.cookie);
      // An empleado is shown only what they can change; an aprobador also the reference data.
      if (who === empleado) expect(to).toEqual(["/gastos", "/viajes"]);
      else expect(to).toContain("/departamentos");
      for (const path of ["/tipos-iva", "/categorias-fiscales", "/empresa", "/libro-iva", "/asientos"])
        expect(to).not.toContain(path);
    }
  });
});
