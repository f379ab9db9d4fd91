import { readFile } from "node:fs/promises";
import ExcelJS from "exceljs";
import { ACCOUNTS, as, expect, expectNoAxeViolations, enlaceEnGrupo, jsEnabled, pressUntilFocused } from "./support";
import { enLaBaseDeDatos } from "./support-base-de-datos";

/**
 * The libro registro de facturas recibidas (docs/producto.md «Datos fiscales»): an administrador
 * reaches it from the navigation, picks a quarter with the keyboard, reads its totals and
 * downloads the XLSX, which is read back here. Its gastos are made in the database, in a quarter
 * of a year of their own per project (both projects share one server, and the demo data never
 * reaches that far back).
 */
const test = as("administrador");

type Gasto = { id: string; numero_recepcion: string };

/** A full invoice (121,00 € at 21 %, approved) and a ticket (12,10 € at 10 %, paid) in the second quarter of `anio`. */
async function gastosDelTrimestre(anio: number): Promise<Gasto[]> {
  return enLaBaseDeDatos<Gasto>(
    `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id,
                         sucursal_id, tipo_documento, proveedor_id, numero_factura, factura_a_empresa,
                         estado, aprobado_por_id, fecha_aprobacion, fecha_pago, referencia_pago)
     select d.descripcion, d.fecha::date, d.categoria, d.importe, 'transferencia', e.id, e.departamento_id, e.sucursal_id,
            d.tipo, case when d.factura then (select id from proveedores where activo order by razon_social limit 1) end,
            case when d.factura then 'LIB-' || $2 end, d.factura, d.estado, a.id, now(),
            case when d.estado = 'pagado' then d.fecha::date end, case when d.estado = 'pagado' then 'TRF-LIBRO' end
       from (values ('Licencias', $2 || '-04-20', 'software_suscripciones', 121.00, 'factura_completa', true, 'aprobado'),
                    ('Menú del día', $2 || '-06-30', 'comidas', 12.10, 'ticket', false, 'pagado'))
              as d (descripcion, fecha, categoria, importe, tipo, factura, estado),
            (select id, departamento_id, sucursal_id from usuarios where email = $1) e,
            (select id from usuarios where email = $3) a
     order by d.fecha
     returning id, numero_recepcion`,
    [ACCOUNTS.empleado, String(anio), ACCOUNTS.administrador],
  );
}

