import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { departamentoEnLaBase } from "./support-base-de-datos";
import { as, expect, expectNoAxeViolations, paginaQueDibuja, unique, uniqueCode } from "./support";
import {
  abrirGasto,
  centimosAlAzar,
  crearGasto,
  diaMadrid,
  euros,
  fechaES,
  flash,
  gastosPendientes,
  importeTecleado,
  literal,
  pageAs,
  panelGasto,
  transicion,
} from "./support-registros";

/**
 * Gastos end to end, as the people who use them: Elena (empleado)
 * records and sends, Pablo (aprobador, responsable of her department) approves and rejects, Ana
 * (administradora) pays. Every test makes its own gastos with a unique description and works only
 * on those: other tests (and the other project) change gastos on the same server meanwhile.
 */
const empleado = as("empleado");
const aprobador = as("aprobador");
const administrador = as("administrador");

const buscador = (page: Page) => page.getByRole("search", { name: "Buscar gastos" });
const filas = (page: Page) =>
  page
    .getByRole("table")
    .getByRole("row")
    .filter({ has: page.getByRole("cell") });
const fila = (page: Page, folio: string) =>
  filas(page).filter({ has: page.getByRole("link", { name: folio, exact: true }) });
/** The panel's heading: «Gasto GAS-2026-00042 Aprobado» (folio and estado badge). */
const titulo = (page: Page, folio: string) =>
  panelGasto(page, folio).getByRole("heading", { level: 2, name: /^Gasto GAS-/ });
const historial = (page: Page, folio: string) =>
  panelGasto(page, folio).getByRole("region", { name: "Historial de cambios" });
/** The history entries that changed Estado from `antes` to `despues`. */
const cambiosDeEstado = (page: Page, folio: string, antes: string, despues: string) =>
  historial(page, folio)
    .getByRole("listitem")
    .filter({ has: page.getByRole("row", { name: `Estado ${antes} ${despues}`, exact: true }) });

/** The count and sum line: «2 gastos con estos filtros · 30,00 €». */
const resumen = (page: Page) => page.getByText(/^[\d.]+ gastos? (con estos filtros )?· /);

empleado(
  "crear un gasto: sale en «Mis gastos» como borrador, su panel se abre y se envía a aprobación",
  async ({ page }) => {
    const descripcion = unique("Taxi al cliente");
    const centimos = centimosAlAzar();
    const folio = await crearGasto(page, {
      descripcion,
      centimos,
      categoria: "Viajes y transporte",
      metodo: "Efectivo",
      factura: "T-0042",
    });
    // After creating, the new gasto's panel is open beside the list.
    await expect(page).toHaveURL(/[?&]gasto=[0-9a-f-]{36}/);
    await expect(titulo(page, folio)).toHaveText(`Gasto ${folio} Borrador`);

    // «Mis gastos»: the row, as a borrador.
    await page.getByRole("navigation", { name: "Vistas de gastos" }).getByRole("link", { name: "Mis gastos" }).click();
    await expect(page).toHaveURL(/vista=mios/);
    await buscador(page).getByLabel("Buscar").fill(descripcion);
    await buscador(page).getByRole("button", { name: "Filtrar" }).click();
    await expect(page.getByText("1 gasto con estos filtros")).toBeVisible();
    const row = fila(page, folio);
    await expect(row).toContainText(descripcion);
    await expect(row).toContainText(euros(centimos));
    await expect(row).toContainText("Borrador");
    await expect(row).toContainText("Viajes y transporte");
    await expect(row).toContainText(fechaES(diaMadrid()));

    // Its panel (`?gasto=`), keeping the list's filters.
    await row.getByRole("link", { name: folio }).click();
    await expect(page).toHaveURL(/vista=mios/);
    await expect(page).toHaveURL(/[?&]gasto=[0-9a-f-]{36}/);
    const panel = panelGasto(page, folio);
    await expect(titulo(page, folio)).toHaveText(`Gasto ${folio} Borrador`);
    // A borrador: its fields in the edit form, not repeated in the summary above it.
    const datos = panel.getByRole("region", { name: "Datos" });
    await expect(datos.getByLabel(/^Nº de factura/)).toHaveValue("T-0042");
    await expect(panel.locator("dl.ficha dt", { hasText: /^Nº de factura/ })).toHaveCount(0);
    await expect(panel.locator("dl.ficha dt", { hasText: /^Estado$/ })).toHaveCount(1);
    await expect(panel.getByRole("region", { name: "Acciones" }).getByRole("button", { name: "Aprobar" })).toHaveCount(
      0,
    );
    await expectNoAxeViolations(page);

    // Send it: pending, with a flash, and the aprobador assigned (her own: Pablo).
    await transicion(page, folio, "Enviar a aprobación", `Gasto ${folio} enviado a aprobación.`);
    await expect(titulo(page, folio)).toHaveText(`Gasto ${folio} Pendiente de aprobación`);
    await expect(
      panel.getByRole("region", { name: "Acciones" }).getByRole("button", { name: "Retirar" }),
    ).toBeVisible();
    await expect(
      panel.getByRole("region", { name: "Acciones" }).getByRole("button", { name: "Enviar a aprobación" }),
    ).toHaveCount(0);
    await expect(panel.getByRole("region", { name: "Datos" })).toHaveCount(0); // only a borrador is edited
    await expect(fila(page, folio)).toContainText("Pendiente de aprobación");
    await expect(cambiosDeEstado(page, folio, "Borrador", "Pendiente de aprobación")).toContainText("Elena Empleada");
  },
);

