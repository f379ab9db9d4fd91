import "@remix-run/node";
import type { Signed } from "./auth/session.server";
import type { Services } from "./services.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    services: Services;
    /** Per-request CSP nonce for inline scripts. */
    cspNonce: string;
    /** The client's address as Express sees it (for per-address rate limits). */
    clientIp: string;
    /** Cookies an auth backend refreshed while answering; entry.server adds them to the response. */
    setCookies: string[];
    /** Memo of the signed-in user for this request. */
    signed?: Promise<Signed | null>;
  }
}
