import { readFile } from "node:fs/promises";
import ExcelJS from "exceljs";
import { ACCOUNTS, as, expect, expectNoAxeViolations, enlaceEnGrupo, jsEnabled, pressUntilFocused } from "./support";
import { enLaBaseDeDatos } from "./support-base-de-datos";

/**
 * The libro diario (docs/contabilidad.md): an administrador reaches it from the navigation, picks
 * a quarter with the keyboard, reads its sums and first asientos and downloads the XLSX, the CSV
 * and ContaPlus's XDiario, read back here; an empleado gets the forbidden page. Its gastos are
 * made in the database, in a quarter of a year of their own per project (both projects share one
 * server; the demo data never reaches that far back; the libro de IVA's journey uses others).
 */
const test = as("administrador");
const testEmpleado = as("empleado");

type Gasto = { folio: string };

/**
 * In the second quarter of `anio`, both approved: a meal with a client paid in cash (55,00 €,
 * its IVA never deductible) and a supplier's invoice to pay by transfer (121,00 € at 21 %).
 */
async function gastosDelTrimestre(anio: number): Promise<Gasto[]> {
  return enLaBaseDeDatos<Gasto>(
    `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id,
                         sucursal_id, tipo_documento, proveedor_id, numero_factura, factura_a_empresa,
                         estado, aprobado_por_id, fecha_aprobacion)
     select d.descripcion, d.fecha::date, d.categoria, d.importe, d.metodo, e.id, e.departamento_id, e.sucursal_id,
            d.tipo, case when d.factura then (select id from proveedores where activo order by razon_social limit 1) end,
            case when d.factura then 'DIA-' || $2 end, d.factura, 'aprobado', a.id, now()
       from (values ('Comida con un cliente', $2 || '-04-14', 'atenciones_clientes', 55.00, 'efectivo', 'ticket', false),
                    ('Papel y tóner', $2 || '-05-20', 'material_oficina', 121.00, 'transferencia', 'factura_completa', true))
              as d (descripcion, fecha, categoria, importe, metodo, tipo, factura),
            (select id, departamento_id, sucursal_id from usuarios where email = $1) e,
            (select id from usuarios where email = $3) a
     order by d.fecha
     returning folio`,
    [ACCOUNTS.empleado, String(anio), ACCOUNTS.administrador],
  );
}

