import { sql } from "kysely";
import * as usuarioRoute from "~/routes/usuarios.$id";
import { formatIban, generateValidEsIban } from "~/lib/iban";
import { generateValidCif, generateValidDni, generateValidNie } from "~/lib/nif";
import { createTestApp, json, ORIGIN, request, respond, type TestApp, type TestUser } from "../support/app";
import { entityPages } from "../support/entity-pages";
import { setProfile, tableHashes } from "../support/fixtures";
import { pantallasDe } from "../support/pantallas";

const cuentasRecord = pantallasDe("cuentas-empresa").ficha;
const cuentasList = pantallasDe("cuentas-empresa").lista;
const cuentasCsv = pantallasDe("cuentas-empresa").exportar;

/**
 * The company's accounts (/cuentas-empresa, administradores only) and a person's own account on
 * their profile («Datos bancarios»: the person and the administradores), through their real
 * loaders and actions on a real Postgres under RLS.
 */
let app: TestApp;
let admin: TestUser, aprobador: TestUser, empleado: TestUser, colega: TestUser;

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
  colega = await app.createUser({ nombre: "Óscar", rol: "empleado" });
  await setProfile(app.db, empleado.id, { aprobador_id: aprobador.id });
});
afterAll(() => app.close());

const snapshot = () =>
  tableHashes(app.db, {
    cuentas_empresa: ["public.cuentas_empresa", "id"],
    datos_bancarios: ["public.datos_bancarios", "id"],
  });

/** The same IBAN with its check digits off by one: the right shape, a wrong sum. */
const alterado = (iban: string) =>
  `${iban.slice(0, 2)}${String(Number(iban.slice(2, 4)) + 1).padStart(2, "0")}${iban.slice(4)}`;

async function flashOf(r: Response) {
  const cookie = r.headers.get("Set-Cookie")!.split(";")[0]!;
  return (await app.services.flash.take(new Request(ORIGIN, { headers: { Cookie: cookie } }))).flash;
}

