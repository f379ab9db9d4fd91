import type { Locator, Page } from "@playwright/test";
import { as, expect, expectNoAxeViolations } from "./support";

/**
 * Daily use of one's own profile, with JavaScript and without it: each of its forms (the data,
 * the bank account, the password) refused lands on its own error summary, focused and in view,
 * not at the top of a long page with the message screens below.
 */
const test = as("empleado");

async function abrirMiPerfil(page: Page) {
  await page.goto("/");
  await page
    .getByRole("banner")
    .getByRole("link", { name: /^Mi perfil: / })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Elena Empleada" })).toBeVisible();
  // Reached from the header: no way «back» to a list of users her navigation does not show.
  await expect(page.getByRole("link", { name: /Volver a usuarios/ })).toHaveCount(0);
}

/** The summary is where the eye and the keyboard are: in the viewport and focused. */
async function expectSummaryAtHand(summary: Locator) {
  await expect(summary.getByRole("heading", { name: /^Hay \d+ error/ })).toBeVisible();
  await expect(summary).toBeFocused();
  await expect(summary).toBeInViewport();
}

test.describe("mi perfil en un teléfono", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("mis datos rechazados llevan a su resumen de errores, enfocado", async ({ page }) => {
    await abrirMiPerfil(page);
    const datos = page.getByRole("region", { name: "Datos", exact: true });
    await datos.getByLabel("Teléfono").fill("llámame");
    await datos.getByRole("button", { name: "Guardar cambios" }).click();
    await expectSummaryAtHand(datos.getByRole("alert"));
    await expect(datos.getByLabel("Teléfono")).toHaveValue("llámame");
  });

  test("unos datos bancarios rechazados llevan a su resumen de errores, enfocado", async ({ page }) => {
    await abrirMiPerfil(page);
    const banco = page.getByRole("region", { name: "Datos bancarios" });
    await banco.getByLabel(/^IBAN/).fill("ES00 1234");
    await banco.getByRole("button", { name: "Guardar los datos bancarios" }).click();
    await expectSummaryAtHand(banco.getByRole("alert"));
    await expect(banco.getByLabel(/^IBAN/)).toHaveValue("ES00 1234");
  });

  test("un cambio de contraseña rechazado lleva a su resumen de errores, enfocado", async ({ page }) => {
    await abrirMiPerfil(page);
    // Without the current password: refused before it is checked (no failed attempt counted).
    const seccion = page.getByRole("region", { name: "Cambiar mi contraseña" });
    await seccion.getByLabel(/^Contraseña nueva/).fill("una contraseña nueva larga");
    await seccion.getByLabel("Repita la contraseña nueva").fill("una contraseña nueva larga");
    await seccion.getByRole("button", { name: "Cambiar la contraseña" }).click();
    await expectSummaryAtHand(seccion.getByRole("alert"));
    await expectNoAxeViolations(page);
  });
});

as("aprobador")(
  "mi perfil desde la cabecera no ofrece «Volver a usuarios»; desde la lista de usuarios, sí",
  async ({ page }) => {
    await page.goto("/");
    await page
      .getByRole("banner")
      .getByRole("link", { name: /^Mi perfil: / })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Pablo Aprobador" })).toBeVisible();
    await expect(page.getByRole("link", { name: /Volver a usuarios/ })).toHaveCount(0);

    await page.goto("/usuarios?q=Pablo");
    await page.getByRole("main").getByRole("link", { name: "Pablo Aprobador", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Pablo Aprobador" })).toBeVisible();
    await expect(page.getByRole("link", { name: "← Volver a usuarios" })).toBeVisible();
  },
);
