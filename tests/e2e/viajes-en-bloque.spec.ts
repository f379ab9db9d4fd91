import { as, expect, expectNoAxeViolations, unique } from "./support";
import { enLaBaseDeDatos } from "./support-base-de-datos";
import { apiDeEmpleada, diaMadrid, flash } from "./support-registros";

/**
 * The aprobador's list of trips to approve: check several, reject them with one motivo or approve
 * them, each trip with all its gastos (the bulk actions viajes declares, run by the generic list
 * machinery). A reject without its motivo is refused with the boxes still checked and nothing
 * changed. With and without JavaScript.
 */
const test = as("aprobador");

const ayer = diaMadrid(-1);
const hoy = diaMadrid(0);

/** A trip of the demo empleado with one kilometraje, sent to approval through the screens' action. */
async function viajePendiente(destino: string, motivo: string): Promise<string> {
  const [viaje] = await enLaBaseDeDatos<{ id: string }>(
    `insert into viajes (solicitante_id, destino_municipio, destino_pais, motivo, salida, regreso, municipio_distinto)
     select id, $1, 'ES', $2, $3, $4, true from usuarios where email = 'empleado@oficina.example' returning id`,
    [destino, motivo, `${ayer} 07:30`, `${hoy} 20:00`],
  );
  await enLaBaseDeDatos(
    `insert into gastos (clase, viaje_id, descripcion, fecha_gasto, categoria, metodo_pago, km_origen, km_destino, km,
                         solicitante_id, departamento_id, sucursal_id)
     select 'kilometraje', $1, 'Coche propio', $2, 'viajes_transporte', 'efectivo', 'Madrid', $3, 100,
            u.id, u.departamento_id, u.sucursal_id
       from usuarios u where u.email = 'empleado@oficina.example'`,
    [viaje!.id, ayer, destino],
  );
  const [{ version }] = await enLaBaseDeDatos<{ version: number }>("select version from viajes where id = $1", [
    viaje!.id,
  ]);
  const api = await apiDeEmpleada();
  try {
    const enviado = await api.post(`/viajes/${viaje!.id}`, {
      maxRedirects: 0,
      form: { intent: "enviar", version: String(version) },
    });
    expect(enviado.status(), await enviado.text()).toBe(302);
  } finally {
    await api.dispose();
  }
  return viaje!.id;
}

const estadosDe = (viaje: string) =>
  enLaBaseDeDatos<{ estado: string; motivo_rechazo: string | null }>(
    "select estado, motivo_rechazo from gastos where viaje_id = $1",
    [viaje],
  );

test("varios viajes a la vez: rechazar pide el motivo y conserva lo marcado; cada viaje, con todos sus gastos", async ({
  page,
}) => {
  const motivo = unique("Ruta comercial");
  const soria = await viajePendiente("Soria", motivo);
  const teruel = await viajePendiente("Teruel", motivo);
  await page.goto(`/viajes?vista=pendientes&q=${encodeURIComponent(motivo)}`);
  const fecha = `${ayer.slice(8, 10)}/${ayer.slice(5, 7)}/${ayer.slice(0, 4)}`;
  const casilla = (destino: string) => page.getByRole("checkbox", { name: `Seleccionar ${destino}, ${fecha}` });
  const acciones = page.getByRole("region", { name: "Con los seleccionados" });

  // «Seleccionar todos los de esta página» is a link: it works without JavaScript too.
  await acciones.getByRole("link", { name: "Seleccionar todos los de esta página" }).click();
  await expect(casilla("Soria")).toBeChecked();
  await expect(casilla("Teruel")).toBeChecked();
  await acciones.getByRole("button", { name: "Rechazar los viajes seleccionados" }).click();
  const resumen = acciones.getByRole("alert");
  await expect(resumen.getByRole("heading", { name: "Hay 1 error" })).toBeVisible();
  await expect(resumen.getByRole("link", { name: "Escriba el motivo del rechazo" })).toBeVisible();
  await expect(acciones.getByLabel(/Motivo del rechazo/)).toHaveAccessibleDescription(/Escriba el motivo del rechazo/);
  await expect(casilla("Soria")).toBeChecked();
  await expect(casilla("Teruel")).toBeChecked();
  await expectNoAxeViolations(page);
  for (const viaje of [soria, teruel]) expect((await estadosDe(viaje)).map((g) => g.estado)).toEqual(["pendiente"]);

  // Only Teruel is rejected, with the motivo; then Soria is approved.
  await casilla("Soria").uncheck();
  await acciones.getByLabel(/Motivo del rechazo/).fill("Sin visita de clientes ese día");
  await acciones.getByRole("button", { name: "Rechazar los viajes seleccionados" }).click();
  await expect(flash(page)).toContainText("Se ha rechazado 1 viaje.");
  await expect(flash(page)).toContainText(`Rechazado: Teruel, ${fecha}.`);
  await expect(casilla("Teruel")).toHaveCount(0);
  await casilla("Soria").check();
  await acciones.getByRole("button", { name: "Aprobar los viajes seleccionados" }).click();
  await expect(flash(page)).toContainText("Se ha aprobado 1 viaje.");
  expect(await estadosDe(teruel)).toEqual([{ estado: "rechazado", motivo_rechazo: "Sin visita de clientes ese día" }]);
  expect((await estadosDe(soria)).map((g) => g.estado)).toEqual(["aprobado"]);
});
