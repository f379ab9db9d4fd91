import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback HTTP server standing in for Sentry's ingest (Sentry cannot run here): it records
 * every request and answers with `status` (and `location` for redirect tests).
 */
export type Received = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };

export async function startFakeIngest(answer: { status?: number; location?: string } = {}) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(answer.status ?? 200, answer.location ? { Location: answer.location } : {});
      res.end('{"id":"upstream-secret-body"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    received,
    dsn: (project = 1, key = "clave") => `http://${key}@127.0.0.1:${port}/${project}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A minimal envelope as the browser SDK sends it. */
export function envelope(dsn: string, extra = "") {
  return `${JSON.stringify({ event_id: "0123456789abcdef0123456789abcdef", dsn, sent_at: new Date().toISOString() })}\n{"type":"event"}\n{"message":"prueba${extra}"}\n`;
}
