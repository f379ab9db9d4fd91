/**
 * The command lines of the scripts (scripts/seed.ts, scripts/bench/*.ts): their options read with
 * node:util's parseArgs, and the small parsers their values share. Apart from scripts/bench/ because
 * the seed uses it too, and build/seed.js bundles it (scripts/build.mjs).
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";

type Valores<T extends ParseArgsOptionsConfig> = ReturnType<typeof parseArgs<{ options: T; strict: true }>>["values"];

/**
 * `argv` read against `opciones` as strictly as parseArgs' `strict: true` (an unknown option, a
 * positional argument, an option without its value or a flag with one are errors), in our words,
 * naming the option as it was typed; `donde` says where the options are documented. Not parseArgs'
 * own strict mode: it refuses a value that starts with a dash (`--a-node "--cpu-prof"`) as ambiguous.
 */
export function leerOpciones<const T extends ParseArgsOptionsConfig>(
  argv: string[],
  opciones: T,
  donde: string,
): Valores<T> {
  const { values, tokens } = parseArgs({ args: argv, options: opciones, strict: false, tokens: true });
  for (const t of tokens) {
    if (t.kind !== "option" || !Object.hasOwn(opciones, t.name)) {
      const escrita = t.kind === "option" ? t.rawName : t.kind === "positional" ? t.value : "--";
      throw new Error(`Opción desconocida: ${escrita} (${donde})`);
    }
    const tipo = opciones[t.name]!.type;
    if (tipo === "string" && t.value === undefined) throw new Error(`Falta el valor de ${t.rawName}`);
    if (tipo === "boolean" && t.value !== undefined) throw new Error(`${t.rawName} no lleva valor: ${t.value}`);
  }
  return values as Valores<T>;
}

const NUMEROS = {
  positivo: { es: (n: number) => Number.isFinite(n) && n > 0, espera: "un número mayor que 0" },
  "entero positivo": { es: (n: number) => Number.isSafeInteger(n) && n >= 1, espera: "un número entero positivo" },
  entero: { es: (n: number) => Number.isSafeInteger(n) && n >= 0, espera: "un número entero" },
};

/** `texto`, the value of `--nombre`, as a number of that kind; if it is not one, an error naming the option. */
export function numero(nombre: string, texto: string, tipo: keyof typeof NUMEROS = "positivo") {
  const { es, espera } = NUMEROS[tipo];
  // Digits only for an integer (not "1e3" or "0x10"); Number("") and Number(" ") would be 0.
  const n = tipo === "positivo" ? (texto.trim() ? Number(texto) : NaN) : /^\d+$/.test(texto) ? Number(texto) : NaN;
  if (!es(n)) throw new Error(`--${nombre} espera ${espera}: «${texto}»`);
  return n;
}

/** "K=V,K2=V2" → { K: "V", K2: "V2" }: a value may hold "=" (NODE_OPTIONS=--x=1), not ",". */
export function entorno(texto: string): Record<string, string> {
  return Object.fromEntries(
    texto
      .split(",")
      .filter(Boolean)
      .map((kv) => {
        const [k, v] = kv.split(/=(.*)/s, 2);
        if (!k || v === undefined) throw new Error(`«${kv}» no es K=V (en «${texto}»)`);
        return [k, v];
      }),
  );
}

/** "--cpu-prof  --cpu-prof-dir=x" → ["--cpu-prof", "--cpu-prof-dir=x"]: node's flags, a command. */
export const palabras = (texto: string) => texto.split(" ").filter(Boolean);

/** Whether the module at `url` (its import.meta.url) is the program node runs, not one imported (by a test). */
export function esElPrograma(url: string) {
  const principal = process.argv[1];
  if (!principal) return false;
  try {
    // Real paths on both sides: node runs a module by its real path, argv[1] may go through a link.
    return realpathSync(principal) === fileURLToPath(url);
  } catch {
    return false;
  }
}

/**
 * Runs `main` when the module at `url` is the program (not when a test imports it): an error is
 * printed with its stack and sets exit code 1; then, whatever happened, what started servers and
 * databases registered in `detener` stops them, the last started first.
 */
export function comoPrograma(url: string, main: () => Promise<void>, detener: (() => Promise<void>)[] = []) {
  if (!esElPrograma(url)) return;
  main()
    .catch((e) => {
      console.error(e instanceof Error ? e.stack : e);
      process.exitCode = 1;
    })
    .finally(async () => {
      for (const paso of detener.reverse()) await paso().catch(() => {});
    });
}
