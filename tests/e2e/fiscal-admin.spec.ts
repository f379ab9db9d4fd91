import { randomInt } from "node:crypto";
import { readFile } from "node:fs/promises";
import { generateValidCif } from "../../app/lib/nif";
import { conectarBaseDeDatos } from "./support-base-de-datos";
import { as, createForm, expect, enlaceEnGrupo, expectNoAxeViolations, pressUntilFocused, unique } from "./support";

/**
 * The fiscal administration screens: an administrador changes the company's NIF with the
 * keyboard alone and adds a tipo de IVA (and exports it); an empleado is not shown them, and by their address
 * finds no such page.
 */
const admin = as("administrador");
const empleado = as("empleado");

/**
 * Both projects edit the company's one row: one journey at a time (an advisory lock, held by a
 * connection of its own until the journey ends), so neither saves over the other's new version.
 */
async function conLaEmpresa(journey: () => Promise<void>) {
  const db = await conectarBaseDeDatos();
  try {
    await db.query("select pg_advisory_lock(hashtext('e2e: la empresa'))");
    await journey();
  } finally {
    await db.end(); // the lock ends with its session
  }
}

admin(
  "con el teclado: de la navegación a «Empresa»; un NIF mal escrito se rechaza con su mensaje y uno válido se guarda",
  async ({ page }) => {
    await conLaEmpresa(async () => {
      await page.goto("/");
      await enlaceEnGrupo(page, "Administración", "Empresa", true);
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { level: 1, name: "Empresa" })).toBeVisible();
      await expect(page).toHaveURL("/empresa");
      await expect(page.getByRole("link", { name: /Volver a/ })).toHaveCount(0);
      await expectNoAxeViolations(page);

      const cif = generateValidCif(randomInt(1_000_000, 9_000_000), "B");
      const malo = cif.slice(0, 8) + String((Number(cif[8]) + 1) % 10);
      const nif = page.getByRole("textbox", { name: /^NIF/ });
      const tarifa = page.getByRole("textbox", { name: /^Tarifa por km/ });
      const tarifaAntes = await tarifa.inputValue();
      await pressUntilFocused(page, nif);
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type(malo);
      await pressUntilFocused(page, tarifa);
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type("-1");
      await page.keyboard.press("Enter");

      const mensaje = `El carácter de control del CIF no es correcto: para ${cif.slice(0, 8)} es ${cif[8]}.`;
      const resumen = page.getByRole("alert").filter({ has: page.getByRole("heading", { name: "Hay 2 errores" }) });
      // In the form's order: the NIF (checked by a rule of the whole form) before the tarifa.
      await expect(resumen.getByRole("link")).toHaveText([mensaje, /^Tarifa por km: /]);
      await expect(nif).toHaveAttribute("aria-invalid", "true");
      await expect(nif).toHaveAccessibleDescription(new RegExp(mensaje.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
      await expect(nif).toHaveValue(malo);

      // Written as people write it (lower case, a dash): kept in upper case, without the dash.
      await pressUntilFocused(page, nif);
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type(`${cif.slice(0, 1).toLowerCase()}-${cif.slice(1)}`);
      await pressUntilFocused(page, tarifa);
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type(tarifaAntes);
      await page.keyboard.press("Enter");
      await expect(page.getByRole("status")).toHaveText("Empresa guardada.");
      await expect(page).toHaveURL(/\/empresa(#.*)?$/);
      await expect(nif).toHaveValue(cif);
      await expect(nif).not.toHaveAttribute("aria-invalid", "true");
    });
  },
);

admin("añade un tipo de IVA: su ficha muestra el tipo sin dejar cambiarlo y la lista lo tiene", async ({ page }) => {
  await page.goto("/tipos-iva");
  await expect(page.getByRole("heading", { level: 1, name: "Tipos de IVA" })).toBeVisible();
  await expectNoAxeViolations(page);

  const nombre = unique("Reducido nuevo");
  // A day of its own for this run and project: (tipo, en vigor desde) is unique.
  const desde = `${2200 + randomInt(0, 7000)}-${String(randomInt(1, 13)).padStart(2, "0")}-15`;
  const form = createForm(page, "tipo de IVA");
  await form.getByRole("combobox", { name: /^Tipo/ }).selectOption({ label: "10 %" });
  await form.getByRole("textbox", { name: /^Nombre/ }).fill(nombre);
  await form.getByLabel(/^En vigor desde/).fill(desde);
  await form.getByRole("button", { name: "Crear tipo de IVA" }).click();

  await expect(page.getByRole("status")).toHaveText(`Tipo de IVA creado: ${nombre}`);
  await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();
  const datos = page.getByRole("region", { name: "Datos" });
  await expect(datos).toContainText("Tipo 10 %");
  await expect(datos.getByRole("combobox", { name: /^Tipo/ })).toHaveCount(0);
  await expect(datos.getByRole("textbox", { name: /^Nombre/ })).toHaveValue(nombre);
  await expect(page.getByRole("link", { name: /Eliminar/ })).toHaveCount(0);

  await page.goto(`/tipos-iva?q=${encodeURIComponent(nombre)}`);
  const fila = page.getByRole("row").filter({ has: page.getByRole("link", { name: nombre, exact: true }) });
  await expect(fila).toContainText("10 %");
  const [anio, mes, dia] = desde.split("-");
  await expect(fila).toContainText(`${dia}/${mes}/${anio}`);

  // The CSV of that list, as the table shows it (the generic screens' export).
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Exportar CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^tipos-iva-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile(await download.path(), "utf8")).split("\n");
  expect(csv).toHaveLength(3);
  expect(csv[1]).toContain(`"${nombre}"`);
});

admin(
  "IVA por categoría: cada categoría con su tipo habitual y su deducibilidad, sin «Nueva categoría»",
  async ({ page }) => {
    await page.goto("/categorias-fiscales");
    await expect(page.getByRole("heading", { level: 1, name: "IVA por categoría" })).toBeVisible();
    await expect(page.getByText("14 categorías", { exact: true })).toBeVisible();
    const fila = page.getByRole("row").filter({ has: page.getByRole("link", { name: "Atenciones a clientes" }) });
    await expect(fila).toContainText("No deducible");
    await expect(page.getByRole("link", { name: /^Nueva categoría/ })).toHaveCount(0);
    await expectNoAxeViolations(page);
  },
);

empleado(
  "un empleado no ve los enlaces de administración fiscal y sus direcciones no existen para él",
  async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Secciones" });
    await expect(nav.getByRole("link", { name: "Gastos", exact: true })).toBeVisible();
    for (const name of ["Tipos de IVA", "IVA por categoría", "Empresa"])
      await expect(nav.getByRole("link", { name, exact: true }), name).toHaveCount(0);
    for (const path of ["/empresa", "/tipos-iva", "/categorias-fiscales"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "No encontramos lo que busca" })).toBeVisible();
    }
    // A download is no screen: it answers with a short page that says why, not with JSON.
    const csv = await page.goto("/tipos-iva/exportar");
    expect(csv?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "No existe" })).toBeVisible();
    await expect(page.getByText("La página o el registro que busca no existe.")).toBeVisible();
    await expectNoAxeViolations(page);
  },
);
