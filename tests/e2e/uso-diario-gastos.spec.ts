import type { Page } from "@playwright/test";
import { departamentoEnLaBase, enLaBaseDeDatos } from "./support-base-de-datos";
import { as, expect, expectNoAxeViolations, jsEnabled, pressUntilFocused, unique, uniqueCode } from "./support";
import {
  abrirGasto,
  borradores,
  centimosAlAzar,
  completarYCrear,
  crearGasto,
  diaMadrid,
  euros,
  flash,
  gastosPendientes,
  importeTecleado,
  justificantePng,
  literal,
  NOMBRES,
  NUEVO_GASTO,
  pageAs,
  panelGasto,
  transicion,
} from "./support-registros";

/**
 * Issue 18, the gastos side, as the demo people see it, with JavaScript and without: every error
 * of a form at once, department and branch that follow the solicitante, drafts private to their
 * solicitante, inactive suppliers not offered where they cannot be chosen, and one name per
 * supplier everywhere.
 */
const empleado = as("empleado");
const aprobador = as("aprobador");
const administrador = as("administrador");

/** A seeded supplier with both names, and an inactive one (scripts/seed/catalog/proveedores-*.ts). */
const HOTEL = "Hotel Mediterráneo Valencia (Hoteles Mediterráneo Levante S.L.)";
const INACTIVO = "Distribuciones Ofimáticas del Norte S.L.";

const nuevoGasto = (page: Page) => page.getByRole("region", { name: "Nuevo gasto" });
const resumenErrores = (page: Page, region: ReturnType<Page["getByRole"]>) =>
  region.getByRole("alert").filter({ has: page.getByRole("heading", { name: /^Hay (1 error|\d+ errores)$/ }) });

administrador(
  "«Marcar como pagado» a más de un año y sin referencia: los dos errores a la vez",
  async ({ page, browser }) => {
    const [folio] = await gastosPendientes([
      { descripcion: unique("Pago en dos errores"), centimos: centimosAlAzar() },
    ]);
    // Approved by Pablo (Elena's aprobador): the administradora may mark it paid.
    const pablo = await pageAs(browser, "aprobador");
    await abrirGasto(pablo, folio!, "pendientes");
    await transicion(pablo, folio!, "Aprobar", `Gasto ${folio} aprobado.`);
    await pablo.context().close();

    const panel = await abrirGasto(page, folio!);
    const pagar = panel.getByRole("region", { name: "Acciones" });
    // A future value date is accepted, up to a year ahead.
    await pagar.getByLabel("Fecha de pago").fill(diaMadrid(367));
    await pagar.getByLabel("Referencia de pago").fill("");
    await pagar.getByRole("button", { name: "Marcar como pagado" }).click();
    const resumen = resumenErrores(page, panelGasto(page, folio));
    await expect(resumen.getByRole("heading")).toHaveText("Hay 2 errores");
    await expect(
      resumen.getByRole("link", {
        name: /Fecha de pago: puede ser futura \(la fecha valor\), pero como mucho dentro de un año/,
      }),
    ).toBeVisible();
    await expect(resumen.getByRole("link", { name: /Escriba la referencia de pago/ })).toBeVisible();
    await expect(panelGasto(page, folio).getByRole("heading", { level: 2, name: /^Gasto / })).toHaveText(
      `Gasto ${folio} Aprobado`,
    );
  },
);

