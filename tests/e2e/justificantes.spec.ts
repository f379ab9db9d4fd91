import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { as, expect, expectNoAxeViolations, jsEnabled, pressUntilFocused, unique } from "./support";
import {
  abrirGasto,
  centimosAlAzar,
  crearGasto,
  completarYCrear,
  flash,
  justificantePng,
  NUEVO_GASTO,
  pageAs,
  panelGasto,
  transicion,
} from "./support-registros";

/**
 * Receipts, JS on and off (the two projects), with the production rule
 * (JUSTIFICANTE_OBLIGATORIO_DESDE=0: always required): attach while creating, thumbnails in the
 * panel, the approver opens the file and approves; no receipt, no sending; a duplicate warns.
 * The files are made here with sharp (no binary fixtures).
 */
const test = as("empleado");

const region = (page: Page, folio: string) => panelGasto(page, folio).getByRole("region", { name: /^Justificantes/ });

test("crear con dos justificantes, ver las miniaturas y enviar; el aprobador lo ve en el panel, lo amplía y aprueba", async ({
  page,
  browser,
}) => {
  const descripcion = unique("Cena con justificantes");
  const ticket = await justificantePng(`ticket-${unique("cena")}.png`);
  const [r, g, b] = randomBytes(3);
  const jpeg = await sharp({ create: { width: 120, height: 90, channels: 3, background: { r: r!, g: g!, b: b! } } })
    .jpeg()
    .toBuffer();
  const factura = { name: `factura-${unique("f")}.jpg`, mimeType: "image/jpeg", buffer: jpeg };
  const folio = await crearGasto(page, {
    descripcion,
    centimos: centimosAlAzar(),
    justificantes: [ticket, factura],
  });
  await expect(flash(page)).toContainText("2 justificantes adjuntados.");

  const justificantes = region(page, folio);
  await expect(justificantes.getByRole("heading", { name: "Justificantes (2)" })).toBeVisible();
  for (const nombre of [ticket.name, factura.name]) {
    const img = justificantes.getByRole("img", { name: nombre });
    await expect(img).toBeVisible();
    // The thumbnail is served (a WebP made by the server, not the file sent).
    const src = await img.getAttribute("src");
    const r = await page.request.get(src!);
    expect([r.status(), r.headers()["content-type"]]).toEqual([200, "image/webp"]);
  }
  // The list's paperclip says how many, in words for screen readers.
  await page.goto(`/gastos?vista=mios&q=${encodeURIComponent(folio)}`);
  await expect(page.getByRole("table").getByText("2 justificantes")).toBeAttached();
  await page.getByRole("table").getByRole("link", { name: folio, exact: true }).click();
  await expect(panelGasto(page, folio)).toBeVisible();
  await expectNoAxeViolations(page);
  await transicion(page, folio, "Enviar a aprobación", `Gasto ${folio} enviado a aprobación.`);
  // Sent: no more attaching or removing.
  await expect(region(page, folio).getByLabel("Adjuntar justificantes")).toHaveCount(0);
  await expect(region(page, folio).getByRole("link", { name: /^Quitar/ })).toHaveCount(0);

  const pablo = await pageAs(browser, "aprobador");
  const panel = await abrirGasto(pablo, folio, "pendientes");
  const suyo = region(pablo, folio);
  await expect(suyo.getByRole("img", { name: ticket.name })).toBeVisible();
  // The thumbnail opens the receipt in the panel, beside the gasto's data, larger by steps.
  await suyo.getByRole("link", { name: ticket.name, exact: true }).click();
  const visor = suyo.getByRole("region", { name: `Justificante «${ticket.name}»` });
  const marco = visor.getByRole("group", { name: `${ticket.name} al 100 %` });
  await expect(marco.getByRole("img", { name: ticket.name })).toBeVisible();
  const ancho = (await marco.getByRole("img").boundingBox())!.width;
  await visor.getByRole("link", { name: "Ampliar" }).click();
  await expect(visor.getByRole("group", { name: `${ticket.name} al 150 %` })).toBeVisible();
  expect((await visor.getByRole("img", { name: ticket.name }).boundingBox())!.width).toBeGreaterThan(ancho * 1.4);
  await expectNoAxeViolations(pablo);
  const href = await visor.getByRole("link", { name: "Abrir el archivo" }).getAttribute("href");
  const archivo = await pablo.request.get(href!);
  expect(archivo.status()).toBe(200);
  expect(archivo.headers()).toMatchObject({
    "content-type": "image/png",
    "x-content-type-options": "nosniff",
    "cache-control": "private, no-store",
  });
  expect(archivo.headers()["content-disposition"]).toContain(`inline; filename="${ticket.name}"`);
  await visor.getByRole("link", { name: "Cerrar el visor" }).click();
  await expect(visor).toHaveCount(0);
  await panel.getByRole("region", { name: "Acciones" }).getByRole("button", { name: "Aprobar", exact: true }).click();
  await expect(flash(pablo)).toContainText(`Gasto ${folio} aprobado`);
  await pablo.context().close();
});

