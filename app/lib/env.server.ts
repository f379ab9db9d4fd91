import os from "node:os";
import { z } from "zod";

/**
 * Configuration from environment variables (README «Configuración»), parsed once at start-up. A bad value stops
 * the server with one message naming every bad variable, in Spanish. Empty strings count as
 * unset (a blank line in a .env file must not defeat a default).
 */

export type NodeEnv = "development" | "production" | "test";
export type SignupMode = "abierto" | "dominio" | "invitacion";

export interface Env {
  PORT: number;
  /** Interface to listen on; default 0.0.0.0. */
  HOST: string;
  /** Express "trust proxy": unset (false), true, a hop count, or addresses/subnets. */
  TRUST_PROXY?: boolean | number | string;
  /** Server processes answering requests (node:cluster); default one per core. Supabase: always 1. */
  WEB_CONCURRENCY: number;
  NODE_ENV: NodeEnv;
  DATA_DIR: string;
  DATABASE_URL?: string;
  SUPABASE_URL?: string;
  SUPABASE_ANON_KEY?: string;
  SUPABASE_SERVICE_ROLE_KEY?: string;
  SESSION_SECRET: string;
  SENTRY_DSN?: string;
  SENTRY_ENVIRONMENT: string;
  SENTRY_RELEASE?: string;
  APP_LOCALE: string;
  APP_CURRENCY: string;
  APP_COUNTRY: string;
  /** Lower-case domains that may sign up in SIGNUP_MODE «dominio». */
  SIGNUP_ALLOWED_DOMAINS: string[];
  /**
   * Who may create an account: anyone, only SIGNUP_ALLOWED_DOMAINS, or only people an
   * administrador invited. Default: «dominio» when SIGNUP_ALLOWED_DOMAINS is set; else «abierto»
   * for the demo on this machine (APP_URL loopback) and «invitacion» for a real installation,
   * where anyone on the internet could otherwise sign up. An empty installation still lets its
   * first account sign up (it becomes the administrador).
   */
  SIGNUP_MODE: SignupMode;
  /** Why SIGNUP_MODE is what it is, for the start-up log. */
  SIGNUP_MODE_MOTIVO: string;
  /**
   * An installation with a single administrador may let that person both approve and mark paid
   * (separation of duties); recorded in the gasto's history.
   */
  PERMITIR_ADMIN_UNICO: boolean;
  /**
   * Importe (a decimal string) from which «Enviar a aprobación» needs a justificante;
   * "0": always; null («no», the default until the forms can attach files): never.
   */
  JUSTIFICANTE_OBLIGATORIO_DESDE: string | null;
  /** Uploads of receipts one person may make in 10 minutes (each upload's work is bounded too). */
  SUBIDAS_POR_PERSONA: number;
  SMTP_URL?: string;
  MAIL_FROM: string;
  /**
   * Public origin without trailing slash, e.g. "https://oficina.example.com". Links in mails are
   * built from it and nothing else (never from the request's Host). Default:
   * `http://localhost:$PORT`, which is what the README's `npm start` serves.
   */
  APP_URL: string;
  /**
   * APP_URL names this machine (localhost, 127.0.0.1, [::1]; the default does): a try-out, not an
   * installation others reach. Only then does a first start load demo data (public passwords).
   */
  APP_URL_LOOPBACK: boolean;
  /** Avisos: whether this server's primary process delivers the mail outbox. */
  AVISOS_ENTREGA: boolean;
  /** Seconds between delivery passes. */
  AVISOS_INTERVALO_SEGUNDOS: number;
  /** Seconds an aviso waits before it is mailed, so a bulk action gives one mail per person. */
  AVISOS_ESPERA_SEGUNDOS: number;
  /** First retry after a failed send, doubling each time (up to an hour). */
  AVISOS_REINTENTO_SEGUNDOS: number;
  /**
   * How long a claimed mail stays claimed: after a sender crashed between claiming and marking
   * it sent, another pass sends it again (same Message-ID) once this has passed. Longer than the
   * slowest pass, or two servers could send one mail at the same time.
   */
  AVISOS_RECLAMO_SEGUNDOS: number;
  /**
   * `s3://bucket/prefijo`: receipts' bytes in an S3-compatible object store that every server
   * shares, instead of DATA_DIR (ADR 0018, «Varios servidores»). SQL backend only.
   */
  ALMACEN_URL?: string;
  /** ALMACEN_URL and the variables of its connection, parsed; undefined when ALMACEN_URL is unset. */
  ALMACEN_S3?: AlmacenS3Config;
}