administrador(
  "«Nuevo gasto» para otra persona: departamento y sucursal vacíos, se toman de la solicitante; un proveedor inactivo no se ofrece",
  async ({ page }, testInfo) => {
    await page.goto(NUEVO_GASTO);
    const form = nuevoGasto(page);
    await expect(form.getByLabel("Departamento")).toHaveValue("");
    await expect(form.getByLabel("Sucursal")).toHaveValue("");
    // Not offered where choosing it is refused; still in the list's filter, to find its old gastos.
    await expect(form.getByLabel("Proveedor").getByRole("option", { name: INACTIVO })).toHaveCount(0);
    await expect(
      page
        .getByRole("search", { name: "Buscar gastos" })
        .getByLabel("Proveedor")
        .getByRole("option", { name: INACTIVO }),
    ).toHaveCount(1);

    await form.getByLabel("Solicitante").selectOption({ label: NOMBRES.empleado });
    if (jsEnabled(testInfo.project.name)) {
      // With JavaScript the form says what it will use for the chosen solicitante.
      await expect(form.getByText("Si lo deja vacío, el del solicitante: Ventas Norte.")).toBeVisible();
      await expect(form.getByText("Si lo deja vacío, la del solicitante: Madrid — Sede central.")).toBeVisible();
    }
    const descripcion = unique("Para Elena");
    const folio = await completarYCrear(page, { descripcion, centimos: centimosAlAzar(), justificantes: [] });
    // A borrador: what it took, in its edit form.
    const datos = panelGasto(page, folio).getByRole("region", { name: "Datos" });
    await expect(datos.getByLabel(/^Departamento/).locator("option:checked")).toHaveText("Ventas Norte");
    await expect(datos.getByLabel(/^Solicitante/).locator("option:checked")).toContainText(NOMBRES.empleado);
  },
);

empleado("sin elegir nada, el formulario dice qué departamento y sucursal usará: los suyos", async ({ page }) => {
  await page.goto(NUEVO_GASTO);
  const form = nuevoGasto(page);
  await expect(form.getByText("Si lo deja vacío, el suyo: Ventas Norte.")).toBeVisible();
  await expect(form.getByText("Si lo deja vacío, la suya: Madrid — Sede central.")).toBeVisible();
});

aprobador("un borrador es privado: el aprobador no lo ve hasta que se envía", async ({ page, browser }) => {
  const descripcion = unique("Borrador privado");
  const elena = await pageAs(browser, "empleado");
  const folio = await crearGasto(elena, { descripcion, centimos: centimosAlAzar() });

  const buscar = async () => {
    await page.goto(`/gastos?q=${encodeURIComponent(descripcion)}`);
    return page.getByRole("table").getByRole("link", { name: folio, exact: true });
  };
  await expect(await buscar()).toHaveCount(0);
  await expect(page.getByText("No hay gastos que coincidan con la búsqueda.")).toBeVisible();

  await transicion(elena, folio, "Enviar a aprobación", `Gasto ${folio} enviado a aprobación.`);
  await elena.context().close();
  await expect(await buscar()).toHaveCount(1);
});

empleado("un nombre por proveedor: el mismo en el formulario, la lista, el filtro y la ficha", async ({ page }) => {
  const descripcion = unique("Noche en Valencia");
  const folio = await crearGasto(page, {
    descripcion,
    centimos: centimosAlAzar(),
    categoria: "Alojamiento",
    proveedor: HOTEL,
  });
  await expect(
    panelGasto(page, folio)
      .getByRole("region", { name: "Datos" })
      .getByLabel(/^Proveedor/)
      .locator("option:checked"),
  ).toHaveText(HOTEL);
  await page.goto(`/gastos?q=${encodeURIComponent(descripcion)}`);
  await expect(page.getByRole("table").getByRole("row", { name: new RegExp(folio) })).toContainText(HOTEL);
  await expect(
    page.getByRole("search", { name: "Buscar gastos" }).getByLabel("Proveedor").getByRole("option", { name: HOTEL }),
  ).toHaveCount(1);
});

