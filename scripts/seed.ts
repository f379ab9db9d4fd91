/**
 * Datos de demostración de Oficina: la entrada pública y la línea de órdenes.
 *
 * - `seedIfEmpty(db, log)`: si `public.usuarios` está vacía, carga los datos de demostración
 *   (lo hace la línea de órdenes de abajo, que server.ts ejecuta compilada, build/seed.js, en el
 *   primer arranque cuando APP_URL es esta máquina). Devuelve si ha cargado algo.
 * - `seedDemo(db, { gastos, seed })`: carga los datos base (departamentos, sucursales,
 *   proveedores, 40 usuarios y `gastos` gastos) en una transacción. Determinista: mismo `seed`,
 *   mismos datos (relativos a la fecha de hoy).
 * - `addGastos(db, n, { seed, log })`: añade n gastos sintéticos a lo que ya haya (carga masiva).
 * - CLI: `npm run seed -- --gastos 100000 [--database-url URL] [--seed N]`. Sin URL (ni
 *   DATABASE_URL) arranca el Postgres integrado de DATA_DIR (./data por defecto), aplica las
 *   migraciones, carga los datos base si la base está vacía y añade los gastos pedidos.
 *
 * Por dentro (scripts/seed/): `catalog/` son los datos fijos (organización, proveedores, de qué son
 * los gastos); `generator/` convierte el catálogo y una semilla en filas, sin tocar la base de
 * datos; `loader.ts` las escribe en Postgres, en transacciones.
 *
 * Cuentas de demostración (contraseña `demo-oficina-2026`): administrador@oficina.example,
 * aprobador@oficina.example y empleado@oficina.example.
 */
import path from "node:path";
import { esElPrograma, leerOpciones, numero } from "./linea-de-ordenes";
import { addGastos, countGastos, seedIfEmpty } from "./seed/loader";

export { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./seed/catalog/organization";
export { centsToDecimal } from "./seed/generator/common";
export { DEFAULT_SEED, mulberry32, Rng } from "./seed/generator/random";
export {
  addGastos,
  type AddGastosOptions,
  DEFAULT_DEMO_GASTOS,
  seedDemo,
  seedIfEmpty,
  type SeedOptions,
} from "./seed/loader";

// ---------------------------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------------------------

const AYUDA =
  "Uso: tsx scripts/seed.ts [--gastos N] [--database-url URL] [--seed N]\n" +
  "Carga los datos de demostración si la base está vacía y añade N gastos sintéticos.\n" +
  "Sin --database-url (ni DATABASE_URL) usa el Postgres integrado de DATA_DIR (./data).";

/** The command line's options (the header's CLI); `ayuda`: --help or -h was given, nothing else is read. */
export function parseSeedArgs(argv: string[]): { ayuda: boolean; gastos: number; databaseUrl?: string; seed?: number } {
  const v = leerOpciones(
    argv,
    {
      gastos: { type: "string", default: "0" },
      "database-url": { type: "string" },
      seed: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    "use --help",
  );
  if (v.help) return { ayuda: true, gastos: 0 };
  return {
    ayuda: false,
    // 100_000 or 100.000 as well as 100000.
    gastos: numero("gastos", v.gastos.replace(/[_.]/g, ""), "entero"),
    databaseUrl: v["database-url"],
    seed: v.seed === undefined ? undefined : numero("seed", v.seed, "entero"),
  };
}

async function main() {
  const args = parseSeedArgs(process.argv.slice(2));
  if (args.ayuda) return console.info(AYUDA);
  const log = (line: string) => console.info(line);
  const { startEmbeddedPostgres } = await import("../app/data/embedded.server");
  const { migrate } = await import("../app/data/migrate.server");
  const { createDatabase } = await import("../app/data/sql/connection.server");

  let url = args.databaseUrl ?? process.env.DATABASE_URL;
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  if (!url) {
    const dataDir = process.env.DATA_DIR || "./data";
    embedded = await startEmbeddedPostgres(dataDir);
    url = embedded.url;
    log(`Base de datos integrada en ${path.resolve(dataDir)}`);
  }
  const db = createDatabase(url, 2);
  const inicio = Date.now();
  try {
    await migrate(url, log);
    // The receipts' files go where the server reads them (DATA_DIR, as app/lib/env.server.ts).
    await seedIfEmpty(db, log, { seed: args.seed, dataDir: process.env.DATA_DIR || "./data" });
    if (args.gastos > 0) {
      log(`Añadiendo ${args.gastos.toLocaleString("es-ES")} gastos sintéticos…`);
      await addGastos(db, args.gastos, { seed: args.seed, log });
    }
    const total = await countGastos(db);
    log(`Listo en ${((Date.now() - inicio) / 1000).toFixed(1)} s: ${total.toLocaleString("es-ES")} gastos en total.`);
  } finally {
    await db.destroy();
    await embedded?.stop();
  }
}

if (esElPrograma(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