test("un administrador elige un trimestre con el teclado, ve sus asientos y descarga XLSX, CSV y XDiario", async ({
  page,
}, testInfo) => {
  const anio = jsEnabled(testInfo.project.name) ? 2019 : 2018;
  const [comida, papel] = await gastosDelTrimestre(anio);

  // From the navigation, by keyboard.
  await page.goto("/");
  await enlaceEnGrupo(page, "Libros", "Libro diario", true);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Libro diario" })).toBeVisible();

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
  await pressUntilFocused(page, page.getByRole("button", { name: "Ver los asientos" }));
  await page.keyboard.press("Enter");

  const resultado = page.getByRole("region", { name: `Segundo trimestre de ${anio}` });
  await expect(resultado).toBeFocused();
  await expect(resultado).toContainText(`Del 01/04/${anio} al 30/06/${anio}: 2 asientos (2 gastos), con 5 apuntes.`);
  const sumas = resultado.getByRole("table", { name: "Sumas del periodo" });
  await expect(sumas.getByRole("row", { name: /^Debe/ })).toContainText("176,00 €");
  await expect(sumas.getByRole("row", { name: /^Haber/ })).toContainText("176,00 €");

  // The preview: the meal all to 627 (its IVA is not deductible), the invoice split 629 + 472.
  const asientos = resultado.getByRole("table", { name: "Los asientos del periodo" });
  const filas = asientos.getByRole("row");
  await expect(filas).toHaveCount(6);
  await expect(filas.nth(1)).toContainText(`1${"14/04/" + anio}62700000`);
  await expect(filas.nth(1)).toContainText("55,00 €");
  await expect(filas.nth(3)).toContainText(`2${"20/05/" + anio}62900000`);
  await expect(filas.nth(3)).toContainText("100,00 €");
  await expect(filas.nth(4)).toContainText("47200021H.P. IVA soportado 21 %");
  await expect(filas.nth(4)).toContainText("21,00 €");
  await expect(filas.nth(5)).toContainText(`${papel!.folio} Papel y tóner`);
  await expect(filas.nth(5)).toContainText("121,00 €");
  await expectNoAxeViolations(page);

  // The workbook, from the keyboard.
  const descargar = async (nombre: string) => {
    await pressUntilFocused(page, resultado.getByRole("link", { name: nombre }));
    const descargando = page.waitForEvent("download");
    await page.keyboard.press("Enter");
    const descarga = await descargando;
    return { nombre: descarga.suggestedFilename(), datos: await readFile(await descarga.path()) };
  };
  const xlsx = await descargar("Descargar en Excel (XLSX)");
  expect(xlsx.nombre).toBe(`libro-diario-${anio}-2T.xlsx`);
  const libro = new ExcelJS.Workbook();
  await libro.xlsx.load(xlsx.datos as unknown as ExcelJS.Buffer);
  const hoja = libro.getWorksheet("Diario")!;
  const valores = (n: number) => (hoja.getRow(n).values as unknown[]).slice(1, 10);
  expect(hoja.rowCount).toBe(7);
  expect(valores(2)).toEqual([
    1,
    new Date(`${anio}-04-14T00:00:00Z`),
    "627",
    "62700000",
    "Publicidad, propaganda y relaciones públicas",
    `${comida!.folio} Comida con un cliente`,
    55,
    undefined,
    comida!.folio,
  ]);
  const total = hoja.getRow(7);
  expect(total.getCell(1).value).toBe("Total (2 asientos)");
  expect([total.getCell(7).value, total.getCell(8).value]).toEqual([176, 176]);
  expect(libro.getWorksheet("Subcuentas")!.rowCount).toBe(6);

  const csv = await descargar("Descargar en CSV");
  expect(csv.nombre).toBe(`libro-diario-${anio}-2T.csv`);
  expect(csv.datos.toString("utf8").split("\r\n").filter(Boolean)).toHaveLength(6);

  const xdiario = await descargar("Descargar para ContaPlus (XDiario.txt)");
  expect(xdiario.nombre).toBe("XDiario.txt");
  const registros = xdiario.datos.toString("latin1").split("\r\n").filter(Boolean);
  expect(registros.map((r) => [r.length, r.slice(0, 6), r.slice(14, 26), r.slice(238, 254).trim()])).toEqual([
    [297, "     1", "62700000    ", "55.00"],
    [297, "     1", expect.stringMatching(/^465\d{5} {4}$/), "0.00"],
    [297, "     2", "62900000    ", "100.00"],
    [297, "     2", "47200021    ", "21.00"],
    [297, "     2", expect.stringMatching(/^410\d{5} {4}$/), "0.00"],
  ]);

  // On a phone each asiento is a card of its lines, within the screen: nothing scrolls sideways
  // (the region, named and reached by keyboard, is for wider windows); the title wraps within it.
  await page.setViewportSize({ width: 390, height: 844 });
  const desplazable = resultado.getByRole("region", { name: "Los asientos del periodo" });
  await pressUntilFocused(page, desplazable);
  const caja = (await desplazable.boundingBox())!;
  expect((await desplazable.getByRole("table").boundingBox())!.width).toBeLessThanOrEqual(caja.width);
  expect(await desplazable.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  const primero = (await desplazable.locator("tbody").first().boundingBox())!;
  expect(primero.x + primero.width).toBeLessThanOrEqual(caja.x + caja.width);
  const titulo = (await resultado.getByText("Los asientos del periodo", { exact: true }).boundingBox())!;
  expect(titulo.x).toBeGreaterThanOrEqual(caja.x);
  expect(titulo.x + titulo.width).toBeLessThanOrEqual(caja.x + caja.width);
  await expectNoAxeViolations(page);
});

test("un periodo que no se puede leer se dice en el resumen de errores, enfocado, y junto a su campo", async ({
  page,
}) => {
  await page.goto("/asientos");
  await page.getByRole("radio", { name: "Entre dos fechas" }).check();
  await page.getByLabel("Desde").fill("2026-03-01");
  await page.getByLabel("Hasta").fill("2026-01-31");
  await page.getByRole("button", { name: "Ver los asientos" }).click();
  const resumen = page.getByRole("alert");
  await expect(resumen.getByRole("heading", { name: "Hay 1 error en el periodo" })).toBeVisible();
  await expect(resumen).toBeFocused();
  const mensaje = "La fecha «Hasta» debe ser igual o posterior a la fecha «Desde»";
  await expect(resumen.getByRole("link", { name: mensaje })).toHaveAttribute("href", "#diario-hasta");
  await expect(page.getByLabel("Hasta")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("link", { name: "Descargar en Excel (XLSX)" })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // More than 24 months: said beside «Hasta», nothing read.
  await page.getByLabel("Desde").fill("2025-01-15");
  await page.getByLabel("Hasta").fill("2027-01-01");
  await page.getByRole("button", { name: "Ver los asientos" }).click();
  const largo =
    "El libro diario abarca como mucho 24 meses: elija una fecha «Hasta» anterior o descárguelo en varias veces";
  await expect(resumen.getByRole("link", { name: largo })).toHaveAttribute("href", "#diario-hasta");
  await expect(page.getByLabel("Hasta")).toHaveAccessibleDescription(new RegExp(largo));
  await expect(page.getByRole("link", { name: "Descargar en Excel (XLSX)" })).toHaveCount(0);

  // The optional first asiento number: beside its field too.
  await page.getByLabel("Hasta").fill("2026-12-31");
  await page.getByLabel("Primer número de asiento (opcional)").fill("0");
  await page.getByRole("button", { name: "Ver los asientos" }).click();
  const primero =
    "Escriba el primer número de asiento como un número entero de 1 a 999999, o déjelo vacío para empezar en 1";
  // Not a period's error: the summary does not say it is.
  await expect(resumen.getByRole("heading", { name: "Hay 1 error", exact: true })).toBeVisible();
  await expect(resumen.getByRole("link", { name: primero })).toHaveAttribute("href", "#diario-primero");
  await expect(page.getByLabel("Primer número de asiento (opcional)")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);

  // A number ContaPlus cannot carry on from: the journal shows, and says so where XDiario.txt was.
  await page.getByLabel("Primer número de asiento (opcional)").fill("999999");
  await page.getByRole("button", { name: "Ver los asientos" }).click();
  await expect(page.getByRole("link", { name: "Descargar en Excel (XLSX)" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Descargar para ContaPlus (XDiario.txt)" })).toHaveCount(0);
  await expect(
    page.getByText(
      /^Empezando en el 999999, el último de los \d+ asientos del periodo sería el 1\d{6}, y ContaPlus admite como mucho el 999999\. Elija un primer número menor para descargar XDiario\.txt\.$/,
    ),
  ).toBeVisible();
});

testEmpleado(
  "un empleado no tiene el enlace, y el diario y sus descargas le dan la página de acceso denegado",
  async ({ page }) => {
    await page.goto("/");
    await expect(
      page.getByRole("navigation", { name: "Secciones" }).getByRole("link", { name: "Libro diario" }),
    ).toHaveCount(0);
    const respuesta = await page.goto("/asientos?periodo=anio&anio=2026");
    expect(respuesta!.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "No tiene permiso" })).toBeVisible();
    await expect(page.getByText("Solo un administrador puede ver y descargar el libro diario.")).toBeVisible();
    const fichero = await page.request.get("/asientos/exportar?periodo=anio&anio=2026&formato=xdiario", {
      maxRedirects: 0,
    });
    expect(fichero.status()).toBe(403);
  },
);
