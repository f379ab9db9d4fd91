import type { Locator, Page } from "@playwright/test";
import { as, expect, expectNoAxeViolations, type Role } from "./support";

/**
 * The panel (`/`) as each demo account sees it, with JavaScript and without: its sections, the
 * charts' «Ver como tabla» opened from the keyboard, links that land on the gastos list filtered
 * to show the same figure, and axe. Other specs change gastos meanwhile (both projects share one
 * server): figures are compared with the list by polling until both agree.
 */
const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const SECCIONES: Record<Role, { visibles: string[]; ocultas: string[] }> = {
  empleado: {
    visibles: ["Mis gastos", "Mis últimos gastos"],
    ocultas: [
      "Pendientes de aprobar",
      "Presupuesto del mes por departamento",
      "Aprobado en los últimos 12 meses",
      "Categorías de los últimos 90 días",
      "Proveedores de los últimos 90 días",
    ],
  },
  aprobador: {
    visibles: ["Mis gastos", "Mis últimos gastos", "Pendientes de aprobar"],
    ocultas: [
      "Presupuesto del mes por departamento",
      "Aprobado en los últimos 12 meses",
      "Categorías de los últimos 90 días",
      "Proveedores de los últimos 90 días",
    ],
  },
  administrador: {
    visibles: [
      "Mis gastos",
      "Mis últimos gastos",
      "Pendientes de aprobar",
      "Presupuesto del mes por departamento",
      "Aprobado en los últimos 12 meses",
      "Categorías de los últimos 90 días",
      "Proveedores de los últimos 90 días",
    ],
    ocultas: [],
  },
};

/** «12 gastos con estos filtros · 1.234,56 €» on the list → "12". */
async function listCount(page: Page) {
  const text = await page.getByText(/^[\d.]+ gastos? con estos filtros/).innerText();
  return /^([\d.]+)/.exec(text)![1]!.replace(/\./g, "");
}

