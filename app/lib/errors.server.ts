import { json, type ServerBuild } from "@remix-run/node";
import { randomUUID } from "node:crypto";

export type ErrorReporter = (error: unknown, request: Request) => string | undefined;

/**
 * Set by the Express edge (server.ts) in the load context when it refused a request before any
 * parsing (too many fields, malformed body, foreign origin): the request then reaches Remix with
 * an empty body only so that the refusal is shown in the app's own layout (root loader, error
 * screen), and no route's loader or action runs.
 */
export type EdgeRefusal = { status: number; message: string };

/** Headers the edge sets on every answer that a route's own Response may set instead. */
const OWN_HEADERS = ["Content-Security-Policy", "X-Content-Type-Options", "Cache-Control"];

/**
 * Every loader and action of the build, wrapped once: an unexpected error (not a Response the
 * route threw on purpose) is logged — and reported to Sentry when it is on — under an id, and
 * becomes a 500 whose body carries only that id (the digest the error screen shows). No message,
 * stack or SQL leaves the server. A request the edge refused never reaches a route's own loader or
 * action: they throw the refusal (EdgeRefusal) instead, which the root error screen shows.
 */
export function withErrorDigests(build: ServerBuild, report: ErrorReporter = () => undefined): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const module = { ...route.module };
      for (const key of ["loader", "action"] as const) {
        const handler = route.module[key];
        if (handler)
          module[key] = (async (args: {
            request: Request;
            context?: { refusal?: EdgeRefusal; ownHeaders?: (names: string[]) => void };
          }) => {
            const refusal = args.context?.refusal;
            if (refusal && id !== "root") throw json({ message: refusal.message }, { status: refusal.status });
            try {
              const result = await (handler as (a: typeof args) => unknown)(args);
              if (result instanceof Response) {
                const own = OWN_HEADERS.filter((name) => result.headers.has(name));
                if (own.length) args.context?.ownHeaders?.(own);
              }
              return result;
            } catch (error) {
              if (error instanceof Response) throw error;
              const digest = report(error, args.request) ?? randomUUID().slice(0, 8);
              console.error(`[error ${digest}] ${args.request.method} ${new URL(args.request.url).pathname}:`, error);
              throw json({ digest }, { status: 500 });
            }
          }) as never;
      }
      return [id, { ...route, module }];
    }),
  );
  return { ...build, routes } as ServerBuild;
}
