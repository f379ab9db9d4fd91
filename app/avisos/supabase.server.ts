import { createClient } from "@supabase/supabase-js";
import { NoRealtime } from "~/data/supabase.server";
import type { Envio, Outbox } from "./entrega.server";

/**
 * The avisos outbox of a Supabase project, for the delivery worker (ADR 0017): the web server has
 * no database connection there, so the worker calls the `entrega_*` functions through PostgREST
 * with the service-role key — the only role they are granted to. The key goes to
 * /rest/v1/rpc/entrega_* and nowhere else; the mails' content comes back from the database
 * already, so nothing else is read with it.
 */
export function supabaseOutbox(conn: { url: string; fetch?: typeof fetch }, serviceRoleKey: string): Outbox {
  const base = conn.fetch ?? fetch;
  const client = createClient(conn.url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as never },
    // A pass never hangs on a request that gets no answer: it fails, and the next pass tries again.
    global: { fetch: (input, init) => base(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(30_000) }) },
  });
  async function call<T>(fn: string, args: Record<string, unknown>): Promise<T> {
    const { data, error } = await client.rpc(fn, args);
    if (error) throw new Error(`Supabase respondió a ${fn}: ${error.message}`);
    return data as T;
  }
  return {
    async scheduleDigests(timeZone) {
      return Number(await call<number>("entrega_programar_resumenes", { p_zona: timeZone }));
    },
    async claim(people, lease) {
      return (await call<Envio[] | null>("entrega_reclamar", { p_personas: people, p_plazo: lease })) ?? [];
    },
    async sent(mensajeId) {
      await call("entrega_enviado", { p_mensaje_id: mensajeId });
    },
    async failed(mensajeId, error) {
      await call("entrega_fallido", { p_mensaje_id: mensajeId, p_error: error });
    },
  };
}
