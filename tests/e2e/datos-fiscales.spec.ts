import type { Locator } from "@playwright/test";
import { as, expect, expectNoAxeViolations, jsEnabled, tecladoContado, unique } from "./support";
import { cuotaDe, lineaDeImporte } from "../../app/lib/iva";
import {
  abrirGasto,
  centimosAlAzar,
  cifAlAzar,
  flash,
  importeTecleado,
  justificantePng,
  NUEVO_GASTO,
  pageAs,
  panelGasto,
} from "./support-registros";

/**
 * A gasto's fiscal data as staff meet it (docs/producto.md, «Datos fiscales»): a ticket with two
 * IVA rates, a factura from an issuer who is not in the suppliers' list (by keyboard alone, and
 * the administrador who adds that issuer as a supplier in one step), and a gift whose IVA the
 * aprobador sees is not deductible before approving. With and without JavaScript.
 */
const test = as("empleado");

/** What the record panel shows under `etiqueta` (its <dt>), as text. */
const valor = (panel: Locator, etiqueta: string) =>
  panel.locator("dl.ficha dt", { hasText: new RegExp(`^${etiqueta}$`) }).locator("+ dd");

test("un ticket con dos tipos: lo que no suma se dice sin perder nada; la cuota y la última línea se calculan", async ({
  page,
}) => {
  const descripcion = unique("Ticket dos tipos");
  await page.goto(NUEVO_GASTO);
  const form = page.getByRole("region", { name: "Nuevo gasto" });
  await form.getByLabel("Descripción").fill(descripcion);
  await form.getByLabel("Categoría").selectOption({ label: "Comidas" });
  await form.getByLabel("Importe (obligatorio)").fill("24,20");
  await form.getByLabel("Método de pago").selectOption({ label: "Efectivo" });
  await form.locator("summary", { hasText: "Datos fiscales" }).click();
  await form.getByLabel("Tipo, línea 1").selectOption({ label: "21 %" });
  await form.getByLabel("Base, línea 1").fill("10,00");
  await form.locator("summary", { hasText: "Más tipos de IVA" }).click();
  await form.getByLabel("Tipo, línea 2").selectOption({ label: "10 %" });
  await form.getByLabel("Base, línea 2").fill("5,00");
  await form.getByRole("button", { name: "Crear gasto" }).click();

  // 10,00 + 2,10 + 5,00 + 0,50 is not 24,20: said in the summary, everything typed still there.
  const resumen = page.getByRole("alert").filter({ hasText: "Hay 1 error" });
  await expect(resumen).toContainText(/suman 17,60\s€ y el importe es 24,20\s€/);
  await expect(form.getByLabel("Base, línea 2")).toHaveValue("5,00");
  await expect(form.getByLabel("Descripción")).toHaveValue(descripcion);

  // Leaving the second line with only its tipo: it takes the rest (24,20 − 12,10 at 10 %). With
  // JavaScript the form says so as it is typed.
  await form.getByLabel("Base, línea 2").fill("");
  if (jsEnabled(test.info().project.name))
    await expect(form.getByText(/^Se guardará: 21 %/)).toHaveText(
      /^Se guardará: 21 %: base 10,00\s€, cuota 2,10\s€; 10 %: base 11,00\s€, cuota 1,10\s€\. IVA: 3,20\s€\.$/,
    );
  await form.getByRole("button", { name: "Crear gasto" }).click();
  await expect(flash(page)).toContainText(/Gasto creado: GAS-\d{4}-\d{5}/);
  const panel = panelGasto(page);
  // A borrador: what was computed, in its edit form (the summary keeps only what the form does not say).
  const datos = panel.getByRole("region", { name: "Datos" });
  await expect(datos.getByLabel("Tipo, línea 1").locator("option:checked")).toHaveText("21 %");
  await expect(datos.getByLabel("Base, línea 1")).toHaveValue("10,00");
  await expect(datos.getByLabel("Cuota, línea 1")).toHaveValue("2,10");
  await expect(datos.getByLabel("Tipo, línea 2").locator("option:checked")).toHaveText("10 %");
  await expect(datos.getByLabel("Base, línea 2")).toHaveValue("11,00");
  await expect(datos.getByLabel("Cuota, línea 2")).toHaveValue("1,10");
  await expect(datos.locator("p.campo", { hasText: /^Impuestos \(IVA\)/ })).toHaveText(/3,20\s€$/);
  await expect(valor(panel, "IVA no deducible")).toHaveText("Ticket sin NIF de la empresa");
  await expectNoAxeViolations(page);
});

