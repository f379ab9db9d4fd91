import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import {
  as,
  createDepartamento,
  createForm,
  expect,
  jsEnabled,
  openDepartamento,
  paginaQueDibuja,
  unique,
  uniqueCode,
} from "./support";

/**
 * Departamentos end to end, as the people who use it: administrador (everything) and empleado
 * (read only). Every test makes its own records with unique names: parallel workers and both
 * projects share one server and one database.
 */
const test = as("administrador");

const searchRegion = (page: Page) => page.getByRole("search", { name: "Buscar departamentos" });
const dataRows = (page: Page) =>
  page
    .getByRole("table")
    .getByRole("row")
    .filter({ has: page.getByRole("cell") });
const header = (page: Page, label: string) => page.getByRole("columnheader", { name: new RegExp(`^${label}\\b`) });

test("crear: mensaje de confirmación, se abre su ficha y la fila aparece en la lista", async ({ page }) => {
  const nombre = unique("Alta");
  const codigo = uniqueCode("A");
  await createDepartamento(page, {
    nombre,
    codigo: codigo.toLowerCase(),
    centro: "CC-E2E",
    presupuesto: "1.234,56",
    notas: "Creado por la prueba",
  });
  // On the new record (its row may be on another page of the list), with the flash announced as a status.
  await expect(page).toHaveURL(/\/departamentos\/[0-9a-f-]{36}\?volver=%2Fdepartamentos#contenido$/);
  await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();

  await page.goto(`/departamentos?q=${encodeURIComponent(nombre)}`);
  await expect(page.getByText("1 departamento con estos filtros")).toBeVisible();
  const row = dataRows(page).filter({ has: page.getByRole("link", { name: nombre, exact: true }) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(codigo); // upper-cased on save
  await expect(row).toContainText("CC-E2E");
  await expect(row).toContainText("1.234,56 €");
  await expect(row).toContainText("Sí");
});

test("crear con errores: resumen, mensaje junto a cada campo, valores conservados y nada creado", async ({ page }) => {
  const nombre = unique("Inválido");
  await page.goto("/departamentos");
  const form = createForm(page, "departamento");
  await form.getByLabel("Nombre").fill(nombre);
  await form.getByLabel("Código").fill("MAL CÓDIGO");
  await form.getByLabel("Presupuesto mensual").fill("-5");
  await form.getByLabel("Centro de coste").fill("CC-KEEP");
  await form.getByRole("button", { name: "Crear departamento" }).click();

  const summary = form.getByRole("alert");
  await expect(summary.getByRole("heading", { name: "Hay 2 errores" })).toBeVisible();
  // Focused and in view, without JavaScript too (the form posts to «#nuevo», the summary's id then).
  await expect(summary).toBeFocused();
  await expect(summary).toBeInViewport();
  const codigoMsg = "Código: de 2 a 10 letras sin tilde, números o guiones, por ejemplo ADM-01";
  const presupuestoMsg = "Presupuesto mensual: debe ser 0 o más";
  await expect(summary.getByRole("link", { name: codigoMsg })).toHaveAttribute("href", "#nuevo-departamentos-codigo");
  await expect(summary.getByRole("link", { name: presupuestoMsg })).toHaveAttribute(
    "href",
    "#nuevo-departamentos-presupuesto_mensual",
  );

  // Each message is next to its field and tied to it.
  const codigo = form.getByLabel("Código");
  await expect(codigo).toHaveAttribute("aria-invalid", "true");
  await expect(codigo).toHaveAccessibleDescription(new RegExp(codigoMsg));
  const presupuesto = form.getByLabel("Presupuesto mensual");
  await expect(presupuesto).toHaveAttribute("aria-invalid", "true");
  await expect(presupuesto).toHaveAccessibleDescription(new RegExp(presupuestoMsg));
  await expect(form.getByLabel("Nombre")).not.toHaveAttribute("aria-invalid", "true");

  // What was typed is still there.
  await expect(form.getByLabel("Nombre")).toHaveValue(nombre);
  await expect(codigo).toHaveValue("MAL CÓDIGO");
  await expect(presupuesto).toHaveValue("-5");
  await expect(form.getByLabel("Centro de coste")).toHaveValue("CC-KEEP");

  // The summary's link takes you to the field.
  await summary.getByRole("link", { name: codigoMsg }).click();
  await expect(page).toHaveURL(/#nuevo-departamentos-codigo$/);

  // A duplicate code is refused by the server.
  await codigo.fill("tec");
  await presupuesto.fill("");
  await form.getByRole("button", { name: "Crear departamento" }).click();
  await expect(form.getByRole("alert").getByRole("heading", { name: "Hay 1 error" })).toBeVisible();
  await expect(form.getByLabel("Código")).toHaveAccessibleDescription(/Ya existe un departamento con código «TEC»/);
  await expect(form.getByLabel("Nombre")).toHaveValue(nombre);

  // Nothing was created.
  await page.goto(`/departamentos?q=${encodeURIComponent(nombre)}`);
  await expect(page.getByText("0 departamentos con estos filtros")).toBeVisible();
  await expect(page.getByText("No hay departamentos que coincidan con la búsqueda.")).toBeVisible();
});

test("tras un envío rechazado, con JavaScript los errores siguen lo que se escribe sin ir al servidor; sin él, cambian al volver a enviar", async ({
  page,
}, testInfo) => {
  await page.goto("/departamentos");
  const form = createForm(page, "departamento");
  const codigo = form.getByLabel("Código");
  await form.getByLabel("Nombre").fill(unique("Al escribir"));
  await codigo.fill("MAL CÓDIGO");
  await form.getByRole("button", { name: "Crear departamento" }).click();
  await expect(codigo).toHaveAttribute("aria-invalid", "true");

  const posts: string[] = [];
  page.on("request", (r) => void (r.method() !== "GET" && posts.push(r.url())));
  if (jsEnabled(testInfo.project.name)) {
    // Validation loaded after the page: once it is there, every keystroke is checked in the browser.
    await expect(form.locator("form")).toHaveAttribute("data-validacion", "en-vivo");
    await codigo.fill("BIEN-01");
    await expect(codigo).not.toHaveAttribute("aria-invalid", "true");
    await codigo.fill("MAL CÓDIGO");
    await expect(codigo).toHaveAttribute("aria-invalid", "true");
    await expect(codigo).toHaveAccessibleDescription(/Código: de 2 a 10 letras/);
    expect(posts).toEqual([]);
  } else {
    // The server's verdict stays until the form is sent again, and then it is the server's again.
    await codigo.fill("BIEN-01");
    await expect(codigo).toHaveAttribute("aria-invalid", "true");
    await form.getByLabel("Presupuesto mensual").fill("-5");
    await form.getByRole("button", { name: "Crear departamento" }).click();
    await expect(createForm(page, "departamento").getByLabel("Código")).not.toHaveAttribute("aria-invalid", "true");
    await expect(createForm(page, "departamento").getByLabel("Presupuesto mensual")).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    expect(posts).toHaveLength(1);
  }
});

test("buscar, ordenar, filtrar, paginar, exportar y volver a la misma lista tras guardar", async ({ page }) => {
  const prefijo = unique("Orden");
  const tallo = uniqueCode("O").slice(0, 7);
  for (const [letra, activo] of [
    ["A", true],
    ["B", false],
    ["C", true],
  ] as const)
    await createDepartamento(page, { nombre: `${prefijo} ${letra}`, codigo: `${tallo}-${letra}`, activo });

  // Search with the GET form: the state is in the URL.
  await page.goto("/departamentos");
  await searchRegion(page).getByLabel("Buscar").fill(prefijo);
  await searchRegion(page).getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(page.getByText("3 departamentos con estos filtros")).toBeVisible();
  await expect(dataRows(page)).toHaveCount(3);
  await expect(header(page, "Nombre")).toHaveAttribute("aria-sort", "ascending");
  await expect(header(page, "Código")).not.toHaveAttribute("aria-sort", /.+/);
  await expect(dataRows(page).first()).toContainText(`${prefijo} A`);

  // Sort by a column, then reverse it.
  await header(page, "Código").getByRole("link").click();
  await expect(page).toHaveURL(/orden=codigo&dir=asc/);
  await expect(header(page, "Código")).toHaveAttribute("aria-sort", "ascending");
  await expect(header(page, "Nombre")).not.toHaveAttribute("aria-sort", /.+/);
  await header(page, "Código").getByRole("link").click();
  await expect(page).toHaveURL(/orden=codigo&dir=desc/);
  await expect(header(page, "Código")).toHaveAttribute("aria-sort", "descending");
  await expect(dataRows(page).first()).toContainText(`${tallo}-C`);
  await expect(dataRows(page).last()).toContainText(`${tallo}-A`);
  // The search survived the sort.
  await expect(searchRegion(page).getByLabel("Buscar")).toHaveValue(prefijo);

  // Filter by activo.
  await searchRegion(page).getByLabel("Activo").selectOption({ label: "No" });
  await searchRegion(page).getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/activo=no/);
  await expect(page.getByText("1 departamento con estos filtros")).toBeVisible();
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).first()).toContainText(`${prefijo} B`);
  await expect(dataRows(page).first()).toContainText("No");

  // CSV of the filtered list: BOM, `;`, Spanish headers.
  await searchRegion(page).getByLabel("Activo").selectOption({ label: "Todos" });
  await searchRegion(page).getByRole("button", { name: "Filtrar" }).click();
  await expect(page.getByText("3 departamentos con estos filtros")).toBeVisible();
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Exportar CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^departamentos-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const csv = bytes.subarray(3).toString("utf8");
  expect(
    csv.startsWith(
      '"Nombre";"Código";"Departamento superior";"Responsable";"Centro de coste";"Presupuesto mensual";"Activo"',
    ),
  ).toBe(true);
  const lines = csv.trim().split(/\r?\n/);
  expect(lines).toHaveLength(4);
  expect(lines.slice(1).map((l) => l.split(";")[0]!.replace(/^"(.*)"$/, "$1"))).toEqual(
    expect.arrayContaining([`${prefijo} A`, `${prefijo} B`, `${prefijo} C`]),
  );

  // Open a record from the filtered, sorted list; saving returns to that very list.
  await header(page, "Código").getByRole("link").click();
  await expect(header(page, "Código")).toHaveAttribute("aria-sort", "ascending");
  const listUrl = page.url();
  await page.getByRole("link", { name: `${prefijo} A`, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: `${prefijo} A` })).toBeVisible();
  const datos = page.getByRole("region", { name: "Datos" });
  await datos.getByLabel("Centro de coste").fill("CC-VUELTA");
  await datos.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page.getByRole("status")).toHaveText("Departamento guardado.");
  // At its content: not at the edit form's error summary, where a refused save would land.
  expect(page.url()).toBe(`${listUrl}#contenido`);
  await expect(header(page, "Código")).toHaveAttribute("aria-sort", "ascending");
  await expect(dataRows(page).filter({ hasText: `${prefijo} A` })).toContainText("CC-VUELTA");

  // «Cancelar» on a record also returns to the same list.
  await page.getByRole("link", { name: `${prefijo} C`, exact: true }).click();
  await page.getByRole("region", { name: "Datos" }).getByRole("link", { name: "Cancelar" }).click();
  await expect(page.getByText("3 departamentos con estos filtros")).toBeVisible();
  expect(page.url()).toBe(listUrl);
});

