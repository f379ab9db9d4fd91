import { ACCOUNTS, as, expect, navegacion, unique } from "./support";
import { enLaBaseDeDatos } from "./support-base-de-datos";
import { diaDeDieta, diaMadrid, fechaES, flash, panelGasto } from "./support-registros";

/**
 * Daily use of a trip: its gastos are added one by one from the trip's own links, each through
 * «Nuevo gasto» on the gastos list; from the new gasto the person goes back to the trip for the
 * next one, or to send it whole.
 */
const test = as("empleado");

test("el kilometraje añadido desde el viaje lleva de vuelta a su viaje", async ({ page }) => {
  const municipio = unique("Soria");
  const dia = diaMadrid(-3);
  const [viaje] = await enLaBaseDeDatos<{ id: string }>(
    `insert into viajes (solicitante_id, destino_municipio, motivo, salida, regreso)
     select u.id, $2, 'Visita a un cliente', $3::date + time '08:00', $3::date + time '19:00'
       from usuarios u join auth.users a on a.id = u.id where a.email = $1
     returning id`,
    [ACCOUNTS.empleado, municipio, dia],
  );
  await page.goto(`/viajes/${viaje!.id}`);
  await page.getByRole("link", { name: "Añadir kilometraje" }).click();
  const form = page.getByRole("region", { name: "Nuevo gasto" });
  await form.getByLabel("Descripción").fill("Coche propio, ida y vuelta");
  // A trip already over: the form opens on its day, not on today (which the trip does not include).
  await expect(form.getByLabel("Fecha (obligatorio)")).toHaveValue(dia);
  await form.getByLabel("Categoría").selectOption({ label: "Viajes y transporte" });
  await form.getByLabel("Origen (obligatorio)", { exact: true }).fill("Madrid");
  await form.getByLabel("Destino (obligatorio)", { exact: true }).fill(municipio);
  await form.getByLabel("Kilómetros (obligatorio)", { exact: true }).fill("225");
  await form.getByRole("button", { name: "Crear gasto" }).click();
  await expect(flash(page)).toContainText(/Gasto creado: GAS-\d{4}-\d{5}/);

  await panelGasto(page)
    .getByRole("link", { name: `Ver el viaje «${municipio}, ${fechaES(dia)}»` })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${municipio}, ${fechaES(dia)}`);
  await expect(page.getByRole("region", { name: "Gastos del viaje" })).toContainText("Coche propio, ida y vuelta");
});

const aprobador = as("aprobador");

aprobador("«Rechazar el viaje» sin motivo vuelve a su resumen de errores, con el foco", async ({ page }) => {
  const dia = diaDeDieta(-4);
  const municipio = unique("Teruel");
  // A trip of the demo empleado, its dieta waiting for the demo aprobador.
  const [viaje] = await enLaBaseDeDatos<{ viaje_id: string }>(
    `with elena as (select u.id, u.departamento_id, u.sucursal_id from usuarios u join auth.users a on a.id = u.id
                     where a.email = $1),
          v as (insert into viajes (solicitante_id, destino_municipio, motivo, salida, regreso)
                select id, $3, 'Visita a un cliente', $4::date + time '08:00', $4::date + time '20:00' from elena
                returning id)
     insert into gastos (descripcion, fecha_gasto, categoria, metodo_pago, solicitante_id, departamento_id,
                         sucursal_id, clase, viaje_id, estado, aprobador_id)
     select 'Dieta', $4::date, 'comidas', 'efectivo', e.id, e.departamento_id, e.sucursal_id, 'dieta', v.id,
            'pendiente', a.id
       from elena e, v, usuarios a join auth.users au on au.id = a.id where au.email = $2
     returning viaje_id`,
    [ACCOUNTS.empleado, ACCOUNTS.aprobador, municipio, dia],
  );
  await page.goto(`/viajes/${viaje!.viaje_id}`);
  await page.getByRole("button", { name: "Rechazar el viaje" }).click();
  const resumen = page.getByRole("alert").filter({ hasText: "Escriba el motivo del rechazo" });
  await expect(resumen).toBeFocused();
  await expect(page.getByLabel(/^Motivo del rechazo/)).toHaveAttribute("aria-invalid", "true");
});

const administrador = as("administrador");

administrador(
  "en el informe de IRPF la navegación marca solo «Informe IRPF» como la página actual",
  async ({ page }) => {
    await page.goto("/viajes/informe-irpf");
    await expect(navegacion(page).locator('a[aria-current="page"]')).toHaveText(["Informe IRPF"]);
    await page.goto("/viajes");
    await expect(navegacion(page).locator('a[aria-current="page"]')).toHaveText(["Viajes"]);
  },
);
