/** HTML written as text, where React does not write it: e-mails and the few pages outside Remix. */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text as it must stand in HTML, in an element or in a quoted attribute. */
export const escaparHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * A short page in the app's style (its one stylesheet), for answers that no screen renders: a
 * wrong address at the edge, a download refused. `parrafos` is HTML, its text already escaped.
 */
export function paginaSencilla(titulo: string, parrafos: readonly string[]): string {
  return (
    `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<link rel="stylesheet" href="/estilos.css">` +
    `<title>${escaparHtml(titulo)} — Oficina</title></head><body><main><h1>${escaparHtml(titulo)}</h1>` +
    parrafos.map((p) => `<p>${p}</p>`).join("") +
    `</main></body></html>`
  );
}
