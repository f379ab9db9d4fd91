/**
 * `redirectTo` and similar parameters only ever lead to a path on this site (no open redirect).
 *
 * Browsers are lenient in ways a naive `startsWith("/")` misses: they drop TAB/CR/LF anywhere
 * ("/\t/evil.com" is "//evil.com"), treat "\" as "/" ("/\evil.com"), and an app or proxy may
 * decode the value once more ("/%2F%2Fevil.com"). So: refuse control characters, whitespace and
 * backslashes outright, refuse "//" and "/\" also after percent-decoding, and finally resolve
 * against a dummy origin and require the origin to be unchanged.
 */

const BASE = "http://oficina.invalid";
// C0 controls, DEL, C1 controls, and Unicode spaces/separators/BOM: matching them is the point.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff\\]/;

function looksSafe(path: string): boolean {
  return path.startsWith("/") && !path.startsWith("//") && !FORBIDDEN.test(path);
}

export function isSafeRedirect(to: unknown): to is string {
  if (typeof to !== "string" || to === "" || to.length > 2048) return false;
  if (/^\s/.test(to) || !looksSafe(to)) return false;

  // Percent-decode a few times; every layer must still be a plain same-site path.
  let decoded = to;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      // Malformed escapes in the value itself ("/%E0%A4%A") are refused; after one decoding a
      // bare "%" is just text ("/gastos?q=100%25" → "…100%").
      if (i === 0) return false;
      break;
    }
    if (next === decoded) break;
    if (!looksSafe(next.split(/[?#]/)[0]!)) return false;
    // Control characters are refused even in the query: they have no business in a redirect.
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(next)) return false;
    decoded = next;
  }

  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return false;
  }
  // What leaves is the normalised value, and dot segments can turn a harmless path into a
  // protocol-relative one: "/.//evil.com", "/x/..//evil.com" and "/%2e//evil.com" all normalise
  // to "//evil.com". So the value we would return must pass the same checks.
  return url.origin === BASE && looksSafe(url.pathname);
}

/**
 * Returns a same-site path (pathname + search + hash, normalised and ASCII-encoded by URL so it
 * is safe in a Location header) or `fallback`.
 */
export function safeRedirect(to: unknown, fallback = "/"): string {
  if (!isSafeRedirect(to)) return fallback;
  const url = new URL(to, BASE);
  return url.pathname + url.search + url.hash;
}
