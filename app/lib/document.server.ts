import { randomUUID } from "node:crypto";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";

/**
 * A page's document: rendered and turned into bytes.
 *
 * Why the data is turned into bytes apart (ADR 0008, «The page»): `renderToString` returns the page
 * as a rope of thousands of strings, and `Buffer.from` must first copy it into one flat string.
 * One «€» or «—» (a price, an empty cell, any description) makes it two-byte: a list page's
 * string is then larger than V8's largest ordinary object, and every page got a large object of
 * its own — fresh memory from the kernel, page faults, released at the next collection; on a
 * virtual machine page faults are dear, and this was a large share of the page. A third of a list page
 * is the data Remix hands to the browser (`window.__remixContext = …`), already one flat string:
 * React renders a placeholder in its place, and the bytes are the markup before it, the data,
 * and the markup after it. A page whose markup alone passes the limit pays it, as before.
 */

/** Unguessable, so that no page's content can contain it. */
const PLACEHOLDER = `oficina-datos-${randomUUID()}`;

/**
 * The document's bytes, `<!DOCTYPE html>` first. `render` is the page with the given string in
 * place of Remix's handoff (`serverHandoffString`), which is `handoff`. Throws what the render
 * throws (Remix then renders its error boundary).
 */
export function renderDocument(
  render: (handoff: string) => ReactElement,
  handoff: string | undefined,
): Buffer<ArrayBuffer> {
  if (!handoff) return Buffer.from(`<!DOCTYPE html>${renderToString(render(""))}`);
  const html = renderToString(render(PLACEHOLDER));
  const at = html.indexOf(PLACEHOLDER);
  if (at === -1) return Buffer.from(`<!DOCTYPE html>${html}`);
  return Buffer.concat([
    Buffer.from(`<!DOCTYPE html>${html.slice(0, at)}`),
    Buffer.from(handoff),
    Buffer.from(html.slice(at + PLACEHOLDER.length)),
  ]);
}
