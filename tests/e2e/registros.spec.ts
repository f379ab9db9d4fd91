import type { Page } from "@playwright/test";
import { as, createForm, expect, expectNoAxeViolations, unique, uniqueCode, uniqueEmail } from "./support";
import {
  anonPage,
  centimosAlAzar,
  cifAlAzar,
  euros,
  gastosPendientes,
  literal,
  openRecord,
  signUpAndConfirm,
} from "./support-registros";
import { departamentoEnLaBase, enLaBaseDeDatos, personaEnLaBase, sucursalEnLaBase } from "./support-base-de-datos";

/**
 * Sucursales, proveedores and usuarios end to end, as the people who use them:
 * administradores keep branches and users, aprobadores keep suppliers, everyone edits their own
 * profile. Every test makes its own records (and accounts) with unique names: parallel workers
 * and both projects share one server and one database.
 */
const administrador = as("administrador");
const aprobador = as("aprobador");

const dataRows = (page: Page) =>
  page
    .getByRole("table")
    .getByRole("row")
    .filter({ has: page.getByRole("cell") });
const rowOf = (page: Page, name: string) =>
  dataRows(page).filter({ has: page.getByRole("link", { name, exact: true }) });
const datos = (page: Page) => page.getByRole("region", { name: "Datos" });

// ——— Sucursales ———

type NuevaSucursal = {
  nombre: string;
  codigo: string;
  direccion?: string;
  ciudad?: string;
  telefono?: string;
  email?: string;
};

async function crearSucursal(page: Page, s: NuevaSucursal) {
  await page.goto("/sucursales");
  const form = createForm(page, "sucursal");
  await form.getByLabel("Nombre").fill(s.nombre);
  await form.getByLabel("Código (obligatorio)").fill(s.codigo);
  await form.getByLabel("Dirección").fill(s.direccion ?? "Calle Mayor 1");
  await form.getByLabel("Ciudad").fill(s.ciudad ?? "Logroño");
  if (s.telefono) await form.getByLabel("Teléfono").fill(s.telefono);
  if (s.email) await form.getByLabel("Correo electrónico").fill(s.email);
  await form.getByRole("button", { name: "Crear sucursal" }).click();
  await expect(page.getByRole("status")).toHaveText(`Sucursal creada: ${s.nombre}`);
}

administrador("sucursal: crear, ver en la lista, editar y eliminar con paso de confirmación", async ({ page }) => {
  const nombre = unique("Sucursal");
  const codigo = uniqueCode("S");
  await crearSucursal(page, {
    nombre,
    codigo: codigo.toLowerCase(),
    ciudad: "Logroño",
    telefono: "+34 941 000 000",
    email: "LOGRONO@Oficina.Example",
  });

  await page.goto(`/sucursales?q=${encodeURIComponent(nombre)}`);
  await expect(page.getByText("1 sucursal con estos filtros")).toBeVisible();
  const row = rowOf(page, nombre);
  await expect(row).toContainText(codigo); // upper-cased on save
  await expect(row).toContainText("Logroño");
  await expect(row).toContainText("España"); // the configured default country
  await expect(row).toContainText("Sí");
  await expectNoAxeViolations(page);

  // Edit: back on the same list with the flash.
  await row.getByRole("link", { name: nombre }).click();
  await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();
  await expect(datos(page).getByLabel("Correo electrónico")).toHaveValue("logrono@oficina.example");
  await expectNoAxeViolations(page);
  await datos(page).getByLabel("Ciudad").fill("Haro");
  await datos(page).getByRole("checkbox", { name: "Activa" }).uncheck();
  await datos(page).getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page.getByRole("status")).toHaveText("Sucursal guardada.");
  await expect(page).toHaveURL(`/sucursales?q=${encodeURIComponent(nombre)}#contenido`);
  await expect(rowOf(page, nombre)).toContainText("Haro");
  await expect(rowOf(page, nombre)).toContainText("No");

  // Delete: a confirm step first; «Cancelar» keeps it.
  await openRecord(page, "/sucursales", nombre, nombre);
  await expect(
    page
      .getByRole("region", { name: "Historial de cambios" })
      .getByRole("row", { name: "Ciudad Logroño Haro", exact: true }),
  ).toBeVisible();
  const confirmar = page.getByRole("dialog", { name: `¿Eliminar la sucursal «${nombre}»?` });
  await page.getByRole("link", { name: "Eliminar sucursal…" }).click();
  await expect(confirmar).toBeVisible();
  await confirmar.getByRole("link", { name: "Cancelar" }).click();
  await expect(confirmar).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();
  await page.getByRole("link", { name: "Eliminar sucursal…" }).click();
  await confirmar.getByRole("button", { name: "Sí, eliminar" }).click();
  await expect(page.getByRole("status")).toHaveText("Sucursal eliminada.");
  await expect(page).toHaveURL(`/sucursales?q=${encodeURIComponent(nombre)}`);
  await expect(page.getByText("No hay sucursales que coincidan con la búsqueda.")).toBeVisible();
});

