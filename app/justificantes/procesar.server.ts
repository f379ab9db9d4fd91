import { open, readFile, stat } from "node:fs/promises";
import { fileTypeFromFile } from "file-type";
import type { Metadata } from "sharp";
import { ColaLlena, colaDeTrabajo } from "./cola.server";
import { inspeccionarPdf } from "./pdf.server";

/**
 * What an uploaded file becomes before it is stored (ADR 0018): its type read from its content
 * (never its name or declared type), images decoded under a pixel limit, turned upright, stripped
 * of metadata (GPS, camera) and re-encoded, with a thumbnail; PDFs checked whole and kept as they
 * are. Anything else is refused with the reason a person can act on.
 */

export const TIPOS = ["image/jpeg", "image/png", "image/webp", "application/pdf"] as const;
export type Tipo = (typeof TIPOS)[number];
export const MAX_BYTES = 10 * 1024 * 1024;
/** A 48-megapixel phone photo fits; a decompression bomb (20 000 × 20 000) does not. */
export const MAX_PIXELES = 50_000_000;
/**
 * Receipts are read on a screen: 3 megapixels keep a ticket, a long till roll or an A4 page
 * legible, and a phone photo (12 or 48 MP) is then decoded at a half or a quarter of its size
 * (JPEG's shrink-on-load), which is most of what bounds an upload's cost.
 */
const MAX_AREA = 3_000_000;
const LADO_MINIATURA = 320;

/**
 * What the checks of one upload (one request) may cost: an estimate, from each file's header
 * and size, in milliseconds of a processor of this kind (ADR 0018, «Cost of an upload»). A file
 * costing more than is left is refused by name («en otro envío»); one costing more than all of
 * it, always.
 */
export const PRESUPUESTO = 500;
export type Presupuesto = { restante: number };
export const presupuestoDeSubida = (): Presupuesto => ({ restante: PRESUPUESTO });

const MiB = 1024 * 1024;
/**
 * Reading a PDF's syntax and storing it as it is (hashed and copied), per MiB of file;
 * decompressing and reading its object streams, per MiB.
 */
const COSTE_PDF_MIB = 22;
const COSTE_DESCOMPRIMIDO_MIB = 16;
/** Decoding, per MiB of decoded pixels; entropy decoding, per MiB of file; the output and its thumbnail. */
const COSTE_PIXELES_MIB = 2.7;
const COSTE_ARCHIVO_MIB: Record<string, number> = { jpeg: 14, png: 5, webp: 100 };
const COSTE_SALIDA_MP: Record<string, number> = { jpeg: 14, png: 40, webp: 40 };
const COSTE_FIJO = 3;

/**
 * One file's checks at a time in each process (sharp's own threads too), a few uploads waiting:
 * the other processor stays for the pages.
 */
const turnos = colaDeTrabajo({ simultaneos: 1, maxEsperando: 8, maxEsperaMs: 60_000 });

export type Procesado =
  | { ok: true; tipo: Tipo; contenido: Buffer | { archivo: string }; miniatura: Buffer | null }
  | { ok: false; motivo: string };

const NOMBRES: Record<string, string> = {
  "image/svg+xml": "una imagen SVG",
  "image/gif": "una imagen GIF",
  "image/heic": "una foto HEIC",
  "image/heif": "una foto HEIF",
  "image/tiff": "una imagen TIFF",
  "image/bmp": "una imagen BMP",
  "application/zip": "un archivo ZIP",
  "application/x-msdownload": "un programa ejecutable",
  "application/x-elf": "un programa ejecutable",
  "application/x-mach-binary": "un programa ejecutable",
  "application/x-sh": "un guion de órdenes",
};

const NO_ADMITIDO = "solo se admiten imágenes JPEG, PNG o WebP y documentos PDF";
/** Markup a browser would run if it ever sniffed the file as a page. */
const MARCADO = /<(?:!doctype|html|script|svg|body|iframe|\?xml)/i;

const OCUPADO = "el servidor está comprobando muchos archivos en este momento: inténtelo de nuevo en unos minutos";
const PESADA = "esta subida ya lleva mucho que comprobar: adjunte este archivo en otro envío";

/**
 * Checks one staged file. `presupuesto` is the upload's (presupuestoDeSubida): what this file is
 * estimated to cost is taken from it first, and the file refused when it does not fit.
 */
