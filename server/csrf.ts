import type { NextFunction, Request, Response } from "express";
import { REFUSALS } from "./edge";

/**
 * A state-changing request must come from one of our own pages (as Django's CSRF check does with
 * Origin): the browser's Sec-Fetch-Site says same-origin, or its Origin is ours — APP_URL, or the
 * loopback origin the request came to (res.locals.origin; never an arbitrary Host). Anything else
 * — a foreign site, `null`, no Origin at all — is refused before it reaches a route: on the app's
 * own error page (`res.locals.refusal`, server/remix.ts), or plainly for the monitoring tunnel,
 * which Remix does not serve.
 */
export function refuseCrossOrigin(appUrl: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
    const site = req.get("Sec-Fetch-Site");
    const origin = req.get("Origin");
    // APP_URL is always ours (a proxy may hand us its requests with a loopback Host); a loopback
    // origin only when the request came to that loopback origin.
    const ours = (o: string | undefined) => o === appUrl || o === res.locals.origin;
    const sameSite = site ? site === "same-origin" && (!origin || ours(origin)) : ours(origin);
    if (sameSite) return next();
    console.warn(
      `Petición ${req.method} ${req.path} rechazada: origen ${origin ?? "ausente"}, Sec-Fetch-Site ${site ?? "ausente"}`,
    );
    if (!/^\/monitoring\/?$/i.test(req.path)) {
      res.locals.refusal = REFUSALS.crossOrigin;
      return next();
    }
    res
      .status(403)
      .set({ "Cache-Control": "no-store", Connection: "close" })
      .type("text/plain; charset=utf-8")
      .send(REFUSALS.crossOrigin.message);
  };
}
