/** Classic Remix compiler (no Vite): ESM server build in build/, browser assets in public/build/. */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  serverDependenciesToBundle: [/^@conform-to\//],
  browserNodeBuiltinsPolyfill: { modules: {} },
};
