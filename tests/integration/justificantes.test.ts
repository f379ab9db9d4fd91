import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import { sqlStore } from "~/data/sql/adapter.server";
import { guardarAjustes } from "~/data/ajustes.server";
import { barrerJustificantes } from "~/justificantes/subir.server";
import { todayISO } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import { action } from "~/routes/gastos.$id.justificantes";
import { action as crear } from "~/routes/gastos._index";
import { loader } from "~/routes/justificantes.$id";
import { createTestApp, ORIGIN, request, respond, type TestApp, type TestUser } from "../support/app";
import { insertDepartamento, insertSucursal, setProfile } from "../support/fixtures";
import { gastosPage } from "../support/gastos";
import { deflateSync } from "node:zlib";
import { archivos, flujo, formulario, malos, objStm, pdfDe, pngEnBlanco, zipDe } from "../support/justificantes";

/**
 * Receipts (ADR 0018) through the real routes on a real Postgres under RLS, with the
 * local store in a directory of this file's own: what is accepted and how it is stored, every
 * bad kind refused with its reason, the limits, who may add, see and remove, the history, the
 * rule for sending, duplicates and the sweep.
 */
let app: TestApp;
let dataDir: string;
let admin: TestUser, aprobador: TestUser, empleado: TestUser, empleado2: TestUser;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "oficina-justificantes-"));
  app = await createTestApp({ DATA_DIR: dataDir });
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
  empleado2 = await app.createUser({ nombre: "Eva", rol: "empleado" });
  const ventas = await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" });
  const compras = await insertDepartamento(app.db, { nombre: "Compras", codigo: "COM" });
  const suc = await insertSucursal(app.db);
  await setProfile(app.db, aprobador.id, { departamento_id: ventas, sucursal_id: suc });
  await setProfile(app.db, empleado.id, { departamento_id: ventas, sucursal_id: suc, aprobador_id: aprobador.id });
  await setProfile(app.db, empleado2.id, { departamento_id: compras, sucursal_id: suc });
  await setProfile(app.db, admin.id, { departamento_id: compras, sucursal_id: suc });
});
afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const { post, created, row, list } = gastosPage(() => app);
let seq = 0;
async function nuevo(u: TestUser, importe?: string) {
  seq += 1;
  const form = {
    intent: "crear",
    descripcion: `Taxi al aeropuerto ${seq}`,
    fecha_gasto: todayISO(),
    categoria: "comidas",
    importe: importe ?? `${20 + seq},${String(seq % 100).padStart(2, "0")}`,
    metodo_pago: "tarjeta_corporativa",
  };
  return created(await post(form, u.cookie));
}

function subir(u: TestUser, gastoId: string, files: Parameters<typeof formulario>[0]) {
  const req = new Request(new URL(`/gastos/${gastoId}/justificantes`, ORIGIN), {
    method: "POST",
    headers: { Origin: ORIGIN, Cookie: u.cookie },
    body: formulario(files),
  });
  return respond(() => action({ request: req, context: app.context(), params: { id: gastoId } }));
}
const eliminar = (u: TestUser, gastoId: string, justificante: string) =>
  respond(() =>
    action({
      request: request(`/gastos/${gastoId}/justificantes`, {
        cookie: u.cookie,
        form: { intent: "eliminar", justificante },
      }),
      context: app.context(),
      params: { id: gastoId },
    }),
  );
const descargar = (u: TestUser, id: string, query = "") =>
  respond(() =>
    loader({
      request: request(`/justificantes/${id}${query}`, { cookie: u.cookie }),
      context: app.context(),
      params: { id },
    }),
  );

async function flashOf(r: Response) {
  const cookie = r.headers.get("Set-Cookie")?.split(";")[0];
  if (!cookie) return null;
  return (await app.services.flash.take(new Request(ORIGIN, { headers: { Cookie: cookie } }))).flash;
}
let unicos = 0;
/** A receipt no other gasto has: one that is also elsewhere needs a reason to be sent. */
const unico = () => {
  unicos += 1;
  return sharp({
    create: { width: 50 + unicos, height: 17, channels: 3, background: { r: unicos % 256, g: 7, b: 77 } },
  })
    .png()
    .toBuffer();
};
const filas = (gastoId: string) =>
  app.db.selectFrom("justificantes").selectAll().where("gasto_id", "=", gastoId).orderBy("creado_en").execute();
