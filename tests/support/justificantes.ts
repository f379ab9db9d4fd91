import { crc32, createDeflate, deflateSync } from "node:zlib";

/**
 * A PDF of these objects (numbered from 1, the first the catalog) with its cross-reference
 * table, as a writer lays it out; `cola` goes after its %%EOF.
 */
const bytes = (x: string | Buffer) => (typeof x === "string" ? Buffer.from(x, "latin1") : x);

export function pdfDe(objetos: (string | Buffer)[], cola: Buffer | string = "\n") {
  const partes: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  const offsets: number[] = [];
  let largo = partes[0]!.length;
  objetos.forEach((o, i) => {
    offsets.push(largo);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, "latin1"), bytes(o), Buffer.from("\nendobj\n", "latin1")]);
    partes.push(b);
    largo += b.length;
  });
  const xref =
    `xref\n0 ${objetos.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("") +
    `trailer\n<</Size ${objetos.length + 1}/Root 1 0 R>>\nstartxref\n${largo}\n%%EOF`;
  return Buffer.concat([...partes, Buffer.from(xref, "latin1"), bytes(cola)]);
}

/** A stream object: its dictionary's entries (without Length) and its data. */
export const flujo = (dic: string, datos: Buffer) =>
  Buffer.concat([
    Buffer.from(`<<${dic}/Length ${datos.length}>>\nstream\n`, "latin1"),
    datos,
    Buffer.from("\nendstream", "latin1"),
  ]);

/** An object stream holding `objetos` (numbered from `primero`), deflated. */
export function objStm(primero: number, objetos: string[]) {
  let cabecera = "";
  let cuerpo = "";
  objetos.forEach((o, i) => {
    cabecera += `${primero + i} ${cuerpo.length} `;
    cuerpo += `${o}\n`;
  });
  const datos = Buffer.from(cabecera + cuerpo, "latin1");
  return flujo(`/Type/ObjStm/N ${objetos.length}/First ${cabecera.length}/Filter/FlateDecode`, deflateSync(datos));
}
import sharp from "sharp";

/** Receipt files for the tests, made here (none checked in): good ones and every bad kind. */
const lienzo = (width = 40, height = 30) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } });

export const archivos = {
  /** 40 × 30 with EXIF (a copyright line standing for GPS) and orientation 6 (rotate 90°). */
  jpeg: () =>
    lienzo()
      .jpeg()
      .withExif({ IFD0: { Copyright: "Ubicación secreta 40.4168,-3.7038" } })
      .withMetadata({ orientation: 6 })
      .toBuffer(),
  png: () => lienzo().png().toBuffer(),
  webp: () => lienzo().webp().toBuffer(),
  pdf: () =>
    Buffer.from(
      "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n" +
        "trailer<</Root 1 0 R>>\n%%EOF\n",
      "latin1",
    ),
};

export const malos = {
  svg: () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  html: () => Buffer.from("<!doctype html><html><script>alert(1)</script></html>"),
  /** A Windows executable's header under a .jpg name. */
  exe: () => {
    const b = Buffer.alloc(512);
    b.write("MZ", 0, "latin1");
    b.writeUInt32LE(0x80, 0x3c);
    b.write("PE\0\0", 0x80, "latin1");
    return b;
  },
  truncado: async () => {
    const j = await lienzo(400, 300).jpeg().toBuffer();
    return j.subarray(0, Math.floor(j.length / 2));
  },
  /** A real JPEG with a web page appended (what some browsers would sniff as HTML). */
  poliglota: async () =>
    Buffer.concat([await lienzo().jpeg().toBuffer(), Buffer.from("<html><script>alert(1)</script></html>")]),
  pdfConCodigo: () =>
    Buffer.from(
      "%PDF-1.4\n1 0 obj<</OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\ntrailer<<>>\n%%EOF\n",
      "latin1",
    ),
  /** A 20 000 × 20 000 PNG of a few hundred bytes: decoded it would take 1.2 GB. */
  bomba: () => {
    const chunk = (type: string, data: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([len, body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(20_000, 0);
    ihdr.writeUInt32BE(20_000, 4);
    ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", ihdr),
      chunk("IDAT", deflateSync(Buffer.alloc(20_000 * 3 + 1))),
      chunk("IEND", Buffer.alloc(0)),
    ]);
  },
};

/** A multipart form with these files in `justificantes`, as a browser's file input sends it. */
export function formulario(files: { nombre: string; datos: Buffer; tipo?: string }[]) {
  const form = new FormData();
  for (const f of files)
    form.append("justificantes", new Blob([new Uint8Array(f.datos)], { type: f.tipo ?? "image/jpeg" }), f.nombre);
  return form;
}

/** A ZIP of one stored file, its end record's comment `comentario` (a polyglot's trick: "%%EOF"). */
export function zipDe(nombre: string, contenido: Buffer, comentario = "") {
  const n = Buffer.from(nombre, "latin1");
  const crc = crc32(contenido);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(contenido.length, 18);
  local.writeUInt32LE(contenido.length, 22);
  local.writeUInt16LE(n.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(contenido.length, 20);
  central.writeUInt32LE(contenido.length, 24);
  central.writeUInt16LE(n.length, 28);
  const c = Buffer.from(comentario, "latin1");
  const fin = Buffer.alloc(22);
  fin.writeUInt32LE(0x06054b50, 0);
  fin.writeUInt16LE(1, 8);
  fin.writeUInt16LE(1, 10);
  fin.writeUInt32LE(46 + n.length, 12);
  fin.writeUInt32LE(30 + n.length + contenido.length, 16);
  fin.writeUInt16LE(c.length, 20);
  return Buffer.concat([local, n, contenido, central, n, fin, c]);
}

/**
 * A PNG of `ancho` × `alto` blank pixels: `bits` per sample, `color` as PNG numbers it (0 grey,
 * 6 RGBA). Blank rows compress to almost nothing, so a huge image is a small file: what an
 * upload of decoding work looks like. Deflated row by row (never the whole image in memory).
 */
export async function pngEnBlanco(ancho: number, alto: number, { bits = 8, color = 0 } = {}) {
  const canales = { 0: 1, 2: 3, 4: 2, 6: 4 }[color] ?? 1;
  const fila = Buffer.alloc(1 + Math.ceil((ancho * canales * bits) / 8));
  const deflate = createDeflate({ level: 9 });
  const partes: Buffer[] = [];
  deflate.on("data", (c: Buffer) => partes.push(c));
  const fin = new Promise((resolve) => deflate.on("end", resolve));
  for (let y = 0; y < alto; y++) if (!deflate.write(fila)) await new Promise((r) => deflate.once("drain", r));
  deflate.end();
  await fin;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(ancho, 0);
  ihdr.writeUInt32BE(alto, 4);
  ihdr.set([bits, color, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    trozoPng("IHDR", ihdr),
    trozoPng("IDAT", Buffer.concat(partes)),
    trozoPng("IEND", Buffer.alloc(0)),
  ]);
}

function trozoPng(tipo: string, datos: Buffer) {
  const largo = Buffer.alloc(4);
  largo.writeUInt32BE(datos.length);
  const cuerpo = Buffer.concat([Buffer.from(tipo, "latin1"), datos]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(cuerpo));
  return Buffer.concat([largo, cuerpo, crc]);
}
