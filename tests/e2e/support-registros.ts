import { request, type Browser, type Page } from "@playwright/test";
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import sharp from "sharp";
import { CATEGORIAS_GASTO, METODOS_PAGO } from "../../app/lib/opciones";
import { E2E_BASE_URL as BASE_URL } from "./entorno";
import { enLaBaseDeDatos } from "./support-base-de-datos";
import { expect, paginaQueDibuja, storageStateOf, test, waitForMailLink, type Role } from "./support";

/**
 * Helpers of the registros (sucursales, proveedores, usuarios) and gastos journeys. Every record a
 * test needs is made by that test with a unique name, so parallel workers and both projects
 * (JS on and off, one server, one database) never step on each other.
 */

/** A page signed in as `role` in its own context (same project options: JavaScript on or off). */
export async function pageAs(browser: Browser, role: Role): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateOf(role) });
  return paginaQueDibuja(context);
}

/** A page of nobody signed in, in its own context. */
export async function anonPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  return paginaQueDibuja(context);
}

/** `YYYY-MM-DD` in Madrid (the office's day), `days` from today. */
export function diaMadrid(days = 0) {
  const hoy = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Madrid",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date());
  const d = new Date(`${hoy}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The day of a test's dieta, `days` from today, ten days earlier without JavaScript: both projects
 * share one database and one demo empleado, who has one dieta a day (the IRPF limit is daily).
 */
export const diaDeDieta = (days: number) => diaMadrid(days - (test.info().project.name === "sin-js" ? 10 : 0));

/** «2026-11-22» → «22/11/2026», as the screens show dates. */
export const fechaES = (iso: string) => iso.split("-").reverse().join("/");

/** An amount as the screens show it: «1.234,56 €», grouped from 1.000 (the space before € is a no-break space). */
export function euros(cents: number) {
  return new Intl.NumberFormat("es-ES", { style: "currency", currency: "EUR", useGrouping: "always" }).format(
    cents / 100,
  );
}

/** A regular expression that finds `text` literally. */
export const literal = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));

/** A random amount in cents (10,00–999,99 €), so a gasto never looks like a duplicate of another. */
export const centimosAlAzar = () => 1000 + Math.floor(Math.random() * 99_000);

/** «12,34» as typed into an amount field. */
export const importeTecleado = (cents: number) => (cents / 100).toFixed(2).replace(".", ",");

/** A valid Spanish CIF of type B (sociedad limitada) with random digits: letter, 7 digits, control digit. */
export function cifAlAzar() {
  const digits = String(1_000_000 + Math.floor(Math.random() * 9_000_000));
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    let n = Number(digits[i]);
    if (i % 2 === 0) {
      n *= 2;
      n = Math.floor(n / 10) + (n % 10);
    }
    sum += n;
  }
  return `B${digits}${(10 - (sum % 10)) % 10}`;
}

/** The «Iniciar sesión» / «Crear cuenta» page: signs up `nombre` and confirms from the outbox; the page ends signed in. */
export async function signUpAndConfirm(page: Page, nombre: string, email: string) {
  await page.goto("/login");
  const form = page.getByRole("region", { name: "Crear cuenta" });
  await form.getByLabel("Nombre").fill(nombre);
  await form.getByLabel("Correo electrónico").fill(email);
  await form.getByLabel("Contraseña").fill("una frase larga para entrar");
  await form.getByRole("button", { name: "Crear cuenta" }).click();
  await expect(page).toHaveURL("/signup-confirmation");
  await page.goto(await waitForMailLink(email));
  await page.getByRole("button", { name: "Confirmar mi cuenta" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();
}

/** Searches a list (`/usuarios?q=…`) and opens the record whose link is `name`. */
export async function openRecord(page: Page, path: string, q: string, name: string) {
  await page.goto(`${path}?q=${encodeURIComponent(q)}`);
  await page.getByRole("table").getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name, exact: true })).toBeVisible();
}

// ——— Gastos ———

/** The open gasto's panel beside the list. */
export const panelGasto = (page: Page, folio?: string) =>
  page.getByRole("region", { name: folio ? new RegExp(`^Gasto ${folio}\\b`) : /^Gasto GAS-/ });

/** The flash message after an action (a status, or an alert when it is an error). */
export const flash = (page: Page) => page.getByRole("status").or(page.getByRole("alert")).first();

export type NuevoGasto = {
  descripcion: string;
  centimos: number;
  categoria?: string;
  metodo?: string;
  proveedor?: string;
  factura?: string;
  /** The departamento's id, when not the solicitante's. */
  departamento?: string;
  /** Receipts attached in the form (default one, made here: «Enviar a aprobación» needs one). */
  justificantes?: Justificante[];
};

export type Justificante = { name: string; mimeType: string; buffer: Buffer };

/**
 * A receipt image made for the test (no binary fixtures): a small PNG of a random colour and
 * size, so no two tests attach the same content (that would be a duplicate warning).
 */
export async function justificantePng(name = `ticket-${randomUUID().slice(0, 8)}.png`): Promise<Justificante> {
  const [r, g, b] = randomBytes(3);
  const buffer = await sharp({
    create: {
      width: 40 + randomInt(200),
      height: 30 + randomInt(200),
      channels: 3,
      background: { r: r!, g: g!, b: b! },
    },
  })
    .png()
    .toBuffer();
  return { name, mimeType: "image/png", buffer };
}

/** Where «Nuevo gasto» opens: the panel beside «Mis gastos» (the link at the top of `/gastos` leads there). */
export const NUEVO_GASTO = "/gastos?vista=mios&nuevo=1#nuevo";

/**
 * Creates a gasto with the «Nuevo gasto» form of `/gastos` (as whoever `page` is signed in as) and
 * returns its folio; the page ends on its panel.
 */
export async function crearGasto(page: Page, g: NuevoGasto): Promise<string> {
  await page.goto(NUEVO_GASTO);
  const folio = await completarYCrear(page, g);
  await expect(panelGasto(page, folio)).toBeVisible();
  return folio;
}

/** Fills the «Nuevo gasto» form open on `page` with `g`, sends it and returns the new gasto's folio. */
export async function completarYCrear(page: Page, g: NuevoGasto): Promise<string> {
  const form = page.getByRole("region", { name: "Nuevo gasto" });
  await form.getByLabel("Descripción").fill(g.descripcion);
  await form.getByLabel("Categoría").selectOption({ label: g.categoria ?? "Comidas" });
  await form.getByLabel("Importe (obligatorio)").fill(importeTecleado(g.centimos));
  await form.getByLabel("Método de pago").selectOption({ label: g.metodo ?? "Tarjeta corporativa" });
  if (g.proveedor) await form.getByLabel("Proveedor").selectOption({ label: g.proveedor });
  if (g.factura) await form.getByLabel("Nº de factura / ticket").fill(g.factura);
  const justificantes = g.justificantes ?? [await justificantePng()];
  if (justificantes.length) await form.getByLabel("Justificantes").setInputFiles(justificantes);
  await form.getByRole("button", { name: "Crear gasto" }).click();
  await expect(flash(page)).toContainText(/Gasto creado: GAS-\d{4}-\d{5}/);
  return /GAS-\d{4}-\d{5}/.exec(await flash(page).innerText())![0];
}

/** Opens gasto `folio` from the list searched by its folio (`vista`: «pendientes», «mios»…). */
export async function abrirGasto(page: Page, folio: string, vista?: string) {
  await page.goto(`/gastos?${vista ? `vista=${vista}&` : ""}q=${encodeURIComponent(folio)}`);
  await page.getByRole("table").getByRole("link", { name: folio, exact: true }).click();
  await expect(panelGasto(page, folio)).toBeVisible();
  return panelGasto(page, folio);
}

/** Presses a workflow button of the open panel and waits for its flash. */
export async function transicion(page: Page, folio: string, boton: string, hecho: RegExp | string) {
  await panelGasto(page, folio)
    .getByRole("region", { name: "Acciones" })
    .getByRole("button", { name: boton, exact: true })
    .click();
  await expect(flash(page)).toContainText(hecho);
}

/**
 * Borradores of the demo empleado, with a receipt, for journeys that start from one: posted to
 * the server as her browser would post «Nuevo gasto», without drawing the page (the journeys that
 * create through the screens are in gastos.spec.ts). Their ids, folios and versions.
 */
export async function borradores(gastos: NuevoGasto[]): Promise<{ id: string; folio: string; version: number }[]> {
  const api = await apiDeEmpleada();
  try {
    const hechos: { id: string; folio: string; version: number }[] = [];
    for (const g of gastos) {
      const proveedor = g.proveedor
        ? (
            await enLaBaseDeDatos<{ id: string }>("select id from proveedores where razon_social = $1", [g.proveedor])
          )[0]?.id
        : undefined;
      const creado = await api.post("/gastos?index", {
        maxRedirects: 0,
        multipart: {
          intent: "crear",
          _envio: randomUUID(),
          descripcion: g.descripcion,
          fecha_gasto: diaMadrid(),
          categoria: valorDe(CATEGORIAS_GASTO, g.categoria ?? "Comidas"),
          importe: importeTecleado(g.centimos),
          metodo_pago: valorDe(METODOS_PAGO, g.metodo ?? "Tarjeta corporativa"),
          ...(proveedor ? { proveedor_id: proveedor } : {}),
          ...(g.factura ? { numero_factura: g.factura } : {}),
          ...(g.departamento ? { departamento_id: g.departamento } : {}),
          justificantes: (g.justificantes ?? [await justificantePng()])[0]!,
        },
      });
      expect(creado.status(), await creado.text()).toBe(302);
      const id = new URL(creado.headers().location!, BASE_URL).searchParams.get("gasto")!;
      const [gasto] = await enLaBaseDeDatos<{ folio: string; version: number }>(
        "select folio, version from gastos where id = $1",
        [id],
      );
      hechos.push({ id, ...gasto! });
    }
    return hechos;
  } finally {
    await api.dispose();
  }
}

/**
 * Gastos of the demo empleado, created (`borradores`) and sent to approval (the demo aprobador
 * approves them) for journeys that start from a pending gasto.
 */
export async function gastosPendientes(gastos: NuevoGasto[]): Promise<string[]> {
  const hechos = await borradores(gastos);
  const api = await apiDeEmpleada();
  try {
    for (const { id, version } of hechos) {
      const enviado = await api.post(`/gastos?gasto=${id}`, {
        maxRedirects: 0,
        form: { intent: "enviar", id, version: String(version) },
      });
      expect(enviado.status(), await enviado.text()).toBe(302);
      const [despues] = await enLaBaseDeDatos<{ estado: string }>("select estado from gastos where id = $1", [id]);
      expect(despues?.estado).toBe("pendiente");
    }
    return hechos.map((g) => g.folio);
  } finally {
    await api.dispose();
  }
}

/** Requests as the demo empleado's browser makes them (her session, same-origin headers). */
export function apiDeEmpleada() {
  return request.newContext({
    baseURL: BASE_URL,
    storageState: storageStateOf("empleado"),
    extraHTTPHeaders: { Origin: BASE_URL, "Sec-Fetch-Site": "same-origin" },
  });
}

/** The value of an option by the label the screens show. */
function valorDe(opciones: readonly { value: string; label: string }[], label: string) {
  const opcion = opciones.find((o) => o.label === label);
  if (!opcion) throw new Error(`No hay ninguna opción «${label}»`);
  return opcion.value;
}

/** The names the demo accounts show. */
export const NOMBRES: Record<Role, string> = {
  administrador: "Ana Administradora",
  aprobador: "Pablo Aprobador",
  empleado: "Elena Empleada",
};