test("con el teclado: una factura completa de un emisor escrito a mano, deducible; el administrador lo da de alta como proveedor", async ({
  page,
  browser,
}) => {
  const descripcion = unique("Taxi al cliente");
  const nif = cifAlAzar();
  // Its own importe (the same one twice on a day would be a duplicate), and the line it makes at 10 %.
  const importe = importeTecleado(centimosAlAzar());
  const linea = lineaDeImporte(importe.replace(",", "."), "10");
  const es = (v: string) => v.replace(".", ",");
  const emisor = unique("Taxis");
  await page.goto(NUEVO_GASTO);
  const k = tecladoContado(page);
  const form = page.getByRole("region", { name: "Nuevo gasto" });
  await expect(form.getByRole("heading", { name: "Nuevo gasto" })).toBeFocused();
  await k.hasta(form.getByLabel("Descripción"));
  await k.type(descripcion);
  const categoria = form.getByLabel("Categoría");
  await k.hasta(categoria);
  await k.press("ArrowDown"); // Alojamiento
  await k.press("ArrowDown"); // Comidas
  await k.press("ArrowDown"); // Viajes y transporte
  await expect(categoria).toHaveValue("viajes_transporte");
  await k.hasta(form.getByLabel("Importe (obligatorio)"));
  await k.type(importe);
  await k.hasta(form.getByLabel("Método de pago"));
  await k.press("ArrowDown");
  await k.hasta(form.getByLabel("Nº de factura / ticket"));
  await k.type("T-2026-118");

  // «Datos fiscales» opens with Enter on its summary, with or without JavaScript.
  const plegado = form.locator("summary", { hasText: "Datos fiscales" });
  await k.hasta(plegado);
  await k.press("Enter");
  const tipo = form.getByLabel("Tipo de documento");
  await k.hasta(tipo);
  await k.press("ArrowDown"); // Factura simplificada
  await k.press("ArrowDown"); // Factura completa
  await expect(tipo).toHaveValue("factura_completa");
  await k.hasta(form.getByLabel("NIF del emisor"));
  await k.type(nif);
  await k.hasta(form.getByLabel("Nombre del emisor"));
  await k.type(emisor);
  await k.hasta(form.getByLabel("A nombre de la empresa (con su NIF)"));
  await k.press("Space");
  await k.hasta(form.getByRole("button", { name: "Crear gasto" }));
  await k.press("Enter");
  await expect(flash(page)).toContainText(
    new RegExp(`IVA calculado: 10 %: base ${es(linea.base)}\\s€, cuota ${es(linea.cuota)}\\s€`),
  );
  const folio = /GAS-\d{4}-\d{5}/.exec(await flash(page).innerText())![0];
  const panel = panelGasto(page, folio);
  await expect(valor(panel, "IVA deducible")).toHaveText(new RegExp(`^${es(linea.cuota)}\\s€$`));
  await expect(panel.getByRole("region", { name: "Datos" }).getByLabel("NIF del emisor")).toHaveValue(nif);
  test.info().annotations.push({ type: "teclas para una factura de un emisor escrito", description: String(k.total) });

  // The administrador: from the gasto, «Nuevo proveedor» comes filled in with the issuer.
  const admin = await pageAs(browser, "administrador");
  const suyo = await abrirGasto(admin, folio);
  await suyo.getByRole("link", { name: `Dar de alta «${emisor}» como proveedor` }).click();
  const nuevo = admin.getByRole("region", { name: "Nuevo proveedor" });
  await expect(nuevo.getByLabel("Razón social")).toHaveValue(emisor);
  await expect(nuevo.getByLabel(/^NIF \/ RFC/)).toHaveValue(nif);
  await nuevo.getByLabel("Categoría").selectOption({ label: "Viajes" });
  await nuevo.getByRole("button", { name: "Crear proveedor" }).click();
  await expect(flash(admin)).toContainText(emisor);
  await admin.context().close();
});

test("un regalo a un cliente: el aprobador ve antes de aprobar que su IVA no es deducible, y por qué", async ({
  page,
  browser,
}) => {
  const descripcion = unique("Cesta de Navidad para cliente");
  await page.goto(NUEVO_GASTO);
  const form = page.getByRole("region", { name: "Nuevo gasto" });
  await form.getByLabel("Descripción").fill(descripcion);
  await form.getByLabel("Categoría").selectOption({ label: "Atenciones a clientes" });
  await form.getByLabel("Importe (obligatorio)").fill("121,00");
  await form.getByLabel("Método de pago").selectOption({ label: "Tarjeta corporativa" });
  await form.getByLabel("Nº de factura / ticket").fill("C-77");
  await form.locator("summary", { hasText: "Datos fiscales" }).click();
  await form.getByLabel("Tipo de documento").selectOption({ label: "Factura completa" });
  await form.getByLabel("NIF del emisor").fill(cifAlAzar());
  await form.getByLabel("Nombre del emisor").fill("Delicatessen del Norte S.L.");
  await form.getByLabel("A nombre de la empresa (con su NIF)").check();
  await form.getByLabel("Tipo, línea 1").selectOption({ label: "21 %" });
  await form.getByLabel("Justificantes").setInputFiles(await justificantePng());
  await form.getByRole("button", { name: "Crear gasto" }).click();
  await expect(flash(page)).toContainText(/Gasto creado: GAS-\d{4}-\d{5}/);
  const folio = /GAS-\d{4}-\d{5}/.exec(await flash(page).innerText())![0];
  await panelGasto(page, folio).getByRole("button", { name: "Enviar a aprobación" }).click();
  await expect(flash(page)).toContainText(`Gasto ${folio} enviado a aprobación.`);

  const aprobador = await pageAs(browser, "aprobador");
  const panel = await abrirGasto(aprobador, folio, "pendientes");
  await expect(panel.getByRole("button", { name: "Aprobar", exact: true })).toBeVisible();
  await expect(valor(panel, "Desglose de IVA")).toHaveText(/^21 %: base 100,00\s€, cuota 21,00\s€$/);
  await expect(valor(panel, "IVA no deducible")).toHaveText(
    "Atenciones a clientes, empleados o terceros (Ley 37/1992, art. 96)",
  );
  await expectNoAxeViolations(aprobador);
  await aprobador.context().close();
});

