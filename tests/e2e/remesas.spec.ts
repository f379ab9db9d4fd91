import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { generateValidEsIban } from "../../app/lib/iban";
import { E2E_DATA_DIR } from "./entorno";
import { ACCOUNTS, as, expect, expectNoAxeViolations, pressUntilFocused, unique, uniqueEmail } from "./support";
import { comoPersonaEnLaBase, enLaBaseDeDatos, personaEnLaBase } from "./support-base-de-datos";
import { diaMadrid, fechaES, flash, literal } from "./support-registros";

/**
 * Paying approved gastos back by bank transfer (docs/producto.md «Remesas»): an administrador
 * sees which gastos go and which do not and why, generates the remesa, downloads its SEPA file
 * and confirms it; the gasto is then paid with the remesa's folio. Each project works on its own
 * day (a year back, where no other journey has gastos), so the two never share a gasto. From the
 * gastos list too: «Aprobados pendientes de pago», «Crear remesa» with every gasto that matches
 * the filter (or, by keyboard, with the checked ones), and the aviso each solicitante is mailed.
 */
const test = as("administrador");

test("una remesa: lo que va y lo que no, el fichero SEPA y la confirmación que paga los gastos", async ({
  page,
}, info) => {
  const dia = diaMadrid(-300 - (info.project.name === "sin-js" ? 1 : 0));
  const nombre = unique("Reembolso");
  const email = uniqueEmail("remesa");
  const persona = await personaEnLaBase(nombre, email);
  const iban = generateValidEsIban(Math.floor(Math.random() * 1_000_000));
  // Her profile, her IBAN (written by herself just now), an approved gasto of hers (approved by
  // the demo aprobador) and one paid with the corporate card, which a remesa does not pay; and an
  // account to pay from.
  await enLaBaseDeDatos(
    `update usuarios set departamento_id = d.id, sucursal_id = s.id
       from (select id from departamentos order by codigo limit 1) d, (select id from sucursales order by codigo limit 1) s
      where usuarios.id = $1`,
    [persona],
  );
  await comoPersonaEnLaBase(persona, "insert into public.datos_bancarios (usuario_id, iban) values ($1, $2)", [
    persona,
    iban,
  ]);
  const cuentaReciente = new RegExp(
    `Cuenta indicada el \\d{2}/\\d{2}/\\d{4}, \\d{2}:\\d{2}, por ${literal(`${nombre} (${email})`).source}: compruébela antes de pagar\\.`,
  );
  const aprobar = `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id,
       departamento_id, sucursal_id, estado, aprobador_id, aprobado_por_id, fecha_aprobacion)
     select $1, $2, 'comidas', $3, $4, u.id, u.departamento_id, u.sucursal_id, 'aprobado', a.id, a.id, now()
       from usuarios u, usuarios a where u.id = $5 and a.email = 'aprobador@oficina.example'
     returning folio`;
  const [va] = await enLaBaseDeDatos<{ folio: string }>(aprobar, [
    "Comida de equipo",
    dia,
    "48.20",
    "efectivo",
    persona,
  ]);
  const [noVa] = await enLaBaseDeDatos<{ folio: string }>(aprobar, [
    "Hotel",
    dia,
    "120.00",
    "tarjeta_corporativa",
    persona,
  ]);
  await enLaBaseDeDatos(
    `insert into cuentas_empresa (nombre, iban, bic, formato)
     select 'Cuenta de pagos', $1, 'CAIXESBBXXX', 'pain.001.001.09'
      where not exists (select 1 from cuentas_empresa where activa)`,
    [generateValidEsIban(424_242)],
  );

  await page.goto("/remesas");
  await expect(page).toHaveTitle("Remesas de pago — Oficina");
  // Dates the wrong way round propose nothing, and «Hasta» says why.
  await page.getByLabel("Gastos desde").fill(dia);
  await page.getByLabel("Hasta").fill(diaMadrid(-400));
  await page.getByRole("button", { name: "Ver" }).click();
  await expect(page.getByLabel("Hasta")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Hasta")).toHaveAccessibleDescription(/«Hasta» es anterior a «Gastos desde»/);
  await expect(page.getByText("Sin gastos que proponer: corrija las fechas.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Generar remesa" })).toHaveCount(0);
  await page.getByLabel("Hasta").fill(dia);
  await page.getByRole("button", { name: "Ver" }).click();
  const van = page.getByRole("table", { name: "Gastos que van" });
  await expect(van.getByRole("row").filter({ hasText: va!.folio })).toContainText(nombre);
  // An account written days ago is checked before paying: said under it, with who wrote it.
  await expect(van.getByRole("row").filter({ hasText: va!.folio })).toContainText(cuentaReciente);
  // What does not go: each reason once, counted, before the list of what goes (on a phone, far
  // longer); the gastos folded behind their count at the end, each with its reason.
  const motivos = page.getByRole("list", { name: "Por qué no van" });
  await expect(motivos.getByRole("listitem")).toContainText([/^\d+ gastos?: Tarjeta corporativa: no se reembolsa\.$/]);
  expect((await motivos.boundingBox())!.y).toBeLessThan((await van.boundingBox())!.y);
  const noVan = page.getByRole("table", { name: "Gastos que no van, y por qué" });
  await expect(noVan).toBeHidden();
  await page.getByText(/^Ver (el gasto que no va|los \d+ gastos que no van), y por qué$/).click();
  await expect(noVan.getByRole("row").filter({ hasText: noVa!.folio })).toContainText("Tarjeta corporativa");
  await expectNoAxeViolations(page);

  // A refused field says so beside itself, and the summary links to it.
  await page.getByLabel("Fecha de ejecución").fill("");
  await page.getByRole("button", { name: "Generar remesa" }).click();
  await expect(page.getByLabel("Fecha de ejecución")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Fecha de ejecución")).toHaveAccessibleDescription(/Escriba la fecha de ejecución/);
  // A past date is the application's to say (not the browser's, in its own language), beside its hint.
  await page.getByLabel("Fecha de ejecución").fill(diaMadrid(-1));
  await page.getByRole("button", { name: "Generar remesa" }).click();
  await expect(page.getByLabel("Fecha de ejecución")).toHaveAccessibleDescription(
    /^Hoy o después, como mucho dentro de un año: la fecha de pago de sus gastos\. .*Fecha de ejecución: hoy o después, como mucho dentro de un año/,
  );
  await page.getByLabel("Fecha de ejecución").fill(diaMadrid(0));
  await page.getByRole("button", { name: "Generar remesa" }).click();
  await expect(flash(page)).toContainText(/Remesa REM-\d{4}-\d{4} generada/);
  const folio = /REM-\d{4}-\d{4}/.exec(await flash(page).innerText())![0];
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Remesa ${folio}`);
  const fila = page.getByRole("table", { name: "Transferencias" }).getByRole("row").filter({ hasText: va!.folio });
  await expect(fila).toContainText(nombre);
  // Until it is confirmed it can still be held back: the remesa says it too.
  await expect(fila).toContainText(cuentaReciente);
  // Until the bank's execution is confirmed, /remesas names it first, with the way back to it.
  await page.goto("/remesas");
  // Past the proposal in one step: the remesas made so far.
  await page.getByRole("link", { name: "Ir a las remesas ya generadas" }).click();
  await expect(page.getByRole("heading", { name: "Remesas", exact: true })).toBeInViewport();
  const porConfirmar = page.locator("#por-confirmar");
  await expect(porConfirmar).toContainText("por confirmar con el banco");
  await expectNoAxeViolations(page);
  await porConfirmar.getByRole("link", { name: folio, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Remesa ${folio}`);

  // The file, as the bank receives it.
  const [descarga] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /Descargar el fichero SEPA/ }).click(),
  ]);
  expect(descarga.suggestedFilename()).toBe(`${folio}.xml`);
  const xml = await (await descarga.createReadStream()).toArray().then((c) => Buffer.concat(c).toString("utf8"));
  expect(xml).toContain(`<IBAN>${iban}</IBAN>`);
  expect(xml).toContain('<InstdAmt Ccy="EUR">48.20</InstdAmt>');

  // Cancelling asks for its reason, beside the field that lacks it.
  await page.getByRole("button", { name: "Anular la remesa" }).click();
  await expect(page.getByLabel("Motivo de la anulación")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Motivo de la anulación")).toHaveAccessibleDescription(
    "Escriba el motivo de la anulación",
  );
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Generada");
  await expect(page).toHaveTitle(`Remesa ${folio} — Oficina`);

  // Executed today: confirmed without a word; a remesa due later says when before it is confirmed.
  const aviso = page.getByText(/^Su fecha de ejecución es el .*: confírmela cuando el banco la haya ejecutado/);
  await expect(aviso).toHaveCount(0);
  await enLaBaseDeDatos("update remesas set fecha_ejecucion = fecha_ejecucion + 1 where folio = $1", [folio]);
  await page.reload();
  await expect(aviso).toContainText(fechaES(diaMadrid(1)));
  await enLaBaseDeDatos("update remesas set fecha_ejecucion = fecha_ejecucion - 1 where folio = $1", [folio]);
  await page.reload();

  await page.getByRole("button", { name: "Confirmar: el banco la ejecutó" }).click();
  await expect(flash(page)).toContainText(`Remesa ${folio} confirmada`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Confirmada");
  // Who generated and who confirmed it, for whoever checks the payment later.
  const ficha = page.locator("dl.ficha");
  await expect(ficha.locator("dt", { hasText: /^Generada$/ }).locator("+ dd")).toContainText(
    `por Ana Administradora (${ACCOUNTS.administrador})`,
  );
  await expect(ficha.locator("dt", { hasText: /^Confirmada$/ }).locator("+ dd")).toContainText(
    `por Ana Administradora (${ACCOUNTS.administrador})`,
  );
  await expect(fila).toContainText(nombre);
  await expect(fila).not.toContainText("Cuenta indicada");
  await page.goto("/remesas");
  await expect(page.locator("#por-confirmar").getByRole("link", { name: folio, exact: true })).toHaveCount(0);

  // The gasto, paid by the remesa.
  await page.goto(`/gastos?q=${va!.folio}`);
  await page.getByRole("table").getByRole("link", { name: va!.folio, exact: true }).click();
  const panel = page.getByRole("region", { name: new RegExp(`^Gasto ${va!.folio}`) });
  await expect(panel.getByRole("heading", { level: 2, name: /^Gasto GAS-/ })).toContainText("Pagado");
  await expect(panel.locator("dl.ficha")).toContainText(folio);
  await expect(panel.locator("dl.ficha")).toContainText(fechaES(dia));
});

