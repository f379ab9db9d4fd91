import type { Outbox } from "./avisos/entrega.server";
import { supabaseOutbox } from "./avisos/supabase.server";
import { supabaseInvitations } from "./auth/invitations.server";
import { supabaseAdmin, supabaseAuth } from "./auth/supabase.server";
import { supabaseStore, type SupabaseConnection } from "./data/supabase.server";
import type { Config } from "./lib/env.server";
import { memoryThrottle } from "./auth/throttle.server";
import { createFlash } from "./lib/flash.server";
import { memoryOnce } from "./data/once.server";
import type { Store } from "./data/store";
import { almacenSupabase } from "./justificantes/almacen.supabase.server";
import { almacenDe } from "./justificantes/subir.server";
import type { Services } from "./services.server";

/**
 * Services for a hosted Supabase project (SUPABASE_URL + SUPABASE_ANON_KEY): Supabase Auth for
 * accounts, PostgREST for data, always as the signed-in user. The schema is applied beforehand
 * with `supabase db push` (docs/supabase.md); nothing is migrated or seeded from here.
 *
 * SUPABASE_SERVICE_ROLE_KEY, when set, is read here and only handed to Supabase Auth's admin API
 * (`supabaseAdmin`) for invitations and to the avisos mail worker (`supabaseAvisosOutbox`, the
 * `entrega_*` functions only); requests on behalf of a person never carry it. Without it there
 * are no invitations (the screen explains how to invite from the Supabase dashboard) and avisos
 * stay in the app, not mailed.
 * docs/decisions/0007-supabase-backend.md.
 */
/**
 * Supabase Auth's invitation links live as long as the project's «Email OTP Expiration», at most
 * one day (docs/supabase.md asks for that maximum). Shown on the screens and used for when a
 * pending one expires.
 */
const INVITE_LINK_HOURS = 24;

export function supabaseServices(config: Config, o: { fetch?: typeof fetch } = {}): Services {
  const { SUPABASE_URL: url, SUPABASE_ANON_KEY: anonKey } = config;
  if (!url || !anonKey) throw new Error("El backend de Supabase necesita SUPABASE_URL y SUPABASE_ANON_KEY");
  const conn: SupabaseConnection = { url: url.replace(/\/+$/, ""), anonKey, fetch: o.fetch };
  const production = config.APP_URL.startsWith("https:"); // Secure cookies where the public origin is https
  const serviceKey = config.SUPABASE_SERVICE_ROLE_KEY?.trim();
  const admin = serviceKey ? supabaseAdmin(conn, serviceKey) : undefined;
  // Each store's JWT, so its receipts are read and written in Storage as the same user.
  const tokens = new WeakMap<Store, string>();
  // Uploads are staged (hashed and counted) in DATA_DIR/justificantes/tmp before they go up.
  const staging = almacenDe(config.DATA_DIR);
  return {
    config,
    auth: supabaseAuth({ ...conn, secure: production, siteUrl: config.APP_URL, admin }),
    invitations: admin ? (store) => supabaseInvitations({ admin, store, linkHours: INVITE_LINK_HOURS }) : undefined,
    flash: createFlash(config.SESSION_SECRET, production),
    // In memory: a Supabase deployment is served by one process (ADR 0010).
    once: memoryOnce(),
    throttle: memoryThrottle(),
    storeFor(session) {
      if (!session.accessToken) throw new Error("La sesión de Supabase no trae el JWT del usuario");
      const store = supabaseStore(conn, session.accessToken);
      tokens.set(store, session.accessToken);
      return store;
    },
    almacenFor(store) {
      const accessToken = tokens.get(store);
      if (!accessToken) throw new Error("Este almacén de datos no es de una sesión de Supabase");
      return almacenSupabase({ ...conn, accessToken, temporal: staging.temporal });
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

/**
 * The avisos mail outbox of the Supabase project, for the worker the primary process (or `npm run
 * avisos`) runs: through PostgREST with the service-role key, since there is no database
 * connection here. Undefined without the key: avisos are then only in the app.
 */
export function supabaseAvisosOutbox(config: Config, o: { fetch?: typeof fetch } = {}): Outbox | undefined {
  const url = config.SUPABASE_URL?.replace(/\/+$/, "");
  const serviceKey = config.SUPABASE_SERVICE_ROLE_KEY?.trim();
  return url && serviceKey ? supabaseOutbox({ url, fetch: o.fetch }, serviceKey) : undefined;
}
