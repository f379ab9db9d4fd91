import type { Locator, Page } from "@playwright/test";
import { as, createForm, expect, expectNoAxeViolations, unique, uniqueCode } from "./support";
import { cifAlAzar } from "./support-registros";

/**
 * Daily use of the record screens, with JavaScript and without it: a refused «Nuevo …»
 * lands on its error summary, focused; a create opens the new record; a filter value that cannot
 * be read is said on the filter form and not applied.
 */
const test = as("administrador");

/** The summary is where the eye and the keyboard are: in the viewport and focused. */
async function expectSummaryAtHand(summary: Locator, heading: string | RegExp) {
  await expect(summary.getByRole("heading", { name: heading })).toBeVisible();
  await expect(summary).toBeFocused();
  await expect(summary).toBeInViewport();
}

const altas: { path: string; singular: string; fill: (form: Locator) => Promise<void> }[] = [
  {
    path: "/departamentos",
    singular: "departamento",
    fill: (form) => form.getByLabel("Código").fill("MAL CÓDIGO"),
  },
  {
    path: "/sucursales",
    singular: "sucursal",
    fill: (form) => form.getByLabel("Teléfono").fill("llámame"),
  },
  {
    path: "/proveedores",
    singular: "proveedor",
    fill: (form) => form.getByLabel("Correo", { exact: true }).fill("no-es-un-correo"),
  },
];

for (const alta of altas)
  test(`${alta.path}: un alta rechazada lleva al resumen de errores, enfocado`, async ({ page }) => {
    await page.goto(alta.path);
    const form = createForm(page, alta.singular);
    await alta.fill(form);
    await form.getByRole("button", { name: `Crear ${alta.singular}` }).click();
    await expectSummaryAtHand(form.getByRole("alert"), /^Hay (1 error|\d+ errores)$/);
    await expectNoAxeViolations(page);
    // The form is still the one named «Nuevo …» (its heading kept as the region's name).
    await expect(form).toHaveCount(1);
  });

test("/usuarios: una invitación rechazada lleva al resumen de errores, enfocado", async ({ page }) => {
  await page.goto("/usuarios");
  const form = page.getByRole("region", { name: "Invitar a una persona" });
  await form.getByLabel("Correo electrónico").fill("no-es-un-correo");
  await form.getByRole("button", { name: "Enviar la invitación" }).click();
  await expectSummaryAtHand(form.getByRole("alert"), /^Hay (1 error|\d+ errores)$/);
});

test("tras crear un departamento se abre su ficha; «Volver» lleva a la lista como estaba", async ({ page }) => {
  const nombre = unique("Recién creado");
  await page.goto("/departamentos?orden=codigo&dir=desc");
  const form = createForm(page, "departamento");
  await form.getByLabel("Nombre").fill(nombre);
  await form.getByLabel("Código").fill(uniqueCode("R"));
  await form.getByRole("button", { name: "Crear departamento" }).click();
  await expect(page.getByRole("status")).toHaveText(`Departamento creado: ${nombre}`);
  await expect(page).toHaveURL(/\/departamentos\/[0-9a-f-]{36}\?volver=/);
  await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();
  await page.getByRole("link", { name: "← Volver a departamentos" }).click();
  await expect(page).toHaveURL(/\/departamentos\?orden=codigo&dir=desc#fila-[0-9a-f-]{36}$/);
});

test("tras crear un proveedor o una sucursal se abre su ficha", async ({ page }) => {
  const proveedor = unique("Proveedor nuevo");
  await page.goto("/proveedores");
  let form = createForm(page, "proveedor");
  await form.getByLabel("Razón social").fill(proveedor);
  await form.getByLabel("NIF / RFC / ID fiscal").fill(cifAlAzar());
  await form.getByLabel("Categoría").selectOption({ label: "Servicios profesionales" });
  await form.getByRole("button", { name: "Crear proveedor" }).click();
  await expect(page.getByRole("heading", { level: 1, name: proveedor })).toBeVisible();
  await expect(page).toHaveURL(/\/proveedores\/[0-9a-f-]{36}\?volver=/);

  const sucursal = unique("Sucursal nueva");
  await page.goto("/sucursales");
  form = createForm(page, "sucursal");
  await form.getByLabel("Nombre").fill(sucursal);
  await form.getByLabel("Código (obligatorio)").fill(uniqueCode("S"));
  await form.getByLabel("Dirección").fill("Calle Mayor 1");
  await form.getByLabel("Ciudad").fill("Soria");
  await form.getByRole("button", { name: "Crear sucursal" }).click();
  await expect(page.getByRole("heading", { level: 1, name: sucursal })).toBeVisible();
  await expect(page).toHaveURL(/\/sucursales\/[0-9a-f-]{36}\?volver=/);
});

const filtros = (page: Page, plural: string) => page.getByRole("search", { name: `Buscar ${plural}` });
const total = async (page: Page) =>
  Number((await page.locator(".resumen-lista strong").innerText()).replace(/\D/g, "") || "0");

test("/gastos: un importe ilegible se dice junto al filtro y la lista no se filtra por él", async ({ page }) => {
  await page.goto("/gastos");
  const todos = await total(page);
  const form = filtros(page, "gastos");
  await form.getByLabel("Importe máximo").fill("abc");
  await form.getByRole("button", { name: "Filtrar" }).click();
  const mensaje = "Escriba el importe máximo como un importe, por ejemplo 1.234,50";
  const summary = form.getByRole("alert");
  await expectSummaryAtHand(summary, "Hay 1 error en los filtros");
  await expect(summary.getByRole("link", { name: mensaje })).toHaveAttribute("href", "#filtro-importe_max");
  const campo = form.getByLabel("Importe máximo");
  await expect(campo).toHaveValue("abc");
  await expect(campo).toHaveAttribute("aria-invalid", "true");
  await expect(campo).toHaveAccessibleDescription(`Error: ${mensaje}`);
  expect(await total(page)).toBe(todos);
  await expectNoAxeViolations(page);
});

test("/gastos: «desde» después de «hasta» se dice y no se aplica", async ({ page }) => {
  await page.goto("/gastos");
  const todos = await total(page);
  const form = filtros(page, "gastos");
  await form.getByLabel("Fecha desde").fill("2026-12-31");
  await form.getByLabel("Fecha hasta").fill("2026-01-01");
  await form.getByRole("button", { name: "Filtrar" }).click();
  await expectSummaryAtHand(form.getByRole("alert"), "Hay 2 errores en los filtros");
  await expect(form.getByLabel("Fecha hasta")).toHaveAccessibleDescription(
    "Error: «Fecha hasta» debe ser igual o posterior a «Fecha desde»",
  );
  expect(await total(page)).toBe(todos);
});

test("/sucursales: un valor que no está entre las opciones también se dice", async ({ page }) => {
  await page.goto("/sucursales?pais=XX");
  const form = filtros(page, "sucursales");
  await expect(form.getByRole("alert").getByRole("heading", { name: "Hay 1 error en los filtros" })).toBeVisible();
  await expect(form.getByLabel("País")).toHaveAccessibleDescription("Error: Elija un país de la lista");
  await expect(page.getByText("con estos filtros")).toHaveCount(0);
});
