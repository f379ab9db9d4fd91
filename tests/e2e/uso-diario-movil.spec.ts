import type { Page } from "@playwright/test";
import { as, asItIs, expect, expectNoAxeViolations, jsEnabled } from "./support";

/**
 * Issue 31 on a 390 px phone: the home panel's gastos are cards, not tables that scroll
 * sideways; the gastos filters fold away (saying which are on) so the results come first; and
 * with JavaScript, filtering leaves the focus on the results' summary.
 */
const MOVIL = { width: 390, height: 844 };
const empleado = as("empleado");
const aprobador = as("aprobador");
const administrador = as("administrador");
empleado.use({ viewport: MOVIL });
aprobador.use({ viewport: MOVIL });
administrador.use({ viewport: MOVIL });

/** How far each of the panel's gasto tables (or the page) is wider than its box, in px. */
const desbordes = (page: Page) =>
  asItIs(page, (p) =>
    p.evaluate(() => [
      document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth,
      ...[...document.querySelectorAll(".tabla-contenedor:has(.panel-folio)")].map(
        (c) => c.scrollWidth - c.clientWidth,
      ),
    ]),
  );

empleado("panel en el móvil: «Mis últimos gastos» en tarjetas, con importe y estado a la vista", async ({ page }) => {
  await page.goto("/");
  const seccion = page.getByRole("region", { name: "Mis últimos gastos" });
  const fila = seccion.getByRole("row").nth(1);
  await fila.scrollIntoViewIfNeeded();
  // The row's last line (its estado) whole on the screen, not cut off at the right.
  await expect(fila.getByRole("cell").last()).toBeInViewport({ ratio: 1 });
  for (const d of await desbordes(page)) expect(d).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page);
});

aprobador(
  "panel en el móvil: «Los 10 más antiguos» pendientes en tarjetas, sin desplazamiento lateral",
  async ({ page }) => {
    await page.goto("/");
    const seccion = page.getByRole("region", { name: "Pendientes de aprobar" });
    const tabla = seccion.getByRole("table");
    const fila = tabla.getByRole("row").nth(1);
    await fila.scrollIntoViewIfNeeded();
    await expect(fila.getByRole("cell").last()).toBeInViewport({ ratio: 1 });
    for (const d of await desbordes(page)) expect(d).toBeLessThanOrEqual(0);
  },
);

aprobador(
  "gastos en el móvil: los filtros plegados dicen cuáles hay; filtrar lleva a los resultados",
  async ({ page }, info) => {
    await page.goto("/gastos?estado=pendiente");
    const buscar = page.getByRole("search", { name: "Buscar gastos" });
    const plegados = buscar.getByText("Filtros (1): Estado: Pendiente de aprobación");
    await expect(plegados).toBeVisible();
    // Folded: the results start on the first screen.
    await expect(buscar.getByLabel("Categoría")).toBeHidden();
    await expect(page.locator("#resumen-resultados")).toBeInViewport();
    await expectNoAxeViolations(page);

    await plegados.click();
    await buscar.getByLabel("Categoría").selectOption({ label: "Comidas" });
    await buscar.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(/categoria=comidas/);
    await expect(page.getByRole("search", { name: "Buscar gastos" })).toContainText(
      "Filtros (2): Estado: Pendiente de aprobación · Categoría: Comidas",
    );
    if (jsEnabled(info.project.name)) await expect(page.locator("#resumen-resultados")).toBeFocused();
  },
);

as("aprobador")("gastos a 1366 px: todos los filtros a la vista, sin plegar", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto("/gastos?estado=pendiente");
  const buscar = page.getByRole("search", { name: "Buscar gastos" });
  await expect(buscar.getByLabel("Categoría")).toBeVisible();
  await expect(buscar.getByText(/^Filtros \(1\)/)).toBeHidden();
});

aprobador(
  "gastos en el móvil: «Ordenar por» ofrece solo columnas que ordenan, sin cuadros vacíos delante de «Folio»",
  async ({ page }) => {
    // Pending rows to select: the selection column (its header is for screen readers only).
    await page.goto("/gastos?vista=pendientes");
    await expect(page.getByRole("checkbox", { name: /^Seleccionar GAS-/ }).first()).toBeVisible();
    const cabeceras = await asItIs(page, (p) =>
      p.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("#resultados thead th")]
          .filter((th) => th.getBoundingClientRect().width > 1)
          .map((th) => th.querySelector("a")?.textContent?.trim() ?? `(sin enlace: «${th.textContent?.trim()}»)`),
      ),
    );
    expect(cabeceras[0]).toMatch(/^Folio/);
    expect(cabeceras.filter((c) => c.startsWith("(sin enlace"))).toEqual([]);
    // Still a header for screen readers.
    await expect(page.getByRole("columnheader", { name: "Seleccionar" })).toHaveCount(1);
    await expectNoAxeViolations(page);
  },
);

