import type { Express, NextFunction, Request, Response } from "express";
import { paginaSencilla } from "../app/lib/html";
import { hostOf, placeOf } from "./edge";

/**
 * Every request must be addressed to APP_URL's host or to a loopback name: the origin
 * it was addressed to goes in `res.locals.origin`; anything else gets a plain page, never Remix.
 */
export function requireOurHost(app: Express, appUrl: string, trustProxy: boolean) {
  const trusted = (req: Request) =>
    trustProxy &&
    (app.get("trust proxy fn") as (addr: string | undefined, i: number) => boolean)(req.socket.remoteAddress, 0);
  return (req: Request, res: Response, next: NextFunction) => {
    const place = placeOf(
      hostOf((name) => req.get(name), trusted(req)),
      req.protocol,
      { appUrl },
    );
    // The request target must be a path: not «*», not an absolute URL naming another host.
    if (place.ok && req.originalUrl.startsWith("/")) {
      res.locals.origin = place.origin;
      return next();
    }
    console.warn(`Petición ${req.method} rechazada: ${place.ok ? "destino que no es una ruta" : place.reason}`);
    res
      .status(400)
      .set({ "Cache-Control": "no-store", Connection: "close" })
      .type("html")
      .send(
        paginaSencilla("Dirección no válida", [
          "Oficina no atiende peticiones dirigidas a esta dirección. Entre por la dirección habitual de Oficina.",
          "Si administra esta instalación: defina <code>APP_URL</code> con la dirección pública de Oficina.",
        ]),
      );
  };
}

/** What a browser form or Remix sends. Others (TRACE, PROPFIND, OPTIONS…) have nothing to reach. */
export function allowFormMethods(req: Request, res: Response, next: NextFunction) {
  if (["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"].includes(req.method)) return next();
  res
    .status(405)
    .set({ Allow: "GET, HEAD, POST", "Cache-Control": "no-store", Connection: "close" })
    .type("text/plain; charset=utf-8")
    .send("Método no admitido.");
}
