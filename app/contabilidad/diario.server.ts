import type { AppLoadContext, TypedResponse } from "@remix-run/node";
import { requireUser, type Signed } from "~/auth/session.server";
import { forbidden } from "~/crud/respuestas.server";
import type { Store } from "~/data/store";
import type { Periodo } from "~/fiscal/periodo";
import { CSV_BOM, csvLine } from "~/lib/csv";
import {
  cabecerasDescarga,
  celdaCsv,
  celdaXlsx,
  hojaXlsx,
  totalXlsx,
  xlsxEnFlujo,
  type ColumnaDescarga,
} from "~/lib/descarga.server";
import { addDaysISO, monthRange } from "~/lib/dates";
import type { Formats } from "~/lib/format";
import { toCents } from "~/lib/money";
import { bytesAnsi, FIN_DE_LINEA, registroDiario, registroSubcuenta } from "./contaplus";
import {
  COLUMNAS_DIARIO,
  numeracionFueraDeContaPlus,
  normalizarApunte,
  normalizarResumen,
  Subcuentas,
  type Apunte,
  type ResumenDiario,
  type Subcuenta,
} from "./diario";

/** The libro diario and its files are for administradores only (docs/contabilidad.md). */
export async function requireAdministrador(request: Request, context: AppLoadContext): Promise<Signed> {
  const signed = await requireUser(request, context);
  if (signed.user.rol !== "administrador") forbidden("Solo un administrador puede ver y descargar el libro diario.");
  return signed;
}

const argumentos = (periodo: Periodo) => ({ p_desde: periodo.desde, p_hasta: periodo.hasta });

/** The period's figures, summed by the database (exact). */
export async function resumenDiario(store: Store, periodo: Periodo): Promise<ResumenDiario> {
  return normalizarResumen(await store.rpc<Record<string, unknown>>("resumen_libro_diario", argumentos(periodo)));
}

async function pagina(store: Store, periodo: Periodo, despues: number, limite: number): Promise<Apunte[]> {
  const rows = await store.rpc<Record<string, unknown>[] | null>("libro_diario", {
    ...argumentos(periodo),
    p_despues: despues,
    p_limite: limite,
  });
  return (rows ?? []).map(normalizarApunte);
}

/**
 * The first asientos of the period, whole, for the screen: up to `max` apuntes, without an
 * asiento cut in two (unless the first alone is longer). Only the first months are read.
 */
export async function primerosAsientos(store: Store, periodo: Periodo, primerAsiento = 1, max = 60): Promise<Apunte[]> {
  const apuntes: Apunte[] = [];
  for await (const leidos of paginasDiario(store, periodo, primerAsiento)) {
    apuntes.push(...leidos);
    if (apuntes.length > max) break;
  }
  if (apuntes.length <= max) return apuntes;
  const ultimo = apuntes[max]!.asiento;
  const enteros = apuntes.slice(0, max).filter((a) => a.asiento !== ultimo);
  return enteros.length ? enteros : apuntes.slice(0, max);
}

/**
 * Apuntes asked for per call. More than PostgREST usually gives (its max-rows cuts the page, and
 * the loop goes on), so that the SQL adapter, which has no cap, reads a month in one call.
 */
const PAGINA = 5000;

/** The period in calendar months (the first and last cut to the period). */
export function meses(periodo: Periodo): Periodo[] {
  const out: Periodo[] = [];
  for (let desde = periodo.desde; desde <= periodo.hasta;) {
    const fin = monthRange(desde.slice(0, 7)).to;
    const hasta = fin < periodo.hasta ? fin : periodo.hasta;
    out.push({ ...periodo, desde, hasta });
    desde = addDaysISO(fin, 1);
  }
  return out;
}

/** Times a month is read again because it changed while being read, before giving up. */
const LECTURAS_POR_MES = 3;

/**
 * The journal (or one of its files) cannot be made; `message` says why, in Spanish, to whoever
 * asked for it, with `status` (503: try again; 422: the file cannot hold it).
 */
export class DiarioNoDisponible extends Error {
  constructor(
    message: string,
    readonly status: 422 | 503,
  ) {
    super(message);
  }
}

/**
 * One month, whole and consistent: read until its last apunte (`total`), not until a short page
 * (a server that caps the rows of an answer, PostgREST's max-rows, shortens the pages but never
 * the journal). Each page says the month's digest (`huella`): if it differs from the first
 * page's, the month changed between two calls (an approval, a remesa confirmed) and the numbers
 * read so far no longer match the rest; the month is read again from its start.
 */
