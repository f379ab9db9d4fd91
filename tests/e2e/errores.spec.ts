import { as, expect, jsEnabled } from "./support";

/**
 * The generic error screen through /sentry-example-page: a server error (a form, so it
 * works in both projects) and a browser error (JavaScript only). Spanish, with the digest, a link
 * home, and never the error's own message or a stack trace.
 */
// The test page is an administrador's (anyone else gets a 404).
const test = as("administrador");

test("error en el servidor: pantalla de error con su código", async ({ page }) => {
  await page.goto("/sentry-example-page");
  await expect(page.getByRole("heading", { level: 1, name: "Página de prueba de errores" })).toBeVisible();
  const responded = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/sentry-example-page",
  );
  await page.getByRole("button", { name: "Provocar un error en el servidor" }).click();
  expect((await responded).status()).toBe(500);

  await expect(
    page.getByRole("heading", { level: 1, name: "Error de la aplicación: se produjo una excepción en el servidor" }),
  ).toBeVisible();
  await expect(page.getByText(/^Código: \S{6,}$/)).toBeVisible();
  await expect(page).toHaveTitle("Error — Oficina");
  await expect(page.getByRole("link", { name: "Volver al inicio" })).toHaveAttribute("href", "/");
  // Nothing internal reaches the page.
  expect(await page.content()).not.toContain("Error de prueba de Sentry");
  expect(await page.getByRole("main").innerText()).not.toMatch(/\bat .+:\d+:\d+/);
});

test("error en el navegador: con JavaScript, pantalla de error con su código; sin él, la página lo avisa", async ({
  page,
}, testInfo) => {
  await page.goto("/sentry-example-page");
  const navegador = page.getByRole("region", { name: "Error en el navegador" });
  await expect(navegador).toContainText("Necesita JavaScript.");
  if (!jsEnabled(testInfo.project.name)) {
    // Without JavaScript the button cannot do anything, and the page says so.
    await navegador.getByRole("button", { name: "Provocar un error en el navegador" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Página de prueba de errores" })).toBeVisible();
    return;
  }
  await navegador.getByRole("button", { name: "Provocar un error en el navegador" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: "Error de la aplicación: se produjo una excepción en el navegador" }),
  ).toBeVisible();
  await expect(page.getByText(/^Código: \S{6,}$/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Volver al inicio" })).toBeVisible();
  expect(await page.getByRole("main").innerText()).not.toContain("Error de prueba de Sentry");
});
