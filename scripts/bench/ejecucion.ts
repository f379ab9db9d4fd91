/**
 * The run of `npm run bench` itself: its log lines (on stderr, the report goes to stdout) and what
 * it started, stopped last first when it ends, fails or gets SIGINT/SIGTERM.
 */

export const log = (linea: string) => console.error(`[bench] ${linea}`);

const limpiezas: (() => Promise<void> | void)[] = [];
let limpiando: Promise<void> | null = null;

/** `paso` stops or removes something just started, when the run ends. */
export function alTerminar(paso: () => Promise<void> | void) {
  limpiezas.push(paso);
}

/** Stops what was started, last first; a second call (a signal while main fails) waits for the same one. */
export function limpiar(): Promise<void> {
  limpiando ??= (async () => {
    for (const paso of limpiezas.reverse())
      await Promise.resolve(paso()).catch((e) => log(`limpieza: ${(e as Error).message}`));
  })();
  return limpiando;
}

for (const senal of ["SIGINT", "SIGTERM"] as const)
  process.on(senal, () => {
    log(`${senal}: deteniendo lo que se arrancó…`);
    void limpiar().then(() => process.exit(130));
  });