async function leerMes(store: Store, mes: Periodo): Promise<Apunte[]> {
  for (let intento = 0; intento < LECTURAS_POR_MES; intento++) {
    const apuntes: Apunte[] = [];
    let huella: string | null = null;
    let cambiado = false;
    for (let despues = 0; ;) {
      const leidos = await pagina(store, mes, despues, PAGINA);
      if (!leidos.length) {
        // A month that lost apuntes after its first page ends before its `total`.
        cambiado = apuntes.length > 0 && apuntes.length < apuntes[0]!.total;
        break;
      }
      huella ??= leidos[0]!.huella;
      if (leidos.some((a) => a.huella !== huella || a.total !== leidos[0]!.total)) {
        cambiado = true;
        break;
      }
      apuntes.push(...leidos);
      despues = leidos[leidos.length - 1]!.n;
      if (despues >= leidos[0]!.total) break;
    }
    if (!cambiado) return apuntes;
  }
  throw new DiarioNoDisponible(
    "Los gastos o las remesas del periodo han cambiado mientras se leía el libro diario. Vuelva a intentarlo en unos minutos.",
    503,
  );
}

/**
 * Every apunte of the period, a month at a time, each month read whole (leerMes) when the
 * previous one has been taken: no call works out more than a month, and a month is never given
 * in part or twice. Asientos are numbered by date from `primerAsiento`: a month's come after
 * the previous months', and their numbers carry on from them.
 */
export async function* paginasDiario(store: Store, periodo: Periodo, primerAsiento = 1): AsyncGenerator<Apunte[]> {
  let asientos = primerAsiento - 1;
  let apuntes = 0;
  // Months without any movement are not asked for (one cheap call says which have some).
  const conMovimientos = new Set(await store.rpc<string[]>("meses_libro_diario", argumentos(periodo)));
  for (const mes of meses(periodo)) {
    if (!conMovimientos.has(mes.desde.slice(0, 7))) continue;
    const leidos = await leerMes(store, mes);
    if (!leidos.length) continue;
    yield leidos.map((a) => ({ ...a, asiento: a.asiento + asientos, n: a.n + apuntes }));
    const fin = leidos[leidos.length - 1]!;
    asientos += fin.asiento;
    apuntes += fin.n;
  }
}

/** «libro-diario-2026-4T.xlsx». */
export function nombreArchivo(periodo: Periodo, extension: "xlsx" | "csv") {
  return `libro-diario-${periodo.clave}.${extension}`;
}

/**
 * The diario as an XLSX workbook, streamed as it is read: sheet «Diario» (a header row, frozen;
 * amounts as numbers with two decimals, dates as dates; a bold totals row whose debe and haber
 * are the exact sums, in cents) and sheet «Subcuentas» (each subcuenta the period uses, with its
 * title and NIF: what the gestoría creates before importing).
 */
export async function xlsxDiario(store: Store, periodo: Periodo, primerAsiento = 1): Promise<TypedResponse<never>> {
  const paginas = await conPrimerMes(paginasDiario(store, periodo, primerAsiento));
  return xlsxEnFlujo(nombreArchivo(periodo, "xlsx"), async (libro, descarga) => {
    const hoja = hojaXlsx(libro, "Diario", COLUMNAS_DIARIO);
    const sumas = { debe: 0n, haber: 0n };
    const subcuentas = new Subcuentas();
    let asientos = 0;
    for await (const apuntes of descarga.alRitmo(paginas)) {
      for (const a of apuntes) {
        hoja.addRow(COLUMNAS_DIARIO.map((c) => celdaXlsx(c, a))).commit();
        sumas.debe += toCents(a.debe);
        sumas.haber += toCents(a.haber);
        subcuentas.add(a);
        if (a.linea === 1) asientos++;
      }
    }
    if (descarga.cerrada) return;
    totalXlsx(hoja, COLUMNAS_DIARIO, sumas, `Total (${asientos} ${asientos === 1 ? "asiento" : "asientos"})`);
    hoja.commit();

    const hojaSubcuentas = hojaXlsx(libro, "Subcuentas", COLUMNAS_SUBCUENTAS);
    for (const s of subcuentas.list()) hojaSubcuentas.addRow(COLUMNAS_SUBCUENTAS.map((c) => celdaXlsx(c, s))).commit();
    hojaSubcuentas.commit();
  });
}

/** Each subcuenta the period uses, with its title and NIF. */
const COLUMNAS_SUBCUENTAS: readonly ColumnaDescarga<Subcuenta>[] = [
  { header: "Subcuenta", width: 11, value: (s) => s.subcuenta },
  { header: "Descripción", width: 40, value: (s) => s.titulo },
  { header: "NIF", width: 15, value: (s) => s.nif },
];

