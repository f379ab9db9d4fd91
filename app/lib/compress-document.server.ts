import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/**
 * A page's HTML compressed in one call, on the buffer `entry.server.tsx` already holds, instead
 * of by the `compression` middleware's stream (which still handles everything else: data
 * requests, CSV, assets). Brotli at quality 1 makes a smaller page than gzip at its default level
 * for a fraction of the CPU; gzip at level 1 is for clients without brotli (ADR 0008, «The
 * page»). Done synchronously: the work is the same, without a stream, a thread-pool hop and
 * that thread's own malloc arena per response.
 */
export const DOCUMENT_BROTLI_QUALITY = 1;
export const DOCUMENT_GZIP_LEVEL = 1;

/** Below this, compressing costs more than it saves (the middleware's threshold too). */
const THRESHOLD = 1024;

export type DocumentEncoding = "br" | "gzip";

/**
 * Which of brotli and gzip an `Accept-Encoding` header allows, brotli first; null for neither.
 * A coding with `q=0` is refused; `*` stands for any coding the header does not name.
 */
export function documentEncoding(acceptEncoding: string | null): DocumentEncoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const qParam = params.find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const allows = (coding: DocumentEncoding) => (q.get(coding) ?? q.get("*") ?? 0) > 0;
  return allows("br") ? "br" : allows("gzip") ? "gzip" : null;
}

// zlib's results are plain (never shared) buffers, as a Response body must be; its types do not say so.
type Body = Buffer<ArrayBuffer>;

/** The page's body as it should be sent, and its Content-Encoding if compressed. */
export function compressDocument(
  html: Body,
  acceptEncoding: string | null,
): { body: Body; encoding: DocumentEncoding | null } {
  const encoding = html.length < THRESHOLD ? null : documentEncoding(acceptEncoding);
  if (encoding === "br")
    return {
      body: brotliCompressSync(html, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: DOCUMENT_BROTLI_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: html.length,
        },
      }) as Body,
      encoding,
    };
  if (encoding === "gzip") return { body: gzipSync(html, { level: DOCUMENT_GZIP_LEVEL }) as Body, encoding };
  return { body: html, encoding: null };
}
