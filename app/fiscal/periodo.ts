import type { Filter } from "~/data/store";
import { formatDate, formatMonthKey, monthRange, parseDateInput } from "~/lib/dates";

/**
 * The period of the libro registro de IVA, read from the screen's GET form: a quarter, a month,
 * a year or two dates. The URL is the state (a plain form, without JavaScript too); what cannot
 * be read is said per field, in the words of the form, and nothing is shown or exported then.
 */
export const TIPOS_PERIODO = [
  { value: "trimestre", label: "Un trimestre" },
  { value: "mes", label: "Un mes" },
  { value: "anio", label: "Un año" },
  { value: "fechas", label: "Entre dos fechas" },
] as const;
export type TipoPeriodo = (typeof TIPOS_PERIODO)[number]["value"];

export const TRIMESTRES = [
  { value: "1", label: "Primer trimestre (enero a marzo)", nombre: "Primer trimestre" },
  { value: "2", label: "Segundo trimestre (abril a junio)", nombre: "Segundo trimestre" },
  { value: "3", label: "Tercer trimestre (julio a septiembre)", nombre: "Tercer trimestre" },
  { value: "4", label: "Cuarto trimestre (octubre a diciembre)", nombre: "Cuarto trimestre" },
] as const;

export const MESES = [
  "enero",
  "febrero",
  "marzo",
  "abril",
  "mayo",
  "junio",
  "julio",
  "agosto",
  "septiembre",
  "octubre",
  "noviembre",
  "diciembre",
].map((nombre, i) => ({ value: String(i + 1), label: nombre }));

/** The form's values as sent (or the defaults): what the form shows again. */
export type ValoresPeriodo = {
  periodo: string;
  anio: string;
  trimestre: string;
  mes: string;
  desde: string;
  hasta: string;
};
export type CampoPeriodo = keyof ValoresPeriodo;

export type Periodo = {
  tipo: TipoPeriodo;
  desde: string;
  hasta: string;
  /** «Cuarto trimestre de 2026», «noviembre de 2026», «Año 2026», «Del 01/10/2026 al 15/11/2026». */
  titulo: string;
  /** For the file's name: «2026-4T», «2026-11», «2026», «2026-10-01_2026-11-15». */
  clave: string;
};

export type LecturaPeriodo = {
  valores: ValoresPeriodo;
  periodo: Periodo | null;
  errores: Partial<Record<CampoPeriodo, string>>;
};

const CAMPOS: readonly CampoPeriodo[] = ["periodo", "anio", "trimestre", "mes", "desde", "hasta"];

/** The store's filters of the rows whose date `column` falls between `desde` and `hasta`, both included. */
export function filtrosEntre(column: string, { desde, hasta }: { desde: string; hasta: string }): Filter[] {
  return [
    { column, op: "gte", value: desde },
    { column, op: "lte", value: hasta },
  ];
}

/** The quarter (1–4) of an ISO date. */
export function trimestreDe(iso: string): number {
  return Math.floor((Number(iso.slice(5, 7)) - 1) / 3) + 1;
}

/** First and last day of quarter `t` of `anio`. */
export function rangoTrimestre(anio: number, t: number): { desde: string; hasta: string } {
  const primero = `${String(anio).padStart(4, "0")}-${String((t - 1) * 3 + 1).padStart(2, "0")}`;
  const ultimo = `${String(anio).padStart(4, "0")}-${String(t * 3).padStart(2, "0")}`;
  return { desde: monthRange(primero).from, hasta: monthRange(ultimo).to };
}

/** The form as it first shows: this quarter (of `hoy`, or `inicial`), with this month and year ready. */
export function valoresIniciales(hoy: string, inicial: TipoPeriodo = "trimestre"): ValoresPeriodo {
  return {
    periodo: inicial,
    anio: hoy.slice(0, 4),
    trimestre: String(trimestreDe(hoy)),
    mes: String(Number(hoy.slice(5, 7))),
    desde: "",
    hasta: "",
  };
}

/**
 * Reads the period from the URL. Without any of the form's parameters it is this quarter, or the
 * `inicial` kind's current one (the screen opens with it). Only the fields the chosen kind uses
 * are checked.
 */
