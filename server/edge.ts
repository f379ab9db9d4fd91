import { randomBytes } from "node:crypto";
import { constants, lstatSync, mkdirSync, openSync, readFileSync, writeSync, closeSync } from "node:fs";
import path from "node:path";

/**
 * What the Express edge (server.ts) decides before a request reaches Remix: which Host it
 * answers, which origin a form must come from, and whether a body is small and well-formed
 * enough to be parsed at all. Pure functions, so they are tested without a server.
 */

/** Names that always reach this machine itself: the README's `npm start` at http://localhost. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

export type Origins = {
  /** APP_URL: the public origin; links in mails and the Origin a form must carry. */
  appUrl: string;
};

export type Place =
  /** `origin` is what a same-site form carries and what request.url is built on. */
  { ok: true; origin: string } | { ok: false; reason: string };

/**
 * The origin a request was addressed to, from its Host (or, behind a trusted proxy, the first
 * X-Forwarded-Host: `host` is what Express's `req.hostname` reads, port included). Only APP_URL's
 * host name (any port: a proxy may speak to us on another) or a loopback name is answered; for
 * APP_URL's host the origin is APP_URL itself, so nothing a client sends can change it; for a
 * loopback name, that loopback origin (only this machine's browser reaches it). Anything
 * else — another name, a DNS-rebinding domain, an IP address of this machine — is refused: a page
 * built for it could carry links to a host the attacker chose.
 */
export function placeOf(host: string | undefined, protocol: string, { appUrl }: Origins): Place {
  if (!host) return { ok: false, reason: "sin Host" };
  // A host name with an optional port and nothing else («a@b», «x/y», «a b» are not hosts).
  if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(host)) return { ok: false, reason: "Host mal formado" };
  let url: URL;
  try {
    url = new URL(`${protocol}://${host}`);
  } catch {
    return { ok: false, reason: "Host mal formado" };
  }
  // A loopback name is only ever this machine: its own origin (any port, e.g. a container's).
  if (LOOPBACK.has(url.hostname)) return { ok: true, origin: url.origin };
  const app = new URL(appUrl);
  if (url.hostname === app.hostname) return { ok: true, origin: app.origin };
  return { ok: false, reason: `Host ${url.host} no es el de APP_URL` };
}

/** Express 4's `req.hostname` source, port kept: X-Forwarded-Host only from a trusted proxy. */
export function hostOf(get: (name: string) => string | undefined, trusted: boolean): string | undefined {
  const forwarded = trusted ? get("X-Forwarded-Host") : undefined;
  const host = forwarded ? forwarded.split(",")[0]!.trim() : get("Host");
  return host?.trim() || undefined;
}

// ---------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------

/** Every form of the app fits under 1 MiB (no uploads yet). */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Fields per body. The largest legitimate form is the gastos bulk action: up to 100 checked rows
 * (`seleccion`, one per row of a 100-row page) plus a handful of filters and buttons. 1 000
 * leaves ten times that; tens of thousands of fields cost seconds of CPU to parse and validate.
 */
export const MAX_FIELDS = 1000;

/**
 * `stream`: a multipart body over MAX_BODY_BYTES is handed to the route as it arrives (only its
 * declared length is checked here); the route parses it with its own limits. Smaller ones and
 * other encodings keep the defaults.
 */
export type BodyPolicy = { maxBytes: number; maxFields: number; stream?: boolean };

/**
 * Per-route exceptions to the limits, matched on the raw path (an encoded variant falls back to
 * the default: the smaller limit, never a larger one). The place for a route that must accept
 * more, e.g. a future receipts upload (≤ 10 MB each): its entry raises maxBytes for its path, and
 * such a route should then stream its multipart body itself instead of having it buffered here.
 */
export const BODY_POLICIES: { path: RegExp; policy: BodyPolicy }[] = [
  // Receipts (ADR 0018): up to 10 files of 10 MB each in one form, streamed to disk by the route.
  {
    path: /^\/gastos\/[0-9a-fA-F-]{36}\/justificantes$/,
    policy: { maxBytes: 10 * (10 * 1024 * 1024 + 64 * 1024) + 64 * 1024, maxFields: 40, stream: true },
  },
  // «Nuevo gasto» with its receipts: the same, plus the form's fields (only a multipart body over 1 MiB streams).
  {
    path: /^\/gastos$/,
    policy: { maxBytes: 10 * (10 * 1024 * 1024 + 64 * 1024) + 1024 * 1024, maxFields: 40, stream: true },
  },
];

export function bodyPolicyFor(rawPath: string): BodyPolicy {
  return BODY_POLICIES.find((p) => p.path.test(rawPath))?.policy ?? { maxBytes: MAX_BODY_BYTES, maxFields: MAX_FIELDS };
}

export type Refusal = { status: number; message: string };

