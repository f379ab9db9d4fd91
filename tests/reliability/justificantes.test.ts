import { readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { Browser, httpRequest, withOwner, type ServerProcess } from "../support/server-process";
import { disposeServer, startOnEmptyDataDir } from "../support/server-suite";
import { archivos } from "../support/justificantes";
import { createOrganisation, gastoForm, gastoIdOf, PASSWORD, workDir } from "./support";

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
    ]),
  );
  elena = new Browser(server.url);
  await elena.signIn(org.accounts.elena!.email, PASSWORD);
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

  it("un archivo de 11 MB se rechaza mientras llega (413), sin guardar nada; 2 GB declarados, sin leer nada", async () => {
    const before = almacenados();
    const boundary = "----oficina-prueba";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="justificantes"; filename="enorme.jpg"\r\n` +
        `Content-Type: image/jpeg\r\n\r\n`,
    );
    const size = 11 * 1024 * 1024;
    const result = await new Promise<{ status: number; sent: number; body: string }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
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
            "Content-Length": head.length + size + boundary.length + 8,
          },
        },
        (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode!, sent, body: Buffer.concat(chunks).toString() }));
        },
      );
      req.on("error", (e) => (answered ? undefined : reject(e)));
      req.write(head);
      const chunk = Buffer.alloc(64 * 1024, 0xff);
      // Half a megabyte short of the end the client waits: the answer must come without the rest.
      const pause = size - 512 * 1024;
      const pump = () => {
        while (!answered && sent < pause) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        setTimeout(() => {
          if (answered) return;
          req.write(Buffer.alloc(size - sent, 0xff));
          sent = size;
          req.end(`\r\n--${boundary}--\r\n`);
        }, 10_000).unref();
      };
      pump();
    });
    expect(result.status).toBe(413);
    expect(result.body).toMatch(/«enorme\.jpg» ocupa más de 10 MB/);
    expect(result.sent).toBeLessThan(size); // answered before the client finished sending
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
});
