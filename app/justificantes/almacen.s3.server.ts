import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import { setTimeout } from "node:timers/promises";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  paginateListObjectsV2,
} from "@aws-sdk/client-s3";
import type { AlmacenS3Config } from "~/lib/env.server";
import { aTemporal, GRACIA_MS, sinReserva, type Almacen, type OpcionesBarrido } from "./almacen.server";

const HASH = /^[0-9a-f]{64}$/;

export type AlmacenS3 = Almacen & {
  bucket: string;
  prefijo: string;
  /** The object key of a hash: `<prefijo>ab/abcdef…`, the local store's layout below DATA_DIR/justificantes. */
  clave(sha256: string): string;
  /** Whether an object is stored under that hash (HEAD). */
  existe(sha256: string): Promise<boolean>;
  /**
   * Removes objects no row references (`referenciados`, asked again for each one under its
   * reservation) and older than `graciaMs`, as the local store's sweep does with its files;
   * returns how many went. Listed a page at a time.
   */
  barrer(
    referenciados: (hashes: string[]) => Promise<Set<string>>,
    o?: OpcionesBarrido & { porPagina?: number },
  ): Promise<number>;
  /** Closes the client's connections (at the end: the store cannot be used after it). */
  cerrar(): void;
};

/**
 * Receipts in an S3-compatible object store (ALMACEN_URL=s3://bucket/prefijo), so that several
 * app servers on one database share them (ADR 0018, «Varios servidores»). Content-addressed like
 * the local store, with the same layout below the prefix, so a DATA_DIR/justificantes can be
 * copied into a bucket as it is. The server's own credentials reach every object: who may read
 * a receipt is decided by its row, read as the user, exactly as with the local store.
 *
 * The hash names the object, so `put` stages the bytes in a local temp file (`temporal`, in
 * DATA_DIR/justificantes/tmp) while hashing and counting them, then uploads that file as a
 * stream with its length and MD5: never whole in memory, and a damaged upload is refused by the
 * store. Content already stored is written again: that renews its LastModified, which is what
 * keeps the sweep's grace for it (the local store touches the file's mtime for the same reason).
 */
