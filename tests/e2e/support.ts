import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Page } from "@playwright/test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** The demo accounts the seed creates (README lists them). */
export const DEMO_PASSWORD = "demo-oficina-2026";
export const ACCOUNTS = {
  administrador: "administrador@oficina.example",
  aprobador: "aprobador@oficina.example",
  empleado: "empleado@oficina.example",
} as const;
export type Role = keyof typeof ACCOUNTS;

export const storageStateOf = (role: Role) => path.resolve(`.tmp/e2e-estado/${role}.json`);

/** Tests that start signed in as `role` (sessions made once by preparar.setup.ts). */
export const as = (role: Role) => base.extend({ storageState: storageStateOf(role) });
export { expect };

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto("/login");
  const form = page.getByRole("region", { name: "Iniciar sesión" });
  await form.getByLabel("Correo electrónico").fill(email);
  await form.getByLabel("Contraseña").fill(password);
  await form.getByRole("button", { name: "Iniciar sesión" }).click();
}

/** A unique suffix so parallel tests (and both projects) never collide. */
export function unique(prefix: string) {
  return `${prefix} ${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 6)}`;
}

/** The last confirmation link the dev outbox holds for `email` (DATA_DIR/correo/<email>.txt). */
export function lastMailLink(email: string): string | null {
  const file = path.resolve(".tmp/e2e-data/correo", `${email.toLowerCase()}.txt`);
  if (!existsSync(file)) return null;
  const links = readFileSync(file, "utf8").match(/https?:\/\/\S+/g);
  return links?.at(-1) ?? null;
}

/** axe-core over the whole page: no violations allowed. */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

export const jsEnabled = (projectName: string) => projectName !== "sin-js";
