import { defineConfig } from "vitest/config";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    globals: true,
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/integration/**/*.test.{ts,tsx}"],
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One file per core, not Vitest's default of one fewer: the files mostly wait on their own
    // database, and on a 2-core machine the default is a single worker.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
