import { createReadStream, createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import pg from "pg";
import { StoreError, type Store } from "~/data/store";
import type { Services } from "~/services.server";
import { minutos } from "~/auth/forms";
import type { SignInThrottle } from "~/auth/throttle.server";
import { almacenLocal, type Almacen } from "./almacen.server";
import type { AlmacenS3 } from "./almacen.s3.server";
import { siNadieLoReserva, type Reservar } from "./reserva.server";
import { nombreLimpio } from "./nombre";
import { MAX_BYTES, presupuestoDeSubida, procesar } from "./procesar.server";

export const MAX_POR_GASTO = 10;

export type Duplicado = { gasto_id: string; folio: string; nombre: string };
export type Subida = {
  adjuntados: { id: string; nombre: string; duplicados: Duplicado[] }[];
  rechazados: { nombre: string; motivo: string }[];
};

/** The upload was cut short (a malformed body, too many files or fields): nothing of it is stored. */
export class SubidaRechazada extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds until it may be tried again (a 429's Retry-After). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  /** The answer a route throws: the message as JSON (the site's error page without JavaScript). */
  respuesta() {
    return new Response(JSON.stringify({ message: this.message }), {
      status: this.status,
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        ...(this.retryAfter ? { "Retry-After": String(this.retryAfter) } : {}),
      },
    });
  }
}

/**
 * Uploads with files per person and window, counted where every server process counts
 * (services.throttle: the database, or this process's memory on Supabase): each upload's checks
 * are bounded (PRESUPUESTO), and this bounds how often one account can ask for them.
 */
export const VENTANA_SUBIDAS_MS = 10 * 60_000;

/** Counts one upload of `userId`'s; SubidaRechazada (429) past `limite` (SUBIDAS_POR_PERSONA) in the window. */
export async function contarSubida(throttle: SignInThrottle, userId: string, limite: number) {
  const r = await throttle.take(`subidas:${userId}`, limite, VENTANA_SUBIDAS_MS);
  if (r)
    throw new SubidaRechazada(
      429,
      `Ha adjuntado archivos muchas veces en poco tiempo: no se ha guardado nada. Espere ${minutos(r.retryAfter)} y vuelva a intentarlo.`,
      r.retryAfter,
    );
}

const almacenes = new Map<string, ReturnType<typeof almacenLocal>>();
/** The local store of this installation's DATA_DIR (one per process). */
export function almacenDe(dataDir: string) {
  let almacen = almacenes.get(dataDir);
  if (!almacen) almacenes.set(dataDir, (almacen = almacenLocal(dataDir)));
  return almacen;
}

/** The receipts' store for this user: the backend's (Supabase Storage) or DATA_DIR's. */
export function almacenPara(services: Services, store: Store): Almacen {
  return services.almacenFor?.(store) ?? almacenDe(services.config.DATA_DIR);
}

/**
 * Reads a multipart body as it arrives: each file goes to a temp file of its own (never whole in
 * memory); one over 10 MB is not kept (its temp file is removed) and is reported by name, and the
 * others go on. Then each file is checked and processed (procesar.server.ts), stored and
 * recorded as the user — the database has the last word (RLS, borrador, at most 10). A refused
 * file leaves the gasto and its other files as they were.
 */
export async function subirJustificantes(request: Request, o: Destino & { staging: Staging }): Promise<Subida> {
  const { archivos, rechazados } = await recibir(request, o.staging);
  try {
    const subida = await adjuntar(archivos, o);
    return { ...subida, rechazados: [...rechazados, ...subida.rechazados] };
  } finally {
    await descartar(archivos);
  }
}

/**
 * Why a file over the limit was not attached, and what to do about it: phone photos are often
 * that large, and without JavaScript the browser cannot make them smaller before sending.
 */
export const MOTIVO_DEMASIADO_GRANDE =
  "ocupa más de 10 MB, el máximo. Si es una foto, hágala más pequeña y adjúntela de nuevo: en el móvil, elija una resolución menor en la cámara o compártala eligiendo un tamaño «mediano» o «reducido»; en el ordenador, ábrala y guárdela como JPEG de menos tamaño. Si es un PDF escaneado, escanéelo de nuevo a 150 o 200 ppp";

