import express from "express";
import fs, { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { mountStatic } from "./static";

/** server.ts's static files on a real Express app, with a page handler behind them as Remix is. */
let dir: string;
let server: http.Server;
let base: string;
const stat = vi.spyOn(fs, "stat");

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "oficina-estaticos-"));
  mkdirSync(path.join(dir, "build", "_assets"), { recursive: true });
  writeFileSync(path.join(dir, "estilos.css"), "body{}");
  writeFileSync(path.join(dir, "favicon.svg"), "<svg/>");
  writeFileSync(path.join(dir, "build", "_assets", "entry-ABC.js"), "export {}");
  const app = express();
  mountStatic(app, dir);
  app.all("*", (_req, res) => void res.type("text/plain").send("página"));
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
  stat.mockRestore();
});

async function get(ruta: string, method = "GET") {
  const r = await fetch(base + ruta, { method });
  return { status: r.status, cache: r.headers.get("cache-control"), body: await r.text() };
}

describe("estáticos solo bajo su prefijo", () => {
  it("los archivos de public/ y de /build/ se sirven con su caché", async () => {
    expect(await get("/estilos.css")).toEqual({ status: 200, cache: "public, max-age=3600", body: "body{}" });
    expect((await get("/favicon.svg")).cache).toBe("public, max-age=3600");
    expect((await get("/favicon.svg", "HEAD")).status).toBe(200);
    expect(await get("/build/_assets/entry-ABC.js")).toEqual({
      status: 200,
      cache: "public, max-age=31536000, immutable",
      body: "export {}",
    });
    // A missing asset still reaches the app (its 404 page), as before.
    expect((await get("/build/_assets/no-existe.js")).body).toBe("página");
  });

  it("una página nunca mira el disco", async () => {
    stat.mockClear();
    for (const ruta of ["/gastos", "/", "/gastos?estado=pendiente", "/proveedores/123", "/caf%C3%A9", "/estilos.css/x"])
      expect(await get(ruta), ruta).toMatchObject({ status: 200, body: "página" });
    expect(stat).not.toHaveBeenCalled();
    await get("/estilos.css");
    // The spy sees what express.static does: the test would pass vacuously otherwise.
    expect(stat).toHaveBeenCalled();
  });
});
