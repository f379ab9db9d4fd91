/**
 * The app `npm run bench` measures: the working tree's, copied as it is now (other people may edit
 * it while we measure) with the framework's ceiling added, and built there for production.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { RAIZ } from "./opciones";

/**
 * The ceiling's route, added to the copy the bench builds (never to the app): what Express,
 * Remix, React and Sentry cost for a page of this app — the root's layout and its loader, which
 * without a session cookie reads no database — before any route of ours does work.
 */
const RUTA_TECHO = `export default function TechoDelMarco() {
  return <p>Techo del marco</p>;
}
`;

function ejecutar(comando: string, args: string[], cwd: string) {
  const r = spawnSync(comando, args, {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (r.status !== 0) throw new Error(`${comando} ${args.join(" ")} falló:\n${r.stdout}\n${r.stderr}`);
}

/** Copies the app into `tmp`/app and builds it; its source maps end up in `tmp`/mapas. */
export function copiarYCompilar(tmp: string) {
  const app = path.join(tmp, "app");
  for (const nombre of [
    "app",
    "server",
    "supabase",
    "scripts",
    "server.ts",
    "remix.config.js",
    "tsconfig.json",
    "package.json",
  ])
    cpSync(path.join(RAIZ, nombre), path.join(app, nombre), {
      recursive: true,
      filter: (f) => !/\.test\.tsx?$/.test(f),
    });
  cpSync(path.join(RAIZ, "public"), path.join(app, "public"), {
    recursive: true,
    filter: (f) => !f.includes(`${path.sep}public${path.sep}build`),
  });
  symlinkSync(path.join(RAIZ, "node_modules"), path.join(app, "node_modules"), "dir");
  // The framework's ceiling: a page of the copy only, with no loader, no session and no form.
  writeFileSync(path.join(app, "app", "routes", "techo-del-marco.tsx"), RUTA_TECHO);
  // With source maps, to tell what the browser's chunks are made of; the maps are then moved out
  // of public/ and the comment naming them removed, so the served bytes are the plain build's.
  ejecutar(process.execPath, ["scripts/build.mjs", "--sourcemap"], app);
  const mapas = path.join(tmp, "mapas");
  const mover = (dir: string) => {
    for (const nombre of readdirSync(dir, { withFileTypes: true })) {
      const ruta = path.join(dir, nombre.name);
      if (nombre.isDirectory()) mover(ruta);
      else if (nombre.name.endsWith(".map")) {
        const destino = path.join(mapas, path.relative(path.join(app, "public"), ruta));
        mkdirSync(path.dirname(destino), { recursive: true });
        renameSync(ruta, destino);
      } else if (nombre.name.endsWith(".js")) {
        const texto = readFileSync(ruta, "utf8");
        writeFileSync(ruta, texto.replace(/\n?\/\/# sourceMappingURL=[^\n]*\n?$/, "\n").replace(/\n$/, ""));
      }
    }
  };
  mover(path.join(app, "public", "build"));
  return { app, mapas };
}
