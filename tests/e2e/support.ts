import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { E2E_BASE_URL, E2E_DATA_DIR, E2E_STATE_DIR } from "./entorno";

/** The demo accounts the seed creates (README lists them). */
export const DEMO_PASSWORD = "demo-oficina-2026";
export const ACCOUNTS = {
  administrador: "administrador@oficina.example",
  aprobador: "aprobador@oficina.example",
  empleado: "empleado@oficina.example",
} as const;
export type Role = keyof typeof ACCOUNTS;

export const storageStateOf = (role: Role) => path.resolve(E2E_STATE_DIR, `${role}.json`);

/**
 * Playwright's test, with a page that draws. Playwright's clicks wait for the element to keep its
 * place over two animation frames; in CI a journey's first click, right after its first page of
 * the app, sometimes waited out its 30 s with nothing more in its log: that page drew no frames,
 * while its scripts still answered. A window's first page of the app starts the renderer process
 * every later page of the journey reuses (same origin), so `paginaQueDibuja` opens one first and
 * checks that it draws, and replaces a window that cannot; the journey itself runs once. When a
 * journey fails, its report says whether the page still drew and, with JavaScript, still ran a
 * script: a browser fault tells itself apart from the app's.
 */
export const test = base.extend({
  page: async ({ page, context, javaScriptEnabled }, use, testInfo) => {
    const lista = await paginaQueDibuja(context, page);
    await use(lista);
    if (testInfo.status === testInfo.expectedStatus || lista.isClosed()) return;
    await testInfo.attach("estado de la página al fallar", {
      body: await estadoDeLaPagina(lista, javaScriptEnabled),
      contentType: "text/plain",
    });
  },
});

const PLAZO_DEL_NAVEGADOR = 3_000;

/**
 * A page of `context` (`primera`, or a new one) that has drawn a frame of the app. One that cannot
 * within PLAZO_DEL_NAVEGADOR is closed and another opened, and the test's output says so. The
 * page is left on the health check, the cheapest page of the app's origin: every journey starts
 * with a `goto` of its own.
 */
export async function paginaQueDibuja(context: BrowserContext, primera?: Page): Promise<Page> {
  let page = primera ?? (await context.newPage());
  for (let sustituidas = 0, motivo; (motivo = await noDibujaLaApp(page)); sustituidas++) {
    if (sustituidas === 2) throw new Error("Chromium no dibuja en sus ventanas nuevas: el navegador falla, no la app.");
    const info = base.info();
    console.warn(
      `[${info.project.name}] ${info.titlePath.join(" › ")}: la ventana nueva no dibujaba (${motivo}); se abre otra antes de empezar.`,
    );
    await page.close();
    page = await context.newPage();
  }
  return page;
}

async function noDibujaLaApp(page: Page): Promise<string | null> {
  await page.goto(new URL("/healthz", E2E_BASE_URL).href);
  return noDibuja(page);
}

/**
 * A screenshot needs a new frame from the window's compositor, with or without JavaScript. A
 * window that has none either never answers or says «Unable to capture screenshot».
 */
const noDibuja = (page: Page): Promise<string | null> =>
  page.screenshot({ clip: { x: 0, y: 0, width: 1, height: 1 }, timeout: PLAZO_DEL_NAVEGADOR }).then(
    () => null,
    (e: Error) => {
      if (page.isClosed()) throw e;
      return e.message.split("\n")[0]!;
    },
  );

async function estadoDeLaPagina(page: Page, conJs: boolean) {
  let plazo: NodeJS.Timeout | undefined;
  const error = (e: Error) => `error: ${e.message.split("\n")[0]}`;
  const [fotograma, script] = await Promise.all([
    noDibuja(page).then((motivo) => (motivo ? `no dibuja (${motivo})` : "dibuja"), error),
    conJs
      ? Promise.race([
          page.evaluate(() => {
            // Where a keystroke would go: what the journey typed into, or what took the focus since.
            const e = document.activeElement;
            const foco = !e || e === document.body ? "nada" : `<${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}>`;
            return `responde (documento ${document.readyState}; foco en ${foco})`;
          }),
          new Promise<string>((r) => (plazo = setTimeout(() => r("sin respuesta"), PLAZO_DEL_NAVEGADOR))),
        ]).catch(error)
      : "sin JavaScript",
  ]);
  clearTimeout(plazo);
  return `${page.url()}\nfotogramas: ${fotograma}\nscripts: ${script}`;
}

