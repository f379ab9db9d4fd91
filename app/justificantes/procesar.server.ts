import { open, readFile, stat } from "node:fs/promises";
import { fileTypeFromFile } from "file-type";

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
export const MAX_PIXELES = 60_000_000;
/** Receipts are read, not printed as posters: larger photos are scaled down to this side. */
const MAX_LADO = 4000;
const LADO_MINIATURA = 320;

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
/** PDF features that run code or carry other files: a receipt needs none of them. */
const PDF_ACTIVO = /\/(?:JavaScript|JS|Launch|EmbeddedFile|RichMedia|XFA|SubmitForm)\b/;

export async function procesar(archivo: string): Promise<Procesado> {
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
  if (tipo === "application/pdf") return pdf(archivo, cola);
  const motivoCola = colaDeImagen(tipo, cola, size, cabecera);
  if (motivoCola) return { ok: false, motivo: motivoCola };
  return imagen(archivo, tipo);
}

async function pdf(archivo: string, cola: Buffer): Promise<Procesado> {
  // Whatever follows the last %%EOF must be blank: a truncated file has none, a polyglot has more.
  const texto = cola.toString("latin1");
  const fin = texto.lastIndexOf("%%EOF");
  if (fin === -1) return { ok: false, motivo: "el PDF está incompleto (se cortó al copiarlo o enviarlo)" };
  if (texto.slice(fin + 5).trim() !== "")
    return { ok: false, motivo: "el PDF lleva otro contenido añadido al final (un archivo doble): no se admite" };
  const todo = (await readFile(archivo)).toString("latin1");
  if (PDF_ACTIVO.test(todo))
    return {
      ok: false,
      motivo: "el PDF contiene código o archivos incrustados: guárdelo de nuevo como PDF simple («Imprimir en PDF»)",
    };
  return { ok: true, tipo: "application/pdf", contenido: { archivo }, miniatura: null };
}

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

async function imagen(archivo: string, tipo: Tipo): Promise<Procesado> {
  // sharp and its libvips are loaded by the first image, not by every process that serves pages.
  const { default: sharp } = await import("sharp");
  try {
    const entrada = () => sharp(archivo, { limitInputPixels: MAX_PIXELES, failOn: "truncated" });
    const { width = 0, height = 0 } = await entrada().metadata();
    if (width * height > MAX_PIXELES)
      return {
        ok: false,
        motivo: "la imagen tiene demasiados píxeles (más de 60 megapíxeles): redúzcala y vuelva a adjuntarla",
      };
    // rotate() applies the EXIF orientation; sharp writes no metadata unless asked to.
    const base = entrada().rotate().resize(MAX_LADO, MAX_LADO, { fit: "inside", withoutEnlargement: true });
    const contenido =
      tipo === "image/jpeg"
        ? await base.jpeg({ quality: 85 }).toBuffer()
        : tipo === "image/png"
          ? await base.png().toBuffer()
          : await base.webp({ quality: 85 }).toBuffer();
    const miniatura = await sharp(contenido)
      .resize(LADO_MINIATURA, LADO_MINIATURA, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 70 })
      .toBuffer();
    return { ok: true, tipo, contenido, miniatura };
  } catch (error) {
    const m = String((error as Error).message);
    if (/pixel limit/i.test(m))
      return {
        ok: false,
        motivo: "la imagen tiene demasiados píxeles (más de 60 megapíxeles): redúzcala y vuelva a adjuntarla",
      };
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
