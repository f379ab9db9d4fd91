import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { compressDocument } from "~/lib/compress-document.server";
import { renderDocument } from "~/lib/document.server";
import { NonceContext } from "~/ui/nonce";

// Sentry's modules only where a DSN turns it on (instrument.server.ts): without one every call
// here does nothing, and loading them costs each process the largest part of its heap.
const Sentry = process.env.SENTRY_DSN?.trim() ? await import("@sentry/remix") : undefined;

/**
 * The whole document, rendered to bytes (lib/document.server.ts says how, and why the data apart),
 * compressed in one call (lib/compress-document.server.ts) and answered with its length.
 * Nothing here is deferred (no Suspense, no `defer`): streaming would gain nothing.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  const html = renderDocument(
    (handoff) => (
      <NonceContext.Provider value={nonce}>
        <RemixServer context={{ ...remixContext, serverHandoffString: handoff }} url={request.url} nonce={nonce} />
      </NonceContext.Provider>
    ),
    remixContext.serverHandoffString,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const { body, encoding } = compressDocument(html, request.headers.get("Accept-Encoding"));
  // An encoded response is left alone by the compression middleware.
  if (encoding) responseHeaders.set("Content-Encoding", encoding);
  responseHeaders.append("Vary", "Accept-Encoding");
  responseHeaders.set("Content-Length", String(body.length));
  return new Response(new Uint8Array(body.buffer, body.byteOffset, body.length), {
    headers: responseHeaders,
    status: responseStatusCode,
  });
}

/** Errors while rendering (loader and action errors already carry a digest: lib/errors.server.ts). */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  Sentry?.sentryHandleError(error, { request } as never);
  console.error(error);
}
