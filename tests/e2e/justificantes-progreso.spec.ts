import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { as, expect, expectNoAxeViolations, jsEnabled, paginaQueDibuja, unique } from "./support";
import { centimosAlAzar, crearGasto, flash, importeTecleado, NUEVO_GASTO, panelGasto } from "./support-registros";

/**
 * Large receipts: with JavaScript, a preview of the chosen images and, for files of
 * some size, the upload sent by XMLHttpRequest with a progress bar, ending exactly where the
 * ordinary submission ends; without JavaScript, no progress bar and the same result.
 */
const test = as("empleado");

const region = (page: Page, folio: string) => panelGasto(page, folio).getByRole("region", { name: /^Justificantes/ });

/** A PNG of random pixels, stored uncompressed: about 3 MB that the server accepts. */
async function pngGrande(name: string) {
  const [width, height] = [1000, 1000];
  const buffer = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  return { name, mimeType: "image/png", buffer };
}

/**
 * Records in the page every progress bar that appears (its label and value), from the start of
 * each document: an upload over the loopback may be over before an assertion could look.
 */
async function registrarProgreso(page: Page) {
  await page.addInitScript(() => {
    const vistos: { etiqueta: string; valor: number }[] = [];
    (window as unknown as { progresos: typeof vistos }).progresos = vistos;
    new MutationObserver(() => {
      for (const p of document.querySelectorAll("progress"))
        vistos.push({ etiqueta: p.labels?.[0]?.textContent ?? "", valor: p.value });
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["value"] });
  });
}
const progresos = (page: Page) =>
  page.evaluate(() => (window as unknown as { progresos: { etiqueta: string; valor: number }[] }).progresos);

/** The POSTs the page makes from now on: how (xhr, fetch, document), where, and to which route's data. */
function posts(page: Page) {
  const vistos: string[] = [];
  page.on("request", (r) => {
    if (r.method() !== "POST") return;
    const url = new URL(r.url());
    const ruta = url.searchParams.get("_data");
    vistos.push(`${r.resourceType()} ${url.pathname}${ruta ? ` ${ruta}` : ""}`);
  });
  return vistos;
}

/** The open gasto's id, from its panel's attach form. */
const gastoId = async (page: Page, folio: string) =>
  /\/gastos\/([0-9a-f-]{36})\/justificantes/.exec(
    (await panelGasto(page, folio).locator("form.adjuntar").getAttribute("action")) ?? "",
  )![1];

/** Uploads at about 1 MB/s (Chromium's network emulation), so the bar stays long enough to be seen. */
async function subidaLenta(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 1024 * 1024,
  });
}

