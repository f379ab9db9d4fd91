import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { barrerSupabase, startBarrido } from "~/justificantes/barrido.server";
import { todayISO } from "~/lib/dates";
import { action } from "~/routes/gastos.$id.justificantes";
import { createTestApp, ORIGIN, request, respond, type TestApp, type TestUser } from "../support/app";
import { insertDepartamento, insertSucursal, setProfile } from "../support/fixtures";
import { gastosPage } from "../support/gastos";
import { formulario } from "../support/justificantes";

/**
 * The receipts' periodic sweep (ADR 0018). Local: through the real routes on a real Postgres, a
 * removed receipt's files go at the next run while referenced ones stay. Supabase: at its HTTP
 * boundary, a loopback server standing in for Storage (list, delete) and PostgREST (the rows),
 * holding a small bucket and table in memory and answering with the shapes they document.
 */

const HORA = 60 * 60 * 1000;
const hace = (ms: number) => new Date(Date.now() - ms);

async function hasta(condicion: () => boolean, ms = 10_000) {
  const fin = Date.now() + ms;
  while (!condicion()) {
    if (Date.now() > fin) throw new Error("La condición no se cumplió a tiempo");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("barrido local, periódico", () => {
  let app: TestApp;
  let dataDir: string;
  let empleado: TestUser;
  const { post, created } = gastosPage(() => app);

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "oficina-barrido-"));
    app = await createTestApp({ DATA_DIR: dataDir });
    await app.createUser({ nombre: "Ana", rol: "administrador" });
    empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
    await setProfile(app.db, empleado.id, {
      departamento_id: await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" }),
      sucursal_id: await insertSucursal(app.db),
    });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const archivo = (sha256: string) => path.join(dataDir, "justificantes", sha256.slice(0, 2), sha256);
  const envejecer = (file: string) => utimesSync(file, hace(2 * HORA), hace(2 * HORA));

  it("quita en la siguiente pasada los archivos de un justificante quitado y los temporales viejos; lo usado se queda", async () => {
    const gasto = await created(
      await post(
        {
          intent: "crear",
          descripcion: "Taxi al aeropuerto",
          fecha_gasto: todayISO(),
          categoria: "comidas",
          importe: "23,40",
          metodo_pago: "tarjeta_corporativa",
        },
        empleado.cookie,
      ),
    );
    const imagen = (r: number) =>
      sharp({ create: { width: 30 + r, height: 9, channels: 3, background: { r, g: 9, b: 99 } } })
        .png()
        .toBuffer();
    const [uno, dos] = await Promise.all([imagen(1), imagen(2)]);
    const subida = await respond(() =>
      action({
        request: new Request(new URL(`/gastos/${gasto.id}/justificantes`, ORIGIN), {
          method: "POST",
          headers: { Origin: ORIGIN, Cookie: empleado.cookie },
          body: formulario([
            { nombre: "quitado.png", datos: uno, tipo: "image/png" },
            { nombre: "usado.png", datos: dos, tipo: "image/png" },
          ]),
        }),
        context: app.context(),
        params: { id: gasto.id },
      }),
    );
    expect(subida.status).toBe(302);
    const filas = await app.db
      .selectFrom("justificantes")
      .selectAll()
      .where("gasto_id", "=", gasto.id)
      .orderBy("nombre")
      .execute();
    const [quitado, usado] = filas;
    expect(filas.map((f) => f.nombre)).toEqual(["quitado.png", "usado.png"]);

    const lineas: string[] = [];
    const barrido = await startBarrido(app.config, {
      databaseUrl: app.url,
      everyMs: 100,
      log: (l) => lineas.push(l),
    });
    try {
      expect(lineas).toEqual([]); // at start every file is referenced: nothing said

      const quitar = await respond(() =>
        action({
          request: request(`/gastos/${gasto.id}/justificantes`, {
            cookie: empleado.cookie,
            form: { intent: "eliminar", justificante: quitado!.id },
          }),
          context: app.context(),
          params: { id: gasto.id },
        }),
      );
      expect(quitar.status).toBe(302);
      for (const h of [quitado!.sha256, quitado!.miniatura!, usado!.sha256, usado!.miniatura!]) envejecer(archivo(h));
      // Temp files: one a crashed upload left long ago, one an upload is writing right now.
      const tmp = path.join(dataDir, "justificantes", "tmp");
      mkdirSync(tmp, { recursive: true });
      writeFileSync(path.join(tmp, "abandonado"), "medio archivo");
      envejecer(path.join(tmp, "abandonado"));
      writeFileSync(path.join(tmp, "subiendo"), "llegando");

      const eliminados = () =>
        lineas.reduce((s, l) => s + Number(/^Justificantes: (\d+) archivos sin uso eliminados\.$/.exec(l)![1]), 0);
      // A run may have been under way while this was set up: what it left, the next one takes. A
      // run says how many it removed once it has removed them all: wait for the line too.
      await hasta(
        () =>
          !existsSync(archivo(quitado!.sha256)) &&
          !existsSync(archivo(quitado!.miniatura!)) &&
          !existsSync(path.join(tmp, "abandonado")) &&
          eliminados() >= 3,
      );
      expect(eliminados()).toBe(3);
      expect(existsSync(archivo(usado!.sha256))).toBe(true);
      expect(existsSync(archivo(usado!.miniatura!))).toBe(true);
      expect(existsSync(path.join(tmp, "abandonado"))).toBe(false);
      expect(existsSync(path.join(tmp, "subiendo"))).toBe(true);
    } finally {
      await barrido.stop();
    }
    // Stopped: no run after that (a file that would now qualify stays).
    writeFileSync(path.join(dataDir, "justificantes", "tmp", "tarde"), "x");
    envejecer(path.join(dataDir, "justificantes", "tmp", "tarde"));
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(path.join(dataDir, "justificantes", "tmp", "tarde"))).toBe(true);
  });

  it("al arrancar quita todo tmp/ (aún no sube nadie) y lo que nadie usa con la gracia dada", async () => {
    const tmp = path.join(dataDir, "justificantes", "tmp");
    mkdirSync(tmp, { recursive: true });
    writeFileSync(path.join(tmp, "cortado-por-un-sigkill"), "medio archivo");
    const huerfano = "ab".padEnd(64, "c");
    mkdirSync(path.dirname(archivo(huerfano)), { recursive: true });
    writeFileSync(archivo(huerfano), "nadie lo usa");
    const lineas: string[] = [];
    const barrido = await startBarrido(app.config, { databaseUrl: app.url, graciaMs: 0, log: (l) => lineas.push(l) });
    await barrido.stop();
    expect(existsSync(path.join(tmp, "cortado-por-un-sigkill"))).toBe(false);
    expect(existsSync(archivo(huerfano))).toBe(false);
    expect(lineas[0]).toMatch(/^Justificantes: \d+ archivos sin uso eliminados\.$/);
  });

  it("un fallo se dice en el registro y no tumba el proceso", async () => {
    const lineas: string[] = [];
    const barrido = await startBarrido(app.config, {
      databaseUrl: "postgres://nadie@127.0.0.1:1/ninguna",
      log: (l) => lineas.push(l),
    });
    await barrido.stop();
    expect(lineas).toHaveLength(1);
    expect(lineas[0]).toMatch(/^Justificantes: el barrido de archivos sin uso falló \(.+\); se intentará de nuevo/);
  });
});

