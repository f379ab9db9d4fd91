import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { scrubEvent } from "~/lib/sentry-scrub";

// Sentry's browser SDK is fetched only when a DSN is configured, after the page already works.
const sentry = (window as { ENV?: { sentry?: { dsn: string; environment?: string; release?: string } } }).ENV?.sentry;
if (sentry) {
  void import("@sentry/remix").then((Sentry) =>
    Sentry.init({
      ...sentry,
      tunnel: "/monitoring",
      sendDefaultPii: false,
      tracesSampleRate: 0,
      beforeSend: scrubEvent,
    }),
  );
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