export function leerPeriodo(
  params: URLSearchParams,
  hoy: string,
  locale = "es-ES",
  inicial: TipoPeriodo = "trimestre",
): LecturaPeriodo {
  const enviado = CAMPOS.some((c) => params.has(c));
  const valores = valoresIniciales(hoy, inicial);
  if (enviado)
    for (const c of CAMPOS)
      valores[c] = (params.get(c) ?? "")
        // eslint-disable-next-line no-control-regex -- control characters are what it removes
        .replace(/[\u0000-\u001f\u007f]/g, " ")
        .trim()
        .slice(0, 20);
  const errores: LecturaPeriodo["errores"] = {};
  const tipo = TIPOS_PERIODO.find((t) => t.value === valores.periodo)?.value;
  if (!tipo) {
    errores.periodo = "Elija el periodo: un trimestre, un mes, un año o entre dos fechas";
    return { valores, periodo: null, errores };
  }

  if (tipo === "fechas") {
    const desde = fecha(valores.desde, "Desde", errores, "desde");
    const hasta = fecha(valores.hasta, "Hasta", errores, "hasta");
    if (!desde || !hasta) return { valores, periodo: null, errores };
    if (desde > hasta) {
      errores.hasta = "La fecha «Hasta» debe ser igual o posterior a la fecha «Desde»";
      return { valores, periodo: null, errores };
    }
    return {
      valores,
      periodo: {
        tipo,
        desde,
        hasta,
        titulo: `Del ${formatDate(desde, locale)} al ${formatDate(hasta, locale)}`,
        clave: `${desde}_${hasta}`,
      },
      errores,
    };
  }

  // The same years as the dates of «Entre dos fechas»: the last day after a period must exist too.
  const escrito = /^\d{4}$/.test(valores.anio) ? Number(valores.anio) : null;
  const anio = escrito !== null && escrito >= 2000 && escrito <= 2999 ? escrito : null;
  if (escrito === null) errores.anio = "Escriba el año con cuatro cifras, por ejemplo 2026";
  else if (anio === null) errores.anio = "Escriba un año entre 2000 y 2999";
  if (tipo === "trimestre") {
    const t = TRIMESTRES.find((x) => x.value === valores.trimestre);
    if (!t) errores.trimestre = "Elija el trimestre de la lista";
    if (anio === null || !t) return { valores, periodo: null, errores };
    return {
      valores,
      periodo: {
        tipo,
        ...rangoTrimestre(anio, Number(t.value)),
        titulo: `${t.nombre} de ${anio}`,
        clave: `${anio}-${t.value}T`,
      },
      errores,
    };
  }
  if (tipo === "mes") {
    const m = MESES.find((x) => x.value === valores.mes);
    if (!m) errores.mes = "Elija el mes de la lista";
    if (anio === null || !m) return { valores, periodo: null, errores };
    const key = `${anio}-${m.value.padStart(2, "0")}`;
    const { from, to } = monthRange(key);
    // A heading, as «Año 2026» and «Primer trimestre de 2026»: «Enero de 2026».
    const mes = formatMonthKey(key, locale, "long");
    return {
      valores,
      periodo: { tipo, desde: from, hasta: to, titulo: mes.charAt(0).toUpperCase() + mes.slice(1), clave: key },
      errores,
    };
  }
  if (anio === null) return { valores, periodo: null, errores };
  return {
    valores,
    periodo: { tipo, desde: `${anio}-01-01`, hasta: `${anio}-12-31`, titulo: `Año ${anio}`, clave: String(anio) },
    errores,
  };
}

function fecha(
  valor: string,
  etiqueta: string,
  errores: LecturaPeriodo["errores"],
  campo: "desde" | "hasta",
): string | null {
  const iso = valor ? parseDateInput(valor) : null;
  if (!iso || iso < "2000-01-01" || iso > "2999-12-31")
    errores[campo] = valor
      ? `Escriba la fecha «${etiqueta}» como una fecha real, por ejemplo 31/12/2026`
      : `Escriba la fecha «${etiqueta}», por ejemplo 31/12/2026`;
  return errores[campo] ? null : iso;
}

/** The query string of a period's form values: the export links carry the same period. */
export function periodoSearch(valores: ValoresPeriodo): string {
  const params = new URLSearchParams();
  params.set("periodo", valores.periodo);
  if (valores.periodo === "fechas") {
    params.set("desde", valores.desde);
    params.set("hasta", valores.hasta);
  } else {
    params.set("anio", valores.anio);
    if (valores.periodo === "trimestre") params.set("trimestre", valores.trimestre);
    if (valores.periodo === "mes") params.set("mes", valores.mes);
  }
  return params.toString();
}
