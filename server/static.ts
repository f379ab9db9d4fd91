import express, { type Express } from "express";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

/**
 * Static files only where they live: the compiled assets under /build/ and the few files at the
 * top of `publicDir` (estilos.css, favicon.svg…) by their exact path, listed once at start. A
 * page is never looked up on disk: `express.static` in front of every request stats the path and
 * builds an ENOENT error before Remix gets it (ADR 0008, «The page»).
 */
export function mountStatic(app: Express, publicDir: string) {
  app.use("/build", express.static(path.join(publicDir, "build"), { immutable: true, maxAge: "1y" }));
  const files = existsSync(publicDir)
    ? readdirSync(publicDir, { withFileTypes: true })
        .filter((f) => f.isFile())
        .map((f) => `/${f.name}`)
    : [];
  if (files.length) app.get(files, express.static(publicDir, { maxAge: "1h" }));
}