/** Every stored file (temp files included), as names under DATA_DIR/justificantes. */
function almacenados(): string[] {
  const dir = path.join(dataDir, "justificantes");
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

describe("adjuntar", () => {
  it("acepta JPEG, PNG, WebP y PDF por su contenido; las imágenes, derechas, sin metadatos y con miniatura", async () => {
    const g = await nuevo(empleado);
    const r = await subir(empleado, g.id, [
      { nombre: "ticket.jpg", datos: await archivos.jpeg() },
      { nombre: "foto.png", datos: await archivos.png(), tipo: "application/octet-stream" },
      { nombre: "captura", datos: await archivos.webp(), tipo: "text/plain" },
      { nombre: "factura.pdf", datos: archivos.pdf(), tipo: "application/pdf" },
    ]);
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe(`/gastos?gasto=${g.id}`);
    expect(await flashOf(r)).toMatchObject({ message: "4 justificantes adjuntados.", kind: "exito" });
    const rows = await filas(g.id);
    expect(rows.map((j) => [j.nombre, j.tipo, j.subido_por_id])).toEqual([
      ["ticket.jpg", "image/jpeg", empleado.id],
      ["foto.png", "image/png", empleado.id],
      ["captura", "image/webp", empleado.id],
      ["factura.pdf", "application/pdf", empleado.id],
    ]);
    expect(rows.slice(0, 3).every((j) => j.miniatura)).toBe(true);
    expect(rows[3]!.miniatura).toBeNull();

    const jpeg = await descargar(admin, rows[0]!.id); // whoever sees the gasto sees its receipts
    expect(jpeg.status).toBe(200);
    expect(Object.fromEntries(jpeg.headers)).toMatchObject({
      "content-type": "image/jpeg",
      "content-disposition": `inline; filename="ticket.jpg"; filename*=UTF-8''ticket.jpg`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox; default-src 'none'",
      "cache-control": "private, no-store",
    });
    const stored = Buffer.from(await jpeg.arrayBuffer());
    expect(stored.length).toBe(rows[0]!.bytes);
    const meta = await sharp(stored).metadata();
    expect([meta.width, meta.height]).toEqual([30, 40]); // orientation 6 applied
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();

    const mini = await descargar(empleado, rows[1]!.id, "?miniatura");
    expect(mini.headers.get("Content-Type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await mini.arrayBuffer())).metadata()).format).toBe("webp");
    const pdf = await descargar(empleado, rows[3]!.id);
    expect(Buffer.from(await pdf.arrayBuffer())).toEqual(archivos.pdf()); // PDFs kept as they are
  });

  it("rechaza cada tipo malo con su motivo y el nombre del archivo; el gasto y sus otros archivos, intactos", async () => {
    const g = await nuevo(empleado);
    await subir(empleado, g.id, [{ nombre: "bueno.png", datos: await archivos.png() }]);
    const before = almacenados().length;
    const r = await subir(empleado, g.id, [
      { nombre: "dibujo.svg", datos: malos.svg(), tipo: "image/svg+xml" },
      { nombre: "pagina.jpg", datos: malos.html() },
      { nombre: "programa.jpg", datos: malos.exe() },
      { nombre: "cortado.jpg", datos: await malos.truncado() },
      { nombre: "doble.jpg", datos: await malos.poliglota() },
      { nombre: "activo.pdf", datos: malos.pdfConCodigo(), tipo: "application/pdf" },
      { nombre: "bomba.png", datos: malos.bomba(), tipo: "image/png" },
      { nombre: "vacio.jpg", datos: Buffer.alloc(0) },
    ]);
    expect(r.status).toBe(302);
    const flash = await flashOf(r);
    expect(flash?.message).toBe("No se ha adjuntado ningún archivo.");
    expect(flash?.detalles).toEqual([
      expect.stringMatching(/^«dibujo\.svg» no se ha adjuntado: es una página web o imagen SVG: solo se admiten/),
      expect.stringMatching(/^«pagina\.jpg» no se ha adjuntado: es una página web o imagen SVG/),
      expect.stringMatching(/^«programa\.jpg» no se ha adjuntado: es un programa ejecutable/),
      expect.stringMatching(/^«cortado\.jpg» no se ha adjuntado: la imagen está incompleta/),
      expect.stringMatching(/^«doble\.jpg» no se ha adjuntado: .*un archivo doble/),
      expect.stringMatching(/^«activo\.pdf» no se ha adjuntado: el PDF contiene código/),
      expect.stringMatching(/^«bomba\.png» no se ha adjuntado: la imagen tiene demasiados píxeles/),
      "«vacio.jpg» no se ha adjuntado: el archivo está vacío.",
    ]);
    expect((await filas(g.id)).map((j) => j.nombre)).toEqual(["bueno.png"]);
    expect(almacenados().length).toBe(before); // nothing stored, no temp file left
    expect((await row(g.id)).version).toBe(g.version);
  });

  it("el trabajo de una subida está acotado: más de 50 MP, o 16 bits de 49 MP, se rechazan sin decodificar; lo que no cabe, «en otro envío»", async () => {
    const g = await nuevo(empleado);
    const justa = await pngEnBlanco(7070, 7070, { bits: 1 });
    const r = await subir(empleado, g.id, [
      { nombre: "sesenta.png", datos: await pngEnBlanco(7740, 7740, { bits: 1 }), tipo: "image/png" },
      { nombre: "profunda.png", datos: await pngEnBlanco(7000, 7000, { bits: 16, color: 6 }), tipo: "image/png" },
      ...[1, 2].map((i) => ({ nombre: `justa-${i}.png`, datos: justa, tipo: "image/png" })),
    ]);
    expect((await flashOf(r))?.detalles).toEqual([
      "«sesenta.png» no se ha adjuntado: la imagen tiene demasiados píxeles (más de 50 megapíxeles): redúzcala y vuelva a adjuntarla.",
      "«profunda.png» no se ha adjuntado: la imagen lleva demasiada información para procesarla (muchos píxeles o 16 bits por color): guárdela como JPEG o redúzcala y vuelva a adjuntarla.",
      "«justa-2.png» no se ha adjuntado: esta subida ya lleva mucho que comprobar: adjunte este archivo en otro envío.",
    ]);
    const rows = await filas(g.id);
    expect(rows.map((j) => j.nombre)).toEqual(["justa-1.png"]);
    // Stored at most 3 megapixels: 1732 × 1732 of the 7070 × 7070.
    const guardada = await descargar(empleado, rows[0]!.id);
    const { width, height } = await sharp(Buffer.from(await guardada.arrayBuffer())).metadata();
    expect([width, height]).toEqual([1732, 1732]);
    // The same file alone, in the next upload, is attached.
    expect(await flashOf(await subir(empleado, g.id, [{ nombre: "justa-2.png", datos: justa }]))).toMatchObject({
      message: "Justificante adjuntado.",
    });
  });

  it("un PDF con código escrito de otras maneras (#xx, dentro de un flujo de objetos comprimido): rechazado, nada guardado", async () => {
    const g = await nuevo(empleado);
    const before = almacenados().length;
    const catalogo = "<</Type/Catalog/Pages 2 0 R/OpenAction 3 0 R>>";
    const paginas = "<</Type/Pages/Kids[]/Count 0>>";
    const r = await subir(empleado, g.id, [
      { nombre: "escapado.pdf", datos: pdfDe([catalogo, paginas, "<</S/J#61vaScript/J#53(app.alert(1))>>"]) },
      {
        nombre: "adjuntos.pdf",
        datos: pdfDe(["<</Type/Catalog/Pages 2 0 R/Names<</Embedd#65dFiles 3 0 R>>>>", paginas, "<</Names[]>>"]),
      },
      {
        nombre: "comprimido.pdf",
        datos: pdfDe([
          catalogo,
          paginas,
          "<</S/GoTo/D[0/Fit]>>",
          objStm(4, ["<</Type/Page/AA<</O<</S/JavaScript/JS 9 0 R>>>>>>"]),
        ]),
      },
      {
        nombre: "hexadecimal.pdf",
        datos: pdfDe([catalogo, paginas, "<</S/JavaScript/JS<6170702e616c657274283129>>>"]),
      },
    ]);
    expect((await flashOf(r))?.detalles).toEqual(
      ["escapado.pdf", "adjuntos.pdf", "comprimido.pdf", "hexadecimal.pdf"].map(
        (n) =>
          `«${n}» no se ha adjuntado: el PDF contiene código o archivos incrustados: guárdelo de nuevo como PDF simple («Imprimir en PDF»).`,
      ),
    );
    expect(await filas(g.id)).toEqual([]);
    expect(almacenados().length).toBe(before);
    // A PDF as a writer makes it (compressed text, an object stream of fonts) is kept byte for byte.
    const simple = pdfDe([
      "<</Type/Catalog/Pages 2 0 R>>",
      "<</Type/Pages/Kids[3 0 R]/Count 1>>",
      "<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R/Resources<</Font<</F1 6 0 R>>>>>>",
      flujo("/Filter/FlateDecode", deflateSync(Buffer.from("BT /F1 12 Tf 72 712 Td (Total: 12,50 EUR) Tj ET"))),
      objStm(6, ["<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>"]),
    ]);
    await subir(empleado, g.id, [{ nombre: "factura.pdf", datos: simple }]);
    const [fila] = await filas(g.id);
    expect(Buffer.from(await (await descargar(empleado, fila!.id)).arrayBuffer())).toEqual(simple);
  });

  it("un PDF que es además un ZIP (añadido al final, su comentario acabado en %%EOF) o con datos tras el último %%EOF: rechazado", async () => {
    const g = await nuevo(empleado);
    const before = almacenados().length;
    const pdf = archivos.pdf();
    const zip = zipDe("instalar.exe", Buffer.from("MZ\x90\x00 programa", "latin1"), "%%EOF");
    const r = await subir(empleado, g.id, [
      { nombre: "doble.pdf", datos: Buffer.concat([pdf, zip]) },
      { nombre: "relleno.pdf", datos: Buffer.concat([pdf, Buffer.from("\n\xa0\xa0", "latin1")]) },
    ]);
    expect((await flashOf(r))?.detalles).toEqual([
      "«doble.pdf» no se ha adjuntado: el PDF es además un archivo ZIP (un archivo doble): no se admite.",
      "«relleno.pdf» no se ha adjuntado: el PDF lleva otro contenido añadido al final (un archivo doble): no se admite.",
    ]);
    expect(await filas(g.id)).toEqual([]);
    expect(almacenados().length).toBe(before);
  });

  it("los nombres se guardan como texto: caracteres de ruta, Unicode y RTL; descarga con filename* codificado", async () => {
    const g = await nuevo(empleado);
    const nombres = [
      "../../etc/passwd.jpg",
      "C:\\Windows\\system32\\x.jpg",
      "recibo \u202Egpj.exe",
      "タクシー領収書 ñ.jpg",
    ];
    const datos = await archivos.jpeg();
    await subir(
      empleado,
      g.id,
      nombres.map((nombre) => ({ nombre, datos })),
    );
    const rows = await filas(g.id);
    // The right-to-left override (which shows «recibo \u202Egpj.exe» as «recibo exe.jpg») is dropped.
    expect(rows.map((j) => j.nombre)).toEqual(nombres.map((n) => n.replace("\u202E", "")));
    expect(almacenados().every((n) => /^[0-9a-f]{64}$/.test(n))).toBe(true);
    const r = await descargar(empleado, rows[0]!.id);
    expect(r.headers.get("Content-Disposition")).toBe(
      `inline; filename=".._.._etc_passwd.jpg"; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd.jpg`,
    );
  });

  it("filename* sigue la gramática de RFC 5987 aunque el nombre lleve apóstrofos, paréntesis o asteriscos", async () => {
    // encodeURIComponent leaves «'()*» bare, which RFC 5987's value does not allow («'» is what
    // separates charset, language and value): a strict reader refuses the whole filename*.
    const g = await nuevo(empleado);
    await subir(empleado, g.id, [{ nombre: "Factura (1) d'Álvaro*.pdf", datos: archivos.pdf() }]);
    const [fila] = await filas(g.id);
    const cabecera = (await descargar(empleado, fila!.id)).headers.get("Content-Disposition")!;
    expect(cabecera).toBe(
      `inline; filename="Factura (1) d'_lvaro*.pdf"; filename*=UTF-8''Factura%20%281%29%20d%27%C3%81lvaro%2A.pdf`,
    );
    const valor = /filename\*=UTF-8''(.*)$/.exec(cabecera)![1]!;
    expect(valor).toMatch(/^(?:%[0-9A-F]{2}|[A-Za-z0-9!#$&+.^_`|~-])+$/);
    expect(decodeURIComponent(valor)).toBe("Factura (1) d'Álvaro*.pdf");
  });

  it("la descarga se llama con la extensión de su contenido; sin marcas bidi ni caracteres de control en el nombre", async () => {
    const g = await nuevo(empleado);
    const png = await archivos.png();
    await subir(empleado, g.id, [
      { nombre: "factura.html", datos: archivos.pdf(), tipo: "text/html" },
      { nombre: "captura", datos: png },
      { nombre: "foto.JPEG", datos: await archivos.jpeg() },
      { nombre: "\u2067recibo\u2069 \u202Bfin\u202C\u200F.png", datos: png },
      { nombre: "ticket.pdf.png", datos: png },
    ]);
    const rows = await filas(g.id);
    expect(rows.map((j) => j.nombre)).toEqual([
      "factura.html",
      "captura",
      "foto.JPEG",
      "recibo fin.png",
      "ticket.pdf.png",
    ]);
    const nombres = await Promise.all(
      rows.map(async (j) => (await descargar(empleado, j.id)).headers.get("Content-Disposition")),
    );
    expect(nombres).toEqual([
      `inline; filename="factura.html.pdf"; filename*=UTF-8''factura.html.pdf`,
      `inline; filename="captura.png"; filename*=UTF-8''captura.png`,
      `inline; filename="foto.JPEG"; filename*=UTF-8''foto.JPEG`,
      `inline; filename="recibo fin.png"; filename*=UTF-8''recibo%20fin.png`,
      `inline; filename="ticket.pdf.png"; filename*=UTF-8''ticket.pdf.png`,
    ]);
    // A name stored before the marks were removed is served and shown without them.
    await app.db
      .updateTable("justificantes")
      .set({ nombre: "recibo \u202Egpj.exe" })
      .where("id", "=", rows[1]!.id)
      .execute();
    expect((await descargar(empleado, rows[1]!.id)).headers.get("Content-Disposition")).toBe(
      `inline; filename="recibo gpj.exe.png"; filename*=UTF-8''recibo%20gpj.exe.png`,
    );
    expect((await descargar(empleado, rows[1]!.id, "?miniatura")).headers.get("Content-Disposition")).toBe(
      `inline; filename="miniatura-recibo gpj.exe.webp"; filename*=UTF-8''miniatura-recibo%20gpj.exe.webp`,
    );
  });

  it("un archivo de exactamente 10 MB («hasta 10 MB», 10 485 760 bytes) se admite; con un byte más, se nombra y nada se guarda", async () => {
    const g = await nuevo(empleado);
    /** The sample PDF grown to `bytes` by a comment line after its header. */
    const pdfDe = (bytes: number) => {
      const pdf = archivos.pdf();
      const cabecera = pdf.subarray(0, pdf.indexOf("\n") + 1);
      const relleno = bytes - pdf.length - 2;
      return Buffer.concat([cabecera, Buffer.from(`%${"x".repeat(relleno)}\n`), pdf.subarray(cabecera.length)]);
    };
    const justo = pdfDe(10 * 1024 * 1024);
    expect(justo.length).toBe(10_485_760);
    const r = await subir(empleado, g.id, [{ nombre: "justo.pdf", datos: justo }]);
    expect(await flashOf(r)).toMatchObject({ message: "Justificante adjuntado.", kind: "exito" });
    expect((await filas(g.id)).map((j) => [j.nombre, j.bytes])).toEqual([["justo.pdf", 10_485_760]]);
    const before = almacenados().length;
    const grande = await subir(empleado, g.id, [{ nombre: "grande.pdf", datos: pdfDe(10 * 1024 * 1024 + 1) }]);
    // Named with its reason, nothing of it stored; the record stays (a refused file costs nothing else).
    expect(grande.status).toBe(302);
    const aviso = await flashOf(grande);
    expect(aviso).toMatchObject({ message: "No se ha adjuntado ningún archivo.", kind: "error" });
    expect(JSON.stringify(aviso)).toContain("«grande.pdf»");
    expect(JSON.stringify(aviso)).toContain("ocupa más de 10 MB");
    expect(await filas(g.id)).toHaveLength(1);
    expect(almacenados().length).toBe(before);
  });

  it("como mucho 10 por gasto: el undécimo se rechaza y no se guarda", async () => {
    const g = await nuevo(empleado);
    const files = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => ({
        nombre: `ticket-${i + 1}.png`,
        datos: await sharp({ create: { width: 10 + i, height: 10, channels: 3, background: "white" } })
          .png()
          .toBuffer(),
      })),
    );
    expect(await flashOf(await subir(empleado, g.id, files))).toMatchObject({
      message: "10 justificantes adjuntados.",
    });
    const before = almacenados().length;
    const r = await subir(empleado, g.id, [{ nombre: "once.pdf", datos: archivos.pdf() }]);
    expect((await flashOf(r))?.detalles).toEqual([
      "«once.pdf» no se ha adjuntado: el gasto ya tiene 10 justificantes, el máximo.",
    ]);
    expect(await filas(g.id)).toHaveLength(10);
    expect(almacenados().length).toBe(before);
    // The database itself refuses the 11th, whatever the route does.
    await expect(
      sqlStore(app.db, empleado.id).insert("justificantes", {
        gasto_id: g.id,
        nombre: "directo.pdf",
        tipo: "application/pdf",
        bytes: 10,
        sha256: "a".repeat(64),
      }),
    ).rejects.toThrow(/como mucho 10 justificantes/);
  });
});

describe("en los formularios", () => {
  /** «Nuevo gasto» as the browser sends it with files: multipart, fields and files together. */
  function crearCon(u: TestUser, campos: Record<string, string>, files: Parameters<typeof formulario>[0]) {
    const body = formulario(files);
    for (const [k, v] of Object.entries(campos)) body.append(k, v);
    const req = new Request(new URL("/gastos?index", ORIGIN), {
      method: "POST",
      headers: { Origin: ORIGIN, Cookie: u.cookie },
      body,
    });
    return respond(() => crear({ request: req, context: app.context(), params: {} }));
  }
  const campos = (descripcion: string) => ({
    intent: "crear",
    _envio: crypto.randomUUID(),
    descripcion,
    fecha_gasto: todayISO(),
    categoria: "comidas",
    importe: "18,40",
    metodo_pago: "tarjeta_corporativa",
  });

  it("«Nuevo gasto» con dos archivos: el gasto y sus justificantes; uno malo se nombra y el gasto se crea igual", async () => {
    const r = await crearCon(empleado, campos("Cena con cliente"), [
      { nombre: "ticket-cena.jpg", datos: await archivos.jpeg() },
      { nombre: "factura.pdf", datos: archivos.pdf(), tipo: "application/pdf" },
      { nombre: "virus.jpg", datos: malos.exe() },
    ]);
    const g = await created(r);
    expect(g.descripcion).toBe("Cena con cliente");
    expect((await filas(g.id)).map((j) => j.nombre)).toEqual(["ticket-cena.jpg", "factura.pdf"]);
    const flash = await flashOf(r);
    expect(flash?.kind).toBe("aviso");
    expect(flash?.message).toMatch(/^Gasto creado: .+ 2 justificantes adjuntados\. «virus\.jpg» no se ha adjuntado: /);
    expect(almacenados().filter((n) => /^\d+-/.test(n))).toEqual([]); // no temp file left

    // The panel lists them for its solicitante, who may still attach and remove (borrador).
    const { panel, result } = (await list(`?gasto=${g.id}&quitar=${(await filas(g.id))[1]!.id}`, empleado.cookie)) as {
      panel: { justificantes: { nombre: string }[]; adjuntar: boolean; confirmarQuitar: { nombre: string } | null };
      result: { rows: { id: string; justificantes: number }[] };
    };
    // The list's paperclip column counts them.
    expect(result.rows.find((f) => f.id === g.id)?.justificantes).toBe(2);
    expect(panel.justificantes.map((j) => j.nombre)).toEqual(["ticket-cena.jpg", "factura.pdf"]);
    expect(panel.adjuntar).toBe(true);
    expect(panel.confirmarQuitar?.nombre).toBe("factura.pdf");
  });

  it("un formulario con errores no crea nada ni guarda archivos; otra acción en multipart, 400", async () => {
    const antes = await app.db
      .selectFrom("justificantes")
      .select((e) => e.fn.countAll().as("n"))
      .executeTakeFirst();
    const r = await crearCon(empleado, { ...campos("x"), importe: "" }, [
      { nombre: "ticket.png", datos: await archivos.png() },
    ]);
    expect(r.status).toBe(400);
    const r2 = await crearCon(empleado, { ...campos("Taxi"), intent: "aprobar_seleccion" }, [
      { nombre: "ticket.png", datos: await archivos.png() },
    ]);
    expect(r2.status).toBe(400);
    const despues = await app.db
      .selectFrom("justificantes")
      .select((e) => e.fn.countAll().as("n"))
      .executeTakeFirst();
    expect(despues).toEqual(antes);
  });
});

describe("a la vez", () => {
  it("dos subidas a la vez al mismo gasto: nunca más de 10 (la base de datos ordena las dos)", async () => {
    const g = await nuevo(empleado);
    const lote = (desde: number) =>
      Promise.all(
        Array.from({ length: 6 }, async (_, i) => ({
          nombre: `ticket-${desde + i}.png`,
          datos: await sharp({ create: { width: 50 + desde + i, height: 9, channels: 3, background: "gray" } })
            .png()
            .toBuffer(),
        })),
      );
    const [a, b] = await Promise.all([subir(empleado, g.id, await lote(0)), subir(empleado, g.id, await lote(6))]);
    expect(await filas(g.id)).toHaveLength(10);
    const detalles = [...((await flashOf(a))?.detalles ?? []), ...((await flashOf(b))?.detalles ?? [])];
    expect(detalles).toHaveLength(2);
    expect(detalles.every((d) => /como mucho 10 justificantes|ya tiene 10 justificantes/.test(d))).toBe(true);
  });
});

describe("quién", () => {
  it("subir al gasto de otra persona: 404 (un borrador solo lo ven su solicitante y los administradores), y nada guardado", async () => {
    const g = await nuevo(empleado);
    const before = almacenados().length;
    const datos = await archivos.png();
    expect((await subir(aprobador, g.id, [{ nombre: "ajeno.png", datos }])).status).toBe(404);
    expect((await subir(empleado2, g.id, [{ nombre: "ajeno.png", datos }])).status).toBe(404);
    expect(await filas(g.id)).toHaveLength(0);
    expect(almacenados().length).toBe(before);
    // A direct insert as the user is refused by RLS too.
    await expect(
      sqlStore(app.db, empleado2.id).insert("justificantes", {
        gasto_id: g.id,
        nombre: "x.pdf",
        tipo: "application/pdf",
        bytes: 1,
        sha256: "b".repeat(64),
      }),
    ).rejects.toThrow();
    // An administrador may attach to anyone's borrador.
    expect((await subir(admin, g.id, [{ nombre: "del-admin.png", datos }])).status).toBe(302);
    expect((await filas(g.id)).map((j) => j.subido_por_id)).toEqual([admin.id]);
  });

  it("descargar el de otra persona: 404, como uno que no existe", async () => {
    const g = await nuevo(empleado);
    await subir(empleado, g.id, [{ nombre: "mio.pdf", datos: archivos.pdf() }]);
    const [j] = await filas(g.id);
    expect((await descargar(empleado2, j!.id)).status).toBe(404);
    expect((await descargar(empleado2, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await descargar(empleado2, "no-es-un-id")).status).toBe(404);
    expect((await descargar(admin, j!.id)).status).toBe(200);
  });
});

describe("quitar y el flujo", () => {
  it("quitar solo en borrador, por quien puede editarlo; altas y bajas en el historial del gasto", async () => {
    const g = await nuevo(empleado);
    await subir(empleado, g.id, [
      { nombre: "uno.pdf", datos: archivos.pdf() },
      { nombre: "dos.png", datos: await unico() },
    ]);
    const [uno, dos] = await filas(g.id);
    expect((await eliminar(aprobador, g.id, uno!.id)).status).toBe(404);
    expect((await eliminar(empleado2, g.id, uno!.id)).status).toBe(404);
    const r = await eliminar(empleado, g.id, uno!.id);
    expect(r.status).toBe(302);
    expect((await flashOf(r))?.message).toBe("Justificante «uno.pdf» quitado.");
    expect((await filas(g.id)).map((j) => j.nombre)).toEqual(["dos.png"]);

    const historial = await app.db
      .selectFrom("historial")
      .select(["accion", "actor_id", "cambios"])
      .where("tabla", "=", "gastos")
      .where("registro_id", "=", g.id)
      .orderBy("id")
      .execute();
    expect(historial.slice(1)).toEqual([
      {
        accion: "modificacion",
        actor_id: empleado.id,
        cambios: { justificantes: { antes: null, despues: "uno.pdf" } },
      },
      {
        accion: "modificacion",
        actor_id: empleado.id,
        cambios: { justificantes: { antes: null, despues: "dos.png" } },
      },
      {
        accion: "modificacion",
        actor_id: empleado.id,
        cambios: { justificantes: { antes: "uno.pdf", despues: null } },
      },
    ]);

    await sqlStore(app.db, empleado.id).rpc("enviar_gasto", { p_id: g.id, p_version: g.version });
    const enviado = await eliminar(empleado, g.id, dos!.id);
    expect(enviado.status).toBe(403);
    expect((await enviado.json()).message).toMatch(/mientras el gasto está en borrador/);
    expect((await subir(empleado, g.id, [{ nombre: "tarde.pdf", datos: archivos.pdf() }])).status).toBe(403);
    // Nor directly: the policy and the trigger hold without the route.
    await expect(sqlStore(app.db, empleado.id).remove("justificantes", dos!.id)).rejects.toThrow();
    expect(await filas(g.id)).toHaveLength(1);
  });

  it("JUSTIFICANTE_OBLIGATORIO_DESDE en la configuración: un importe (por defecto 0: siempre), o «no» (nunca)", () => {
    const desde = (v?: string) =>
      loadEnv({ SESSION_SECRET: "s".repeat(40), ...(v === undefined ? {} : { JUSTIFICANTE_OBLIGATORIO_DESDE: v }) })
        .JUSTIFICANTE_OBLIGATORIO_DESDE;
    expect([desde(), desde("50"), desde("50,5"), desde("1200.00"), desde("no")]).toEqual([
      "0",
      "50",
      "50.5",
      "1200.00",
      null,
    ]);
    expect(() => desde("cincuenta")).toThrow(/JUSTIFICANTE_OBLIGATORIO_DESDE.*importe/);
    expect(() => desde("-5")).toThrow(/JUSTIFICANTE_OBLIGATORIO_DESDE/);
  });

  it("JUSTIFICANTE_OBLIGATORIO_DESDE: enviar sin justificante se rechaza en la base de datos, con su mensaje", async () => {
    const enviar = (u: TestUser, g: { id: string; version: number }) =>
      sqlStore(app.db, u.id).rpc("enviar_gasto", { p_id: g.id, p_version: g.version });
    try {
      await guardarAjustes(app.url, { PERMITIR_ADMIN_UNICO: false, JUSTIFICANTE_OBLIGATORIO_DESDE: "0" });
      const g = await nuevo(empleado);
      await expect(enviar(empleado, g)).rejects.toThrow(
        "Adjunte el justificante (ticket o factura) antes de enviar el gasto a aprobación.",
      );
      expect((await row(g.id)).estado).toBe("borrador");
      await subir(empleado, g.id, [{ nombre: "ticket.png", datos: await unico() }]);
      await enviar(empleado, g);
      expect((await row(g.id)).estado).toBe("pendiente");

      await guardarAjustes(app.url, { PERMITIR_ADMIN_UNICO: false, JUSTIFICANTE_OBLIGATORIO_DESDE: "100.00" });
      await enviar(empleado, await nuevo(empleado, "99,99")); // below: not required
      await expect(enviar(empleado, await nuevo(empleado, "100,00"))).rejects.toThrow(
        /es obligatorio desde 100,00 €\.$/,
      );
      const g2 = await nuevo(empleado, "150,00");
      // Its record says so before «Enviar», in the same words; below the threshold, only a note.
      const antes = (id: string) => sqlStore(app.db, empleado.id).rpc<string[]>("avisos_antes_de_enviar", { p_id: id });
      expect(await antes(g2.id)).toEqual([
        "Adjunte el justificante (ticket o factura) antes de enviar el gasto a aprobación: es obligatorio desde 100,00 €.",
      ]);
      expect(await antes((await nuevo(empleado, "20,00")).id)).toEqual(["No lleva justificante."]);
      const r = await post(
        { intent: "enviar", id: g2.id, version: String(g2.version) },
        empleado.cookie,
        `/gastos?gasto=${g2.id}`,
      );
      // Through the list's form too: the Spanish message with a link to the panel's file field.
      expect(await flashOf(r)).toMatchObject({
        kind: "error",
        message: `Gasto ${g2.folio}: Adjunte el justificante (ticket o factura) antes de enviar el gasto a aprobación: es obligatorio desde 100,00 €.`,
        enlace: { href: `/gastos?gasto=${g2.id}#justificantes-archivos`, texto: "Adjuntar el justificante" },
      });
      expect((await row(g2.id)).estado).toBe("borrador");
    } finally {
      await guardarAjustes(app.url, { PERMITIR_ADMIN_UNICO: false, JUSTIFICANTE_OBLIGATORIO_DESDE: null });
    }
  });

  it("eliminar el gasto elimina sus justificantes; el barrido quita los archivos que nadie usa y los temporales", async () => {
    const g = await nuevo(empleado);
    const datos = await sharp({ create: { width: 77, height: 7, channels: 3, background: "blue" } })
      .png()
      .toBuffer();
    await subir(empleado, g.id, [{ nombre: "solo-aqui.png", datos }]);
    const [j] = await filas(g.id);
    await post(
      { intent: "eliminar", id: g.id, version: String((await row(g.id)).version) },
      empleado.cookie,
      `/gastos?gasto=${g.id}`,
    );
    expect(await filas(g.id)).toHaveLength(0);
    const tmp = path.join(dataDir, "justificantes", "tmp");
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(tmp, { recursive: true });
    writeFileSync(path.join(tmp, "cortado-por-un-sigkill"), "medio archivo");
    expect(await barrerJustificantes(app.url, dataDir)).toBe(0); // within the grace: kept
    expect(almacenados()).toContain(j!.sha256);
    const removed = await barrerJustificantes(app.url, dataDir, { graciaMs: 0 });
    expect(removed).toBeGreaterThanOrEqual(2); // the image and its thumbnail
    const left = almacenados();
    expect(left).not.toContain(j!.sha256);
    expect(left).not.toContain(j!.miniatura);
    expect(left).not.toContain("cortado-por-un-sigkill");
    // What rows still reference is kept.
    const [otro] = await app.db.selectFrom("justificantes").select("sha256").limit(1).execute();
    expect(left).toContain(otro!.sha256);
  });
});

describe("duplicados", () => {
  it("el mismo contenido en otro gasto: aviso con enlace; la función devuelve solo los gastos que quien pregunta ve", async () => {
    const datos = await sharp({ create: { width: 33, height: 11, channels: 3, background: "green" } })
      .png()
      .toBuffer();
    const primero = await nuevo(empleado);
    await subir(empleado, primero.id, [{ nombre: "taxi.png", datos }]);
    const segundo = await nuevo(empleado);
    const r = await subir(empleado, segundo.id, [{ nombre: "taxi-otra-vez.png", datos }]);
    expect(await flashOf(r)).toMatchObject({
      kind: "aviso",
      message: `«taxi-otra-vez.png» ya está adjunto a otro gasto (${primero.folio}): compruebe que no se reclama dos veces.`,
      enlace: { href: `/gastos?gasto=${primero.id}#gasto`, texto: `Ver el gasto ${primero.folio}` },
    });
    const [j] = await filas(segundo.id);
    const como = (u: TestUser) =>
      sqlStore(app.db, u.id).rpc<{ gasto_id: string; folio: string }[]>("gastos_con_justificante", {
        p_sha256: j!.sha256,
        p_excepto: segundo.id,
      });
    expect((await como(empleado)).map((d) => d.gasto_id)).toEqual([primero.id]);
    expect(await como(empleado2)).toEqual([]); // sees neither gasto
    // Still attached: a duplicate is a warning, not a refusal.
    expect(await filas(segundo.id)).toHaveLength(1);
    // The panel says it beside the receipt, with the other gasto's folio (only to those who see it).
    type Panel = { panel: { justificantes: { nombre: string; duplicado: { folio: string } | null }[] } };
    const panel = (u: TestUser) => list(`?gasto=${segundo.id}`, u.cookie) as Promise<Panel>;
    expect((await panel(empleado)).panel.justificantes).toMatchObject([
      { nombre: "taxi-otra-vez.png", duplicado: { folio: primero.folio } },
    ]);
    expect((await panel(admin)).panel.justificantes[0]!.duplicado?.folio).toBe(primero.folio);
  });
});

describe("enviar un gasto con un justificante duplicado", () => {
  it("pide el «Motivo del duplicado» (en la función de la base de datos) y lo deja en el historial", async () => {
    const datos = await sharp({ create: { width: 33, height: 21, channels: 3, background: { r: 9, g: 99, b: 199 } } })
      .png()
      .toBuffer();
    const primero = await nuevo(empleado);
    await subir(empleado, primero.id, [{ nombre: "taxi.png", datos }]);
    // On empleado2's own gasto: the other gasto is one empleado2 cannot see, and is asked all the same.
    const segundo = await nuevo(empleado2);
    await subir(empleado2, segundo.id, [{ nombre: "taxi.png", datos }]);
    const enviar = (motivo?: string) =>
      post(
        {
          intent: "enviar",
          id: segundo.id,
          version: "1",
          ...(motivo === undefined ? {} : { motivo_duplicado: motivo }),
        },
        empleado2.cookie,
        `/gastos?gasto=${segundo.id}`,
      );
    const mensaje =
      "Un justificante de este gasto ya está adjunto a otro gasto: indique el motivo del duplicado para enviarlo a aprobación.";
    for (const motivo of [undefined, "   "]) {
      const r = await enviar(motivo);
      expect(r.status).toBe(400);
      const body = (await r.json()) as { intent: string; result: { error: Record<string, string[]> } };
      expect(body.intent).toBe("enviar");
      expect(body.result.error.motivo_duplicado).toEqual([mensaje]);
      expect((await row(segundo.id)).estado).toBe("borrador");
    }
    // Directly too: the rule is the function's, whatever backend calls it.
    await expect(
      sqlStore(app.db, empleado2.id).rpc("enviar_gasto", { p_id: segundo.id, p_version: 1 }),
    ).rejects.toThrow(mensaje);
    await expect(
      sqlStore(app.db, empleado2.id).rpc("enviar_gasto", {
        p_id: segundo.id,
        p_version: 1,
        p_motivo_duplicado: "x".repeat(501),
      }),
    ).rejects.toThrow(/500 caracteres/);
    // The panel's flag for the send form (only for a gasto the caller sees).
    expect(await sqlStore(app.db, empleado2.id).rpc("gasto_lleva_duplicado", { p_gasto: segundo.id })).toBe(true);
    expect(await sqlStore(app.db, empleado2.id).rpc("gasto_lleva_duplicado", { p_gasto: primero.id })).toBe(false);

    const r = await enviar("Ticket compartido con Elena: cada uno paga su mitad");
    expect(r.status).toBe(302);
    expect((await row(segundo.id)).estado).toBe("pendiente");
    const historial = await app.db
      .selectFrom("historial")
      .select(["actor_id", "cambios"])
      .where("registro_id", "=", segundo.id)
      .orderBy("id")
      .execute();
    expect(historial.at(-1)).toEqual({
      actor_id: empleado2.id,
      cambios: { motivo_duplicado: { antes: null, despues: "Ticket compartido con Elena: cada uno paga su mitad" } },
    });
    // A gasto without a duplicate is sent as before, with no reason asked.
    const solo = await nuevo(empleado2);
    const unico = await sharp({ create: { width: 34, height: 21, channels: 3, background: { r: 9, g: 99, b: 199 } } })
      .png()
      .toBuffer();
    await subir(empleado2, solo.id, [{ nombre: "unico.png", datos: unico }]);
    const r2 = await post(
      { intent: "enviar", id: solo.id, version: "1" },
      empleado2.cookie,
      `/gastos?gasto=${solo.id}`,
    );
    expect(r2.status).toBe(302);
    expect((await row(solo.id)).estado).toBe("pendiente");
  });
});

describe("el bucket de Supabase Storage (sus políticas, creadas aquí sobre supabase/compat/0004_storage.sql)", () => {
  /** Runs `q` as `u` through PostgREST's role and claims, in a transaction rolled back at the end. */
  async function como<T>(u: TestUser, q: (db: typeof app.db) => Promise<T>): Promise<T> {
    let result: T;
    const rollback = new Error("rollback");
    try {
      await app.db.transaction().execute(async (trx) => {
        await sql`select set_config('role', 'authenticated', true),
          set_config('request.jwt.claims', ${JSON.stringify({ sub: u.id, role: "authenticated" })}, true)`.execute(trx);
        result = await q(trx);
        throw rollback;
      });
    } catch (error) {
      if (error !== rollback) throw error;
    }
    return result!;
  }
  const subirObjeto = (u: TestUser, name: string) =>
    como(u, (db) =>
      sql`insert into storage.objects (bucket_id, name) values ('justificantes', ${name})`.execute(db).then(() => "ok"),
    );
  const leerObjeto = async (u: TestUser, name: string) => {
    await sql`insert into storage.objects (bucket_id, name) values ('justificantes', ${name})
      on conflict do nothing`.execute(app.db);
    return como(
      u,
      async (db) =>
        (await sql<{ name: string }>`select name from storage.objects where name = ${name}`.execute(db)).rows.length,
    );
  };

  it("es privado, con los tipos y el tamaño de un justificante", async () => {
    const { rows } = await sql<{ public: boolean; file_size_limit: number; allowed_mime_types: string[] }>`
      select public, file_size_limit, allowed_mime_types from storage.buckets where id = 'justificantes'`.execute(
      app.db,
    );
    expect(rows).toEqual([
      {
        public: false,
        file_size_limit: 10485760,
        allowed_mime_types: ["image/jpeg", "image/png", "image/webp", "application/pdf"],
      },
    ]);
  });

  it("da a cada archivo exactamente la visibilidad de su gasto; sube y quita quien puede editarlo", async () => {
    const g = await nuevo(empleado);
    await subir(empleado, g.id, [{ nombre: "ticket.png", datos: await unico() }]);
    const [j] = await filas(g.id);
    const propio = `${g.id}/${j!.sha256}`;
    const otro = "f".repeat(64);

    // Upload: the gasto's editors, into its folder, a hash as name; nobody else.
    expect(await subirObjeto(empleado, `${g.id}/${otro}`)).toBe("ok");
    expect(await subirObjeto(admin, `${g.id}/${otro}`)).toBe("ok");
    await expect(subirObjeto(empleado2, `${g.id}/${otro}`)).rejects.toThrow(/row-level security/);
    await expect(subirObjeto(aprobador, `${g.id}/${otro}`)).rejects.toThrow(/row-level security/);
    await expect(subirObjeto(empleado, `${g.id}/ticket.html`)).rejects.toThrow(/row-level security/);
    await expect(subirObjeto(empleado, otro)).rejects.toThrow(/row-level security/);

    // Read: only a file a row of that gasto names, by whoever sees the gasto.
    expect(await leerObjeto(empleado, propio)).toBe(1);
    expect(await leerObjeto(admin, propio)).toBe(1);
    expect(await leerObjeto(empleado2, propio)).toBe(0);
    expect(await leerObjeto(empleado, `${g.id}/${otro}`)).toBe(0); // no row names it
    // Knowing the hash opens nothing: the same content under another gasto's folder is that gasto's.
    const ajeno = await nuevo(empleado2);
    expect(await leerObjeto(empleado2, `${ajeno.id}/${j!.sha256}`)).toBe(0);

    // Sent for approval: its approver now sees the file; its editors can no longer add or remove.
    await sqlStore(app.db, empleado.id).rpc("enviar_gasto", { p_id: g.id, p_version: (await row(g.id)).version });
    expect(await leerObjeto(aprobador, propio)).toBe(1);
    await expect(subirObjeto(empleado, `${g.id}/${otro}`)).rejects.toThrow(/row-level security/);
    const quitados = await como(empleado, async (db) =>
      Number((await sql`delete from storage.objects where name = ${propio}`.execute(db)).numAffectedRows),
    );
    expect(quitados).toBe(0);
  });
});
