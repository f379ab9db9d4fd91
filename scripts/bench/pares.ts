/**
 * The measuring half of the pairs (pareja.ts, and the with/without-DSN pair of `npm run bench`):
 * two running servers, loaded in turns (A B, then B A), each run counting the CPU its server used
 * per request, and PostgreSQL's; the ratio B ÷ A of each pair and their median, for node alone
 * and for node + PostgreSQL.
 */
import { correrCarga } from "./generador";
import { contadorDeCpu, procesosDePostgres, rssMiB, servidorPids, TICKS } from "./proc";

/** A server of the pair, running: its address, its primary's pid and its database's postmaster. */
export type ServidorDelPar = { nombre: string; base: string; pid: number; postmaster: number; cookie: string };

export type OpcionesDelPar = {
  rutas: string[];
  rondas: number;
  /** Rounds run first and left out of the ratios: V8 compiles a worker's hot code under load. */
  descartadas?: number;
  segundos: number;
  conexiones: number;
  aceptar: string;
};

export type ResultadoDelPar = {
  ruta: string;
  msPorPeticion: Record<string, number[]>;
  msPostgres: Record<string, number[]>;
  latencia: Record<string, { p50: number; p95: number }[]>;
  rssTrabajadorMiB: Record<string, number[]>;
  ratios: number[];
  mediana: number;
  min: number;
  max: number;
  conPostgres: { ratios: number[]; mediana: number; min: number; max: number };
};

/**
 * One autocannon run; CPU ticks of the server, and of PostgreSQL (the postmaster and its
 * processes: only this server's connections are busy while it is loaded), from the end of its
 * warm-up to its end; the worker's RSS at the end.
 */
async function cargar(s: ServidorDelPar, ruta: string, o: OpcionesDelPar) {
  const url = `${s.base}${ruta}`;
  const cabeceras = { "accept-encoding": o.aceptar, ...(s.cookie ? { cookie: s.cookie } : {}) };
  const nodo = contadorDeCpu(() => servidorPids(s.pid));
  const pg = contadorDeCpu(() => procesosDePostgres(s.postmaster));
  const r = await correrCarga({ url, conexiones: o.conexiones, segundos: o.segundos, maximo: 1e6, cabeceras }, () => {
    nodo.desde();
    pg.desde();
  });
  const [ticks, ticksPg] = [nodo.ticks(), pg.ticks()];
  const malos = Object.entries(r.codigos).filter(([c]) => !c.startsWith("2"));
  if (malos.length) throw new Error(`${url}: respuestas ${JSON.stringify(r.codigos)}`);
  return {
    p50: r.p50!,
    p95: r.p95!,
    msPorPeticion: (ticks * 1000) / TICKS / (r.peticiones || 1),
    msPostgres: (ticksPg * 1000) / TICKS / (r.peticiones || 1),
    rssTrabajador: servidorPids(s.pid)
      .slice(1)
      .reduce((t, p) => t + rssMiB(p), 0),
  };
}

export const mediana = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const r2 = (x: number) => Math.round(x * 100) / 100;
const resumen = (xs: number[]) => ({
  ratios: xs.map(r2),
  mediana: r2(mediana(xs)),
  min: r2(Math.min(...xs)),
  max: r2(Math.max(...xs)),
});

/** Loads `a` and `b` in turns on every route; `informar` gets one line per round. */
export async function parear(
  [a, b]: [ServidorDelPar, ServidorDelPar],
  o: OpcionesDelPar,
  informar: (linea: string) => void = () => {},
): Promise<ResultadoDelPar[]> {
  const servidores = [a, b];
  const resultados: ResultadoDelPar[] = [];
  for (const ruta of o.rutas) {
    const por: Record<string, number[]> = { [a.nombre]: [], [b.nombre]: [] };
    const pg: Record<string, number[]> = { [a.nombre]: [], [b.nombre]: [] };
    const latencia: Record<string, { p50: number; p95: number }[]> = { [a.nombre]: [], [b.nombre]: [] };
    const rss: Record<string, number[]> = { [a.nombre]: [], [b.nombre]: [] };
    const ratios: number[] = [];
    // Node and PostgreSQL together, per pair.
    const ratiosTotal: number[] = [];
    const descartadas = o.descartadas ?? 0;
    for (let r = 0; r < descartadas + o.rondas; r++) {
      // A B, then B A: neither always goes first.
      const orden = r % 2 === 0 ? [0, 1] : [1, 0];
      const m: number[] = [];
      const total: number[] = [];
      const medidas = [];
      for (const i of orden) {
        const x = await cargar(servidores[i]!, ruta, o);
        m[i] = x.msPorPeticion;
        total[i] = x.msPorPeticion + x.msPostgres;
        medidas.push({ nombre: servidores[i]!.nombre, x });
      }
      const descartada = r < descartadas;
      informar(
        `${ruta} ronda ${r + 1}${descartada ? " (calentamiento, no cuenta)" : ""}: node A ${r2(m[0]!)} ms/pet, B ${r2(m[1]!)} ms/pet, B÷A ${r2(m[1]! / m[0]!)} · ` +
          `node + PostgreSQL A ${r2(total[0]!)}, B ${r2(total[1]!)}, B÷A ${r2(total[1]! / total[0]!)}`,
      );
      if (descartada) continue;
      for (const { nombre, x } of medidas) {
        por[nombre]!.push(r2(x.msPorPeticion));
        pg[nombre]!.push(r2(x.msPostgres));
        latencia[nombre]!.push({ p50: x.p50, p95: x.p95 });
        rss[nombre]!.push(x.rssTrabajador);
      }
      ratios.push(m[1]! / m[0]!);
      ratiosTotal.push(total[1]! / total[0]!);
    }
    resultados.push({
      ruta,
      msPorPeticion: por,
      msPostgres: pg,
      latencia,
      rssTrabajadorMiB: rss,
      ...resumen(ratios),
      conPostgres: resumen(ratiosTotal),
    });
  }
  return resultados;
}
