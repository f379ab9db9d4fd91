import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  rememberMatches,
  rememberRouteMatching,
  type MatchRoutes,
  type RouteLike,
  type RouteMatch,
} from "./route-matching.server";

const require = createRequire(import.meta.url);
const router = require("@remix-run/router") as {
  matchRoutes: MatchRoutes;
  parsePath: (p: string) => { pathname?: string };
  UNSAFE_convertRoutesToDataRoutes: (routes: RouteLike[], mapRoute: (r: RouteLike) => object) => RouteLike[];
};
const original = router.matchRoutes;
const { flatRoutes } = require("@remix-run/dev/dist/config/flat-routes.js") as {
  flatRoutes: (
    dir: string,
    ignored: string[],
  ) => Record<string, { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean }>;
};

/** The app's own route tree, as Remix's server builds it from the route files. */
function appTree(): RouteLike[] {
  const manifest = {
    root: { id: "root", path: "" },
    ...flatRoutes(path.resolve("app"), ["**/.*", "**/*.test.{ts,tsx}"]),
  };
  const under = (parentId: string | undefined): RouteLike[] =>
    Object.values(manifest)
      .filter((r) => ("parentId" in r ? r.parentId : undefined) === parentId)
      .map((r) => {
        const children = under(r.id);
        return {
          id: r.id,
          path: r.path,
          index: "index" in r ? Boolean(r.index) : undefined,
          caseSensitive: "caseSensitive" in r ? Boolean(r.caseSensitive) : undefined,
          children: children.length ? children : undefined,
        };
      });
  return under(undefined);
}

/** Optional segments, splats, case sensitivity, a pathless layout, an absolute child. */
const otherTree: RouteLike[] = [
  {
    id: "raiz",
    path: "/",
    children: [
      { id: "inicio", index: true },
      { id: "opcional", path: ":lang?/ayuda/:tema?" },
      { id: "mayus", path: "Exacto", caseSensitive: true },
      { id: "layout", children: [{ id: "dentro", path: "dentro/:id" }] },
      { id: "absoluta", path: "/absoluta/hija" },
      { id: "archivos", path: "archivos/*" },
      { id: "vacia", path: "" },
      { id: "resto", path: "*" },
    ],
  },
];

function countRoutes(routes: RouteLike[]): number {
  return routes.reduce((n, r) => n + 1 + countRoutes(r.children ?? []), 0);
}

function pathsOf(routes: RouteLike[], prefix = ""): string[] {
  return routes.flatMap((r) => {
    const here = r.path?.startsWith("/") ? r.path : [prefix, r.path ?? ""].filter(Boolean).join("/");
    const filled = `/${here}`
      .replace(/\/+/g, "/")
      .replace(/:[\w-]+\??/g, "a1-b2")
      .replace(/\*$/, "x/y");
    return [filled, ...pathsOf(r.children ?? [], here)];
  });
}

const EXTRA = [
  "/",
  "",
  "/gastos/",
  "/gastos//",
  "/GASTOS",
  "/gastos?estado=pendiente&pagina=40#gasto",
  "/gastos/%C3%A1%20b/justificantes",
  "/usuarios/a%2Fb",
  "/proveedores/%E0%A4%A",
  "/nada",
  "/gastos/1/2/3/4",
  "/es/ayuda",
  "/ayuda/x",
  "/exacto",
  "/Exacto",
  "/dentro/7",
  "/absoluta/hija",
  "/archivos",
  "/archivos/a/b",
  "/app/gastos",
  "/application",
];

/** Same answer as the library: same values, the same route objects, one params object shared as it shares it. */
function expectSame(got: RouteMatch[] | null, want: RouteMatch[] | null) {
  expect(got).toEqual(want);
  if (!got || !want) return;
  got.forEach((m, i) => {
    expect(m.route).toBe(want[i]!.route);
    expect(m.params === got[0]!.params).toBe(want[i]!.params === want[0]!.params);
  });
}

