import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { compressDocument } from "~/lib/compress-document.server";
import { NonceContext } from "~/ui/nonce";

const ABORT_DELAY = 5_000;

// Sentry's modules only where a DSN turns it on (instrument.server.ts): without one every call
// here does nothing, and loading them costs each process the largest part of its heap.
const Sentry = process.env.SENTRY_DSN?.trim() ? await import("@sentry/remix") : undefined;

/**
 * The whole document, rendered and then sent in one piece. Nothing here is deferred (no
 * Suspense, no `defer`), so streaming gained nothing, and it cost: React flushes every ~2 KB,
 * and each piece went through the web stream, gzip and a socket write of its own — about a
 * quarter of the server's CPU on /gastos (ADR 0008). One buffer is compressed (here, in one call:
 * lib/compress-document.server.ts) and written once.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  return new Promise((resolve, reject) => {
    let rendered = false;
    // Set once `abort` exists (below); the render callbacks, declared first, clear it.
    // eslint-disable-next-line prefer-const
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          rendered = true;
          const chunks: Buffer[] = [];
          const document = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              clearTimeout(timeout);
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              const { body, encoding } = compressDocument(
                Buffer.concat(chunks),
                request.headers.get("Accept-Encoding"),
              );
              // An encoded response is left alone by the compression middleware.
              if (encoding) responseHeaders.set("Content-Encoding", encoding);
              responseHeaders.append("Vary", "Accept-Encoding");
              resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
              done();
            },
          });
          pipe(document);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (rendered) console.error(error);
        },
      },
    );
    timeout = setTimeout(abort, ABORT_DELAY);
  });
}

/** Errors while rendering (loader and action errors already carry a digest: lib/errors.server.ts). */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  Sentry?.sentryHandleError(error, { request } as never);
  console.error(error);
}