export function almacenS3(c: AlmacenS3Config, o: { temporal: () => Promise<string> }): AlmacenS3 {
  const opciones = {
    region: c.region,
    endpoint: c.endpoint,
    forcePathStyle: c.pathStyle,
    credentials: c.credenciales,
    // Checksums only where the API demands them: the newer default (aws-chunked bodies with a
    // trailing CRC) is refused by many S3-compatible stores; Content-MD5 guards the upload instead.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  } as const;
  // A store that does not answer fails the request instead of holding it forever.
  const client = new S3Client({ ...opciones, requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 } });
  // A download is read as fast as the person's browser reads it: a slow phone may leave the
  // socket idle for longer than any store's answer should take, so only connecting is bounded.
  const descargas = new S3Client({ ...opciones, requestHandler: { connectionTimeout: 5_000 } });
  const Bucket = c.bucket;
  const clave = (sha256: string) => {
    if (!HASH.test(sha256)) throw new Error("hash no válido");
    return `${c.prefijo}${sha256.slice(0, 2)}/${sha256}`;
  };
  const claveHash = new RegExp(`^${escapar(c.prefijo)}([0-9a-f]{2})/([0-9a-f]{64})$`);

  /** The object's LastModified, or null when there is none. */
  async function modificado(Key: string): Promise<Date | null> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
      return head.LastModified ?? new Date(0);
    } catch (error) {
      if (noEsta(error)) return null;
      throw fallo(error, "consultar un justificante");
    }
  }

  return {
    bucket: c.bucket,
    prefijo: c.prefijo,
    clave,
    cerrar: () => {
      client.destroy();
      descargas.destroy();
    },
    async put(stream, { maxBytes = Infinity, tipo }) {
      const temp = await o.temporal();
      try {
        const sha = createHash("sha256");
        const md5 = createHash("md5");
        const bytes = await aTemporal(stream, temp, maxBytes, sha, md5);
        const sha256 = sha.digest("hex");
        const ContentMD5 = md5.digest("base64");
        // The SDK never sends a streamed body twice, so its own retries skip uploads: a store that
        // fails for a moment is asked again here, the staged file read anew (the key is the
        // content's hash: writing it twice is harmless).
        for (let intento = 1; ; intento++) {
          const Body = createReadStream(temp);
          try {
            await client.send(
              new PutObjectCommand({
                Bucket,
                Key: clave(sha256),
                Body,
                ContentLength: bytes,
                ContentMD5,
                ContentType: tipo,
              }),
            );
            break;
          } catch (error) {
            if (intento >= INTENTOS_SUBIDA || !pasajero(error)) throw fallo(error, "guardar un justificante");
            await setTimeout(ESPERA_SUBIDA_MS * 4 ** (intento - 1));
          } finally {
            Body.destroy();
          }
        }
        return { sha256, bytes };
      } finally {
        await rm(temp, { force: true });
      }
    },
    async get(sha256) {
      const Key = clave(sha256);
      let body;
      try {
        body = (await descargas.send(new GetObjectCommand({ Bucket, Key }))).Body;
      } catch (error) {
        if (noEsta(error)) return null;
        throw fallo(error, "leer un justificante");
      }
      // In Node the SDK hands the response itself, a Readable, read as the caller reads it.
      if (!(body instanceof Readable)) throw new Error("El almacén S3 no devolvió el contenido del justificante");
      return body;
    },
    async existe(sha256) {
      return (await modificado(clave(sha256))) !== null;
    },
    async remove(sha256) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: clave(sha256) }));
      } catch (error) {
        if (!noEsta(error)) throw fallo(error, "quitar un justificante");
      }
    },
    async barrer(referenciados, { graciaMs = GRACIA_MS, porPagina = 1000, reserva = sinReserva } = {}) {
      const viejo = (t: Date) => Date.now() - t.getTime() >= graciaMs;
      let removed = 0;
      const paginas = paginateListObjectsV2({ client, pageSize: porPagina }, { Bucket, Prefix: c.prefijo });
      try {
        for await (const pagina of paginas) {
          // Only keys this store writes; anything else below the prefix is not ours to judge.
          const candidatos = new Map<string, string>();
          for (const obj of pagina.Contents ?? []) {
            const m = claveHash.exec(obj.Key ?? "");
            if (!m || m[2]!.slice(0, 2) !== m[1] || !obj.LastModified || !viejo(obj.LastModified)) continue;
            candidatos.set(m[2]!, obj.Key!);
          }
          if (candidatos.size === 0) continue;
          const kept = await referenciados([...candidatos.keys()]);
          for (const [hash, Key] of candidatos) {
            if (kept.has(hash)) continue;
            const quitado = await reserva(hash, async () => {
              // Asked again, as the local sweep does: a row recorded or an upload of the same
              // content (which renews it) since the listing.
              if ((await referenciados([hash])).has(hash)) return false;
              const t = await modificado(Key);
              if (!t || !viejo(t)) return false;
              await client.send(new DeleteObjectCommand({ Bucket, Key }));
              return true;
            });
            removed += Number(quitado);
          }
        }
      } catch (error) {
        throw error instanceof S3ServiceException ? fallo(error, "barrer los justificantes sin uso") : error;
      }
      return removed;
    },
  };
}

/** Attempts at one upload, and the wait before the second (four times longer before the third). */
const INTENTOS_SUBIDA = 3;
const ESPERA_SUBIDA_MS = 100;

/**
 * A failure worth asking again at once: the store busy or failing (5xx, 429, SlowDown) or the
 * connection dropped. Not a refusal (a 4xx: credentials, bucket, a damaged body) nor a request
 * that already waited out its whole timeout.
 */
function pasajero(error: unknown) {
  if (error instanceof S3ServiceException) {
    const estado = error.$metadata.httpStatusCode ?? 0;
    return estado >= 500 || estado === 429 || error.name === "SlowDown";
  }
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && ["ECONNRESET", "EPIPE", "ECONNREFUSED"].includes(code);
}

function noEsta(error: unknown) {
  return (
    error instanceof S3ServiceException &&
    (error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata.httpStatusCode === 404)
  );
}

function fallo(error: unknown, que: string) {
  if (!(error instanceof S3ServiceException)) return error;
  const estado = error.$metadata.httpStatusCode;
  return new Error(`El almacén S3 respondió ${estado ?? "sin estado"} (${error.name}) al ${que}: ${error.message}`, {
    cause: error,
  });
}

const escapar = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