test("sin justificante no se envía: el mensaje lleva al campo; adjuntado en el panel, sí; un archivo malo se nombra", async ({
  page,
}, testInfo) => {
  const folio = await crearGasto(page, {
    descripcion: unique("Taxi sin ticket"),
    centimos: centimosAlAzar(),
    justificantes: [],
  });
  await expect(region(page, folio).getByText("Este gasto no tiene justificantes.")).toBeVisible();
  await transicion(page, folio, "Enviar a aprobación", "Adjunte el justificante (ticket o factura) antes de enviar");
  await expect(panelGasto(page, folio).getByRole("heading", { level: 2, name: /^Gasto GAS-/ })).toContainText(
    "Borrador",
  );
  await flash(page).getByRole("link", { name: "Adjuntar el justificante" }).click();
  await expect(page).toHaveURL(/#justificantes-archivos$/);

  // A web page renamed .jpg is refused by its content, named, and nothing is attached.
  const campo = region(page, folio).getByLabel("Adjuntar justificantes");
  await campo.setInputFiles([
    { name: "ticket-falso.jpg", mimeType: "image/jpeg", buffer: Buffer.from("<html><script>alert(1)</script>") },
  ]);
  // With JavaScript the chosen files are listed before sending.
  if (jsEnabled(testInfo.project.name))
    await expect(region(page, folio).getByRole("list", { name: "Archivos elegidos" })).toContainText(
      "ticket-falso.jpg",
    );
  await region(page, folio).getByRole("button", { name: "Adjuntar", exact: true }).click();
  await expect(flash(page)).toContainText("No se ha adjuntado ningún archivo.");
  await expect(flash(page)).toContainText("«ticket-falso.jpg» no se ha adjuntado:");
  await expect(region(page, folio).getByText("Este gasto no tiene justificantes.")).toBeVisible();

  const ticket = await justificantePng();
  await region(page, folio).getByLabel("Adjuntar justificantes").setInputFiles(ticket);
  await region(page, folio).getByRole("button", { name: "Adjuntar", exact: true }).click();
  await expect(flash(page)).toContainText("Justificante adjuntado.");
  await expect(region(page, folio).getByRole("img", { name: ticket.name })).toBeVisible();
  await transicion(page, folio, "Enviar a aprobación", `Gasto ${folio} enviado a aprobación.`);
});

test("el mismo ticket en otro gasto: aviso con enlace al primero; se adjunta igualmente", async ({ page }) => {
  const ticket = await justificantePng(`repetido-${unique("t")}.png`);
  const primero = await crearGasto(page, {
    descripcion: unique("Parking"),
    centimos: centimosAlAzar(),
    justificantes: [ticket],
  });
  const segundo = await crearGasto(page, {
    descripcion: unique("Parking otra vez"),
    centimos: centimosAlAzar(),
    justificantes: [ticket],
  });
  await expect(flash(page)).toContainText(`«${ticket.name}» ya está adjunto a otro gasto (${primero})`);
  await expect(region(page, segundo).getByRole("img", { name: ticket.name })).toBeVisible();
  // The panel keeps saying it beside the receipt, and how to go on: a reason when sending, or remove it.
  await expect(region(page, segundo).getByText("también está en")).toBeVisible();
  await expect(region(page, segundo).getByRole("link", { name: primero, exact: true })).toBeVisible();
  await expect(region(page, segundo).getByText(/se le pedirá el motivo/)).toBeVisible();
  await expect(flash(page).getByRole("link", { name: `Ver el gasto ${primero}` })).toBeVisible();
  await expectNoAxeViolations(page);

  // Sending asks for the reason (required; the database refuses without it, integration-tested),
  // and the reason goes to the history.
  const acciones = panelGasto(page, segundo).getByRole("region", { name: "Acciones" });
  await expect(acciones.getByLabel(/^Motivo del duplicado/)).toBeVisible();
  await acciones.getByLabel(/^Motivo del duplicado/).fill("Ticket compartido: cada uno paga su parte");
  await transicion(page, segundo, "Enviar a aprobación", `Gasto ${segundo} enviado a aprobación.`);
  await expect(
    panelGasto(page, segundo)
      .getByRole("region", { name: "Historial de cambios" })
      .getByText("Ticket compartido: cada uno paga su parte"),
  ).toBeVisible();

  // The warning's link opens the first gasto.
  await region(page, segundo).getByRole("link", { name: primero, exact: true }).click();
  await expect(panelGasto(page, primero)).toBeVisible();
});

test("«Nuevo gasto» rechazado con un justificante elegido: el campo sigue con él o dice cuál volver a elegir; el gasto se crea con él", async ({
  page,
}, testInfo) => {
  const js = jsEnabled(testInfo.project.name);
  // With JavaScript, refused by the server, as when the browser's own checks have not arrived yet
  // (their chunk is kept from loading) or a check only the server makes: the path that reloaded
  // the page and emptied the field.
  if (js) await page.route(/\/build\/_shared\/validacion-en-vivo-/, (ruta) => ruta.abort());
  await page.goto(NUEVO_GASTO);
  const form = page.getByRole("region", { name: "Nuevo gasto" });
  const ticket = await justificantePng();
  await form.getByLabel("Justificantes").setInputFiles(ticket);
  // With JavaScript the field lists what it holds, even when chosen before the page's script ran.
  if (js) await expect(form.getByRole("list", { name: "Archivos elegidos" })).toContainText(ticket.name);
  // No description, no amount: refused, nothing created.
  await form.getByRole("button", { name: "Crear gasto" }).click();
  await expect(form.getByRole("alert").getByRole("heading", { name: /^Hay (1 error|\d+ errores)$/ })).toBeVisible();
  const otraVez = `No se ha guardado «${ticket.name}»: vuelva a elegirlo antes de crear el gasto.`;
  const aviso = form.getByText(otraVez);
  if (js) {
    // The field still holds it: nothing to choose again, here or in the summary.
    await expect(form.getByRole("list", { name: "Archivos elegidos" })).toContainText(ticket.name);
    await expect(aviso).toHaveCount(0);
  } else {
    // A page rendered again holds no chosen file: the field names the one to choose again, and
    // the summary leads to it.
    await expect(aviso).toHaveCount(2);
    await expect(form.getByRole("alert").getByRole("link", { name: otraVez })).toHaveAttribute(
      "href",
      "#nuevo-justificantes",
    );
    await expect(form.getByLabel("Justificantes")).toHaveAccessibleDescription(new RegExp(`«${ticket.name}»`));
    await form.getByLabel("Justificantes").setInputFiles(ticket);
  }
  // Completed and sent again, the gasto is created with the receipt chosen before the refusal.
  const folio = await completarYCrear(page, {
    descripcion: unique("Rechazado y completado"),
    centimos: centimosAlAzar(),
    justificantes: [],
  });
  await expect(region(page, folio)).toContainText(ticket.name);
});

test("con el teclado: adjuntar en el panel y quitar con su paso de confirmación", async ({ page }) => {
  const folio = await crearGasto(page, {
    descripcion: unique("Teclado ticket"),
    centimos: centimosAlAzar(),
    justificantes: [],
  });
  const justificantes = region(page, folio);
  const campo = justificantes.getByLabel("Adjuntar justificantes");
  await pressUntilFocused(page, campo);
  // The file chooser is the operating system's: the file is handed to the focused input.
  const ticket = await justificantePng();
  await campo.setInputFiles(ticket);
  await pressUntilFocused(page, justificantes.getByRole("button", { name: "Adjuntar", exact: true }));
  await page.keyboard.press("Enter");
  await expect(flash(page)).toContainText("Justificante adjuntado.");

  await pressUntilFocused(page, region(page, folio).getByRole("link", { name: `Quitar «${ticket.name}»…` }));
  await page.keyboard.press("Enter");
  const confirmar = page.getByRole("region", { name: `¿Quitar el justificante «${ticket.name}»?` });
  await expect(confirmar).toBeVisible();
  await pressUntilFocused(page, confirmar.getByRole("button", { name: "Sí, quitar" }));
  await page.keyboard.press("Enter");
  await expect(flash(page)).toContainText(`Justificante «${ticket.name}» quitado.`);
  await expect(region(page, folio).getByText("Este gasto no tiene justificantes.")).toBeVisible();
});
