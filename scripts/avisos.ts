/**
 * `npm run avisos`: the avisos mail worker on its own (ADR 0017), for deployments that run it apart
 * from the web servers (then start those with AVISOS_ENTREGA=0). Needs DATABASE_URL (the owner's,
 * a server-only secret) or, on Supabase, SUPABASE_SERVICE_ROLE_KEY (through PostgREST).
 * Several may run at once: each mail is still sent once.
 */
import { sqlAvisos, startAvisos } from "../app/avisos/entrega.server";
import { backendKind, loadEnv } from "../app/lib/env.server";
import { supabaseAvisosOutbox } from "../app/services.supabase.server";

const config = loadEnv();
const outbox =
  backendKind(config) === "supabase"
    ? supabaseAvisosOutbox(config)
    : config.DATABASE_URL
      ? sqlAvisos(config.DATABASE_URL)
      : undefined;
if (!outbox) {
  console.error(
    "npm run avisos necesita DATABASE_URL (la base de datos donde está la cola de correo) o, con Supabase, SUPABASE_SERVICE_ROLE_KEY.",
  );
  process.exit(1);
}
const worker = startAvisos(config, outbox);
console.info(`Avisos: entregando cada ${config.AVISOS_INTERVALO_SEGUNDOS} s (Ctrl+C para parar).`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    void worker.stop().then(() => process.exit(0));
  });
