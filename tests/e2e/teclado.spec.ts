import { type Locator, type Page } from "@playwright/test";
import {
  ACCOUNTS,
  createForm,
  DEMO_PASSWORD,
  expect,
  grupoNav,
  jsEnabled,
  navegacion,
  pressUntilFocused,
  unique,
  uniqueCode,
  test,
} from "./support";

/**
 * Keyboard only (the back office is used entirely from the keyboard): Tab, Shift+Tab,
 * Enter, Space and arrow keys, and typing into the focused field. No clicks, no fill().
 */

/** Tab until `target` has the focus, within 80 presses. */
const tabTo = (page: Page, target: Locator) => pressUntilFocused(page, target, "Tab", 80);

/**
 * The focused element shows it: its outline is drawn (computed style, where scripts can run) and
 * the pixels around it change when the focus leaves it (in both projects).
 */
async function expectFocusVisible(page: Page, target: Locator) {
  await expect(target).toBeFocused();
  if (jsEnabled(test.info().project.name)) {
    const style = await target.evaluate((el) => {
      const c = getComputedStyle(el);
      return { outlineStyle: c.outlineStyle, outlineWidth: parseFloat(c.outlineWidth) };
    });
    expect(style.outlineStyle).not.toBe("none");
    expect(style.outlineWidth).toBeGreaterThan(0);
  }
  const box = (await target.boundingBox())!;
  const clip = { x: Math.max(0, box.x - 8), y: Math.max(0, box.y - 8), width: box.width + 16, height: box.height + 16 };
  const focused = await page.screenshot({ clip });
  await page.keyboard.press("Tab");
  await expect(target).not.toBeFocused();
  const unfocused = await page.screenshot({ clip });
  await page.keyboard.press("Shift+Tab");
  await expect(target).toBeFocused();
  expect(focused.equals(unfocused), "el foco no se ve").toBe(false);
}

test("con el teclado: saltar al contenido, entrar, ir a Departamentos y crear uno", async ({ page }) => {
  await page.goto("/login");

  // The first Tab reaches the skip link; Enter takes the focus to the main content.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Saltar al contenido" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();

  // Sign in.
  const signIn = page.getByRole("region", { name: "Iniciar sesión" });
  await page.keyboard.press("Tab");
  await expect(signIn.getByLabel("Correo electrónico")).toBeFocused();
  await page.keyboard.type(ACCOUNTS.administrador);
  await page.keyboard.press("Tab");
  await expect(signIn.getByLabel("Contraseña")).toBeFocused();
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press("Tab");
  const entrar = signIn.getByRole("button", { name: "Iniciar sesión" });
  await expectFocusVisible(page, entrar);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();

  // Through the nav to Departamentos, folded in «Administración»: Enter opens the group.
  await tabTo(page, grupoNav(page, "Administración"));
  await expectFocusVisible(page, grupoNav(page, "Administración"));
  await page.keyboard.press("Enter");
  const departamentos = navegacion(page).getByRole("link", { name: "Departamentos" });
  await tabTo(page, departamentos);
  await expectFocusVisible(page, departamentos);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Departamentos" })).toBeVisible();
  await expect(page).toHaveURL("/departamentos");

  // «Nuevo departamento» takes the focus to the form.
  await tabTo(page, page.getByRole("link", { name: "Nuevo departamento" }));
  await page.keyboard.press("Enter");
  const form = createForm(page, "departamento");
  await expect(form.getByRole("heading", { name: "Nuevo departamento" })).toBeFocused();
  await page.keyboard.press("Tab");
  const nombreField = form.getByLabel("Nombre");
  await expect(nombreField).toBeFocused();

  const nombre = unique("Teclado");
  const codigo = uniqueCode("K");
  await page.keyboard.type(nombre);
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Código")).toBeFocused();
  // Shift+Tab goes back; what was typed stays.
  await page.keyboard.press("Shift+Tab");
  await expect(nombreField).toBeFocused();
  await expect(nombreField).toHaveValue(nombre);
  await page.keyboard.press("Tab");
  await page.keyboard.type(codigo);

  // A select, changed with the arrow keys.
  await page.keyboard.press("Tab");
  const superior = form.getByLabel("Departamento superior");
  await expect(superior).toHaveValue("");
  await expectFocusVisible(page, superior);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(superior).not.toHaveValue("");
  const superiorId = await superior.inputValue();

  await tabTo(page, form.getByLabel("Centro de coste"));
  await page.keyboard.type("CC-TECLA");

  // A checkbox, toggled with Space.
  const activo = form.getByRole("checkbox", { name: "Activo" });
  await tabTo(page, activo);
  await expect(activo).toBeChecked();
  await expectFocusVisible(page, activo);
  await page.keyboard.press("Space");
  await expect(activo).not.toBeChecked();

  const crear = form.getByRole("button", { name: "Crear departamento" });
  await tabTo(page, crear);
  await expectFocusVisible(page, crear);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText(`Departamento creado: ${nombre}`);

  // Saved as typed and chosen (checked here by looking, not by keyboard).
  await page.goto(`/departamentos?q=${encodeURIComponent(nombre)}`);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: nombre, exact: true }) });
  await expect(row).toContainText(codigo);
  await expect(row).toContainText("CC-TECLA");
  await expect(row).toContainText("No");
  await page.goto((await page.getByRole("link", { name: nombre, exact: true }).getAttribute("href"))!);
  const datos = page.getByRole("region", { name: "Datos" });
  await expect(datos.getByLabel("Departamento superior")).toHaveValue(superiorId);
  await expect(datos.getByRole("checkbox", { name: "Activo" })).not.toBeChecked();
});
