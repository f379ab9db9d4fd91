/**
 * Loaded before anything else (`node --import ./build/instrument.js build/server.js`; built by
 * scripts/build.mjs) so Sentry can hook into the server's modules as they load: it cannot be part
 * of the server's own bundle, whose imports are all loaded before its first line runs. It holds
 * only this and what it needs (the configuration parser, the scrubber). With no SENTRY_DSN
 * nothing is initialised and nothing touches the network.
 */
import { loadEnv } from "./lib/env.server";
import { scrubEvent } from "./lib/sentry-scrub";

let dsn: string | undefined;
try {
  const config = loadEnv();
  dsn = config.SENTRY_DSN;
  // Sentry's modules only with a DSN: without one they are the largest part of each process's
  // heap, and a larger heap is also one V8 lets grow further between collections (ADR 0008,
  // «Memory»). @sentry/node's own init, not @sentry/remix's: see below. (@sentry/remix's
  // dependency; the server's captureException and sentryHandleError reach the same client, which
  // is global.)
  if (dsn) {
    const Sentry = await import("@sentry/node");
    Sentry.init({
      dsn,
      environment: config.SENTRY_ENVIRONMENT,
      release: config.SENTRY_RELEASE,
      sendDefaultPii: false,
      beforeSend: scrubEvent,
      // No tracesSampleRate, not even 0: any value turns on the automatic performance
      // integrations (pg, Express… through OpenTelemetry), CPU on every page (ADR 0008).
      // Errors are all we send from the server, and what made a page cost more with a DSN was
      // per-request machinery for tracing we do not do: @sentry/remix's init wraps Remix's
      // request handler (an isolation scope, the request copied, the root loader's JSON parsed
      // and rebuilt to add trace ids), the Http integration gives each request an
      // OpenTelemetry context, and OpenTelemetry's context manager follows every async step.
      // Without a scope per request, console breadcrumbs would gather across requests and
      // travel with another person's error: they go too (ADR 0008, «Sentry»).
      skipOpenTelemetrySetup: true,
      integrations: (defaults) => defaults.filter((i) => !["Http", "Console"].includes(i.name)),
    });
  }
} catch {
  // A bad configuration is reported by server.ts with a clear message; nothing to do here.
}