/** Removes the temp files of a body read with `recibir`. */
export const descartar = (archivos: Staged[]) =>
  Promise.all(archivos.filter((s) => s.archivo).map((s) => rm(s.archivo, { force: true })));

/** Where `adjuntar` puts files: the gasto (with `existentes` already), as the user of `store`. */
export type Destino = {
  gastoId: string;
  store: Store;
  almacen: Almacen;
  existentes: number;
  /** The sweep's reservations (`Services.reservarContenido`); where absent, none are taken. */
  reservar?: Reservar;
};

/**
 * Checks, processes, stores and records files `recibir` staged, in order, for one gasto that has
 * `existentes` already. Each refusal is reported by name; the temp files stay for the caller.
 */
export async function adjuntar(staged: Staged[], o: Destino): Promise<Subida> {
  const reservar: Reservar = o.reservar ?? ((_hashes, fn) => fn());
  const subida: Subida = { adjuntados: [], rechazados: [] };
  const presupuesto = presupuestoDeSubida();
  let total = o.existentes;
  for (const { nombre, archivo } of staged) {
    if (total >= MAX_POR_GASTO) {
      subida.rechazados.push({ nombre, motivo: `el gasto ya tiene ${MAX_POR_GASTO} justificantes, el máximo` });
      continue;
    }
    const procesado = await procesar(archivo, presupuesto);
    if (!procesado.ok) {
      subida.rechazados.push({ nombre, motivo: procesado.motivo });
      continue;
    }
    const donde = { gasto: o.gastoId };
    const partes = [{ datos: procesado.contenido, tipo: procesado.tipo }];
    if (procesado.miniatura) partes.push({ datos: procesado.miniatura, tipo: "image/webp" });
    const guardados: ((typeof partes)[number] & { sha256: string; bytes: number })[] = [];
    try {
      for (const parte of partes)
        guardados.push({ ...parte, ...(await guardar(o.almacen, parte.datos, { ...donde, tipo: parte.tipo })) });
    } catch (error) {
      if (!sinEspacio(error)) throw error;
      subida.rechazados.push({ nombre, motivo: "el servidor no tiene espacio en disco (avise a un administrador)" });
      continue;
    }
    const contenido = guardados[0]!;
    const miniatura = guardados[1];
    try {
      // Recorded holding the contents' reservation, so the sweep cannot remove them before the
      // row names them; what it removed since they were stored (judged unused) is stored again.
      const fila = await reservar(
        guardados.map((g) => g.sha256),
        async () => {
          for (const g of guardados)
            if (o.almacen.existe && !(await o.almacen.existe(g.sha256, donde)))
              await guardar(o.almacen, g.datos, { ...donde, tipo: g.tipo });
          return o.store.insert<{ id: string }>("justificantes", {
            gasto_id: o.gastoId,
            nombre,
            tipo: procesado.tipo,
            bytes: contenido.bytes,
            sha256: contenido.sha256,
            miniatura: miniatura?.sha256 ?? null,
          });
        },
      );
      total++;
      const duplicados = await o.store.rpc<Duplicado[]>("gastos_con_justificante", {
        p_sha256: contenido.sha256,
        p_excepto: o.gastoId,
      });
      subida.adjuntados.push({ id: fila.id, nombre, duplicados });
    } catch (error) {
      // The stored bytes stay until the sweep: another row may hold the same content.
      if (!(error instanceof StoreError)) throw error;
      subida.rechazados.push({ nombre, motivo: error.message.replace(/\.$/, "") });
    }
  }
  return subida;
}

const SIN_ESPACIO =
  "El servidor no tiene espacio en disco para guardar los justificantes: no se ha adjuntado ningún archivo y el gasto no ha cambiado. Avise a un administrador.";
const noGuardado = () =>
  new SubidaRechazada(
    500,
    "No se han podido guardar los archivos en el servidor: no se ha adjuntado ninguno y el gasto no ha cambiado. Inténtelo de nuevo y, si vuelve a pasar, avise a un administrador.",
  );

/**
 * The disk (or the process's file-size limit, or a quota) refused a write. A store's write fails
 * whole (temp file, then rename), so nothing half-written is left to clean up.
 */
