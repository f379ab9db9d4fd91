import { json, type ServerBuild } from "@remix-run/node";
import { randomUUID } from "node:crypto";

export type ErrorReporter = (error: unknown, request: Request) => string | undefined;

/**
 * Every loader and action of the build, wrapped once: an unexpected error (not a Response the
 * route threw on purpose) is logged — and reported to Sentry when it is on — under an id, and
 * becomes a 500 whose body carries only that id (the digest the error screen shows). No message,
 * stack or SQL leaves the server.
 */
export function withErrorDigests(build: ServerBuild, report: ErrorReporter = () => undefined): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const module = { ...route.module };
      for (const key of ["loader", "action"] as const) {
        const handler = route.module[key];
        if (handler) module[key] = (async (args: { request: Request }) => {
          try {
            return await (handler as (a: typeof args) => unknown)(args);
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
