import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { almacenLocal, DemasiadoGrande, type Almacen } from "~/justificantes/almacen.server";
import { almacenS3, type AlmacenS3 } from "~/justificantes/almacen.s3.server";
import { startBarrido } from "~/justificantes/barrido.server";
import { barrerJustificantes } from "~/justificantes/subir.server";
import { todayISO } from "~/lib/dates";
import { action } from "~/routes/gastos.$id.justificantes";
import { loader } from "~/routes/justificantes.$id";
import { createTestApp, ORIGIN, request, respond, type TestApp, type TestUser } from "../support/app";
import { insertDepartamento, insertSucursal, setProfile } from "../support/fixtures";
import { gastosPage } from "../support/gastos";
import { formulario } from "../support/justificantes";
import { startS3, type S3Local } from "../support/s3";

/**
 * The S3 adapter (ALMACEN_URL) against a real S3 API on loopback (s3rver, tests/support/s3.ts):
 * the same contract as the local store, case by case on both, its key layout, and its sweep;
 * then through the real routes on a real Postgres, configured the way a server is.
 */
let s3: S3Local;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "oficina-s3-"));
  s3 = await startS3(path.join(dir, "s3rver"));
  await s3.crearBucket("justificantes");
});
afterAll(async () => {
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const bytes = async (r: Readable) => {
  const partes: Buffer[] = [];
  for await (const c of r) partes.push(c as Buffer);
  return { datos: Buffer.concat(partes), trozos: partes.length };
};
/** Every key in the bucket (one request: the tests keep it small). */
async function claves(bucket = "justificantes") {
  const r = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (r.Contents ?? []).map((o) => o.Key!).sort();
}
/** Files stored by a local store of `dataDir`, as paths below DATA_DIR/justificantes. */
function locales(dataDir: string) {
  const base = path.join(dataDir, "justificantes");
  if (!existsSync(base)) return [];
  return readdirSync(base, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(base, path.join(e.parentPath, e.name)))
    .sort();
}

let n = 0;
/** A store of each kind, empty: its own DATA_DIR and, for S3, its own prefix. */
function almacenes(): [string, () => { almacen: Almacen; dataDir: string; prefijo: string }][] {
  const nuevo = () => {
    n += 1;
    const dataDir = path.join(dir, `datos-${n}`);
    return { dataDir, prefijo: `prueba-${n}/` };
  };
  return [
    [
      "local",
      () => {
        const { dataDir, prefijo } = nuevo();
        return { almacen: almacenLocal(dataDir), dataDir, prefijo };
      },
    ],
    [
      "S3",
      () => {
        const { dataDir, prefijo } = nuevo();
        const almacen = almacenS3(s3.config("justificantes", prefijo), { temporal: almacenLocal(dataDir).temporal });
        return { almacen, dataDir, prefijo };
      },
    ],
  ];
}

const donde = { gasto: "00000000-0000-4000-8000-000000000001" };

describe.each(almacenes())("el mismo contrato: almacén %s", (_nombre, crear) => {
  it("guarda por su hash, devuelve el contenido como flujo y lo quita; lo que no está es null", async () => {
    const { almacen } = crear();
    // 3 MB: read back as it arrives, in many pieces, never as one buffer.
    const grande = Buffer.alloc(3 * 1024 * 1024, 7);
    grande.write("cabecera única de este archivo");
    const guardado = await almacen.put(Readable.from([grande.subarray(0, 1000), grande.subarray(1000)]), {
      ...donde,
      tipo: "application/pdf",
    });
    expect(guardado).toEqual({ sha256: sha(grande), bytes: grande.length });
    const flujo = await almacen.get(guardado.sha256, donde);
    expect(flujo).toBeInstanceOf(Readable);
    const leido = await bytes(flujo!);
    expect(leido.datos.equals(grande)).toBe(true);
    expect(leido.trozos).toBeGreaterThan(1);

    // The same content again: the same name, still one file.
    expect(await almacen.put(Readable.from([grande]), { ...donde, tipo: "application/pdf" })).toEqual(guardado);

    await almacen.remove(guardado.sha256, donde);
    expect(await almacen.get(guardado.sha256, donde)).toBeNull();
    await almacen.remove(guardado.sha256, donde); // already gone: nothing to say
    expect(await almacen.get("f".repeat(64), donde)).toBeNull();
  });

  it("un nombre que no es un hash se rechaza igual, sin tocar nada", async () => {
    const { almacen } = crear();
    for (const malo of ["../../etc/passwd", "ab", "A".repeat(64)]) {
      await expect(almacen.get(malo, donde)).rejects.toThrow("hash no válido");
      await expect(almacen.remove(malo, donde)).rejects.toThrow("hash no válido");
    }
  });

  it("lo que pasa de maxBytes no se guarda: DemasiadoGrande y ni rastro, tampoco en tmp/", async () => {
    const { almacen, dataDir, prefijo } = crear();
    const put = almacen.put(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), {
      ...donde,
      tipo: "image/png",
      maxBytes: 1000,
    });
    await expect(put).rejects.toBeInstanceOf(DemasiadoGrande);
    expect(locales(dataDir)).toEqual([]);
    expect((await claves()).filter((k) => k.startsWith(prefijo))).toEqual([]);
  });

  it("la misma disposición de claves: <prefijo>ab/abcdef… en S3 es DATA_DIR/justificantes/ab/abcdef… en local", async () => {
    const { almacen, dataDir, prefijo } = crear();
    const datos = Buffer.from("ticket del taxi");
    const { sha256 } = await almacen.put(Readable.from([datos]), { ...donde, tipo: "image/png" });
    const esperada = `${sha256.slice(0, 2)}/${sha256}`;
    const guardadas = [
      ...locales(dataDir),
      ...(await claves()).filter((k) => k.startsWith(prefijo)).map((k) => k.slice(prefijo.length)),
    ];
    expect(guardadas).toEqual([esperada]);
  });
});

describe("almacén S3", () => {
  let almacen: AlmacenS3;
  let dataDir: string;
  beforeEach(() => {
    n += 1;
    dataDir = path.join(dir, `datos-${n}`);
    almacen = almacenS3(s3.config("justificantes", `barrido-${n}`), { temporal: almacenLocal(dataDir).temporal });
  });
  const poner = (texto: string) => almacen.put(Readable.from([Buffer.from(texto)]), { ...donde, tipo: "image/png" });

  it("existe (HEAD) dice si hay un objeto con ese hash; la clave es la del prefijo", async () => {
    const { sha256 } = await poner("existe");
    expect(almacen.clave(sha256)).toBe(`barrido-${n}/${sha256.slice(0, 2)}/${sha256}`);
    expect(await almacen.existe(sha256)).toBe(true);
    await almacen.remove(sha256, donde);
    expect(await almacen.existe(sha256)).toBe(false);
  });

  it("el barrido, página a página, quita lo que nadie usa pasada la gracia; lo usado, lo joven y lo ajeno se quedan", async () => {
    const hashes = [];
    for (let i = 0; i < 7; i++) hashes.push((await poner(`archivo ${i}`)).sha256);
    // Below the prefix but not of this store's making, and a name in the wrong folder.
    const ajenos = [`${almacen.prefijo}notas.txt`, `${almacen.prefijo}00/${hashes[0]}`];
    for (const Key of ajenos)
      await s3.client.send(new PutObjectCommand({ Bucket: "justificantes", Key, Body: "no es nuestro" }));
    const usados = new Set([hashes[1]!, hashes[4]!]);
    const preguntas: string[][] = [];
    const referenciados = async (h: string[]) => {
      preguntas.push(h);
      return new Set(h.filter((x) => usados.has(x)));
    };

    // Within the grace nothing goes, and no row is even asked about.
    expect(await almacen.barrer(referenciados, { porPagina: 2 })).toBe(0);
    expect(preguntas).toEqual([]);

    expect(await almacen.barrer(referenciados, { graciaMs: 0, porPagina: 2 })).toBe(5);
    // Pages of two keys: the rows were asked about a page at a time, and about each unused one
    // again, alone, just before it went.
    expect(preguntas.length).toBeGreaterThanOrEqual(4);
    expect(preguntas.every((p) => p.length <= 2)).toBe(true);
    const veces = new Map<string, number>();
    for (const h of preguntas.flat()) veces.set(h, (veces.get(h) ?? 0) + 1);
    expect(Object.fromEntries(veces)).toEqual(Object.fromEntries(hashes.map((h) => [h, usados.has(h) ? 1 : 2])));
    const quedan = (await claves()).filter((k) => k.startsWith(almacen.prefijo));
    expect(quedan).toEqual([...[...usados].map((h) => almacen.clave(h)), ...ajenos].sort());
    expect(await almacen.barrer(referenciados, { graciaMs: 0, porPagina: 2 })).toBe(0);
  });
});

/**
 * The S3 server behind a front that fails the first uploads (PUT) the way a store does for a
 * moment: a 503 SlowDown, a 403 refusal, or the connection cut once the body has arrived. The
 * rest, and every request after those, goes through to s3rver untouched (the signature covers
 * the front's host, which travels as it came).
 */
async function conFallos(fallos: ("503" | "403" | "corte")[]) {
  let subidas = 0;
  const destino = new URL(s3.endpoint);
  const server = http.createServer((req, res) => {
    if (req.method === "PUT") {
      subidas++;
      const fallo = fallos.shift();
      if (fallo) {
        req.resume();
        req.once("end", () => {
          if (fallo === "corte") return req.socket.destroy();
          const [estado, codigo] = fallo === "503" ? [503, "SlowDown"] : [403, "AccessDenied"];
          res.writeHead(estado, { "Content-Type": "application/xml" });
          res.end(
            `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${codigo}</Code><Message>${codigo}</Message></Error>`,
          );
        });
        return;
      }
    }
    const hacia = http.request(
      { host: destino.hostname, port: destino.port, path: req.url, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(hacia);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const prefijo = `fallos-${++n}`;
  const dataDir = path.join(dir, `datos-${n}`);
  const config = {
    ...s3.config("justificantes", prefijo),
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  };
  const almacen = almacenS3(config, { temporal: almacenLocal(dataDir).temporal });
  return {
    almacen,
    dataDir,
    prefijo: config.prefijo,
    subidas: () => subidas,
    cerrar: () => {
      almacen.cerrar();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("almacén S3 que falla un momento", () => {
  it("una subida que el almacén rechaza un momento (503 SlowDown, la conexión cortada) se repite con el archivo leído de nuevo", async () => {
    const f = await conFallos(["503", "corte"]);
    try {
      const datos = Buffer.from("ticket que llega al tercer intento");
      const { sha256 } = await f.almacen.put(Readable.from([datos]), { ...donde, tipo: "image/png" });
      expect(f.subidas()).toBe(3);
      expect(await claves()).toContain(f.almacen.clave(sha256));
      expect((await bytes((await f.almacen.get(sha256, donde))!)).datos.equals(datos)).toBe(true);
      expect(locales(f.dataDir)).toEqual([]);
    } finally {
      await f.cerrar();
    }
  });

  it.each([
    ["una negativa (403) no se repite", ["403"] as const, /respondió 403 \(AccessDenied\)/, 1],
    ["tres fallos seguidos rechazan la subida", ["503", "503", "503", "503"] as const, /respondió 503 \(SlowDown\)/, 3],
  ])("%s; no queda nada, tampoco en tmp/", async (_caso, fallos, respuesta, intentos) => {
    const f = await conFallos([...fallos]);
    try {
      const put = f.almacen.put(Readable.from([Buffer.from(`sin guardar ${n}`)]), { ...donde, tipo: "image/png" });
      await expect(put).rejects.toThrow(respuesta);
      await expect(put).rejects.toThrow(/al guardar un justificante/);
      expect(f.subidas()).toBe(intentos);
      expect((await claves()).filter((k) => k.startsWith(f.prefijo))).toEqual([]);
      expect(locales(f.dataDir)).toEqual([]);
    } finally {
      await f.cerrar();
    }
  });
});

describe("almacén S3 por las rutas, configurado como un servidor (ALMACEN_URL)", () => {
  let app: TestApp;
  let dataDir: string;
  let empleado: TestUser;
  let otro: TestUser;
  const { post, created } = gastosPage(() => app);

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "oficina-s3-rutas-"));
    app = await createTestApp({ DATA_DIR: dataDir, ...s3.env("justificantes", "oficina/rutas") });
    await app.createUser({ nombre: "Ana", rol: "administrador" });
    empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
    otro = await app.createUser({ nombre: "Eva", rol: "empleado" });
    const suc = await insertSucursal(app.db);
    await setProfile(app.db, empleado.id, {
      departamento_id: await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" }),
      sucursal_id: suc,
    });
    await setProfile(app.db, otro.id, {
      departamento_id: await insertDepartamento(app.db, { nombre: "Compras", codigo: "COM" }),
      sucursal_id: suc,
    });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const descargar = (u: TestUser, id: string, query = "") =>
    respond(() =>
      loader({
        request: request(`/justificantes/${id}${query}`, { cookie: u.cookie }),
        context: app.context(),
        params: { id },
      }),
    );

  it("adjunta al bucket (nada en DATA_DIR salvo tmp/), descarga y miniatura; quitado, el barrido lo quita del bucket", async () => {
    expect(app.config.ALMACEN_S3).toMatchObject({ bucket: "justificantes", prefijo: "oficina/rutas/" });
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
    const [quitado, usado] = await app.db
      .selectFrom("justificantes")
      .selectAll()
      .where("gasto_id", "=", gasto.id)
      .orderBy("nombre")
      .execute();
    const clave = (h: string) => `oficina/rutas/${h.slice(0, 2)}/${h}`;
    const enBucket = async () => (await claves()).filter((k) => k.startsWith("oficina/rutas/"));
    expect(await enBucket()).toEqual(
      [quitado!.sha256, quitado!.miniatura!, usado!.sha256, usado!.miniatura!].map(clave).sort(),
    );
    expect(locales(dataDir).filter((f) => !f.startsWith("tmp/"))).toEqual([]);

    const d = await descargar(empleado, usado!.id);
    expect(d.status).toBe(200);
    expect(d.headers.get("content-type")).toBe("image/png");
    expect(sha(Buffer.from(await d.arrayBuffer()))).toBe(usado!.sha256);
    const m = await descargar(empleado, usado!.id, "?miniatura");
    expect(m.headers.get("content-type")).toBe("image/webp");
    expect(sha(Buffer.from(await m.arrayBuffer()))).toBe(usado!.miniatura);
    // Who does not see the gasto gets 404, whatever the store: the row decides.
    expect((await descargar(otro, usado!.id)).status).toBe(404);

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
    // Never deleted inline: the bytes stay until the sweep.
    expect(await enBucket()).toHaveLength(4);

    const s3Almacen = almacenS3(app.config.ALMACEN_S3!, { temporal: almacenLocal(dataDir).temporal });
    expect(await barrerJustificantes(app.url, dataDir, { s3: s3Almacen })).toBe(0); // within the grace
    // The primary's sweep, as the server starts it with this configuration.
    const lineas: string[] = [];
    const barrido = await startBarrido(app.config, { databaseUrl: app.url, graciaMs: 0, log: (l) => lineas.push(l) });
    await barrido.stop();
    expect(lineas).toEqual(["Justificantes: 2 archivos sin uso eliminados."]);
    expect(await enBucket()).toEqual([usado!.sha256, usado!.miniatura!].map(clave).sort());

    // A row whose object is missing answers 404 with its message, as with the local store.
    await s3Almacen.remove(usado!.sha256, donde);
    expect((await descargar(empleado, usado!.id)).status).toBe(404);
    s3Almacen.cerrar();
  });
});
