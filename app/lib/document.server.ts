import type { ReactElement } from "react";
import { renderToPipeableStream } from "react-dom/server";

/**
 * A page's document: rendered to bytes in small pieces, and handed to the edge as bytes.
 *
 * Why not `renderToString` (ADR 0008, item 57): it returns the page as one string of ~70 000
 * characters, and a page with any character outside Latin-1 («€», «—») makes that string
 * two-byte, ~145 KB once flat — past V8's limit for ordinary objects, so every page got a large
 * object of its own: fresh memory from the kernel, ~36 page faults, released at the next
 * collection. On this kind of virtual machine a page fault costs ~15 µs: turning the string into
 * bytes took ~0.9 ms, a sixth of the page. React's stream writes the same markup already encoded
 * into 2 KB pieces, which are joined once; nothing is streamed to the client (nothing is
 * deferred), the page is still sent in one piece.
 */

/** The size of the views React's stream encodes into (VIEW_SIZE in react-dom-server.node). */
const VIEW_SIZE = 2048;

/** Longest a render may wait for something that suspends (nothing here does; a safety net). */
const RENDER_LIMIT_MS = 5_000;

export type RenderedDocument = { html: Buffer<ArrayBuffer>; status: number };

/**
 * The document's bytes (`<!DOCTYPE html>` included: React's stream writes it before a root
 * `<html>`). Rejects when the shell cannot render (Remix then renders its error boundary); an
 * error React recovers from makes the status 500, as it did with the stream before.
 */
export function renderDocument(element: ReactElement, status: number, nonce?: string): Promise<RenderedDocument> {
  return new Promise((resolve, reject) => {
    const pieces: Uint8Array[] = [];
    let size = 0;
    // React writes to its destination only through write, end, destroy, flush and on (react-dom-server.node):
    // a Node Writable would add its own buffering and callbacks to each of the page's ~35 pieces.
    const destination = {
      write(piece: Uint8Array) {
        // React 18 hands over its whole 2 KB view when a character did not fit at its end, the
        // bytes it could not fill still zero (react-dom-server.node, writeStringChunk): without
        // this a page had NUL bytes wherever a «€» or «—» met a 2 KB boundary.
        if (piece.byteLength === VIEW_SIZE && piece[VIEW_SIZE - 1] === 0) {
          let end = VIEW_SIZE - 1;
          while (end > VIEW_SIZE - 3 && piece[end - 1] === 0) end--;
          piece = piece.subarray(0, end);
        }
        pieces.push(piece);
        size += piece.byteLength;
        return true;
      },
      end() {
        clearTimeout(timer);
        resolve({ html: Buffer.concat(pieces, size), status });
      },
      on() {
        return destination;
      },
      // A render that failed after its shell (never here: nothing is deferred) ends this way.
      destroy(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
    };
    let shellFailed = false;
    let shellReady = false;
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce,
      onAllReady() {
        // React also calls this after a shell error, when there is nothing left to write.
        if (!shellFailed) pipe(destination as unknown as NodeJS.WritableStream);
      },
      onShellError(error: unknown) {
        shellFailed = true;
        clearTimeout(timer);
        reject(error);
      },
      onShellReady() {
        shellReady = true;
      },
      onError(error: unknown) {
        status = 500;
        // An error in the shell is thrown to Remix, which reports it (entry.server handleError).
        if (shellReady) console.error(error);
      },
    });
    const timer = setTimeout(abort, RENDER_LIMIT_MS);
  });
}

/**
 * The bytes of the pages this process rendered, by their Response: the edge (server.ts) writes
 * them in one call. A Response made with the bytes as its body would wrap them in a web stream
 * that the edge would then read back, piece by piece, only to write them.
 */
const bodies = new WeakMap<Response, Buffer>();

/** A page's Response, its bytes kept for `documentBody`. */
export function documentResponse(body: Buffer, init: ResponseInit): Response {
  const response = new Response(null, init);
  bodies.set(response, body);
  return response;
}

/** The bytes of a page made by `documentResponse` (undefined for any other Response). */
export function documentBody(response: Response): Buffer | undefined {
  return bodies.get(response);
}