function sinEspacio(error: unknown) {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOSPC" || code === "EFBIG" || code === "EDQUOT";
}

/** What happened to each file, in Spanish: the flash's message, kind, link and details. */
export function resumenSubida(subida: Subida) {
  const detalles = subida.rechazados.map((r) => `«${r.nombre}» no se ha adjuntado: ${r.motivo}.`);
  const n = subida.adjuntados.length;
  const duplicado = subida.adjuntados.find((a) => a.duplicados.length > 0);
  const otro = duplicado?.duplicados[0];
  return {
    n,
    detalles,
    message: n === 0 ? "" : n === 1 ? "Justificante adjuntado." : `${n} justificantes adjuntados.`,
    duplicado:
      duplicado && otro
        ? {
            message: `«${duplicado.nombre}» ya está adjunto a otro gasto (${otro.folio}): compruebe que no se reclama dos veces.`,
            enlace: { href: `/gastos?gasto=${otro.gasto_id}#gasto`, texto: `Ver el gasto ${otro.folio}` },
          }
        : null,
  };
}

const guardar = (almacen: Almacen, contenido: Buffer | { archivo: string }, o: { gasto: string; tipo: string }) =>
  almacen.put(Buffer.isBuffer(contenido) ? Readable.from([contenido]) : createReadStream(contenido.archivo), {
    ...o,
    maxBytes: MAX_BYTES,
  });

/** Where a body's files wait while they are read and checked: DATA_DIR/justificantes/tmp. */
export type Staging = { temporal(): Promise<string> };

export type Staged = { nombre: string; archivo: string };

/**
 * Streams a multipart body: files to temp files (in the order they came), the other fields
 * (at most 40, each at most `maxCampo` bytes) to `campos`. A file over MAX_BYTES is not kept: its
 * temp file is removed and it is listed in `rechazados`, and the body is read on (what follows it
 * in the form still counts; the edge has already bounded the whole body by its declared length).
 * Refuses the whole body with SubidaRechazada.
 */
