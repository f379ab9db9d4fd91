import { type Page } from "@playwright/test";
import {
  as,
  createForm,
  expect,
  expectNoAxeViolations,
  openDepartamento,
  uniqueEmail,
  waitForMailLink,
  type Role,
  test as base,
} from "./support";

/**
 * Every screen, as the person who sees it: axe finds no violations, the page is in Spanish, has
 * exactly one <h1>, and its title is «… — Oficina».
 */
async function expectAccessiblePage(page: Page) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  expect(await page.content()).toMatch(/^<!DOCTYPE html><html lang="es"[ >]/i);
  await expect(page).toHaveTitle(/^\S.* — Oficina$/);
  await expect(page.getByRole("link", { name: "Saltar al contenido" })).toHaveAttribute("href", "#contenido");
  await expect(page.getByRole("main")).toHaveCount(1);
  await expectNoAxeViolations(page);
}

type Screen = { name: string; role?: Role; open: (page: Page) => Promise<unknown> };

/** Opens a list and, from its first row, the first record. */
const firstRecord = (path: string) => async (page: Page) => {
  await page.goto(path);
  await page.getByRole("table").getByRole("row").nth(1).getByRole("link").first().click();
  await expect(page).not.toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
};

const screens: Screen[] = [
  { name: "/login", open: (p) => p.goto("/login") },
  {
    name: "/login con errores",
    open: async (p) => {
      await p.goto("/login");
      await p.getByRole("region", { name: "Crear cuenta" }).getByRole("button", { name: "Crear cuenta" }).click();
      await expect(p.getByRole("region", { name: "Crear cuenta" }).getByRole("alert")).toBeVisible();
    },
  },
  { name: "/signup-confirmation", open: (p) => p.goto("/signup-confirmation") },
  { name: "/auth/confirm?token=x", open: (p) => p.goto("/auth/confirm?token=x") },
  {
    name: "/auth/confirm con enlace no válido",
    open: async (p) => {
      await p.goto("/auth/confirm?token=x");
      await p.getByRole("button", { name: "Confirmar mi cuenta" }).click();
      await expect(p.getByRole("alert")).toBeVisible();
    },
  },
  { name: "/auth/recuperar", open: (p) => p.goto("/auth/recuperar") },
  {
    name: "/auth/recuperar con errores",
    open: async (p) => {
      await p.goto("/auth/recuperar");
      await p.getByRole("button", { name: "Enviarme el enlace" }).click();
      await expect(p.getByRole("alert")).toBeVisible();
    },
  },
  { name: "/auth/recuperar con enlace no válido", open: (p) => p.goto("/auth/recuperar?token=x") },
  { name: "Panel (administrador)", role: "administrador", open: (p) => p.goto("/") },
  { name: "/avisos", role: "aprobador", open: (p) => p.goto("/avisos") },
  { name: "/avisos/preferencias (administrador)", role: "administrador", open: (p) => p.goto("/avisos/preferencias") },
  { name: "Panel (aprobador)", role: "aprobador", open: (p) => p.goto("/") },
  { name: "Panel (empleado)", role: "empleado", open: (p) => p.goto("/") },
  { name: "/departamentos", role: "administrador", open: (p) => p.goto("/departamentos") },
  {
    name: "/departamentos con el formulario de alta con errores",
    role: "administrador",
    open: async (p) => {
      await p.goto("/departamentos");
      const form = createForm(p, "departamento");
      await form.getByRole("button", { name: "Crear departamento" }).click();
      await expect(form.getByRole("alert").getByRole("heading", { name: /^Hay (1 error|\d+ errores)$/ })).toBeVisible();
    },
  },
  {
    name: "/departamentos filtrada, sin resultados",
    role: "administrador",
    open: (p) => p.goto("/departamentos?q=no-hay-ninguno-asi&activo=no&orden=codigo&dir=desc"),
  },
  { name: "ficha de departamento", role: "administrador", open: (p) => openDepartamento(p, "Tecnología") },
  {
    name: "ficha de departamento: paso de confirmación para eliminar",
    role: "administrador",
    open: async (p) => {
      await openDepartamento(p, "Ventas Norte");
      await p.getByRole("link", { name: "Eliminar departamento…" }).click();
      await expect(p.getByRole("dialog", { name: "¿Eliminar el departamento «Ventas Norte»?" })).toBeVisible();
    },
  },
  {
    name: "ficha de departamento: eliminación rechazada",
    role: "administrador",
    open: async (p) => {
      await openDepartamento(p, "Sistemas");
      await p.getByRole("link", { name: "Eliminar departamento…" }).click();
      await p.getByRole("button", { name: "Sí, eliminar" }).click();
      await expect(p.getByRole("alert")).toContainText("No se puede eliminar");
    },
  },
  { name: "/departamentos (empleado)", role: "empleado", open: (p) => p.goto("/departamentos") },
  {
    name: "ficha de departamento (empleado, solo lectura)",
    role: "empleado",
    open: (p) => openDepartamento(p, "Ventas Norte"),
  },
  { name: "404", role: "administrador", open: (p) => p.goto("/departamentos/00000000-0000-4000-8000-000000000000") },
  { name: "/sentry-example-page", role: "administrador", open: (p) => p.goto("/sentry-example-page") },
  { name: "/gastos", role: "administrador", open: (p) => p.goto("/gastos") },
  // The books as they first open, on this period.
  { name: "/asientos", role: "administrador", open: (p) => p.goto("/asientos") },
  { name: "/viajes/informe-irpf", role: "administrador", open: (p) => p.goto("/viajes/informe-irpf") },
  { name: "/gastos (empleado)", role: "empleado", open: (p) => p.goto("/gastos") },
  // The create form lives only in this panel beside the list.
  { name: "«Nuevo gasto» junto a la lista", role: "administrador", open: (p) => p.goto("/gastos?nuevo=1#nuevo") },
  { name: "/proveedores", role: "administrador", open: (p) => p.goto("/proveedores") },
  { name: "ficha de proveedor", role: "administrador", open: firstRecord("/proveedores") },
  { name: "/sucursales", role: "administrador", open: (p) => p.goto("/sucursales") },
  { name: "ficha de sucursal", role: "administrador", open: firstRecord("/sucursales") },
  { name: "/usuarios", role: "administrador", open: (p) => p.goto("/usuarios") },
  { name: "ficha de usuario", role: "administrador", open: firstRecord("/usuarios") },
  {
    name: "/usuarios: invitar a una persona con errores, con invitaciones pendientes",
    role: "administrador",
    open: async (p) => {
      await p.goto("/usuarios");
      const form = p.getByRole("region", { name: "Invitar a una persona" });
      await form.getByLabel("Nombre").fill("Accesible");
      await form.getByLabel("Correo electrónico").fill(uniqueEmail("axe"));
      await form.getByRole("button", { name: "Enviar la invitación" }).click();
      await expect(p.getByRole("region", { name: "Invitaciones pendientes" }).getByRole("row")).not.toHaveCount(0);
      await p
        .getByRole("region", { name: "Invitar a una persona" })
        .getByRole("button", { name: "Enviar la invitación" })
        .click();
      await expect(p.getByRole("region", { name: "Invitar a una persona" }).getByRole("alert")).toBeVisible();
    },
  },
  { name: "/auth/invitacion con enlace no válido", open: (p) => p.goto("/auth/invitacion?token=x") },
  {
    name: "/auth/invitacion: elegir la contraseña (con errores)",
    role: "administrador",
    open: async (p) => {
      const email = uniqueEmail("axe-inv");
      await p.goto("/usuarios");
      const form = p.getByRole("region", { name: "Invitar a una persona" });
      await form.getByLabel("Nombre").fill("Accesible");
      await form.getByLabel("Correo electrónico").fill(email);
      await form.getByRole("button", { name: "Enviar la invitación" }).click();
      const link = new URL(await waitForMailLink(email));
      await p.context().clearCookies();
      await p.goto(link.pathname + link.search);
      await p.getByRole("button", { name: "Guardar la contraseña y entrar" }).click();
      await expect(p.getByRole("alert")).toBeVisible();
    },
  },
  {
    name: "mi ficha con «Cambiar mi contraseña» con errores",
    role: "empleado",
    open: async (p) => {
      await p.goto("/");
      await p
        .getByRole("banner")
        .getByRole("link", { name: /^Mi perfil: / })
        .click();
      const section = p.getByRole("region", { name: "Cambiar mi contraseña" });
      await section.getByRole("button", { name: "Cambiar la contraseña" }).click();
      await expect(section.getByRole("alert")).toBeVisible();
    },
  },
];

for (const screen of screens) {
  const test = screen.role ? as(screen.role) : base;
  test(`accesible: ${screen.name}`, async ({ page }) => {
    await screen.open(page);
    await expectAccessiblePage(page);
  });
}
