/**
 * Loaded before anything else (`node --import ./build/instrument.js build/server.js`; built by
 * scripts/build.mjs) so Sentry can hook into the server's modules as they load: it cannot be part
 * of the server's own bundle, whose imports are all loaded before its first line runs. It holds
 * only this and what it needs (the configuration parser, the scrubber). With no SENTRY_DSN
 * nothing is initialised and nothing touches the network.
 */
import * as Sentry from "@sentry/remix";
import { loadEnv } from "./lib/env.server";
import { scrubEvent } from "./lib/sentry-scrub";

let dsn: string | undefined;
try {
  const config = loadEnv();
  dsn = config.SENTRY_DSN;
  if (dsn)
    Sentry.init({
      dsn,
      environment: config.SENTRY_ENVIRONMENT,
      release: config.SENTRY_RELEASE,
      sendDefaultPii: false,
      beforeSend: scrubEvent,
      // No tracesSampleRate, not even 0: any value turns on the automatic performance
      // integrations (pg, Express… through OpenTelemetry), ~5 ms of CPU per page (ADR 0008).
    });
} catch {
  // A bad configuration is reported by server.ts with a clear message; nothing to do here.
}
