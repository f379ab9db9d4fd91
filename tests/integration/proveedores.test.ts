import { createTestApp, json, type TestApp, type TestUser } from "../support/app";
import { entityPages } from "../support/entity-pages";
import { countRows } from "../support/fixtures";
import { pantallasDe } from "../support/pantallas";

const recordRoute = pantallasDe("proveedores").ficha;

const listRoute = pantallasDe("proveedores").lista;

/** Proveedores through their real loaders and actions, on a real Postgres under RLS. */
let app: TestApp;
let admin: TestUser, aprobador: TestUser, empleado: TestUser;

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
});
afterAll(() => app.close());

const { create, list, load, post } = entityPages("/proveedores", { index: listRoute, record: recordRoute }, () => ({
  app,
  cookie: admin.cookie,
}));
const count = () => countRows(app.db, "proveedores");
/** A supplier as its view reads it (with its IBAN and notes, kept apart in proveedores_pago). */
const byNif = async (nif: string, pais = "ES") => {
  const row = await app.db
    .selectFrom("proveedores_vista")
    .selectAll()
    .where("nif", "=", nif)
    .where("pais", "=", pais)
    .executeTakeFirstOrThrow();
  return { ...row, id: String(row.id) };
};
const base = (o: Record<string, string> = {}) => ({
  razon_social: "Suministros Norte SL",
  tipo_persona: "empresa",
  pais: "ES",
  nif: "B12345674",
  categoria: "suministros",
  activo: "on",
  ...o,
});
/** Creates and expects success; returns the stored row. */
async function created(form: Record<string, string>, cookie = admin.cookie) {
  const r = await create(form, cookie);
  if (r.status !== 302) throw new Error(`Esperaba 302, llegó ${r.status}: ${await r.text()}`);
  return byNif(
    form
      .nif!.toUpperCase()
      .replace(/[\s.-]/g, "")
      .replace(/^ES(?=\w{9}$)/, ""),
    form.pais,
  );
}

