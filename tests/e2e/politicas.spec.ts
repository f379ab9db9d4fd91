import { departamentoEnLaBase, enLaBaseDeDatos } from "./support-base-de-datos";
import { ACCOUNTS, as, expect, expectNoAxeViolations, unique, uniqueCode } from "./support";
import { borradores, diaDeDieta, fechaES, flash, pageAs, panelGasto, transicion } from "./support-registros";

/**
 * A gasto outside its spending policy: its solicitante is told what it breaks before sending and
 * sends it with a motivo; the aprobador reads the breach and the motivo before approving. The
 * policy is of a department of this journey's own, so no other journey's gastos are outside it.
 */
const test = as("empleado");

test("un gasto que supera su límite se envía con un motivo, y el aprobador lo lee antes de aprobar", async ({
  page,
  browser,
}) => {
  const departamento = await departamentoEnLaBase(unique("Feria"), uniqueCode("F"));
  await enLaBaseDeDatos(
    "insert into politicas_gasto (categoria, departamento_id, maximo_por_gasto) values ('comidas', $1, 30.00)",
    [departamento],
  );
  const [gasto] = await borradores([
    { descripcion: unique("Cena de feria"), centimos: 4250, categoria: "Comidas", departamento },
  ]);
  const { id, folio } = gasto!;

  // Elena reads what it breaks where she sends it, and the motivo it asks for.
  await page.goto(`/gastos?gasto=${id}#gasto`);
  const acciones = panelGasto(page, folio).getByRole("region", { name: "Acciones" });
  await expect(acciones.getByText("Este gasto se sale de la política de gastos:")).toBeVisible();
  await expect(acciones.getByText("42,50 € en un gasto; el máximo por gasto es 30,00 € (12,50 € más).")).toBeVisible();
  const motivo = acciones.getByLabel(/^Motivo para salirse de la política/);
  await expect(motivo).toBeVisible();
  await expectNoAxeViolations(page);

  // Without the motivo nothing is sent: the field says why, in Spanish.
  await acciones.getByRole("button", { name: "Enviar a aprobación", exact: true }).click();
  await expect(
    acciones.getByRole("link", { name: /se sale de la política de gastos: .* Indique el motivo/ }),
  ).toBeVisible();
  await expect(panelGasto(page, folio).getByRole("heading", { name: new RegExp(`${folio} Borrador`) })).toBeVisible();

  await acciones
    .getByLabel(/^Motivo para salirse de la política/)
    .fill("Cena con el cliente: menú cerrado del recinto");
  await transicion(page, folio, "Enviar a aprobación", `Gasto ${folio} enviado a aprobación.`);

  // Pablo, before pressing «Aprobar»: the breach and the motivo, above the button.
  const pablo = await pageAs(browser, "aprobador");
  await pablo.goto(`/gastos?gasto=${id}#gasto`);
  const antes = panelGasto(pablo, folio).getByRole("region", { name: "Acciones" });
  await expect(antes.getByText("Antes de aprobar:")).toBeVisible();
  await expect(
    antes.getByText(
      "Fuera de la política de gastos: 42,50 € en un gasto; el máximo por gasto es 30,00 € (12,50 € más).",
    ),
  ).toBeVisible();
  await expect(
    antes.getByText("Motivo de quien lo envía: «Cena con el cliente: menú cerrado del recinto»."),
  ).toBeVisible();
  // And the list finds it with «Fuera de política».
  await pablo.goto(`/gastos?fuera_de_politica=si&q=${encodeURIComponent(folio)}`);
  await expect(pablo.getByRole("table").getByRole("link", { name: folio, exact: true })).toBeVisible();
  await pablo.goto(`/gastos?gasto=${id}#gasto`);
  await transicion(pablo, folio, "Aprobar", `Gasto ${folio} aprobado.`);
  await expect(flash(pablo)).toBeVisible();
  await pablo.context().close();
});

