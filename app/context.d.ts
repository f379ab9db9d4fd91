import "@remix-run/node";
import type { Signed } from "./auth/session.server";
import type { EdgeRefusal } from "./lib/errors.server";
import type { Services } from "./services.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    services: Services;
    /** Per-request CSP nonce for inline scripts. */
    cspNonce: string;
    /** The client's address as Express sees it (for per-address rate limits). */
    clientIp: string;
    /**
     * Adds a Set-Cookie to this request's response, whatever the response turns out to be (a page,
     * data, or a redirect): for cookies an auth backend refreshed while answering.
     */
    appendCookie: (cookie: string) => void;
    /**
     * The route's own answer carries these headers (a receipt's isolation, a download's caching):
     * the edge's defaults for them step aside.
     */
    ownHeaders?: (names: string[]) => void;
    /** Set when the edge refused the request (server/csrf.ts, server/limites.ts): errors.server.ts. */
    refusal?: EdgeRefusal;
    /** Memo of the signed-in user for this request. */
    signed?: Promise<Signed | null>;
  }
}
