import { defineConfig, devices } from "@playwright/test";
import { E2E_DATA_DIR, E2E_PORT as PORT } from "./tests/e2e/entorno";

/**
 * Every journey runs twice: with JavaScript and without it. Chromium is Debian's (/usr/bin/chromium);
 * the app runs from the production build on its own embedded Postgres with the demo data.
 */
export const BASE_URL = `http://127.0.0.1:${PORT}`;

const chromium = {
  ...devices["Desktop Chrome"],
  locale: "es-ES",
  timezoneId: "Europe/Madrid",
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: { baseURL: BASE_URL, trace: "retain-on-failure" },
  projects: [
    { name: "preparar", testMatch: /preparar\.setup\.ts/, use: chromium },
    { name: "con-js", use: { ...chromium, javaScriptEnabled: true }, dependencies: ["preparar"] },
    { name: "sin-js", use: { ...chromium, javaScriptEnabled: false }, dependencies: ["preparar"] },
  ],
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && tsx --import ./app/instrument.server.ts server.ts`,
    url: `${BASE_URL}/healthz`,
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
      APP_URL: BASE_URL,
      NODE_ENV: "test",
      SESSION_SECRET: "e2e-secreto-de-sesion-de-al-menos-32-caracteres",
    },
  },
});