/** Tests that start signed in as `role` (sessions made once by preparar.setup.ts). */
export const as = (role: Role) => test.extend({ storageState: storageStateOf(role) });
export { expect };

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto("/login");
  const form = page.getByRole("region", { name: "Iniciar sesión" });
  await form.getByLabel("Correo electrónico").fill(email);
  await form.getByLabel("Contraseña").fill(password);
  await form.getByRole("button", { name: "Iniciar sesión" }).click();
}

/** A unique suffix so parallel tests (and both projects) never collide. */
export function unique(prefix: string) {
  return `${prefix} ${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 6)}`;
}

/** The last confirmation link the dev outbox holds for `email` (DATA_DIR/correo/<email>.txt). */
export function lastMailLink(email: string): string | null {
  const file = path.resolve(E2E_DATA_DIR, "correo", `${email.toLowerCase()}.txt`);
  if (!existsSync(file)) return null;
  const links = readFileSync(file, "utf8").match(/https?:\/\/\S+/g);
  return links?.at(-1) ?? null;
}

/**
 * Runs `fn` on the page as it is now. With JavaScript that is `page` itself. Without it,
 * `evaluate` never returns (nor can axe run), so the server's HTML as it is now (nothing ran) is
 * loaded into a JavaScript-enabled twin page: same URL (fragment included), viewport and
 * stylesheets, with the page's own scripts blocked by CSP so it stays as it was.
 */
