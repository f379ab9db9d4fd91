import type { Page } from "@playwright/test";
import {
  as,
  asItIs,
  expect,
  expectNoAxeViolations,
  grupoNav,
  jsEnabled,
  navegacion,
  pressUntilFocused,
} from "./support";

/**
 * The header's navigation: an administrador's sections are many, so the books and the records
 * the work depends on are folded in a group each («Libros», «Administración»), opened with
 * the mouse or the keyboard, with JavaScript and without. At 1366 px it is one line; on a phone
 * the header stays short. An empleado is shown only what they can change.
 */
const administrador = as("administrador");
const aprobador = as("aprobador");
const empleado = as("empleado");

/** How many lines the header's items take (their vertical centres, 12 px apart or more), and its height. */
const lineasCabecera = (page: Page) =>
  asItIs(page, (p) =>
    p.evaluate(() => {
      const lineas = (items: Element[]) => {
        const centros = items
          .map((e) => e.getBoundingClientRect())
          .map((r) => r.top + r.height / 2)
          .sort((a, b) => a - b);
        return centros.filter((c, i) => i === 0 || c - centros[i - 1]! >= 12).length;
      };
      const cabecera = document.querySelector(".cabecera")!;
      return {
        lineas: lineas([
          ...cabecera.querySelectorAll(
            ".marca, nav > ul > li > a, nav > ul > li > details > summary, .usuario > a, .usuario button",
          ),
        ]),
        lineasNav: lineas([...cabecera.querySelectorAll("nav > ul > li")]),
        alto: cabecera.getBoundingClientRect().height,
      };
    }),
  );

/** The links always in view (outside the groups). */
const principales = (page: Page) => navegacion(page).locator(":scope > ul > li > a");

administrador(
  "la navegación del administrador: una línea a 1366 px, agrupada, y cada grupo se abre con el teclado",
  async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto("/");
    await expect(principales(page)).toHaveText(["Panel", "Gastos", "Viajes", "Remesas"]);
    const actuales = navegacion(page).locator('a[aria-current="page"]');
    await expect(actuales).toHaveText(["Panel"]);
    await expect(grupoNav(page, "Libros")).toBeVisible();
    await expect(grupoNav(page, "Administración")).toBeVisible();
    expect((await lineasCabecera(page)).lineasNav).toBe(1);
    expect((await lineasCabecera(page)).lineas).toBe(1);
    // Folded: its links are not in view, nor on the keyboard's way.
    const departamentos = navegacion(page).getByRole("link", { name: "Departamentos", exact: true });
    await expect(departamentos).toBeHidden();

    // Tab to «Administración», Enter opens it, the next Tab is its first link.
    await pressUntilFocused(page, grupoNav(page, "Administración"));
    await page.keyboard.press("Enter");
    await expect(departamentos).toBeVisible();
    for (const name of ["Proveedores", "Sucursales", "Usuarios", "Tipos de IVA", "Empresa", "Cuentas de la empresa"])
      await expect(navegacion(page).getByRole("link", { name, exact: true }), name).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(departamentos).toBeFocused();
    await expectNoAxeViolations(page);
    if (jsEnabled(testInfo.project.name)) {
      // As a menu: Escape folds it and gives the focus back to its summary.
      await page.keyboard.press("Escape");
      await expect(departamentos).toBeHidden();
      await expect(grupoNav(page, "Administración")).toBeFocused();
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab");
      await expect(departamentos).toBeFocused();
    }
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Departamentos" })).toBeVisible();
    // On a page of the group, the group folded again and its summary marked.
    await expect(departamentos).toBeHidden();
    await expect(actuales).toHaveText(["Departamentos"]);
    await expect(grupoNav(page, "Administración")).toHaveClass(/actual/);

    // The books, in their own group.
    await grupoNav(page, "Libros").click();
    for (const name of ["Libro de IVA", "Libro diario", "Informe IRPF"])
      await expect(navegacion(page).getByRole("link", { name, exact: true }), name).toBeVisible();
    await navegacion(page).getByRole("link", { name: "Libro diario", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Libro diario" })).toBeVisible();
    await expect(actuales).toHaveText(["Libro diario"]);
  },
);

administrador(
  "en el móvil, la cabecera del administrador cabe en tres líneas y un grupo abierto no tapa nada",
  async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/gastos");
    const cerrado = await lineasCabecera(page);
    expect(cerrado.lineas).toBeLessThanOrEqual(3);
    const scroll = () =>
      asItIs(page, (p) =>
        p.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth),
      );
    expect(await scroll()).toBeLessThanOrEqual(0);
    // Open, the group's links take rows of the header: the page's heading goes down, uncovered.
    await grupoNav(page, "Administración").click();
    const usuarios = navegacion(page).getByRole("link", { name: "Usuarios", exact: true });
    await expect(usuarios).toBeVisible();
    const abierto = await lineasCabecera(page);
    expect(abierto.alto).toBeGreaterThan(cerrado.alto);
    const h1 = await page.getByRole("heading", { level: 1, name: "Gastos" }).boundingBox();
    const enlace = await usuarios.boundingBox();
    expect(h1!.y).toBeGreaterThan(enlace!.y + enlace!.height);
    expect(await scroll()).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
  },
);

empleado("un empleado solo ve en la navegación lo que puede cambiar: sus gastos y sus viajes", async ({ page }) => {
  await page.goto("/");
  await expect(principales(page)).toHaveText(["Panel", "Gastos", "Viajes"]);
  await expect(navegacion(page).locator("summary")).toHaveCount(0);
  for (const name of ["Departamentos", "Proveedores", "Sucursales", "Usuarios"])
    await expect(navegacion(page).getByRole("link", { name, exact: true }), name).toHaveCount(0);
  // Their profile is still the link with their name.
  await expect(page.getByRole("banner").getByRole("link", { name: "Elena Empleada" })).toBeVisible();
});

aprobador(
  "un aprobador tiene su trabajo a la vista y los datos de referencia en «Administración»",
  async ({ page }) => {
    await page.goto("/");
    await expect(principales(page)).toHaveText(["Panel", "Gastos", "Viajes"]);
    await expect(grupoNav(page, "Libros")).toHaveCount(0);
    await grupoNav(page, "Administración").click();
    await expect(navegacion(page).locator("#nav-administracion a")).toHaveText([
      "Departamentos",
      "Proveedores",
      "Sucursales",
      "Usuarios",
      "Políticas de gasto",
    ]);
  },
);
