import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import type { NextFunction, Request, Response } from "express";
import type { Services } from "../app/services.server";

/**
 * Remix, through its Express adapter. Before it, the request is made to say what the edge
 * checked: its Host is the origin it was addressed to (server/host.ts), never the client's Host
 * or X-Forwarded-Host; and it carries no Origin, which Remix compares with Host and answers with
 * a 500 when they differ — as they do behind a proxy that forwards neither — and which
 * server/csrf.ts has checked. A refused request (`res.locals.refusal`) reaches Remix only for
 * the app's own page with the refusal and its status: every route's loader and action throws it
 * before reading anything (errors.server.ts). Whatever is left of any body is dropped once the
 * answer is sent. Pages and data carry who is signed in: no cache may keep them, unless a route
 * says its own (errors.server.ts, `ownHeaders`).
 */
export function serveRemix(build: ServerBuild, mode: "development" | "production", services: Services) {
  const handle = createRequestHandler({
    build,
    mode,
    getLoadContext: (req, res) => ({
      services,
      cspNonce: res.locals.cspNonce as string,
      clientIp: req.ip ?? "",
      appendCookie: (cookie: string) => void res.append("Set-Cookie", cookie),
      // Not once the answer has gone: a client that went away before the route answered (an
      // image left behind by a navigation) has been answered by then.
      ownHeaders: (names: string[]) => {
        if (!res.headersSent) names.forEach((name) => res.removeHeader(name));
      },
      ...(res.locals.refusal ? { refusal: res.locals.refusal } : {}),
    }),
  });
  return (req: Request, res: Response, next: NextFunction) => {
    req.headers.host = new URL(res.locals.origin as string).host;
    delete req.headers["x-forwarded-host"];
    delete req.headers.origin;
    // A body left unread once the answer is sent — a refusal, or an action that refused before
    // reading (a receipt for a gasto no longer in borrador) — is dropped as it arrives: the
    // adapter's stream of it stays paused, and the client, still sending, would wait on it.
    res.once("finish", () => {
      if (req.complete) return;
      req.removeAllListeners("data");
      req.resume();
    });
    res.set("Cache-Control", "private, no-store");
    return handle(req, res, next);
  };
}
