import express, { type Express, type Request, type Response } from "express";
import { rateLimit, type Store } from "express-rate-limit";

/**
 * The same-origin tunnel for the browser's Sentry envelopes, modelled on
 * @sentry/core's handleTunnelRequest: an envelope is forwarded only when the DSN in its header is
 * exactly the configured one, to an ingest URL built from configuration alone — never an open
 * proxy. No redirects are followed and nothing of the upstream answer is echoed.
 */
export const MAX_ENVELOPE_BYTES = 256 * 1024;
const TIMEOUT_MS = 5_000;

type Dsn = { protocol: string; host: string; pathPrefix: string; publicKey: string; projectId: string };

export function parseDsn(value: string): Dsn | null {
  try {
    const url = new URL(value);
    const segments = url.pathname.split("/").filter(Boolean);
    const projectId = segments.pop();
    if (!url.username || !projectId || !/^\d+$/.test(projectId) || !["http:", "https:"].includes(url.protocol))
      return null;
    return {
      protocol: url.protocol,
      host: url.host,
      pathPrefix: segments.length ? `/${segments.join("/")}` : "",
      publicKey: url.username,
      projectId,
    };
  } catch {
    return null;
  }
}

function sameDsn(a: Dsn, b: Dsn) {
  return (
    a.protocol === b.protocol &&
    a.host === b.host &&
    a.pathPrefix === b.pathPrefix &&
    a.publicKey === b.publicKey &&
    a.projectId === b.projectId
  );
}

export function ingestUrl(dsn: Dsn) {
  return `${dsn.protocol}//${dsn.host}${dsn.pathPrefix}/api/${dsn.projectId}/envelope/?sentry_key=${encodeURIComponent(dsn.publicKey)}&sentry_version=7`;
}

export function monitoringTunnel(configuredDsn: string | undefined) {
  const allowed = configuredDsn ? parseDsn(configuredDsn) : null;
  const refuse = (res: Response, status: number, reason: string) => {
    console.warn(`/monitoring: sobre rechazado (${status}): ${reason}`);
    res.status(status).end();
  };

  return async (req: Request, res: Response) => {
    if (!allowed) return refuse(res, 404, "Sentry no está configurado");
    const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const newline = body.indexOf(0x0a);
    let header: { dsn?: unknown };
    try {
      header = JSON.parse(body.subarray(0, newline === -1 ? body.length : newline).toString("utf8"));
    } catch {
      return refuse(res, 400, "cabecera del sobre ilegible");
    }
    const dsn = typeof header?.dsn === "string" ? parseDsn(header.dsn) : null;
    if (!dsn) return refuse(res, 400, "el sobre no trae un DSN válido");
    if (!sameDsn(dsn, allowed)) return refuse(res, 403, `DSN no permitido (${dsn.host}, proyecto ${dsn.projectId})`);

    try {
      const upstream = await fetch(ingestUrl(allowed), {
        method: "POST",
        body: new Uint8Array(body),
        headers: { "Content-Type": "application/x-sentry-envelope" },
        redirect: "manual",
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await upstream.arrayBuffer().catch(() => undefined);
      if (upstream.status >= 300) return refuse(res, 502, `la ingesta respondió ${upstream.status}`);
      res.status(200).end();
    } catch (error) {
      refuse(res, 502, `la ingesta no responde (${(error as Error).name})`);
    }
  };
}

/**
 * POST /monitoring: rate limited, body capped (413 past it), then the tunnel; other methods 405.
 * `store`: where the limit counts (shared by every worker: services.rateLimitStore); without
 * one, in this process's memory.
 */
export function mountMonitoring(app: Express, configuredDsn: string | undefined, store?: Store) {
  app.post(
    "/monitoring",
    rateLimit({
      windowMs: 60_000,
      limit: 120,
      standardHeaders: "draft-8",
      legacyHeaders: false,
      store,
      passOnStoreError: true,
    }),
    express.raw({ type: () => true, limit: MAX_ENVELOPE_BYTES }),
    monitoringTunnel(configuredDsn),
  );
  app.all("/monitoring", (_req, res) => void res.status(405).set("Allow", "POST").end());
}
