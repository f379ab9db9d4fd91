/**
 * carga.mjs, the load generator, run as a process of its own (never inside the server's): one run
 * per call, and what it measured.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const CARGA = path.join(path.dirname(fileURLToPath(import.meta.url)), "carga.mjs");

/** What carga.mjs reads (its header says what each field does). */
export type ConfigDeCarga = {
  url: string;
  conexiones: number;
  segundos: number;
  maximo: number;
  cabeceras: Record<string, string>;
  /** POSTs of «Nuevo gasto» to `path`; `campos` go into every form besides the generated ones. */
  crear?: { path: string; fecha: string; proveedorId: string; campos: Record<string, string> };
};

/** What carga.mjs prints: counts, latencies (ms) and status codes of the measured run. */
export type Carga = {
  peticiones: number;
  segundos: number;
  rps: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  maxima: number | null;
  codigos: Record<string, number>;
  erroresConexion: number;
  sinRespuesta: number;
  timeouts: number;
  bytesPorRespuesta: number;
};

/** One run; `empieza` is called once its warm-up is over, when the measured part starts. */
export function correrCarga(config: ConfigDeCarga, empieza: () => void = () => {}): Promise<Carga> {
  return new Promise((resolve, reject) => {
    const hijo = spawn(process.execPath, [CARGA, JSON.stringify(config)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let midiendo = false;
    hijo.stdout.on("data", (c: Buffer) => (out += c));
    hijo.stderr.on("data", (c: Buffer) => {
      err += c;
      if (!midiendo && err.includes("#midiendo\n")) {
        midiendo = true;
        err = err.replace("#midiendo\n", "");
        empieza();
      }
    });
    // A server that stops answering must not hold the bench forever.
    const limite = setTimeout(() => hijo.kill("SIGKILL"), (config.segundos + 60) * 1000);
    hijo.on("exit", (code) => {
      clearTimeout(limite);
      if (code !== 0) return reject(new Error(`carga.mjs terminó con ${code}: ${err}`));
      resolve(JSON.parse(out) as Carga);
    });
  });
}
