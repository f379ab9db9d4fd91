import { type Browser, type Locator, type Page } from "@playwright/test";
import {
  ACCOUNTS,
  as,
  expect,
  jsEnabled,
  lastMailLink,
  paginaQueDibuja,
  pathOf,
  pressUntilFocused,
  test as base,
  uniqueEmail,
  waitForMailLink,
} from "./support";

/**
 * Invitations (ADR 0013) as people go through them: an administrador invites on
 * /usuarios; the invited person opens the mailed link (dev outbox) in a browser of their own,
 * chooses a password and lands signed in with what the administrador chose. Resend and cancel
 * kill the old link. With JavaScript and without it; and once by keyboard only.
 */
const admin = as("administrador");
const PASSWORD = "la contraseña de la invitada";

const inviteForm = (page: Page) => page.getByRole("region", { name: "Invitar a una persona" });
const pendientes = (page: Page) => page.getByRole("region", { name: "Invitaciones pendientes" });

async function invite(
  page: Page,
  o: { nombre: string; apellidos?: string; email: string; rol?: string; departamento?: string },
) {
  await page.goto("/usuarios");
  const form = inviteForm(page);
  await form.getByLabel("Nombre").fill(o.nombre);
  if (o.apellidos) await form.getByLabel("Apellidos").fill(o.apellidos);
  await form.getByLabel("Correo electrónico").fill(o.email);
  if (o.rol) await form.getByLabel("Rol").selectOption({ label: o.rol });
  if (o.departamento) await form.getByLabel("Departamento").selectOption({ label: o.departamento });
  await form.getByRole("button", { name: "Enviar la invitación" }).click();
}

/** A signed-out browser of the invited person's own, with the same JavaScript setting. */
async function invitee(browser: Browser) {
  const context = await browser.newContext({
    javaScriptEnabled: jsEnabled(base.info().project.name),
    locale: "es-ES",
    baseURL: base.info().project.use.baseURL,
  });
  return { page: await paginaQueDibuja(context), close: () => context.close() };
}

const nueva = (page: Page) => page.getByRole("textbox", { name: /^Contraseña nueva/ });
const repetir = (page: Page) => page.getByRole("textbox", { name: /^Repita la contraseña nueva/ });

async function choosePassword(page: Page, password = PASSWORD, repeat = password) {
  await nueva(page).fill(password);
  await repetir(page).fill(repeat);
  await page.getByRole("button", { name: "Guardar la contraseña y entrar" }).click();
}

