import { as, expect, tecladoContado, unique } from "./support";
import { conectarBaseDeDatos } from "./support-base-de-datos";
import { flash, justificantePng, pageAs, panelGasto } from "./support-registros";

/**
 * Gastos with the keyboard only (the back office is used entirely from the keyboard): Tab,
 * Shift+Tab, Enter, Space and arrow keys, and typing into the focused field. No clicks, no
 * fill(). Every navigation key is counted (tecladoContado) and the count is part of the test:
 * Elena creates a gasto and sends it in at most 30; Pablo approves the first pending gasto of his
 * panel in at most 20. Both sessions start signed in (signing in by keyboard is teclado.spec.ts).
 */
const test = as("empleado");

const CREAR_Y_ENVIAR = 30;
const APROBAR_DESDE_EL_PANEL = 20;

test("con el teclado: un empleado crea y envía un gasto; el aprobador aprueba el primer pendiente desde el panel", async ({
  page,
  browser,
}) => {
  const descripcion = unique("Teclado gasto");
  await page.goto("/gastos?vista=mios");
  const k = tecladoContado(page);

  // «Saltar al contenido», then «Nuevo gasto», the first link of the page's content: the form
  // opens in the panel beside the list, its heading focused.
  await k.hasta(page.getByRole("link", { name: "Saltar al contenido" }));
  await k.press("Enter");
  await k.hasta(page.getByRole("main").getByRole("link", { name: "Nuevo gasto" }));
  await k.press("Enter");
  const form = page.getByRole("region", { name: "Nuevo gasto" });
  await expect(form.getByRole("heading", { name: "Nuevo gasto" })).toBeFocused();
  await k.press("Tab");
  const descripcionField = form.getByLabel("Descripción");
  await expect(descripcionField).toBeFocused();
  await k.type(descripcion);

  // The date comes filled in with today: on to Categoría, a select changed with the arrow keys.
  const categoria = form.getByLabel("Categoría");
  await k.hasta(categoria);
  await expect(categoria).toHaveValue("");
  await k.press("ArrowDown");
  await k.press("ArrowDown");
  await expect(categoria).not.toHaveValue("");
  const categoriaElegida = await categoria.locator("option:checked").innerText();

  await k.press("Tab");
  await expect(form.getByLabel("Importe (obligatorio)")).toBeFocused();
  await k.type("23,45");

  const metodo = form.getByLabel("Método de pago");
  await k.hasta(metodo);
  await k.press("ArrowDown");
  await expect(metodo).not.toHaveValue("");

  // The receipt: the file field is reached by Tab like any other; the file chooser is the
  // operating system's, so the file is handed to the focused input.
  const archivos = form.getByLabel("Justificantes");
  await k.hasta(archivos);
  await archivos.setInputFiles(await justificantePng());

  await k.hasta(form.getByRole("button", { name: "Crear gasto" }));
  await k.press("Enter");
  await expect(flash(page)).toContainText(/Gasto creado: GAS-\d{4}-\d{5}/);
  const folio = /GAS-\d{4}-\d{5}/.exec(await flash(page).innerText())![0];

  // The new gasto's panel is open and focused; «Enviar a aprobación» is a few Tabs on.
  const panel = panelGasto(page, folio);
  await expect(panel).toBeFocused();
  const datos = panel.getByRole("region", { name: "Datos" });
  await expect(datos.getByLabel("Descripción")).toHaveValue(descripcion);
  await expect(datos.getByLabel(/^Importe/)).toHaveValue("23,45");
  await k.hasta(panel.getByRole("button", { name: "Enviar a aprobación" }), "Tab", 10);
  await k.press("Enter");
  await expect(flash(page)).toContainText(`Gasto ${folio} enviado a aprobación.`);
  await expect(panel.getByRole("heading", { level: 2, name: /^Gasto GAS-/ })).toHaveText(
    `Gasto ${folio} Pendiente de aprobación`,
  );
  test.info().annotations.push({ type: "teclas para crear y enviar", description: String(k.total) });
  expect(k.total, "teclas para crear y enviar un gasto").toBeLessThanOrEqual(CREAR_Y_ENVIAR);

  // What the keyboard chose is what was stored (checked by looking).
  await page.goto(`/gastos?vista=mios&q=${folio}`);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: folio, exact: true }) });
  await expect(row).toContainText(descripcion);
  await expect(row).toContainText("23,45");
  await expect(row).toContainText("Pendiente");
  await expect(row).toContainText(categoriaElegida);

  // Pablo, from his panel: the first gasto of «Pendientes de aprobar», its panel, «Aprobar». The
  // other browser project runs this journey at the same time with the same first gasto: one at
  // a time across workers, so each approves the first one it finds pending.
  const turno = await conectarBaseDeDatos();
  await turno.query("select pg_advisory_lock(hashtext('e2e aprobar el primer pendiente'))");
  const pablo = await pageAs(browser, "aprobador");
  const p = tecladoContado(pablo);
  try {
    await pablo.goto("/");
    const pendientes = pablo.getByRole("region", { name: "Pendientes de aprobar" });
    const primero = pendientes.getByRole("table").getByRole("link").first();
    const suFolio = (await primero.innerText()).trim();
    await p.hasta(pablo.getByRole("link", { name: "Saltar al contenido" }));
    await p.press("Enter");
    await p.hasta(primero);
    await p.press("Enter");
    const suPanel = panelGasto(pablo, suFolio);
    await expect(suPanel).toBeFocused();
    await expect(suPanel.getByRole("heading", { level: 2, name: /^Gasto GAS-/ })).toHaveText(
      `Gasto ${suFolio} Pendiente de aprobación`,
    );
    const aprobar = suPanel
      .getByRole("region", { name: "Acciones" })
      .getByRole("button", { name: "Aprobar", exact: true });
    await p.hasta(aprobar, "Tab", 15);
    await p.press("Enter");
    await expect(flash(pablo)).toContainText(`Gasto ${suFolio} aprobado.`);
    await expect(suPanel.getByRole("heading", { level: 2, name: /^Gasto GAS-/ })).toHaveText(
      `Gasto ${suFolio} Aprobado`,
    );
    test.info().annotations.push({ type: "teclas para aprobar desde el panel", description: String(p.total) });
  } finally {
    await turno.end(); // the lock goes with the session
  }
  expect(p.total, "teclas para aprobar el primer pendiente desde el panel").toBeLessThanOrEqual(APROBAR_DESDE_EL_PANEL);
  await pablo.context().close();
});
