/** The options of `npm run bench` (listed in the header of scripts/bench.ts), read with node:util's parseArgs. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { leerOpciones } from "../linea-de-ordenes";

/** The checkout the bench runs from (its app is copied, its bench/ receives the results). */
export const RAIZ = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export type Opciones = {
  gastos: number;
  escala: boolean;
  segundos: number;
  /**
   * Seconds of load over the screens that only read before the first measure: a worker needs
   * tens of seconds of load before V8 has compiled its hot code (ADR 0008), and without it
   * the first screens measure the compiler too. Each measure still has its own 1 s warm-up.
   */
  calentar: number;
  /** Rounds of the with/without-DSN pair (what a SENTRY_DSN costs); 0: none. */
  parDsn: number;
  conexiones: number[];
  pantallas: string[] | null;
  sentry: boolean;
  perfil: boolean;
  mantener: boolean;
  /** A PostgreSQL data dir to keep and reuse between runs (loaded once), instead of a fresh one. */
  datos: string | null;
  /** Where results.json and ultimo.md go (default bench/). */
  salida: string;
  /** WEB_CONCURRENCY for the server (default: the server's own, one process per core). */
  procesos: number | null;
};

const CON_VALOR = [
  "gastos",
  "segundos",
  "calentar",
  "par-dsn",
  "conexiones",
  "pantallas",
  "aceptar",
  "datos",
  "salida",
  "procesos",
] as const;
const SIN_VALOR = ["escala", "sin-sentry", "perfil", "mantener"] as const;

/**
 * What a browser sends as Accept-Encoding: pages travel as brotli to every current browser (ADR
 * 0008, «The page»). `--aceptar gzip` measures as the bench did before (to compare with runs of
 * older code).
 */
const ACEPTAR_DE_NAVEGADOR = "gzip, deflate, br";

/**
 * The options, and apart from them `aceptar`, the Accept-Encoding the screens are asked with
 * (results.json records the options without it).
 */
export function opciones(argv: string[]): { opciones: Opciones; aceptar: string } {
  const values = leerOpciones(
    argv,
    {
      ...Object.fromEntries(CON_VALOR.map((n) => [n, { type: "string" as const }])),
      ...Object.fromEntries(SIN_VALOR.map((n) => [n, { type: "boolean" as const }])),
    },
    "lea la cabecera de scripts/bench.ts",
  );
  // An option that wants a value and was given none reads as "" (and fails its check below).
  const valor = (nombre: (typeof CON_VALOR)[number]) => {
    const v = values[nombre];
    return v === undefined ? undefined : typeof v === "string" ? v : "";
  };
  const numero = (nombre: (typeof CON_VALOR)[number], porDefecto: number) => Number(valor(nombre) ?? porDefecto);
  const ruta = (nombre: "datos" | "salida") => {
    const v = valor(nombre);
    return v === undefined ? undefined : path.resolve(v);
  };
  const o: Opciones = {
    gastos: Number((valor("gastos") ?? "100000").replace(/[_.]/g, "")),
    escala: values.escala !== undefined,
    segundos: numero("segundos", 5),
    calentar: numero("calentar", 40),
    parDsn: numero("par-dsn", 4),
    conexiones: valor("conexiones")?.split(",").map(Number) ?? [1, 10, 50],
    pantallas: valor("pantallas")?.split(",") ?? null,
    sentry: values["sin-sentry"] === undefined,
    perfil: values.perfil !== undefined,
    mantener: values.mantener !== undefined,
    datos: ruta("datos") ?? null,
    salida: ruta("salida") ?? path.join(RAIZ, "bench"),
    procesos: values.procesos === undefined ? null : Number(valor("procesos")),
  };
  if (o.procesos !== null && !(Number.isInteger(o.procesos) && o.procesos >= 1))
    throw new Error("--procesos espera un número entero positivo");
  if (!Number.isSafeInteger(o.gastos) || o.gastos < 1) throw new Error("--gastos espera un número entero positivo");
  if (
    !(o.segundos > 0) ||
    !(o.calentar >= 0) ||
    !(Number.isInteger(o.parDsn) && o.parDsn >= 0) ||
    o.conexiones.some((c) => !Number.isInteger(c) || c < 1)
  )
    throw new Error("--segundos, --calentar, --par-dsn o --conexiones no válidos");
  return { opciones: o, aceptar: valor("aceptar") ?? ACEPTAR_DE_NAVEGADOR };
}
