import { crc32, deflateSync } from "node:zlib";
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
