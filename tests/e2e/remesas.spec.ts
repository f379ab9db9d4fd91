import { generateValidEsIban } from "../../app/lib/iban";
import { as, expect, expectNoAxeViolations, unique, uniqueEmail } from "./support";
import { enLaBaseDeDatos, personaEnLaBase } from "./support-base-de-datos";
import { diaMadrid, fechaES, flash } from "./support-registros";

/**
 * Paying approved gastos back by bank transfer (docs/producto.md «Remesas»): an administrador
 * sees which gastos go and which do not and why, generates the remesa, downloads its SEPA file
 * and confirms it; the gasto is then paid with the remesa's folio. Each project works on its own
 * day (a year back, where no other journey has gastos), so the two never share a gasto.
 */
const test = as("administrador");

test("una remesa: lo que va y lo que no, el fichero SEPA y la confirmación que paga los gastos", async ({
  page,
}, info) => {
  const dia = diaMadrid(-300 - (info.project.name === "sin-js" ? 1 : 0));
  const nombre = unique("Reembolso");
  const persona = await personaEnLaBase(nombre, uniqueEmail("remesa"));
  const iban = generateValidEsIban(Math.floor(Math.random() * 1_000_000));
  // Her profile, her IBAN, an approved gasto of hers (approved by the demo aprobador) and one
  // paid with the corporate card, which a remesa does not pay; and an account to pay from.
  await enLaBaseDeDatos(
    `update usuarios set departamento_id = d.id, sucursal_id = s.id
       from (select id from departamentos order by codigo limit 1) d, (select id from sucursales order by codigo limit 1) s
      where usuarios.id = $1`,
    [persona],
  );
  await enLaBaseDeDatos("insert into datos_bancarios (usuario_id, iban) values ($1, $2)", [persona, iban]);
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
  await page.getByLabel("Gastos desde").fill(dia);
  await page.getByLabel("Hasta").fill(dia);
  await page.getByRole("button", { name: "Ver" }).click();
  const van = page.getByRole("table", { name: "Gastos que van" });
  await expect(van.getByRole("row").filter({ hasText: va!.folio })).toContainText(nombre);
  await expect(
    page.getByRole("table", { name: "Gastos que no van, y por qué" }).getByRole("row").filter({ hasText: noVa!.folio }),
  ).toContainText("Tarjeta corporativa");
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Generar remesa" }).click();
  await expect(flash(page)).toContainText(/Remesa REM-\d{4}-\d{4} generada/);
  const folio = /REM-\d{4}-\d{4}/.exec(await flash(page).innerText())![0];
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Remesa ${folio}`);
  const fila = page.getByRole("table", { name: "Transferencias" }).getByRole("row").filter({ hasText: va!.folio });
  await expect(fila).toContainText(nombre);

  // The file, as the bank receives it.
  const [descarga] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /Descargar el fichero SEPA/ }).click(),
  ]);
  expect(descarga.suggestedFilename()).toBe(`${folio}.xml`);
  const xml = await (await descarga.createReadStream()).toArray().then((c) => Buffer.concat(c).toString("utf8"));
  expect(xml).toContain(`<IBAN>${iban}</IBAN>`);
  expect(xml).toContain('<InstdAmt Ccy="EUR">48.20</InstdAmt>');

  await page.getByRole("button", { name: "Confirmar: el banco la ejecutó" }).click();
  await expect(flash(page)).toContainText(`Remesa ${folio} confirmada`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Confirmada");

  // The gasto, paid by the remesa.
  await page.goto(`/gastos?q=${va!.folio}`);
  await page.getByRole("table").getByRole("link", { name: va!.folio, exact: true }).click();
  const panel = page.getByRole("region", { name: new RegExp(`^Gasto ${va!.folio}`) });
  await expect(panel.getByRole("heading", { level: 2, name: /^Gasto GAS-/ })).toContainText("Pagado");
  await expect(panel.locator("dl.ficha")).toContainText(folio);
  await expect(panel.locator("dl.ficha")).toContainText(fechaES(dia));
});
