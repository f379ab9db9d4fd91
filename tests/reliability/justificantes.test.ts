import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import http from "node:http";
import path from "node:path";
import {
  Browser,
  httpRequest,
  median,
  rssMb,
  startServer,
  withOwner,
  workerPids,
  type ServerProcess,
  serverCpuOf,
  until,
  postmasterPid,
  isAlive,
} from "../support/server-process";
import { disposeServer, startOnEmptyDataDir } from "../support/server-suite";
import sharp from "sharp";
import { inspeccionarPdf } from "~/justificantes/pdf.server";
import { descartar, recibir } from "~/justificantes/subir.server";
import { archivos, pngEnBlanco } from "../support/justificantes";
import { createOrganisation, figure, gastoForm, gastoIdOf, PASSWORD, workDir } from "./support";

/**
 * Receipts through the real production server (ADR 0018): the upload route's own body policy
 * streams to disk while every other route keeps the 1 MiB limit, an oversize file is refused
 * while it is still arriving with nothing stored, and the download's headers as a browser gets
 * them. JUSTIFICANTE_OBLIGATORIO_DESDE is written into the database at start.
 */
const dataDir = workDir("justificantes");
let server: ServerProcess;
let elena: Browser;
let gastoId: string;
let email: string;
let emailCarga: string;

beforeAll(async () => {
  server = await startOnEmptyDataDir({
    dataDir,
    nodeEnv: "production",
    env: { JUSTIFICANTE_OBLIGATORIO_DESDE: "25,50" },
  });
  const org = await withOwner(dataDir, (c) =>
    createOrganisation(c, [
      { key: "admin", rol: "administrador" },
      { key: "elena", rol: "empleado" },
      { key: "carga", rol: "empleado" },
    ]),
  );
  email = org.accounts.elena!.email;
  emailCarga = org.accounts.carga!.email;
  elena = new Browser(server.url);
  await elena.signIn(email, PASSWORD);
  gastoId = gastoIdOf((await elena.post("/gastos?index", gastoForm())).location)!;
});
afterAll(() => disposeServer(server, dataDir));