describe("crear: NIF por país, IBAN, web", () => {
  it("normaliza el NIF español (mayúsculas, sin espacios, puntos, guiones ni prefijo ES), el IBAN y la web", async () => {
    const r = await create(
      base({
        nif: " es b-12.345.674 ",
        iban: "es91 2100 0418 4502 0005 1332",
        sitio_web: "www.suministros-norte.es",
        email: "Pedidos@Norte.ES",
        telefono: "+34 600 000 000",
      }),
      admin.cookie,
      "/proveedores?categoria=suministros",
    );
    expect(r.status).toBe(302);
    // To the new record, whose «Volver» is the list as it was.
    const { id } = await byNif("B12345674");
    expect(r.headers.get("Location")).toBe(
      `/proveedores/${id}?volver=${encodeURIComponent("/proveedores?categoria=suministros")}#contenido`,
    );
    expect(await byNif("B12345674")).toMatchObject({
      razon_social: "Suministros Norte SL",
      iban: "ES9121000418450200051332",
      sitio_web: "https://www.suministros-norte.es",
      email: "pedidos@norte.es",
      categoria: "suministros",
      activo: true,
    });
  });

  it.each([
    ["DNI", { nif: "12345678Z", tipo_persona: "persona_fisica", razon_social: "María Pérez" }],
    ["NIE", { nif: "x-1234567-l", tipo_persona: "persona_fisica", razon_social: "John Smith" }],
    ["CIF de sociedad anónima", { nif: "A58818501", razon_social: "Grandes Almacenes SA" }],
    ["RFC de persona moral (MX)", { pais: "MX", nif: "ABC-680524-P76", razon_social: "Comercializadora ABC SA de CV" }],
    [
      "RFC de persona física (MX)",
      { pais: "MX", nif: "gode 561231 gr8", tipo_persona: "persona_fisica", razon_social: "Eduardo Gómez" },
    ],
    ["ID fiscal de otro país (genérico)", { pais: "FR", nif: "FR 12 345678901", razon_social: "Fournitures SARL" }],
  ])("acepta un %s válido", async (_what, o) => {
    const row = await created(base(o));
    expect(row.nif).toMatch(/^[A-Z0-9]+$/);
  });

  it.each([
    [
      "DNI con letra equivocada",
      { nif: "12345678A", tipo_persona: "persona_fisica" },
      /La letra del DNI no es correcta: para 12345678 es la Z/,
    ],
    ["NIE con letra equivocada", { nif: "X1234567A" }, /La letra del NIE no es correcta/],
    [
      "CIF con dígito de control equivocado",
      { nif: "B12345670" },
      /carácter de control del CIF no es correcto: para B1234567 es 4/,
    ],
    ["NIF español sin forma conocida", { nif: "123" }, /Escriba un NIF español válido/],
    [
      "RFC con fecha inexistente",
      { pais: "MX", nif: "GODE561331GR8", tipo_persona: "persona_fisica" },
      /La fecha del RFC \(AAMMDD\) no es una fecha válida/,
    ],
    [
      "RFC de persona física para una empresa",
      { pais: "MX", nif: "GODE561231GR8", tipo_persona: "empresa" },
      /El RFC de una empresa \(persona moral\) tiene 12 caracteres/,
    ],
    [
      "RFC de empresa para una persona física",
      { pais: "MX", nif: "ABC680524P76", tipo_persona: "persona_fisica" },
      /El RFC de una persona física tiene 13 caracteres/,
    ],
    ["ID genérico demasiado corto", { pais: "FR", nif: "A1" }, /entre 3 y 20 caracteres/],
  ])("rechaza %s con un mensaje en el campo NIF, sin escribir nada", async (_what, o, message) => {
    const before = await count();
    const r = await create(base({ razon_social: "No debe guardarse", ...o }));
    expect(r.status).toBe(400);
    const { result } = await json(r);
    expect(result.error.nif[0]).toMatch(message);
    expect(await count()).toBe(before);
  });

  it("todos los errores a la vez (el NIF también), con IBAN y web no válidos; nada escrito", async () => {
    const before = await count();
    const r = await create({
      razon_social: "",
      tipo_persona: "empresa",
      pais: "ES",
      nif: "12345678A",
      iban: "ES91 2100 0418 4502 0005 1333",
      sitio_web: "javascript:alert(1)",
      categoria: "nada",
    });
    expect(r.status).toBe(400);
    const { result } = await json(r);
    expect(Object.keys(result.error).sort()).toEqual(["categoria", "iban", "nif", "razon_social", "sitio_web"]);
    expect(result.error.iban[0]).toMatch(/Los dígitos de control del IBAN \(ES91\) no cuadran/);
    expect(result.error.sitio_web[0]).toMatch(/dirección web/);
    expect(await count()).toBe(before);
  });

  it("un IBAN de un país sin IBAN (México) se rechaza explicando qué hacer", async () => {
    const r = await create(base({ pais: "MX", nif: "XYZ010101AB1", iban: "MX12 3456 7890 1234 5678" }));
    expect(r.status).toBe(400);
    expect((await json(r)).result.error.iban[0]).toMatch(/no usan IBAN/);
  });

  it("(país, NIF) repetido: error en el NIF con enlace al proveedor existente; nada escrito", async () => {
    const existing = await byNif("B12345674");
    const before = await count();
    const r = await create(base({ razon_social: "Copia", nif: "ESB-12345674" }));
    expect(r.status).toBe(400);
    const data = await json(r);
    expect(data.result.error.nif[0]).toBe("Ya existe un proveedor con NIF / RFC / ID fiscal «B12345674»");
    expect(data.existente).toEqual({
      campo: "nif",
      href: `/proveedores/${existing.id}`,
      nombre: "Suministros Norte SL",
    });
    expect(await count()).toBe(before);
    // The same tax id in another country is another supplier.
    expect((await create(base({ razon_social: "Otro país", pais: "PT", nif: "B12345674" }))).status).toBe(302);
  });

  it("un doble envío crea un solo proveedor", async () => {
    const before = await count();
    const form = base({ razon_social: "Doble", nif: "B86543212", _envio: crypto.randomUUID() });
    const [a, b] = await Promise.all([create(form), create(form)]);
    expect([a.status, b.status]).toEqual([302, 302]);
    expect(await count()).toBe(before + 1);
  });
});