test("paginación y tamaño de página", async ({ page }) => {
  // The demo data alone has 11 departamentos: with 10 per page there are at least two pages.
  await page.goto("/departamentos");
  await searchRegion(page).getByLabel("Por página").selectOption("10");
  await searchRegion(page).getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/por_pagina=10/);
  await expect(dataRows(page)).toHaveCount(10);
  const paginacion = page.getByRole("navigation", { name: "Paginación" });
  // The current page is text, not a link.
  await expect(paginacion.getByText("Página 1")).toBeVisible();
  await expect(paginacion.getByRole("link", { name: "Página 1" })).toHaveCount(0);
  await paginacion.getByRole("link", { name: "Siguiente" }).click();
  await expect(page).toHaveURL(/pagina=2/);
  await expect(paginacion.getByRole("link", { name: "Página 2" })).toHaveCount(0);
  await expect(paginacion.getByRole("link", { name: "Página 1" })).toBeVisible();
  await expect(paginacion.getByRole("link", { name: "Anterior" })).toBeVisible();
  await expect(searchRegion(page).getByLabel("Por página")).toHaveValue("10");
  const rowsOnPage2 = await dataRows(page).count();
  expect(rowsOnPage2).toBeGreaterThan(0);
  expect(rowsOnPage2).toBeLessThanOrEqual(10);
  await paginacion.getByRole("link", { name: "Página 1" }).click();
  await expect(paginacion.getByRole("link", { name: "Página 1" })).toHaveCount(0);
  await expect(paginacion.getByRole("link", { name: "Siguiente" })).toBeVisible();
});

