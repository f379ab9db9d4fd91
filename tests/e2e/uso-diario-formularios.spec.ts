import { as, expect, expectNoAxeViolations, unique, uniqueEmail } from "./support";
import { NUEVO_GASTO } from "./support-registros";

/**
 * Issue 31, forms as people meet them: an invitation needs its role, an IBAN with wrong control
 * digits says so, and every message names its field with the right article.
 */
const administrador = as("administrador");

administrador(
  "invitar sin rol: «Empleado» viene elegido, y dejarlo vacío se rechaza con el error del campo",
  async ({ page }) => {
    await page.goto("/usuarios");
    const form = page.getByRole("region", { name: "Invitar a una persona" });
    const rol = form.getByRole("combobox", { name: /^Rol/ });
    await expect(rol.locator("option:checked")).toHaveText("Empleado");
    const email = uniqueEmail("sin-rol");
    await form.getByLabel("Nombre").fill(unique("Sin rol"));
    await form.getByLabel("Correo electrónico").fill(email);
    await rol.selectOption("");
    await form.getByRole("button", { name: "Enviar la invitación" }).click();
    await expect(page.getByRole("region", { name: "Invitar a una persona" }).getByText("Elija un rol")).toHaveCount(2);
    await expect(page.getByRole("region", { name: "Invitaciones pendientes" })).not.toContainText(email);
    await expectNoAxeViolations(page);
  },
);

as("empleado")(
  "los mensajes nombran cada campo con su artículo: «Escriba la descripción», «Elija una categoría»",
  async ({ page }) => {
    await page.goto(NUEVO_GASTO);
    const form = page.getByRole("region", { name: "Nuevo gasto" });
    await form.getByLabel("Importe (obligatorio)").fill("");
    await form.getByRole("button", { name: "Crear gasto" }).click();
    const resumen = form.getByRole("alert").filter({ has: page.getByRole("heading", { name: /^Hay \d+ errores$/ }) });
    for (const mensaje of [
      "Escriba la descripción",
      "Elija una categoría",
      "Escriba el importe, por ejemplo 125,50",
      "Elija un método de pago",
    ])
      await expect(resumen.getByRole("link", { name: mensaje, exact: true })).toBeVisible();
    await expect(form.getByLabel("Descripción")).toHaveAccessibleDescription(/Escriba la descripción/);
    // Followed, a message's link shows its field with the label above it, not cut off at the top.
    await resumen.getByRole("link", { name: "Elija un método de pago", exact: true }).click();
    await expect(page).toHaveURL(/#nuevo-gastos-metodo_pago$/);
    await expect(form.locator("label", { hasText: /^Método de pago/ })).toBeInViewport({ ratio: 1 });
  },
);

as("aprobador")(
  "un proveedor sin razón social ni NIF: «Escriba la razón social», «Escriba el NIF…»",
  async ({ page }) => {
    await page.goto("/proveedores");
    const form = page.getByRole("region", { name: "Nuevo proveedor" });
    await form.getByRole("button", { name: "Crear proveedor" }).click();
    const resumen = form.getByRole("alert");
    await expect(resumen.getByRole("link", { name: "Escriba la razón social", exact: true })).toBeVisible();
    await expect(resumen.getByRole("link", { name: /^Escriba el NIF \/ RFC \/ ID fiscal/ })).toBeVisible();
    await expect(resumen.getByRole("link", { name: "Elija una categoría", exact: true })).toBeVisible();
  },
);
