import { supabaseAuth } from "./auth/supabase.server";
import { supabaseStore, type SupabaseConnection } from "./data/supabase.server";
import type { Config } from "./lib/env.server";
import { memoryThrottle } from "./auth/throttle.server";
import { createFlash } from "./lib/flash.server";
import { memoryOnce } from "./lib/once.server";
import type { Services } from "./services.server";

/**
 * Services for a hosted Supabase project (SUPABASE_URL + SUPABASE_ANON_KEY): Supabase Auth for
 * accounts, PostgREST for data, always as the signed-in user. The schema is applied beforehand
 * with `supabase db push` (docs/supabase.md); nothing is migrated or seeded from here.
 *
 * SUPABASE_SERVICE_ROLE_KEY is deliberately not read: no operation of the app needs to bypass
 * row-level security (docs/decisions/0007-supabase-backend.md).
 */
export function supabaseServices(config: Config, o: { fetch?: typeof fetch } = {}): Services {
  const { SUPABASE_URL: url, SUPABASE_ANON_KEY: anonKey } = config;
  if (!url || !anonKey) throw new Error("El backend de Supabase necesita SUPABASE_URL y SUPABASE_ANON_KEY");
  const conn: SupabaseConnection = { url: url.replace(/\/+$/, ""), anonKey, fetch: o.fetch };
  const production = config.APP_URL.startsWith("https:"); // Secure cookies where the public origin is https
  return {
    config,
    auth: supabaseAuth({ ...conn, secure: production, siteUrl: config.APP_URL }),
    flash: createFlash(config.SESSION_SECRET, production),
    // In memory: a Supabase deployment is served by one process (ADR 0010).
    once: memoryOnce(),
    throttle: memoryThrottle(),
    storeFor(session) {
      if (!session.accessToken) throw new Error("La sesión de Supabase no trae el JWT del usuario");
      return supabaseStore(conn, session.accessToken);
    },
    async ping() {
      // Supabase Auth's health check answers only when it can reach the project's database.
      const response = await (o.fetch ?? fetch)(`${conn.url}/auth/v1/health`, {
        headers: { apikey: anonKey },
        signal: AbortSignal.timeout(5_000),
      });
      if (!response.ok) throw new Error(`Supabase Auth respondió ${response.status} a /health`);
    },
    async close() {},
  };
}
