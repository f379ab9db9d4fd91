import { createRequire } from "node:module";
import { LRUCache } from "lru-cache";

/**
 * Route matching, remembered. `matchRoutes` of `@remix-run/router` (Remix 2) flattens the route
 * tree, ranks every branch and compiles each path's RegExp on every call, and a document request
 * calls it several times: the server's match, the render's `useRoutes` and the lazy-discovery
 * manifest (ADR 0008). React Router 7 caches this; Remix 2 does not.
 *
 * The answer depends only on the tree's shape (each route's id, path, index, caseSensitive and
 * children, in order), the pathname and the basename, so it is kept under those — as route ids,
 * so that a tree rebuilt for each render (as Remix's does) gets its own route objects back. A
 * miss asks the library itself; a tree whose routes lack an id or repeat one is not kept. The
 * static handler's own match (inside `query`) calls the library's inner function and is not
 * reached from here.
 *
 * Installed by replacing the export that Remix's server runtime, React Router and Remix's React
 * package all read at call time (a wrapper, not a patched file in node_modules).
 */

export type RouteLike = {
  id?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteLike[];
};
type Params = Record<string, string | undefined>;
export type RouteMatch = { params: Params; pathname: string; pathnameBase: string; route: RouteLike };
export type MatchRoutes = (
  routes: RouteLike[],
  location: string | { pathname?: string },
  basename?: string,
) => RouteMatch[] | null;

type Kept = { matches: { id: string; pathname: string; pathnameBase: string }[]; params: Params };
type Shape = { id: number; byId: Map<string, RouteLike> };

/** The tree's shape as a key, and its routes by id; null when ids are missing or repeated. */
function shapeOf(routes: RouteLike[]): { key: string; byId: Map<string, RouteLike> } | null {
  const byId = new Map<string, RouteLike>();
  let key = "";
  const walk = (list: RouteLike[]): boolean => {
    key += "[";
    for (const route of list) {
      if (typeof route.id !== "string" || byId.has(route.id)) return false;
      byId.set(route.id, route);
      // undefined and "" are different paths to the library (a pathless layout, an empty path).
      key += `${JSON.stringify(route.id)}${route.path == null ? "~" : JSON.stringify(route.path)}${route.index ? 1 : 0}${route.caseSensitive === true ? 1 : 0}`;
      if (route.children && route.children.length > 0 && !walk(route.children)) return false;
    }
    key += "]";
    return true;
  };
  return walk(routes) ? { key, byId } : null;
}

/** `original` with its answers kept (at most `max` shapes × pathnames, least recently used out). */
export function rememberMatches(
  original: MatchRoutes,
  parsePath: (path: string) => { pathname?: string },
  max = 2_000,
): MatchRoutes {
  // An empty array stands for «no match»: the library never answers [] (a match has ≥ 1 route).
  const kept = new LRUCache<string, Kept | []>({ max });
  // A tree passed again (the server's own, built once per build) is known by identity: no walk.
  // Remix never changes a tree once built; one rebuilt per render is walked and found by its key.
  const byTree = new WeakMap<RouteLike[], Shape | null>();
  // Each shape gets a number, so the kept answers' keys do not each repeat the whole shape.
  const shapeIds = new LRUCache<string, number>({ max: 100 });
  let nextId = 0;
  const shapeFor = (routes: RouteLike[]) => {
    let shape = byTree.get(routes);
    if (shape !== undefined) return shape;
    const walked = shapeOf(routes);
    shape = null;
    if (walked) {
      let id = shapeIds.get(walked.key);
      if (id === undefined) shapeIds.set(walked.key, (id = nextId++));
      shape = { id, byId: walked.byId };
    }
    byTree.set(routes, shape);
    return shape;
  };
  return (routes, location, basename = "/") => {
    const shape = Array.isArray(routes) ? shapeFor(routes) : null;
    if (!shape) return original(routes, location, basename);
    const pathname = (typeof location === "string" ? parsePath(location).pathname : location.pathname) || "/";
    const key = `${shape.id}\n${basename}\n${pathname}`;
    const hit = kept.get(key);
    if (hit && !Array.isArray(hit)) {
      // Fresh objects every time (callers may change them); one params object shared by all
      // matches, as the library does.
      const params = { ...hit.params };
      return hit.matches.map((m) => ({
        params,
        pathname: m.pathname,
        pathnameBase: m.pathnameBase,
        route: shape.byId.get(m.id)!,
      }));
    }
    if (hit) return null;
    const matches = original(routes, location, basename);
    kept.set(
      key,
      matches
        ? {
            matches: matches.map((m) => ({ id: m.route.id!, pathname: m.pathname, pathnameBase: m.pathnameBase })),
            params: { ...matches[matches.length - 1]!.params },
          }
        : [],
    );
    return matches;
  };
}

const REMEMBERED = Symbol.for("oficina.rememberedMatchRoutes");

/** Replaces `@remix-run/router`'s `matchRoutes` for everything in this process that reads it from the module. */
export function rememberRouteMatching() {
  const router = createRequire(import.meta.url)("@remix-run/router") as {
    matchRoutes: MatchRoutes & { [REMEMBERED]?: true };
    parsePath: (path: string) => { pathname?: string };
  };
  if (router.matchRoutes[REMEMBERED]) return;
  const remembered = Object.assign(rememberMatches(router.matchRoutes, router.parsePath), {
    [REMEMBERED]: true as const,
  });
  router.matchRoutes = remembered;
}