test("edición con datos antiguos: se rechaza, se muestran los valores actuales y no se sobrescribe nada", async ({
  page,
}) => {
  const nombre = unique("Concurrente");
  await createDepartamento(page, { nombre, codigo: uniqueCode("S"), centro: "CC-ORIG" });
  await openDepartamento(page, nombre);
  const other = await paginaQueDibuja(page.context());
  await openDepartamento(other, nombre);

  // The first person saves.
  const primero = page.getByRole("region", { name: "Datos" });
  await primero.getByLabel("Nombre").fill(`${nombre} uno`);
  await primero.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page.getByRole("status")).toHaveText("Departamento guardado.");

  // The second, still on the old version, is refused and sees what is stored now.
  const segundo = other.getByRole("region", { name: "Datos" });
  await segundo.getByLabel("Centro de coste").fill("CC-DOS");
  await segundo.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(other.getByText(/Otra persona modificó este registro mientras lo editaba/)).toBeVisible();
  const actuales = other.getByRole("region", { name: "Valores actuales guardados por la otra persona" });
  await expect(actuales).toContainText(`${nombre} uno`);
  await expect(actuales).toContainText("CC-ORIG");
  // The form keeps what the second person typed.
  await expect(segundo.getByLabel("Centro de coste")).toHaveValue("CC-DOS");
  await other.close();

  // Stored: the first save, untouched by the second.
  await openDepartamento(page, `${nombre} uno`);
  await expect(page.getByRole("region", { name: "Datos" }).getByLabel("Nombre")).toHaveValue(`${nombre} uno`);
  await expect(page.getByRole("region", { name: "Datos" }).getByLabel("Centro de coste")).toHaveValue("CC-ORIG");
});

