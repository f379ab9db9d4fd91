import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { E2E_DATA_DIR } from "./entorno";
import { enLaBaseDeDatos } from "./support-base-de-datos";
import { ACCOUNTS, as, expect, expectNoAxeViolations, pressUntilFocused, unique } from "./support";
import { centimosAlAzar, gastosPendientes, pageAs } from "./support-registros";

/**
 * Avisos as people meet them, JS on and off: the header's «Avisos (N)», the
 * list, marking read, the link to the gasto, the mail (the development outbox), and the
 * preferences, by keyboard. Every test works on its own gastos; the two projects change
 * different preferences, so they never undo each other.
 */
const aprobador = as("aprobador");
const empleado = as("empleado");
const administrador = as("administrador");

/** What the development outbox holds for `email` (DATA_DIR/correo/<email>.txt). */
function mailbox(email: string) {
  const file = path.resolve(E2E_DATA_DIR, "correo", `${email}.txt`);
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

aprobador(
  "un gasto enviado: «Avisos (N sin leer)» en la cabecera, el aviso en la lista, su ficha, marcarlo leído y el correo",
  async ({ page }) => {
    const descripcion = unique("Aviso de envío");
    const [folio] = await gastosPendientes([{ descripcion, centimos: centimosAlAzar() }]);

    await page.goto("/");
    const enlace = page.getByRole("banner").getByRole("link", { name: /^Avisos \(\d+ sin leer\)$/ });
    await expect(enlace).toBeVisible();
    await enlace.click();
    await expect(page).toHaveURL("/avisos");
    await expect(page.getByRole("heading", { level: 1, name: "Avisos" })).toBeVisible();
    await expect(page.getByText(/^\d+ avisos? sin leer de \d+\.$/)).toBeVisible();

    const aviso = page.getByRole("listitem").filter({ hasText: folio! });
    await expect(aviso).toContainText("Sin leer");
    await expect(aviso).toContainText(`${folio} «${descripcion}»`);
    await expect(aviso).toContainText("espera su aprobación: lo envió Elena");
    await expectNoAxeViolations(page);

    await aviso.getByRole("button", { name: `Marcar como leído: ${folio}` }).click();
    await expect(page.getByText("Aviso marcado como leído.")).toBeVisible();
    const leido = page.getByRole("listitem").filter({ hasText: folio! });
    await expect(leido).not.toContainText("Sin leer");
    await expect(leido.getByRole("button")).toHaveCount(0);

    await leido.getByRole("link", { name: new RegExp(folio!) }).click();
    await expect(page).toHaveURL(/\/gastos\?gasto=[0-9a-f-]{36}/);
    await expect(page.getByRole("heading", { name: new RegExp(`Gasto ${folio}`) })).toBeVisible();

    // The mail: subject, the link straight to the record, and where to change preferences. Its
    // own, or one with the avisos of the same pass (the other project runs this at the same time).
    const suCorreo = () =>
      mailbox(ACCOUNTS.aprobador)
        .split("---")
        .find((m) => m.includes(`${folio} «`));
    await expect.poll(suCorreo, { timeout: 20_000 }).toBeTruthy();
    const correo = suCorreo()!;
    expect(correo).toMatch(new RegExp(`^Asunto: (${folio} espera su aprobación|\\d+ avisos de sus gastos)`, "m"));
    expect(correo).toMatch(new RegExp(`${folio} «[^»]*» \\([^)]*\\) espera su aprobación`));
    expect(correo).toMatch(/\/gastos\?gasto=[0-9a-f-]{36}/);
    expect(correo).toContain("/avisos/preferencias");
  },
);

empleado("preferencias de avisos con el teclado: elegir «Solo en la aplicación» y guardar", async ({ page }, info) => {
  // Each project changes its own kind of aviso: both run at once against the same account.
  const tipo = info.project.name === "sin-js" ? "Se revierte la aprobación de su gasto" : "Su gasto se paga";
  await page.goto("/avisos");
  await pressUntilFocused(page, page.getByRole("link", { name: "Preferencias de avisos" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL("/avisos/preferencias");
  await expect(page.getByRole("heading", { level: 1, name: "Preferencias de avisos" })).toBeVisible();
  const grupo = page.getByRole("group", { name: tipo });
  await expect(grupo.getByRole("radio", { name: "Por correo y en la aplicación" })).toBeChecked();
  // An empleado is not offered the daily digest (it is for whoever approves).
  await expect(page.getByLabel("Resumen diario de gastos pendientes de aprobar")).toHaveCount(0);
  await expectNoAxeViolations(page);

  await pressUntilFocused(page, grupo.getByRole("radio", { name: "Por correo y en la aplicación" }));
  await page.keyboard.press("ArrowDown");
  await expect(grupo.getByRole("radio", { name: "Solo en la aplicación" })).toBeChecked();
  await pressUntilFocused(page, page.getByRole("button", { name: "Guardar preferencias" }));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Preferencias de avisos guardadas.")).toBeVisible();
  await expect(
    page.getByRole("group", { name: tipo }).getByRole("radio", { name: "Solo en la aplicación" }),
  ).toBeChecked();

  // Back as it was, for the next run.
  await page.getByRole("group", { name: tipo }).getByRole("radio", { name: "Por correo y en la aplicación" }).check();
  await page.getByRole("button", { name: "Guardar preferencias" }).click();
  await expect(page.getByText("Preferencias de avisos guardadas.")).toBeVisible();
});

// The administrador (not Pablo, whose mails the first test reads): a digest would hold back his.
administrador("quien aprueba puede pedir el resumen diario en lugar de un correo por gasto", async ({ page }, info) => {
  administrador.skip(info.project.name === "sin-js", "una sola cuenta: lo prueba un proyecto");
  await page.goto("/avisos/preferencias");
  const hora = page.getByLabel("Resumen diario de gastos pendientes de aprobar");
  await expect(hora).toHaveValue("");
  await hora.selectOption({ label: "Cada día a las 08:00" });
  await page.getByRole("button", { name: "Guardar preferencias" }).click();
  await expect(page.getByText("Preferencias de avisos guardadas.")).toBeVisible();
  await expect(page.getByLabel("Resumen diario de gastos pendientes de aprobar")).toHaveValue("8");
  await page.getByLabel("Resumen diario de gastos pendientes de aprobar").selectOption({ label: "Sin resumen diario" });
  await page.getByRole("button", { name: "Guardar preferencias" }).click();
  await expect(page.getByLabel("Resumen diario de gastos pendientes de aprobar")).toHaveValue("");
});

administrador(
  "correos no entregados: el panel lo dice; el administrador ve por qué y reintenta uno; el reintento lo entrega",
  async ({ page }) => {
    // The gasto is created and sent in another browser first (as above).
    const descripcion = unique("Correo rechazado");
    const [folio] = await gastosPendientes([{ descripcion, centimos: centimosAlAzar() }]);
    // The mail to Pablo, refused for good by the mail server (whether or not it went out already).
    const error = unique("550 5.2.2 Buzón lleno");
    const marcados = await enLaBaseDeDatos(
      `update interno.correos c set estado = 'fallido', intentos = 8, ultimo_error = $2, enviado_en = null,
              reclamado_hasta = null
         from public.avisos a
        where a.id = c.aviso_id and a.tipo = 'enviado' and a.datos ->> 'folio' = $1
       returning c.id`,
      [folio, error],
    );
    expect(marcados).toHaveLength(1);

    // The home panel says there are some, and leads to them.
    await page.goto("/");
    await page.getByRole("link", { name: "Ver por qué, reintentar o descartar" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Correos no entregados" })).toBeVisible();
    const fila = page.getByRole("row").filter({ hasText: error });
    await expect(fila.getByRole("cell").nth(0)).toHaveText(ACCOUNTS.aprobador);
    await expect(fila.getByRole("cell").nth(1)).toHaveText(`Un gasto espera su aprobación (${folio})`);
    await expect(fila.getByRole("cell").nth(2)).toHaveText("8");
    // Why, in words to act on; the server's own words one key away.
    await expect(fila.getByRole("cell").nth(3)).toContainText(
      "El buzón del destinatario está lleno: reintente cuando lo haya vaciado.",
    );
    await expectNoAxeViolations(page);

    // This mail alone, by keyboard: its own «Reintentar».
    await pressUntilFocused(page, fila.getByRole("button", { name: new RegExp(`^Reintentar el correo .*${folio}`) }));
    await page.keyboard.press("Enter");
    await expect(page.getByText("1 correo se enviará de nuevo.")).toBeVisible();
    await expect(page).toHaveURL("/avisos/preferencias#fallidos");
    await expect(page.getByRole("row").filter({ hasText: error })).toHaveCount(0);

    // The worker takes it again and it leaves the outbox as sent.
    await expect
      .poll(
        async () =>
          (
            await enLaBaseDeDatos<{ estado: string }>("select estado from interno.correos where id = $1", [
              (marcados[0] as { id: string }).id,
            ])
          )[0]?.estado,
        { timeout: 20_000 },
      )
      .toBe("enviado");
  },
);

empleado(
  "quien no es administrador no ve los correos no entregados ni puede reintentarlos",
  async ({ page, baseURL }) => {
    await page.goto("/avisos/preferencias");
    await expect(page.getByRole("heading", { level: 1, name: "Preferencias de avisos" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Correos no entregados" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Reintentar todos" })).toHaveCount(0);
    const respuesta = await page.request.post("/avisos/preferencias", {
      form: { intent: "reintentar" },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
    expect(respuesta.status()).toBe(403);
  },
);

administrador(
  "leerlos uno a uno en la página 2: «Marcar como leído» vuelve a esa página, al aviso; una página que ya no existe lleva a la última",
  async ({ page: suPagina, browser }, info) => {
    // Each project its own account, so neither moves the other's avisos to another page; ours are
    // dated ahead, so the avisos other journeys make meanwhile go below them.
    const rol = info.project.name === "sin-js" ? "aprobador" : "administrador";
    const page = rol === "administrador" ? suPagina : await pageAs(browser, rol);
    const etiqueta = unique("Aviso en la página 2");
    const ids = await enLaBaseDeDatos<{ id: string; folio: string }>(
      `insert into avisos (destinatario_id, tipo, datos, creado_en)
       select u.id, 'enviado', jsonb_build_object('folio', $2 || '-' || n, 'descripcion', $2, 'importe', '12.50'),
              '2099-06-01'::timestamptz + n * interval '1 second'
         from usuarios u, generate_series(1, 60) n
        where u.email = $1
       returning id, datos->>'folio' as folio`,
      [ACCOUNTS[rol], etiqueta],
    );
    try {
      // Newest first: the 55th is the 5th of page 2.
      const objetivo = ids.find((a) => a.folio === `${etiqueta}-6`)!;
      await page.goto("/avisos?pagina=2");
      const boton = page.getByRole("button", { name: `Marcar como leído: ${objetivo.folio}` });
      await pressUntilFocused(page, boton);
      await page.keyboard.press("Enter");
      await expect(page.getByText("Aviso marcado como leído.")).toBeVisible();
      await expect(page).toHaveURL(`/avisos?pagina=2#aviso-${objetivo.id}`);
      const aviso = page.getByRole("listitem").filter({ hasText: `${objetivo.folio} «` });
      await expect(aviso).not.toContainText("Sin leer");
      await expect(aviso).toBeInViewport();

      await page.goto("/avisos?pagina=999");
      await expect(page).toHaveURL(/\/avisos\?pagina=\d+$/);
      const ultima = new URL(page.url()).searchParams.get("pagina");
      await expect(page.getByText(`Página ${ultima} de ${ultima}`)).toBeVisible();
      await expect(page.getByRole("listitem").first()).toBeVisible();
    } finally {
      await enLaBaseDeDatos("delete from avisos where id = any($1::uuid[])", [ids.map((a) => a.id)]);
    }
  },
);
