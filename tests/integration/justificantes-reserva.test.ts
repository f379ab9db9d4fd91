import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { randomBytes } from "node:crypto";
import pg from "pg";
import sharp from "sharp";
import type { Almacen } from "~/justificantes/almacen.server";
import { almacenS3, type AlmacenS3 } from "~/justificantes/almacen.s3.server";
import { siNadieLoReserva } from "~/justificantes/reserva.server";
import { almacenDe, barrerJustificantes } from "~/justificantes/subir.server";
import { todayISO } from "~/lib/dates";
import { action } from "~/routes/gastos.$id.justificantes";
import { createTestApp, ORIGIN, respond, type TestApp, type TestUser } from "../support/app";
import { insertDepartamento, insertSucursal, setProfile } from "../support/fixtures";
import { gastosPage } from "../support/gastos";
import { formulario } from "../support/justificantes";
import { startS3, type S3Local } from "../support/s3";

/**
 * Uploads and the sweep, content by content (app/justificantes/reserva.server.ts), on both of the
 * SQL backend's stores: the sweep leaves alone what an upload has reserved, and an upload the
 * sweep overtook (it removed the bytes after they were stored, before the row) stores them
 * again. Each race is built step by step with the locks themselves, never with a wait.
 */
let s3: S3Local;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "oficina-reserva-"));
  s3 = await startS3(path.join(dir, "s3rver"));
  await s3.crearBucket("justificantes");
});
afterAll(async () => {
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(["local", "S3"] as const)("almacén %s", (tipo) => {
  let app: TestApp;
  let dataDir: string;
  let almacen: Almacen & { existe(sha256: string, o: { gasto: string }): Promise<boolean> };
  let s3Almacen: AlmacenS3 | undefined;
  let empleado: TestUser;
  const { post, created } = gastosPage(() => app);
  const donde = { gasto: "00000000-0000-4000-8000-000000000001" };
  const barrer = () => barrerJustificantes(app.url, dataDir, { graciaMs: 0, s3: s3Almacen });

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(dir, `datos-${tipo}-`));
    app = await createTestApp({
      DATA_DIR: dataDir,
      ...(tipo === "S3" ? s3.env("justificantes", `reserva-${tipo}`) : {}),
    });
    if (tipo === "S3") {
      s3Almacen = almacenS3(app.config.ALMACEN_S3!, { temporal: almacenDe(dataDir).temporal });
      almacen = s3Almacen;
    } else almacen = almacenDe(dataDir);
    await app.createUser({ nombre: "Ana", rol: "administrador" });
    empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
    await setProfile(app.db, empleado.id, {
      departamento_id: await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" }),
      sucursal_id: await insertSucursal(app.db),
    });
  });
  afterAll(async () => {
    s3Almacen?.cerrar();
    await app?.close();
  });

  it("el barrido deja lo que una subida ha reservado; sin la reserva lo quita", async () => {
    const { sha256 } = await almacen.put(Readable.from([randomBytes(64)]), { ...donde, tipo: "image/png" });
    // An upload between storing these bytes and recording their row.
    await app.services.reservarContenido!([sha256], async () => {
      expect(await barrer()).toBe(0);
    });
    expect(await almacen.existe(sha256, donde)).toBe(true);
    // No row names them and nobody holds them: the same sweep removes them.
    expect(await barrer()).toBe(1);
    expect(await almacen.existe(sha256, donde)).toBe(false);
  });

  it("una subida que el barrido adelanta guarda otra vez su contenido antes de registrarlo", async () => {
    const nuevo = async (descripcion: string) =>
      created(
        await post(
          {
            intent: "crear",
            descripcion,
            fecha_gasto: todayISO(),
            categoria: "comidas",
            importe: "12,30",
            metodo_pago: "tarjeta_corporativa",
          },
          empleado.cookie,
        ),
      );
    const subir = (gastoId: string, datos: Buffer) =>
      respond(() =>
        action({
          request: new Request(new URL(`/gastos/${gastoId}/justificantes`, ORIGIN), {
            method: "POST",
            headers: { Origin: ORIGIN, Cookie: empleado.cookie },
            body: formulario([{ nombre: "ticket.png", datos, tipo: "image/png" }]),
          }),
          context: app.context(),
          params: { id: gastoId },
        }),
      );
    const filas = (gastoId: string) =>
      app.db.selectFrom("justificantes").select(["sha256", "miniatura"]).where("gasto_id", "=", gastoId).execute();
    const datos = await sharp({ create: { width: 41, height: 13, channels: 3, background: "orange" } })
      .png()
      .toBuffer();
    // Processing is deterministic: a first upload says which contents this file becomes.
    const primero = await nuevo("Primera subida");
    expect((await subir(primero.id, datos)).status).toBe(302);
    const [{ sha256, miniatura }] = (await filas(primero.id)) as [{ sha256: string; miniatura: string }];
    expect(miniatura).toMatch(/^[0-9a-f]{64}$/);

    const segundo = await nuevo("Segunda subida");
    const barrido = new pg.Client({ connectionString: app.url });
    await barrido.connect();
    const espera = new pg.Client({ connectionString: app.url });
    await espera.connect();
    try {
      let subida: Promise<Response> | undefined;
      // The sweep holds the content's lock, judges it unused and removes it, while the upload
      // has stored it and waits to record its row.
      await siNadieLoReserva(barrido, sha256, async () => {
        let terminada = false;
        subida = subir(segundo.id, datos).finally(() => (terminada = true));
        // Until the upload waits for this lock (or, wrongly, finished without it).
        while (!terminada) {
          const { rows } = await espera.query<{ n: number }>(
            "select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted",
          );
          if (rows[0]!.n > 0) break;
        }
        await almacen.remove(sha256, { gasto: segundo.id });
        await almacen.remove(miniatura, { gasto: segundo.id });
        return true;
      });
      expect((await subida!).status).toBe(302);
    } finally {
      await barrido.end();
      await espera.end();
    }
    expect(await filas(segundo.id)).toEqual([{ sha256, miniatura }]);
    expect(await almacen.existe(sha256, donde)).toBe(true);
    expect(await almacen.existe(miniatura, donde)).toBe(true);
  });
});
