import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressDocument, documentEncoding } from "./compress-document.server";

const page = Buffer.from(
  `<!DOCTYPE html><html lang="es"><body>${Array.from({ length: 200 }, (_, i) => `<tr><td>Gasto ${i}</td><td>${i},00 €</td></tr>`).join("")}</body></html>`,
);

describe("documentEncoding", () => {
  it("prefers brotli, as browsers offer it", () => {
    expect(documentEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(documentEncoding("br;q=0.5, gzip;q=0.8")).toBe("br");
  });

  it("falls back to gzip, and to nothing", () => {
    expect(documentEncoding("gzip")).toBe("gzip");
    expect(documentEncoding("GZIP, deflate")).toBe("gzip");
    expect(documentEncoding("br;q=0, gzip")).toBe("gzip");
    expect(documentEncoding("deflate")).toBeNull();
    expect(documentEncoding("identity")).toBeNull();
    expect(documentEncoding("")).toBeNull();
    expect(documentEncoding(null)).toBeNull();
    expect(documentEncoding("gzip;q=0, br;q=0")).toBeNull();
  });

  it("reads * as any coding not named", () => {
    expect(documentEncoding("*")).toBe("br");
    expect(documentEncoding("br;q=0, *")).toBe("gzip");
    expect(documentEncoding("*;q=0")).toBeNull();
    expect(documentEncoding("gzip, *;q=0")).toBe("gzip");
  });
});

describe("compressDocument", () => {
  it("sends brotli or gzip that decode to the same page, smaller", () => {
    const br = compressDocument(page, "gzip, deflate, br");
    expect(br.encoding).toBe("br");
    expect(brotliDecompressSync(br.body).equals(page)).toBe(true);
    expect(br.body.length).toBeLessThan(page.length / 4);

    const gz = compressDocument(page, "gzip");
    expect(gz.encoding).toBe("gzip");
    expect(gunzipSync(gz.body).equals(page)).toBe(true);
    expect(gz.body.length).toBeLessThan(page.length / 4);
  });

  it("leaves small pages and clients without brotli or gzip alone", () => {
    const small = Buffer.from("<p>Hola</p>");
    expect(compressDocument(small, "br")).toEqual({ body: small, encoding: null });
    expect(compressDocument(page, "deflate")).toEqual({ body: page, encoding: null });
    expect(compressDocument(page, null)).toEqual({ body: page, encoding: null });
  });
});
