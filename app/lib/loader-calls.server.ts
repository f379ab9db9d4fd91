import { createRequire } from "node:module";

/**
 * Loaders called with the request as it came. Remix 2's server runtime (`callRouteLoader`) hands
 * every loader a copy of the request without Remix's own `index` and `_data` search parameters:
 * two new URLs and two new `Request`s per loader (each copying the headers and making a signal
 * that follows the original), so four per page with the root's loader, all for nothing when
 * the URL has neither parameter (ADR 0008, «The page»): the loader then gets the request itself.
 * Anything else — a data request (`_data`), an index route's `?index`, Single Fetch — goes to
 * Remix's own function unchanged.
 *
 * One difference: Remix's copy re-serialises the query (URLSearchParams: `%20` becomes `+`), the
 * request itself keeps it as the browser sent it; both read the same through `searchParams`.
 *
 * Installed like route matching (route-matching.server.ts): by replacing the export that the
 * server runtime's route table reads at call time, not by editing node_modules.
 */

type Loader = (args: { request: Request; context: unknown; params: unknown }) => unknown;
export type CallRouteLoader = (args: {
  loadContext: unknown;
  loader: Loader;
  params: unknown;
  request: Request;
  routeId: string;
  singleFetch?: boolean;
}) => Promise<unknown>;

type Responses = {
  isDeferredData: (value: unknown) => value is { init?: ResponseInit };
  isRedirectStatusCode: (status: number) => boolean;
  isResponse: (value: unknown) => value is Response;
  json: (data: unknown) => Response;
  redirect: (url: string, init?: ResponseInit) => Response;
};

/** Whether the URL may carry a parameter Remix strips (its search mentions `index` or `_data`). */
export function mayCarryRemixParams(url: string) {
  const q = url.indexOf("?");
  return q !== -1 && (url.includes("index", q) || url.includes("_data", q));
}

/** `original`, except that a request with nothing to strip reaches the loader as it is. */
export function callLoadersAsIs(original: CallRouteLoader, r: Responses): CallRouteLoader {
  return async (args) => {
    if (args.singleFetch || mayCarryRemixParams(args.request.url)) return original(args);
    const { loader, loadContext, params, request, routeId } = args;
    // What follows is Remix's own callRouteLoader after its copy (server-runtime/dist/data.js).
    const result = await loader({ request, context: loadContext, params });
    if (result === undefined)
      throw new Error(
        `You defined a loader for route "${routeId}" but didn't return anything from your \`loader\` function. Please return a value or \`null\`.`,
      );
    if (r.isDeferredData(result)) {
      if (result.init && r.isRedirectStatusCode(result.init.status || 200))
        return r.redirect(new Headers(result.init.headers).get("Location")!, result.init);
      return result;
    }
    return r.isResponse(result) ? result : r.json(result);
  };
}

const INSTALLED = Symbol.for("oficina.loadersAsIs");

/** Replaces the server runtime's `callRouteLoader` for this process. */
export function callLoadersWithTheirRequest() {
  const load = createRequire(import.meta.url);
  const data = load("@remix-run/server-runtime/dist/data.js") as {
    callRouteLoader: CallRouteLoader & { [INSTALLED]?: true };
  };
  if (data.callRouteLoader[INSTALLED]) return;
  const responses = load("@remix-run/server-runtime/dist/responses.js") as Responses;
  data.callRouteLoader = Object.assign(callLoadersAsIs(data.callRouteLoader, responses), {
    [INSTALLED]: true as const,
  });
}