// ---------------------------------------------------------------------------------------------
// Supabase Storage + PostgREST, at the HTTP boundary
// ---------------------------------------------------------------------------------------------

const SERVICE = "clave-de-servicio-secreta";
const ANON = "clave-anon-publica";

/** What the sweep sends: a listing's page (Storage list) or the names to delete (Storage delete). */
type Cuerpo = { prefix?: string; limit?: number; offset?: number; prefixes?: string[] };
type Recorded = {
  method: string;
  path: string;
  params: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Cuerpo;
};
type Answer = { status: number; headers?: Record<string, string>; body?: unknown };

let server: http.Server;
let base = "";
let requests: Recorded[] = [];
/** The bucket: `<gasto>/<name>` → when it was created. */
let bucket: Map<string, Date>;
/** The table: what each row names. */
let filas: { id: number; gasto_id: string; sha256: string; miniatura: string | null }[];
/** A project's max-rows: PostgREST answers at most this many rows per request. */
let maxRows = 1000;
/** Answers a request before the bucket does (a fault, a delay); undefined lets the bucket answer. */
let antes: (req: Recorded) => Answer | undefined | Promise<Answer | undefined>;

function responder(req: Recorded): Answer {
  if (req.method === "POST" && req.path === "/storage/v1/object/list/justificantes") {
    const { prefix = "", limit = 100, offset = 0 } = req.body;
    const dir = prefix.replace(/\/$/, "");
    const entradas = dir
      ? [...bucket]
          .filter(([n]) => n.startsWith(`${dir}/`))
          .map(([n, t]) => ({
            name: n.slice(dir.length + 1),
            id: `id-${n}`,
            created_at: t.toISOString(),
            updated_at: t.toISOString(),
            last_accessed_at: t.toISOString(),
            metadata: { size: 10, mimetype: "image/png" },
          }))
      : [...new Set([...bucket.keys()].map((n) => n.split("/")[0]!))].map((name) => ({
          name,
          id: null,
          created_at: null,
          updated_at: null,
          last_accessed_at: null,
          metadata: null,
        }));
    entradas.sort((a, b) => (a.name < b.name ? -1 : 1));
    return { status: 200, body: entradas.slice(offset, offset + limit) };
  }
  if (req.method === "GET" && req.path === "/rest/v1/justificantes") {
    const gastos = /^in\.\((.*)\)$/.exec(req.params.get("gasto_id") ?? "")![1]!.split(",");
    const todas = filas.filter((f) => gastos.includes(f.gasto_id)).sort((a, b) => a.id - b.id);
    const offset = Number(req.params.get("offset") ?? 0);
    const pagina = todas.slice(offset, offset + Math.min(Number(req.params.get("limit") ?? maxRows), maxRows));
    const rango = pagina.length ? `${offset}-${offset + pagina.length - 1}` : "*";
    return {
      status: 200,
      headers: { "Content-Range": `${rango}/${req.headers.prefer === "count=exact" ? todas.length : "*"}` },
      body: pagina.map(({ gasto_id, sha256, miniatura }) => ({ gasto_id, sha256, miniatura })),
    };
  }
  if (req.method === "DELETE" && req.path === "/storage/v1/object/justificantes") {
    const quitados = req.body.prefixes!.filter((n) => bucket.delete(n));
    return { status: 200, body: quitados.map((name) => ({ name, bucket_id: "justificantes" })) };
  }
  return { status: 404, body: { statusCode: "404", error: "not_found", message: "sin ruta" } };
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url!, "http://localhost");
      const text = Buffer.concat(chunks).toString("utf8");
      const recorded: Recorded = {
        method: req.method!,
        path: url.pathname,
        params: url.searchParams,
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      };
      requests.push(recorded);
      const answer = (await antes(recorded)) ?? responder(recorded);
      res.writeHead(answer.status, { "Content-Type": "application/json; charset=utf-8", ...answer.headers });
      res.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let supabaseDir: string;
