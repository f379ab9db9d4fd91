import {
  ACCOUNTS,
  as,
  createDepartamento,
  DEMO_PASSWORD,
  expect,
  openDepartamento,
  unique,
  uniqueCode,
  test as base,
} from "./support";

/**
 * What the server promises whatever the browser does: headers, the cross-origin check on every
 * state-changing request, the session cookie, 404s for bad ids, the sign-in wall, and text that
 * stays text. Mostly plain HTTP (`request`), against the same running server.
 */
const anon = base;
const admin = as("administrador");

anon("cabeceras de seguridad en una página", async ({ request }) => {
  const r = await request.get("/login");
  expect(r.status()).toBe(200);
  const h = r.headers();
  const csp = h["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src [^;]*'nonce-[A-Za-z0-9+/=]+'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["referrer-policy"]).toBeTruthy();
  expect(h["x-powered-by"]).toBeUndefined();

  // The nonce is new on every response and is the one the page's scripts carry.
  const nonce = csp.match(/'nonce-([^']+)'/)![1]!;
  expect(await r.text()).toContain(`nonce="${nonce}"`);
  const again = await request.get("/login");
  expect(again.headers()["content-security-policy"]).not.toContain(nonce);
});

anon("/healthz responde 200 «ok»", async ({ request }) => {
  const r = await request.get("/healthz");
  expect(r.status()).toBe(200);
  expect(await r.text()).toBe("ok");
});

anon("sin sesión, una pantalla lleva a /login con redirectTo", async ({ request }) => {
  const r = await request.get("/departamentos?q=a", { maxRedirects: 0 });
  expect(r.status()).toBe(302);
  expect(r.headers()["location"]).toBe("/login?redirectTo=%2Fdepartamentos%3Fq%3Da");
  for (const path of ["/", "/gastos", "/proveedores", "/sucursales", "/usuarios", "/sentry-example-page"]) {
    const s = await request.get(path, { maxRedirects: 0 });
    expect(s.status(), path).toBe(302);
    expect(s.headers()["location"], path).toMatch(/^\/login(\?redirectTo=|$)/);
  }
  for (const path of ["/login", "/signup-confirmation", "/auth/confirm?token=x"]) {
    expect((await request.get(path, { maxRedirects: 0 })).status(), path).toBe(200);
  }
});