describe("cuentas de la empresa", () => {
  const { create, list, load, post } = entityPages(
    "/cuentas-empresa",
    { index: cuentasList, record: cuentasRecord },
    () => ({ app, cookie: admin.cookie }),
  );
  const IBAN = generateValidEsIban(7001);
  const cuenta = (iban = IBAN) =>
    app.db.selectFrom("cuentas_empresa").selectAll().where("iban", "=", iban).executeTakeFirstOrThrow();
  const datos = (o: Record<string, string> = {}) => ({
    nombre: "Cuenta de pagos",
    iban: formatIban(IBAN).toLowerCase(),
    bic: "caixesbbxxx",
    sufijo: "000",
    formato: "pain.001.001.09",
    activa: "on",
    _envio: crypto.randomUUID(),
    ...o,
  });

  it("la lista: se crean y se editan, no se eliminan; una cuenta nueva empieza con sufijo 000, formato EPC y activa", async () => {
    const data = await list("");
    expect(data.can).toEqual({ crear: true, editar: true, eliminar: false });
    expect(data.nuevo.defaults).toEqual({ sufijo: "000", formato: "pain.001.001.09", activa: "on" });
  });

  it("guarda una cuenta con el IBAN sin espacios y el BIC en mayúsculas, y va a su ficha", async () => {
    const r = await create(datos());
    expect(r.status).toBe(302);
    const creada = await cuenta();
    expect(r.headers.get("Location")).toBe(
      `/cuentas-empresa/${creada.id}?volver=${encodeURIComponent("/cuentas-empresa")}#contenido`,
    );
    expect(creada).toMatchObject({
      nombre: "Cuenta de pagos",
      iban: IBAN,
      bic: "CAIXESBBXXX",
      sufijo: "000",
      formato: "pain.001.001.09",
      activa: true,
      version: 1,
    });
    expect((await flashOf(r))?.message).toBe("Cuenta de la empresa creada: Cuenta de pagos");
    expect((await list("?activa=true")).result.rows.map((f: { id: string }) => f.id)).toContain(creada.id);
  });

  it("datos no válidos: 400 con un mensaje en español en cada campo, nada escrito", async () => {
    const before = await snapshot();
    const r = await create(
      datos({ nombre: "", iban: alterado(IBAN), bic: "CAIX", sufijo: "00", formato: "pain.001.001.02" }),
    );
    expect(r.status).toBe(400);
    const { error } = (await json(r)).result;
    expect(error.nombre[0]).toBe("Escriba el nombre");
    expect(error.iban[0]).toMatch(/^Los dígitos de control del IBAN \(ES\d{2}\) no cuadran con el número de cuenta/);
    expect(error.bic[0]).toBe("BIC: 8 u 11 letras y cifras, por ejemplo CAIXESBBXXX");
    expect(error.sufijo[0]).toBe("Sufijo: tres letras o cifras, por ejemplo 000");
    expect(error.formato[0]).toBe("Elija el formato del fichero");
    const sinIban = await create(datos({ iban: "  " }));
    expect((await json(sinIban)).result.error.iban[0]).toBe("Escriba el IBAN");
    const mexicano = await create(datos({ iban: "MX12345678901234567" }));
    expect((await json(mexicano)).result.error.iban[0]).toMatch(/^Las cuentas de MX no usan IBAN/);
    // A valid IBAN outside SEPA (Brazil): no remesa could leave from it, so the database refuses it.
    const brasileno = await create(datos({ nombre: "Brasil", iban: "BR1800360305000010009795493C1" }));
    expect(brasileno.status).toBe(400);
    expect((await json(brasileno)).result.error.iban[0]).toBe(
      "IBAN de fuera de la zona SEPA (BR): las remesas solo pueden salir de una cuenta de la zona SEPA.",
    );
    expect(await snapshot()).toEqual(before);
  });

  it("el mismo IBAN otra vez: 400 que lo dice en su campo, nada escrito", async () => {
    const before = await snapshot();
    const r = await create(datos({ nombre: "Repetida", iban: IBAN }));
    expect(r.status).toBe(400);
    // Written as it reads everywhere else, in groups of four; with the link to the account that has it.
    const respuesta = await json(r);
    expect(respuesta.result.error.iban[0]).toBe(`Ya existe una cuenta de la empresa con IBAN «${formatIban(IBAN)}»`);
    expect(formatIban(IBAN)).toMatch(/^ES\d\d \d{4} /);
    expect(respuesta.existente).toMatchObject({
      campo: "iban",
      href: expect.stringMatching(/^\/cuentas-empresa\/[0-9a-f-]{36}$/),
    });
    expect(await snapshot()).toEqual(before);
  });

  it("la ficha: edita y deja historial; el IBAN se lee en grupos de cuatro; eliminar, 403", async () => {
    const c = await cuenta();
    const data = await json(await load(c.id));
    expect(data.can).toEqual({ crear: true, editar: true, eliminar: false });
    const r = await post(c.id, {
      intent: "guardar",
      version: String(c.version),
      ...datos({ nombre: "Cuenta de pagos (antigua)", iban: IBAN, bic: "", sufijo: "a01", formato: "pain.001.001.03" }),
      activa: "",
    });
    expect(r.status).toBe(302);
    expect(await cuenta()).toMatchObject({
      nombre: "Cuenta de pagos (antigua)",
      bic: null,
      sufijo: "A01",
      formato: "pain.001.001.03",
      activa: false,
      version: 2,
    });
    expect((await json(await load(c.id))).history[0]).toMatchObject({
      accion: "modificacion",
      cambios: { formato: { antes: "pain.001.001.09", despues: "pain.001.001.03" } },
    });
    const before = await snapshot();
    expect((await post(c.id, { intent: "eliminar", version: "2" })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it("exporta CSV con cabeceras en español", async () => {
    const r = await respond(() =>
      cuentasCsv.loader({
        request: request("/cuentas-empresa/exportar", { cookie: admin.cookie }),
        context: app.context(),
        params: {},
      }),
    );
    expect(r.status).toBe(200);
    const text = new TextDecoder().decode(new Uint8Array(await r.arrayBuffer()));
    expect(text).toContain('"Nombre";"IBAN";"Formato";"Activa"');
    expect(text).toContain(`"Cuenta de pagos (antigua)";"${IBAN}";"pain.001.001.03 (guía AEB)";"No"`);
  });

  it.each([
    ["empleado", () => empleado],
    ["aprobador", () => aprobador],
  ] as const)(
    "%s: ni la lista, ni la ficha, ni el CSV, ni los envíos existen para él (404); nada cambia",
    async (_r, who) => {
      const { cookie } = who();
      const c = await cuenta();
      const before = await snapshot();
      const listed = await respond(() =>
        cuentasList.loader({ request: request("/cuentas-empresa", { cookie }), context: app.context(), params: {} }),
      );
      expect(listed.status).toBe(404);
      expect((await load(c.id, cookie)).status).toBe(404);
      const csv = await respond(() =>
        cuentasCsv.loader({
          request: request("/cuentas-empresa/exportar", { cookie }),
          context: app.context(),
          params: {},
        }),
      );
      expect(csv.status).toBe(404);
      expect((await create(datos({ iban: generateValidEsIban(7002) }), cookie)).status).toBe(404);
      const edit = { intent: "guardar", version: String(c.version), ...datos({ nombre: "Hackeada", iban: IBAN }) };
      expect((await post(c.id, edit, cookie)).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe("datos bancarios en la ficha de una persona", () => {
  const load = (id: string, cookie: string) =>
    respond(() =>
      usuarioRoute.loader({ request: request(`/usuarios/${id}`, { cookie }), context: app.context(), params: { id } }),
    );
  const post = (id: string, form: Record<string, string>, cookie: string) =>
    respond(() =>
      usuarioRoute.action({
        request: request(`/usuarios/${id}`, { cookie, form: { intent: "datos_bancarios", ...form } }),
        context: app.context(),
        params: { id },
      }),
    );
  const fila = (usuarioId: string) =>
    app.db.selectFrom("datos_bancarios").selectAll().where("usuario_id", "=", usuarioId).executeTakeFirst();
  const seccion = async (id: string, cookie: string) => (await json(await load(id, cookie))).datosBancarios;
  const IBAN_ELENA = generateValidEsIban(7101);

  it("la persona, en su ficha: sin cuenta todavía; un dígito de control mal, 400 en su campo y nada escrito", async () => {
    expect(await seccion(empleado.id, empleado.cookie)).toMatchObject({ fila: null });
    const before = await snapshot();
    const r = await post(empleado.id, { iban: alterado(IBAN_ELENA), titular: "X", nif: "12345678A" }, empleado.cookie);
    expect(r.status).toBe(400);
    const { error } = (await json(r)).datosBancarios;
    expect(error.iban[0]).toMatch(/^Los dígitos de control del IBAN \(ES\d{2}\) no cuadran con el número de cuenta/);
    expect(error.titular[0]).toBe("Titular: al menos 2 caracteres");
    // Every field's problem at once: the NIF's too, beside the IBAN's.
    expect(error.nif[0]).toMatch(/^La letra del DNI no es correcta/);
    expect((await json(await post(empleado.id, { iban: "" }, empleado.cookie))).datosBancarios.error.iban[0]).toBe(
      "Escriba el IBAN, el NIF o los dos",
    );
    // A holder names an account's: without one, it is refused beside it.
    const titular = await post(
      empleado.id,
      { iban: "", titular: "Elena Ruiz", nif: generateValidDni(1) },
      empleado.cookie,
    );
    expect((await json(titular)).datosBancarios.error.titular[0]).toBe(
      "El titular es el de la cuenta: escriba también su IBAN",
    );
    // The NIF, a person's: a DNI with the wrong letter, or a company's CIF, is refused beside it.
    const nif = async (valor: string) =>
      (await json(await post(empleado.id, { iban: IBAN_ELENA, nif: valor }, empleado.cookie))).datosBancarios.error
        .nif[0];
    const dni = generateValidDni(4242);
    expect(await nif(`${dni.slice(0, 8)}${dni.endsWith("A") ? "B" : "A"}`)).toMatch(/^La letra del DNI no es correcta/);
    expect(await nif(generateValidCif(77))).toBe(
      "Escriba un NIF de persona: DNI, NIE o NIF K, L o M, por ejemplo 12345678Z.",
    );
    expect(await nif("=1+1")).toBe("Escriba un NIF de persona: DNI, NIE o NIF K, L o M, por ejemplo 12345678Z.");
    // Malformed (a digit short, a NIE cut): the same help, never a company's CIF.
    for (const corto of ["1234567Z", "X123"])
      expect(await nif(corto)).toBe("Escriba un NIF de persona: DNI, NIE o NIF K, L o M, por ejemplo 12345678Z.");
    expect(await snapshot()).toEqual(before);
  });

  it("el NIF, con puntos y guiones y en minúsculas, se guarda como se escribe en Hacienda", async () => {
    const nie = generateValidNie(31);
    const escrito = `${nie.slice(0, 1).toLowerCase()}-${nie.slice(1, 4)}.${nie.slice(4, 8)}-${nie.slice(8).toLowerCase()}`;
    const r = await post(colega.id, { iban: generateValidEsIban(7303), nif: escrito }, colega.cookie);
    expect(r.status).toBe(302);
    expect(await fila(colega.id)).toMatchObject({ nif: nie });
    expect(await seccion(colega.id, colega.cookie)).toMatchObject({ fila: { nif: nie } });
    // The NIF of a foreigner without a NIE (M), also a person's.
    const m = await post(colega.id, { iban: generateValidEsIban(7303), nif: "M1234567L", version: "1" }, colega.cookie);
    expect(m.status).toBe(302);
    expect(await fila(colega.id)).toMatchObject({ nif: "M1234567L" });
    await app.db.deleteFrom("datos_bancarios").where("usuario_id", "=", colega.id).execute();
  });

  it("el NIF sin cuenta (quien cobra en efectivo) se guarda; la base rechaza una fila sin ninguno de los dos", async () => {
    const nif = generateValidDni(9090);
    const r = await post(colega.id, { iban: "", nif }, colega.cookie);
    expect(r.status).toBe(302);
    expect(await fila(colega.id)).toMatchObject({ iban: null, titular: null, nif });
    expect(await seccion(colega.id, colega.cookie)).toMatchObject({ fila: { iban: null, nif } });
    // The database says the same as the form, whoever writes.
    const vacia = sql`update public.datos_bancarios set nif = null where usuario_id = ${colega.id}`.execute(app.db);
    await expect(vacia).rejects.toThrow(/datos_bancarios_cuenta_o_nif_check/);
    const titular = sql`update public.datos_bancarios set titular = 'Otra' where usuario_id = ${colega.id}`.execute(
      app.db,
    );
    await expect(titular).rejects.toThrow(/datos_bancarios_titular_check/);
    // An account added later keeps the NIF.
    const cuenta = generateValidEsIban(7404);
    expect((await post(colega.id, { iban: cuenta, nif, version: "1" }, colega.cookie)).status).toBe(302);
    expect(await fila(colega.id)).toMatchObject({ iban: cuenta, nif, version: 2 });
    // Both emptied: what was saved goes, at the version shown (an older one is refused, and it stays).
    expect((await post(colega.id, { iban: "", nif: "", version: "1" }, colega.cookie)).status).toBe(409);
    expect(await fila(colega.id)).toMatchObject({ iban: cuenta, nif });
    const quitar = await post(colega.id, { iban: "", nif: "", version: "2" }, colega.cookie);
    expect(quitar.status).toBe(302);
    expect((await flashOf(quitar))?.message).toBe("Datos bancarios quitados.");
    expect(await fila(colega.id)).toBeUndefined();
  });

  it("la persona guarda la suya (con espacios y en minúsculas) y vuelve a su ficha con aviso", async () => {
    const r = await post(
      empleado.id,
      { iban: ` iban ${formatIban(IBAN_ELENA).toLowerCase()} `, titular: "" },
      empleado.cookie,
    );
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe(`/usuarios/${empleado.id}#contenido`);
    expect((await flashOf(r))?.message).toBe("Datos bancarios guardados.");
    expect(await fila(empleado.id)).toMatchObject({ iban: IBAN_ELENA, titular: null, version: 1 });
    expect(await seccion(empleado.id, empleado.cookie)).toMatchObject({
      fila: { iban: IBAN_ELENA, titular: null, version: 1 },
    });
  });

  it("la cambia con la versión que vio; con una versión antigua o sin ella, 409 en español y nada escrito", async () => {
    const r = await post(empleado.id, { iban: IBAN_ELENA, titular: "Elena y Luis", version: "1" }, empleado.cookie);
    expect(r.status).toBe(302);
    expect(await fila(empleado.id)).toMatchObject({ titular: "Elena y Luis", version: 2 });
    const before = await snapshot();
    for (const version of [{ version: "1" }, {}] as Record<string, string>[]) {
      const viejo = await post(empleado.id, { iban: IBAN_ELENA, titular: "Otro", ...version }, empleado.cookie);
      expect(viejo.status).toBe(409);
      expect((await json(viejo)).datosBancarios.error[""][0]).toBe(
        "Otra persona cambió estos datos bancarios mientras los editaba: los de ahora están encima del formulario. Si vuelve a guardar, lo que hay en el formulario los sustituirá, también lo que dejó vacío.",
      );
    }
    expect(await snapshot()).toEqual(before);
  });

  it("un administrador ve y edita los de otra persona: la añade y luego la cambia", async () => {
    expect(await seccion(colega.id, admin.cookie)).toMatchObject({ fila: null });
    const iban = generateValidEsIban(7102);
    expect((await post(colega.id, { iban }, admin.cookie)).status).toBe(302);
    expect(await fila(colega.id)).toMatchObject({ iban, version: 1 });
    const otro = generateValidEsIban(7103);
    expect((await post(colega.id, { iban: otro, version: "1" }, admin.cookie)).status).toBe(302);
    expect(await fila(colega.id)).toMatchObject({ iban: otro, version: 2 });
    expect(await seccion(empleado.id, admin.cookie)).toMatchObject({ fila: { iban: IBAN_ELENA } });
  });

  it("cada alta, cambio o baja de la cuenta avisa a la persona, también por correo; lo demás, no", async () => {
    const persona = await app.createUser({ nombre: "Irene", rol: "empleado" });
    const avisos = () =>
      sql<{ datos: { final?: string; autor?: string }; leido: boolean; correos: number }>`
        select a.datos, a.leido_en is not null as leido,
               (select count(*)::int from interno.correos c where c.aviso_id = a.id) as correos
          from public.avisos a where a.destinatario_id = ${persona.id} and a.tipo = 'cuenta'
         order by a.creado_en`
        .execute(app.db)
        .then((r) => r.rows);
    // An administrador adds one: unread, with who did it and the last four characters.
    const iban = generateValidEsIban(7106);
    expect((await post(persona.id, { iban }, admin.cookie)).status).toBe(302);
    expect(await avisos()).toEqual([
      { datos: { final: iban.slice(-4), autor: `Ana (${admin.email})` }, leido: false, correos: 1 },
    ]);
    // The holder or the NIF alone, or the same IBAN written again: nothing to tell.
    expect((await post(persona.id, { iban, titular: "Irene Sanz", version: "1" }, admin.cookie)).status).toBe(302);
    expect(await avisos()).toHaveLength(1);
    // The person changes it herself: by mail all the same, read already in the app.
    const suya = generateValidEsIban(7107);
    expect((await post(persona.id, { iban: suya, version: "2" }, persona.cookie)).status).toBe(302);
    expect((await avisos())[1]).toEqual({ datos: { final: suya.slice(-4) }, leido: true, correos: 1 });
    // Removed (the row goes with its NIF-less account): said too.
    expect((await post(persona.id, { iban: "", version: "3" }, admin.cookie)).status).toBe(302);
    expect(await fila(persona.id)).toBeUndefined();
    expect((await avisos())[2]).toEqual({ datos: { autor: `Ana (${admin.email})` }, leido: false, correos: 1 });
    // Deactivated, she is told all the same: her last refunds are still paid to it.
    await app.db.updateTable("usuarios").set({ activo: false }).where("id", "=", persona.id).execute();
    const otra = generateValidEsIban(7108);
    expect((await post(persona.id, { iban: otra }, admin.cookie)).status).toBe(302);
    expect((await avisos())[3]).toEqual({
      datos: { final: otra.slice(-4), autor: `Ana (${admin.email})` },
      leido: false,
      correos: 1,
    });
    await app.db.deleteFrom("datos_bancarios").where("usuario_id", "=", persona.id).execute();
    // Written with no one signed in (demo data, a server task): no aviso.
    await app.db.insertInto("datos_bancarios").values({ usuario_id: persona.id, iban }).execute();
    expect(await avisos()).toHaveLength(4);
  });

  it.each([
    ["su aprobador", () => aprobador],
    ["otro empleado", () => colega],
  ] as const)("%s: la ficha de la persona no trae la sección; enviar, 403 y nada cambia", async (_r, who) => {
    const { cookie } = who();
    const r = await load(empleado.id, cookie);
    expect(r.status).toBe(200);
    const data = await json(r);
    expect(data.datosBancarios).toBeNull();
    expect(JSON.stringify(data)).not.toContain(IBAN_ELENA);
    const before = await snapshot();
    const antes = await fila(empleado.id);
    for (const version of [{ version: String(antes!.version) }, {}] as Record<string, string>[]) {
      const p = await post(empleado.id, { iban: generateValidEsIban(7104), ...version }, cookie);
      expect(p.status).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("una persona que no existe: 404", async () => {
    const nadie = crypto.randomUUID();
    expect((await post(nadie, { iban: generateValidEsIban(7105) }, admin.cookie)).status).toBe(404);
  });
});