/**
 * The period read from its first month: that month is read (and, by the caller, written) before
 * the answer's 200, so what fails there — the period changing under the reading, a record the
 * file cannot hold — is said on a page instead of a cut file. A later failure errors the body:
 * the adapter then destroys the connection and the browser reports a failed download.
 */
async function conPrimerMes(paginas: AsyncGenerator<Apunte[]>): Promise<AsyncGenerator<Apunte[]>> {
  const primera = await paginas.next();
  return (async function* () {
    if (primera.done) return;
    yield primera.value;
    yield* paginas;
  })();
}

/** A streamed text file: `inicio` first, then `lineas` of each month, built for the first one before the 200. */
async function textoEnFlujo(
  paginas: AsyncGenerator<Apunte[]>,
  inicio: Uint8Array | null,
  lineas: (apuntes: Apunte[]) => Uint8Array,
): Promise<ReadableStream<Uint8Array>> {
  const primera = await paginas.next();
  const pendientes: Uint8Array[] = [];
  if (inicio) pendientes.push(inicio);
  if (!primera.done) pendientes.push(lineas(primera.value));
  let terminado = primera.done === true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const siguiente = pendientes.shift();
      if (siguiente) return controller.enqueue(siguiente);
      const leido = terminado ? null : await paginas.next();
      if (!leido || leido.done) {
        terminado = true;
        return controller.close();
      }
      controller.enqueue(lineas(leido.value));
    },
    async cancel() {
      await paginas.return(undefined);
    },
  });
}

/** The diario as CSV for a Spanish Excel (app/lib/csv.ts: BOM, `;`, CRLF, formulas neutralised). */
export async function csvDiario(
  store: Store,
  periodo: Periodo,
  formats: Formats,
  primerAsiento = 1,
): Promise<TypedResponse<never>> {
  const encoder = new TextEncoder();
  const body = await textoEnFlujo(
    paginasDiario(store, periodo, primerAsiento),
    encoder.encode(CSV_BOM + csvLine(COLUMNAS_DIARIO.map((c) => c.header))),
    (apuntes) =>
      encoder.encode(apuntes.map((a) => csvLine(COLUMNAS_DIARIO.map((c) => celdaCsv(c, a, formats)))).join("")),
  );
  return new Response(body, {
    headers: cabecerasDescarga("text/csv; charset=utf-8", nombreArchivo(periodo, "csv")),
  }) as TypedResponse<never>;
}

/** XDiario records; one ContaPlus cannot hold (a number wider than its field) says which and why. */
export function registrosXDiario(apuntes: Apunte[]): Uint8Array {
  const lineas = apuntes.map((a) => {
    try {
      return registroDiario(a) + FIN_DE_LINEA;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new DiarioNoDisponible(
        `ContaPlus no admite el apunte ${a.linea} del asiento ${a.asiento} (${a.documento}): ${error.message}. No se ha generado XDiario.txt.`,
        422,
      );
    }
  });
  return bytesAnsi(lineas.join(""));
}

/**
 * ContaPlus's XDiario.txt of the period (app/contabilidad/contaplus.ts). Numbered from a given
 * first asiento, the period's last number is checked first against ContaPlus's 6 digits.
 */
export async function xdiario(store: Store, periodo: Periodo, primerAsiento = 1): Promise<TypedResponse<never>> {
  if (primerAsiento > 1) {
    const fuera = numeracionFueraDeContaPlus(primerAsiento, (await resumenDiario(store, periodo)).asientos);
    if (fuera) throw new DiarioNoDisponible(`${fuera}. No se ha generado XDiario.txt.`, 422);
  }
  const body = await textoEnFlujo(paginasDiario(store, periodo, primerAsiento), null, registrosXDiario);
  return new Response(body, {
    headers: cabecerasDescarga("text/plain; charset=windows-1252", "XDiario.txt"),
  }) as TypedResponse<never>;
}

/**
 * ContaPlus's XSubCta.txt: the subcuentas of the period's apuntes, in order. It is small and
 * known only at the end, so the whole period is read before the answer.
 */
export async function xsubcta(store: Store, periodo: Periodo): Promise<TypedResponse<never>> {
  const subcuentas = new Subcuentas();
  for await (const apuntes of paginasDiario(store, periodo)) for (const a of apuntes) subcuentas.add(a);
  const body = bytesAnsi(
    subcuentas
      .list()
      .map((s) => registroSubcuenta(s) + FIN_DE_LINEA)
      .join(""),
  );
  return new Response(Buffer.from(body), {
    headers: cabecerasDescarga("text/plain; charset=windows-1252", "XSubCta.txt"),
  }) as TypedResponse<never>;
}