test("una suscripción facturada sin IVA desde Irlanda: la empresa declara la cuota y la deduce (inversión del sujeto pasivo)", async ({
  page,
  browser,
}) => {
  const descripcion = unique("Suscripción de diseño");
  const centimos = centimosAlAzar();
  const base = importeTecleado(centimos);
  const cuota = cuotaDe((centimos / 100).toFixed(2), "21").replace(".", ",");
  await page.goto(NUEVO_GASTO);
  const form = page.getByRole("region", { name: "Nuevo gasto" });
  await form.getByLabel("Descripción").fill(descripcion);
  await form.getByLabel("Categoría").selectOption({ label: "Software y suscripciones" });
  await form.getByLabel("Importe (obligatorio)").fill(base);
  await form.getByLabel("Método de pago").selectOption({ label: "Transferencia bancaria" });
  await form.getByLabel("Proveedor").selectOption({ label: "Nimbus (Nimbus Collaboration Software Ltd)" });
  await form.getByLabel("Nº de factura / ticket").fill("INV-2026-4471");
  await form.locator("summary", { hasText: "Datos fiscales" }).click();
  await form.getByLabel("Inversión del sujeto pasivo").check();
  await form.getByLabel("Tipo, línea 1").selectOption({ label: "21 %" });
  await form.getByRole("button", { name: "Crear gasto" }).click();

  // Left as a ticket: refused, said with its field, nothing lost.
  const resumen = page.getByRole("alert").filter({ hasText: "Hay 1 error" });
  await expect(resumen).toContainText("Inversión del sujeto pasivo: solo en una factura completa");
  await expect(form.getByLabel("Inversión del sujeto pasivo")).toBeChecked();
  await expect(form.getByLabel("Descripción")).toHaveValue(descripcion);

  await form.getByLabel("Tipo de documento").selectOption({ label: "Factura completa" });
  await form.getByLabel("A nombre de la empresa (con su NIF)").check();
  await form.getByLabel("Justificantes").setInputFiles(await justificantePng());
  // The importe is the base: the cuota goes apart, which the form says as it is typed.
  if (jsEnabled(test.info().project.name))
    await expect(form.getByText(/^Se guardará: 21 %/)).toHaveText(
      new RegExp(
        `^Se guardará: 21 %: base ${base}\\s€, cuota ${cuota}\\s€\\. IVA: ${cuota}\\s€, que declara la empresa\\.$`,
      ),
    );
  await form.getByRole("button", { name: "Crear gasto" }).click();
  await expect(flash(page)).toContainText(/Gasto creado: GAS-\d{4}-\d{5}/);
  const panel = panelGasto(page);
  await expect(valor(panel, "IVA deducible")).toHaveText(new RegExp(`^${cuota}\\s€$`));
  const datos = panel.getByRole("region", { name: "Datos" });
  await expect(datos.getByLabel("Inversión del sujeto pasivo")).toBeChecked();
  await expect(datos.getByLabel("Base, línea 1")).toHaveValue(base);
  await expect(datos.getByLabel("Cuota, línea 1")).toHaveValue(cuota);
  await expectNoAxeViolations(page);

  // The aprobador reads, before approving, that the IVA was not paid with the invoice.
  const folio = /GAS-\d{4}-\d{5}/.exec(await flash(page).innerText())![0];
  await panel.getByRole("button", { name: "Enviar a aprobación" }).click();
  await expect(flash(page)).toContainText(`Gasto ${folio} enviado a aprobación.`);
  const aprobador = await pageAs(browser, "aprobador");
  const suyo = await abrirGasto(aprobador, folio, "pendientes");
  await expect(valor(suyo, "Inversión del sujeto pasivo")).toHaveText("Sí");
  await expect(valor(suyo, "Impuestos \\(IVA\\)")).toHaveText(new RegExp(`^${cuota}\\s€, que declara la empresa$`));
  await expect(valor(suyo, "IVA deducible")).toHaveText(new RegExp(`^${cuota}\\s€$`));
  await aprobador.context().close();
});