beforeEach(() => {
  requests = [];
  bucket = new Map();
  filas = [];
  maxRows = 1000;
  antes = () => undefined;
  supabaseDir = mkdtempSync(path.join(tmpdir(), "oficina-barrido-supabase-"));
});
afterEach(() => rmSync(supabaseDir, { recursive: true, force: true }));

let n = 0;
const gastoId = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
const hash = (c: string) => c.repeat(64).slice(0, 64);
function fila(gasto_id: string, sha256: string, miniatura: string | null = null) {
  filas.push({ id: filas.length + 1, gasto_id, sha256, miniatura });
}
const servicio = { url: "", serviceRoleKey: SERVICE };
const barrer = (o: Parameters<typeof barrerSupabase>[1] = {}) => barrerSupabase({ ...servicio, url: base }, o);
const config = (conClave = true) => ({
  DATA_DIR: supabaseDir,
  SUPABASE_URL: base,
  SUPABASE_SERVICE_ROLE_KEY: conClave ? SERVICE : undefined,
});

describe("barrido de Supabase Storage", () => {
  it("quita lo que ninguna fila nombra y es más viejo que la gracia; lo usado y lo reciente se quedan; con la clave de servicio", async () => {
    const vivo = gastoId();
    const borrado = gastoId();
    fila(vivo, hash("a"), hash("b"));
    bucket.set(`${vivo}/${hash("a")}`, hace(3 * HORA)); // referenced content
    bucket.set(`${vivo}/${hash("b")}`, hace(3 * HORA)); // referenced thumbnail
    bucket.set(`${vivo}/${hash("c")}`, hace(2 * HORA)); // a removed receipt
    bucket.set(`${vivo}/${hash("d")}`, hace(60_000)); // an upload between its object and its row
    bucket.set(`${vivo}/.emptyFolderPlaceholder`, hace(3 * HORA)); // not a name of ours
    bucket.set(`${borrado}/${hash("e")}`, hace(2 * HORA)); // a deleted gasto's receipt
    bucket.set(`${borrado}/${hash("f")}`, hace(2 * HORA)); // and its thumbnail
    bucket.set(`${hash("a")}`, hace(3 * HORA)); // at the root: not a gasto folder

    expect(await barrer()).toEqual({ eliminados: 3, siguiente: 0 });
    expect([...bucket.keys()].sort()).toEqual(
      [
        `${vivo}/${hash("a")}`,
        `${vivo}/${hash("b")}`,
        `${vivo}/${hash("d")}`,
        `${vivo}/.emptyFolderPlaceholder`,
        hash("a"),
      ].sort(),
    );
    const borrar = requests.filter((r) => r.method === "DELETE");
    expect(borrar).toHaveLength(1);
    expect([...borrar[0]!.body.prefixes!].sort()).toEqual(
      [`${vivo}/${hash("c")}`, `${borrado}/${hash("e")}`, `${borrado}/${hash("f")}`].sort(),
    );
    expect(requests.find((r) => r.path.startsWith("/rest/"))!.params.get("select")).toBe("gasto_id,sha256,miniatura");
    for (const r of requests) {
      expect(r.headers.apikey).toBe(SERVICE);
      expect(r.headers.authorization).toBe(`Bearer ${SERVICE}`);
      expect(JSON.stringify(r.headers)).not.toContain(ANON);
    }
  });

  it("una fila que llega mientras barre salva su archivo (se pregunta otra vez antes de borrar)", async () => {
    const g = gastoId();
    bucket.set(`${g}/${hash("1")}`, hace(2 * HORA));
    bucket.set(`${g}/${hash("2")}`, hace(2 * HORA));
    antes = (req) => {
      // Someone attaches content «1» again while its folder is being listed.
      if (req.path.startsWith("/storage/v1/object/list/") && req.body.prefix === g) fila(g, hash("1"));
      return undefined;
    };
    expect((await barrer()).eliminados).toBe(1);
    expect([...bucket.keys()]).toEqual([`${g}/${hash("1")}`]);
  });

  it("pagina las carpetas, los objetos, las filas y los borrados", async () => {
    maxRows = 7; // PostgREST cuts pages short; Content-Range says how many there are
    const gastos = Array.from({ length: 130 }, gastoId);
    for (const g of gastos) {
      fila(g, hash("a"));
      bucket.set(`${g}/${hash("a")}`, hace(2 * HORA));
    }
    // The last folders (past the first page) hold the orphans, one with more than a page of objects.
    const lleno = gastos[125]!;
    for (let i = 0; i < 105; i++) bucket.set(`${lleno}/${i.toString(16).padStart(64, "0")}`, hace(2 * HORA));
    bucket.set(`${gastos[129]!}/${hash("f")}`, hace(2 * HORA));

    expect(await barrer()).toEqual({ eliminados: 106, siguiente: 0 });
    expect(bucket.size).toBe(130);
    for (const g of gastos) expect(bucket.has(`${g}/${hash("a")}`)).toBe(true);
    const listas = requests.filter((r) => r.path === "/storage/v1/object/list/justificantes");
    expect(listas.filter((r) => r.body.prefix === "").map((r) => r.body.offset)).toEqual([0, 100]);
    expect(listas.filter((r) => r.body.prefix === lleno).map((r) => r.body.offset)).toEqual([0, 100]);
    expect(requests.filter((r) => r.method === "DELETE").map((r) => r.body.prefixes!.length)).toEqual([100, 6]);
    for (const r of listas) expect(r.body.limit).toBe(100);
  });

  it("limita las carpetas por pasada y sigue donde lo dejó, sin saltarse las que siguen a una carpeta vaciada", async () => {
    const gastos = Array.from({ length: 150 }, gastoId);
    gastos.forEach((g, i) => {
      bucket.set(`${g}/${hash("a")}`, hace(2 * HORA));
      if (i >= 10) fila(g, hash("a")); // the first ten gastos were deleted: their folders go
    });
    bucket.set(`${gastos[105]!}/${hash("9")}`, hace(2 * HORA));
    const primera = await barrer({ carpetas: 100 });
    expect(primera).toEqual({ eliminados: 10, siguiente: 90 });
    expect(bucket.has(`${gastos[105]!}/${hash("9")}`)).toBe(true); // not reached yet
    const segunda = await barrer({ carpetas: 100, desde: primera.siguiente });
    expect(segunda).toEqual({ eliminados: 1, siguiente: 0 });
    expect(bucket.size).toBe(140);
  });

  it("un 5xx de Storage se dice en el registro y la pasada siguiente lo vuelve a intentar; stop() espera a la pasada en curso", async () => {
    const g = gastoId();
    bucket.set(`${g}/${hash("c")}`, hace(2 * HORA));
    let fallos = 1;
    antes = (req) =>
      req.path.startsWith("/storage/") && fallos-- > 0
        ? { status: 503, body: { statusCode: "503", error: "unavailable", message: "Storage no disponible" } }
        : undefined;
    const lineas: string[] = [];
    const barrido = await startBarrido(config(), { everyMs: 50, log: (l) => lineas.push(l) });
    try {
      await hasta(() => lineas.length >= 2);
      expect(lineas).toEqual([
        "Justificantes: el barrido de archivos sin uso falló (Supabase Storage respondió 503 al listar los justificantes: Storage no disponible); se intentará de nuevo en la próxima pasada.",
        "Justificantes: 1 archivos sin uso eliminados.",
      ]);
      expect(bucket.size).toBe(0);

      // A run held up at its delete: stop() returns only once it has finished.
      bucket.set(`${g}/${hash("d")}`, hace(2 * HORA));
      let soltar!: () => void;
      const retenido = new Promise<void>((r) => (soltar = r));
      let enBorrado = false;
      antes = async (req) => {
        if (req.method !== "DELETE") return undefined;
        enBorrado = true;
        await retenido;
        return responder(req);
      };
      await hasta(() => enBorrado);
      let parado = false;
      const parada = barrido.stop().then(() => (parado = true));
      // A few turns of the event loop: stop() is waiting on the held request, not on time.
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      expect(parado).toBe(false);
      soltar();
      await parada;
      expect(bucket.size).toBe(0);
      expect(lineas.at(-1)).toBe("Justificantes: 1 archivos sin uso eliminados.");
      const hechas = requests.length;
      await new Promise((r) => setTimeout(r, 200));
      expect(requests.length).toBe(hechas); // stopped: no run after it
    } finally {
      await barrido.stop();
    }
  });

  it("sin la clave de servicio no toca Storage y lo dice una vez al arrancar; los temporales viejos sí se van", async () => {
    const g = gastoId();
    bucket.set(`${g}/${hash("c")}`, hace(2 * HORA));
    const tmp = path.join(supabaseDir, "justificantes", "tmp");
    mkdirSync(tmp, { recursive: true });
    writeFileSync(path.join(tmp, "viejo"), "x");
    utimesSync(path.join(tmp, "viejo"), hace(2 * HORA), hace(2 * HORA));
    writeFileSync(path.join(tmp, "subiendo"), "x");
    const lineas: string[] = [];
    const barrido = await startBarrido(config(false), { everyMs: 30, log: (l) => lineas.push(l) });
    await hasta(() => lineas.length >= 2);
    await new Promise((r) => setTimeout(r, 150)); // several runs
    await barrido.stop();
    expect(lineas).toEqual([
      "Justificantes: sin SUPABASE_SERVICE_ROLE_KEY, los archivos de justificantes quitados o de gastos eliminados se quedan en Supabase Storage (nadie puede leerlos).",
      "Justificantes: 1 archivos sin uso eliminados.",
    ]);
    expect(requests).toEqual([]);
    expect(bucket.size).toBe(1);
    expect(existsSync(path.join(tmp, "viejo"))).toBe(false);
    expect(existsSync(path.join(tmp, "subiendo"))).toBe(true);
  });
});
