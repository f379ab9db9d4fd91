import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { formats } from "~/crud/crud.server";
import { LIBRO_IVA_PATH } from "~/fiscal/enlaces";
import { requireAdministrador, resumenLibro } from "~/fiscal/libro.server";
import {
  MESES,
  TIPOS_PERIODO,
  TRIMESTRES,
  leerPeriodo,
  periodoSearch,
  type CampoPeriodo,
  type LecturaPeriodo,
} from "~/fiscal/periodo";
import { formatDate, todayISO } from "~/lib/dates";
import { formatMoney, subtractMoney } from "~/lib/money";
import { cuenta } from "~/lib/plural";
import { pageTitle, useFormats } from "~/ui/page";

/**
 * `/libro-iva` — the libro registro de facturas recibidas for a period (docs/producto.md «Datos
 * fiscales»), for administradores: a GET form (a quarter, a month, a year or two dates), the
 * period's lines and totals, and the links that download it (`/libro-iva/exportar`).
 */
const PATH = LIBRO_IVA_PATH;
/** Where the page lands after the form: the error summary, or else the result. */
const RESULTADO = "resultado";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { store } = await requireAdministrador(request, context);
  const f = formats(context);
  const lectura = leerPeriodo(new URL(request.url).searchParams, todayISO(), f.locale);
  const resumen = lectura.periodo ? await resumenLibro(store, lectura.periodo) : null;
  return { ...lectura, resumen, search: lectura.periodo ? periodoSearch(lectura.valores) : null };
}

const ETIQUETAS: Record<CampoPeriodo, string> = {
  periodo: "Periodo",
  anio: "Año",
  trimestre: "Trimestre",
  mes: "Mes",
  desde: "Desde",
  hasta: "Hasta",
};
const idCampo = (c: CampoPeriodo) => (c === "periodo" ? "periodo-trimestre" : `libro-${c}`);

