import { as, expect, pressUntilFocused, unique } from "./support";
import { flash, justificantePng, pageAs, panelGasto } from "./support-registros";

/**
 * Gastos with the keyboard only (SPEC: the back office is used entirely from the keyboard): Tab,
 * Shift+Tab, Enter, Space and arrow keys, and typing into the focused field. No clicks, no
 * fill(). Elena creates a gasto and sends it; Pablo finds it among his pending ones and approves
 * it from its panel. Both sessions start signed in (signing in by keyboard is teclado.spec.ts).
 */
const test = as("empleado");
test.describe.configure({ timeout: 90_000 });

test("con el teclado: un empleado crea y envía un gasto; el aprobador lo aprueba desde el panel", async ({
  page,
  browser,
}) => {
  const descripcion = unique("Teclado gasto");
  await page.goto("/gastos?vista=mios");

  // «Nuevo gasto» jumps to the form.
  await pressUntilFocused(page, page.getByRole("link", { name: "Nuevo gasto" }));
  await page.keyboard.press("Enter");
  const form = page.getByRole("region", { name: "Nuevo gasto" });
  await expect(form.getByRole("heading", { name: "Nuevo gasto" })).toBeFocused();
  await page.keyboard.press("Tab");
  const descripcionField = form.getByLabel("Descripción");
  await expect(descripcionField).toBeFocused();
  await page.keyboard.type(descripcion);

  // The date comes filled in with today: on to Categoría, a select changed with the arrow keys.
  const categoria = form.getByLabel("Categoría");
  await pressUntilFocused(page, categoria);
  // Shift+Tab goes back through the date to the description, which kept what was typed.
  await pressUntilFocused(page, descripcionField, "Shift+Tab", 10);
  await expect(descripcionField).toHaveValue(descripcion);
  await pressUntilFocused(page, categoria);
  await expect(categoria).toHaveValue("");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(categoria).not.toHaveValue("");
  const categoriaElegida = await categoria.locator("option:checked").innerText();

  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Importe (obligatorio)")).toBeFocused();
  await page.keyboard.type("23,45");

  const metodo = form.getByLabel("Método de pago");
  await pressUntilFocused(page, metodo);
  await page.keyboard.press("ArrowDown");
  await expect(metodo).not.toHaveValue("");

  // The receipt: the file field is reached by Tab like any other; the file chooser is the
  // operating system's, so the file is handed to the focused input.
  const archivos = form.getByLabel("Justificantes");
  await pressUntilFocused(page, archivos);
  await archivos.setInputFiles(await justificantePng());

  await pressUntilFocused(page, form.getByRole("button", { name: "Crear gasto" }));
  await page.keyboard.press("Enter");
  await expect(flash(page)).toContainText(/Gasto creado: GAS-\d{4}-\d{5}/);
  const folio = /GAS-\d{4}-\d{5}/.exec(await flash(page).innerText())![0];

  // The new gasto's panel is open beside the list; its first action is «Enviar a aprobación».
  const panel = panelGasto(page, folio);
  await expect(panel).toBeVisible();
  await expect(panel.getByRole("definition").filter({ hasText: descripcion })).toBeVisible();
  await expect(panel.getByRole("definition").filter({ hasText: "23,45" })).toBeVisible();
  const enviar = panel.getByRole("button", { name: "Enviar a aprobación" });
  await pressUntilFocused(page, enviar);
  await page.keyboard.press("Enter");
  await expect(flash(page)).toContainText(`Gasto ${folio} enviado a aprobación.`);
  await expect(panel.getByRole("heading", { level: 2, name: /^Gasto GAS-/ })).toHaveText(
    `Gasto ${folio} Pendiente de aprobación`,
  );

  // Pablo: «Mis pendientes de aprobar», the search box, the folio's link, «Aprobar».
  const pablo = await pageAs(browser, "aprobador");
  await pablo.goto("/gastos");
  await pressUntilFocused(
    pablo,
    pablo
      .getByRole("navigation", { name: "Vistas de gastos" })
      .getByRole("link", { name: "Mis pendientes de aprobar" }),
  );
  await pablo.keyboard.press("Enter");
  await expect(pablo).toHaveURL(/vista=pendientes/);
  await pressUntilFocused(pablo, pablo.getByRole("search", { name: "Buscar gastos" }).getByLabel("Buscar"));
  await pablo.keyboard.type(folio);
  await pablo.keyboard.press("Enter");
  await expect(pablo.getByText("1 gasto con estos filtros")).toBeVisible();
  await expect(pablo).toHaveURL(/vista=pendientes/);

  const enlace = pablo.getByRole("table").getByRole("link", { name: folio, exact: true });
  await pressUntilFocused(pablo, enlace);
  await pablo.keyboard.press("Enter");
  const suPanel = panelGasto(pablo, folio);
  await expect(suPanel.getByRole("heading", { level: 2, name: /^Gasto GAS-/ })).toHaveText(
    `Gasto ${folio} Pendiente de aprobación`,
  );
  const aprobar = suPanel
    .getByRole("region", { name: "Acciones" })
    .getByRole("button", { name: "Aprobar", exact: true });
  await pressUntilFocused(pablo, aprobar);
  await pablo.keyboard.press("Enter");
  await expect(flash(pablo)).toContainText(`Gasto ${folio} aprobado.`);
  await expect(suPanel.getByRole("heading", { level: 2, name: /^Gasto GAS-/ })).toHaveText(`Gasto ${folio} Aprobado`);
  await pablo.context().close();

  // What the keyboard chose is what was stored (checked by looking).
  await page.goto(`/gastos?vista=mios&q=${folio}`);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: folio, exact: true }) });
  await expect(row).toContainText(descripcion);
  await expect(row).toContainText("23,45");
  await expect(row).toContainText("Aprobado");
  await expect(row).toContainText(categoriaElegida);
});
