import { createHash, randomBytes, type Hash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { lstat, mkdir, open, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";

/**
 * Where the receipts' bytes live (ADR 0018): content-addressed by SHA-256, so the same ticket
 * attached twice is one file and a name can never point at other content. The database says
 * which gasto holds which hash; this port only stores and returns bytes.
 */
export interface Almacen {
  /**
   * Stores the stream's bytes (refusing more than `maxBytes`) for `gasto` and returns their hash.
   * `tipo` is the content's media type (a store that checks it, such as a Supabase bucket).
   */
  put(stream: Readable, o: Donde & { maxBytes?: number; tipo: string }): Promise<{ sha256: string; bytes: number }>;
  /** The stored bytes, or null when nothing is stored under that hash for that gasto. */
  get(sha256: string, o: Donde): Promise<Readable | null>;
  remove(sha256: string, o: Donde): Promise<void>;
  /**
   * Whether bytes are stored under that hash. Stores swept under reservations have it
   * (reserva.server.ts): an upload checks its bytes are still there before recording its row.
   */
  existe?(sha256: string, o: Donde): Promise<boolean>;
}

/** Options of a store's sweep. */
export type OpcionesBarrido = {
  graciaMs?: number;
  /**
   * Runs `quitar` for one unused content unless an upload has reserved it (then false); without
   * it, `quitar` runs. `reserva.server.ts`'s `siNadieLoReserva` on the SQL backend.
   */
  reserva?: (sha256: string, quitar: () => Promise<boolean>) => Promise<boolean>;
};
export const sinReserva = (_sha256: string, quitar: () => Promise<boolean>) => quitar();

/**
 * The gasto a file belongs to. The local store ignores it (one file per content, shared); a store
 * whose own access rules decide who reads a file (Supabase Storage) keys each file by its gasto.
 */
export type Donde = { gasto: string };

export class DemasiadoGrande extends Error {
  constructor(readonly maxBytes: number) {
    super(`más de ${maxBytes} bytes`);
  }
}

/**
 * Writes the stream to the new file `temp`, readable by its owner only, refusing more than
 * `maxBytes` (DemasiadoGrande); each chunk also goes to `hashes`. Says how many bytes it wrote.
 */
export async function aTemporal(stream: Readable, temp: string, maxBytes: number, ...hashes: Hash[]): Promise<number> {
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(new DemasiadoGrande(maxBytes));
      for (const hash of hashes) hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(stream, count, createWriteStream(temp, { flags: "wx", mode: 0o600 }));
  return bytes;
}

const HASH = /^[0-9a-f]{64}$/;
/** Stored files younger than this are never swept: an upload may be between its put and its row. */
export const GRACIA_MS = 60 * 60 * 1000;

/**
 * DATA_DIR/justificantes/: `ab/abcdef…` per hash, and `tmp/` for what is being written. A file
 * is written to `tmp/`, fsynced and renamed into place, so a crash never leaves a partial file
 * under a hash name (only a temp file, which the next start's sweep removes).
 */
export function almacenLocal(dataDir: string): Almacen & {
  dir: string;
  existe(sha256: string): Promise<boolean>;
  /** A fresh path in tmp/ for a caller that stages bytes before deciding to store them. */
  temporal(): Promise<string>;
  /**
   * Removes stored files no row references (`referenciados`, asked again for each one under its
   * reservation) and older than `graciaMs`, and temp files: all of them (`temporales: "todos"`,
   * only while no upload can be under way, at start) or those older than the grace (a crashed
   * worker's; the default).
   */
  barrer(
    referenciados: (hashes: string[]) => Promise<Set<string>>,
    o?: OpcionesBarrido & { temporales?: "todos" | "viejos" },
  ): Promise<number>;
  /** Temp files older than the grace only (a store whose files live elsewhere still stages here). */
  barrerTemporales(o?: { graciaMs?: number }): Promise<number>;
} {
  const dir = path.resolve(dataDir, "justificantes");
  const tmp = path.join(dir, "tmp");
  const fileOf = (sha256: string) => {
    if (!HASH.test(sha256)) throw new Error("hash no válido");
    return path.join(dir, sha256.slice(0, 2), sha256);
  };
  /** Temp files older than the grace: an upload a crashed worker left, never one under way. */
  async function barrerTemporales({ graciaMs = GRACIA_MS } = {}) {
    let names: string[];
    try {
      names = await readdir(tmp);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) removed += Number(await quitarSiViejo(path.join(tmp, name), graciaMs));
    return removed;
  }
  async function temporal() {
    await mkdir(tmp, { recursive: true, mode: 0o700 });
    return path.join(tmp, `${Date.now()}-${randomBytes(8).toString("hex")}`);
  }

  return {
    dir,
    temporal,
    async put(stream, { maxBytes = Infinity }) {
      const temp = await temporal();
      const hash = createHash("sha256");
      try {
        const bytes = await aTemporal(stream, temp, maxBytes, hash);
        const handle = await open(temp, "r");
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        const sha256 = hash.digest("hex");
        const file = fileOf(sha256);
        await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
        await rename(temp, file);
        // The directory entry too, so the rename survives a power cut.
        const dirHandle = await open(path.dirname(file), "r");
        try {
          await dirHandle.sync();
        } finally {
          await dirHandle.close();
        }
        // A fresh mtime keeps the sweep's grace for content that was already stored.
        const now = new Date();
        await utimes(file, now, now);
        return { sha256, bytes };
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    async get(sha256) {
      const file = fileOf(sha256);
      try {
        await stat(file);
      } catch {
        return null;
      }
      return createReadStream(file);
    },
    async remove(sha256) {
      await rm(fileOf(sha256), { force: true });
    },
    async existe(sha256) {
      try {
        return (await lstat(fileOf(sha256))).isFile();
      } catch {
        return false;
      }
    },
    barrerTemporales,
    async barrer(referenciados, { graciaMs = GRACIA_MS, temporales = "viejos", reserva = sinReserva } = {}) {
      let removed = 0;
      if (temporales === "todos") await rm(tmp, { recursive: true, force: true });
      else removed += await barrerTemporales({ graciaMs });
      let prefixes: string[];
      try {
        prefixes = await readdir(dir);
      } catch {
        return 0;
      }
      for (const prefix of prefixes.filter((p) => /^[0-9a-f]{2}$/.test(p))) {
        const names = (await readdir(path.join(dir, prefix))).filter((n) => HASH.test(n));
        if (names.length === 0) continue;
        const kept = await referenciados(names);
        for (const name of names) {
          if (kept.has(name)) continue;
          const file = path.join(dir, prefix, name);
          const quitado = await reserva(
            name,
            async () => !(await referenciados([name])).has(name) && (await quitarSiViejo(file, graciaMs)),
          );
          removed += Number(quitado);
        }
      }
      return removed;
    },
  };
}

/** Removes a file or folder not changed within the grace; false if it is younger or already gone. */
async function quitarSiViejo(file: string, graciaMs: number) {
  try {
    if (Date.now() - (await lstat(file)).mtimeMs < graciaMs) return false;
    await rm(file, { force: true, recursive: true });
    return true;
  } catch {
    return false;
  }
}
