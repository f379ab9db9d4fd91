import { type APIRequestContext } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { as, expect, test as base } from "./support";

/**
 * The JavaScript a page makes the browser fetch before it works — its `modulepreload`s — gzipped
 * as it travels (ADR 0008, «First-load JavaScript»). zod and Conform's zod adapter load after hydration, for
 * validation as you type (ui/validacion-en-vivo.ts), never with a page: a route whose action imported zod
 * put all of zod in its first load. The budget is the first-load aim
 * (ADR 0008) plus a little room, and the routes' manifest (a file of its own, 1.7 KiB, the same
 * for every page); a page carrying zod again would be far over it.
 */
const BUDGET_KIB = 142;

async function firstLoad(request: APIRequestContext, path: string) {
  const page = await request.get(path);
  expect(page.status(), path).toBe(200);
  const html = await page.text();
  const files = [...new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!))];
  expect(files.length, path).toBeGreaterThan(3);
  let bytes = 0;
  const withZod: string[] = [];
  for (const file of files) {
    const body = await (await request.get(file)).body();
    bytes += gzipSync(body).length;
    if (body.includes("ZodError")) withZod.push(file);
  }
  return { kib: Math.round(bytes / 102.4) / 10, withZod };
}

const anon = base;
const admin = as("administrador");

for (const [test, paths] of [
  [anon, ["/login", "/auth/recuperar", "/signup-confirmation"]],
  [admin, ["/", "/gastos", "/avisos", "/usuarios", "/proveedores", "/departamentos"]],
] as const)
  for (const path of paths)
    test(`primera carga de ${path}: sin zod, ≤ ${BUDGET_KIB} KiB de JavaScript`, async ({ request }, info) => {
      const { kib, withZod } = await firstLoad(request, path);
      expect(withZod).toEqual([]);
      expect(kib).toBeLessThanOrEqual(BUDGET_KIB);
      info.annotations.push({ type: "primera carga", description: `${path}: ${kib} KiB gzip` });
    });