export async function procesar(archivo: string, presupuesto = presupuestoDeSubida()): Promise<Procesado> {
  const { size } = await stat(archivo);
  if (size === 0) return { ok: false, motivo: "el archivo está vacío" };
  if (size > MAX_BYTES) return { ok: false, motivo: "ocupa más de 10 MB" };
  const cabecera = await leerTramo(archivo, 0, 1024);
  const detectado = await fileTypeFromFile(archivo);
  if (!detectado) {
    if (MARCADO.test(cabecera.toString("latin1")))
      return { ok: false, motivo: `es una página web o imagen SVG: ${NO_ADMITIDO}` };
    return { ok: false, motivo: `no se reconoce su contenido: ${NO_ADMITIDO}` };
  }
  if (!(TIPOS as readonly string[]).includes(detectado.mime)) {
    const que = NOMBRES[detectado.mime] ?? `un archivo .${detectado.ext}`;
    return { ok: false, motivo: `es ${que}: ${NO_ADMITIDO}` };
  }
  if (MARCADO.test(cabecera.toString("latin1")))
    return { ok: false, motivo: "contiene además código de una página web (un archivo doble): no se admite" };
  const tipo = detectado.mime as Tipo;
  const cola = await leerTramo(archivo, Math.max(0, size - 1024), 1024);
  if (tipo !== "application/pdf") {
    const motivoCola = colaDeImagen(tipo, cola, size, cabecera);
    if (motivoCola) return { ok: false, motivo: motivoCola };
  }
  try {
    return await turnos.en(() =>
      tipo === "application/pdf" ? pdf(archivo, size, presupuesto) : imagen(archivo, tipo, size, presupuesto),
    );
  } catch (error) {
    if (error instanceof ColaLlena) return { ok: false, motivo: OCUPADO };
    throw error;
  }
}

async function pdf(archivo: string, size: number, presupuesto: Presupuesto): Promise<Procesado> {
  const coste = (size / MiB) * COSTE_PDF_MIB;
  if (coste > presupuesto.restante) return { ok: false, motivo: PESADA };
  presupuesto.restante -= coste;
  // What is left of the budget bounds what its object streams may decompress to.
  const maxDescomprimido = Math.floor((presupuesto.restante / COSTE_DESCOMPRIMIDO_MIB) * MiB);
  const r = inspeccionarPdf(await readFile(archivo), { maxDescomprimido });
  presupuesto.restante -= (r.descomprimido / MiB) * COSTE_DESCOMPRIMIDO_MIB;
  if (r.ok) return { ok: true, tipo: "application/pdf", contenido: { archivo }, miniatura: null };
  return {
    ok: false,
    motivo: r.motivo === "ilegible" && r.descomprimido >= maxDescomprimido ? PESADA : MOTIVOS_PDF[r.motivo],
  };
}

const MOTIVOS_PDF = {
  incompleto: "el PDF está incompleto (se cortó al copiarlo o enviarlo)",
  final: "el PDF lleva otro contenido añadido al final (un archivo doble): no se admite",
  zip: "el PDF es además un archivo ZIP (un archivo doble): no se admite",
  activo: "el PDF contiene código o archivos incrustados: guárdelo de nuevo como PDF simple («Imprimir en PDF»)",
  ilegible:
    "el PDF está cifrado, dañado o comprimido de un modo que no se puede comprobar: guárdelo de nuevo como PDF simple («Imprimir en PDF»)",
} as const;

/** An image must end where its format says: no truncation, nothing appended (a polyglot). */
function colaDeImagen(tipo: Tipo, cola: Buffer, size: number, cabecera: Buffer): string | null {
  const incompleta = "la imagen está incompleta (se cortó al copiarla o enviarla)";
  const doble = "la imagen lleva otro contenido añadido al final (un archivo doble): no se admite";
  if (tipo === "image/jpeg") {
    let end = cola.length;
    while (end > 0 && cola[end - 1] === 0) end--; // some cameras pad with zeros
    const eoi = cola.lastIndexOf(Buffer.from([0xff, 0xd9]));
    if (eoi === -1) return incompleta;
    return eoi + 2 === end ? null : doble;
  }
  if (tipo === "image/png") {
    const iend = cola.lastIndexOf(Buffer.from("IEND", "latin1"));
    if (iend === -1) return incompleta;
    return iend + 8 === cola.length ? null : doble;
  }
  // WebP: RIFF's size field says where the file ends.
  const declared = cabecera.readUInt32LE(4) + 8;
  if (declared > size) return incompleta;
  return declared + (declared % 2) >= size ? null : doble;
}