empleado(
  "los enlaces de la tabla (el de una fila, con el ratón y con Intro; el de ordenar): con JavaScript, sin recargar la página",
  async ({ page }, info) => {
    const conJs = info.project.use.javaScriptEnabled !== false;
    type Marca = { sinRecargar?: boolean };
    const marcar = () => page.evaluate(() => ((window as Marca).sinRecargar = true));
    const marcada = () => page.evaluate(() => (window as Marca).sinRecargar === true);
    await page.goto("/gastos");
    const enlaces = page.getByRole("table").getByRole("link", { name: /^GAS-/ });
    const primero = (await enlaces.nth(0).textContent())!;
    const segundo = (await enlaces.nth(1).textContent())!;
    // The rows' links are plain anchors with one listener on the table (ADR 0008, «The page»).
    if (conJs) await marcar();
    await enlaces.nth(0).click();
    await expect(panelGasto(page, primero)).toBeVisible();
    await expect(page).toHaveURL(/[?&]gasto=[0-9a-f-]{36}/);
    if (conJs) expect(await marcada()).toBe(true);
    await page.getByRole("table").getByRole("link", { name: segundo, exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(panelGasto(page, segundo)).toBeVisible();
    if (conJs) expect(await marcada()).toBe(true);
    // A column's sort link is one of the table's links too.
    await page
      .getByRole("columnheader", { name: /^Importe/ })
      .getByRole("link")
      .click();
    await expect(page).toHaveURL(/[?&]orden=importe/);
    await expect(page.getByRole("columnheader", { name: /^Importe/ })).toHaveAttribute("aria-sort", "ascending");
    if (conJs) expect(await marcada()).toBe(true);
  },
);

empleado("crear con errores: resumen con enlaces, valores conservados y nada creado", async ({ page }) => {
  const descripcion = unique("Gasto erróneo");
  // The list alone has no create form: «Nuevo gasto» opens it beside the list.
  await page.goto("/gastos?vista=mios");
  const form = page.getByRole("region", { name: "Nuevo gasto" });
  await expect(page.getByRole("button", { name: "Crear gasto" })).toHaveCount(0);
  await page.getByRole("main").getByRole("link", { name: "Nuevo gasto" }).click();
  await expect(page).toHaveURL(/[?&]nuevo=1.*#nuevo$/);
  await form.getByLabel("Descripción").fill(descripcion);
  await form.getByLabel("Fecha (obligatorio)").fill(diaMadrid(3)); // in the future
  await form.getByLabel("Importe (obligatorio)").fill("12,345");
  await form.getByLabel("Nº de factura / ticket").fill("F-CONSERVADA");
  // Categoría and Método de pago left unchosen.
  await form.getByRole("button", { name: "Crear gasto" }).click();

  // Still in the panel, its summary focused and in view: without JavaScript too (the form posts
  // to this URL, `?nuevo=1` included, at «#nuevo», the summary's id then).
  await expect(page).toHaveURL(/[?&]nuevo=1[&#]/);
  const summary = form.getByRole("alert");
  await expect(summary.getByRole("heading", { name: "Hay 4 errores" })).toBeVisible();
  await expect(summary).toBeFocused();
  await expect(summary).toBeInViewport();
  const mensajes = {
    fecha_gasto: "Fecha: no puede ser futura; escriba la fecha del ticket o la factura",
    categoria: "Elija una categoría",
    importe: "Importe: escriba un importe con hasta 2 decimales, por ejemplo 1.234,56",
    metodo_pago: "Elija un método de pago",
  };
  for (const [campo, mensaje] of Object.entries(mensajes)) {
    await expect(summary.getByRole("link", { name: mensaje })).toHaveAttribute("href", `#nuevo-gastos-${campo}`);
  }
  const importe = form.getByLabel("Importe (obligatorio)");
  await expect(importe).toHaveAttribute("aria-invalid", "true");
  await expect(importe).toHaveAccessibleDescription(literal(mensajes.importe));
  await expect(form.getByLabel("Fecha (obligatorio)")).toHaveAccessibleDescription(literal(mensajes.fecha_gasto));
  await expect(form.getByLabel("Descripción")).not.toHaveAttribute("aria-invalid", "true");

  // What was typed is still there.
  await expect(form.getByLabel("Descripción")).toHaveValue(descripcion);
  await expect(form.getByLabel("Fecha (obligatorio)")).toHaveValue(diaMadrid(3));
  await expect(importe).toHaveValue("12,345");
  await expect(form.getByLabel("Nº de factura / ticket")).toHaveValue("F-CONSERVADA");
  await expectNoAxeViolations(page);

  // The summary's link leads to the field.
  await summary.getByRole("link", { name: mensajes.importe }).click();
  await expect(page).toHaveURL(/#nuevo-gastos-importe$/);

  // Nothing was created.
  await page.goto(`/gastos?vista=mios&q=${encodeURIComponent(descripcion)}`);
  await expect(page.getByText("0 gastos con estos filtros")).toBeVisible();
  await expect(page.getByText("No hay gastos que coincidan con la búsqueda.")).toBeVisible();
});

aprobador(
  "«Mis pendientes de aprobar»: aprueba uno y rechaza otro con motivo (sin motivo no cambia nada)",
  async ({ page }) => {
    const prefijo = unique("Revisión");
    const [primero, segundo] = await gastosPendientes([
      { descripcion: `${prefijo} hotel`, centimos: centimosAlAzar(), categoria: "Alojamiento" },
      { descripcion: `${prefijo} cena`, centimos: centimosAlAzar(), categoria: "Comidas" },
    ]);

    // The one-click view, then narrowed to these two with the search box.
    await page.goto("/gastos");
    await page
      .getByRole("navigation", { name: "Vistas de gastos" })
      .getByRole("link", { name: "Mis pendientes de aprobar" })
      .click();
    await expect(page).toHaveURL(/vista=pendientes/);
    await expect(page.getByRole("link", { name: "Mis pendientes de aprobar" })).toHaveAttribute("aria-current", "page");
    await buscador(page).getByLabel("Buscar").fill(prefijo);
    await buscador(page).getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(/[?&]q=/);
    await expect(page).toHaveURL(/vista=pendientes/);
    await expect(resumen(page)).toHaveText(/^2 gastos con estos filtros · /);
    await expect(fila(page, primero!)).toContainText("Pendiente de aprobación");
    await expect(fila(page, segundo!)).toContainText("Elena Empleada");
    const listaFiltrada = page.url();

    // Approve the first from its panel.
    await fila(page, primero!).getByRole("link", { name: primero! }).click();
    const panel1 = panelGasto(page, primero);
    await expect(titulo(page, primero!)).toHaveText(`Gasto ${primero} Pendiente de aprobación`);
    await expect(panel1.getByRole("button", { name: "Retirar" })).toHaveCount(0); // not theirs
    await expectNoAxeViolations(page);
    await transicion(page, primero!, "Aprobar", `Gasto ${primero} aprobado.`);
    await expect(titulo(page, primero!)).toHaveText(`Gasto ${primero} Aprobado`);
    await expect(panel1.getByRole("region", { name: "Acciones" })).toHaveCount(0);
    await expect(panel1.getByRole("definition").filter({ hasText: "Pablo Aprobador" }).first()).toBeVisible();
    await expect(cambiosDeEstado(page, primero!, "Pendiente de aprobación", "Aprobado")).toContainText(
      "Pablo Aprobador",
    );

    // Reject the second: without a motivo, a Spanish error and nothing changes.
    await page.goto(listaFiltrada);
    await expect(resumen(page)).toHaveText(/^1 gasto con estos filtros · /);
    await fila(page, segundo!).getByRole("link", { name: segundo! }).click();
    const panel2 = panelGasto(page, segundo);
    const acciones = panel2.getByRole("region", { name: "Acciones" });
    await acciones.getByRole("button", { name: "Rechazar" }).click();
    const motivo = acciones.getByLabel("Motivo");
    await expect(motivo).toHaveAttribute("aria-invalid", "true");
    await expect(motivo).toHaveAccessibleDescription(/Escriba el motivo/);
    await expect(acciones.getByRole("alert").getByRole("heading", { name: "Hay 1 error" })).toBeVisible();
    await page.goto(page.url().replace(/#.*$/, ""));
    await expect(titulo(page, segundo!)).toHaveText(`Gasto ${segundo} Pendiente de aprobación`);
    await expect(cambiosDeEstado(page, segundo!, "Pendiente de aprobación", "Rechazado")).toHaveCount(0);

    // With a motivo: rejected, and the motivo is on the record.
    await acciones.getByLabel("Motivo").fill("Falta el ticket");
    await transicion(page, segundo!, "Rechazar", `Gasto ${segundo} rechazado.`);
    await expect(titulo(page, segundo!)).toHaveText(`Gasto ${segundo} Rechazado`);
    await expect(panel2.getByRole("definition").filter({ hasText: "Falta el ticket" })).toBeVisible();
    await expect(cambiosDeEstado(page, segundo!, "Pendiente de aprobación", "Rechazado")).toContainText(
      "Pablo Aprobador",
    );

    // Neither is pending any more.
    await page.goto(listaFiltrada);
    await expect(resumen(page)).toHaveText(/^0 gastos con estos filtros · /);
  },
);

aprobador("aprobar varios: se marcan dos casillas y el resultado dice cuántos", async ({ page }) => {
  const prefijo = unique("En bloque");
  // A department of its own without a budget: nothing to warn of, so approving asks nothing.
  const departamento = await departamentoEnLaBase(prefijo, uniqueCode("B"));
  const folios = await gastosPendientes([
    { descripcion: `${prefijo} uno`, centimos: centimosAlAzar(), departamento },
    { descripcion: `${prefijo} dos`, centimos: centimosAlAzar(), departamento },
  ]);
  await page.goto(`/gastos?vista=pendientes&q=${encodeURIComponent(prefijo)}`);
  await expect(page.getByText("2 gastos con estos filtros")).toBeVisible();
  const bloque = page.getByRole("region", { name: "Aprobar o rechazar varios" });
  await expect(bloque).toBeVisible();
  await expectNoAxeViolations(page);
  for (const folio of folios) await page.getByRole("checkbox", { name: `Seleccionar ${folio}` }).check();
  await bloque.getByRole("button", { name: "Aprobar seleccionados" }).click();
  await expect(flash(page)).toContainText("Se han aprobado 2 gastos.");
  // Back on the same filtered view: nothing pending is left there.
  await expect(page).toHaveURL(/vista=pendientes/);
  await expect(page.getByText("0 gastos con estos filtros")).toBeVisible();

  await page.goto(`/gastos?q=${encodeURIComponent(prefijo)}`);
  for (const folio of folios) await expect(fila(page, folio)).toContainText("Aprobado");
});

administrador(
  "marcar como pagado (fecha y referencia) y el historial dice quién hizo cada cambio",
  async ({ page, browser }) => {
    const [folio] = await gastosPendientes([{ descripcion: unique("Para pagar"), centimos: centimosAlAzar() }]);
    const pablo = await pageAs(browser, "aprobador");
    await abrirGasto(pablo, folio!, "pendientes");
    await transicion(pablo, folio!, "Aprobar", `Gasto ${folio} aprobado.`);
    await pablo.context().close();

    const panel = await abrirGasto(page, folio!);
    await expect(titulo(page, folio!)).toHaveText(`Gasto ${folio} Aprobado`);
    const acciones = panel.getByRole("region", { name: "Acciones" });
    // The date of payment comes filled in with today.
    await expect(acciones.getByLabel("Fecha de pago")).toHaveValue(diaMadrid());
    const referencia = `TRF-${Date.now().toString(36).toUpperCase()}`;
    await acciones.getByLabel("Referencia de pago").fill(referencia);
    await transicion(page, folio!, "Marcar como pagado", `Gasto ${folio} marcado como pagado.`);
    await expect(titulo(page, folio!)).toHaveText(`Gasto ${folio} Pagado`);
    await expect(panel.getByRole("definition").filter({ hasText: referencia })).toBeVisible();
    await expect(
      panel
        .getByRole("definition")
        .filter({ hasText: fechaES(diaMadrid()) })
        .first(),
    ).toBeVisible();

    // «Historial de cambios»: every state change with who made it.
    await expect(cambiosDeEstado(page, folio!, "Borrador", "Pendiente de aprobación")).toContainText("Elena Empleada");
    await expect(cambiosDeEstado(page, folio!, "Pendiente de aprobación", "Aprobado")).toContainText("Pablo Aprobador");
    const pago = cambiosDeEstado(page, folio!, "Aprobado", "Pagado");
    await expect(pago).toContainText("Ana Administradora");
    await expect(pago.getByRole("row", { name: /^Referencia de pago/ })).toContainText(referencia);
  },
);

administrador(
  "quien aprueba un gasto no lo marca como pagado: no se le ofrece y la ficha dice por qué",
  async ({ page }) => {
    const [folio] = await gastosPendientes([{ descripcion: unique("Separación"), centimos: centimosAlAzar() }]);
    await abrirGasto(page, folio!, "pendientes");
    await transicion(page, folio!, "Aprobar", `Gasto ${folio} aprobado.`);
    const panel = await abrirGasto(page, folio!);
    await expect(titulo(page, folio!)).toHaveText(`Gasto ${folio} Aprobado`);
    const acciones = panel.getByRole("region", { name: "Acciones" });
    await expect(acciones.getByRole("button", { name: "Revertir aprobación" })).toBeVisible();
    await expect(acciones.getByRole("button", { name: "Marcar como pagado" })).toHaveCount(0);
    await expect(
      panel.getByText("Usted aprobó este gasto: debe marcarlo como pagado otro administrador."),
    ).toBeVisible();
    await expectNoAxeViolations(page);
  },
);

empleado(
  "la cuenta y la suma «·» de la lista cambian con el filtro; el CSV del filtro abre en Excel",
  async ({ page }) => {
    const prefijo = unique("Suma");
    const a = 1234;
    const b = centimosAlAzar() + 150_000; // always more than a, and over 1.000 € (grouped)
    const folioA = await crearGasto(page, { descripcion: `${prefijo} A`, centimos: a, categoria: "Mensajería" });
    const folioB = await crearGasto(page, { descripcion: `${prefijo} B`, centimos: b, categoria: "Formación" });

    await page.goto("/gastos?vista=mios");
    await expect(resumen(page)).toBeVisible();
    const todos = await resumen(page).innerText();

    await buscador(page).getByLabel("Buscar").fill(prefijo);
    await buscador(page).getByRole("button", { name: "Filtrar" }).click();
    await expect(resumen(page)).toHaveText(`2 gastos con estos filtros · ${euros(a + b)}`);
    expect(await resumen(page).innerText()).not.toBe(todos);

    await buscador(page)
      .getByLabel("Importe mínimo")
      .fill(importeTecleado(a + 1));
    await buscador(page).getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(/importe_min=/);
    await expect(resumen(page)).toHaveText(`1 gasto con estos filtros · ${euros(b)}`);
    await expect(fila(page, folioB)).toBeVisible();
    await expect(fila(page, folioA)).toHaveCount(0);

    // CSV of the filter: BOM, `;`, Spanish headers, decimal comma.
    await buscador(page).getByLabel("Importe mínimo").fill("");
    await buscador(page).getByRole("button", { name: "Filtrar" }).click();
    await expect(resumen(page)).toHaveText(`2 gastos con estos filtros · ${euros(a + b)}`);
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Exportar CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^gastos-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await readFile(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // Text cells are quoted (so no reader splits them into formulas); these contain no quotes or `;`.
    const lines = bytes
      .subarray(3)
      .toString("utf8")
      .trim()
      .split(/\r?\n/)
      .map((l) => l.split(";").map((c) => c.replace(/^"(.*)"$/, "$1")));
    // An empleado's CSV has the list's columns for their role: no «Solicitante» (every row is theirs).
    expect(lines[0]?.join(";")).toBe(
      "Folio;Fecha;Descripción;Proveedor;Categoría;Importe;Estado;Departamento;Justificantes;" +
        "Tipo de documento;NIF del emisor;Emisor;IVA;Inversión del sujeto pasivo;IVA deducible;" +
        "Por qué no se deduce todo el IVA;" +
        "Clase de gasto;Viaje;Exento de IRPF;Sujeto a IRPF",
    );
    expect(lines).toHaveLength(3);
    const porFolio = Object.fromEntries(lines.slice(1).map((cells) => [cells[0], cells]));
    expect(porFolio[folioA]).toEqual([
      folioA,
      fechaES(diaMadrid()),
      `${prefijo} A`,
      "",
      "Mensajería",
      "12,34",
      "Borrador",
      "Ventas Norte",
      "1", // crearGasto attaches one receipt
      // A ticket at Mensajería's usual 21 %: 12,34 = 10,20 + 2,14.
      "Ticket",
      "",
      "",
      "2,14",
      "No",
      "0,00",
      "Ticket sin NIF de la empresa",
      // An ordinario: no viaje, nothing exempt from IRPF.
      "Ordinario",
      "",
      "",
      "",
    ]);
    expect(porFolio[folioB]?.[5]).toBe(importeTecleado(b));
    expect(porFolio[folioB]?.[4]).toBe("Formación");
  },
);

aprobador("aprobar con la página desfasada: mensaje claro de conflicto y se aprueba una sola vez", async ({ page }) => {
  const [folio] = await gastosPendientes([{ descripcion: unique("Doble aprobación"), centimos: centimosAlAzar() }]);
  await abrirGasto(page, folio!, "pendientes");
  const otra = await paginaQueDibuja(page.context());
  await abrirGasto(otra, folio!, "pendientes");

  await transicion(page, folio!, "Aprobar", `Gasto ${folio} aprobado.`);

  // The second page still offers «Aprobar» (it was loaded before): pressing it is refused.
  await panelGasto(otra, folio)
    .getByRole("region", { name: "Acciones" })
    .getByRole("button", { name: "Aprobar", exact: true })
    .click();
  await expect(otra.getByRole("alert").filter({ hasText: `Gasto ${folio}:` })).toHaveText(
    `Gasto ${folio}: El gasto ya no está pendiente de aprobación: otra persona lo ha cambiado.`,
  );
  await expect(titulo(otra, folio)).toHaveText(`Gasto ${folio} Aprobado`);
  await expect(cambiosDeEstado(otra, folio!, "Pendiente de aprobación", "Aprobado")).toHaveCount(1);
  await otra.close();
});
