import type { Locator, Page } from "@playwright/test";
import { as, expect, enlaceEnGrupo, expectNoAxeViolations, tecladoContado, unique } from "./support";
import {
  centimosAlAzar,
  diaDeDieta,
  diaMadrid,
  euros,
  flash,
  importeTecleado,
  justificantePng,
  pageAs,
} from "./support-registros";

/**
 * A trip as staff make it (docs/producto.md «Viajes, kilometraje y dietas»): two days with a
 * night away, 230 km by car, the first day's dieta, a hotel and a taxi; sent to approval as one,
 * and approved as one by the aprobador; both steps by keyboard alone. With and without JavaScript. The
 * demo company pays 0,30 €/km and 60,00 € a day with an overnight stay in Spain (scripts/seed/viajes.ts).
 */
const test = as("empleado");

/** The record page's table of the trip's gastos. */
const tablaGastos = (page: Page) => page.getByRole("region", { name: "Gastos del viaje" });

/** A gasto of the trip through «Nuevo gasto», reached from the trip's own link. */
async function gastoDelViaje(page: Page, enlace: string, rellenar: (form: Locator) => Promise<void>) {
  await page.getByRole("link", { name: enlace }).click();
  const form = page.getByRole("region", { name: "Nuevo gasto" });
  await rellenar(form);
  await form.getByRole("button", { name: "Crear gasto" }).click();
  await expect(flash(page)).toContainText(/Gasto creado: GAS-\d{4}-\d{5}/);
}