/** What the development outbox holds for `email` (DATA_DIR/correo/<email>.txt). */
function buzon(email: string) {
  const file = path.resolve(E2E_DATA_DIR, "correo", `${email}.txt`);
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

/**
 * A solicitante of their own (with an IBAN, written with no one signed in, and a mailbox) and three
 * approved gastos of theirs whose description carries `etiqueta` (the list is filtered by it): two
 * paid in cash, which a remesa pays back, and one with the corporate card, which it does not.
 */
async function aprobadosPorPagar(etiqueta: string, dia: string) {
  const nombre = unique("Solicitante");
  const email = uniqueEmail("remesa-lista");
  const persona = await personaEnLaBase(nombre, email);
  const iban = generateValidEsIban(Math.floor(Math.random() * 1_000_000));
  await enLaBaseDeDatos(
    `update usuarios set departamento_id = d.id, sucursal_id = s.id
       from (select id from departamentos order by codigo limit 1) d, (select id from sucursales order by codigo limit 1) s
      where usuarios.id = $1`,
    [persona],
  );
  await enLaBaseDeDatos("insert into datos_bancarios (usuario_id, iban) values ($1, $2)", [persona, iban]);
  await enLaBaseDeDatos(
    `insert into cuentas_empresa (nombre, iban, bic, formato)
     select 'Cuenta de pagos', $1, 'CAIXESBBXXX', 'pain.001.001.09'
      where not exists (select 1 from cuentas_empresa where activa)`,
    [generateValidEsIban(424_242)],
  );
  const filas = await enLaBaseDeDatos<{ folio: string; metodo_pago: string }>(
    `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id,
       departamento_id, sucursal_id, estado, aprobador_id, aprobado_por_id, fecha_aprobacion)
     select v.descripcion, $2::date, 'comidas', v.importe::numeric, v.metodo, u.id, u.departamento_id, u.sucursal_id,
            'aprobado', a.id, a.id, now()
       from (values ($1 || ' taxi', '12.30', 'efectivo'), ($1 || ' comida', '30.05', 'tarjeta_debito'),
                    ($1 || ' hotel', '95.00', 'tarjeta_corporativa')) v (descripcion, importe, metodo),
            usuarios u, usuarios a
      where u.id = $3 and a.email = 'aprobador@oficina.example'
     returning folio, metodo_pago`,
    [etiqueta, dia, persona],
  );
  const van = filas.filter((f) => f.metodo_pago !== "tarjeta_corporativa").map((f) => f.folio);
  const noVa = filas.find((f) => f.metodo_pago === "tarjeta_corporativa")!.folio;
  return { nombre, email, iban, van, noVa };
}

/** After the remesa is confirmed: its gastos pagados in the list, the other still to pay, and the aviso mailed. */
async function pagadosYAvisados(page: Page, etiqueta: string, o: Awaited<ReturnType<typeof aprobadosPorPagar>>) {
  await page.goto(`/gastos?q=${encodeURIComponent(etiqueta)}`);
  const tabla = page.getByRole("table", { name: /^Gastos:/ });
  for (const folio of o.van) await expect(tabla.getByRole("row").filter({ hasText: folio })).toContainText("Pagado");
  await expect(tabla.getByRole("row").filter({ hasText: o.noVa })).toContainText("Aprobado");
  await page.goto(`/gastos?vista=por_pagar&q=${encodeURIComponent(etiqueta)}`);
  await expect(
    page
      .getByRole("table", { name: /^Gastos:/ })
      .getByRole("row")
      .filter({ hasText: /GAS-/ }),
  ).toHaveCount(1);

  // One mail to the solicitante for the remesa's gastos, each «se ha pagado por transferencia».
  await expect
    .poll(() => o.van.every((folio) => buzon(o.email).includes(`Su gasto ${folio}`)), { timeout: 20_000 })
    .toBe(true);
  const correo = buzon(o.email);
  for (const folio of o.van)
    expect(correo).toMatch(new RegExp(`Su gasto ${folio} «[^»]+» \\([^)]+\\) se ha pagado por transferencia`));
  expect(correo).not.toContain(o.noVa);
}

test("desde la lista filtrada: «Crear remesa» con todos los que coinciden, el fichero, la confirmación, los gastos pagados y el aviso", async ({
  page,
}, info) => {
  const dia = diaMadrid(-310 - (info.project.name === "sin-js" ? 1 : 0));
  const etiqueta = unique("Remesa lista");
  const datos = await aprobadosPorPagar(etiqueta, dia);

  await page.goto(`/gastos?q=${encodeURIComponent(etiqueta)}`);
  await page
    .getByRole("navigation", { name: "Vistas de gastos" })
    .getByRole("link", { name: "Aprobados pendientes de pago" })
    .click();
  await expect(page).toHaveURL(/vista=por_pagar/);
  await page.goto(`/gastos?vista=por_pagar&q=${encodeURIComponent(etiqueta)}`);
  await expect(
    page
      .getByRole("table", { name: /^Gastos:/ })
      .getByRole("row")
      .filter({ hasText: /GAS-/ }),
  ).toHaveCount(3);
  await page.getByRole("link", { name: "crear remesa con todos los que coinciden…" }).click();

  await expect(page).toHaveURL(/\/remesas\?/);
  await expect(
    page.getByText(
      /Con los gastos aprobados pendientes de pago que coinciden con el filtro de la lista de gastos: 3\./,
    ),
  ).toBeVisible();
  // The list's gastos are the proposal: no date filter here to replace them by others.
  await expect(page.getByLabel("Gastos desde")).toHaveCount(0);
  await expect(
    page.getByRole("link", { name: "Proponer en cambio todos los aprobados sin pagar, por fechas" }),
  ).toHaveAttribute("href", "/remesas");
  const van = page.getByRole("table", { name: "Gastos que van" });
  for (const folio of datos.van)
    await expect(van.getByRole("row").filter({ hasText: folio })).toContainText(datos.nombre);
  // Her account was written just now with no one signed in (as a load would be): said all the same.
  const sinSesion =
    /Cuenta indicada el \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}, sin sesión en Oficina \(una carga de datos o el editor SQL\): compruébela antes de pagar\./;
  await expect(van.getByRole("row").filter({ hasText: datos.van[0]! })).toContainText(sinSesion);
  await expect(van.getByRole("row").filter({ hasText: /GAS-/ })).toHaveCount(2);
  await page.getByText("Ver el gasto que no va, y por qué").click();
  await expect(
    page.getByRole("table", { name: "Gastos que no van, y por qué" }).getByRole("row").filter({ hasText: datos.noVa }),
  ).toContainText("Tarjeta corporativa");
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Generar remesa" }).click();
  await expect(flash(page)).toContainText(/Remesa REM-\d{4}-\d{4} generada: 1 transferencia por 42,35/);
  const folio = /REM-\d{4}-\d{4}/.exec(await flash(page).innerText())![0];
  await expect(
    page.getByRole("table", { name: "Transferencias" }).getByRole("row").filter({ hasText: datos.van[0]! }),
  ).toContainText(sinSesion);
  const [descarga] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /Descargar el fichero SEPA/ }).click(),
  ]);
  expect(descarga.suggestedFilename()).toBe(`${folio}.xml`);
  const xml = await (await descarga.createReadStream()).toArray().then((c) => Buffer.concat(c).toString("utf8"));
  expect(xml).toContain(`<IBAN>${datos.iban}</IBAN>`);
  expect(xml).toContain('<InstdAmt Ccy="EUR">42.35</InstdAmt>');

  await page.getByRole("button", { name: "Confirmar: el banco la ejecutó" }).click();
  await expect(flash(page)).toContainText(`Remesa ${folio} confirmada`);
  await pagadosYAvisados(page, etiqueta, datos);
});