/** Every file under DATA_DIR/justificantes (temp files included). */
function almacenados() {
  try {
    return readdirSync(path.join(dataDir, "justificantes"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

async function multipart(files: { nombre: string; datos: Buffer }[]) {
  const form = new FormData();
  for (const f of files) form.append("justificantes", new Blob([new Uint8Array(f.datos)]), f.nombre);
  const r = new Response(form);
  return { body: Buffer.from(await r.arrayBuffer()), contentType: r.headers.get("Content-Type")! };
}

const sameOrigin = () => ({
  Origin: new URL(server.url).origin,
  "Sec-Fetch-Site": "same-origin",
  Cookie: elena.cookieHeader(),
});

describe("justificantes por el servidor real", () => {
  it("el ajuste llega a la base de datos al arrancar", async () => {
    const { rows } = await withOwner(dataDir, (c) =>
      c.query("select justificante_obligatorio_desde::text as v from interno.ajustes"),
    );
    expect(rows[0].v).toBe("25.50");
  });

  it("adjunta por la ruta de subida (más de 1 MiB en un envío) y descarga con las cabeceras que aíslan el archivo", async () => {
    const pdfGrande = Buffer.concat([
      Buffer.from("%PDF-1.4\n% relleno\n"),
      Buffer.alloc(1_500_000, 0x20),
      archivos.pdf().subarray(9),
    ]);
    const { body, contentType } = await multipart([
      { nombre: "ticket.png", datos: await archivos.png() },
      { nombre: "factura grande.pdf", datos: pdfGrande },
    ]);
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const r = await httpRequest(server.url, `/gastos/${gastoId}/justificantes`, {
      method: "POST",
      body,
      headers: { ...sameOrigin(), "Content-Type": contentType },
    });
    expect([r.status, r.location]).toEqual([302, `/gastos?gasto=${gastoId}`]);
    const { rows } = await withOwner(dataDir, (c) =>
      c.query("select id, nombre, bytes from justificantes where gasto_id = $1 order by creado_en", [gastoId]),
    );
    expect(rows.map((j) => j.nombre)).toEqual(["ticket.png", "factura grande.pdf"]);

    const d = await elena.get(`/justificantes/${rows[1].id}`);
    expect(d.status).toBe(200);
    expect(d.body.length).toBe(pdfGrande.length);
    expect(d.headers["content-type"]).toBe("application/pdf");
    expect(d.headers["content-disposition"]).toBe(
      `inline; filename="factura grande.pdf"; filename*=UTF-8''factura%20grande.pdf`,
    );
    expect(d.headers["x-content-type-options"]).toBe("nosniff");
    expect(d.headers["content-security-policy"]).toBe("sandbox; default-src 'none'");
    expect(d.headers["cache-control"]).toBe("private, no-store");
  });

  it("las demás rutas conservan el límite de 1 MiB", async () => {
    const r = await elena.post("/gastos?index", gastoForm({ notas: "x".repeat(1_100_000) }));
    expect(r.status).toBe(413);
  });

  it("un archivo de 11 MB no se guarda y la ficha sigue (302 con el motivo); 2 GB declarados, sin leer nada", async () => {
    const before = almacenados();
    const boundary = "----oficina-prueba";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="justificantes"; filename="enorme.jpg"\r\n` +
        `Content-Type: image/jpeg\r\n\r\n`,
    );
    // Read to the end (what follows the file in the form still counts), none of it kept.
    const enorme = Buffer.concat([head, Buffer.alloc(11 * 1024 * 1024, 0xff), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const result = await httpRequest(server.url, `/gastos/${gastoId}/justificantes`, {
      method: "POST",
      body: enorme,
      headers: { ...sameOrigin(), "Content-Type": `multipart/form-data; boundary=${boundary}` },
    });
    expect([result.status, result.location]).toEqual([302, `/gastos?gasto=${gastoId}`]);
    expect(almacenados()).toEqual(before);

    const huge = await new Promise<number>((resolve) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: server.port,
          path: `/gastos/${gastoId}/justificantes`,
          method: "POST",
          agent: false,
          headers: {
            ...sameOrigin(),
            "Content-Type": `multipart/form-data; boundary=${boundary}`,
            "Content-Length": 2 * 1024 ** 3,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on("error", () => undefined);
      req.write(head); // and nothing more: the answer must not wait for the body
    });
    expect(huge).toBe(413);
    expect(almacenados()).toEqual(before);
    // The server is still fine afterwards.
    expect((await elena.get(`/gastos?gasto=${gastoId}`)).status).toBe(200);
  });

  /** The gasto's receipts and its version, as the owner sees them. */
  const estado = () =>
    withOwner(dataDir, async (c) => ({
      filas: (await c.query("select count(*)::int as n from justificantes where gasto_id = $1", [gastoId])).rows[0].n,
      version: (await c.query("select version from gastos where id = $1", [gastoId])).rows[0].version,
    }));

  /**
   * A multipart upload of `size` bytes for one file, written in 64 KiB chunks; `onProgress` sees
   * the bytes sent and may stop sending (returns true). Resolves with the answer, or null if the
   * connection was cut first.
   */
  function enviar(o: {
    size: number;
    chunked?: boolean;
    declared?: number;
    onProgress?: (sent: number) => boolean | void;
  }): Promise<{ status: number; body: string; sent: number } | null> {
    const boundary = "----oficina-fallo";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="justificantes"; filename="ticket.pdf"\r\n` +
        `Content-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
    const tail = Buffer.from(`\n%%EOF\n\r\n--${boundary}--\r\n`);
    return new Promise((resolve) => {
      let sent = 0;
      let done = false;
      const finish = (v: { status: number; body: string; sent: number } | null) => {
        if (!done) resolve(v);
        done = true;
      };
      const req = http.request(
        {
          host: "127.0.0.1",
          port: server.port,
          path: `/gastos/${gastoId}/justificantes`,
          method: "POST",
          agent: false,
          headers: {
            ...sameOrigin(),
            "Content-Type": `multipart/form-data; boundary=${boundary}`,
            ...(o.chunked ? {} : { "Content-Length": o.declared ?? head.length + o.size + tail.length }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => finish({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), sent }));
          res.on("error", () => finish(null));
        },
      );
      // A refused body may cut the connection while it is still being written: the answer, if
      // there is one, is already on its way.
      let stopped = false;
      req.on("error", () => {
        stopped = true;
        setTimeout(() => finish(null), 2_000).unref();
      });
      req.on("close", () => setTimeout(() => finish(null), 2_000).unref());
      req.write(head);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!done && !stopped && sent < o.size) {
          if (o.onProgress?.(sent)) return;
          const n = Math.min(chunk.length, o.size - sent);
          sent += n;
          if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once("drain", pump);
        }
        if (!done && !stopped && sent >= o.size) req.end(tail);
      };
      pump();
    });
  }

  const conPrlimit = spawnSync("prlimit", ["--version"]).status === 0;

  // Disk full, as the server sees it: no tmpfs can be mounted here without privileges, and the
  // server runs as root (so a read-only directory does not stop it). A file-size limit
  // (RLIMIT_FSIZE, soft) on the running server's processes makes every write past 256 KiB fail
  // with EFBIG — the same failed write as ENOSPC, in the same place. Postgres, started before,
  // keeps its own limits, so the gasto can still be read.
  it.skipIf(!conPrlimit)("disco lleno: un mensaje claro en español, nada guardado, el gasto intacto", async () => {
    const antes = await estado();
    const archivosAntes = almacenados();
    const limitar = (v: string) => {
      for (const pid of [server.pid, ...workerPids(server.pid)])
        expect(spawnSync("prlimit", ["--pid", String(pid), `--fsize=${v}:`]).status).toBe(0);
    };
    limitar(String(256 * 1024));
    let r;
    try {
      r = await enviar({ size: 1024 * 1024 });
    } finally {
      limitar("unlimited");
    }
    expect(r?.status).toBe(507);
    // The site's error page with the message (the upload route is a page: no bare JSON).
    expect(r!.body).toContain(
      "El servidor no tiene espacio en disco para guardar los justificantes: no se ha adjuntado ningún archivo y el gasto no ha cambiado. Avise a un administrador.",
    );
    expect(await estado()).toEqual(antes);
    expect(almacenados()).toEqual(archivosAntes); // the temp file is gone too
    expect((await elena.get(`/gastos?gasto=${gastoId}`)).status).toBe(200);
    figure(
      `Justificantes — disco lleno (límite de tamaño de archivo de 256 KiB en el servidor, subida de 1 MiB): 507 con mensaje en español, 0 filas y 0 archivos nuevos, el gasto en su versión ${antes.version}`,
    );
  });

  it("2 GB enviados de verdad (declarados, o por trozos sin tamaño): rechazados al empezar, memoria plana", async () => {
    const antes = await estado();
    const archivosAntes = almacenados();
    const base = rssMb(server.pid);
    let max = base;
    const sample = setInterval(() => (max = Math.max(max, rssMb(server.pid))), 50);
    const dos = 2 * 1024 ** 3;
    const t0 = Date.now();
    const declarado = await enviar({ size: dos });
    const tDeclarado = Date.now() - t0;
    const t1 = Date.now();
    const trozos = await enviar({ size: dos, chunked: true });
    const tTrozos = Date.now() - t1;
    clearInterval(sample);
    expect(declarado?.status).toBe(413);
    expect(trozos?.status).toBe(411);
    // Refused at the start: far less than the 2 GB was sent before the answer, and quickly.
    for (const r of [declarado!, trozos!]) expect(r.sent).toBeLessThan(64 * 1024 * 1024);
    expect(max - base).toBeLessThan(50);
    expect(await estado()).toEqual(antes);
    expect(almacenados()).toEqual(archivosAntes);
    figure(
      `Justificantes — 2 GB en el cuerpo: con Content-Length 413 en ${tDeclarado} ms tras ${(declarado!.sent / 1024 ** 2).toFixed(1)} MiB enviados; por trozos sin tamaño 411 en ${tTrozos} ms tras ${(trozos!.sent / 1024 ** 2).toFixed(1)} MiB; memoria del servidor ${base.toFixed(0)} → máx. ${max.toFixed(0)} MB (+${(max - base).toFixed(1)}); nada guardado`,
    );
  });

  it("rechazado antes de que llegue el cuerpo, la respuesta llega siempre: 60 envíos por trozos sin tamaño, 60 veces 411", async () => {
    // Node closes such a connection once it has answered; closed with the body still arriving,
    // the reset could overtake the answer (server.ts lingerIfRefusedEarly).
    const estados: (number | undefined)[] = [];
    for (let i = 0; i < 60; i++) estados.push((await enviar({ size: 64 * 1024 * 1024, chunked: true }))?.status);
    expect(estados.filter((e) => e !== 411)).toEqual([]);
  });

  it("10 MB que sí se leen (el máximo de un archivo) suben la memoria del servidor poco: se escriben al disco al llegar", async () => {
    const base = rssMb(server.pid);
    let max = base;
    const sample = setInterval(() => (max = Math.max(max, rssMb(server.pid))), 50);
    // Not a valid PDF inside (spaces): read whole, staged, then refused by its content.
    const r = await enviar({ size: 10 * 1024 * 1024 - 64 });
    clearInterval(sample);
    expect(r?.status).toBe(302);
    expect(max - base).toBeLessThan(60);
    figure(
      `Justificantes — un archivo de 10 MB leído entero por la ruta de subida: memoria del servidor ${base.toFixed(0)} → máx. ${max.toFixed(0)} MB (+${(max - base).toFixed(1)})`,
    );
  });

  it("SIGKILL a mitad de una subida: ninguna fila, y ningún archivo tras el barrido del siguiente arranque", async () => {
    const antes = await estado();
    const archivosAntes = almacenados();
    const tmp = path.join(dataDir, "justificantes", "tmp");
    const temporales = () => {
      try {
        return readdirSync(tmp);
      } catch {
        return [];
      }
    };
    let killed = false;
    const r = await enviar({
      size: 8 * 1024 * 1024,
      onProgress: (sent) => {
        // Once the server has begun writing this body to its temp file.
        if (!killed && sent > 2 * 1024 * 1024 && temporales().length > 0) {
          killed = true;
          server.signalGroup("SIGKILL");
          return true;
        }
      },
    });
    expect(killed).toBe(true);
    expect(r).toBeNull(); // the connection was cut: no answer
    await server.exited;
    expect(temporales().length).toBeGreaterThan(0); // what the crash left
    await until("su Postgres ha terminado también", () => {
      const pid = postmasterPid(dataDir);
      return !pid || !isAlive(pid);
    });

    server = await startServer({
      dataDir,
      port: server.port,
      nodeEnv: "production",
      env: { JUSTIFICANTE_OBLIGATORIO_DESDE: "25,50" },
    });
    elena = new Browser(server.url);
    await elena.signIn(email, PASSWORD);
    expect(await estado()).toEqual(antes);
    expect(temporales()).toEqual([]);
    expect(almacenados()).toEqual(archivosAntes);
    expect((await elena.get(`/gastos?gasto=${gastoId}`)).status).toBe(200);
    figure(
      "Justificantes — SIGKILL (servidor y su Postgres) a mitad de una subida de 8 MiB: 0 filas nuevas; el archivo temporal que dejó lo quita el barrido del siguiente arranque; 0 archivos huérfanos",
    );
  });
});

/**
 * What one upload can make the server's processors do: the CPU of the
 * server's processes (/proc) while each request is answered, for the costliest uploads the
 * limits let through, and /gastos answering while ten of them arrive at once.
 */
describe("el coste de una subida", () => {
  let carga: Browser;
  beforeAll(async () => {
    carga = new Browser(server.url);
    await carga.signIn(emailCarga, PASSWORD);
  });

  const cpuOf = <T>(fn: () => Promise<T>) => serverCpuOf(server, fn);

  async function subirA(gasto: string, files: { nombre: string; datos: Buffer }[], rutaDeDatos?: string) {
    const { body, contentType } = await multipart(files);
    // The answer's cookies (the flash with what was refused) go to this person's browser.
    return carga.absorb(
      await httpRequest(
        server.url,
        `/gastos/${gasto}/justificantes${rutaDeDatos ? `?_data=${encodeURIComponent(rutaDeDatos)}` : ""}`,
        {
          method: "POST",
          body,
          headers: {
            Origin: new URL(server.url).origin,
            "Sec-Fetch-Site": "same-origin",
            Cookie: carga.cookieHeader(),
            "Content-Type": contentType,
          },
        },
      ),
    );
  }
  const nuevoGasto = async () => gastoIdOf((await carga.post("/gastos?index", gastoForm())).location)!;
  const filasDe = async (gasto: string) =>
    (
      await withOwner(dataDir, (c) =>
        c.query("select nombre, bytes from justificantes where gasto_id = $1 order by creado_en", [gasto]),
      )
    ).rows as { nombre: string; bytes: number }[];

  /**
   * The same upload with none of the server's limits, checked in this process at the same
   * moment: the body read by the server's own code (recibir, in 64 KiB pieces as a socket gives
   * them), then what the server would do with each file without its pixel limit and budget. A
   * file the upload carries n times is checked here until a second of CPU went to it (once at
   * least, n times at most), and its mean counted n times. CPU of this process
   * (process.cpuUsage): libvips's threads count too.
   */
  async function sinLimites(files: Buffer[], comprobar?: (datos: Buffer) => Promise<unknown> | unknown) {
    const { body, contentType } = await multipart(files.map((datos, i) => ({ nombre: `archivo-${i + 1}`, datos })));
    const trozo = 64 * 1024;
    const staging = mkdtempSync(path.join(tmpdir(), "oficina-sin-limites-"));
    const concurrencia = sharp.concurrency();
    sharp.concurrency(1); // as the server has it (procesar.server.ts)
    const cpu = async (fn: () => Promise<unknown>) => {
      const t = process.cpuUsage();
      await fn();
      const u = process.cpuUsage(t);
      return (u.user + u.system) / 1000;
    };
    try {
      let ms = await cpu(async () => {
        const request = new Request("http://referencia.test/", {
          method: "POST",
          headers: { "Content-Type": contentType },
          body: new ReadableStream({
            start(c) {
              for (let i = 0; i < body.length; i += trozo) c.enqueue(body.subarray(i, i + trozo));
              c.close();
            },
          }),
          duplex: "half",
        } as RequestInit);
        const { archivos } = await recibir(request, { temporal: async () => path.join(staging, randomUUID()) });
        await descartar(archivos);
      });
      if (comprobar) {
        const copias = new Map<Buffer, number>();
        for (const f of files) copias.set(f, (copias.get(f) ?? 0) + 1);
        for (const [datos, n] of copias) {
          let [veces, gastado] = [0, 0];
          while (veces < n && (veces === 0 || gastado < 1000)) {
            gastado += await cpu(async () => comprobar(datos));
            veces += 1;
          }
          ms += (gastado / veces) * n;
        }
      }
      return Math.round(ms);
    } finally {
      sharp.concurrency(concurrencia);
      rmSync(staging, { recursive: true, force: true });
    }
  }

  /**
   * An image as the server would take it with no pixel limit or budget: decoded whole, reduced to
   * the 3 MP it keeps, re-encoded as it was, and its thumbnail.
   */
  async function imagenSinLimites(datos: Buffer) {
    const entrada = () => sharp(datos, { limitInputPixels: false, sequentialRead: true });
    const { width = 0, height = 0, format } = await entrada().metadata();
    const escala = Math.min(1, Math.sqrt(3_000_000 / (width * height)));
    const [ancho, alto] = [width, height].map((lado) => Math.max(1, Math.round(lado * escala)));
    const reducida = entrada().resize(ancho, alto, { fit: "fill" });
    const salida = await (
      format === "jpeg"
        ? reducida.jpeg({ quality: 85 })
        : format === "png"
          ? reducida.png()
          : reducida.webp({ quality: 85, effort: 1 })
    ).toBuffer();
    await sharp(salida).resize(320, 320, { fit: "inside", withoutEnlargement: true }).webp({ quality: 70 }).toBuffer();
  }

  it("las subidas más costosas tienen su CPU acotada frente a sin límite (la misma subida comprobada aquí, a la vez); lo que no cabe se rechaza por su nombre", async () => {
    const bit = await pngEnBlanco(7740, 7740, { bits: 1 }); // the probe's: 60 MP in 7 KB
    const bitJusto = await pngEnBlanco(7070, 7070, { bits: 1 }); // just under the 50 MP cap
    const rgba16 = await pngEnBlanco(7000, 7000, { bits: 16, color: 6 }); // the probe's 16-bit RGBA
    const rgba16Medio = await pngEnBlanco(4000, 4000, { bits: 16, color: 6 });
    // A PDF of 10 MB that is all syntax to read (names), and a photo of 12 MP as WebP full of detail.
    const cuerpo = "/a/b".repeat((10 * 1024 * 1024 - 200) / 4);
    const pdfDenso = Buffer.from(`%PDF-1.4\n1 0 obj\n<<${cuerpo}>>\nendobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`, "latin1");
    const ruido = Buffer.alloc(4032 * 3024 * 3);
    for (let i = 0; i < ruido.length; i++) ruido[i] = (i * 2654435761) >>> 24;
    const webp = await sharp(ruido, { raw: { width: 4032, height: 3024, channels: 3 } })
      .webp({ quality: 90 })
      .toBuffer();
    // `proporcion`: the server's CPU stays under this much of the same upload with no limits,
    // checked here (sinLimites). Without its pixel limit and budget the server would decode every
    // image, at least that work; with them it decodes one of ten at most: a third leaves room
    // both ways.
    const imagen = { comprobar: imagenSinLimites, proporcion: 1 / 3 };
    const casos: {
      caso: string;
      files: Buffer[];
      comprobar?: (datos: Buffer) => unknown;
      proporcion: number;
      /** The server's cost of receiving ten files of 10 MB: measured by this case, used by the PDFs'. */
      recepcion?: true;
      sobreLaRecepcion?: true;
    }[] = [
      { caso: "10 PNG de 1 bit de 7740 × 7740", files: Array.from({ length: 10 }, () => bit), ...imagen },
      { caso: "1 PNG RGBA de 16 bits de 7000 × 7000", files: [rgba16], ...imagen },
      { caso: "10 PNG de 1 bit de 7070 × 7070", files: Array.from({ length: 10 }, () => bitJusto), ...imagen },
      {
        caso: "10 PNG RGBA de 16 bits de 4000 × 4000",
        files: Array.from({ length: 10 }, () => rgba16Medio),
        ...imagen,
      },
      {
        caso: "10 archivos de 10 MB sin formato (rechazados al leer su cabecera)",
        files: Array.from({ length: 10 }, () => Buffer.alloc(10 * 1024 * 1024, 0x20)),
        // Nothing to decode, here or there: refused by their header, they cost what receiving them
        // costs, which the server's HTTP layers make two to four times what recibir alone costs
        // here; twice that leaves room.
        proporcion: 8,
        recepcion: true,
      },
      {
        caso: "10 PDF de 10 MB de sintaxis",
        files: Array.from({ length: 10 }, () => pdfDenso),
        // Checking a PDF reads all its bytes, with no decode to run away, and the budget stops
        // after two of the ten. Bounded by what the server would cost checking all ten: receiving
        // the same bytes (the case before, measured on the server) plus ten checks (measured here).
        // recibir's own cost is no part of it: the server receives through more layers.
        comprobar: (datos) => inspeccionarPdf(datos),
        proporcion: 1,
        sobreLaRecepcion: true,
      },
      {
        caso: `10 WebP de 12 MP (${(webp.length / 1024 ** 2).toFixed(1)} MB)`,
        files: Array.from({ length: 10 }, () => webp),
        ...imagen,
      },
    ];
    // Each case is judged as soon as it is measured: after one with no limit, the rest would only
    // run into the test's timeout. The figure reports what was measured, also when one fails.
    const cifras: string[] = [];
    try {
      let recepcion: { ms: number; sinLimite: number } | null = null;
      for (const { caso, files, comprobar, proporcion, ...c } of casos) {
        const gasto = await nuevoGasto();
        const { ms, r } = await cpuOf(() =>
          subirA(
            gasto,
            files.map((datos, i) => ({ nombre: `archivo-${i + 1}`, datos })),
          ),
        );
        const sinLimite = await sinLimites(files, comprobar);
        const filas = await filasDe(gasto);
        cifras.push(
          `${caso}: ${ms} ms (${filas.length} adjuntadas; sin límites, aquí: ${sinLimite} ms, ${(ms / sinLimite).toFixed(2)})`,
        );
        expect(r.status, caso).toBe(302);
        const techo =
          c.sobreLaRecepcion && recepcion
            ? recepcion.ms + (sinLimite - recepcion.sinLimite)
            : Math.round(sinLimite * proporcion);
        expect(ms, `${caso}: CPU del servidor; sin límites, aquí: ${sinLimite} ms`).toBeLessThan(techo);
        if (c.recepcion) recepcion = { ms, sinLimite };
      }
    } finally {
      figure(`Justificantes — CPU del servidor por subida: ${cifras.join("; ")}`);
    }
  });

  it("los rechazos dicen por qué: demasiados píxeles, demasiada información, o «en otro envío»", async () => {
    const gasto = await nuevoGasto();
    const bitJusto = await pngEnBlanco(7070, 7070, { bits: 1 });
    const r = await subirA(gasto, [
      { nombre: "grande.png", datos: await pngEnBlanco(7740, 7740, { bits: 1 }) },
      { nombre: "profunda.png", datos: await pngEnBlanco(7000, 7000, { bits: 16, color: 6 }) },
      ...Array.from({ length: 4 }, (_, i) => ({ nombre: `justa-${i + 1}.png`, datos: bitJusto })),
    ]);
    expect(r.status).toBe(302);
    const filas = await filasDe(gasto);
    expect(filas.length).toBeGreaterThan(0);
    expect(filas.length).toBeLessThan(4);
    const pagina = (await carga.get(r.location!)).text();
    expect(pagina).toContain(
      "«grande.png» no se ha adjuntado: la imagen tiene demasiados píxeles (más de 50 megapíxeles)",
    );
    expect(pagina).toContain(
      "«profunda.png» no se ha adjuntado: la imagen lleva demasiada información para procesarla",
    );
    expect(pagina).toContain(
      `«justa-${filas.length + 1}.png» no se ha adjuntado: esta subida ya lleva mucho que comprobar: adjunte este archivo en otro envío.`,
    );
  });

  it("diez subidas costosas a la vez: /gastos sigue respondiendo", async () => {
    const bitJusto = await pngEnBlanco(7070, 7070, { bits: 1 });
    const gastos = await Promise.all(Array.from({ length: 10 }, () => nuevoGasto()));
    const tiempos: number[] = [];
    let subiendo = true;
    const sondeo = (async () => {
      while (subiendo) {
        const t0 = Date.now();
        const p = await carga.get("/gastos");
        expect(p.status).toBe(200);
        tiempos.push(Date.now() - t0);
      }
    })();
    const t0 = Date.now();
    const { ms, r } = await cpuOf(() =>
      Promise.all(
        gastos.map((g) =>
          subirA(
            g,
            Array.from({ length: 10 }, (_, i) => ({ nombre: `imagen-${i + 1}.png`, datos: bitJusto })),
          ),
        ),
      ),
    );
    const duracion = Date.now() - t0;
    subiendo = false;
    await sondeo;
    const ordenados = [...tiempos].sort((a, b) => a - b);
    const p95 = ordenados[Math.min(ordenados.length - 1, Math.ceil(ordenados.length * 0.95) - 1)]!;
    figure(
      `Justificantes — 10 subidas de 10 PNG de 7070 × 7070 a la vez: ${duracion} ms, CPU del servidor ${ms} ms; /gastos mientras tanto: ${tiempos.length} respuestas, mediana ${median(tiempos)} ms, p95 ${p95} ms`,
    );
    expect(r.map((x) => x.status)).toEqual(Array(10).fill(302));
    // Answering meanwhile, not after: a starved server would give one answer once the uploads end.
    // How fast is a figure (above), not an assertion: it depends on the machine.
    expect(tiempos.length).toBeGreaterThanOrEqual(3);
  });

  it("un archivo de exactamente 10 MB por el servidor real: adjuntado", async () => {
    const gasto = await nuevoGasto();
    const pdf = archivos.pdf();
    const cabecera = pdf.subarray(0, pdf.indexOf("\n") + 1);
    const justo = Buffer.concat([
      cabecera,
      Buffer.from(`%${"x".repeat(10 * 1024 * 1024 - pdf.length - 2)}\n`),
      pdf.subarray(cabecera.length),
    ]);
    expect(justo.length).toBe(10_485_760);
    const r = await subirA(gasto, [{ nombre: "justo.pdf", datos: justo }]);
    expect(r.status).toBe(302);
    expect(await filasDe(gasto)).toEqual([{ nombre: "justo.pdf", bytes: 10_485_760 }]);
  });

  it("por persona, como mucho 30 subidas cada 10 minutos: la siguiente, 429 con su mensaje y Retry-After", async () => {
    const gasto = await nuevoGasto();
    const estados: number[] = [];
    // The tests above spent some of this person's uploads: send until refused.
    for (let i = 0; i < 31; i++) {
      const r = await subirA(gasto, [{ nombre: "vacio.pdf", datos: Buffer.alloc(0) }]);
      estados.push(r.status);
      if (r.status === 429) {
        expect(r.text()).toContain("Ha adjuntado archivos muchas veces en poco tiempo: no se ha guardado nada. Espere");
        break;
      }
    }
    expect(estados.at(-1)).toBe(429);
    expect(estados.slice(0, -1).every((e) => e === 302)).toBe(true);
    // As the page's script sends it (Remix's data request): the wait in Retry-After.
    const datos = await subirA(
      gasto,
      [{ nombre: "vacio.pdf", datos: Buffer.alloc(0) }],
      "routes/gastos.$id.justificantes",
    );
    expect(datos.status).toBe(429);
    expect(Number(datos.headers["retry-after"])).toBeGreaterThan(0);
    // Another person is not affected.
    const otro = await multipart([{ nombre: "ticket.png", datos: await archivos.png() }]);
    const suyo = gastoIdOf((await elena.post("/gastos?index", gastoForm())).location)!;
    const r = await httpRequest(server.url, `/gastos/${suyo}/justificantes`, {
      method: "POST",
      body: otro.body,
      headers: { ...sameOrigin(), "Content-Type": otro.contentType },
    });
    expect(r.status).toBe(302);
  });
});