test("eliminar con paso de confirmación; «Cancelar» lo conserva", async ({ page }) => {
  const nombre = unique("Borrable");
  await createDepartamento(page, { nombre, codigo: uniqueCode("D") });
  await openDepartamento(page, nombre);
  const confirmar = page.getByRole("dialog", { name: `¿Eliminar el departamento «${nombre}»?` });

  await page.getByRole("link", { name: "Eliminar departamento…" }).click();
  await expect(confirmar).toBeVisible();
  await confirmar.getByRole("link", { name: "Cancelar" }).click();
  await expect(confirmar).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();
  await page.goto(`/departamentos?q=${encodeURIComponent(nombre)}`);
  await expect(page.getByRole("link", { name: nombre, exact: true })).toBeVisible();

  await page.getByRole("link", { name: nombre, exact: true }).click();
  await page.getByRole("link", { name: "Eliminar departamento…" }).click();
  await confirmar.getByRole("button", { name: "Sí, eliminar" }).click();
  await expect(page.getByRole("status")).toHaveText("Departamento eliminado.");
  await expect(page).toHaveURL(`/departamentos?q=${encodeURIComponent(nombre)}`);
  await expect(page.getByText("No hay departamentos que coincidan con la búsqueda.")).toBeVisible();
});

test("no se elimina un departamento con registros asociados", async ({ page }) => {
  await openDepartamento(page, "Tecnología");
  await page.getByRole("link", { name: "Eliminar departamento…" }).click();
  await page
    .getByRole("dialog", { name: "¿Eliminar el departamento «Tecnología»?" })
    .getByRole("button", { name: "Sí, eliminar" })
    .click();
  await expect(page.getByRole("alert")).toContainText(/No se puede eliminar: tiene .+\. Desactívelo en su lugar\./);
  await expect(page.getByRole("heading", { level: 1, name: "Tecnología" })).toBeVisible();
  await page.goto("/departamentos?q=Tecnolog%C3%ADa");
  await expect(page.getByRole("link", { name: "Tecnología", exact: true })).toBeVisible();
});