anon("la cookie de sesión es HttpOnly y SameSite=Lax", async ({ request, baseURL }) => {
  const r = await request.post("/login", {
    headers: { Origin: baseURL! },
    form: { intent: "iniciar", email: ACCOUNTS.empleado, password: DEMO_PASSWORD, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(r.status()).toBe(302);
  const cookie =
    r.headersArray().find((x) => x.name.toLowerCase() === "set-cookie" && x.value.startsWith("oficina_sesion="))
      ?.value ?? "";
  expect(cookie).toMatch(/;\s*HttpOnly/i);
  expect(cookie).toMatch(/;\s*SameSite=Lax/i);
  expect(cookie).toMatch(/;\s*Path=\//i);
});

admin("la sesión guardada en el navegador tampoco es legible desde la página", async ({ page, context }) => {
  await page.goto("/");
  const sesion = (await context.cookies()).find((c) => c.name === "oficina_sesion");
  expect(sesion).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  await expect(page.getByRole("heading", { level: 1, name: "Panel" })).toBeVisible();
  if (admin.info().project.name !== "sin-js")
    expect(await page.evaluate(() => document.cookie)).not.toContain("oficina_sesion");
});

admin("un POST que no viene de Oficina se rechaza con 403 y no cambia nada", async ({ page, baseURL }) => {
  const intentos: { name: string; headers: Record<string, string> }[] = [
    { name: "Origin de otro sitio", headers: { Origin: "https://evil.example" } },
    { name: "Origin null", headers: { Origin: "null" } },
    { name: "sin Origin ni Sec-Fetch-Site", headers: {} },
    { name: "Sec-Fetch-Site cross-site", headers: { "Sec-Fetch-Site": "cross-site" } },
    { name: "Sec-Fetch-Site same-site", headers: { "Sec-Fetch-Site": "same-site" } },
  ];
  const nombres: string[] = [];
  for (const intento of intentos) {
    const nombre = unique("Cruzado");
    nombres.push(nombre);
    const r = await page.request.post("/departamentos?index", {
      headers: intento.headers,
      form: { nombre, codigo: uniqueCode("X"), activo: "on", _envio: crypto.randomUUID() },
      maxRedirects: 0,
    });
    expect(r.status(), intento.name).toBe(403);
    expect(await r.text(), intento.name).toContain("Petición rechazada");
  }
  // Sign-out is a POST too: a foreign page cannot end the session.
  expect(
    (await page.request.post("/logout", { headers: { Origin: "https://evil.example" }, maxRedirects: 0 })).status(),
  ).toBe(403);

  // The same request from our own origin goes through (so the 403s above were the origin check).
  const propio = unique("Propio");
  const ok = await page.request.post("/departamentos?index", {
    headers: { Origin: baseURL! },
    form: { nombre: propio, codigo: uniqueCode("P"), activo: "on", _envio: crypto.randomUUID() },
    maxRedirects: 0,
  });
  expect(ok.status()).toBe(302);

  for (const nombre of nombres) {
    await page.goto(`/departamentos?q=${encodeURIComponent(nombre)}`);
    await expect(page.getByText("0 departamentos con estos filtros")).toBeVisible();
  }
  await page.goto(`/departamentos?q=${encodeURIComponent(propio)}`);
  await expect(page.getByRole("link", { name: propio, exact: true })).toBeVisible();
  // Still signed in.
  await expect(page.getByRole("button", { name: "Cerrar sesión" })).toBeVisible();
});

admin("envíos demasiado grandes y acciones desconocidas se rechazan", async ({ page, baseURL }) => {
  const big = await page.request.post("/departamentos?index", {
    headers: { Origin: baseURL!, "Content-Type": "application/x-www-form-urlencoded" },
    data: `nombre=${"a".repeat(2 * 1024 * 1024)}`,
    maxRedirects: 0,
  });
  expect(big.status()).toBe(413);

  await openDepartamento(page, "Ventas Norte");
  const unknown = await page.request.post(page.url(), {
    headers: { Origin: baseURL! },
    form: { intent: "borrar-todo" },
    maxRedirects: 0,
  });
  expect(unknown.status()).toBe(400);
});

admin("un id mal formado o desconocido da la página 404, no un 500", async ({ page }) => {
  for (const path of [
    "/departamentos/xyz",
    "/departamentos/00000000-0000-4000-8000-000000000000",
    "/departamentos/1'%20OR%20'1'='1",
    "/proveedores/xyz",
    "/sucursales/xyz",
    "/usuarios/xyz",
    "/usuarios/00000000-0000-4000-8000-000000000000",
    "/gastos?gasto=xyz",
    "/no-existe",
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "No encontramos lo que busca" }), path).toBeVisible();
    await expect(page, path).toHaveTitle("Página no encontrada — Oficina");
    await expect(page.getByRole("link", { name: "Volver al inicio" })).toBeVisible();
  }
});

admin("el HTML escrito en un campo se muestra como texto", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const nombre = `<img src=x onerror=alert(1)> ${unique("Xss")}`;
  const notas = `<script>alert(2)</script> '; DROP TABLE departamentos; --`;
  await createDepartamento(page, { nombre, codigo: uniqueCode("H"), notas });
  await expect(page.getByRole("status")).toHaveText(`Departamento creado: ${nombre}`);

  await page.goto(`/departamentos?q=${encodeURIComponent(nombre)}`);
  await expect(page.getByRole("search", { name: "Buscar departamentos" }).getByLabel("Buscar")).toHaveValue(nombre);
  await expect(page.getByRole("link", { name: nombre, exact: true })).toBeVisible();
  await expect(page.getByRole("main").getByRole("img")).toHaveCount(0);

  await page.getByRole("link", { name: nombre, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: nombre })).toBeVisible();
  await expect(page).toHaveTitle(`${nombre} — Departamentos — Oficina`);
  await expect(page.getByRole("region", { name: "Datos" }).getByLabel("Notas")).toHaveValue(notas);
  await expect(page.getByRole("region", { name: "Historial de cambios" })).toContainText(notas);
  await expect(page.getByRole("main").getByRole("img")).toHaveCount(0);
  expect(dialogs).toEqual([]);
});