const DEMASIADOS_PIXELES = `la imagen tiene demasiados píxeles (más de ${MAX_PIXELES / 1_000_000} megapíxeles): redúzcala y vuelva a adjuntarla`;

/**
 * An estimate of what decoding and re-encoding an image costs, from its header: the pixels
 * decoded (a JPEG decodes at 1/2, 1/4 or 1/8 of its size when the output is that much smaller),
 * times their channels and bytes per sample, the entropy decoding of its bytes, and the output.
 */
function costeDe(meta: Metadata, size: number, escala: number) {
  const { width = 0, height = 0 } = meta;
  let reduccion = 1;
  if (meta.format === "jpeg") while (reduccion < 8 && escala * reduccion * 2 <= 1) reduccion *= 2;
  const bytesPorMuestra = meta.depth === "ushort" || meta.depth === "short" ? 2 : meta.depth === "float" ? 4 : 1;
  const decodificados = ((width * height) / (reduccion * reduccion)) * (meta.channels ?? 4) * bytesPorMuestra;
  const formato = meta.format ?? "webp";
  return (
    (decodificados / MiB) * COSTE_PIXELES_MIB +
    (size / MiB) * (COSTE_ARCHIVO_MIB[formato] ?? 100) +
    ((width * height * escala * escala) / 1_000_000) * (COSTE_SALIDA_MP[formato] ?? 40) +
    COSTE_FIJO
  );
}

async function imagen(archivo: string, tipo: Tipo, size: number, presupuesto: Presupuesto): Promise<Procesado> {
  // sharp and its libvips are loaded by the first image, not by every process that serves pages.
  const { default: sharp } = await import("sharp");
  // One thread per image (the queue lets one image through at a time): never every processor.
  sharp.concurrency(1);
  try {
    // Decoded only as far as the output needs, in one pass from the top (no random access);
    // the header is read first, so an oversized image costs nothing to refuse.
    const entrada = () =>
      sharp(archivo, { limitInputPixels: MAX_PIXELES, failOn: "truncated", sequentialRead: true, autoOrient: true });
    const meta = await entrada().metadata();
    const { width = 0, height = 0 } = meta.autoOrient ?? meta;
    if (width * height > MAX_PIXELES) return { ok: false, motivo: DEMASIADOS_PIXELES };
    const escala = Math.min(1, Math.sqrt(MAX_AREA / (width * height)));
    const coste = costeDe(meta, size, escala);
    if (coste > PRESUPUESTO)
      return {
        ok: false,
        motivo:
          "la imagen lleva demasiada información para procesarla (muchos píxeles o 16 bits por color): guárdela como JPEG o redúzcala y vuelva a adjuntarla",
      };
    if (coste > presupuesto.restante) return { ok: false, motivo: PESADA };
    presupuesto.restante -= coste;
    // sharp writes no metadata (GPS, camera) unless asked to.
    const base = entrada().resize(Math.max(1, Math.round(width * escala)), Math.max(1, Math.round(height * escala)), {
      fit: "fill",
    });
    const contenido =
      tipo === "image/jpeg"
        ? await base.jpeg({ quality: 85 }).toBuffer()
        : tipo === "image/png"
          ? await base.png().toBuffer()
          : await base.webp({ quality: 85, effort: 1 }).toBuffer();
    const miniatura = await sharp(contenido)
      .resize(LADO_MINIATURA, LADO_MINIATURA, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 70 })
      .toBuffer();
    return { ok: true, tipo, contenido, miniatura };
  } catch (error) {
    const m = String((error as Error).message);
    if (/pixel limit/i.test(m)) return { ok: false, motivo: DEMASIADOS_PIXELES };
    return { ok: false, motivo: "la imagen está dañada o incompleta y no se puede abrir" };
  }
}

async function leerTramo(archivo: string, desde: number, largo: number): Promise<Buffer> {
  const handle = await open(archivo, "r");
  try {
    const buffer = Buffer.alloc(largo);
    const { bytesRead } = await handle.read(buffer, 0, largo, desde);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
