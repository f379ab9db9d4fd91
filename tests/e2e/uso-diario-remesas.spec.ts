import { generateValidEsIban } from "../../app/lib/iban";
import { as, expect, paginaQueDibuja, unique, uniqueEmail } from "./support";
import { enLaBaseDeDatos, personaEnLaBase } from "./support-base-de-datos";
import { diaMadrid } from "./support-registros";

/**
 * Daily use of the remesas with two tabs open on the same remesa: what the second tab asks
 * after the first changed it is refused, and the person reads why, where the focus lands.
 */
const test = as("administrador");

/** An approved gasto of a person of its own with an IBAN, and an account to pay from: its id. */
async function aprobadoPorPagar() {
  const persona = await personaEnLaBase(unique("Reembolso"), uniqueEmail("remesa-pestanas"));
  await enLaBaseDeDatos(
    `update usuarios set departamento_id = d.id, sucursal_id = s.id
       from (select id from departamentos order by codigo limit 1) d, (select id from sucursales order by codigo limit 1) s
      where usuarios.id = $1`,
    [persona],
  );
  await enLaBaseDeDatos("insert into datos_bancarios (usuario_id, iban) values ($1, $2)", [
    persona,
    generateValidEsIban(Math.floor(Math.random() * 1_000_000)),
  ]);
  await enLaBaseDeDatos(
    `insert into cuentas_empresa (nombre, iban, bic, formato)
     select 'Cuenta de pagos', $1, 'CAIXESBBXXX', 'pain.001.001.09'
      where not exists (select 1 from cuentas_empresa where activa)`,
    [generateValidEsIban(424_242)],
  );
  const [gasto] = await enLaBaseDeDatos<{ id: string }>(
    `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id,
       departamento_id, sucursal_id, estado, aprobador_id, aprobado_por_id, fecha_aprobacion)
     select 'Taxi al aeropuerto', $1, 'viajes_transporte', '23.40', 'efectivo', u.id, u.departamento_id, u.sucursal_id,
            'aprobado', a.id, a.id, now()
       from usuarios u, usuarios a where u.id = $2 and a.email = 'aprobador@oficina.example'
     returning id`,
    [diaMadrid(-20), persona],
  );
  return gasto!.id;
}

test("anular en una pestaña una remesa que otra ya confirmó dice por qué no se anuló", async ({ page, context }) => {
  const gasto = await aprobadoPorPagar();
  await page.goto(`/remesas?gasto=${gasto}`);
  await page.getByRole("button", { name: "Generar remesa" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Generada");
  const otra = await paginaQueDibuja(context);
  await otra.goto(page.url());

  await page.getByRole("button", { name: "Confirmar: el banco la ejecutó" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Confirmada");

  await otra.getByLabel("Motivo de la anulación").fill("El banco la devolvió");
  await otra.getByRole("button", { name: "Anular la remesa" }).click();
  await expect(otra.getByRole("heading", { level: 1 })).toContainText("Confirmada");
  const error = otra.locator("#anular-error");
  await expect(error).toContainText("La remesa ya está confirmada: otra persona la ha cambiado.");
  await expect(error).toBeFocused();
});

test("generada o confirmada la remesa, el foco está en el contenido, donde se dice lo hecho", async ({ page }) => {
  const gasto = await aprobadoPorPagar();
  await page.goto(`/remesas?gasto=${gasto}`);
  await page.getByRole("button", { name: "Generar remesa" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Generada");
  await expect(page.locator("#contenido")).toBeFocused();
  await expect(page.locator("#contenido")).toContainText(/Remesa REM-\d{4}-\d{4} generada/);
  // The concept the person reads on the statement, as the file writes it.
  await expect(page.getByRole("table", { name: "Transferencias" })).toContainText(/Reembolso de gastos GAS-\d{4}-\d+/);

  await page.getByRole("button", { name: "Confirmar: el banco la ejecutó" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Confirmada");
  await expect(page.locator("#contenido")).toBeFocused();
  await expect(page.locator("#contenido")).toContainText(/Remesa REM-\d{4}-\d{4} confirmada/);
});