describe("rememberMatches", () => {
  const trees = { app: appTree(), other: otherTree };

  it("finds the app's routes (the corpus is not empty by mistake)", () => {
    expect(pathsOf(trees.app)).toEqual(
      expect.arrayContaining(["/gastos", "/usuarios/a1-b2", "/gastos/a1-b2/justificantes"]),
    );
  });

  for (const [name, tree] of Object.entries(trees))
    for (const basename of ["/", "/app"])
      it(`answers as the library for every path of the ${name} tree (basename ${basename}), kept or not`, () => {
        const remembered = rememberMatches(original, router.parsePath);
        const corpus = [...new Set([...pathsOf(tree), ...EXTRA])].flatMap((p) => [p, `/app${p}`]);
        for (let round = 0; round < 3; round++)
          for (const p of corpus) {
            expectSame(remembered(tree, p, basename), original(tree, p, basename));
            expectSame(remembered(tree, { pathname: p }, basename), original(tree, { pathname: p }, basename));
          }
      });

  it("gives a tree rebuilt with the same shape its own route objects", () => {
    const remembered = rememberMatches(original, router.parsePath);
    const first = appTree();
    const second = router.UNSAFE_convertRoutesToDataRoutes(appTree(), () => ({}));
    expectSame(remembered(first, "/usuarios/1"), original(first, "/usuarios/1"));
    expectSame(remembered(second, "/usuarios/1"), original(second, "/usuarios/1"));
  });

  it("hands out fresh objects: changing an answer does not change the next one", () => {
    const remembered = rememberMatches(original, router.parsePath);
    const tree = appTree();
    remembered(tree, "/usuarios/1");
    const a = remembered(tree, "/usuarios/1")!;
    a[a.length - 1]!.params.id = "otro";
    a.pop();
    expectSame(remembered(tree, "/usuarios/1"), original(tree, "/usuarios/1"));
  });

  it("does not walk a tree passed again (it is known by identity)", () => {
    const remembered = rememberMatches(original, router.parsePath);
    let reads = 0;
    const counted = (r: RouteLike): RouteLike => {
      const { id, children, ...rest } = r;
      return Object.defineProperty({ ...rest, children: children?.map(counted) }, "id", {
        get: () => (reads++, id),
        enumerable: true,
      });
    };
    const tree = appTree().map(counted);
    expectSame(remembered(tree, "/gastos"), original(tree, "/gastos"));
    reads = 0;
    expectSame(remembered(tree, "/usuarios/1"), original(tree, "/usuarios/1"));
    const firstOfAnotherPath = reads;
    reads = 0;
    remembered(tree, "/usuarios/1");
    remembered(tree, "/gastos");
    expect(reads).toBe(0);
    // The library itself reads ids when it answers a new path; the walk is not repeated for it.
    expect(firstOfAnotherPath).toBeLessThan(countRoutes(tree));
  });

  it("tells apart trees that differ only in a path, an index flag or a missing path", () => {
    const remembered = rememberMatches(original, router.parsePath);
    const variants: RouteLike[][] = [
      [{ id: "a", path: "x" }],
      [{ id: "a", path: "y" }],
      [{ id: "a", path: "" }],
      [{ id: "a" }],
      [{ id: "a", index: true }],
      [{ id: "a", path: "X", caseSensitive: true }],
    ];
    for (const tree of variants)
      for (const p of ["/", "/x", "/y", "/X"]) expectSame(remembered(tree, p), original(tree, p));
  });

  it("leaves trees without ids, or with a repeated id, to the library every time", () => {
    let calls = 0;
    const counting: MatchRoutes = (...args) => (calls++, original(...args));
    const remembered = rememberMatches(counting, router.parsePath);
    const sinIds: RouteLike[] = [{ path: "/", children: [{ path: "a" }] }];
    const repetido: RouteLike[] = [{ id: "x", path: "/", children: [{ id: "x", path: "a" }] }];
    for (const tree of [sinIds, repetido]) {
      remembered(tree, "/a");
      remembered(tree, "/a");
      expectSame(remembered(tree, "/a"), original(tree, "/a"));
    }
    expect(calls).toBe(6);
    remembered(trees.app, "/gastos");
    remembered(trees.app, "/gastos");
    expect(calls).toBe(7);
  });
});

describe("rememberRouteMatching", () => {
  it("replaces the export Remix's server runtime and React Router read when they match", () => {
    rememberRouteMatching();
    rememberRouteMatching();
    const installed = require("@remix-run/router").matchRoutes as MatchRoutes;
    expect(installed).not.toBe(original);
    expect(require("react-router-dom").matchRoutes).toBe(installed);
    const tree = appTree();
    expectSame(installed(tree, "/gastos"), original(tree, "/gastos"));
  });
});
