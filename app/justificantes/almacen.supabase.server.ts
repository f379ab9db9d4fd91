import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { aTemporal, type Almacen, type Donde } from "./almacen.server";

/** The private bucket of supabase/migrations/20261127000001_justificantes.sql. */
export const BUCKET = "justificantes";

const HASH = /^[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Receipts in Supabase Storage (ADR 0018), always as the signed-in user: the bucket's policies
 * (the migration) then give each file exactly its gasto's visibility, as RLS does for the row.
 * Objects are `<gasto>/<sha256>`: keyed by gasto, so knowing a hash never opens another gasto's
 * file. Reads use the authenticated download endpoint and are streamed by the server's route:
 * no URL that opens a file (signed or public) is ever made, so none can leave the server.
 *
 * The hash names the object, so a file is first written to a local temp file (`temporal`) while
 * it is hashed and counted, then uploaded from there with its length: never whole in memory.
 */
export function almacenSupabase(o: {
  url: string;
  anonKey: string;
  accessToken: string;
  temporal: () => Promise<string>;
  fetch?: typeof fetch;
}): Almacen {
  const doFetch = o.fetch ?? fetch;
  const headers = { apikey: o.anonKey, Authorization: `Bearer ${o.accessToken}` };
  const objeto = (sha256: string, { gasto }: Donde) => {
    if (!HASH.test(sha256) || !UUID.test(gasto)) throw new Error("justificante no válido");
    return `${gasto.toLowerCase()}/${sha256}`;
  };
  const storage = `${o.url}/storage/v1/object`;

  return {
    async put(stream, { maxBytes = Infinity, tipo, ...donde }) {
      const temp = await o.temporal();
      try {
        const hash = createHash("sha256");
        const bytes = await aTemporal(stream, temp, maxBytes, hash);
        const sha256 = hash.digest("hex");
        const response = await doFetch(`${storage}/${BUCKET}/${objeto(sha256, donde)}`, {
          method: "POST",
          headers: {
            ...headers,
            "Content-Type": tipo,
            "Content-Length": String(bytes),
            "Cache-Control": "no-store",
            // Same name, same bytes (the name is their hash): an object already there is this one.
            "x-upsert": "false",
          },
          body: Readable.toWeb(createReadStream(temp)) as ReadableStream,
          duplex: "half",
        } as RequestInit);
        if (!response.ok && !(await yaExiste(response))) throw await fallo(response, "guardar");
        await response.body?.cancel();
        return { sha256, bytes };
      } finally {
        await rm(temp, { force: true });
      }
    },
    async get(sha256, donde) {
      const response = await doFetch(`${storage}/authenticated/${BUCKET}/${objeto(sha256, donde)}`, { headers });
      if (response.ok && response.body) return Readable.fromWeb(response.body as WebReadableStream);
      // Storage answers 400 with statusCode "404" (older) or 404 for a missing or unreadable object.
      if (await noEsta(response)) return null;
      throw await fallo(response, "leer");
    },
    async remove(sha256, donde) {
      const response = await doFetch(`${storage}/${BUCKET}`, {
        method: "DELETE",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ prefixes: [objeto(sha256, donde)] }),
      });
      if (!response.ok) throw await fallo(response, "quitar");
      await response.body?.cancel();
    },
  };
}

async function cuerpo(response: Response): Promise<{ statusCode?: string; error?: string; message?: string }> {
  try {
    return JSON.parse(await response.clone().text());
  } catch {
    return {};
  }
}

async function yaExiste(response: Response) {
  if (response.status === 409) return true;
  const b = await cuerpo(response);
  return String(b.statusCode) === "409" || b.error === "Duplicate";
}

async function noEsta(response: Response) {
  if (response.status === 404) return true;
  const b = await cuerpo(response);
  return String(b.statusCode) === "404" || b.error === "not_found";
}

async function fallo(response: Response, que: string) {
  const b = await cuerpo(response);
  return new Error(
    `Supabase Storage respondió ${response.status} al ${que} un justificante${b.message ? `: ${b.message}` : ""}`,
  );
}