export type AlmacenS3Config = {
  bucket: string;
  /** Keys go below it: "" (the bucket's root) or "a/b/" (always ending in "/"). */
  prefijo: string;
  /** S3_ENDPOINT, else AWS_ENDPOINT_URL; undefined: Amazon S3 itself. */
  endpoint?: string;
  region: string;
  /** Both keys, or undefined for the SDK's own chain (an instance role, a profile). */
  credenciales?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Path-style URLs (`endpoint/bucket/key`), what MinIO and most self-hosted stores expect. */
  pathStyle: boolean;
};

export type Config = Env;

export const DEFAULT_DATA_DIR = "./data";

/**
 * Used only outside production when SESSION_SECRET is unset and no server chose one (scripts,
 * tests): server.ts itself uses DATA_DIR/session-secret instead (server/edge.ts).
 */
export const DEV_SESSION_SECRET = "oficina-dev-session-secret-no-usar-en-produccion";

function urlWith(value: string, protocols: string[]): URL | null {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

/** Unset, or a URL with one of `protocols` that passes `check`. */
const optionalUrl = (protocols: string[], error: string, check: (url: URL) => boolean = () => true) =>
  z
    .string()
    .optional()
    .refine(
      (v) => {
        if (v === undefined) return true;
        const url = urlWith(v, protocols);
        return !!url && check(url);
      },
      { error },
    );

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const MAILBOX = /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

function isSupportedLocale(v: string): boolean {
  try {
    return Intl.NumberFormat.supportedLocalesOf([v]).length === 1;
  } catch {
    return false; // structurally invalid tag
  }
}

function isSupportedCurrency(v: string): boolean {
  return /^[A-Z]{3}$/.test(v) && Intl.supportedValuesOf("currency").includes(v);
}

/** A number of seconds between `min` and `max` (decimals allowed). */
function seconds(fallback: string, min: number, max: number) {
  return z
    .string()
    .default(fallback)
    .refine((v) => /^\d+(\.\d+)?$/.test(v) && +v >= min && +v <= max, {
      error: `debe ser un número de segundos entre ${min} y ${max}`,
    })
    .transform(Number);
}

const schema = z.object({
  PORT: z
    .string()
    .default("3000")
    .refine((v) => /^\d{1,5}$/.test(v) && +v >= 1 && +v <= 65535, {
      error: "debe ser un número entre 1 y 65535",
    })
    .transform(Number),
  // No default here: it depends on APP_URL (below).
  HOST: z.string().optional(),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v): boolean | number | string | undefined => {
      if (v === undefined || v === "false") return undefined;
      if (v === "true") return true;
      return /^\d+$/.test(v) ? Number(v) : v;
    }),
  WEB_CONCURRENCY: z
    .string()
    .optional()
    .refine((v) => v === undefined || (/^\d{1,3}$/.test(v) && +v >= 1), {
      error: "debe ser un número entero mayor que 0",
    })
    .transform((v) => (v === undefined ? os.availableParallelism() : Number(v))),
  NODE_ENV: z
    .enum(["development", "production", "test"], { error: "debe ser development, production o test" })
    .default("development"),
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  DATABASE_URL: optionalUrl(
    ["postgres:", "postgresql:"],
    "debe ser una URL postgres://usuario:clave@servidor:5432/base",
  ),
  SUPABASE_URL: optionalUrl(["https:", "http:"], "debe ser una URL http(s)://, p. ej. https://xyz.supabase.co"),
  SUPABASE_ANON_KEY: z.string().optional(),
  SUPABASE_SERVICE_ROLE_KEY: z.string().optional(),
  SESSION_SECRET: z.string().min(32, { error: "debe tener al menos 32 caracteres" }).optional(),
  SENTRY_DSN: optionalUrl(
    ["https:", "http:"],
    "debe ser un DSN de Sentry, p. ej. https://clave@o0.ingest.sentry.io/123",
    (url) => url.username !== "" && /^\/(.*\/)?\d+$/.test(url.pathname),
  ),
  SENTRY_ENVIRONMENT: z.string().optional(),
  SENTRY_RELEASE: z.string().optional(),
  APP_LOCALE: z
    .string()
    .default("es-ES")
    .refine(isSupportedLocale, { error: "debe ser un idioma que Intl admita, p. ej. es-ES o es-MX" }),
  APP_CURRENCY: z
    .string()
    .default("EUR")
    .refine(isSupportedCurrency, { error: "debe ser un código de moneda ISO 4217 en mayúsculas, p. ej. EUR o MXN" }),
  APP_COUNTRY: z
    .string()
    .default("ES")
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z]{2}$/.test(v), { error: "debe ser un código de país de dos letras, p. ej. ES o MX" }),
  SIGNUP_ALLOWED_DOMAINS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
        .filter(Boolean),
    )
    .refine((list) => list.every((d) => DOMAIN.test(d)), {
      error: "debe ser una lista de dominios separados por comas, p. ej. empresa.es,empresa.com",
    }),
  SIGNUP_MODE: z
    .enum(["abierto", "dominio", "invitacion"], { error: "debe ser abierto, dominio o invitacion" })
    .optional(),
  PERMITIR_ADMIN_UNICO: z
    .enum(["0", "1", "true", "false"], { error: "debe ser 1 o 0" })
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  JUSTIFICANTE_OBLIGATORIO_DESDE: z
    .string()
    .default("0")
    .transform((v) => v.trim())
    .refine((v) => v === "no" || /^\d{1,12}([.,]\d{1,2})?$/.test(v), {
      error: "debe ser un importe (p. ej. 0, 50 o 50,00) o «no» (nunca obligatorio)",
    })
    .transform((v) => (v === "no" ? null : v.replace(",", "."))),
  SUBIDAS_POR_PERSONA: z
    .string()
    .default("30")
    .refine((v) => /^\d{1,6}$/.test(v.trim()) && Number(v) >= 1, {
      error: "debe ser un número entero de 1 en adelante",
    })
    .transform(Number),
  SMTP_URL: optionalUrl(
    ["smtp:", "smtps:"],
    "debe ser una URL smtp:// o smtps://, p. ej. smtps://usuario:clave@smtp.empresa.es:465",
  ),
  MAIL_FROM: z
    .string()
    .default("Oficina <no-responder@oficina.local>")
    .refine((v) => MAILBOX.test(v.trim()), {
      error: "debe ser una dirección de correo, p. ej. Oficina <no-responder@empresa.es>",
    }),
  AVISOS_ENTREGA: z
    .enum(["0", "1", "true", "false"], { error: "debe ser 1 o 0" })
    .default("1")
    .transform((v) => v === "1" || v === "true"),
  AVISOS_INTERVALO_SEGUNDOS: seconds("10", 0.05, 3600),
  AVISOS_ESPERA_SEGUNDOS: seconds("60", 0, 3600),
  AVISOS_REINTENTO_SEGUNDOS: seconds("30", 0.1, 3600),
  AVISOS_RECLAMO_SEGUNDOS: seconds("120", 1, 3600),
  APP_URL: optionalUrl(
    ["https:", "http:"],
    "debe ser el origen público de la aplicación, p. ej. https://oficina.empresa.es",
    (url) => url.pathname === "/" && !url.search && !url.hash && !url.username,
  ).transform((v) => (v === undefined ? undefined : new URL(v).origin)),
  ALMACEN_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || almacenDeUrl(v) !== null, {
      error:
        "debe ser s3://cubo/prefijo, p. ej. s3://oficina-justificantes/produccion (el cubo: de 3 a 63 minúsculas, cifras, puntos o guiones; el prefijo, opcional: carpetas de letras sin tilde, cifras, - _ o . separadas por /)",
    }),
  S3_ENDPOINT: optionalUrl(
    ["https:", "http:"],
    "debe ser la URL http(s):// del servicio S3, p. ej. https://s3.eu-west-1.amazonaws.com o http://127.0.0.1:9000",
    endpointValido,
  ),
  AWS_ENDPOINT_URL: optionalUrl(
    ["https:", "http:"],
    "debe ser la URL http(s):// del servicio S3, p. ej. http://127.0.0.1:9000",
    endpointValido,
  ),
  AWS_REGION: z
    .string()
    .optional()
    .refine((v) => v === undefined || /^[a-z0-9-]{2,32}$/.test(v), {
      error: "debe ser el nombre de una región, p. ej. eu-west-1 (o us-east-1 en MinIO)",
    }),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  AWS_SESSION_TOKEN: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(["0", "1", "true", "false"], { error: "debe ser 1 o 0" }).optional(),
});