administrador(
  "sucursal con errores: resumen, mensajes junto a cada campo, valores conservados y nada creado",
  async ({ page }) => {
    const nombre = unique("Sucursal mala");
    await page.goto("/sucursales");
    const form = createForm(page, "sucursal");
    await form.getByLabel("Nombre").fill(nombre);
    await form.getByLabel("Código (obligatorio)").fill("MAL CÓDIGO");
    await form.getByLabel("Ciudad").fill("Soria");
    await form.getByLabel("Teléfono").fill("llámame");
    await form.getByLabel("Correo electrónico").fill("no-es-un-correo");
    // Dirección left empty.
    await form.getByRole("button", { name: "Crear sucursal" }).click();

    const summary = form.getByRole("alert");
    await expect(summary.getByRole("heading", { name: "Hay 4 errores" })).toBeVisible();
    await expect(summary).toBeFocused();
    await expect(summary).toBeInViewport();
    const mensajes = {
      codigo: "Código: de 2 a 10 letras sin tilde, números o guiones, por ejemplo ADM-01",
      direccion: "Escriba la dirección",
      telefono: "Teléfono: de 6 a 20 cifras, con «+» y espacios si quiere, por ejemplo +34 912 345 678",
      email: "Escriba un correo válido, por ejemplo nombre@empresa.es",
    };
    for (const [campo, mensaje] of Object.entries(mensajes))
      await expect(summary.getByRole("link", { name: mensaje })).toHaveAttribute("href", `#nuevo-sucursales-${campo}`);
    const telefono = form.getByLabel("Teléfono");
    await expect(telefono).toHaveAttribute("aria-invalid", "true");
    await expect(telefono).toHaveAccessibleDescription(literal(mensajes.telefono));
    await expect(form.getByLabel("Dirección")).toHaveAccessibleDescription(literal(mensajes.direccion));
    await expect(form.getByLabel("Ciudad")).not.toHaveAttribute("aria-invalid", "true");
    // What was typed is still there.
    await expect(form.getByLabel("Nombre")).toHaveValue(nombre);
    await expect(form.getByLabel("Código (obligatorio)")).toHaveValue("MAL CÓDIGO");
    await expect(form.getByLabel("Ciudad")).toHaveValue("Soria");
    await expect(telefono).toHaveValue("llámame");
    await expect(form.getByLabel("Correo electrónico")).toHaveValue("no-es-un-correo");
    await expectNoAxeViolations(page);

    await page.goto(`/sucursales?q=${encodeURIComponent(nombre)}`);
    await expect(page.getByText("0 sucursales con estos filtros")).toBeVisible();
  },
);

