/**
 * `npm test`: every suite of the README's test command, one after the other, stopping at the first
 * that fails, and a table of how long each took at the end (so a slow stage is seen at once).
 * `npm run test:reliability` (the suites that take minutes) is apart: .ci/run runs it after this.
 * Plain JavaScript, so that it runs with `node` alone.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const STAGES = [
  ["comprobaciones (tsc, eslint, prettier)", "npm", ["run", "--silent", "check"]],
  ["navegador", process.execPath, ["scripts/browser.mjs"]],
  ["unitarias e integración (vitest)", "npm", ["run", "--silent", "test:unit"]],
  ["navegador, con y sin JavaScript (playwright)", "npm", ["run", "--silent", "test:e2e"]],
];

const times = [];
let failed = null;
for (const [name, command, args] of STAGES) {
  const started = Date.now();
  const r = spawnSync(command, args, { cwd: ROOT, stdio: "inherit" });
  times.push([name, (Date.now() - started) / 1000]);
  if (r.status !== 0) {
    failed = `${name}: ${r.signal ?? `código ${r.status}`}`;
    break;
  }
}
console.info("\nnpm test, por etapas:");
for (const [name, seconds] of times) console.info(`  ${formatSeconds(seconds).padStart(7)}  ${name}`);
console.info(`  ${formatSeconds(times.reduce((t, [, s]) => t + s, 0)).padStart(7)}  total`);
if (failed) {
  console.error(`\nFalló: ${failed}`);
  process.exit(1);
}

/** 1234.5 → «20:35» (minutes:seconds). */
export function formatSeconds(seconds) {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
