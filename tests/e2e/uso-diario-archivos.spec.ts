import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { as, expect, expectNoAxeViolations, jsEnabled, unique } from "./support";
import {
  centimosAlAzar,
  crearGasto,
  flash,
  importeTecleado,
  justificantePng,
  NUEVO_GASTO,
  panelGasto,
  type Justificante,
} from "./support-registros";

/**
 * Issue 31, a file over 10 MB: it never costs the rest of the form. The gasto is created (or the
 * panel stays) with the other fields and files, and the refused file is named with its reason;
 * with JavaScript, a photo over the limit is made smaller in the browser before it is sent.
 */
const empleado = as("empleado");

const MB = 1024 * 1024;

/** A phone-sized photo over 10 MB: random pixels, which no PNG compresses. */
async function fotoGrande(): Promise<Justificante> {
  const width = 2200;
  const height = 2000;
  const buffer = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
  expect(buffer.length).toBeGreaterThan(10 * MB);
  return { name: `foto-movil-${unique("").trim()}.png`, mimeType: "image/png", buffer };
}

/** A scanned PDF over 10 MB: not an image, so nothing in the browser can make it smaller. */
function pdfGrande(): Justificante {
  const buffer = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(11 * MB, 0x20), Buffer.from("\n%%EOF\n")]);
  return { name: `factura-escaneada-${unique("").trim()}.pdf`, mimeType: "application/pdf", buffer };
}

const nuevoGasto = (page: Page) => page.getByRole("region", { name: "Nuevo gasto" });

empleado(
  "«Nuevo gasto» con un archivo de más de 10 MB: el gasto se crea con lo demás y el archivo rechazado se nombra",
  async ({ page }, testInfo) => {
    const js = jsEnabled(testInfo.project.name);
    const pequeno = await justificantePng();
    const foto = await fotoGrande();
    const pdf = pdfGrande();
    const descripcion = unique("Con foto grande");

    await page.goto(NUEVO_GASTO);
    const form = nuevoGasto(page);
    await form.getByLabel("Descripción").fill(descripcion);
    await form.getByLabel("Categoría").selectOption({ label: "Comidas" });
    await form.getByLabel("Importe (obligatorio)").fill(importeTecleado(centimosAlAzar()));
    await form.getByLabel("Método de pago").selectOption({ label: "Tarjeta corporativa" });
    await form.getByLabel("Justificantes").setInputFiles([pequeno, foto, pdf]);
    const fotoJpg = foto.name.replace(/\.png$/, ".jpg");
    if (js) {
      // Made smaller here, before anything is sent; the PDF cannot be, and says so.
      const elegidos = form.getByRole("list", { name: "Archivos elegidos" });
      await expect(elegidos).toContainText(`${fotoJpg} ·`);
      await expect(elegidos).toContainText("reducida desde");
      await expect(elegidos.getByRole("listitem").filter({ hasText: pdf.name })).toContainText(
        "ocupa más de 10 MB: no se adjuntará",
      );
    }
    await form.getByRole("button", { name: "Crear gasto" }).click();

    await expect(flash(page)).toContainText(/Gasto creado: GAS-\d{4}-\d{5}/);
    const folio = /GAS-\d{4}-\d{5}/.exec(await flash(page).innerText())![0];
    await expect(flash(page)).toContainText(`«${pdf.name}» no se ha adjuntado: ocupa más de 10 MB`);
    const justificantes = panelGasto(page, folio).getByRole("region", { name: /^Justificantes/ });
    await expect(panelGasto(page, folio).getByRole("region", { name: "Datos" }).getByLabel("Descripción")).toHaveValue(
      descripcion,
    );
    await expect(justificantes.getByText(pequeno.name)).toBeAttached();
    if (js) {
      await expect(flash(page)).toContainText("2 justificantes adjuntados.");
      await expect(justificantes.getByRole("heading", { name: "Justificantes (2)" })).toBeVisible();
      await expect(justificantes.getByText(fotoJpg)).toBeAttached();
    } else {
      // Without JavaScript the photo goes as it is: refused by name, with how to make it smaller.
      await expect(flash(page)).toContainText("Justificante adjuntado.");
      await expect(flash(page)).toContainText(`«${foto.name}» no se ha adjuntado: ocupa más de 10 MB`);
      await expect(flash(page)).toContainText("hágala más pequeña");
      await expect(justificantes.getByRole("heading", { name: "Justificantes (1)" })).toBeVisible();
    }
    await expectNoAxeViolations(page);
  },
);

empleado(
  "adjuntar en la ficha un archivo de más de 10 MB: la ficha sigue ahí y dice cuál y por qué",
  async ({ page }) => {
    const folio = await crearGasto(page, { descripcion: unique("Ficha y PDF grande"), centimos: centimosAlAzar() });
    const pdf = pdfGrande();
    const justificantes = panelGasto(page, folio).getByRole("region", { name: /^Justificantes/ });
    await justificantes.getByLabel("Adjuntar justificantes").setInputFiles(pdf);
    await justificantes.getByRole("button", { name: "Adjuntar", exact: true }).click();
    await expect(flash(page)).toContainText(`«${pdf.name}» no se ha adjuntado: ocupa más de 10 MB`);
    await expect(justificantes.getByRole("heading", { name: "Justificantes (1)" })).toBeVisible();
    await expect(page.getByRole("banner").getByRole("navigation")).toBeVisible();
  },
);