test("un administrador elige un trimestre con el teclado, ve sus totales y descarga el XLSX", async ({
  page,
}, testInfo) => {
  const anio = jsEnabled(testInfo.project.name) ? 2023 : 2022;
  const [factura, ticket] = await gastosDelTrimestre(anio);
  // An older load whose taxes fit no rate: approved, but out of the book until it is reviewed.
  await enLaBaseDeDatos(
    `insert into gastos (descripcion, fecha_gasto, categoria, importe, importe_impuestos, metodo_pago, solicitante_id,
                         departamento_id, sucursal_id, estado, aprobado_por_id, fecha_aprobacion)
     select 'Carga antigua', ($2 || '-05-05')::date, 'otros', 100.00, 7.77, 'efectivo', e.id, e.departamento_id,
            e.sucursal_id, 'aprobado', a.id, now()
       from usuarios e, usuarios a where e.email = $1 and a.email = $3`,
    [ACCOUNTS.empleado, String(anio), ACCOUNTS.administrador],
  );

  // From the navigation, by keyboard.
  await page.goto("/");
  await enlaceEnGrupo(page, "Libros", "Libro de IVA", true);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Libro registro de facturas recibidas" })).toBeVisible();

  // «Un trimestre» is the period it opens with; the year typed, the quarter chosen by its name.
  await expect(page.getByRole("radio", { name: "Un trimestre" })).toBeChecked();
  const año = page.getByLabel("Año", { exact: true });
  await pressUntilFocused(page, año);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(String(anio));
  await page.keyboard.press("Tab");
  const trimestre = page.getByLabel("Trimestre", { exact: true });
  await expect(trimestre).toBeFocused();
  await page.keyboard.type("Segundo");
  await expect(trimestre).toHaveValue("2");
  const ver = page.getByRole("button", { name: "Ver el libro" });
  await pressUntilFocused(page, ver);
  await page.keyboard.press("Enter");

  const resultado = page.getByRole("region", { name: `Segundo trimestre de ${anio}` });
  await expect(resultado).toBeFocused();
  await expect(resultado).toContainText(
    `Del 01/04/${anio} al 30/06/${anio}, por fecha de la operación: 2 líneas (una por factura y tipo de IVA).`,
  );
  const totales = resultado.getByRole("table", { name: "Totales del periodo" });
  const fila = (nombre: string) => totales.getByRole("row", { name: new RegExp(`^${nombre}`) });
  await expect(fila("Base imponible")).toContainText("111,00 €");
  await expect(fila("Cuota de IVA soportado")).toContainText("22,10 €");
  await expect(fila("Cuota deducible")).toContainText("21,00 €");
  await expect(fila("Cuota no deducible")).toContainText("1,10 €");
  await expect(fila("Total de las facturas")).toContainText("133,10 €");
  // What the book lacks is said, so its totals are not taken for the period's.
  await expect(resultado).toContainText(
    "Falta 1 gasto aprobado o pagado del periodo: su desglose de IVA está por revisar",
  );
  await expectNoAxeViolations(page);

  // The download, from the keyboard: the focus is on the result, the link a Tab away.
  const descargar = resultado.getByRole("link", { name: "Descargar en Excel (XLSX)" });
  await pressUntilFocused(page, descargar);
  const descargando = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  const descarga = await descargando;
  expect(descarga.suggestedFilename()).toBe(`libro-facturas-recibidas-${anio}-2T.xlsx`);

  const libro = new ExcelJS.Workbook();
  await libro.xlsx.load((await readFile(await descarga.path())) as unknown as ExcelJS.Buffer);
  const hoja = libro.getWorksheet("RECIBIDAS")!;
  expect(hoja.rowCount).toBe(4);
  expect(hoja.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
  const valores = (n: number) => (hoja.getRow(n).values as unknown[]).slice(1);
  expect(valores(1).slice(0, 3)).toEqual(["Ejercicio", "Periodo", "Tipo de factura"]);
  const [emisor] = await enLaBaseDeDatos<{ emisor_nif: string; emisor_nombre: string }>(
    "select emisor_nif, emisor_nombre from libro_facturas_recibidas where gasto_id = $1",
    [factura!.id],
  );
  const fecha = (iso: string) => new Date(`${iso}T00:00:00Z`);
  expect(valores(2)).toEqual([
    anio,
    "2T",
    "F1",
    fecha(`${anio}-04-20`),
    fecha(`${anio}-04-20`),
    `LIB-${anio}`,
    factura!.numero_recepcion,
    undefined, // a Spanish issuer: no country code
    emisor!.emisor_nif,
    emisor!.emisor_nombre,
    121,
    100,
    21,
    21,
    21,
    "N",
  ]);
  expect(valores(3)).toEqual([
    anio,
    "2T",
    "F2",
    fecha(`${anio}-06-30`),
    fecha(`${anio}-06-30`),
    undefined,
    ticket!.numero_recepcion,
    undefined,
    undefined,
    undefined,
    12.1,
    11,
    10,
    1.1,
    0,
    "N",
  ]);
  const total = hoja.getRow(4);
  expect(total.getCell(1).value).toBe("Total (2 líneas)");
  expect(total.getCell(1).font?.bold).toBe(true);
  expect([11, 12, 14, 15].map((c) => total.getCell(c).value)).toEqual([133.1, 111, 22.1, 21]);
  expect(hoja.getRow(2).getCell(11).numFmt).toBe("#,##0.00");
  expect(hoja.getRow(2).getCell(4).numFmt).toBe("dd/mm/yyyy");

  // The invoice's record says the number it has in the book (to write on the paper).
  await page.goto(`/gastos?gasto=${factura!.id}#gasto`);
  const ficha = page.getByRole("region", { name: /^Gasto / });
  await expect(ficha.getByRole("term").filter({ hasText: "Número de recepción (libro de IVA)" })).toBeVisible();
  await expect(ficha.getByRole("definition").filter({ hasText: factura!.numero_recepcion })).toBeVisible();
});

test("un periodo que no se puede leer se dice en el resumen de errores, enfocado, y junto a su campo", async ({
  page,
}) => {
  await page.goto("/libro-iva");
  await page.getByRole("radio", { name: "Entre dos fechas" }).check();
  await page.getByLabel("Desde").fill("2026-03-01");
  await page.getByLabel("Hasta").fill("2026-01-31");
  await page.getByRole("button", { name: "Ver el libro" }).click();
  const resumen = page.getByRole("alert");
  await expect(resumen.getByRole("heading", { name: "Hay 1 error en el periodo" })).toBeVisible();
  await expect(resumen).toBeFocused();
  const mensaje = "La fecha «Hasta» debe ser igual o posterior a la fecha «Desde»";
  await expect(resumen.getByRole("link", { name: mensaje })).toHaveAttribute("href", "#libro-hasta");
  const hasta = page.getByLabel("Hasta");
  await expect(hasta).toHaveAttribute("aria-invalid", "true");
  await expect(hasta).toHaveAccessibleDescription(
    `Si el periodo es entre dos fechas: la última, incluida. Error: ${mensaje}`,
  );
  await expect(page.getByRole("link", { name: "Descargar en Excel (XLSX)" })).toHaveCount(0);
  await expectNoAxeViolations(page);
});
