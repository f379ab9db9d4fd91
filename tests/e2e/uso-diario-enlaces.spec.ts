import type { Page } from "@playwright/test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { E2E_DATA_DIR } from "./entorno";
import { ACCOUNTS, as, expect, expectNoAxeViolations, unique, uniqueCode } from "./support";
import { centimosAlAzar, gastosPendientes, panelGasto } from "./support-registros";
import { avisoNuevo, departamentoEnLaBase, enLaBaseDeDatos } from "./support-base-de-datos";

/**
 * Issue 31, links that open a gasto: from an aviso, a mail, a receipt's old address, they land on
 * the gasto's panel (`#gasto`), on a phone too, where the panel is far below the list's filters;
 * and opening the gasto from its aviso marks the aviso read.
 */
const empleado = as("empleado");
const aprobador = as("aprobador");

const MOVIL = { width: 390, height: 844 };
/** The panel's title, «Gasto GAS-… Estado». */
const titulo = (page: Page, folio: string) =>
  panelGasto(page, folio).getByRole("heading", { level: 2, name: new RegExp(`^Gasto ${folio}`) });

empleado.use({ viewport: MOVIL });
aprobador.use({ viewport: MOVIL });

empleado("en un móvil, un aviso abre la ficha de su gasto a la vista y queda leído", async ({ page }) => {
  const { folio } = await avisoNuevo(ACCOUNTS.empleado);
  await page.goto("/avisos");
  const aviso = page.getByRole("listitem").filter({ hasText: folio });
  await expect(aviso).toContainText("Sin leer");
  await aviso.getByRole("link", { name: new RegExp(folio) }).click();

  await expect(page).toHaveURL(/\/gastos\?gasto=[0-9a-f-]{36}#gasto$/);
  const panel = panelGasto(page, folio);
  await expect(panel).toHaveAttribute("id", "gasto");
  await expect(titulo(page, folio)).toBeInViewport();
  await expectNoAxeViolations(page);

  await page.goto("/avisos");
  const leido = page.getByRole("listitem").filter({ hasText: folio });
  await expect(leido).not.toContainText("Sin leer");
  await expect(leido.getByRole("button", { name: `Marcar como leído: ${folio}` })).toHaveCount(0);
});

empleado("la dirección antigua de los justificantes de un gasto lleva a su ficha, a la vista", async ({ page }) => {
  const { gasto, folio } = await avisoNuevo(ACCOUNTS.empleado);
  await page.goto(`/gastos/${gasto}/justificantes`);
  await expect(page).toHaveURL(new RegExp(`/gastos\\?gasto=${gasto}#gasto$`));
  await expect(titulo(page, folio)).toBeInViewport();
});

aprobador("en un móvil, el enlace del correo de un aviso abre la ficha del gasto a la vista", async ({ page }) => {
  const [folio] = await gastosPendientes([{ descripcion: "Enlace del correo", centimos: centimosAlAzar() }]);
  const buzon = path.resolve(E2E_DATA_DIR, "correo", `${ACCOUNTS.aprobador}.txt`);
  const correo = () =>
    existsSync(buzon)
      ? readFileSync(buzon, "utf8")
          .split("---")
          // Its own mail, or one with other avisos of the same pass (journeys run side by side).
          .find((m) => m.includes(folio))
      : undefined;
  await expect.poll(correo, { message: `el correo del gasto ${folio}` }).toBeTruthy();
  const id = (await enLaBaseDeDatos<{ id: string }>("select id from gastos where folio = $1", [folio]))[0]!.id;
  const enlace = new RegExp(`https?://\\S*/gastos\\?gasto=${id}\\S*`).exec(correo()!)![0];
  expect(enlace).toMatch(/#gasto$/);
  const url = new URL(enlace);
  await page.goto(url.pathname + url.search + url.hash);
  await expect(titulo(page, folio)).toBeInViewport();
});

aprobador(
  "en un móvil, lo hecho en la ficha se confirma en la ficha, a la vista, y no encima de la lista",
  async ({ page }) => {
    const [folio] = await gastosPendientes([{ descripcion: "Confirmación en la ficha", centimos: centimosAlAzar() }]);
    const id = (await enLaBaseDeDatos<{ id: string }>("select id from gastos where folio = $1", [folio]))[0]!.id;
    await page.goto(`/gastos?gasto=${id}#gasto`);
    await panelGasto(page, folio)
      .getByRole("region", { name: "Acciones" })
      .getByRole("button", { name: "Aprobar", exact: true })
      .click();

    await expect(page).toHaveURL(new RegExp(`/gastos\\?gasto=${id}#gasto$`));
    const confirmacion = panelGasto(page, folio).getByRole("status");
    await expect(confirmacion).toContainText(`Gasto ${folio} aprobado.`);
    await expect(confirmacion).toBeInViewport();
    // Once: in the panel, not also above the list.
    await expect(page.getByRole("status").filter({ hasText: `Gasto ${folio} aprobado.` })).toHaveCount(1);
    await expectNoAxeViolations(page);
  },
);

aprobador(
  "en un móvil, con una ficha abierta, lo hecho en bloque se confirma encima de la lista, a la vista, y no en la ficha",
  async ({ page }) => {
    const prefijo = unique("Bloque con ficha");
    // A department of its own without a budget: nothing to warn of, so approving asks nothing.
    const departamento = await departamentoEnLaBase(prefijo, uniqueCode("F"));
    const [abierto, otro] = await gastosPendientes([
      { descripcion: `${prefijo} abierto`, centimos: centimosAlAzar(), departamento },
      { descripcion: `${prefijo} otro`, centimos: centimosAlAzar(), departamento },
    ]);
    const id = (await enLaBaseDeDatos<{ id: string }>("select id from gastos where folio = $1", [abierto]))[0]!.id;
    await page.goto(`/gastos?vista=pendientes&q=${encodeURIComponent(prefijo)}&gasto=${id}#gasto`);
    await page.getByRole("checkbox", { name: `Seleccionar ${otro}` }).check();
    await page
      .getByRole("region", { name: "Aprobar o rechazar varios" })
      .getByRole("button", { name: "Aprobar seleccionados" })
      .click();

    await expect(page).toHaveURL(/#contenido$/);
    const confirmacion = page.getByRole("status").filter({ hasText: "Se ha aprobado 1 gasto." });
    await expect(confirmacion).toHaveCount(1);
    await expect(confirmacion).toBeInViewport();
    await expect(panelGasto(page, abierto!).getByText("Se ha aprobado 1 gasto.")).toHaveCount(0);
    await expect(titulo(page, abierto!)).toBeAttached();
  },
);
