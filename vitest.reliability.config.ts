import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

/**
 * `npm run test:reliability`: the suites that take minutes (tests/reliability): hostile input,
 * faults against a real server process, and the soak. One file at a time, so a suite that
 * measures (timings, memory) does not share the two cores with another.
 */
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    globals: true,
    include: ["tests/reliability/**/*.test.{ts,tsx}"],
    globalSetup: ["tests/support/global-setup.ts", "tests/reliability/build.setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    fileParallelism: false,
  },
});
