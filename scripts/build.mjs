/**
 * `npm run build`: Oficina compiled for `node` (ADR 0014).
 *
 *   build/server.js       server.ts, its edge (server/) and the whole app, one module graph (`remix build`, remix.config.js)
 *   build/instrument.js   Sentry's set-up, loaded before it with `node --import`
 *   build/seed.js         the demo data loader (scripts/seed.ts), a program of its own
 *   build/avisos.js       the avisos mail worker on its own (scripts/avisos.ts, `npm run avisos`)
 *   public/build/         the browser's assets
 *   public/estilos.css    the stylesheet: app/estilos/'s pieces joined in the order ESTILOS lists
 *
 * `--if-stale` builds only when build/ or public/estilos.css is missing, or a source changed after
 * the last build (the mtime of build/.stamp, written last). `--sourcemap` adds source maps
 * (scripts/bench/copia.ts). Plain JavaScript, so that it runs with `node` alone.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const STAMP = path.join(ROOT, "build/.stamp");
/**
 * One build at a time per checkout (a test run's server and a second terminal may both find the
 * build stale): two at once write the same files, and the Remix CLI's esbuild service has been
 * seen to die with a Go «deadlock» trace then. The lock is a directory holding the builder's pid.
 */
const LOCK = path.join(ROOT, ".tmp/build.lock");
/** What the build is made of; a directory counts too (its mtime changes when a file is removed). */
const SOURCES = [
  "app",
  "server.ts",
  "server",
  "scripts/seed.ts",
  "scripts/seed",
  "scripts/linea-de-ordenes.ts",
  "scripts/avisos.ts",
  "scripts/build.mjs",
  "remix.config.js",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];

/**
 * The stylesheet's pieces (app/estilos/), in the order they are joined into the one file the
 * browser fetches. Their order is the cascade's: of two rules as specific as each other, the later
 * wins. A rule moved to another piece stays after every rule it overrides, before every rule that
 * overrides it.
 */
export const ESTILOS = [
  "base.css",
  "cabecera.css",
  "formularios.css",
  "tablas.css",
  "avisos.css",
  "fichas.css",
  "acceso-y-errores.css",
  "gastos.css",
  "panel.css",
  "justificantes.css",
  "acciones-masivas.css",
  "impresion.css",
];
const ESTILOS_DIR = path.join(ROOT, "app/estilos");
const ESTILOS_OUT = path.join(ROOT, "public/estilos.css");

/** The newest mtime under `file` (ms), 0 when it does not exist. */
function newest(file) {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(file)) latest = Math.max(latest, newest(path.join(file, name)));
  return latest;
}

export function isStale() {
  if (!existsSync(STAMP) || !existsSync(ESTILOS_OUT)) return true;
  const built = statSync(STAMP).mtimeMs;
  return SOURCES.some((source) => newest(path.join(ROOT, source)) > built);
}

/**
 * public/estilos.css from ESTILOS; a piece left out of the list, or listed and missing, stops the
 * build. Written beside and renamed, so a running server never serves half of it.
 */
export function joinStylesheet() {
  const present = readdirSync(ESTILOS_DIR).filter((name) => name.endsWith(".css"));
  const unlisted = present.filter((name) => !ESTILOS.includes(name));
  const missing = ESTILOS.filter((name) => !present.includes(name));
  if (unlisted.length || missing.length)
    throw new Error(
      `app/estilos/ y ESTILOS (scripts/build.mjs) no coinciden: ${[
        ...unlisted.map((n) => `${n} no está en la lista`),
        ...missing.map((n) => `${n} no existe`),
      ].join("; ")}`,
    );
  const css = ESTILOS.map((name) => `/* app/estilos/${name} */\n${readFileSync(path.join(ESTILOS_DIR, name), "utf8")}`);
  const tmp = path.join(ROOT, `.tmp/estilos.css.${process.pid}`);
  mkdirSync(path.dirname(tmp), { recursive: true });
  writeFileSync(tmp, `/* Built by scripts/build.mjs from app/estilos/: edit the pieces there. */\n${css.join("\n")}`);
  renameSync(tmp, ESTILOS_OUT);
}

export async function build({ sourcemap = false } = {}) {
  const started = Date.now();
  rmSync(STAMP, { force: true });
  joinStylesheet();
  // The Remix CLI (the `remix` command @remix-run/dev declares) and its esbuild (a development
  // dependency, like the build itself).
  const devPackage = path.join(ROOT, "node_modules/@remix-run/dev/package.json");
  const require = createRequire(devPackage);
  const cli = path.join(path.dirname(devPackage), JSON.parse(readFileSync(devPackage, "utf8")).bin.remix);
  const remix = spawnSync(process.execPath, [cli, "build", ...(sourcemap ? ["--sourcemap"] : [])], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (remix.status !== 0) throw new Error(`remix build falló (${remix.signal ?? `código ${remix.status}`})`);
  const esbuild = await import(require.resolve("esbuild"));
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { instrument: "app/instrument.server.ts", seed: "scripts/seed.ts", avisos: "scripts/avisos.ts" },
    outdir: "build",
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap,
    logLevel: "warning",
  });
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  console.info(`Compilación lista en ${((Date.now() - started) / 1000).toFixed(1)} s (build/).`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== "--if-stale" && a !== "--sourcemap");
  if (unknown.length) {
    console.error(`Opción desconocida: ${unknown.join(" ")} (use --if-stale, --sourcemap)`);
    process.exit(2);
  }
  if (args.includes("--if-stale") && !isStale()) process.exit(0);
  lock();
  // Another build may have finished while this one waited for the lock.
  if (args.includes("--if-stale") && !isStale()) {
    unlock();
    process.exit(0);
  }
  build({ sourcemap: args.includes("--sourcemap") })
    .catch((error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    })
    .finally(unlock);
}

/** Takes the build lock, waiting (up to 10 minutes) while a live process holds it. */
function lock() {
  mkdirSync(path.dirname(LOCK), { recursive: true });
  const deadline = Date.now() + 10 * 60_000;
  for (let said = false; ;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(path.join(LOCK, "pid"), String(process.pid));
      return;
    } catch (error) {
      if (error?.code !== "EEXIST") throw error;
    }
    let holder = 0;
    let age = 0;
    try {
      age = Date.now() - statSync(LOCK).mtimeMs;
      holder = Number(readFileSync(path.join(LOCK, "pid"), "utf8")) || 0;
    } catch {
      // gone meanwhile, or its builder has not written its pid yet
    }
    if ((holder && !alive(holder)) || (!holder && age > 10_000)) {
      // Left by a build that died.
      rmSync(LOCK, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`Otra compilación (pid ${holder}) no termina: ${LOCK}`);
    if (!said) console.info(`Esperando a otra compilación en curso (pid ${holder})…`);
    said = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}

function unlock() {
  rmSync(LOCK, { recursive: true, force: true });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error?.code === "EPERM";
  }
}