empleado(
  "en bloque: sus borradores, enviados a aprobación a la vez; el resultado nombra los folios",
  async ({ page }) => {
    const prefijo = unique("Enviar varios");
    const hechos = await borradores([
      { descripcion: `${prefijo} uno`, centimos: centimosAlAzar() },
      { descripcion: `${prefijo} dos`, centimos: centimosAlAzar() },
    ]);
    const lista = `/gastos?q=${encodeURIComponent(prefijo)}`;
    await page.goto(lista);
    await expect(page.getByText("2 gastos con estos filtros")).toBeVisible();
    const bloque = page.getByRole("region", { name: "Enviar varios a aprobación" });
    const enviar = bloque.getByRole("button", { name: "Enviar seleccionados a aprobación" });
    // Nothing checked: the summary links to the «Seleccionar» column, and the next Tab is its first box.
    await enviar.click();
    const marque = bloque.getByRole("alert").getByRole("link", { name: "Marque al menos un gasto de la lista." });
    await marque.focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("checkbox", { name: /^Seleccionar GAS-/ }).first()).toBeFocused();
    for (const { folio } of hechos) await page.getByRole("checkbox", { name: `Seleccionar ${folio}` }).check();
    await expectNoAxeViolations(page);
    await enviar.click();
    await expect(flash(page)).toContainText("Se han enviado a aprobación 2 gastos.");
    for (const { folio } of hechos) await expect(flash(page)).toContainText(folio);
    const estados = await enLaBaseDeDatos<{ estado: string }>("select estado from gastos where id = any($1)", [
      hechos.map((h) => h.id),
    ]);
    expect(estados.map((e) => e.estado)).toEqual(["pendiente", "pendiente"]);
    // Nothing of hers left to send on that list: no boxes, no bulk section.
    await page.goto(lista);
    await expect(page.getByText("2 gastos con estos filtros")).toBeVisible();
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await expect(bloque).toHaveCount(0);
  },
);

aprobador(
  "en bloque: «Seleccionar todos los de esta página», cuántos hay marcados, y el resultado nombra los folios",
  async ({ page }, testInfo) => {
    const prefijo = unique("Todos de la página");
    const importes = [centimosAlAzar(), centimosAlAzar()];
    // A department of its own without a budget: nothing to warn of, so approving asks nothing.
    const departamento = await departamentoEnLaBase(prefijo, uniqueCode("T"));
    const folios = await gastosPendientes([
      { descripcion: `${prefijo} uno`, centimos: importes[0]!, departamento },
      { descripcion: `${prefijo} dos`, centimos: importes[1]!, departamento },
    ]);
    await page.goto(`/gastos?vista=pendientes&q=${encodeURIComponent(prefijo)}`);
    await expect(page.getByText("2 gastos con estos filtros")).toBeVisible();
    const bloque = page.getByRole("region", { name: "Aprobar o rechazar varios" });
    // The filter holds pendientes: «aprobar todos los que coinciden» is offered.
    await expect(bloque.getByRole("link", { name: "aprobar todos…" })).toBeVisible();
    const js = jsEnabled(testInfo.project.name);
    if (js) await expect(bloque.getByText("0 seleccionados")).toBeVisible();
    await bloque.getByRole("link", { name: "Seleccionar todos los de esta página" }).click();
    for (const folio of folios)
      await expect(page.getByRole("checkbox", { name: `Seleccionar ${folio}` })).toBeChecked();
    // With JavaScript, a bar held at the bottom of the window says how many and how much.
    const barra = page.getByRole("region", { name: "Gastos seleccionados" });
    if (js) {
      await expect(bloque.getByText("2 seleccionados")).toBeVisible();
      await expect(barra).toHaveText(
        new RegExp(`^2 seleccionados · ${literal(euros(importes[0]! + importes[1]!)).source}`),
      );
      await page.getByRole("checkbox", { name: `Seleccionar ${folios[0]}` }).uncheck();
      await expect(bloque.getByText("1 seleccionado", { exact: true })).toBeVisible();
      await expect(barra).toContainText(`1 seleccionado · ${euros(importes[1]!)}`);
      await page.getByRole("checkbox", { name: `Seleccionar ${folios[0]}` }).check();
    } else await expect(barra).toHaveCount(0);
    await expectNoAxeViolations(page);
    await bloque.getByRole("button", { name: "Aprobar seleccionados" }).click();
    await expect(flash(page)).toContainText("Se han aprobado 2 gastos.");
    for (const folio of folios) await expect(flash(page)).toContainText(folio);
    // Back on the list, nothing is left checked by «todos».
    await expect(page).not.toHaveURL(/seleccionar=todos/);

    // A filter that cannot hold pendientes does not offer «aprobar todos los que coinciden».
    await page.goto(`/gastos?estado=aprobado&q=${encodeURIComponent(prefijo)}`);
    await expect(page.getByText("2 gastos con estos filtros")).toBeVisible();
    await expect(page.getByRole("link", { name: "aprobar todos…" })).toHaveCount(0);
  },
);

