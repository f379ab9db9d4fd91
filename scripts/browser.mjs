/**
 * The Chromium the browser tests use (playwright.config.ts), found before `npm test` spends
 * minutes on the other suites: CHROMIUM_PATH, else Debian's headless shell (the package
 * chromium-headless-shell: the same engine without the desktop browser's compositor and
 * services, what Playwright itself runs headless), else Debian's full Chromium, else Playwright's
 * own (`npx playwright install chromium`). With none, as root on Debian it installs Debian's
 * headless shell, as CI does; anywhere else it stops at once and prints the command to run.
 * Plain JavaScript, so that it runs with `node` alone.
 */
import { chromium } from "@playwright/test";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DEBIAN_HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
const DEBIAN_CHROMIUM = "/usr/bin/chromium";
const DEBIAN_PACKAGES = ["chromium-headless-shell", "fonts-dejavu-core"];

/**
 * The browser to launch: a path, or undefined for Playwright's own (where `npx playwright install
 * chromium` put it). Null when there is none.
 * @returns {string | undefined | null}
 */
export function findChromium() {
  const chosen = process.env.CHROMIUM_PATH?.trim();
  if (chosen) return existsSync(chosen) ? chosen : null;
  if (existsSync(DEBIAN_HEADLESS_SHELL)) return DEBIAN_HEADLESS_SHELL;
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  return playwrightHasChromium() ? undefined : null;
}

function playwrightHasChromium() {
  try {
    return existsSync(chromium.executablePath());
  } catch {
    // A platform Playwright has no build of its Chromium for.
    return false;
  }
}

/** The command that gives this machine a browser for the tests. */
function advice() {
  if (process.env.CHROMIUM_PATH?.trim())
    return `CHROMIUM_PATH=${process.env.CHROMIUM_PATH} no existe: corríjala o quítela del entorno.`;
  if (existsSync("/etc/debian_version")) {
    const sudo = process.getuid?.() === 0 ? "" : "sudo ";
    return `Instálelo con:\n\n  ${sudo}apt-get update && ${sudo}apt-get install -y ${DEBIAN_PACKAGES.join(" ")}\n`;
  }
  return `Instale el de Playwright con:\n\n  npx playwright install chromium\n\no indique uno con CHROMIUM_PATH=/ruta/al/chromium.`;
}

function main() {
  if (findChromium() !== null) return;
  if (process.getuid?.() === 0 && existsSync("/etc/debian_version") && !process.env.CHROMIUM_PATH?.trim()) {
    console.info(`No hay Chromium para las pruebas de navegador: instalando ${DEBIAN_PACKAGES.join(" ")} de Debian…`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    for (const args of [
      ["update", "-qq"],
      ["install", "-y", "-qq", ...DEBIAN_PACKAGES],
    ]) {
      const r = spawnSync("apt-get", args, { stdio: "inherit", env });
      if (r.status !== 0) {
        console.error(`apt-get ${args.join(" ")} falló (${r.signal ?? `código ${r.status}`}).`);
        process.exit(1);
      }
    }
    if (findChromium() !== null) return;
  }
  console.error(`No hay Chromium para las pruebas de navegador. ${advice()}`);
  process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