export async function asItIs<T>(page: Page, fn: (page: Page) => Promise<T>): Promise<T> {
  if (base.info().project.use.javaScriptEnabled !== false) return fn(page);
  const html = await page.content();
  const url = page.url();
  // A request never carries the fragment.
  const document = url.replace(/#.*$/, "");
  const twin = await (await twinContextOf(page.context().browser()!)).newPage();
  try {
    const viewport = page.viewportSize();
    if (viewport) await twin.setViewportSize(viewport);
    await twin.route(
      (u) => u.href === document,
      (route) =>
        route.fulfill({
          status: 200,
          contentType: "text/html; charset=utf-8",
          headers: { "Content-Security-Policy": "script-src 'none'" },
          body: html,
        }),
    );
    await twin.goto(url);
    return await fn(twin);
  } finally {
    await twin.close();
  }
}

/**
 * One JavaScript-enabled context per browser (one browser per Playwright worker) for the twins:
 * it holds no cookies and only ever loads pages fulfilled from a copy, so its pages can share it.
 */
const twinContexts = new WeakMap<Browser, Promise<BrowserContext>>();
function twinContextOf(browser: Browser) {
  let context = twinContexts.get(browser);
  if (!context) {
    context = browser.newContext({ javaScriptEnabled: true, locale: "es-ES" });
    twinContexts.set(browser, context);
  }
  return context;
}

/**
 * axe-core over the whole page as it is now (asItIs): every rule, no violations allowed. Run in
 * the page itself (legacy mode: the app has no frames, so nothing is missed) rather than
 * finished in a second blank page, and asked for violations only (passes are not listed).
 */
export async function expectNoAxeViolations(page: Page) {
  const results = await asItIs(page, (p) =>
    new AxeBuilder({ page: p })
      .setLegacyMode(true)
      .options({ resultTypes: ["violations"] })
      .analyze(),
  );
  expect(
    results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
  ).toEqual([]);
}

export const jsEnabled = (projectName: string) => projectName !== "sin-js";

/** A unique departamento/sucursal code: 2–10 of [A-Z0-9-], different for every call. */
export function uniqueCode(prefix = "E") {
  return `${prefix}${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 7)}`
    .toUpperCase()
    .slice(0, 10);
}

/** A unique email at the demo domain, for sign-up journeys. */
export function uniqueEmail(prefix = "e2e") {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@oficina.example`;
}

/** A mailed link (built from APP_URL) as a path on the server under test. */
export function pathOf(link: string) {
  const url = new URL(link);
  return url.pathname + url.search;
}

/** Waits until the dev outbox holds a confirmation link for `email` and returns it. */
export async function waitForMailLink(email: string): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(() => (link = lastMailLink(email)), { message: `correo de confirmación para ${email}` })
    .not.toBeNull();
  return link!;
}

/** The create form of a list page («Nuevo departamento», «Nueva sucursal»…). */
export const createForm = (page: Page, singular: string) =>
  page.getByRole("region", { name: new RegExp(`^Nuev[oa] ${singular}$`) });

export type NuevoDepartamento = {
  nombre: string;
  codigo: string;
  activo?: boolean;
  centro?: string;
  presupuesto?: string;
  notas?: string;
};

/** Creates a departamento through the list page's form (as a signed-in administrador). */
export async function createDepartamento(page: Page, d: NuevoDepartamento) {
  await page.goto("/departamentos");
  const form = createForm(page, "departamento");
  await form.getByLabel("Nombre").fill(d.nombre);
  await form.getByLabel("Código").fill(d.codigo);
  if (d.centro !== undefined) await form.getByLabel("Centro de coste").fill(d.centro);
  if (d.presupuesto !== undefined) await form.getByLabel("Presupuesto mensual").fill(d.presupuesto);
  if (d.notas !== undefined) await form.getByLabel("Notas").fill(d.notas);
  if (d.activo === false) await form.getByRole("checkbox", { name: "Activo" }).uncheck();
  await form.getByRole("button", { name: "Crear departamento" }).click();
  await expect(page.getByRole("status")).toContainText(`Departamento creado: ${d.nombre}`);
}

/** Searches the departamentos list for `nombre` and opens its record page. */
export async function openDepartamento(page: Page, nombre: string) {
  await page.goto(`/departamentos?q=${encodeURIComponent(nombre)}`);
  await page.getByRole("table").getByRole("link", { name: nombre, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();
}

/** The «Secciones» navigation of the header. */
export const navegacion = (page: Page) => page.getByRole("navigation", { name: "Secciones" });

/** The summary of a folded group of the navigation («Administración», «Libros»). */
export const grupoNav = (page: Page, titulo: string) =>
  navegacion(page)
    .locator("summary")
    .filter({ hasText: new RegExp(`^${titulo}$`) });

/**
 * A link of the navigation folded in the group `titulo`, reached as a person would: with the
 * keyboard, Tab to the group's summary and Enter to open it, then Tab to the link; else a click
 * on the summary. Returns the link, focused or visible.
 */
export async function enlaceEnGrupo(page: Page, titulo: string, name: string, teclado = false) {
  const grupo = grupoNav(page, titulo);
  const enlace = navegacion(page).getByRole("link", { name, exact: true });
  if (teclado) {
    await pressUntilFocused(page, grupo);
    await page.keyboard.press("Enter");
    await pressUntilFocused(page, enlace, "Tab", 20);
  } else {
    await grupo.click();
    await expect(enlace).toBeVisible();
  }
  return enlace;
}

/** Presses `key` (Tab by default) until `target` has the focus; returns how many presses it took. */
export async function pressUntilFocused(page: Page, target: Locator, key = "Tab", max = 120) {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(key);
    if (await focused(target)) return i;
  }
  throw new Error(`${key} ×${max} no llegó a ${target}`);
}

/**
 * A keyboard that counts: every navigation key (Tab, Shift+Tab, Enter, Space, arrows) pressed
 * through it adds one, so a journey can assert how many keys it took. Typing a field's value
 * goes through `type` and is not counted.
 */
export function tecladoContado(page: Page) {
  let total = 0;
  return {
    get total() {
      return total;
    },
    async press(key: string) {
      total += 1;
      await page.keyboard.press(key);
    },
    async hasta(target: Locator, key = "Tab", max = 60) {
      total += await pressUntilFocused(page, target, key, max);
    },
    type: (text: string) => page.keyboard.type(text),
  };
}

/** Without JavaScript `evaluate` never returns: ask with a one-shot expectation instead. */
async function focused(target: Locator) {
  try {
    await expect(target).toBeFocused({ timeout: 1 });
    return true;
  } catch {
    return false;
  }
}
