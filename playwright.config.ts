import { defineConfig, devices } from "@playwright/test";
import { findChromium } from "./scripts/browser.mjs";
import { E2E_BASE_URL, E2E_DATA_DIR, E2E_PORT as PORT } from "./tests/e2e/entorno";

/**
 * Every journey runs twice: with JavaScript and without it. Chromium is CHROMIUM_PATH, Debian's
 * or Playwright's own (scripts/browser.mjs); the app runs from the production build (built first
 * when a source changed) on its own embedded Postgres with the demo data.
 */
const chromium = {
  ...devices["Desktop Chrome"],
  locale: "es-ES",
  timezoneId: "Europe/Madrid",
  launchOptions: {
    executablePath: findChromium() ?? undefined,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  },
};

export default defineConfig({
  testDir: "tests/e2e",
  // Per port, like the server's data: two runs at once never clean each other's results.
  outputDir: `.tmp/e2e-resultados-${PORT}`,
  fullyParallel: true,
  workers: 2,
  // No retries and Playwright's own timeouts: a journey that fails once is a fault to fix.
  retries: 0,
  reporter: [["list"]],
  // Traces cost time on every action; to debug a failure: `npx playwright test --trace retain-on-failure`.
  use: { baseURL: E2E_BASE_URL, trace: "off" },
  projects: [
    { name: "preparar", testMatch: /preparar\.setup\.ts/, use: chromium },
    { name: "con-js", use: { ...chromium, javaScriptEnabled: true }, dependencies: ["preparar"] },
    { name: "sin-js", use: { ...chromium, javaScriptEnabled: false }, dependencies: ["preparar"] },
  ],
  webServer: {
    command: `node scripts/build.mjs --if-stale && rm -rf ${E2E_DATA_DIR} && exec node --import ./build/instrument.js build/server.js`,
    url: `${E2E_BASE_URL}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    // SIGTERM to the whole process group: the server finishes, then stops its embedded Postgres.
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: E2E_DATA_DIR,
      // Mailed links are built from APP_URL only (never the Host): the origin the tests browse.
      APP_URL: E2E_BASE_URL,
      // As `npm start` runs it: React's production build (its development build renders several
      // times slower, and no installation runs it).
      NODE_ENV: "production",
      SESSION_SECRET: "e2e-secreto-de-sesion-de-al-menos-32-caracteres",
      // Avisos by mail at once (no grouping wait), delivered every half second.
      AVISOS_ESPERA_SEGUNDOS: "0",
      AVISOS_INTERVALO_SEGUNDOS: "0.5",
      // Every journey uploads as the same demo empleado; the per-person limit has its own tests.
      SUBIDAS_POR_PERSONA: "100000",
    },
  },
});
