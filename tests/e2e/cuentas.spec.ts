import { type Page } from "@playwright/test";
import {
  ACCOUNTS,
  DEMO_PASSWORD,
  expect,
  jsEnabled,
  lastMailLink,
  paginaQueDibuja,
  pathOf,
  test,
  unique,
  uniqueEmail,
  waitForMailLink,
} from "./support";

/**
 * Accounts (docs/producto.md «Cuentas») as a person goes through them, signed out: sign up, the mail's link,
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
  await expect(page.getByRole("heading", { level: 1, name: "Revise su correo" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText(email);

  const link = pathOf(await waitForMailLink(email));
  expect(new URL(link, "http://x").pathname).toBe("/auth/confirm");

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
  const used = await paginaQueDibuja(context);
  await used.goto(link);
  await used.getByRole("button", { name: "Confirmar mi cuenta" }).click();
  await expect(used.getByRole("alert")).toContainText("Su cuenta ya está confirmada");
  await expect(used.getByRole("alert").getByRole("link", { name: "Iniciar sesión" })).toHaveAttribute("href", "/login");
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

test("contraseña corta al crear cuenta: resumen con enlace, campo marcado y datos conservados", async ({
  page,
}, testInfo) => {
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

test("una cuenta sin confirmar no puede entrar; «Reenviar el correo» manda un enlace nuevo que sí sirve", async ({
  page,
}) => {
  const email = uniqueEmail("pendiente");
  await signUp(page, unique("Pendiente"), email);
  await expect(page.getByRole("heading", { level: 1, name: "Revise su correo" })).toBeVisible();
  const first = await waitForMailLink(email);

  await page.goto("/login");
  await fillSignIn(page, email, PASSWORD);
  await expect(signInForm(page).getByRole("alert")).toContainText("Confirme su correo antes de iniciar sesión");
  await expect(page).toHaveURL(/\/login/);

  await page.goto("/signup-confirmation");
  const reenviar = page.getByRole("region", { name: "Reenviar el correo" });
  await reenviar.getByLabel("Correo electrónico").fill(email);
  await reenviar.getByRole("button", { name: "Reenviar el correo" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Si hay una cuenta pendiente de confirmar con ese correo, le hemos enviado un enlace nuevo. Los enlaces anteriores ya no sirven.",
  );
  await expect.poll(() => lastMailLink(email)).not.toBe(first);

  await page.goto(pathOf(lastMailLink(email)!));
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

/** A new confirmed account, signed in on `page`. */
async function newAccount(page: Page, prefix: string) {
  const nombre = unique(prefix);
  const email = uniqueEmail(prefix.toLowerCase());
  await signUp(page, nombre, email);
  await expect(page.getByRole("heading", { level: 1, name: "Revise su correo" })).toBeVisible();
  await page.goto(pathOf(await waitForMailLink(email)));
  await page.getByRole("button", { name: "Confirmar mi cuenta" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();
  return { nombre, email };
}

test("«¿Ha olvidado su contraseña?»: correo, enlace, la nueva dos veces; entra y su otra sesión se cierra", async ({
  page,
  browser,
}, testInfo) => {
  const { email } = await newAccount(page, "Olvido");
  const elsewhere = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo.project.name) });
  const other = await paginaQueDibuja(elsewhere);
  await other.goto(`${testInfo.project.use.baseURL}/login`);
  await fillSignIn(other, email, PASSWORD);
  await expect(other.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();

  await page.getByRole("button", { name: "Cerrar sesión" }).click();
  await page.getByRole("link", { name: "¿Ha olvidado su contraseña?" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "¿Ha olvidado su contraseña?" })).toBeVisible();
  const before = lastMailLink(email);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByRole("button", { name: "Enviarme el enlace" }).click();
  await expect(page.getByRole("status")).toContainText(`Si hay una cuenta con ${email}, le hemos enviado un enlace`);
  await expect.poll(() => lastMailLink(email)).not.toBe(before);
  const link = pathOf(lastMailLink(email)!);
  expect(link).toMatch(/^\/auth\/recuperar\?token=/);

  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Elegir una contraseña nueva" })).toBeVisible();
  await page.getByLabel(/^Contraseña nueva/).fill("la contraseña recuperada");
  await page.getByLabel("Repita la contraseña nueva").fill("otra distinta del todo");
  await page.getByRole("button", { name: "Guardar la contraseña y entrar" }).click();
  await expect(page.getByRole("alert")).toContainText("Las dos contraseñas no coinciden");
  await expect(page.getByLabel("Repita la contraseña nueva")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel(/^Contraseña nueva/).fill("la contraseña recuperada");
  await page.getByLabel("Repita la contraseña nueva").fill("la contraseña recuperada");
  await page.getByRole("button", { name: "Guardar la contraseña y entrar" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText(
    "Contraseña cambiada. Ha iniciado sesión; las demás sesiones de su cuenta se han cerrado.",
  );

  // The other browser's session ended; the link cannot be used again.
  await other.goto(`${testInfo.project.use.baseURL}/departamentos`);
  await expect(other).toHaveURL(/\/login\?redirectTo=/);
  await other.goto(`${testInfo.project.use.baseURL}${link}`);
  await expect(other.getByRole("alert")).toContainText("Este enlace ya no sirve");
  await expect(other.getByRole("alert").getByRole("link", { name: "Pedir un enlace nuevo" })).toBeVisible();
  await elsewhere.close();
});

test("cambiar mi contraseña en mi ficha: pide la actual, cierra la otra sesión y mantiene esta", async ({
  page,
  browser,
}, testInfo) => {
  const { nombre, email } = await newAccount(page, "Cambio");
  const elsewhere = await browser.newContext({ javaScriptEnabled: jsEnabled(testInfo.project.name) });
  const other = await paginaQueDibuja(elsewhere);
  await other.goto(`${testInfo.project.use.baseURL}/login`);
  await fillSignIn(other, email, PASSWORD);
  await expect(other.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();

  await page.getByRole("banner").getByRole("link", { name: nombre }).click();
  const section = page.getByRole("region", { name: "Cambiar mi contraseña" });
  await section.getByLabel("Contraseña actual").fill("no es la actual");
  await section.getByLabel(/^Contraseña nueva/).fill("mi contraseña cambiada");
  await section.getByLabel("Repita la contraseña nueva").fill("mi contraseña cambiada");
  await section.getByRole("button", { name: "Cambiar la contraseña" }).click();
  await expect(section.getByRole("alert")).toContainText("La contraseña actual no es correcta");

  await section.getByLabel("Contraseña actual").fill(PASSWORD);
  await section.getByLabel(/^Contraseña nueva/).fill("mi contraseña cambiada");
  await section.getByLabel("Repita la contraseña nueva").fill("mi contraseña cambiada");
  await section.getByRole("button", { name: "Cambiar la contraseña" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Contraseña cambiada. Se han cerrado sus otras sesiones; esta sigue abierta.",
  );
  await page.goto("/departamentos");
  await expect(page.getByRole("heading", { level: 1, name: "Departamentos" })).toBeVisible();
  await other.goto(`${testInfo.project.use.baseURL}/departamentos`);
  await expect(other).toHaveURL(/\/login\?redirectTo=/);
  await fillSignIn(other, email, "mi contraseña cambiada");
  await expect(other.getByRole("heading", { level: 1, name: "Departamentos" })).toBeVisible();
  await elsewhere.close();
});

test("restablecer y cambiar la contraseña solo con el teclado", async ({ page }) => {
  const { email } = await newAccount(page, "Teclado");
  await page.getByRole("button", { name: "Cerrar sesión" }).click();
  await expect(page).toHaveURL("/login");
  // From the password field, Tab reaches the sign-in button and then «¿Ha olvidado su contraseña?».
  await signInForm(page).getByLabel("Contraseña").focus();
  await page.keyboard.press("Tab");
  await expect(signInForm(page).getByRole("button", { name: "Iniciar sesión" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "¿Ha olvidado su contraseña?" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "¿Ha olvidado su contraseña?" })).toBeVisible();
  await page.getByLabel("Correo electrónico").focus();
  await page.keyboard.type(email);
  const before = lastMailLink(email);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toContainText("le hemos enviado un enlace");
  await expect.poll(() => lastMailLink(email)).not.toBe(before);

  await page.goto(pathOf(lastMailLink(email)!));
  await page.getByLabel(/^Contraseña nueva/).focus();
  await page.keyboard.type("contraseña por teclado");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Repita la contraseña nueva")).toBeFocused();
  await page.keyboard.type("contraseña por teclado");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();
});

test("por rutas con codificación porcentual (/%6Cogin, /%73ignup-confirmation) rigen los mismos límites: 429, Retry-After y la página normal", async ({
  request,
  baseURL,
}, testInfo) => {
  test.skip(testInfo.project.name !== "sin-js", "HTTP directo: una vez basta");
  const headers = { Origin: baseURL!, "Sec-Fetch-Site": "same-origin" };
  const email = uniqueEmail("bloqueo");
  const post = (path: string, form: Record<string, string>) => request.post(path, { form, headers, maxRedirects: 0 });
  for (let i = 0; i < 5; i++)
    expect(
      (await post("/%6Cogin", { intent: "iniciar", email, password: "equivocada", redirectTo: "/" })).status(),
    ).toBe(400);
  const locked = await post("/%6Cogin", { intent: "iniciar", email, password: "equivocada", redirectTo: "/" });
  expect(locked.status()).toBe(429);
  expect(Number(locked.headers()["retry-after"])).toBeGreaterThan(60);
  const page = await locked.text();
  expect(page).toContain("<title>Iniciar sesión — Oficina</title>");
  expect(page).toContain("Demasiados intentos fallidos con este correo. Espere 15 minutos");

  const inbox = uniqueEmail("buzon");
  for (let i = 0; i < 3; i++)
    expect((await post("/%73ignup-confirmation", { intent: "reenviar", email: inbox })).status()).toBe(302);
  const fourth = await post("/%73ignup-confirmation", { intent: "reenviar", email: inbox });
  expect(fourth.status()).toBe(429);
  expect(fourth.headers()["retry-after"]).toMatch(/^\d+$/);
  expect(await fourth.text()).toContain("Ha pedido demasiados correos para esta dirección");
});