describe("permisos", () => {
  it("empleado: ve la lista; no crea, no edita, no elimina (403) y nada cambia", async () => {
    const data = await list("", empleado.cookie);
    expect(data.can).toEqual({ crear: false, editar: false, eliminar: false });
    expect(data.result.total).toBe(await count());
    const before = await count();
    expect((await create(base({ razon_social: "Intruso", nif: "B11111119" }), empleado.cookie)).status).toBe(403);
    expect(await count()).toBe(before);
    const p = await byNif("B12345674");
    expect(
      (
        await post(
          p.id,
          { intent: "guardar", version: String(p.version), ...base({ razon_social: "Cambiado" }) },
          empleado.cookie,
        )
      ).status,
    ).toBe(403);
    expect((await post(p.id, { intent: "eliminar", version: String(p.version) }, empleado.cookie)).status).toBe(403);
    expect(await byNif("B12345674")).toEqual(p);
  });

  it("aprobador: crea y edita, pero no elimina (403, sigue ahí)", async () => {
    const data = await list("", aprobador.cookie);
    expect(data.can).toEqual({ crear: true, editar: true, eliminar: false });
    const p = await created(
      base({ razon_social: "Logística Sur", nif: "B11111119", categoria: "logistica" }),
      aprobador.cookie,
    );
    const r = await post(
      p.id,
      {
        intent: "guardar",
        version: "1",
        ...base({ razon_social: "Logística Sur SL", nif: "B11111119", categoria: "logistica" }),
      },
      aprobador.cookie,
    );
    expect(r.status).toBe(302);
    expect(await byNif("B11111119")).toMatchObject({ razon_social: "Logística Sur SL", version: 2 });
    expect((await json(await load(p.id, aprobador.cookie))).can).toEqual({
      crear: true,
      editar: true,
      eliminar: false,
    });
    expect((await post(p.id, { intent: "eliminar", version: "2" }, aprobador.cookie)).status).toBe(403);
    expect(await byNif("B11111119")).toBeTruthy();
  });
});

describe("lista", () => {
  it("filtra por categoría, país y activo; busca por NIF", async () => {
    const p = await byNif("B11111119");
    await post(p.id, {
      intent: "guardar",
      version: String(p.version),
      ...base({ razon_social: "Logística Sur SL", nif: "B11111119", categoria: "logistica", activo: "" }),
    });
    expect((await list("?categoria=logistica")).result.rows.map((r: { nif: string }) => r.nif)).toEqual(["B11111119"]);
    expect((await list("?categoria=logistica&activo=si")).result.total).toBe(0);
    const mx = await list("?pais=MX&orden=nif");
    expect(mx.result.rows.map((r: { nif: string }) => r.nif)).toEqual(["ABC680524P76", "GODE561231GR8"]);
    expect((await list("?q=x1234567")).result.rows.map((r: { nif: string }) => r.nif)).toEqual(["X1234567L"]);
  });

  it("su dirección en mayúsculas es la misma pantalla, como cualquier ruta de Remix", async () => {
    const enMayusculas = entityPages(
      "/Proveedores",
      { index: pantallasDe("Proveedores").lista, record: recordRoute },
      () => ({
        app,
        cookie: admin.cookie,
      }),
    );
    expect((await enMayusculas.list("?q=x1234567")).result.rows.map((r: { nif: string }) => r.nif)).toEqual([
      "X1234567L",
    ]);
  });
});