const S3_VARIABLES = [
  "S3_ENDPOINT",
  "AWS_ENDPOINT_URL",
  "AWS_REGION",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "S3_FORCE_PATH_STYLE",
] as const;

function endpointValido(url: URL) {
  return (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash && !url.username && !url.password;
}

/**
 * `s3://bucket[/prefijo]` → the bucket and the prefix its keys go below ("" or ending in "/"),
 * or null when it is not that. Bucket names as S3 allows them (dots too, for the buckets that
 * have them).
 */
export function almacenDeUrl(value: string): { bucket: string; prefijo: string } | null {
  const m = /^s3:\/\/([^/?#]+)(\/[^?#]*)?$/.exec(value);
  if (!m) return null;
  const bucket = m[1]!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes("..")) return null;
  const partes = (m[2] ?? "").split("/").filter(Boolean);
  // S3's "safe characters" for keys only: no name a store or a proxy could read differently.
  if (partes.some((p) => p === "." || p === ".." || !/^[A-Za-z0-9!_.*'()-]+$/.test(p))) return null;
  return { bucket, prefijo: partes.map((p) => `${p}/`).join("") };
}

/** Parses `source`; throws «Configuración no válida: VAR …; VAR …» naming every bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const clean: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = source[key]?.trim();
    clean[key] = v === "" ? undefined : v;
  }
  // The object store's connection is read only for it: other tools on the machine may set these.
  if (!clean.ALMACEN_URL) for (const key of S3_VARIABLES) clean[key] = undefined;

  const problems = new Map<string, string>();
  const result = schema.safeParse(clean);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? "?");
      if (!problems.has(name)) problems.set(name, `${name} ${issue.message}`);
    }
  }

  // Rules across variables, checked on the raw values so every problem is reported at once.
  const nodeEnv = clean.NODE_ENV ?? "development";
  if (clean.SUPABASE_URL && !clean.SUPABASE_ANON_KEY && !problems.has("SUPABASE_ANON_KEY")) {
    problems.set("SUPABASE_ANON_KEY", "SUPABASE_ANON_KEY es obligatoria cuando se define SUPABASE_URL");
  }
  if (clean.SIGNUP_MODE === "dominio" && !clean.SIGNUP_ALLOWED_DOMAINS && !problems.has("SIGNUP_ALLOWED_DOMAINS")) {
    problems.set("SIGNUP_ALLOWED_DOMAINS", "SIGNUP_ALLOWED_DOMAINS es obligatoria cuando SIGNUP_MODE es dominio");
  }
  if (clean.ALMACEN_URL && clean.SUPABASE_URL && !problems.has("ALMACEN_URL")) {
    // Keys are content hashes: on Supabase anyone may insert a row naming a hash (PostgREST), so
    // a shared content-addressed store would hand out other people's files (ADR 0018).
    problems.set(
      "ALMACEN_URL",
      "ALMACEN_URL no se admite con Supabase (SUPABASE_URL): allí los justificantes se guardan en Supabase Storage, que ya comparten todos los servidores. Quite ALMACEN_URL",
    );
  }
  if (clean.ALMACEN_URL && !clean.AWS_REGION && !clean.S3_ENDPOINT && !clean.AWS_ENDPOINT_URL) {
    problems.set(
      "AWS_REGION",
      "AWS_REGION es obligatoria con ALMACEN_URL en Amazon S3 (p. ej. eu-west-1); con otro servicio, defina S3_ENDPOINT",
    );
  }
  if (clean.ALMACEN_URL && !clean.AWS_ACCESS_KEY_ID !== !clean.AWS_SECRET_ACCESS_KEY) {
    const falta = clean.AWS_ACCESS_KEY_ID ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID";
    problems.set(
      falta,
      `${falta} es obligatoria junto con ${falta === "AWS_ACCESS_KEY_ID" ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID"}`,
    );
  }
  if (nodeEnv === "production" && !clean.SESSION_SECRET) {
    // server.ts sets it (from DATA_DIR/session-secret) before it gets here.
    problems.set("SESSION_SECRET", "SESSION_SECRET es obligatoria en producción (al menos 32 caracteres)");
  }

  if (problems.size > 0 || !result.success) {
    throw new Error(`Configuración no válida: ${[...problems.values()].join("; ")}`);
  }

  const cfg = result.data;
  const appUrl = cfg.APP_URL ?? `http://localhost:${cfg.PORT}`;
  let sessionSecret = cfg.SESSION_SECRET;
  if (sessionSecret === undefined) {
    if (cfg.NODE_ENV === "development") {
      console.warn("SESSION_SECRET no está definida: se usa una clave fija de desarrollo. No la use en producción.");
    }
    sessionSecret = DEV_SESSION_SECRET;
  }
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(new URL(appUrl).hostname);
  const [signupMode, motivo]: [SignupMode, string] = cfg.SIGNUP_MODE
    ? [cfg.SIGNUP_MODE, "SIGNUP_MODE"]
    : cfg.SIGNUP_ALLOWED_DOMAINS.length
      ? ["dominio", "predeterminado: SIGNUP_ALLOWED_DOMAINS está definida"]
      : loopback
        ? ["abierto", "predeterminado: APP_URL es esta máquina (demostración)"]
        : ["invitacion", "predeterminado: APP_URL es una instalación real"];
  const {
    S3_ENDPOINT,
    AWS_ENDPOINT_URL,
    AWS_REGION,
    AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY,
    AWS_SESSION_TOKEN,
    S3_FORCE_PATH_STYLE,
    ...resto
  } = cfg;
  const endpoint = (S3_ENDPOINT ?? AWS_ENDPOINT_URL)?.replace(/\/+$/, "");
  const almacen: AlmacenS3Config | undefined = cfg.ALMACEN_URL
    ? {
        ...almacenDeUrl(cfg.ALMACEN_URL)!,
        endpoint,
        // Self-hosted stores ignore the region, but the request signature names one.
        region: AWS_REGION ?? "us-east-1",
        credenciales:
          AWS_ACCESS_KEY_ID && AWS_SECRET_ACCESS_KEY
            ? {
                accessKeyId: AWS_ACCESS_KEY_ID,
                secretAccessKey: AWS_SECRET_ACCESS_KEY,
                sessionToken: AWS_SESSION_TOKEN,
              }
            : undefined,
        // Amazon S3 prefers virtual-hosted URLs; a store of one's own seldom has a name per bucket.
        pathStyle: S3_FORCE_PATH_STYLE ? S3_FORCE_PATH_STYLE === "1" || S3_FORCE_PATH_STYLE === "true" : !!endpoint,
      }
    : undefined;
  return {
    ...resto,
    ALMACEN_S3: almacen,
    // A try-out on a laptop (APP_URL unset or this machine) is not offered to the local network;
    // an installation with a public APP_URL listens on every interface unless HOST says otherwise.
    HOST: cfg.HOST ?? (loopback ? "127.0.0.1" : "0.0.0.0"),
    SIGNUP_MODE: signupMode,
    SIGNUP_MODE_MOTIVO: motivo,
    APP_URL: appUrl,
    APP_URL_LOOPBACK: loopback,
    SESSION_SECRET: sessionSecret,
    SENTRY_ENVIRONMENT: cfg.SENTRY_ENVIRONMENT ?? cfg.NODE_ENV,
  };
}

let cached: Env | undefined;

/** The configuration of this process, parsed on first use. */
export function env(): Env {
  return (cached ??= loadEnv());
}

/** For tests that change process.env. */
export function resetEnvCache(): void {
  cached = undefined;
}

export type BackendKind = "supabase" | "postgres" | "embedded";

/** ARCHITECTURE: SUPABASE_URL set → Supabase; else DATABASE_URL → that Postgres; else embedded. */
export function backendKind(cfg: Pick<Env, "SUPABASE_URL" | "DATABASE_URL">): BackendKind {
  if (cfg.SUPABASE_URL) return "supabase";
  if (cfg.DATABASE_URL) return "postgres";
  return "embedded";
}

/** The start-up line that says who can reach the server, by the address it listens on. */
export function dondeEscucha(host: string): string {
  if (["127.0.0.1", "localhost", "::1", "[::1]"].includes(host))
    return `Solo se atiende desde esta máquina (HOST=${host}): para abrir Oficina desde otros equipos, defina APP_URL con su dirección en la red, o HOST=0.0.0.0.`;
  if (host === "0.0.0.0" || host === "::")
    return `Se atiende en todas las interfaces de red (HOST=${host}): cualquier equipo que llegue a esta máquina puede abrir Oficina.`;
  return `Se atiende solo en la dirección ${host} (HOST).`;
}
