import { mkdirSync } from "node:fs";
import { E2E_STATE_DIR } from "./entorno";
import { ACCOUNTS, expect, test as setup, signIn, storageStateOf, type Role } from "./support";

// One signed-in session per demo role, reused by the tests of both projects.
for (const role of Object.keys(ACCOUNTS) as Role[]) {
  setup(`sesión de ${role}`, async ({ page }) => {
    mkdirSync(E2E_STATE_DIR, { recursive: true });
    await signIn(page, ACCOUNTS[role]);
    await expect(page.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();
    await page.context().storageState({ path: storageStateOf(role) });
  });
}