aprobador(
  "en bloque: con avisos, «Aprobar seleccionados» pide confirmar y dice el presupuesto en euros antes de aprobar",
  async ({ page }, testInfo) => {
    const prefijo = unique("Aviso en bloque");
    // Two departments of this journey's own: one with 10 € a month, one without a budget.
    const justo = await departamentoEnLaBase(prefijo, uniqueCode("J"));
    await enLaBaseDeDatos("update departamentos set presupuesto_mensual = 10.00 where id = $1", [justo]);
    const libre = await departamentoEnLaBase(`${prefijo} libre`, uniqueCode("L"));
    const importes = [centimosAlAzar(), centimosAlAzar()];
    const [caro, otro] = await gastosPendientes([
      { descripcion: `${prefijo} caro`, centimos: importes[0]!, departamento: justo },
      { descripcion: `${prefijo} otro`, centimos: importes[1]!, departamento: libre },
    ]);
    const lista = `/gastos?vista=pendientes&q=${encodeURIComponent(prefijo)}`;
    await page.goto(lista);
    await expect(page.getByText("2 gastos con estos filtros")).toBeVisible();
    const bloque = page.getByRole("region", { name: "Aprobar o rechazar varios" });
    for (const folio of [caro!, otro!]) await page.getByRole("checkbox", { name: `Seleccionar ${folio}` }).check();
    await bloque.getByRole("button", { name: "Aprobar seleccionados" }).click();

    // Nothing approved yet: first what the aprobador should know, per gasto and in euros.
    const confirmar = bloque.getByRole("region", { name: "¿Aprobar los 2 gastos seleccionados?" });
    await expect(confirmar).toBeVisible();
    if (jsEnabled(testInfo.project.name)) await expect(confirmar).toBeFocused();
    // Without JavaScript the reply is a new page: it opens at the question, not at the top of the list.
    else await expect(page).toHaveURL(/#en-bloque-respuesta$/);
    await expect(confirmar).toBeInViewport();
    await expect(confirmar.getByRole("listitem").filter({ hasText: caro! })).toHaveText(
      `${caro} (${euros(importes[0]!)}): Cuenta para el presupuesto superado de ${prefijo}.`,
    );
    await expect(confirmar.getByRole("listitem").filter({ hasText: otro! })).toHaveCount(0);
    await expect(
      confirmar.getByText(
        new RegExp(
          `^Aprobados todos, ${literal(prefijo).source} pasaría de su presupuesto de \\p{L}+ de \\d{4} en ${literal(importeTecleado(importes[0]! - 1000)).source} € \\(${literal(importeTecleado(importes[0]!)).source} € de 10,00 €\\)\\.$`,
          "u",
        ),
      ),
    ).toBeVisible();
    await expect(flash(page)).toHaveCount(0);
    for (const folio of [caro!, otro!])
      await expect(page.getByRole("checkbox", { name: `Seleccionar ${folio}` })).toBeChecked();
    await expectNoAxeViolations(page);

    // Only the one without warnings: approved at once; the other stays pending.
    await confirmar.getByRole("button", { name: "Aprobar solo el que no tiene avisos" }).click();
    await expect(flash(page)).toContainText("Se ha aprobado 1 gasto.");
    await expect(flash(page)).toContainText(`Aprobado: ${otro}.`);
    await expect(page.getByRole("checkbox", { name: `Seleccionar ${otro}` })).toHaveCount(0);

    // The other one, confirmed: approved, and the result says the budget it passed.
    await page.getByRole("checkbox", { name: `Seleccionar ${caro}` }).check();
    await bloque.getByRole("button", { name: "Aprobar seleccionados" }).click();
    const uno = bloque.getByRole("region", { name: "¿Aprobar el gasto seleccionado?" });
    await uno.getByRole("button", { name: "Sí, aprobarlo" }).click();
    await expect(flash(page)).toContainText("Se ha aprobado 1 gasto.");
    await expect(flash(page)).toContainText(`Aprobado: ${caro}.`);
    await expect(page.getByText("0 gastos con estos filtros")).toBeVisible();
  },
);

administrador(
  "en bloque: «Marcar como pagados» varios con una fecha valor futura y una referencia",
  async ({ page, browser }) => {
    const prefijo = unique("Pago en bloque");
    const importes = [centimosAlAzar(), centimosAlAzar(), centimosAlAzar()];
    const [uno, dos, tres] = await gastosPendientes([
      { descripcion: `${prefijo} uno`, centimos: importes[0]! },
      { descripcion: `${prefijo} dos`, centimos: importes[1]! },
      { descripcion: `${prefijo} tres`, centimos: importes[2]! },
    ]);
    // Two are paid; the third stays in the list, and so does the form.
    const folios = [uno!, dos!];
    // Approved by Pablo (Elena's aprobador): the administradora may mark them paid.
    const pablo = await pageAs(browser, "aprobador");
    for (const folio of [...folios, tres!]) {
      await abrirGasto(pablo, folio, "pendientes");
      await transicion(pablo, folio, "Aprobar", `Gasto ${folio} aprobado.`);
    }
    await pablo.context().close();

    await page.goto(`/gastos?estado=aprobado&q=${encodeURIComponent(prefijo)}`);
    // Only approved ones on the page: what there is to do with them is paying.
    const bloque = page.getByRole("region", { name: "Pagar varios" });
    for (const folio of folios) await page.getByRole("checkbox", { name: `Seleccionar ${folio}` }).check();
    const pago = bloque.getByRole("group", { name: /^Marcar como pagados/ });
    await expect(pago.getByLabel("Fecha de pago")).toHaveValue(diaMadrid());
    // The value date may be ahead, not more than a year: said in the form's error summary.
    await pago.getByLabel("Fecha de pago").fill(diaMadrid(367));
    await pago.getByLabel("Referencia de pago").fill("TR-BLOQUE-1");
    await pago.getByRole("button", { name: "Marcar como pagados" }).click();
    const resumen = bloque.getByRole("alert");
    await expect(resumen.getByRole("heading")).toHaveText("Hay 1 error");
    // The summary takes the focus: only then is what is typed next sure to stay where it is typed.
    await expect(resumen).toBeFocused();
    await expect(
      resumen.getByRole("link", {
        name: /Fecha de pago: puede ser futura \(la fecha valor\), pero como mucho dentro de un año/,
      }),
    ).toBeVisible();
    for (const folio of folios)
      await expect(page.getByRole("checkbox", { name: `Seleccionar ${folio}` })).toBeChecked();
    await pago.getByLabel("Fecha de pago").fill(diaMadrid(7));
    await expect(pago.getByLabel("Referencia de pago")).toHaveValue("TR-BLOQUE-1");
    // Sent from the keyboard: the next Tab starts at what was done, not back at the form.
    await pago.getByLabel("Referencia de pago").press("Enter");
    await expect(flash(page)).toContainText("Se han marcado como pagados 2 gastos.");
    await expect(page.locator("#contenido")).toBeFocused();
    for (const folio of folios) {
      await expect(flash(page)).toContainText(folio);
      await expect(page.getByRole("row", { name: new RegExp(folio) })).toHaveCount(0);
    }
    await expect(page.getByRole("row", { name: new RegExp(tres!) })).toHaveCount(1);
    await page.goto(`/gastos?q=${encodeURIComponent(prefijo)}`);
    for (const folio of folios)
      await expect(page.getByRole("row", { name: new RegExp(folio) })).toContainText("Pagado");
  },
);

empleado(
  "«Nuevo gasto» se abre en un panel junto a la lista, arriba del todo al teclado; sus errores se ven allí",
  async ({ page }) => {
    await page.goto("/gastos?vista=mios");
    await page.getByRole("main").getByRole("link", { name: "Nuevo gasto" }).click();
    await expect(page).toHaveURL(/[?&]nuevo=1.*#nuevo$/);
    const form = nuevoGasto(page);
    await expect(form).toHaveCount(1);
    await expect(form.getByRole("heading", { name: "Nuevo gasto" })).toBeFocused();
    await expectNoAxeViolations(page);

    await form.getByRole("button", { name: "Crear gasto" }).click();
    const resumen = resumenErrores(page, form);
    await expect(resumen).toBeVisible();
    await expect(resumen).toBeInViewport();
    await expect(page).toHaveURL(/[?&]nuevo=1/);
    await expect(resumen.getByRole("link", { name: "Escriba la descripción" })).toBeVisible();

    await page.getByRole("link", { name: "Cerrar sin crear y volver a la lista" }).click();
    await expect(page).not.toHaveURL(/nuevo=1/);
    // The list alone has no create form: creating happens only in that panel.
    await expect(page.getByRole("heading", { level: 1, name: "Gastos" })).toBeVisible();
    await expect(nuevoGasto(page)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Crear gasto" })).toHaveCount(0);
  },
);

empleado(
  "un enlace antiguo a «/gastos#nuevo» lleva al enlace «Nuevo gasto», que abre el formulario",
  async ({ page }) => {
    await page.goto("/gastos#nuevo");
    const enlace = page.getByRole("main").getByRole("link", { name: "Nuevo gasto" });
    await expect(enlace).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/[?&]nuevo=1.*#nuevo$/);
    await expect(nuevoGasto(page).getByRole("heading", { name: "Nuevo gasto" })).toBeFocused();
  },
);

administrador(
  "en el teléfono, tabulando por la lista con gastos marcados, la barra de seleccionados no tapa el control enfocado",
  async ({ page }, testInfo) => {
    const etiqueta = unique("Barra al tabular");
    await enLaBaseDeDatos(
      `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id,
         departamento_id, sucursal_id, estado, aprobador_id, aprobado_por_id, fecha_aprobacion)
       select $1 || ' ' || n, $2::date, 'comidas', 10 + n, 'efectivo', u.id, u.departamento_id, u.sucursal_id,
              'aprobado', a.id, a.id, now()
         from generate_series(1, 12) n, usuarios u, usuarios a
        where u.email = 'empleado@oficina.example' and a.email = 'aprobador@oficina.example'`,
      [etiqueta, diaMadrid(-30)],
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/gastos?vista=por_pagar&q=${encodeURIComponent(etiqueta)}`);
    const casillas = page.getByRole("checkbox", { name: /^Seleccionar GAS-/ });
    await expect(casillas).toHaveCount(12);
    await pressUntilFocused(page, casillas.first());
    await page.keyboard.press("Space");
    const barra = page.getByRole("region", { name: "Gastos seleccionados" });
    if (jsEnabled(testInfo.project.name)) await expect(barra).toContainText("1 seleccionado");
    else await expect(barra).toHaveCount(0);
    // Someone scrolls until the next card's box sits just above the window's bottom edge, where the
    // bar is, and presses Tab from the control before it: the box it reaches must clear the bar.
    await casillas
      .nth(5)
      .locator("xpath=ancestor::tr")
      .locator("a[id^='fila-']")
      .evaluate((a: HTMLElement) => a.focus({ preventScroll: true }));
    await casillas.nth(6).evaluate((c) => window.scrollBy(0, c.getBoundingClientRect().bottom - (innerHeight - 12)));
    await page.keyboard.press("Tab");
    await expect(casillas.nth(6)).toBeFocused();
    await expect(casillas.nth(6)).toBeInViewport({ ratio: 1 });
    if (jsEnabled(testInfo.project.name)) {
      const caja = (await casillas.nth(6).boundingBox())!;
      const bar = (await barra.boundingBox())!;
      expect(caja.y + caja.height).toBeLessThanOrEqual(bar.y);
    }
  },
);

empleado(
  "«Nuevo gasto como este»: la factura del mes pasado otra vez, con la fecha de hoy, su importe y su justificante",
  async ({ page }) => {
    const descripcion = unique("Factura de teléfono");
    const [original] = await borradores([
      { descripcion, centimos: centimosAlAzar(), categoria: "Telefonía e internet", metodo: "Efectivo" },
    ]);
    await enLaBaseDeDatos("update gastos set fecha_gasto = $2 where id = $1", [original!.id, diaMadrid(-30)]);
    const panel = await abrirGasto(page, original!.folio, "mios");
    // She approves nothing: no «aprobar todos…» under her own gastos.
    await expect(page.getByRole("link", { name: "aprobar todos…" })).toHaveCount(0);
    await panel.getByRole("link", { name: "Nuevo gasto como este" }).click();
    const form = nuevoGasto(page);
    await expect(form.getByText(`Con los datos de ${original!.folio}, salvo la fecha`)).toBeVisible();
    await expect(form.getByLabel("Descripción")).toHaveValue(descripcion);
    await expect(form.getByLabel("Categoría")).toHaveValue("telefonia_internet");
    await expect(form.getByLabel("Método de pago")).toHaveValue("efectivo");
    await expect(form.getByLabel("Fecha (obligatorio)")).toHaveValue(diaMadrid());
    await expectNoAxeViolations(page);
    // «Nuevo gasto» from here is a new one, not this copy again; «Atrás» brings the copy back.
    await page.getByRole("link", { name: "Nuevo gasto", exact: true }).click();
    await expect(form.getByText("Con los datos de")).toHaveCount(0);
    await expect(form.getByLabel("Descripción")).toHaveValue("");
    await page.goBack();
    await expect(form.getByLabel("Descripción")).toHaveValue(descripcion);
    const centimos = centimosAlAzar();
    await form.getByLabel("Importe (obligatorio)").fill(importeTecleado(centimos));
    await form.getByLabel("Justificantes").setInputFiles([await justificantePng()]);
    await form.getByRole("button", { name: "Crear gasto" }).click();
    await expect(flash(page)).toContainText(/Gasto creado: GAS-\d{4}-\d{5}/);
    const folio = /GAS-\d{4}-\d{5}/.exec(await flash(page).innerText())![0];
    expect(folio).not.toBe(original!.folio);
    const [copia] = await enLaBaseDeDatos<Record<string, string>>(
      `select descripcion, categoria, metodo_pago, to_char(fecha_gasto, 'YYYY-MM-DD') as fecha, importe::text, estado,
              (select count(*)::text from justificantes j where j.gasto_id = g.id) as justificantes
         from gastos g where folio = $1`,
      [folio],
    );
    expect(copia).toEqual({
      descripcion,
      categoria: "telefonia_internet",
      metodo_pago: "efectivo",
      fecha: diaMadrid(),
      importe: (centimos / 100).toFixed(2),
      estado: "borrador",
      justificantes: "1",
    });
  },
);