aprobador(
  "un aprobador no crea sucursales: no tiene el formulario y el POST forzado da 403 sin crear nada",
  async ({ page, baseURL }) => {
    await page.goto("/sucursales");
    await expect(page.getByRole("heading", { level: 1, name: "Sucursales" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Bilbao", exact: true })).toBeVisible();
    await expect(createForm(page, "sucursal")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Nueva sucursal" })).toHaveCount(0);

    const nombre = unique("Forzada");
    const r = await page.request.post("/sucursales?index", {
      headers: { Origin: baseURL! },
      form: {
        nombre,
        codigo: uniqueCode("F"),
        direccion: "Calle Falsa 123",
        ciudad: "Cuenca",
        pais: "ES",
        activo: "on",
        _envio: crypto.randomUUID(),
      },
      maxRedirects: 0,
    });
    expect(r.status()).toBe(403);
    await page.goto(`/sucursales?q=${encodeURIComponent(nombre)}`);
    await expect(page.getByText("0 sucursales con estos filtros")).toBeVisible();
  },
);

// ——— Proveedores ———

type NuevoProveedor = { razon: string; nif: string; iban?: string; notas?: string; categoria?: string };

/** Fills and sends «Nuevo proveedor» (without waiting for the outcome). */
async function enviarProveedor(page: Page, p: NuevoProveedor) {
  await page.goto("/proveedores");
  const form = createForm(page, "proveedor");
  await form.getByLabel("Razón social").fill(p.razon);
  await expect(form.getByLabel("País")).toHaveValue("ES");
  await form.getByLabel("NIF / RFC / ID fiscal").fill(p.nif);
  if (p.iban) await form.getByLabel("IBAN").fill(p.iban);
  if (p.notas) await form.getByLabel("Notas").fill(p.notas);
  await form.getByLabel("Categoría").selectOption({ label: p.categoria ?? "Servicios profesionales" });
  await form.getByRole("button", { name: "Crear proveedor" }).click();
  return form;
}

aprobador(
  "proveedor: un aprobador lo crea con un CIF tecleado con espacios, guiones y minúsculas (se guarda normalizado)",
  async ({ page }) => {
    const razon = unique("Consultores");
    const cif = cifAlAzar();
    const tecleado = `${cif[0]!.toLowerCase()}-${cif.slice(1, 3)} ${cif.slice(3, 6)}.${cif.slice(6, 8)}-${cif.slice(8)}`;
    await enviarProveedor(page, { razon, nif: tecleado });
    await expect(page.getByRole("status")).toHaveText(`Proveedor creado: ${razon}`);

    await page.goto(`/proveedores?q=${encodeURIComponent(razon)}`);
    await expect(page.getByText("1 proveedor con estos filtros")).toBeVisible();
    const row = rowOf(page, razon);
    await expect(row).toContainText(cif);
    await expect(row).toContainText("España");
    await expect(row).toContainText("Servicios profesionales");
    await expectNoAxeViolations(page);
    await row.getByRole("link", { name: razon }).click();
    await expect(datos(page).getByLabel("NIF / RFC / ID fiscal")).toHaveValue(cif);
    // Searching by the stored form of the NIF finds it too.
    await page.goto(`/proveedores?q=${cif}`);
    await expect(rowOf(page, razon)).toHaveCount(1);
  },
);

aprobador(
  "proveedor: el IBAN y las notas no son del aprobador: ni los ve ni los escribe, y guardar no los toca",
  async ({ page }) => {
    const razon = unique("Con IBAN");
    await page.goto("/proveedores");
    await expect(createForm(page, "proveedor").getByLabel("IBAN")).toHaveCount(0);
    await expect(createForm(page, "proveedor").getByLabel("Notas")).toHaveCount(0);
    await enviarProveedor(page, { razon, nif: cifAlAzar() });
    await expect(page.getByRole("status")).toHaveText(`Proveedor creado: ${razon}`);
    // An administrador gave it its IBAN and notes (the columns the forms write).
    await enLaBaseDeDatos("update proveedores set iban = $1, notas = $2 where razon_social = $3", [
      "ES9121000418450200051332",
      "Pagar los viernes",
      razon,
    ]);
    await openRecord(page, "/proveedores", razon, razon);
    await expect(datos(page).getByLabel("IBAN")).toHaveCount(0);
    await expect(datos(page).getByLabel("Notas")).toHaveCount(0);
    await expect(page.getByText(/ES91|Pagar los viernes/)).toHaveCount(0);
    await datos(page).getByLabel("Ciudad").fill("Burgos");
    await datos(page).getByRole("button", { name: "Guardar cambios" }).click();
    await expect(page.getByRole("status")).toHaveText("Proveedor guardado.");
    const [pago] = await enLaBaseDeDatos<{ iban: string; notas: string; ciudad: string }>(
      "select iban, notas, ciudad from proveedores_vista where razon_social = $1",
      [razon],
    );
    expect(pago).toEqual({ iban: "ES9121000418450200051332", notas: "Pagar los viernes", ciudad: "Burgos" });
  },
);

administrador("proveedor: un administrador escribe y ve su IBAN (normalizado) y sus notas", async ({ page }) => {
  const razon = unique("Pagos");
  await enviarProveedor(page, {
    razon,
    nif: cifAlAzar(),
    iban: "es91 2100 0418 4502 0005 1332",
    notas: "Transferencia a 30 días",
  });
  await expect(page.getByRole("status")).toHaveText(`Proveedor creado: ${razon}`);
  await openRecord(page, "/proveedores", razon, razon);
  await expect(datos(page).getByLabel("IBAN")).toHaveValue("ES91 2100 0418 4502 0005 1332");
  await expect(datos(page).getByLabel("Notas")).toHaveValue("Transferencia a 30 días");
});

administrador(
  "proveedor: letra de control del NIF e IBAN no válidos dan mensajes en español junto al campo",
  async ({ page }) => {
    const razon = unique("Letra mala");
    const form = await enviarProveedor(page, { razon, nif: "12345678-a", iban: "ES91 2100 0418 4502 0005 1333" });
    const summary = form.getByRole("alert");
    await expect(summary.getByRole("heading", { name: "Hay 2 errores" })).toBeVisible();
    await expect(summary).toBeFocused();
    await expect(summary).toBeInViewport();
    const nif = form.getByLabel("NIF / RFC / ID fiscal");
    await expect(nif).toHaveAttribute("aria-invalid", "true");
    await expect(nif).toHaveAccessibleDescription(/La letra del DNI no es correcta: para 12345678 es la Z\./);
    const iban = form.getByLabel("IBAN");
    await expect(iban).toHaveAttribute("aria-invalid", "true");
    await expect(iban).toHaveAccessibleDescription(
      /Los dígitos de control del IBAN \(ES91\) no cuadran con el número de cuenta/,
    );
    await expect(nif).toHaveValue("12345678-a");
    await expect(iban).toHaveValue("ES91 2100 0418 4502 0005 1333");
    await expect(form.getByLabel("Razón social")).toHaveValue(razon);

    await page.goto(`/proveedores?q=${encodeURIComponent(razon)}`);
    await expect(page.getByText("0 proveedores con estos filtros")).toBeVisible();
  },
);

aprobador(
  "proveedor duplicado (país, NIF): el mensaje enlaza con el que ya existe y el enlace lo abre",
  async ({ page }) => {
    const primero = unique("Original");
    const cif = cifAlAzar();
    await enviarProveedor(page, { razon: primero, nif: cif });
    await expect(page.getByRole("status")).toHaveText(`Proveedor creado: ${primero}`);

    const segundo = unique("Copia");
    const form = await enviarProveedor(page, { razon: segundo, nif: `ES ${cif.toLowerCase()}` });
    const nif = form.getByLabel("NIF / RFC / ID fiscal");
    await expect(nif).toHaveAttribute("aria-invalid", "true");
    await expect(nif).toHaveAccessibleDescription(
      new RegExp(`Ya existe un proveedor con NIF / RFC / ID fiscal «${cif}»`),
    );
    await expect(form.getByLabel("Razón social")).toHaveValue(segundo);
    await expectNoAxeViolations(page);
    await form.getByRole("link", { name: `Abrir «${primero}»` }).click();
    await expect(page.getByRole("heading", { level: 1, name: primero })).toBeVisible();
    await expect(datos(page).getByLabel("NIF / RFC / ID fiscal")).toHaveValue(cif);

    await page.goto(`/proveedores?q=${encodeURIComponent(segundo)}`);
    await expect(page.getByText("0 proveedores con estos filtros")).toBeVisible();
  },
);

aprobador(
  "la ficha del proveedor muestra cuántos gastos tiene y su total, y enlaza con la lista de gastos filtrada",
  async ({ page }) => {
    const razon = unique("Proveedor con gastos");
    await enviarProveedor(page, { razon, nif: cifAlAzar() });
    await expect(page.getByRole("status")).toHaveText(`Proveedor creado: ${razon}`);
    await openRecord(page, "/proveedores", razon, razon);
    const gastos = page.getByRole("region", { name: "Gastos" });
    await expect(gastos).toContainText("Este proveedor no tiene gastos");
    await expect(gastos.getByRole("link")).toHaveCount(0);

    // Elena (in Pablo's department) records two gastos with this supplier and sends them: her
    // drafts are hers alone, what Pablo sees is what waits for him.
    const a = centimosAlAzar();
    const b = centimosAlAzar();
    const folios = await gastosPendientes([
      { descripcion: unique("Con proveedor"), centimos: a, proveedor: razon },
      { descripcion: unique("Con proveedor"), centimos: b, proveedor: razon },
    ]);

    await page.reload();
    await expect(gastos).toContainText(`2 gastos por un total de ${euros(a + b)} que usted pueda ver.`);
    await expectNoAxeViolations(page);
    await gastos.getByRole("link", { name: "Ver los gastos de este proveedor" }).click();
    await expect(page).toHaveURL(/\/gastos\?proveedor=[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1, name: "Gastos" })).toBeVisible();
    await expect(page.getByRole("search", { name: "Buscar gastos" }).getByLabel("Proveedor")).toHaveValue(
      /^[0-9a-f-]{36}$/,
    );
    await expect(page.getByText(`2 gastos con estos filtros · ${euros(a + b)}`)).toBeVisible();
    for (const folio of folios) await expect(page.getByRole("link", { name: folio, exact: true })).toBeVisible();
  },
);

// ——— Usuarios ———

administrador(
  "un empleado edita su propio perfil (puesto y teléfono) y no ve los controles de rol ni activo",
  async ({ browser, baseURL }) => {
    const nombre = unique("Perfil");
    const email = uniqueEmail("perfil");
    const page = await anonPage(browser);
    await signUpAndConfirm(page, nombre, email);

    // Their own profile, from their name in the header.
    await page.getByRole("banner").getByRole("link", { name: nombre }).click();
    await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();
    await expect(page).toHaveURL(/\/usuarios\/[0-9a-f-]{36}/);
    const form = datos(page);
    await expect(form.getByLabel("Puesto")).toBeEditable();
    await expect(form.getByRole("combobox", { name: /^Rol/ })).toHaveCount(0);
    await expect(form.getByRole("checkbox", { name: "Activo" })).toHaveCount(0);
    await expect(form.getByRole("combobox", { name: /^Departamento/ })).toHaveCount(0);
    await expect(form.getByText(/^Rol\s*Empleado$/)).toBeVisible();
    await expect(form.getByText(/^Activo\s*Sí$/)).toBeVisible();
    await expectNoAxeViolations(page);

    await form.getByLabel("Puesto").fill("Técnica de compras");
    await form.getByLabel("Teléfono").fill("+34 600 111 222");
    await form.getByRole("button", { name: "Guardar cambios" }).click();
    await expect(page.getByRole("status")).toHaveText("Usuario guardado.");

    await page.goto(`/usuarios?q=${encodeURIComponent(email)}`);
    const row = rowOf(page, nombre);
    await expect(row).toContainText("Técnica de compras");
    await expect(row).toContainText("Empleado");
    await row.getByRole("link", { name: nombre }).click();
    await expect(datos(page).getByLabel("Teléfono")).toHaveValue("+34 600 111 222");
    const historial = page.getByRole("region", { name: "Historial de cambios" });
    await expect(historial.getByRole("listitem").filter({ hasText: "Técnica de compras" })).toContainText(nombre);

    // A rol smuggled into their own form is not written.
    const version = await datos(page).locator('input[name="version"]').inputValue();
    const r = await page.request.post(page.url(), {
      headers: { Origin: baseURL! },
      form: {
        intent: "guardar",
        version,
        nombre,
        puesto: "Técnica de compras",
        telefono: "+34 600 111 222",
        rol: "administrador",
        activo: "on",
      },
      maxRedirects: 0,
    });
    expect(r.status()).toBe(302); // saved, without the rol
    await page.reload();
    await expect(datos(page).getByText(/^Rol\s*Empleado$/)).toBeVisible();
    await page.context().close();
  },
);

administrador(
  "un administrador cambia el rol de un usuario y le asigna departamento y sucursal; sus fichas lo listan",
  async ({ page }) => {
    // A new account (an empleado), a new department and a new branch: nobody else touches them.
    const nombre = unique("Ascenso");
    const email = uniqueEmail("ascenso");
    await personaEnLaBase(nombre, email);
    const departamento = unique("Depto");
    await departamentoEnLaBase(departamento, uniqueCode("P"));
    const sucursal = unique("Sede");
    await sucursalEnLaBase(sucursal, uniqueCode("Q"));

    await openRecord(page, "/usuarios", email, nombre);
    await expect(datos(page).getByLabel("Rol")).toHaveValue("empleado");
    await datos(page).getByLabel("Rol").selectOption({ label: "Aprobador" });
    await datos(page).getByLabel("Departamento").selectOption({ label: departamento });
    await datos(page).getByLabel("Sucursal").selectOption({ label: sucursal });
    await datos(page).getByLabel("Puesto").fill("Jefe de equipo");
    await datos(page).getByRole("button", { name: "Guardar cambios" }).click();
    await expect(page.getByRole("status")).toHaveText("Usuario guardado.");
    const row = rowOf(page, nombre);
    await expect(row).toContainText("Aprobador");
    await expect(row).toContainText(departamento);
    await expect(row).toContainText(sucursal);
    await expectNoAxeViolations(page);

    // The rol change is in the history, with who made it.
    await row.getByRole("link", { name: nombre }).click();
    const cambio = page
      .getByRole("region", { name: "Historial de cambios" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("row", { name: "Rol Empleado Aprobador", exact: true }) });
    await expect(cambio).toContainText("Ana Administradora");

    // The department's and the branch's pages list their people, linking to each profile.
    for (const [path, donde, registro] of [
      ["/departamentos", "en este departamento", departamento],
      ["/sucursales", "en esta sucursal", sucursal],
    ] as const) {
      await openRecord(page, path, registro, registro);
      const personas = page.getByRole("region", { name: "Personas" });
      await expect(personas).toContainText(`1 persona ${donde}.`);
      await expect(personas.getByRole("listitem")).toHaveText(`${nombre}, Jefe de equipo (Aprobador)`);
      await expectNoAxeViolations(page);
      await personas.getByRole("link", { name: "Ver en la lista de usuarios" }).click();
      await expect(page.getByText("1 usuario con estos filtros")).toBeVisible();
      await expect(rowOf(page, nombre)).toHaveCount(1);
      await page.goBack();
      await personas.getByRole("link", { name: nombre }).click();
      await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();
    }
  },
);
