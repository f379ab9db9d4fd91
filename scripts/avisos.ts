/**
 * `npm run avisos`: the avisos mail worker on its own (ADR 0017), for deployments that run it apart
 * from the web servers (then start those with AVISOS_ENTREGA=0) or on Supabase, where the web
 * server has no database connection. Needs DATABASE_URL (the owner's, a server-only secret).
 * Several may run at once: each mail is still sent once.
 */
import { startAvisos } from "../app/avisos/entrega.server";
import { loadEnv } from "../app/lib/env.server";

const config = loadEnv();
if (!config.DATABASE_URL) {
  console.error("npm run avisos necesita DATABASE_URL: la conexión a la base de datos donde está la cola de correo.");
  process.exit(1);
}
const worker = startAvisos(config, config.DATABASE_URL);
console.info(`Avisos: entregando cada ${config.AVISOS_INTERVALO_SEGUNDOS} s (Ctrl+C para parar).`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    void worker.stop().then(() => process.exit(0));
  });
