import { test, type Page } from "@playwright/test";
import { ACCOUNTS, DEMO_PASSWORD, expect, jsEnabled, lastMailLink, unique, uniqueEmail, waitForMailLink } from "./support";

/**
 * Accounts (SPEC §6) as a person goes through them, signed out: sign up, the mail's link,
 * confirm, sign out, sign in. Every account is new (unique email), so tests never share one.
 */
const PASSWORD = "una frase larga para entrar";

const signInForm = (page: Page) => page.getByRole("region", { name: "Iniciar sesión" });
const signUpForm = (page: Page) => page.getByRole("region", { name: "Crear cuenta" });

async function signUp(page: Page, nombre: string, email: string, password = PASSWORD) {
  await page.goto("/login");
  const form = signUpForm(page);
  await form.getByLabel("Nombre").fill(nombre);
  await form.getByLabel("Correo electrónico").fill(email);
  await form.getByLabel("Contraseña").fill(password);
  await form.getByRole("button", { name: "Crear cuenta" }).click();
}

async function fillSignIn(page: Page, email: string, password: string) {
  const form = signInForm(page);
  await form.getByLabel("Correo electrónico").fill(email);
  await form.getByLabel("Contraseña").fill(password);
  await form.getByRole("button", { name: "Iniciar sesión" }).click();
}

test("crear cuenta, confirmar desde el correo, cerrar sesión y volver a entrar", async ({ page, context }) => {
  const nombre = unique("Persona");
  const email = uniqueEmail("alta");
  await signUp(page, nombre, email);

  await expect(page).toHaveURL("/signup-confirmation");
  await expect(page.getByRole("heading", { level: 1, name: "Revisa tu correo" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText(email);

  const link = await waitForMailLink(email);
  expect(new URL(link).pathname).toBe("/auth/confirm");

  // Opening the link only shows a button: a mail scanner following it cannot use up the token.
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Confirmar la cuenta" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Confirmar mi cuenta" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "Confirmar mi cuenta" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);

  await page.getByRole("button", { name: "Confirmar mi cuenta" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("Cuenta confirmada. Le damos la bienvenida a Oficina.");
  await expect(page.getByRole("banner").getByRole("link", { name: nombre })).toBeVisible();

  // The same link cannot be used twice.
  const used = await context.newPage();
  await used.goto(link);
  await used.getByRole("button", { name: "Confirmar mi cuenta" }).click();
  await expect(used.getByRole("alert")).toContainText("El enlace no es válido o ha caducado.");
  await used.close();

  // Sign out: the session ends on the server, not only in this browser.
  const sesion = (await context.cookies()).find((c) => c.name === "oficina_sesion");
  expect(sesion).toBeDefined();
  await page.getByRole("button", { name: "Cerrar sesión" }).click();
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("status")).toHaveText("Ha cerrado la sesión.");
  await context.addCookies([sesion!]);
  await page.goto("/departamentos?q=a");
  await expect(page).toHaveURL("/login?redirectTo=%2Fdepartamentos%3Fq%3Da");

  // Signing in lands where the person was going.
  await fillSignIn(page, email, PASSWORD);
  await expect(page).toHaveURL("/departamentos?q=a");
  await expect(page.getByRole("heading", { level: 1, name: "Departamentos" })).toBeVisible();
  await expect(page.getByRole("search", { name: "Buscar departamentos" }).getByLabel("Buscar")).toHaveValue("a");
});

test("contraseña equivocada y correo desconocido dan el mismo mensaje", async ({ page }, testInfo) => {
  await page.goto("/login");
  await fillSignIn(page, ACCOUNTS.aprobador, "no es la contraseña");
  const alert = signInForm(page).getByRole("alert");
  await expect(alert).toContainText("Correo o contraseña incorrectos");
  const knownAccount = await alert.innerText();
  await expect(page).toHaveURL(/\/login/);
  await expect(signInForm(page).getByLabel("Correo electrónico")).toHaveValue(ACCOUNTS.aprobador);
  // The server never sends a password back (with JavaScript the page was not reloaded).
  if (!jsEnabled(testInfo.project.name)) await expect(signInForm(page).getByLabel("Contraseña")).toHaveValue("");

  await page.goto("/login");
  await fillSignIn(page, uniqueEmail("nadie"), "no es la contraseña");
  await expect(alert).toContainText("Correo o contraseña incorrectos");
  expect(await alert.innerText()).toBe(knownAccount);
});

test("contraseña corta al crear cuenta: resumen con enlace, campo marcado y datos conservados", async ({ page }, testInfo) => {
  const nombre = unique("Corta");
  const email = uniqueEmail("corta");
  await signUp(page, nombre, email, "corta");

  const form = signUpForm(page);
  const summary = form.getByRole("alert");
  await expect(summary.getByRole("heading", { name: "Hay 1 error" })).toBeVisible();
  if (jsEnabled(testInfo.project.name)) await expect(summary).toBeFocused();
  const message = "Contraseña: al menos 12 caracteres";
  await expect(summary.getByRole("link", { name: message })).toHaveAttribute("href", "#crear-password");
  const password = form.getByLabel("Contraseña");
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(password).toHaveAccessibleDescription(new RegExp(message));
  await expect(form.getByLabel("Nombre")).toHaveValue(nombre);
  await expect(form.getByLabel("Correo electrónico")).toHaveValue(email);
  await expect(page).toHaveURL("/login");

  await summary.getByRole("link", { name: message }).click();
  await expect(page).toHaveURL(/#crear-password$/);
  await expect(password).toBeFocused();
  // No account, no mail.
  expect(lastMailLink(email)).toBeNull();
});

test("una cuenta sin confirmar no puede entrar; «Reenviar el correo» manda un enlace nuevo que sí sirve", async ({ page }) => {
  const email = uniqueEmail("pendiente");
  await signUp(page, unique("Pendiente"), email);
  await expect(page.getByRole("heading", { level: 1, name: "Revisa tu correo" })).toBeVisible();
  const first = await waitForMailLink(email);

  await page.goto("/login");
  await fillSignIn(page, email, PASSWORD);
  await expect(signInForm(page).getByRole("alert")).toContainText("Confirme su correo antes de iniciar sesión");
  await expect(page).toHaveURL(/\/login/);

  await page.goto("/signup-confirmation");
  const reenviar = page.getByRole("region", { name: "Reenviar el correo" });
  await reenviar.getByLabel("Correo electrónico").fill(email);
  await reenviar.getByRole("button", { name: "Reenviar el correo" }).click();
  await expect(page.getByRole("status")).toHaveText("Si hay una cuenta pendiente de confirmar con ese correo, le hemos enviado un enlace nuevo.");
  await expect.poll(() => lastMailLink(email)).not.toBe(first);

  await page.goto(lastMailLink(email)!);
  await page.getByRole("button", { name: "Confirmar mi cuenta" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();
});

for (const destino of ["https://evil.example/robar", "//evil.example/robar", "/\\evil.example"]) {
  test(`redirectTo a otro sitio se ignora (${destino})`, async ({ page, baseURL }) => {
    await page.goto(`/login?redirectTo=${encodeURIComponent(destino)}`);
    await fillSignIn(page, ACCOUNTS.empleado, DEMO_PASSWORD);
    await expect(page.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();
    expect(page.url()).toBe(`${baseURL}/`);
  });
}