export async function recibir(
  request: Request,
  almacen: Staging,
  { maxCampo = 4096 }: { maxCampo?: number } = {},
): Promise<{ archivos: Staged[]; campos: [string, string][]; rechazados: Subida["rechazados"] }> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType) || !request.body)
    throw new SubidaRechazada(415, "Envíe los justificantes con el formulario de adjuntar archivos.");
  const staged: (Staged & { demasiadoGrande: boolean })[] = [];
  const campos: [string, string][] = [];
  const writes: Promise<void>[] = [];
  const body = Readable.fromWeb(request.body as WebReadableStream);
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      preservePath: true, // the name is only a label: kept as the person sees it
      // busboy reports its limit once a file reaches it, not once it passes it: one byte more,
      // so that a file of exactly 10 MB («hasta 10 MB») is read whole and accepted.
      limits: { fileSize: MAX_BYTES + 1, files: MAX_POR_GASTO + 1, fields: 40, fieldSize: maxCampo, parts: 60 },
    });
  } catch {
    throw new SubidaRechazada(400, "El formulario llegó mal formado. Vuelva a la página y envíelo de nuevo.");
  }
  let failed = false;
  // Deferred: busboy reports a limit from inside its own write, and destroying it there makes it
  // touch a file stream it has already dropped (an exception no caller can catch).
  const fail = (error: SubidaRechazada) => {
    if (failed) return;
    failed = true;
    setImmediate(() => {
      body.unpipe(bb);
      // The rest is read and dropped (at most the length the edge allowed, server/limites.ts):
      // destroying the body would close the connection before the answer reaches the client.
      body.resume();
      bb.destroy(error);
    });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      bb.on("file", (_field, stream, info) => {
        const nombre = nombreLimpio(info.filename ?? "");
        if (!info.filename) {
          stream.resume(); // an empty file input
          return;
        }
        // In the order the files came, whatever order their temp files are opened in.
        const entry = { nombre, archivo: "", demasiadoGrande: false };
        staged.push(entry);
        // Listened to at once (busboy may reach the limit before the temp file is open): busboy
        // drops the rest of a file past the limit and goes on with the next part.
        stream.on("limit", () => (entry.demasiadoGrande = true));
        const write = almacen.temporal().then(async (archivo) => {
          entry.archivo = archivo;
          await pipeline(stream, createWriteStream(archivo, { flags: "wx", mode: 0o600 }));
        });
        writes.push(write);
        // A failed write (the disk full) ends the upload at once: busboy would wait for a reader.
        write.catch((error: unknown) => fail(sinEspacio(error) ? new SubidaRechazada(507, SIN_ESPACIO) : noGuardado()));
      });
      bb.on("field", (name, value, info) => {
        if (info.valueTruncated) fail(new SubidaRechazada(413, "Un campo del formulario es demasiado largo."));
        else campos.push([name, value]);
      });
      bb.on("fieldsLimit", () => fail(new SubidaRechazada(413, "El formulario tiene demasiados campos.")));
      bb.on("filesLimit", () =>
        fail(new SubidaRechazada(413, `Un gasto admite como mucho ${MAX_POR_GASTO} justificantes.`)),
      );
      bb.on("partsLimit", () => fail(new SubidaRechazada(413, "El formulario tiene demasiadas partes.")));
      bb.on("error", (error) =>
        reject(
          error instanceof SubidaRechazada
            ? error
            : new SubidaRechazada(
                400,
                "El formulario llegó incompleto o mal formado. Vuelva a la página y envíelo de nuevo.",
              ),
        ),
      );
      bb.on("close", resolve);
      body.on("error", (error) => bb.destroy(error));
      body.pipe(bb);
    });
    await Promise.all(writes);
    const grandes = staged.filter((s) => s.demasiadoGrande);
    await Promise.all(grandes.map((s) => rm(s.archivo, { force: true })));
    return {
      archivos: staged.filter((s) => !s.demasiadoGrande).map(({ nombre, archivo }) => ({ nombre, archivo })),
      campos,
      rechazados: grandes.map((s) => ({ nombre: s.nombre, motivo: MOTIVO_DEMASIADO_GRANDE })),
    };
  } catch (error) {
    const settled = await Promise.allSettled(writes);
    await Promise.all(staged.filter((s) => s.archivo).map((s) => rm(s.archivo, { force: true })));
    // Whatever busboy made of it, a write the disk refused is what the person must hear about.
    if (sinEspacio(error) || settled.some((r) => r.status === "rejected" && sinEspacio(r.reason)))
      throw new SubidaRechazada(507, SIN_ESPACIO);
    throw error;
  }
}

/**
 * The sweep of DATA_DIR (ADR 0018; barrido.server.ts runs it at start and every hour): temp files
 * of uploads a crash cut short, and stored files no row references any more (their justificante
 * or gasto was deleted), as the database owner. With `s3` (ALMACEN_URL) the stored files are that
 * store's objects; DATA_DIR keeps only the temp files uploads are staged in.
 */
export async function barrerJustificantes(
  databaseUrl: string,
  dataDir: string,
  o: { graciaMs?: number; temporales?: "todos" | "viejos"; s3?: AlmacenS3 } = {},
) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const referenciados = async (hashes: string[]) => {
    const { rows } = await client.query<{ h: string }>(
      `select sha256 as h from public.justificantes where sha256 = any($1)
       union select miniatura from public.justificantes where miniatura = any($1)`,
      [hashes],
    );
    return new Set(rows.map((r) => r.h));
  };
  // Each unused content is removed holding its reservation, so no upload records a row for it
  // in between (reserva.server.ts).
  const reserva = (sha256: string, quitar: () => Promise<boolean>) => siNadieLoReserva(client, sha256, quitar);
  try {
    if (!o.s3) return await almacenDe(dataDir).barrer(referenciados, { ...o, reserva });
    // «todos»: at start, while no upload is being staged, whatever is in tmp/ goes.
    const temporales = await almacenDe(dataDir).barrerTemporales({
      graciaMs: o.temporales === "todos" ? 0 : o.graciaMs,
    });
    return temporales + (await o.s3.barrer(referenciados, { graciaMs: o.graciaMs, reserva }));
  } finally {
    await client.end();
  }
}
