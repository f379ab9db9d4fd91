/**
 * Classic Remix compiler (no Vite): browser assets in public/build/; the server (server.ts) and
 * every route in one ESM file, build/server.js, so each app module exists once (ADR 0014).
 * `npm run build` (scripts/build.mjs) runs this and builds the two programs beside it.
 */
export default {
  server: "server.ts",
  serverBuildPath: "build/server.js",
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  serverDependenciesToBundle: [/^@conform-to\//],
  browserNodeBuiltinsPolyfill: { modules: {} },
  // Single fetch stays off: loaders return json() with status codes the no-JS path relies on.
  // Lazy route discovery too (ADR 0008, «The page»): the routes' manifest is one cached file,
  // not a part of it in every page plus a route match and /__manifest requests to make it.
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: false,
  },
};