admin(
  "el administrador invita; la persona abre el enlace del correo, elige su contraseña y entra con el rol elegido",
  async ({ page, browser }) => {
    const email = uniqueEmail("invitada");
    await invite(page, {
      nombre: "Irene",
      apellidos: "Invitada Ruiz",
      email,
      rol: "Aprobador",
      departamento: "Tecnología",
    });
    // Without JavaScript the form's «#invitar» stays in the address after the redirect.
    await expect(page).toHaveURL(/\/usuarios(#invitar)?$/);
    await expect(page.getByRole("status")).toContainText(`Invitación enviada a ${email}`);
    const row = pendientes(page).getByRole("row").filter({ hasText: email });
    await expect(row).toContainText("Irene Invitada Ruiz");
    await expect(row).toContainText("Aprobador");
    await expect(row).toContainText("Tecnología");
    await expect(row).toContainText(/Caduca el/);

    const link = pathOf(await waitForMailLink(email));
    expect(new URL(link, "http://x").pathname).toBe("/auth/invitacion");
    const them = await invitee(browser);
    try {
      const p = them.page;
      await p.goto(link);
      await expect(p.getByRole("heading", { level: 1, name: "Bienvenido a Oficina" })).toBeVisible();
      // Opening it again (a mail scanner did first) still shows the form: the GET uses nothing up.
      await p.reload();
      await expect(p.getByRole("heading", { level: 2, name: "Elija su contraseña" })).toBeVisible();
      await expect(p.getByRole("alert")).toHaveCount(0);

      // Too short and not matching: the same page says why; nothing is used up.
      await choosePassword(p, "corta", "otra");
      await expect(p.getByRole("alert").getByRole("heading", { name: /^Hay (1 error|\d+ errores)$/ })).toBeVisible();
      await choosePassword(p);
      await expect(p).toHaveURL("/");
      await expect(p.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();
      await expect(p.getByRole("status")).toHaveText(
        "Bienvenido a Oficina: su contraseña está guardada y ha iniciado sesión.",
      );
      await expect(p.getByRole("banner")).toContainText("Irene Invitada Ruiz");
      // The rol the administrador chose: an aprobador's panel.
      await expect(p.getByRole("heading", { level: 2, name: "Pendientes de aprobar" })).toBeVisible();

      // The link served once.
      await p.goto(link);
      await expect(p.getByRole("alert")).toContainText("Este enlace ya no sirve");
    } finally {
      await them.close();
    }
    await page.goto("/usuarios");
    await expect(pendientes(page)).not.toContainText(email);
  },
);

admin(
  "reenviar deja inútil el enlace anterior; cancelar deja inútil el nuevo y quita la cuenta pendiente",
  async ({ page, browser }) => {
    const email = uniqueEmail("reenvio");
    await invite(page, { nombre: "Rita", email });
    await expect(page.getByRole("status")).toContainText(`Invitación enviada a ${email}`);
    const first = pathOf(await waitForMailLink(email));

    await pendientes(page)
      .getByRole("button", { name: `Reenviar la invitación de ${email}` })
      .click();
    await expect(page.getByRole("status")).toContainText(`Invitación reenviada a ${email}`);
    await expect.poll(() => pathOf(lastMailLink(email)!)).not.toBe(first);
    const second = pathOf(await waitForMailLink(email));

    const them = await invitee(browser);
    try {
      await them.page.goto(first);
      await expect(them.page.getByRole("alert")).toContainText("Pida a un administrador que le envíe otra invitación.");
      await expect(nueva(them.page)).toHaveCount(0);

      await pendientes(page)
        .getByRole("button", { name: `Cancelar la invitación de ${email}` })
        .click();
      await expect(page.getByRole("status")).toContainText(`Invitación de ${email} cancelada`);
      await expect(pendientes(page)).not.toContainText(email);
      await expect(page.getByRole("table", { name: /^Usuarios/ })).not.toContainText(email);

      await them.page.goto(second);
      await expect(them.page.getByRole("alert")).toContainText("Pida a un administrador que le envíe otra invitación.");
    } finally {
      await them.close();
    }
  },
);

admin("un correo que ya tiene cuenta se rechaza en el campo, sin enviar nada", async ({ page }) => {
  await invite(page, { nombre: "Otra", email: ACCOUNTS.empleado });
  const form = inviteForm(page);
  await expect(form.getByRole("alert")).toContainText(`Ya hay una cuenta con ${ACCOUNTS.empleado}`);
  await expect(form.getByLabel("Correo electrónico")).toHaveAttribute("aria-invalid", "true");
  await expect(pendientes(page)).not.toContainText(ACCOUNTS.empleado);
});

as("empleado")("quien no es administrador no ve el formulario ni las invitaciones pendientes", async ({ page }) => {
  await page.goto("/usuarios");
  await expect(page.getByRole("heading", { level: 1, name: "Usuarios" })).toBeVisible();
  await expect(inviteForm(page)).toHaveCount(0);
  await expect(pendientes(page)).toHaveCount(0);
});

const tabTo = (page: Page, target: Locator, max?: number) => pressUntilFocused(page, target, "Tab", max);

admin("solo con el teclado: invitar, y la persona invitada elige su contraseña y entra", async ({ page, browser }) => {
  const email = uniqueEmail("teclado");
  await page.goto("/usuarios");
  const form = inviteForm(page);
  await tabTo(page, form.getByLabel("Nombre"));
  await page.keyboard.type("Teresa");
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Apellidos")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Correo electrónico")).toBeFocused();
  await page.keyboard.type(email);
  await tabTo(page, form.getByRole("button", { name: "Enviar la invitación" }), 10);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toContainText(`Invitación enviada a ${email}`);
  // Resend and cancel buttons are reachable by Tab too.
  await tabTo(page, pendientes(page).getByRole("button", { name: `Reenviar la invitación de ${email}` }));

  const them = await invitee(browser);
  try {
    const p = them.page;
    await p.goto(pathOf(await waitForMailLink(email)));
    await tabTo(p, nueva(p));
    await p.keyboard.type(PASSWORD);
    await p.keyboard.press("Tab");
    await expect(repetir(p)).toBeFocused();
    await p.keyboard.type(PASSWORD);
    await p.keyboard.press("Enter");
    await expect(p).toHaveURL("/");
    await expect(p.getByRole("banner")).toContainText("Teresa");
  } finally {
    await them.close();
  }
});
