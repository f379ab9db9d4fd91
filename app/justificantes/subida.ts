/**
 * Sending a form with files by XMLHttpRequest, the one browser API that reports upload progress
 * (`upload.onprogress`; fetch does not), to Remix's data endpoint (`?_data=<route id>`, the
 * request Remix's own `<Form>` makes), so that the answer is the action's own: a redirect comes
 * back as `204` with `X-Remix-Redirect` instead of being followed (a followed redirect would
 * render the next page and spend its flash message here).
 */

/** What the server answered. */
export type Respuesta =
  /** Where the action redirected: the page to show next, as Remix would. */
  | { tipo: "redireccion"; destino: string; recargar: boolean; reemplazar: boolean }
  /** Anything else (refused fields, a refused upload, an error): nothing was stored. */
  | { tipo: "otra" }
  /** No answer (the connection failed or was cut). */
  | { tipo: "sin-respuesta" };

/** The data endpoint of `accion` (a form's action: path, query, maybe a fragment) for route `rutaId`. */
export function urlDeDatos(accion: string, rutaId: string, base: string) {
  const url = new URL(accion, base);
  url.hash = "";
  url.searchParams.set("_data", rutaId);
  return url.href;
}

/**
 * Posts `datos` to `url` (see `urlDeDatos`). `progreso` gets the fraction sent (0–1) while the
 * body goes up, `subido` is called once it is all sent (the server then checks the files).
 * `cancelar` aborts (a page left mid-upload, as Remix aborts its own submission).
 */
export function enviarConProgreso(
  url: string,
  datos: FormData,
  o: { progreso: (fraccion: number) => void; subido: () => void },
): { respuesta: Promise<Respuesta>; cancelar: () => void } {
  const xhr = new XMLHttpRequest();
  const respuesta = new Promise<Respuesta>((resolve) => {
    xhr.open("POST", url);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) o.progreso(e.loaded / e.total);
    };
    xhr.upload.onload = () => o.subido();
    xhr.onload = () => resolve(respuestaDe(xhr));
    xhr.onerror = xhr.onabort = xhr.ontimeout = () => resolve({ tipo: "sin-respuesta" });
    xhr.send(datos);
  });
  return { respuesta, cancelar: () => xhr.abort() };
}

function respuestaDe(xhr: Pick<XMLHttpRequest, "getResponseHeader">): Respuesta {
  const destino = xhr.getResponseHeader("X-Remix-Redirect");
  if (!destino) return { tipo: "otra" };
  return {
    tipo: "redireccion",
    destino,
    recargar: xhr.getResponseHeader("X-Remix-Reload-Document") !== null,
    reemplazar: xhr.getResponseHeader("X-Remix-Replace") !== null,
  };
}

/**
 * Whether going from `actual` to `destino` changes only the fragment: Remix's router then just
 * scrolls and loads nothing, so the page's data must be reloaded by hand after a post (Remix does
 * so after its own submissions).
 */
export function soloCambiaElAncla(actual: string, destino: string) {
  const a = new URL(actual);
  const b = new URL(destino, actual);
  return a.pathname === b.pathname && a.search === b.search && b.hash !== "";
}