test("una dieta sin exención de IRPF se envía con un motivo, y el aprobador lo lee antes de aprobar", async ({
  page,
  browser,
}) => {
  // A trip to her own municipality: its dieta is not exempt, so all of it would be salary.
  const motivoViaje = unique("Feria en la ciudad");
  const [dieta] = await enLaBaseDeDatos<{ id: string; folio: string }>(
    `with elena as (select u.id, u.departamento_id, u.sucursal_id from usuarios u join auth.users a on a.id = u.id
                     where a.email = $1),
          v as (insert into viajes (solicitante_id, destino_municipio, motivo, salida, regreso, municipio_distinto)
                select id, 'Logroño', $2, $3::date + time '08:00', $3::date + time '20:00', false from elena
                returning id)
     insert into gastos (descripcion, fecha_gasto, categoria, metodo_pago, solicitante_id, departamento_id,
                         sucursal_id, clase, viaje_id)
     select 'Dieta de feria', $3::date, 'comidas', 'efectivo', e.id, e.departamento_id, e.sucursal_id, 'dieta', v.id
       from elena e, v
     returning id, folio`,
    [ACCOUNTS.empleado, motivoViaje, diaDeDieta(-2)],
  );
  const { id, folio } = dieta!;
  // Her lunch that day, already sent as an ordinary gasto: the dieta pays for it.
  const [comida] = await enLaBaseDeDatos<{ folio: string }>(
    `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id,
                         sucursal_id, estado, aprobador_id)
     select 'Menú en la feria', $2::date, 'comidas', 14.50, 'efectivo', u.id, u.departamento_id, u.sucursal_id,
            'pendiente', (select a.id from auth.users a where a.email = $3)
       from usuarios u join auth.users a on a.id = u.id where a.email = $1
     returning folio`,
    [ACCOUNTS.empleado, diaDeDieta(-2), ACCOUNTS.aprobador],
  );
  const fuera =
    "Todo sujeto a IRPF (Sin pernocta en España: exención no aplicable (viaje al municipio del centro de trabajo o de la residencia), 0,00 € exentos, 30,00 € sujetos a IRPF).";

  await page.goto(`/gastos?gasto=${id}#gasto`);
  const acciones = panelGasto(page, folio).getByRole("region", { name: "Acciones" });
  await expect(acciones.getByText(fuera)).toBeVisible();
  // Before sending, what asks for no motivo: the lunch the dieta already pays.
  await expect(acciones.getByText("Antes de enviarlo:")).toBeVisible();
  await expect(
    acciones.getByText(
      `Ese día (${fechaES(diaDeDieta(-2))}) tiene también una comida como gasto, ${comida!.folio}: la dieta ya paga las comidas del día.`,
    ),
  ).toBeVisible();
  await acciones.getByLabel(/^Motivo para salirse de la política/).fill("Jornada entera en el recinto ferial");
  await transicion(page, folio, "Enviar a aprobación", `Gasto ${folio} enviado a aprobación.`);

  const pablo = await pageAs(browser, "aprobador");
  await pablo.goto(`/gastos?gasto=${id}#gasto`);
  const antes = panelGasto(pablo, folio).getByRole("region", { name: "Acciones" });
  await expect(antes.getByText(`Fuera de la política de gastos: ${fuera}`)).toBeVisible();
  await expect(antes.getByText("Motivo de quien lo envía: «Jornada entera en el recinto ferial».")).toBeVisible();
  await expectNoAxeViolations(pablo);
  await pablo.context().close();
});

as("administrador")(
  "«Nueva política de gasto como esta»: la de un departamento, copiada para otro con sus límites",
  async ({ page }) => {
    const origen = await departamentoEnLaBase(unique("Formación A"), uniqueCode("FA"));
    const destinoNombre = unique("Formación B");
    const destino = await departamentoEnLaBase(destinoNombre, uniqueCode("FB"));
    const [politica] = await enLaBaseDeDatos<{ id: string }>(
      `insert into politicas_gasto (categoria, departamento_id, maximo_por_gasto, maximo_por_mes, antiguedad_maxima)
       values ('formacion', $1, 400.00, 1200.00, 60) returning id`,
      [origen],
    );
    await page.goto(`/politicas-gasto/${politica!.id}`);
    await page.getByRole("link", { name: "Nueva política de gasto como esta" }).click();
    const form = page.getByRole("region", { name: "Nueva política de gasto" });
    await expect(form.getByText("Con los datos de Formación, salvo el departamento.")).toBeVisible();
    await expect(form.getByLabel("Máximo por gasto")).toHaveValue("400,00");
    await expect(form.getByLabel("Máximo por mes")).toHaveValue("1200,00");
    await expect(form.getByLabel("Departamento")).toHaveValue("");
    await expectNoAxeViolations(page);
    await form.getByLabel("Departamento").selectOption({ label: destinoNombre });
    await form.getByRole("button", { name: "Crear política de gasto" }).click();
    await expect(flash(page)).toContainText("Política de gasto creada");
    const filas = await enLaBaseDeDatos<Record<string, string>>(
      `select categoria, maximo_por_gasto::text, maximo_por_mes::text, antiguedad_maxima::text
         from politicas_gasto where departamento_id = $1`,
      [destino],
    );
    expect(filas).toEqual([
      { categoria: "formacion", maximo_por_gasto: "400.00", maximo_por_mes: "1200.00", antiguedad_maxima: "60" },
    ]);
  },
);
