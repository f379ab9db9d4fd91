import { isSafeRedirect, safeRedirect } from "./safe-redirect";

// Django, tests/utils_tests/test_http.py (URLHasAllowedHostAndSchemeTests.test_bad_urls).
const DJANGO_BAD_URLS = [
  "http://example.com",
  "http:///example.com",
  "https://example.com",
  "ftp://example.com",
  String.raw`\\example.com`,
  String.raw`\\\example.com`,
  String.raw`/\\/example.com`,
  String.raw`\\\example.com`,
  String.raw`\\//example.com`,
  String.raw`/\/example.com`,
  String.raw`\/example.com`,
  String.raw`/\example.com`,
  "http:///example.com",
  String.raw`http:/\//example.com`,
  String.raw`http:\/example.com`,
  String.raw`http:/\example.com`,
  'javascript:alert("XSS")',
  "\njavascript:alert(x)",
  "\x08//example.com",
  String.raw`http://otherserver\@example.com`,
  String.raw`http:\\testserver\@example.com`,
  String.raw`http://testserver\me:pass@example.com`,
  String.raw`http://testserver\@example.com`,
  String.raw`http:\\testserver\confirm\me@example.com`,
  "http:999999999",
  "ftp:9999999999",
  "\n",
  "http://[2001:cdba:0000:0000:0000:0000:3257:9652/",
  "http://2001:cdba:0000:0000:0000:0000:3257:9652]/",
];

const MORE_BAD_URLS = [
  "//evil.com",
  "///evil.com",
  "////evil.com",
  String.raw`/\evil.com`,
  String.raw`\\evil.com`,
  String.raw`/\\evil.com`,
  "/\t/evil.com",
  "/\n/evil.com",
  "/\r/evil.com",
  "\t//evil.com",
  "/\u0000/evil.com",
  "/gastos\u0000",
  "/gastos\u007f",
  "/gastos\u0085",
  " /gastos",
  "\u00a0/gastos",
  "\u3000/gastos",
  "\ufeff/gastos",
  "/\u2028/evil.com",
  "%2F%2Fevil.com",
  "/%2F%2Fevil.com",
  "/%2fevil.com",
  "%5C%5Cevil.com",
  "/%5Cevil.com",
  "/%5cevil.com",
  "/%252F%252Fevil.com", // double-encoded
  "/%255Cevil.com",
  "/%09/evil.com",
  "/%0a/evil.com",
  "/gastos?q=%0d%0aSet-Cookie:x",
  "/%E0%A4%A", // malformed escape
  "https:evil.com",
  "http:evil.com",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "evil.com",
  "gastos",
  "./gastos",
  "../gastos",
  "?q=1",
  "#x",
  "",
  "/" + "a".repeat(3000),
];

// Dot segments that normalise a path into a protocol-relative URL (found by probing: "/.//evil"
// was answered with «Location: //evil»), in every spelling a browser or URL parser accepts.
const DOT_PREFIXES = [
  "/.",
  "/./.",
  "/..",
  "/../..",
  "/x/..",
  "/x/y/../..",
  "/x/./..",
  "/%2e",
  "/%2E",
  "/.%2e",
  "/%2e%2e",
  "/x/%2e%2e",
  "/x/.%2E",
  "/x/%2E.",
];
const DOT_SEGMENT_URLS = DOT_PREFIXES.flatMap((prefix) =>
  ["//evil.example/phish", "//evil.example", "///evil.example"].map((rest) => prefix + rest),
);

const GOOD_URLS: [string, string][] = [
  ["/", "/"],
  ["/gastos", "/gastos"],
  ["/view/?param=http://example.com", "/view/?param=http://example.com"],
  ["/view/?param=https://example.com", "/view/?param=https://example.com"],
  ["/view?param=ftp://example.com", "/view?param=ftp://example.com"],
  ["/url%20with%20spaces/", "/url%20with%20spaces/"],
  [
    "/gastos?gasto=3f1c2d4e-0000-4000-8000-000000000001&volver=%2Fgastos",
    "/gastos?gasto=3f1c2d4e-0000-4000-8000-000000000001&volver=%2Fgastos",
  ],
  ["/gastos?estado=pendiente&pagina=2#tabla", "/gastos?estado=pendiente&pagina=2#tabla"],
  ["/departamentos/3f1c2d4e-0000-4000-8000-000000000001", "/departamentos/3f1c2d4e-0000-4000-8000-000000000001"],
  ["/gastos?q=café", "/gastos?q=caf%C3%A9"], // ASCII-only result, safe in a Location header
  ["/proveedores?q=a%2Fb", "/proveedores?q=a%2Fb"],
  ["/gastos?q=100%25", "/gastos?q=100%25"],
  ["/a/../gastos", "/gastos"],
  ["/./gastos", "/gastos"],
  ["/%2e/gastos", "/gastos"],
  ["/x/../gastos", "/gastos"],
];

describe("safeRedirect", () => {
  it.each(DJANGO_BAD_URLS)("rejects Django's bad URL %j", (url) => {
    expect(isSafeRedirect(url)).toBe(false);
    expect(safeRedirect(url)).toBe("/");
  });

  it.each(MORE_BAD_URLS)("rejects %j", (url) => {
    expect(isSafeRedirect(url)).toBe(false);
    expect(safeRedirect(url, "/gastos")).toBe("/gastos");
  });

  it.each(DOT_SEGMENT_URLS)("rejects dot segments that normalise to another host: %j", (url) => {
    expect(isSafeRedirect(url)).toBe(false);
    expect(safeRedirect(url, "/gastos")).toBe("/gastos");
  });

  it.each(GOOD_URLS)("accepts %j", (url, expected) => {
    expect(isSafeRedirect(url)).toBe(true);
    expect(safeRedirect(url)).toBe(expected);
  });

  it.each([undefined, null, 42, {}, ["/gastos"], new URL("http://oficina.invalid/gastos")])(
    "falls back for a non-string %j",
    (value) => {
      expect(safeRedirect(value, "/fallback")).toBe("/fallback");
    },
  );

  it("never returns something a browser would read as another host", () => {
    for (const url of [...DJANGO_BAD_URLS, ...MORE_BAD_URLS, ...DOT_SEGMENT_URLS, ...GOOD_URLS.map(([u]) => u)]) {
      const result = safeRedirect(url);
      const resolved = new URL(result, "https://oficina.example.com");
      expect(resolved.origin).toBe("https://oficina.example.com");
      expect(result.startsWith("//")).toBe(false);
      expect(result).not.toMatch(/[\\\s]/);
    }
  });
});
