import type { Page } from "@playwright/test";
import { as, expect } from "./support";

/**
 * «Historial de cambios» names every change in Spanish: a column the database records but no
 * form asks for (how a profile was born, a rate's percentage) has its own words, and a purely
 * technical one is not listed at all — never its column name.
 */
const campos = (page: Page) =>
  page.getByRole("region", { name: "Historial de cambios" }).getByRole("rowheader").allInnerTexts();

as("empleado")("el historial de mi perfil no muestra nombres de columna", async ({ page }) => {
  await page.goto("/");
  await page
    .getByRole("banner")
    .getByRole("link", { name: /^Mi perfil: / })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Elena Empleada" })).toBeVisible();
  const nombres = await campos(page);
  expect(nombres).toContain("Nombre");
  expect(nombres).toContain("Alta por su cuenta");
  expect(nombres.filter((n) => /_/.test(n))).toEqual([]);
});

as("administrador")("el historial de un tipo de IVA y el de la empresa, en palabras", async ({ page }) => {
  await page.goto("/tipos-iva?q=General");
  await page.getByRole("table").getByRole("link", { name: "General" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "General" })).toBeVisible();
  const tipo = await campos(page);
  expect(tipo).toContain("Porcentaje");
  expect(tipo.filter((n) => /^[a-z_]+$/.test(n))).toEqual([]);

  await page.goto("/empresa");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const empresa = await campos(page);
  expect(empresa).toContain("País");
  expect(empresa.filter((n) => /^[a-z_]+$/.test(n))).toEqual([]);
});
