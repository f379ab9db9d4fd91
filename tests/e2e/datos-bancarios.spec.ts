import { randomInt } from "node:crypto";
import { formatIban, generateValidEsIban } from "../../app/lib/iban";
import {
  as,
  asItIs,
  createForm,
  enlaceEnGrupo,
  expect,
  expectNoAxeViolations,
  pressUntilFocused,
  unique,
  uniqueEmail,
  test as base,
} from "./support";
import { literal, signUpAndConfirm } from "./support-registros";

/**
 * Where reimbursements are paid: a new empleado adds the IBAN of their account on their own
 * profile with the keyboard alone (a mistyped check digit is refused with its message first),
 * and an administrador adds a company account to pay from. With and without JavaScript.
 */
const admin = as("administrador");

/** A fresh, valid Spanish IBAN for this run and project (IBANs of company accounts are unique). */
const ibanNuevo = () => generateValidEsIban(randomInt(1_000_000, 2_000_000_000));

base(
  "un empleado añade su IBAN en su ficha con el teclado: un dígito de control mal, su mensaje; luego se guarda",
  async ({ page }) => {
    const nombre = unique("Cobro");
    await signUpAndConfirm(page, nombre, uniqueEmail("cobro"));

    const perfil = page.getByRole("banner").getByRole("link", { name: nombre });
    await pressUntilFocused(page, perfil);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();

    const seccion = page.getByRole("region", { name: "Datos bancarios" });
    await expect(seccion).toContainText("Todavía no hay ninguna cuenta");
    const iban = seccion.getByRole("textbox", { name: /^IBAN/ });
    const valido = ibanNuevo();
    const malo = `${valido.slice(0, 2)}${String(Number(valido.slice(2, 4)) + 1).padStart(2, "0")}${valido.slice(4)}`;
    await pressUntilFocused(page, iban);
    await page.keyboard.type(formatIban(malo));
    await page.keyboard.press("Enter");

    const mensaje = `Los dígitos de control del IBAN (${malo.slice(0, 4)}) no cuadran con el número de cuenta`;
    await expect(seccion.getByRole("alert").getByRole("heading", { name: "Hay 1 error" })).toBeVisible();
    await expect(seccion.getByRole("alert")).toContainText(mensaje);
    await expect(iban).toHaveAttribute("aria-invalid", "true");
    await expect(iban).toHaveAccessibleDescription(literal(mensaje));
    await expect(iban).toHaveValue(formatIban(malo));
    await expectNoAxeViolations(page);

    // Typed as it is printed on a bank's letter: spaces, lower case.
    await pressUntilFocused(page, iban);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type(formatIban(valido).toLowerCase());
    // And the NIF for the IRPF report, as a DNI is often written.
    await pressUntilFocused(page, seccion.getByRole("textbox", { name: /^NIF/ }));
    await page.keyboard.type("12.345.678-z");
    await page.keyboard.press("Enter");

    await expect(page.getByRole("status")).toHaveText("Datos bancarios guardados.");
    await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();
    const guardada = page.getByRole("region", { name: "Datos bancarios" });
    await expect(guardada.locator("dl.ficha dt", { hasText: /^IBAN$/ }).locator("+ dd")).toHaveText(formatIban(valido));
    await expect(guardada.locator("dl.ficha dt", { hasText: /^Titular$/ }).locator("+ dd")).toHaveText(nombre);
    await expect(guardada.locator("dl.ficha dt", { hasText: /^NIF$/ }).locator("+ dd")).toHaveText("12345678Z");
    await expect(guardada.getByRole("textbox", { name: /^IBAN/ })).toHaveValue(formatIban(valido));
    await expect(guardada.getByRole("textbox", { name: /^IBAN/ })).not.toHaveAttribute("aria-invalid", "true");

    // Said back to them (by mail too: it may not have been them), already read since it was.
    await page.goto("/avisos");
    const aviso = `Ha cambiado la cuenta en la que cobra sus reembolsos: ahora termina en ${valido.slice(-4)}`;
    await expect(page.getByRole("listitem").getByRole("link", { name: aviso })).toBeVisible();
    await expect(page.getByRole("banner").getByRole("link", { name: "Avisos", exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
  },
);

admin("un administrador añade una cuenta de la empresa desde «Cuentas de la empresa»", async ({ page }) => {
  await page.goto("/");
  await (await enlaceEnGrupo(page, "Administración", "Cuentas de la empresa")).click();
  await expect(page.getByRole("heading", { level: 1, name: "Cuentas de la empresa" })).toBeVisible();
  await expectNoAxeViolations(page);

  const nombre = unique("Cuenta de pagos");
  const iban = ibanNuevo();
  const form = createForm(page, "cuenta de la empresa");
  await expect(form.getByRole("textbox", { name: /^Sufijo/ })).toHaveValue("000");
  await expect(form.getByRole("combobox", { name: /^Formato/ })).toHaveValue("pain.001.001.09");
  await expect(form.getByRole("checkbox", { name: /^Activa/ })).toBeChecked();
  await form.getByRole("textbox", { name: /^Nombre/ }).fill(nombre);
  await form.getByRole("textbox", { name: /^IBAN/ }).fill(formatIban(iban));
  // Pasted with the spaces a bank's page leaves around it: the browser must not cut it.
  await form.getByRole("textbox", { name: /^BIC/ }).focus();
  await page.keyboard.insertText(" caixesbbxxx ");
  await form.getByRole("combobox", { name: /^Formato/ }).selectOption({ label: "pain.001.001.03 (guía AEB)" });
  await form.getByRole("button", { name: "Crear cuenta de la empresa" }).click();

  await expect(page.getByRole("status")).toHaveText(`Cuenta de la empresa creada: ${nombre}`);
  await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();
  const datos = page.getByRole("region", { name: "Datos" });
  await expect(datos.getByRole("textbox", { name: /^IBAN/ })).toHaveValue(formatIban(iban));
  await expect(datos.getByRole("textbox", { name: /^BIC/ })).toHaveValue("CAIXESBBXXX");
  await expect(page.getByRole("link", { name: /Eliminar/ })).toHaveCount(0);

  await page.goto(`/cuentas-empresa?q=${encodeURIComponent(nombre)}`);
  const fila = page.getByRole("row").filter({ has: page.getByRole("link", { name: nombre, exact: true }) });
  await expect(fila).toContainText(formatIban(iban));
  await expect(fila).toContainText("pain.001.001.03 (guía AEB)");
  await expect(fila).toContainText("Sí");

  // On a phone the navigation, one link longer, and the list still fit without scrolling sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/cuentas-empresa");
  const { scroll, client } = await asItIs(page, (p) =>
    p.evaluate(() => ({
      scroll: document.scrollingElement!.scrollWidth,
      client: document.scrollingElement!.clientWidth,
    })),
  );
  expect(scroll).toBeLessThanOrEqual(client);
});