const empleado = as("empleado");

empleado("un empleado ve la lista y las fichas sin poder cambiar nada", async ({ page, baseURL }) => {
  // Searched: other tests add departamentos, so the demo's may be on another page.
  await page.goto("/departamentos?q=Ventas%20Norte");
  await expect(page.getByRole("heading", { level: 1, name: "Departamentos" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ventas Norte", exact: true })).toBeVisible();
  await expect(createForm(page, "departamento")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Nuevo departamento" })).toHaveCount(0);
  // The budget is for the administradores and whoever is in charge of the department.
  await expect(header(page, "Presupuesto mensual")).toHaveCount(0);

  await openDepartamento(page, "Ventas Norte");
  const recordUrl = page.url();
  const datos = page.getByRole("region", { name: "Datos" });
  await expect(datos).toContainText("VNO");
  await expect(datos).not.toContainText("Presupuesto");
  await expect(datos).not.toContainText("9.000,00");
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Guardar cambios" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Eliminar departamento…" })).toHaveCount(0);

  // Forcing the requests (same origin, so only the permission check stands in the way).
  const headers = { Origin: baseURL! };
  const nombre = unique("Forzado");
  const crear = await page.request.post("/departamentos?index", {
    headers,
    form: { nombre, codigo: uniqueCode("F"), activo: "on", _envio: crypto.randomUUID() },
    maxRedirects: 0,
  });
  expect(crear.status()).toBe(403);
  const guardar = await page.request.post(recordUrl, {
    headers,
    form: { intent: "guardar", version: "1", nombre: "Hackeado", codigo: "VNO" },
    maxRedirects: 0,
  });
  expect(guardar.status()).toBe(403);
  const eliminar = await page.request.post(recordUrl, {
    headers,
    form: { intent: "eliminar", version: "1" },
    maxRedirects: 0,
  });
  expect(eliminar.status()).toBe(403);

  await page.goto(`/departamentos?q=${encodeURIComponent(nombre)}`);
  await expect(page.getByText("0 departamentos con estos filtros")).toBeVisible();
  await page.goto(recordUrl);
  await expect(page.getByRole("heading", { level: 1, name: "Ventas Norte" })).toBeVisible();
});

const aprobador = as("aprobador");

aprobador("un aprobador ve el presupuesto del departamento a su cargo, no el de los demás", async ({ page }) => {
  // Pablo is Ventas Norte's aprobador and responsable (9.000,00 € a month); Ventas Sur (5.000,00 €) is not his.
  await page.goto("/departamentos?q=Ventas");
  await expect(header(page, "Presupuesto mensual")).toBeVisible();
  const fila = (nombre: string) =>
    dataRows(page).filter({ has: page.getByRole("link", { name: nombre, exact: true }) });
  await expect(fila("Ventas Norte")).toContainText("9.000,00");
  await expect(fila("Ventas Sur")).toBeVisible();
  await expect(fila("Ventas Sur")).not.toContainText("5.000,00");

  await openDepartamento(page, "Ventas Sur");
  await expect(page.getByRole("region", { name: "Datos" })).toContainText("VSU");
  await expect(page.getByRole("region", { name: "Datos" })).not.toContainText("5.000,00");
  await openDepartamento(page, "Ventas Norte");
  await expect(page.getByRole("region", { name: "Datos" })).toContainText("9.000,00");
});
