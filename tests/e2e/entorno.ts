/**
 * Where the end-to-end server runs. Port and data directory go together, so two runs at once
 * (two terminals, two engineers) use `E2E_PORT` to stay out of each other's way.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
/** Where the app under test answers (playwright.config.ts starts it there). */
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DATA_DIR = `.tmp/e2e-data-${E2E_PORT}`;
/** The signed-in sessions of this run (tests/e2e/preparar.setup.ts), one file per role. */
export const E2E_STATE_DIR = `.tmp/e2e-estado-${E2E_PORT}`;
