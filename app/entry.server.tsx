import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { compressDocument } from "~/lib/compress-document.server";
import { NonceContext } from "~/ui/nonce";

// Sentry's modules only where a DSN turns it on (instrument.server.ts): without one every call
// here does nothing, and loading them costs each process the largest part of its heap.
const Sentry = process.env.SENTRY_DSN?.trim() ? await import("@sentry/remix") : undefined;

/**
 * The whole document as one string, then sent in one piece. Nothing here is deferred (no
 * Suspense, no `defer`), so streaming gains nothing and costs: React's stream encodes every
 * fragment of markup into its own small buffer, and that alone was ~15 % of a list page's CPU
 * (ADR 0008, item 55); `renderToString` joins strings and the page is encoded once. The buffer is
 * compressed in one call (lib/compress-document.server.ts) and written once.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  const html = renderToString(
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceContext.Provider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // renderToString leaves out the doctype that the stream wrote before <html>.
  const { body, encoding } = compressDocument(
    Buffer.from(`<!DOCTYPE html>${html}`),
    request.headers.get("Accept-Encoding"),
  );
  // An encoded response is left alone by the compression middleware.
  if (encoding) responseHeaders.set("Content-Encoding", encoding);
  responseHeaders.append("Vary", "Accept-Encoding");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}

/** Errors while rendering (loader and action errors already carry a digest: lib/errors.server.ts). */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  Sentry?.sentryHandleError(error, { request } as never);
  console.error(error);
}