test("solo con el teclado: marcar los gastos en la lista, «Crear remesa con los seleccionados», generarla, descargarla y confirmarla", async ({
  page,
}, info) => {
  const dia = diaMadrid(-320 - (info.project.name === "sin-js" ? 1 : 0));
  const etiqueta = unique("Remesa teclado");
  const datos = await aprobadosPorPagar(etiqueta, dia);

  await page.goto(`/gastos?vista=por_pagar&q=${encodeURIComponent(etiqueta)}`);
  for (const folio of datos.van) {
    await pressUntilFocused(page, page.getByRole("checkbox", { name: `Seleccionar ${folio}` }));
    await page.keyboard.press("Space");
  }
  await pressUntilFocused(page, page.getByRole("button", { name: "Crear remesa con los seleccionados" }));
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/remesas\?gasto=/);
  await expect(page.getByText("Con 2 gastos elegidos en la lista de gastos.")).toBeVisible();
  const van = page.getByRole("table", { name: "Gastos que van" });
  for (const folio of datos.van) await expect(van.getByRole("row").filter({ hasText: folio })).toBeVisible();
  await expect(page.getByRole("table", { name: "Gastos que no van, y por qué" })).toHaveCount(0);
  await pressUntilFocused(page, page.getByRole("button", { name: "Generar remesa" }));
  await page.keyboard.press("Enter");
  await expect(flash(page)).toContainText(/Remesa REM-\d{4}-\d{4} generada/);
  const folio = /REM-\d{4}-\d{4}/.exec(await flash(page).innerText())![0];

  await pressUntilFocused(page, page.getByRole("link", { name: /Descargar el fichero SEPA/ }));
  const [descarga] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  expect(descarga.suggestedFilename()).toBe(`${folio}.xml`);
  await pressUntilFocused(page, page.getByRole("button", { name: "Confirmar: el banco la ejecutó" }));
  await page.keyboard.press("Enter");
  await expect(flash(page)).toContainText(`Remesa ${folio} confirmada`);
  await pagadosYAvisados(page, etiqueta, { ...datos, noVa: datos.noVa });
});