/** Reads a figure on the panel, follows `link`, reads the list's count; until both agree. */
async function expectListMatches(page: Page, figure: () => Promise<string>, link: () => Locator, url: RegExp) {
  await expect
    .poll(
      async () => {
        await page.goto("/");
        const expected = (await figure()).replace(/\./g, "");
        await link().click();
        await expect(page).toHaveURL(url);
        await expect(page.getByRole("heading", { level: 1, name: "Gastos" })).toBeVisible();
        return (await listCount(page)) === expected;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

for (const role of ["empleado", "aprobador", "administrador"] as const) {
  const test = as(role);

  test.describe(`panel del ${role}`, () => {
    test("muestra las secciones de su rol, «Nuevo gasto», y axe no encuentra problemas", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();
      await expect(page).toHaveTitle("Panel — Oficina");
      for (const name of SECCIONES[role].visibles) await expect(section(page, name), name).toBeVisible();
      for (const name of SECCIONES[role].ocultas) await expect(section(page, name), name).toHaveCount(0);

      const mis = section(page, "Mis gastos");
      await expect(mis.getByText(/^Este mes \(.+ de \d{4}\): [\d.]+,\d{2}\s€ en [\d.]+ gastos?\./)).toBeVisible();
      for (const estado of ["Borrador", "Pendiente de aprobación", "Aprobado", "Rechazado", "Pagado"])
        await expect(mis.getByRole("rowheader", { name: estado })).toBeVisible();
      await expect(section(page, "Mis últimos gastos").getByRole("link", { name: /^GAS-\d{4}-\d{5,}$/ })).toHaveCount(
        5,
      );

      await expect(page.getByRole("link", { name: "Nuevo gasto" })).toHaveAttribute("href", "/gastos?nuevo=1#nuevo");
      await expectNoAxeViolations(page);
    });

    test("cada estado de «Mis gastos» lleva a la lista de mis gastos en ese estado, con la misma cuenta", async ({
      page,
    }) => {
      await page.goto("/");
      const mis = section(page, "Mis gastos");
      const estados = {
        borrador: "Borrador",
        pendiente: "Pendiente de aprobación",
        aprobado: "Aprobado",
        rechazado: "Rechazado",
        pagado: "Pagado",
      };
      for (const [value, label] of Object.entries(estados))
        await expect(mis.getByRole("link", { name: label, exact: true })).toHaveAttribute(
          "href",
          `/gastos?vista=mios&estado=${value}`,
        );
      await expect(mis.getByRole("link", { name: "Todos mis gastos" })).toHaveAttribute("href", "/gastos?vista=mios");

      const fila = () =>
        section(page, "Mis gastos")
          .getByRole("row")
          .filter({ has: page.getByRole("rowheader", { name: "Pagado", exact: true }) });
      await expectListMatches(
        page,
        () => fila().getByRole("cell").first().innerText(),
        () => fila().getByRole("link", { name: "Pagado", exact: true }),
        /\/gastos\?vista=mios&estado=pagado$/,
      );
      await expect(page.getByRole("link", { name: "Mis gastos", exact: true })).toHaveAttribute("aria-current", "page");
      await expect(page.getByRole("combobox", { name: "Estado" })).toHaveValue("pagado");
    });

    test("un gasto reciente abre su panel en la lista", async ({ page }) => {
      await page.goto("/");
      const link = section(page, "Mis últimos gastos").getByRole("link", { name: /^GAS-/ }).first();
      const folio = await link.innerText();
      const href = await link.getAttribute("href");
      expect(href).toMatch(/^\/gastos\?gasto=[0-9a-f-]{36}#gasto$/);
      await link.click();
      await expect(page).toHaveURL(/\/gastos\?gasto=[0-9a-f-]{36}#gasto$/);
      await expect(page.getByRole("heading", { level: 2, name: new RegExp(`^Gasto ${folio}\\b`) })).toBeVisible();
    });
  });
}

const aprobador = as("aprobador");

aprobador.describe("pendientes de aprobar", () => {
  aprobador(
    "cuenta, importe y los más antiguos, cada uno con su enlace; «Ver todos» da la misma cuenta",
    async ({ page }) => {
      await page.goto("/");
      const pendientes = section(page, "Pendientes de aprobar");
      await expect(pendientes.getByText(/esperan su aprobación/)).toBeVisible();
      const filas = pendientes
        .getByRole("table")
        .getByRole("row")
        .filter({ has: page.getByRole("cell") });
      expect(await filas.count()).toBeGreaterThan(0);
      expect(await filas.count()).toBeLessThanOrEqual(10);
      // The oldest first.
      const fechas: string[] = [];
      for (const fila of await filas.all())
        fechas.push((await fila.getByRole("cell").nth(1).innerText()).split("/").reverse().join("-"));
      expect([...fechas].sort()).toEqual(fechas);
      await expect(filas.first().getByRole("link")).toHaveAttribute("href", /^\/gastos\?gasto=[0-9a-f-]{36}#gasto$/);

      await expectListMatches(
        page,
        async () =>
          /^([\d.]+) gastos?/.exec(
            await section(page, "Pendientes de aprobar")
              .getByText(/esperan su aprobación/)
              .innerText(),
          )![1]!,
        () => section(page, "Pendientes de aprobar").getByRole("link", { name: "Ver todos los pendientes de aprobar" }),
        /\/gastos\?vista=pendientes&orden=fecha_gasto&dir=asc$/,
      );
      await expect(page.getByRole("link", { name: "Mis pendientes de aprobar" })).toHaveAttribute(
        "aria-current",
        "page",
      );
    },
  );
});

const admin = as("administrador");

admin.describe("gráficos del administrador", () => {
  admin("cada gráfico es una imagen con nombre y se puede ver como tabla, con el teclado", async ({ page }) => {
    await page.goto("/");
    const graficos = [
      {
        seccion: "Presupuesto del mes por departamento",
        nombre: /^Aprobado en .+ de \d{4} por departamento frente a su presupuesto mensual: \d+ departamentos; /,
        cabecera: "Departamento",
      },
      {
        seccion: "Aprobado en los últimos 12 meses",
        nombre: /^Aprobado por mes, de .+ a .+: [\d.]+,\d{2}\s€ en total; el mes más alto/,
        cabecera: "Mes",
      },
      {
        seccion: "Categorías de los últimos 90 días",
        nombre: /^Las \d+ categorías con más importe aprobado del /,
        cabecera: "Categoría",
      },
      {
        seccion: "Proveedores de los últimos 90 días",
        nombre: /^(Los \d+ proveedores|El proveedor) con más importe aprobado del /,
        cabecera: "Proveedor",
      },
    ];
    for (const g of graficos) {
      const s = section(page, g.seccion);
      await expect(s.getByRole("img", { name: g.nombre })).toBeVisible();
      const tabla = s.getByRole("table");
      await expect(tabla).toBeHidden();
      await s.getByText("Ver como tabla").focus();
      await page.keyboard.press("Enter");
      await expect(tabla).toBeVisible();
      await expect(tabla.getByRole("columnheader", { name: g.cabecera })).toBeVisible();
      await expect(tabla.getByRole("columnheader", { name: "Aprobado" })).toBeVisible();
      expect(await tabla.getByRole("row").count()).toBeGreaterThan(1);
    }
    const meses = section(page, "Aprobado en los últimos 12 meses").getByRole("table").getByRole("rowheader");
    await expect(meses).toHaveCount(12);
    await expect(meses.first()).toHaveText(/^[a-z]+ de \d{4}$/);
    await expectNoAxeViolations(page);
  });

  admin(
    "presupuestos: cada departamento con su situación en texto; los que lo superan, con aviso e icono",
    async ({ page }) => {
      await page.goto("/");
      const s = section(page, "Presupuesto del mes por departamento");
      await s.getByText("Ver como tabla").click();
      const situaciones: string[] = [];
      for (const fila of await s
        .getByRole("table")
        .getByRole("row")
        .filter({ has: page.getByRole("cell") })
        .all())
        situaciones.push(await fila.getByRole("cell").last().innerText());
      expect(situaciones.length).toBeGreaterThan(5);
      for (const t of situaciones)
        expect(t).toMatch(
          /^(Dentro del presupuesto|Sin presupuesto|⚠ Por encima del presupuesto \([\d.]+,\d{2}\s€ más\))$/,
        );
      const excedidos = situaciones.filter((t) => t.startsWith("⚠"));
      if (excedidos.length > 0)
        await expect(
          s.getByText(
            `⚠ Por encima del presupuesto: ${excedidos.length === 1 ? "1 departamento" : `${excedidos.length} departamentos`}`,
          ),
        ).toBeVisible();
      else await expect(s.getByText("Ningún departamento supera su presupuesto este mes.")).toBeVisible();
    },
  );

  admin("los enlaces de las tablas llevan a la lista filtrada", async ({ page }) => {
    await page.goto("/");
    const meses = section(page, "Aprobado en los últimos 12 meses");
    await meses.getByText("Ver como tabla").click();
    const ultimo = meses.getByRole("table").getByRole("rowheader").last().getByRole("link");
    await expect(ultimo).toHaveAttribute("href", /^\/gastos\?desde=\d{4}-\d{2}-01&hasta=\d{4}-\d{2}-\d{2}$/);
    await ultimo.click();
    await expect(page).toHaveURL(/\/gastos\?desde=\d{4}-\d{2}-01&hasta=/);
    await expect(page.getByRole("heading", { level: 1, name: "Gastos" })).toBeVisible();

    await page.goto("/");
    const categorias = section(page, "Categorías de los últimos 90 días");
    await categorias.getByText("Ver como tabla").click();
    await expect(categorias.getByRole("table").getByRole("link").first()).toHaveAttribute(
      "href",
      /^\/gastos\?categoria=[a-z_]+&desde=\d{4}-\d{2}-\d{2}&hasta=\d{4}-\d{2}-\d{2}$/,
    );
    const proveedores = section(page, "Proveedores de los últimos 90 días");
    await proveedores.getByText("Ver como tabla").click();
    await expect(proveedores.getByRole("table").getByRole("link").first()).toHaveAttribute(
      "href",
      /^\/gastos\?proveedor=[0-9a-f-]{36}&desde=/,
    );
    const presupuestos = section(page, "Presupuesto del mes por departamento");
    await presupuestos.getByText("Ver como tabla").click();
    const departamento = presupuestos.getByRole("table").getByRole("link").first();
    await expect(departamento).toHaveAttribute(
      "href",
      /^\/gastos\?departamento=[0-9a-f-]{36}&desde=\d{4}-\d{2}-01&hasta=/,
    );
    await departamento.click();
    await expect(page.getByRole("heading", { level: 1, name: "Gastos" })).toBeVisible();
  });
});