test("crear con un justificante de varios MB: vista previa, barra de progreso y el gasto queda con él", async ({
  page,
}, testInfo) => {
  const js = jsEnabled(testInfo.project.name);
  const ticket = await pngGrande(`ticket-grande-${unique("t").replace(" ", "-")}.png`);
  await registrarProgreso(page);
  await page.goto(NUEVO_GASTO);
  const form = page.getByRole("region", { name: "Nuevo gasto" });
  await form.getByLabel("Descripción").fill(unique("Hotel con factura escaneada"));
  await form.getByLabel("Categoría").selectOption({ label: "Alojamiento" });
  await form.getByLabel("Importe (obligatorio)").fill(importeTecleado(centimosAlAzar()));
  await form.getByLabel("Método de pago").selectOption({ label: "Tarjeta corporativa" });
  await form.getByLabel("Justificantes").setInputFiles(ticket);
  if (js) {
    // The chosen image is previewed (its alt is the file name), with its size.
    const elegidos = form.getByRole("list", { name: "Archivos elegidos" });
    await expect(elegidos.getByRole("img", { name: ticket.name })).toBeVisible();
    // A small thumbnail drawn in the page (the CSP allows data: images only), really decoded.
    const vista = elegidos.getByRole("img", { name: ticket.name });
    expect(await vista.getAttribute("src")).toMatch(/^data:image\//);
    expect(await vista.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96);
    await expect(elegidos).toContainText(/MB/);
    await expectNoAxeViolations(page);
    await subidaLenta(page);
  }
  const envios = posts(page);
  // The POST's answer itself: the slowed upload's seconds are the journey's, not one assertion's.
  const respuesta = page.waitForResponse((r) => r.request().method() === "POST");
  await form.getByRole("button", { name: "Crear gasto" }).click();
  // The bar, labelled, while the file goes up.
  if (js) await expect(form.getByRole("progressbar", { name: "Enviando los archivos" })).toBeVisible();

  await respuesta;
  await expect(flash(page)).toContainText(/Gasto creado: GAS-\d{4}-\d{5}/);
  await expect(flash(page)).toContainText("Justificante adjuntado.");
  const folio = /GAS-\d{4}-\d{5}/.exec(await flash(page).innerText())![0];
  await expect(region(page, folio).getByRole("img", { name: ticket.name })).toBeVisible();
  const vistos = await progresos(page);
  // With JavaScript, one XMLHttpRequest to the route's data endpoint; without, the form itself.
  expect(envios).toEqual([js ? "xhr /gastos routes/gastos._index" : "document /gastos"]);
  if (js) {
    expect(vistos.some((p) => p.etiqueta === "Enviando los archivos" && p.valor > 0 && p.valor < 100)).toBe(true);
    // The new gasto's form starts again with nothing chosen and no bar.
    await expect(page.locator("progress")).toHaveCount(0);
  } else expect(vistos).toEqual([]);
});

test("un archivo grande que no es una imagen válida: rechazado con su nombre y el motivo, nada adjuntado", async ({
  page,
}, testInfo) => {
  const js = jsEnabled(testInfo.project.name);
  const folio = await crearGasto(page, {
    descripcion: unique("Factura dañada"),
    centimos: centimosAlAzar(),
    justificantes: [],
  });
  await registrarProgreso(page);
  await page.reload();
  // JPEG's first bytes, then 2 MB of noise: detected as JPEG, refused as not ending as one.
  const roto = {
    name: "ticket-roto.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2 * 1024 * 1024)]),
  };
  await region(page, folio).getByLabel("Adjuntar justificantes").setInputFiles(roto);
  const envios = posts(page);
  await region(page, folio).getByRole("button", { name: "Adjuntar", exact: true }).click();
  await expect(flash(page)).toContainText("No se ha adjuntado ningún archivo.");
  await expect(flash(page)).toContainText("«ticket-roto.jpg» no se ha adjuntado:");
  await expect(region(page, folio).getByText("Este gasto no tiene justificantes.")).toBeVisible();
  await expect(page.locator("progress")).toHaveCount(0);
  const vistos = await progresos(page);
  const ruta = `/gastos/${await gastoId(page, folio)}/justificantes`;
  expect(envios).toEqual([js ? `xhr ${ruta} routes/gastos.$id.justificantes` : `document ${ruta}`]);
  if (js) expect(vistos.some((p) => p.etiqueta === "Enviando los archivos")).toBe(true);
  else expect(vistos).toEqual([]);
});

test("subida grande a un gasto que ya no está en borrador: el mismo error que sin barra de progreso", async ({
  page,
}, testInfo) => {
  const folio = await crearGasto(page, { descripcion: unique("Enviado en otra pestaña"), centimos: centimosAlAzar() });
  const panel = panelGasto(page, folio);
  await expect(region(page, folio).getByLabel("Adjuntar justificantes")).toBeVisible();
  // Sent for approval from another tab while this one still offers «Adjuntar».
  const otra = await paginaQueDibuja(page.context());
  await otra.goto(page.url());
  await panelGasto(otra, folio)
    .getByRole("region", { name: "Acciones" })
    .getByRole("button", { name: "Enviar a aprobación", exact: true })
    .click();
  await expect(flash(otra)).toContainText(`Gasto ${folio} enviado a aprobación.`);
  await otra.close();

  const ruta = `/gastos/${await gastoId(page, folio)}/justificantes`;
  await region(page, folio)
    .getByLabel("Adjuntar justificantes")
    .setInputFiles(await pngGrande("tarde.png"));
  const envios = posts(page);
  await panel.getByRole("button", { name: "Adjuntar", exact: true }).click();
  // The site's error page, with or without JavaScript (never the refusal's bare JSON).
  await expect(page.getByRole("heading", { name: "No tiene permiso" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Volver al inicio" })).toBeVisible();
  await expect(
    page.getByText("Los justificantes solo se pueden añadir o quitar mientras el gasto está en borrador."),
  ).toBeVisible();
  // With JavaScript the refusal comes to the XMLHttpRequest, and the form is then sent the
  // ordinary way (Remix's own request), which shows the page it shows without the bar.
  expect(envios).toEqual(
    jsEnabled(testInfo.project.name)
      ? [`xhr ${ruta} routes/gastos.$id.justificantes`, `fetch ${ruta} routes/gastos.$id.justificantes`]
      : [`document ${ruta}`],
  );
});
