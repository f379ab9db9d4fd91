import { type Locator, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import path from "node:path";
import {
  ACCOUNTS,
  as,
  asItIs,
  expect,
  expectNoAxeViolations,
  grupoNav,
  jsEnabled,
  pressUntilFocused,
  type Role,
} from "./support";

/**
 * Layout and keyboard: every screen fits a 390 px phone and a 1366 px screen without
 * scrolling sideways; on a phone each list row is a card led by its record link; list pages
 * have a skip link to their results; back from a record, the focus is on its row; an empleado
 * is not offered the «Solicitante» column and filter. Every run with JavaScript also writes
 * screenshots of the main screens (named screen-width-role) to capturas/ — not kept in git —
 * or, with `npm run capturas`, to docs/capturas/, the copy kept in the repository.
 */

const WIDTHS = [390, 1366] as const;
const CAPTURAS = path.resolve(process.env.CAPTURAS ?? "capturas");

/** Runs `fn` in the page as it is now (in its JavaScript-enabled twin when JavaScript is off). */
const inPage = <T>(page: Page, fn: () => T) => asItIs(page, (p) => p.evaluate(fn));

const viewport = (width: number) => ({ width, height: width < 600 ? 844 : 768 });

/**
 * The document is no wider than the window (a table may scroll inside its own region) at each of
 * WIDTHS: the screen is loaded once and the window resized, which re-lays it out as loading it at
 * that width would (the layout is CSS). With JavaScript, a capture at each width of the screens
 * that have one, scrolled to what they show.
 */
async function expectNoSidewaysScroll(page: Page, screen: Screen, role: Role, captures: boolean) {
  const widths = await asItIs(page, async (p) => {
    const measured = [];
    for (const width of WIDTHS) {
      await p.setViewportSize(viewport(width));
      measured.push({
        width,
        ...(await p.evaluate(() => ({
          scroll: document.scrollingElement!.scrollWidth,
          client: document.scrollingElement!.clientWidth,
        }))),
      });
      if (captures && screen.capture) {
        const shown = screen.shows?.(p);
        if (shown && (await shown.count())) await shown.first().scrollIntoViewIfNeeded();
        mkdirSync(CAPTURAS, { recursive: true });
        await p.screenshot({ path: path.join(CAPTURAS, `${screen.name}-${width}-${role}.png`) });
      }
    }
    return measured;
  });
  for (const { width, scroll, client } of widths) {
    // The window really is that wide (less a scroll bar).
    expect(width - client, `${screen.name} a ${width} px`).toBeLessThan(30);
    expect(
      scroll,
      `${screen.name} a ${width} px: el documento mide ${scroll} px en una ventana de ${client} px`,
    ).toBeLessThanOrEqual(client);
  }
}

/** The link that opens the first record of a list. */
const firstRecordLink = (page: Page) => page.locator("#resultados a[id^='fila-']").first();

/** `shows`: what a capture of the screen is scrolled to. */
type Screen = {
  name: string;
  open: (page: Page) => Promise<unknown>;
  capture?: boolean;
  shows?: (page: Page) => Locator;
};

const openFirstRecord = (list: string) => async (page: Page) => {
  await page.goto(list);
  await firstRecordLink(page).click();
  await expect(page).not.toHaveURL(new RegExp(`${list}$`));
};

const SCREENS: Screen[] = [
  {
    name: "panel",
    capture: true,
    open: async (p) => {
      await p.goto("/");
      await expect(p.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();
    },
  },
  {
    // The header with the «Administración» group open, for whoever has it.
    name: "navegacion",
    capture: true,
    open: async (p) => {
      await p.goto("/");
      const grupo = grupoNav(p, "Administración");
      if (await grupo.count()) {
        await grupo.click();
        await expect(p.locator("#nav-administracion")).toBeVisible();
      }
    },
  },
  { name: "gastos", capture: true, open: (p) => p.goto("/gastos") },
  {
    name: "gasto",
    capture: true,
    open: async (p) => {
      await openFirstRecord("/gastos")(p);
      await expect(p.getByRole("heading", { level: 2, name: /^Gasto GAS-/ })).toBeVisible();
    },
  },
  {
    // A gasto's history, in view.
    name: "historial",
    capture: true,
    open: openFirstRecord("/gastos"),
    shows: (p) => p.getByRole("region", { name: "Historial de cambios" }),
  },
  {
    // The panel's charts (an administrador's), in view.
    name: "graficos",
    capture: true,
    open: (p) => p.goto("/"),
    shows: (p) => p.locator(".grafico"),
  },
  {
    name: "formulario-con-errores",
    capture: true,
    open: async (p) => {
      await p.goto("/gastos?nuevo=1#nuevo");
      const form = p.getByRole("region", { name: "Nuevo gasto" });
      await form.getByRole("button", { name: "Crear gasto" }).click();
      await expect(form.getByRole("alert")).toBeFocused();
    },
  },
  { name: "departamentos", open: (p) => p.goto("/departamentos") },
  { name: "departamento", open: openFirstRecord("/departamentos") },
  { name: "proveedores", open: (p) => p.goto("/proveedores") },
  { name: "proveedor", open: openFirstRecord("/proveedores") },
  { name: "sucursales", open: (p) => p.goto("/sucursales") },
  { name: "usuarios", open: (p) => p.goto("/usuarios") },
  { name: "usuario", open: openFirstRecord("/usuarios") },
  // For whoever approves, with its «Seleccionar» boxes and the bulk actions after the table.
  { name: "viajes", open: (p) => p.goto("/viajes?vista=pendientes") },
  { name: "avisos", open: (p) => p.goto("/avisos") },
  { name: "preferencias", open: (p) => p.goto("/avisos/preferencias") },
];

for (const role of Object.keys(ACCOUNTS) as Role[]) {
  as(role)(
    `${role}: cada pantalla cabe a ${WIDTHS.join(" y a ")} px, sin desplazamiento horizontal`,
    async ({ page }, info) => {
      for (const screen of SCREENS) {
        await page.setViewportSize(viewport(WIDTHS[0]));
        await screen.open(page);
        await expectNoSidewaysScroll(page, screen, role, jsEnabled(info.project.name));
      }
    },
  );
}

as("administrador").describe("listas", () => {
  as("administrador")(
    "en el teléfono cada fila es una tarjeta que empieza por el enlace al registro",
    async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      for (const list of ["/gastos", "/departamentos"]) {
        await page.goto(list);
        const cards = await inPage(page, () => {
          const row = document.querySelector("#resultados tbody tr")!;
          const cells = [...row.children] as HTMLElement[];
          const first = cells
            .filter((c) => getComputedStyle(c).display !== "none")
            .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0]!;
          const labelled = cells.find((c) => !c.querySelector("a[id^='fila-']") && c.dataset.etiqueta)!;
          return {
            display: getComputedStyle(row).display,
            firstHasLink: Boolean(first.querySelector("a[id^='fila-']")),
            label: getComputedStyle(labelled, "::before").content,
            expected: labelled.dataset.etiqueta,
            rowWidth: row.getBoundingClientRect().width,
            window: document.documentElement.clientWidth,
          };
        });
        expect(cards.display, list).toBe("grid");
        expect(cards.firstHasLink, list).toBe(true);
        expect(cards.label, list).toBe(`"${cards.expected}: "`);
        expect(cards.rowWidth, list).toBeLessThanOrEqual(cards.window);
        await expectNoAxeViolations(page);
      }
    },
  );

  as("administrador")(
    "a 1366 px la lista de gastos es una tabla entera, y tarjetas junto a un gasto abierto",
    async ({ page }) => {
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.goto("/gastos");
      const table = await inPage(page, () => {
        const box = document.querySelector("#resultados .tabla-contenedor")!;
        return {
          display: getComputedStyle(document.querySelector("#resultados tbody tr")!).display,
          fits: box.scrollWidth <= box.clientWidth,
        };
      });
      expect(table).toEqual({ display: "table-row", fits: true });
      await expect(page.getByRole("columnheader", { name: /^Solicitante/ })).toBeVisible();
      await firstRecordLink(page).click();
      await expect(page.getByRole("heading", { level: 2, name: /^Gasto GAS-/ })).toBeVisible();
      const beside = await inPage(
        page,
        () => getComputedStyle(document.querySelector("#resultados tbody tr")!).display,
      );
      expect(beside).toBe("grid");
      await expectNoAxeViolations(page);
    },
  );

  as("administrador")("«Saltar a los resultados» lleva el teclado a la lista", async ({ page }) => {
    for (const list of ["/gastos", "/departamentos"]) {
      await page.goto(list);
      await page.keyboard.press("Tab");
      await expect(page.getByRole("link", { name: "Saltar al contenido" })).toBeFocused();
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Saltar a los resultados" });
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await page.keyboard.press("Enter");
      await expect(page.locator("#resultados")).toBeFocused();
      await expect(page.locator("#resultados")).toBeInViewport();
      // The next Tab is in the table: its first sort link, past the views and the filters.
      await page.keyboard.press("Tab");
      await expect(page.locator("#resultados thead a").first()).toBeFocused();
    }
    // Only where there are results.
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Saltar al contenido" })).toHaveCount(1);
    await expect(page.getByRole("link", { name: "Saltar a los resultados" })).toHaveCount(0);
    await page.goto("/departamentos?q=ninguno-coincide-con-esto");
    await expect(page.getByRole("link", { name: "Saltar a los resultados" })).toHaveCount(0);
  });

  as("administrador")("al volver de un registro, el foco está en su fila", async ({ page }) => {
    await page.goto("/departamentos");
    const link = page.locator("#resultados a[id^='fila-']").nth(2);
    const name = (await link.innerText()).trim();
    await pressUntilFocused(page, link);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await page.getByRole("link", { name: "← Volver a departamentos" }).click();
    await expect(page).toHaveURL(/\/departamentos#fila-/);
    await expect(page.getByRole("link", { name, exact: true })).toBeFocused();
  });

  as("administrador")("al cerrar un gasto abierto junto a la lista, el foco vuelve a su fila", async ({ page }) => {
    // The close link carries the row's fragment, so this holds without JavaScript too.
    await page.goto("/gastos");
    const link = page.locator("#resultados a[id^='fila-']").nth(1);
    const folio = (await link.innerText()).trim();
    await pressUntilFocused(page, link);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 2, name: new RegExp(`^Gasto ${folio}`) })).toBeVisible();
    const close = page.getByRole("link", { name: "Cerrar el gasto y volver a la lista" });
    await pressUntilFocused(page, close, "Tab", 20);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 2, name: /^Gasto GAS-/ })).toHaveCount(0);
    await expect(page.getByRole("link", { name: folio, exact: true })).toBeFocused();
  });
});

for (const [role, shown] of [
  ["empleado", false],
  ["aprobador", true],
] as const) {
  as(role)(`${role}: ${shown ? "ve" : "no ve"} la columna y el filtro «Solicitante» de gastos`, async ({ page }) => {
    await page.goto("/gastos");
    await expect(page.getByRole("columnheader", { name: /^Fecha/ })).toBeVisible();
    const search = page.getByRole("search", { name: "Buscar gastos" });
    await expect(search.getByLabel("Estado")).toBeVisible();
    await expect(search.getByLabel("Solicitante", { exact: true })).toHaveCount(shown ? 1 : 0);
    await expect(page.getByRole("columnheader", { name: /^Solicitante/ })).toHaveCount(shown ? 1 : 0);
  });
}