export const REFUSALS = {
  tooLarge: {
    status: 413,
    message: "El envío es demasiado grande. Reduzca el texto de los campos y vuelva a intentarlo.",
  },
  tooManyFields: {
    status: 413,
    message: "El formulario tiene demasiados campos. Envíe menos elementos a la vez y vuelva a intentarlo.",
  },
  lengthRequired: { status: 411, message: "Falta Content-Length: el envío debe indicar su tamaño." },
  malformed: {
    status: 400,
    message: "El formulario llegó incompleto o mal formado. Vuelva a la página y envíelo de nuevo.",
  },
  unsupported: { status: 415, message: "El envío no tiene el formato de un formulario." },
  crossOrigin: {
    status: 403,
    message:
      "Petición rechazada: el formulario no procede de Oficina. Vuelva a la página de Oficina y envíelo desde allí.",
  },
} satisfies Record<string, Refusal>;

export type Inspected = { ok: true; contentType: string } | { ok: false; refusal: Refusal };

/**
 * Checks a buffered body before anything parses it: a form encoding, at most `maxFields` fields,
 * and (multipart) well-formed. Counting is a byte scan; the one parse here is the multipart
 * validation, bounded by the field count and size already checked. `contentType` is what the
 * request should carry on (an empty body without one becomes an empty urlencoded form, so an
 * action's `request.formData()` never throws on it).
 */
export async function inspectBody(
  contentType: string | undefined,
  body: Buffer,
  { maxFields }: BodyPolicy,
): Promise<Inspected> {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (body.length === 0 && (type === "" || type === "application/x-www-form-urlencoded"))
    return { ok: true, contentType: "application/x-www-form-urlencoded" };
  if (type === "application/x-www-form-urlencoded") {
    let fields = 1;
    for (let i = body.indexOf(0x26); i !== -1; i = body.indexOf(0x26, i + 1))
      if (++fields > maxFields) return { ok: false, refusal: REFUSALS.tooManyFields };
    return { ok: true, contentType: contentType! };
  }
  if (type === "multipart/form-data") {
    const boundary = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType!);
    if (!boundary) return { ok: false, refusal: REFUSALS.malformed };
    const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
    // Each part starts with a delimiter and the last one closes the body: parts = delimiters − 1.
    let delimiters = 0;
    for (let i = body.indexOf(delimiter); i !== -1; i = body.indexOf(delimiter, i + delimiter.length))
      if (++delimiters > maxFields + 1) return { ok: false, refusal: REFUSALS.tooManyFields };
    try {
      await new Response(new Uint8Array(body), { headers: { "Content-Type": contentType! } }).formData();
    } catch {
      return { ok: false, refusal: REFUSALS.malformed };
    }
    return { ok: true, contentType: contentType! };
  }
  return { ok: false, refusal: REFUSALS.unsupported };
}

// ---------------------------------------------------------------------------------------------
// The session secret of an installation without SESSION_SECRET
// ---------------------------------------------------------------------------------------------

export const SECRET_FILE = "session-secret";

/**
 * SESSION_SECRET when the environment does not give one: DATA_DIR/session-secret, created on the
 * first start (64 random characters, mode 0600) and read on every later one, so sessions survive
 * a restart and no installation shares a secret with another. Refuses (throws, in Spanish) a file
 * that others can read or write, that is not a plain file, or whose content is not such a secret.
 */
export function sessionSecretFromDataDir(dataDir: string): { secret: string; created: boolean; file: string } {
  const file = path.resolve(dataDir, SECRET_FILE);
  mkdirSync(path.dirname(file), { recursive: true }); // as the embedded Postgres would (it needs to enter it)
  let created = false;
  try {
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      writeSync(fd, `${randomBytes(48).toString("base64url")}\n`);
    } finally {
      closeSync(fd);
    }
    created = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST")
      throw new Error(`No se pudo crear ${file}: ${(error as Error).message}`);
  }
  const stat = lstatSync(file);
  if (!stat.isFile())
    throw new Error(
      `${file} no es un archivo normal: bórrelo (se generará otra clave de sesión) o defina SESSION_SECRET.`,
    );
  if ((stat.mode & 0o077) !== 0)
    throw new Error(
      `${file} tiene permisos ${(stat.mode & 0o777).toString(8).padStart(4, "0")}: otros usuarios podrían leer la clave de sesión. ` +
        `Déjelo en 0600 (chmod 600 ${file}) o defina SESSION_SECRET.`,
    );
  const secret = readFileSync(file, "utf8").trim();
  if (!/^[A-Za-z0-9_-]{32,512}$/.test(secret))
    throw new Error(
      `${file} no contiene una clave de sesión válida (32 a 512 caracteres A-Z, a-z, 0-9, - o _): bórrelo para generar otra o defina SESSION_SECRET.`,
    );
  return { secret, created, file };
}