export default function LibroIva() {
  const { valores, periodo, errores, resumen, search } = useLoaderData<typeof loader>();
  const f = useFormats();
  const dinero = (v: string) => formatMoney(v, f.locale, f.currency);
  const lista = Object.entries(errores) as [CampoPeriodo, string][];
  // A new form (a new verdict) renders the fields again with what was sent.
  const clave = JSON.stringify(valores);
  return (
    <>
      <h1>Libro registro de facturas recibidas</h1>
      <p className="intro">
        Las facturas y tickets de los gastos aprobados y pagados, con una línea por factura y tipo de IVA, en las
        columnas del libro registro de IVA de la Agencia Tributaria. El periodo se cuenta por la fecha de la operación
        (la fecha del gasto).
      </p>
      <ResumenErrores errores={lista} />
      <Form method="get" action={`${PATH}#${RESULTADO}`} className="formulario" key={clave}>
        <fieldset
          className={errores.periodo ? "campo campo-con-error" : "campo"}
          aria-describedby={errores.periodo ? "periodo-error" : undefined}
        >
          <legend>Periodo</legend>
          <ErrorCampo campo="periodo" errores={errores} />
          {TIPOS_PERIODO.map((t) => (
            <label key={t.value} className="campo-casilla">
              <input
                type="radio"
                name="periodo"
                id={`periodo-${t.value}`}
                value={t.value}
                defaultChecked={valores.periodo === t.value}
              />{" "}
              {t.label}
            </label>
          ))}
        </fieldset>
        <Campo campo="anio" errores={errores} ayuda="Para un trimestre, un mes o un año.">
          {(props) => <input {...props} type="text" inputMode="numeric" maxLength={4} defaultValue={valores.anio} />}
        </Campo>
        <Campo campo="trimestre" errores={errores} ayuda="Si el periodo es un trimestre.">
          {(props) => (
            <select {...props} defaultValue={valores.trimestre}>
              {TRIMESTRES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Campo>
        <Campo campo="mes" errores={errores} ayuda="Si el periodo es un mes.">
          {(props) => (
            <select {...props} defaultValue={valores.mes}>
              {MESES.map((m) => (
                <option key={m.value} value={m.value}>
                  {m.label}
                </option>
              ))}
            </select>
          )}
        </Campo>
        <Campo campo="desde" errores={errores} ayuda="Si el periodo es entre dos fechas: la primera, incluida.">
          {(props) => <input {...props} type="date" defaultValue={valores.desde} />}
        </Campo>
        <Campo campo="hasta" errores={errores} ayuda="Si el periodo es entre dos fechas: la última, incluida.">
          {(props) => <input {...props} type="date" defaultValue={valores.hasta} />}
        </Campo>
        <div className="acciones">
          <button type="submit">Ver el libro</button>
        </div>
      </Form>
      {periodo && resumen && search ? (
        <section id={RESULTADO} tabIndex={-1} aria-labelledby="resultado-titulo">
          <h2 id="resultado-titulo">{periodo.titulo}</h2>
          <p>
            Del {formatDate(periodo.desde, f.locale)} al {formatDate(periodo.hasta, f.locale)}, por fecha de la
            operación: <strong>{cuenta(resumen.lineas, "línea", "líneas", f.locale)}</strong> (una por factura y tipo de
            IVA).
          </p>
          {resumen.lineas === 0 ? <p>No hay gastos aprobados ni pagados con fecha en este periodo.</p> : null}
          <div className="tabla-contenedor">
            <table>
              <caption>Totales del periodo</caption>
              <tbody>
                <Fila etiqueta="Base imponible" valor={dinero(resumen.sumas.base_imponible)} />
                <Fila etiqueta="Cuota de IVA soportado" valor={dinero(resumen.sumas.cuota_soportada)} />
                <Fila etiqueta="Cuota deducible" valor={dinero(resumen.sumas.cuota_deducible)} />
                <Fila
                  etiqueta="Cuota no deducible"
                  valor={dinero(subtractMoney(resumen.sumas.cuota_soportada, resumen.sumas.cuota_deducible))}
                />
                <Fila etiqueta="Total de las facturas" valor={dinero(resumen.sumas.total)} />
              </tbody>
            </table>
          </div>
          <p className="acciones">
            <a className="boton" href={`${PATH}/exportar?${search}&formato=xlsx`}>
              Descargar en Excel (XLSX)
            </a>{" "}
            <a href={`${PATH}/exportar?${search}&formato=csv`}>Descargar en CSV</a>
          </p>
        </section>
      ) : null}
    </>
  );
}

function Fila({ etiqueta, valor }: { etiqueta: string; valor: string }) {
  return (
    <tr>
      <th scope="row">{etiqueta}</th>
      <td className="numero">{valor}</td>
    </tr>
  );
}

type Errores = LecturaPeriodo["errores"];

function ErrorCampo({ campo, errores }: { campo: CampoPeriodo; errores: Errores }) {
  const error = errores[campo];
  if (!error) return null;
  return (
    <p className="error-campo" id={`${campo}-error`}>
      <span className="visually-hidden">Error: </span>
      {error}
    </p>
  );
}

function Campo({
  campo,
  errores,
  ayuda,
  children,
}: {
  campo: CampoPeriodo;
  errores: Errores;
  ayuda: string;
  children: (props: { id: string; name: string; "aria-describedby": string; "aria-invalid"?: true }) => ReactNode;
}) {
  const error = errores[campo];
  return (
    <div className={error ? "campo campo-con-error" : "campo"}>
      <label htmlFor={idCampo(campo)}>{ETIQUETAS[campo]}</label>
      <p className="ayuda" id={`${campo}-ayuda`}>
        {ayuda}
      </p>
      <ErrorCampo campo={campo} errores={errores} />
      {children({
        id: idCampo(campo),
        name: campo,
        "aria-describedby": error ? `${campo}-ayuda ${campo}-error` : `${campo}-ayuda`,
        ...(error ? { "aria-invalid": true as const } : {}),
      })}
    </div>
  );
}

/**
 * What could not be read, GOV.UK style, as the lists' filters say it: a summary linking to each
 * field, focused when it appears (without JavaScript, the form's `#resultado` does it).
 */
function ResumenErrores({ errores }: { errores: [CampoPeriodo, string][] }) {
  const ref = useRef<HTMLDivElement>(null);
  const firma = JSON.stringify(errores);
  useEffect(() => {
    if (errores.length > 0) ref.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new verdict, not every render
  }, [firma]);
  if (errores.length === 0) return null;
  return (
    <div
      className="resumen-errores"
      id={RESULTADO}
      role="alert"
      aria-labelledby="libro-errores-titulo"
      tabIndex={-1}
      ref={ref}
    >
      <h2 id="libro-errores-titulo">Hay {cuenta(errores.length, "error", "errores")} en el periodo</h2>
      <ul>
        {errores.map(([campo, mensaje]) => (
          <li key={campo}>
            <a href={`#${idCampo(campo)}`}>{mensaje}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export const meta: MetaFunction = () => pageTitle("Libro registro de facturas recibidas");
