/** Classic Remix compiler (no Vite): ESM server build in build/, browser assets in public/build/. */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  serverDependenciesToBundle: [/^@conform-to\//],
  browserNodeBuiltinsPolyfill: { modules: {} },
  // Single fetch stays off: loaders return json() with status codes the no-JS path relies on.
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
  },
};