describe("ficha", () => {
  it("muestra cuántos gastos tiene y su total (los que el usuario puede ver)", async () => {
    const p = await byNif("B12345674");
    const empty = await json(await load(p.id));
    expect(empty.secciones.gastos).toMatchObject({ total: 0, importe: "0", todos: true });
    const { id: departamento_id } = await app.db
      .insertInto("departamentos")
      .values({ nombre: "Compras", codigo: "COM" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const { id: sucursal_id } = await app.db
      .insertInto("sucursales")
      .values({ nombre: "Central", codigo: "CEN", direccion: "Calle 1", ciudad: "Madrid" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const gasto = (solicitante_id: string, importe: string) => ({
      descripcion: "Material",
      fecha_gasto: new Date().toISOString().slice(0, 10),
      categoria: "material_oficina",
      importe,
      metodo_pago: "efectivo",
      proveedor_id: p.id,
      solicitante_id,
      departamento_id,
      sucursal_id,
    });
    await app.db
      .insertInto("gastos")
      .values([gasto(empleado.id, "100.10"), gasto(empleado.id, "20.00"), gasto(admin.id, "1000.00")])
      .execute();
    expect((await json(await load(p.id))).secciones.gastos).toEqual({
      total: 3,
      importe: "1120.10",
      todos: true,
      filtro: `/gastos?proveedor=${p.id}`,
    });
    expect((await json(await load(p.id, empleado.cookie))).secciones.gastos).toEqual({
      total: 2,
      importe: "120.10",
      todos: false,
      filtro: `/gastos?proveedor=${p.id}`,
    });
  });

  it("eliminar un proveedor con gastos se rechaza con el mensaje y nada cambia", async () => {
    const p = await byNif("B12345674");
    const r = await post(p.id, { intent: "eliminar", version: String(p.version) });
    expect(r.status).toBe(409);
    expect((await json(r)).deleteError).toBe(
      "No se puede eliminar: tiene 3 gastos asociados. Desactívelo en su lugar.",
    );
    expect(await byNif("B12345674")).toEqual(p);
  });

  it("eliminar uno sin gastos (administrador)", async () => {
    const p = await byNif("B11111119");
    const r = await post(p.id, { intent: "eliminar", version: String(p.version) });
    expect(r.status).toBe(302);
    expect(
      await app.db.selectFrom("proveedores").select("id").where("id", "=", p.id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("editar con un NIF que ya tiene otro proveedor: error con enlace al otro (no a sí mismo)", async () => {
    const other = await byNif("B12345674");
    const p = await byNif("12345678Z");
    const r = await post(p.id, {
      intent: "guardar",
      version: String(p.version),
      ...base({ razon_social: "María Pérez", tipo_persona: "empresa", nif: "b12345674" }),
    });
    expect(r.status).toBe(400);
    expect((await json(r)).existente).toEqual({
      campo: "nif",
      href: `/proveedores/${other.id}`,
      nombre: "Suministros Norte SL",
    });
    expect(await byNif("12345678Z")).toEqual(p);
  });

  it("guardar sobre una versión antigua: 409 con los valores actuales; nada se sobrescribe", async () => {
    const p = await byNif("A58818501");
    expect(
      (
        await post(p.id, {
          intent: "guardar",
          version: "1",
          ...base({ razon_social: "Grandes Almacenes SAU", nif: "A58818501" }),
        })
      ).status,
    ).toBe(302);
    const r = await post(p.id, {
      intent: "guardar",
      version: "1",
      ...base({ razon_social: "Pisado", nif: "A58818501" }),
    });
    expect(r.status).toBe(409);
    expect((await json(r)).current).toMatchObject({ razon_social: "Grandes Almacenes SAU", version: 2 });
    expect((await byNif("A58818501")).razon_social).toBe("Grandes Almacenes SAU");
  });
});