test("un viaje de dos días con pernocta, 230 km en coche, hotel y taxi: se envía entero y se aprueba entero", async ({
  page,
  browser,
}) => {
  const motivo = unique("Feria de Valencia");
  // Yesterday and today (ten days earlier without JavaScript: the first day's dieta is the empleado's only one).
  const ayer = diaDeDieta(-1);
  const hoy = diaDeDieta(0);
  await page.goto("/viajes");
  const nuevo = page.getByRole("region", { name: "Nuevo viaje" });
  await nuevo.getByLabel("Municipio de destino").fill("Valencia");
  await nuevo.getByLabel("Motivo").fill(motivo);
  await nuevo.getByLabel("Salida").fill(`${ayer}T07:30`);
  await nuevo.getByLabel("Regreso").fill(`${hoy}T20:15`);
  await expect(nuevo.getByLabel(/El destino es otro municipio/)).toBeChecked();
  await nuevo.getByRole("button", { name: "Crear viaje" }).click();
  await expect(flash(page)).toContainText("Viaje creado: Valencia");
  // At the new trip's content, where the message is, not at the top nor at a fragment that is gone.
  await expect(page).toHaveURL(/\/viajes\/[0-9a-f-]{36}\?volver=%2Fviajes#contenido$/);
  await expect(page.locator("#contenido")).toBeFocused();
  const viaje = page.url().replace(/[?#].*$/, "");

  await gastoDelViaje(page, "Añadir kilometraje", async (form) => {
    // What the link opened the form for comes first: its class, then its trip and the km fields.
    const campos = form.locator("input:not([type=hidden]), select, textarea");
    await expect(campos.nth(0)).toHaveAccessibleName(/^Clase de gasto/);
    await expect(campos.nth(2)).toHaveAccessibleName(/^Origen/);
    await form.getByLabel("Descripción").fill("Coche propio Madrid – Valencia");
    await form.getByLabel("Fecha (obligatorio)").fill(ayer);
    // The link chose the category: nothing to pick. Nor a method of payment: it is reimbursed.
    await expect(form.getByLabel("Categoría")).toHaveValue("viajes_transporte");
    await expect(form.getByLabel("Método de pago")).toBeHidden();
    // The link's class opens its fold: the km fields are in sight, not folded at the bottom.
    await expect(form.getByLabel("Origen (obligatorio)", { exact: true })).toBeVisible();
    // A dieta's fields are not a kilometraje's: out of sight (CSS, with or without JavaScript).
    await expect(form.getByLabel(/Con pernocta/)).toBeHidden();
    await expect(form.getByLabel(/^Dónde/)).toBeHidden();
    // Nor an importe to write: Oficina computes it.
    await expect(form.getByLabel(/^Importe/)).toBeHidden();
    // Nor a receipt's: no supplier, invoice, fiscal data or file to attach.
    await expect(form.getByLabel("Proveedor")).toBeHidden();
    await expect(form.getByText("Datos fiscales")).toBeHidden();
    await expect(form.getByLabel("Justificantes")).toBeHidden();
    await form.getByLabel("Origen (obligatorio)", { exact: true }).fill("Madrid");
    await form.getByLabel("Destino (obligatorio)", { exact: true }).fill("Valencia");
    await form.getByLabel("Kilómetros (obligatorio)", { exact: true }).fill("230");
  });
  // The new draft's panel says what Oficina computed, which its form does not show.
  const calculado = page.locator("#gasto dl.ficha");
  await expect(calculado).toContainText(/Importe\s*69,00\s?€/);
  await expect(calculado).toContainText(/230 km a 0,30\s?€\/km/);
  // A refused change lands on its error summary, focused and in sight, with or without JavaScript.
  const borrador = page.getByRole("region", { name: "Datos" });
  await borrador.locator("summary", { hasText: "Viaje, kilometraje y dieta" }).click();
  await borrador.getByLabel(/^Kilómetros/).fill("-5");
  await borrador.getByRole("button", { name: "Guardar cambios" }).click();
  const rechazo = borrador.getByRole("alert");
  await expect(rechazo).toBeFocused();
  await expect(rechazo).toBeInViewport();
  await expect(borrador.getByLabel(/^Kilómetros/)).toHaveValue("-5");
  await page.goto(viaje);
  await gastoDelViaje(page, "Añadir una dieta", async (form) => {
    await form.getByLabel("Descripción").fill("Dieta del primer día");
    await form.getByLabel("Fecha (obligatorio)").fill(ayer);
    await expect(form.getByLabel("Categoría")).toHaveValue("comidas");
    await expect(form.getByLabel(/Con pernocta/)).toBeVisible();
    await expect(form.getByLabel(/^Kilómetros/)).toBeHidden();
    await form.getByLabel(/Con pernocta/).check();
  });
  const hotel = centimosAlAzar();
  const taxi = centimosAlAzar();
  for (const [descripcion, categoria, centimos] of [
    ["Hotel en Valencia, una noche", "Alojamiento", hotel],
    ["Taxi a la feria", "Viajes y transporte", taxi],
  ] as const) {
    await page.goto(viaje);
    await gastoDelViaje(page, "Añadir un gasto al viaje", async (form) => {
      await form.getByLabel("Descripción").fill(descripcion);
      await form.getByLabel("Fecha (obligatorio)").fill(hoy);
      await form.getByLabel("Categoría").selectOption({ label: categoria });
      await form.getByLabel("Importe (obligatorio)").fill(importeTecleado(centimos));
      await form.getByLabel("Método de pago").selectOption({ label: "Tarjeta de crédito" });
      await form.getByLabel("Justificantes").setInputFiles(await justificantePng());
    });
  }

  // The trip with its four gastos, what is exempt and why, and one button that sends them all.
  await page.goto(viaje);
  const tabla = tablaGastos(page);
  await expect(tabla.getByRole("row")).toHaveCount(6); // header, 4 gastos, totals
  await expect(tabla).toContainText(
    /230 km a 0,30\s?€\/km \(exentos hasta 0,26\s?€\/km\): 59,80\s?€ exentos, 9,20\s?€ sujetos a IRPF/,
  );
  await expect(tabla).toContainText(/Con pernocta en España: 53,34\s?€ exentos, 6,66\s?€ sujetos a IRPF/);
  await expect(tabla.getByRole("row", { name: /^Total/ })).toContainText(euros(69_00 + 60_00 + hotel + taxi));
  await expect(tabla.getByRole("row", { name: /^Total/ })).toContainText(/113,14\s?€/);
  await expectNoAxeViolations(page);
  // Sent by keyboard alone, from the top of the page.
  const teclado = tecladoContado(page);
  await teclado.hasta(page.getByRole("button", { name: "Enviar el viaje a aprobación" }));
  await teclado.press("Enter");
  await expect(flash(page)).toHaveText("Viaje enviado a aprobación: 4 gastos.");
  await expect(tablaGastos(page).getByText("Pendiente de aprobación")).toHaveCount(4);
  await expect(page.getByRole("button", { name: "Enviar el viaje a aprobación" })).toHaveCount(0);
  // Sent, the trip says why its dates and destination stay, shows them as text, and offers no «Eliminar».
  const datos = page.getByRole("region", { name: "Datos" });
  await expect(datos).toHaveAccessibleDescription(/^El viaje tiene gastos enviados, aprobados o pagados/);
  await expect(datos.getByRole("textbox", { name: /^Municipio de destino/ })).toHaveCount(0);
  await expect(datos.getByRole("textbox", { name: /^Motivo/ })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Eliminar viaje/ })).toHaveCount(0);

  // The aprobador opens the trip and approves it, by keyboard alone.
  const aprobador = await pageAs(browser, "aprobador");
  await aprobador.goto(viaje);
  await expect(tablaGastos(aprobador).getByText("Pendiente de aprobación")).toHaveCount(4);
  const k = tecladoContado(aprobador);
  await k.hasta(aprobador.getByRole("button", { name: "Aprobar el viaje" }));
  await k.press("Enter");
  // (With a warning after it if the department goes over its monthly budget: the demo data's state.)
  await expect(flash(aprobador)).toContainText("Viaje aprobado: 4 gastos aprobados.");
  await expect(tablaGastos(aprobador).getByText("Aprobado", { exact: true })).toHaveCount(4);
  await expect(aprobador.getByRole("button", { name: "Rechazar el viaje" })).toHaveCount(0);
  await aprobador.context().close();
});

const admin = as("administrador");

admin("el informe de IRPF del año: por persona, exento y sujeto; se descarga en XLSX y CSV", async ({ page }) => {
  await page.goto("/");
  await (await enlaceEnGrupo(page, "Libros", "Informe IRPF")).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Informe de IRPF: dietas y kilometraje");
  // It opens on this year, as a report, not as a form sent empty.
  const esteAnio = diaMadrid(0).slice(0, 4);
  await expect(page.getByLabel("Año", { exact: true })).toHaveValue(esteAnio);
  await expect(page.getByRole("region", { name: `Año ${esteAnio}` })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
  // The demo's approved trips (scripts/seed/viajes.ts) are 40 and 75 days old.
  const anio = Number(diaMadrid(-40).slice(0, 4));
  await page.getByLabel("Año", { exact: true }).fill(String(anio));
  await page.getByRole("button", { name: "Ver el informe" }).click();
  const resultado = page.getByRole("region", { name: `Año ${anio}` });
  await expect(resultado.getByRole("table")).toBeVisible();
  await expect(resultado.getByRole("columnheader", { name: "Total exento" })).toBeVisible();
  await expect(resultado.getByRole("row", { name: /^Total/ })).toContainText("€");
  await expectNoAxeViolations(page);
  const xlsx = page.waitForEvent("download");
  await resultado.getByRole("link", { name: "Descargar XLSX" }).click();
  expect((await xlsx).suggestedFilename()).toBe(`informe-irpf-dietas-kilometraje-${anio}.xlsx`);
  const csv = page.waitForEvent("download");
  await resultado.getByRole("link", { name: "Descargar CSV" }).click();
  expect((await csv).suggestedFilename()).toBe(`informe-irpf-dietas-kilometraje-${anio}.csv`);
});

admin("un año que no se puede leer se dice en el resumen de errores, enfocado, y junto al campo", async ({ page }) => {
  await page.goto("/viajes/informe-irpf");
  await page.getByLabel("Año", { exact: true }).fill("26");
  await page.getByRole("button", { name: "Ver el informe" }).click();
  const resumen = page.getByRole("alert");
  await expect(resumen.getByRole("heading", { name: "Hay 1 error en el periodo" })).toBeVisible();
  await expect(resumen).toBeFocused();
  const mensaje = "Escriba el año con cuatro cifras, por ejemplo 2026";
  const enlace = resumen.getByRole("link", { name: mensaje });
  await expect(enlace).toHaveAttribute("href", "#irpf-anio");
  const anio = page.getByLabel("Año", { exact: true });
  await expect(anio).toHaveValue("26");
  await expect(anio).toHaveAttribute("aria-invalid", "true");
  await expect(anio).toHaveAccessibleDescription(`Error: ${mensaje}`);
  await expect(page.getByRole("link", { name: "Descargar XLSX" })).toHaveCount(0);
  await expectNoAxeViolations(page);
});
