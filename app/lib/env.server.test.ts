import { backendKind, DEV_SESSION_SECRET, dondeEscucha, env, loadEnv, resetEnvCache } from "./env.server";

const SECRET = "x".repeat(32);

function bad(source: Record<string, string | undefined>): string {
  try {
    loadEnv(source);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("loadEnv did not throw");
}

describe("loadEnv", () => {
  it("applies defaults", () => {
    const cfg = loadEnv({ NODE_ENV: "test" });
    expect(cfg).toMatchObject({
      PORT: 3000,
      HOST: "127.0.0.1",
      NODE_ENV: "test",
      DATA_DIR: "./data",
      APP_LOCALE: "es-ES",
      APP_CURRENCY: "EUR",
      APP_COUNTRY: "ES",
      SIGNUP_ALLOWED_DOMAINS: [],
      MAIL_FROM: "Oficina <no-responder@oficina.local>",
      SESSION_SECRET: DEV_SESSION_SECRET,
      SENTRY_ENVIRONMENT: "test",
      SIGNUP_MODE: "abierto",
      PERMITIR_ADMIN_UNICO: false,
      APP_URL: "http://localhost:3000",
      APP_URL_LOOPBACK: true,
    });
    expect(cfg.DATABASE_URL).toBeUndefined();
    expect(cfg.SUPABASE_URL).toBeUndefined();
    expect(cfg.TRUST_PROXY).toBeUndefined();
    expect("RATE_LIMIT_LOGIN" in cfg).toBe(false);
    expect(DEV_SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it("defaults NODE_ENV to development and warns about the dev secret", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const cfg = loadEnv({});
      expect(cfg.NODE_ENV).toBe("development");
      expect(cfg.SESSION_SECRET).toBe(DEV_SESSION_SECRET);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("SESSION_SECRET"));
    } finally {
      warn.mockRestore();
    }
  });

  it.each([
    [{}, "abierto", /demostración/],
    [{ APP_URL: "http://127.0.0.1:3210" }, "abierto", /demostración/],
    [{ APP_URL: "https://oficina.empresa.es" }, "invitacion", /instalación real/],
    [{ APP_URL: "http://oficina.test:3000" }, "invitacion", /instalación real/],
    [
      { APP_URL: "https://oficina.empresa.es", SIGNUP_ALLOWED_DOMAINS: "empresa.es" },
      "dominio",
      /SIGNUP_ALLOWED_DOMAINS/,
    ],
    [{ APP_URL: "https://oficina.empresa.es", SIGNUP_MODE: "abierto" }, "abierto", /^SIGNUP_MODE$/],
  ])("SIGNUP_MODE por defecto: %o → %s", (vars, mode, why) => {
    const cfg = loadEnv({ NODE_ENV: "test", ...vars });
    expect(cfg.SIGNUP_MODE).toBe(mode);
    expect(cfg.SIGNUP_MODE_MOTIVO).toMatch(why);
  });

  it.each([
    ["http://127.0.0.1:3210", true],
    ["http://[::1]:8080", true],
    ["http://localhost", true],
    ["http://oficina.test:3000", false],
    ["https://oficina.empresa.es", false],
  ])("APP_URL %s names this machine only: %s", (value, loopback) => {
    expect(loadEnv({ NODE_ENV: "test", APP_URL: value }).APP_URL_LOOPBACK).toBe(loopback);
  });

  it("listens on this machine only unless APP_URL is another machine or HOST is set", () => {
    expect(loadEnv({ NODE_ENV: "test" }).HOST).toBe("127.0.0.1");
    expect(loadEnv({ NODE_ENV: "test", APP_URL: "http://localhost:3000" }).HOST).toBe("127.0.0.1");
    expect(loadEnv({ NODE_ENV: "test", APP_URL: "https://oficina.empresa.es" }).HOST).toBe("0.0.0.0");
    expect(loadEnv({ NODE_ENV: "test", HOST: "0.0.0.0" }).HOST).toBe("0.0.0.0");
    expect(loadEnv({ NODE_ENV: "test", APP_URL: "https://oficina.empresa.es", HOST: "10.0.0.5" }).HOST).toBe(
      "10.0.0.5",
    );
  });

  it("the start-up log says who can reach it", () => {
    expect(dondeEscucha("127.0.0.1")).toMatch(/^Solo se atiende desde esta máquina \(HOST=127\.0\.0\.1\)/);
    expect(dondeEscucha("0.0.0.0")).toMatch(/^Se atiende en todas las interfaces de red/);
    expect(dondeEscucha("10.0.0.5")).toBe("Se atiende solo en la dirección 10.0.0.5 (HOST).");
  });

  it("treats empty strings as unset", () => {
    const cfg = loadEnv({ NODE_ENV: "test", PORT: "", DATABASE_URL: " ", SIGNUP_ALLOWED_DOMAINS: "" });
    expect(cfg.PORT).toBe(3000);
    expect(cfg.DATABASE_URL).toBeUndefined();
  });

  it("parses a full production configuration", () => {
    const cfg = loadEnv({
      NODE_ENV: "production",
      PORT: "8080",
      HOST: "127.0.0.1",
      TRUST_PROXY: "1",
      RATE_LIMIT_LOGIN: "20", // gone: ignored, as any unknown variable
      DATA_DIR: "/var/lib/oficina",
      DATABASE_URL: "postgresql://oficina:clave@db:5432/oficina",
      SUPABASE_URL: "https://abc.supabase.co",
      SUPABASE_ANON_KEY: "anon",
      SUPABASE_SERVICE_ROLE_KEY: "service",
      SESSION_SECRET: SECRET,
      SENTRY_DSN: "https://abc123@o42.ingest.sentry.io/4501",
      SENTRY_RELEASE: "1.2.3",
      APP_LOCALE: "es-MX",
      APP_CURRENCY: "MXN",
      APP_COUNTRY: "mx",
      SIGNUP_ALLOWED_DOMAINS: " Empresa.es, @filial.com.mx ,",
      SMTP_URL: "smtps://user:pass@smtp.empresa.es:465",
      MAIL_FROM: "Oficina <oficina@empresa.es>",
      APP_URL: "https://oficina.empresa.es/",
    });
    expect(cfg).toMatchObject({
      PORT: 8080,
      HOST: "127.0.0.1",
      TRUST_PROXY: 1,
      NODE_ENV: "production",
      SESSION_SECRET: SECRET,
      SENTRY_ENVIRONMENT: "production",
      APP_COUNTRY: "MX",
      SIGNUP_ALLOWED_DOMAINS: ["empresa.es", "filial.com.mx"],
      SIGNUP_MODE: "dominio",
      APP_URL: "https://oficina.empresa.es",
      APP_URL_LOOPBACK: false,
    });
  });

  it.each([
    ["true", true],
    ["false", undefined],
    ["2", 2],
    ["loopback, 10.0.0.0/8", "loopback, 10.0.0.0/8"],
  ])("reads TRUST_PROXY %j", (value, expected) => {
    expect(loadEnv({ NODE_ENV: "test", TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each([
    ["PORT", "abc", "PORT debe ser un número entre 1 y 65535"],
    ["PORT", "0", "PORT debe ser un número entre 1 y 65535"],
    ["PORT", "65536", "PORT debe ser un número entre 1 y 65535"],
    ["PORT", "80.5", "PORT debe ser un número entre 1 y 65535"],
    ["PORT", "-1", "PORT debe ser un número entre 1 y 65535"],
    ["NODE_ENV", "staging", "NODE_ENV debe ser development, production o test"],
    ["DATABASE_URL", "mysql://db/oficina", "DATABASE_URL debe ser una URL postgres://"],
    ["DATABASE_URL", "no es una url", "DATABASE_URL debe ser una URL postgres://"],
    ["SUPABASE_URL", "abc.supabase.co", "SUPABASE_URL debe ser una URL http(s)://"],
    ["SESSION_SECRET", "corto", "SESSION_SECRET debe tener al menos 32 caracteres"],
    ["SENTRY_DSN", "https://o42.ingest.sentry.io/4501", "SENTRY_DSN debe ser un DSN de Sentry"],
    ["SENTRY_DSN", "sentry", "SENTRY_DSN debe ser un DSN de Sentry"],
    ["APP_LOCALE", "no_es_locale!", "APP_LOCALE debe ser un idioma"],
    ["APP_CURRENCY", "eur", "APP_CURRENCY debe ser un código de moneda"],
    ["APP_CURRENCY", "EURO", "APP_CURRENCY debe ser un código de moneda"],
    ["APP_CURRENCY", "XYZ", "APP_CURRENCY debe ser un código de moneda"],
    ["APP_COUNTRY", "ESP", "APP_COUNTRY debe ser un código de país"],
    ["SIGNUP_ALLOWED_DOMAINS", "empresa.es,no valido", "SIGNUP_ALLOWED_DOMAINS debe ser una lista de dominios"],
    ["SIGNUP_ALLOWED_DOMAINS", "localhost", "SIGNUP_ALLOWED_DOMAINS debe ser una lista de dominios"],
    ["SMTP_URL", "http://smtp.empresa.es", "SMTP_URL debe ser una URL smtp://"],
    ["MAIL_FROM", "Oficina", "MAIL_FROM debe ser una dirección de correo"],
    ["MAIL_FROM", "a b@c.d", "MAIL_FROM debe ser una dirección de correo"],
    ["APP_URL", "oficina.empresa.es", "APP_URL debe ser el origen público"],
    ["SIGNUP_MODE", "cerrado", "SIGNUP_MODE debe ser abierto, dominio o invitacion"],
    ["SIGNUP_MODE", "dominio", "SIGNUP_ALLOWED_DOMAINS es obligatoria cuando SIGNUP_MODE es dominio"],
    ["PERMITIR_ADMIN_UNICO", "quizá", "PERMITIR_ADMIN_UNICO debe ser 1 o 0"],
    ["APP_URL", "https://oficina.empresa.es/app", "APP_URL debe ser el origen público"],
  ])("refuses %s=%j", (name, value, message) => {
    const text = bad({ NODE_ENV: "test", [name]: value });
    expect(text).toMatch(/^Configuración no válida: /);
    expect(text).toContain(message);
  });

  it("requires SESSION_SECRET in production", () => {
    expect(bad({ NODE_ENV: "production" })).toBe(
      "Configuración no válida: SESSION_SECRET es obligatoria en producción (al menos 32 caracteres)",
    );
    expect(bad({ NODE_ENV: "production", SESSION_SECRET: "corto" })).toContain(
      "SESSION_SECRET debe tener al menos 32 caracteres",
    );
  });

  it("requires the anon key with SUPABASE_URL", () => {
    expect(bad({ NODE_ENV: "test", SUPABASE_URL: "https://abc.supabase.co" })).toContain(
      "SUPABASE_ANON_KEY es obligatoria cuando se define SUPABASE_URL",
    );
    expect(
      loadEnv({ NODE_ENV: "test", SUPABASE_URL: "https://abc.supabase.co", SUPABASE_ANON_KEY: "k" }).SUPABASE_ANON_KEY,
    ).toBe("k");
  });

  it("names every bad variable at once", () => {
    const text = bad({
      NODE_ENV: "production",
      PORT: "99999",
      APP_CURRENCY: "euros",
      SUPABASE_URL: "https://abc.supabase.co",
      SMTP_URL: "ftp://x",
    });
    for (const name of ["PORT", "APP_CURRENCY", "SUPABASE_ANON_KEY", "SESSION_SECRET", "SMTP_URL"]) {
      expect(text).toContain(`${name} `);
    }
    expect(text.split("; ")).toHaveLength(5);
  });
});

describe("ALMACEN_URL (receipts in an S3-compatible store)", () => {
  const s3 = {
    NODE_ENV: "test",
    S3_ENDPOINT: "http://127.0.0.1:9000",
    AWS_ACCESS_KEY_ID: "id",
    AWS_SECRET_ACCESS_KEY: "s",
  };

  it("unset: the local store, and the AWS variables of other tools are not even read", () => {
    const cfg = loadEnv({ NODE_ENV: "test", AWS_ENDPOINT_URL: "no es una url", AWS_ACCESS_KEY_ID: "solo-una" });
    expect(cfg.ALMACEN_S3).toBeUndefined();
    expect(cfg.ALMACEN_URL).toBeUndefined();
  });

  it.each([
    ["s3://oficina-justificantes", "oficina-justificantes", ""],
    ["s3://oficina-justificantes/", "oficina-justificantes", ""],
    ["s3://oficina.justificantes/produccion", "oficina.justificantes", "produccion/"],
    ["s3://cubo/a/b/", "cubo", "a/b/"],
    ["s3://cubo//a//b", "cubo", "a/b/"],
  ])("%s → bucket %s, prefijo «%s»", (url, bucket, prefijo) => {
    expect(loadEnv({ ...s3, ALMACEN_URL: url }).ALMACEN_S3).toMatchObject({ bucket, prefijo });
  });

  it.each([
    "oficina-justificantes",
    "https://s3.amazonaws.com/cubo",
    "s3://",
    "s3://Cubo",
    "s3://cu",
    "s3://cubo_con_guion_bajo",
    "s3://-cubo",
    "s3://cubo..raro",
    "s3://cubo/../fuera",
    "s3://cubo/./aqui",
    "s3://cubo/prefijo?x=1",
    "s3://cubo/factura con espacios",
    "s3://usuario:clave@cubo",
  ])("a malformed ALMACEN_URL stops the start with a Spanish message: %s", (url) => {
    expect(bad({ ...s3, ALMACEN_URL: url })).toMatch(
      /^Configuración no válida: ALMACEN_URL debe ser s3:\/\/cubo\/prefijo, p\. ej\. s3:\/\/oficina-justificantes\/produccion/,
    );
  });

  it("the connection: endpoint, region, keys, path style", () => {
    const cfg = loadEnv({ ...s3, ALMACEN_URL: "s3://cubo/oficina", S3_ENDPOINT: "http://127.0.0.1:9000/" });
    expect(cfg.ALMACEN_S3).toEqual({
      bucket: "cubo",
      prefijo: "oficina/",
      endpoint: "http://127.0.0.1:9000",
      region: "us-east-1",
      credenciales: { accessKeyId: "id", secretAccessKey: "s", sessionToken: undefined },
      pathStyle: true,
    });
    // Amazon S3 itself: its region is needed, virtual-hosted URLs, the SDK's own credentials.
    const aws = loadEnv({ NODE_ENV: "test", ALMACEN_URL: "s3://cubo", AWS_REGION: "eu-west-1" }).ALMACEN_S3;
    expect(aws).toEqual({ bucket: "cubo", prefijo: "", region: "eu-west-1", pathStyle: false });
    expect(
      loadEnv({ ...s3, S3_ENDPOINT: undefined, AWS_ENDPOINT_URL: "https://minio.empresa.es", ALMACEN_URL: "s3://cubo" })
        .ALMACEN_S3?.endpoint,
    ).toBe("https://minio.empresa.es");
    expect(loadEnv({ ...s3, ALMACEN_URL: "s3://cubo", S3_FORCE_PATH_STYLE: "0" }).ALMACEN_S3?.pathStyle).toBe(false);
  });

  it("names what is missing or wrong in the connection", () => {
    expect(bad({ NODE_ENV: "test", ALMACEN_URL: "s3://cubo" })).toContain(
      "AWS_REGION es obligatoria con ALMACEN_URL en Amazon S3",
    );
    expect(bad({ ...s3, ALMACEN_URL: "s3://cubo", AWS_SECRET_ACCESS_KEY: undefined })).toContain(
      "AWS_SECRET_ACCESS_KEY es obligatoria junto con AWS_ACCESS_KEY_ID",
    );
    expect(bad({ ...s3, ALMACEN_URL: "s3://cubo", S3_ENDPOINT: "ftp://x" })).toContain("S3_ENDPOINT debe ser la URL");
    // Credentials go in their own variables, never in a URL that may be logged.
    expect(bad({ ...s3, ALMACEN_URL: "s3://cubo", S3_ENDPOINT: "http://:secreto@127.0.0.1:9000" })).toContain(
      "S3_ENDPOINT debe ser la URL",
    );
    expect(bad({ ...s3, ALMACEN_URL: "s3://cubo", S3_FORCE_PATH_STYLE: "quizá" })).toContain(
      "S3_FORCE_PATH_STYLE debe ser 1 o 0",
    );
  });

  it("is refused with Supabase, whose receipts stay in Supabase Storage", () => {
    expect(
      bad({ ...s3, SUPABASE_URL: "https://abc.supabase.co", SUPABASE_ANON_KEY: "k", ALMACEN_URL: "s3://cubo" }),
    ).toContain("ALMACEN_URL no se admite con Supabase");
  });
});

describe("backendKind", () => {
  it("follows ARCHITECTURE", () => {
    expect(backendKind({ SUPABASE_URL: "https://abc.supabase.co", DATABASE_URL: "postgres://db/x" })).toBe("supabase");
    expect(backendKind({ DATABASE_URL: "postgres://db/x" })).toBe("postgres");
    expect(backendKind({})).toBe("embedded");
    expect(backendKind(loadEnv({ NODE_ENV: "test" }))).toBe("embedded");
  });
});

describe("env()", () => {
  it("parses process.env once and caches it", () => {
    resetEnvCache();
    const first = env();
    expect(env()).toBe(first);
    resetEnvCache();
    expect(env()).not.toBe(first);
  });
});