aprobador(
  "gastos en el móvil: un enlace fijo al pie lleva de las casillas a las acciones en bloque; a 1366 px no está",
  async ({ page }, info) => {
    await page.goto("/gastos?vista=pendientes");
    const casilla = page.getByRole("checkbox", { name: /^Seleccionar GAS-/ }).first();
    const enlace = page.getByRole("link", { name: "Ir a las acciones con los seleccionados" });
    const titulo = page.getByRole("heading", { name: "Aprobar o rechazar varios" });
    // Among the first cards, the form many cards below: the link is held at the window's bottom.
    await casilla.scrollIntoViewIfNeeded();
    await expect(titulo).not.toBeInViewport();
    await expect(enlace).toBeInViewport({ ratio: 1 });
    await enlace.click();
    await expect(titulo).toBeInViewport();
    // A box checked: with JavaScript the selection bar (count, «Aprobar seleccionados») takes its place.
    await casilla.check();
    if (jsEnabled(info.project.name)) {
      await expect(page.getByRole("region", { name: "Gastos seleccionados" })).toBeInViewport();
      await expect(enlace).toBeHidden();
    } else await expect(enlace).toBeInViewport({ ratio: 1 });
    await expectNoAxeViolations(page);
    // At 1366 px the rows are a table and the form is close by.
    await page.setViewportSize({ width: 1366, height: 900 });
    await casilla.uncheck();
    await expect(enlace).toBeHidden();
  },
);

aprobador("el historial de un gasto en el móvil no parte palabras por la mitad", async ({ page }) => {
  await page.goto("/gastos?vista=pendientes");
  await page.locator("#resultados a[id^='fila-']").first().click();
  const historial = page.getByRole("region", { name: "Historial de cambios" });
  // Sent to approval: at least its estado changed, in a table of what changed.
  await expect(historial.getByRole("cell", { name: "Pendiente de aprobación" }).first()).toBeAttached();
  const partidas = await asItIs(page, (p) =>
    p.evaluate(() => {
      const out: string[] = [];
      for (const celda of document.querySelectorAll<HTMLElement>(".historial th, .historial td")) {
        // Headers for screen readers only are clipped to a pixel: not read on the screen.
        if (celda.getBoundingClientRect().width <= 1) continue;
        const textos = document.createTreeWalker(celda, NodeFilter.SHOW_TEXT);
        for (let n = textos.nextNode(); n; n = textos.nextNode())
          for (const m of (n.textContent ?? "").matchAll(/\p{L}{2,}/gu)) {
            const palabra = document.createRange();
            palabra.setStart(n, m.index);
            palabra.setEnd(n, m.index + m[0].length);
            const lineas = new Set([...palabra.getClientRects()].map((r) => Math.round(r.top)));
            if (lineas.size > 1) out.push(m[0]);
          }
      }
      return out;
    }),
  );
  expect(partidas).toEqual([]);
  // Every changed field by its name, never by its column's.
  await expect(historial.locator("tbody th").filter({ hasText: /_/ })).toHaveCount(0);
  const desborde = await asItIs(page, (p) =>
    p.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth),
  );
  expect(desborde).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page);
});

administrador(
  "panel en el móvil: los textos de los gráficos se leen, sin montarse ni salirse del dibujo",
  async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("img", { name: /^Aprobado por mes/ })).toBeVisible();
    const textos = await asItIs(page, (p) =>
      p.evaluate(() => {
        const out: { texto: string; px: number; dentro: boolean; montado: boolean }[] = [];
        for (const svg of document.querySelectorAll<SVGSVGElement>("svg.grafico-svg")) {
          // Each chart is drawn for a screen and for a phone: only the one shown counts.
          if (svg.getBoundingClientRect().width === 0) continue;
          const caja = svg.getBoundingClientRect();
          const escala = svg.getScreenCTM()!.a;
          const rects = [...svg.querySelectorAll("text")]
            .filter((t) => t.textContent?.trim())
            .map((t) => ({ t, r: t.getBoundingClientRect() }));
          for (const { t, r } of rects)
            out.push({
              texto: t.textContent!.trim(),
              px: Math.round(escala * parseFloat(getComputedStyle(t).fontSize) * 10) / 10,
              dentro: r.left >= caja.left - 1 && r.right <= caja.right + 1,
              montado: rects.some(
                (o) =>
                  o.t !== t &&
                  o.r.left < r.right - 1 &&
                  r.left < o.r.right - 1 &&
                  o.r.top < r.bottom - 1 &&
                  r.top < o.r.bottom - 1,
              ),
            });
        }
        return out;
      }),
    );
    expect(textos.length).toBeGreaterThan(20);
    expect(textos.filter((t) => t.px < 11)).toEqual([]);
    expect(textos.filter((t) => !t.dentro)).toEqual([]);
    expect(textos.filter((t) => t.montado)).toEqual([]);
    await expectNoAxeViolations(page);
  },
);
