import { Form } from "@remix-run/react";
import { type ReactNode } from "react";
import { cuenta } from "~/lib/plural";
import { ResumenDeErrores } from "~/ui/ResumenDeErrores";
import { ErrorDeCampo } from "~/ui/ErrorDeCampo";
import { MESES, TIPOS_PERIODO, TRIMESTRES, type CampoPeriodo, type LecturaPeriodo } from "./periodo";

/**
 * The period's GET form of the books (the libro de IVA, the libro diario): a quarter, a month, a
 * year or two dates, with the error summary above it. The URL is the state; `#resultado` is where
 * the page lands after it (the summary, or else the result). The IRPF report lays out its year
 * and dates with the same field and summary.
 */
export const RESULTADO = "resultado";

const ETIQUETAS: Record<CampoPeriodo, string> = {
  periodo: "Periodo",
  anio: "Año",
  trimestre: "Trimestre",
  mes: "Mes",
  desde: "Desde",
  hasta: "Hasta",
};

type Errores = LecturaPeriodo["errores"];

/** A field of one book's own after the period's (the libro diario's first asiento number). */
export type CampoExtra = {
  name: string;
  etiqueta: string;
  ayuda: string;
  valor: string;
  error: string | null;
  inputMode?: "numeric";
  maxLength?: number;
};

export function FormularioPeriodo({
  action,
  prefijo,
  boton,
  valores,
  errores,
  extra,
}: {
  action: string;
  /** The fields' ids: «libro-anio», «diario-anio». */
  prefijo: string;
  boton: string;
  valores: LecturaPeriodo["valores"];
  errores: Errores;
  extra?: CampoExtra;
}) {
  const idCampo = (c: CampoPeriodo) => (c === "periodo" ? "periodo-trimestre" : `${prefijo}-${c}`);
  const idExtra = extra ? `${prefijo}-${extra.name}` : "";
  const lista = enlacesDeErrores(errores, idCampo);
  if (extra?.error) lista.push([idExtra, extra.error]);
  // A new form (a new verdict) renders the fields again with what was sent.
  const clave = JSON.stringify([valores, extra?.valor]);
  const campo = (c: CampoPeriodo, ayuda: string, control: (props: PropsControl) => ReactNode) => (
    <CampoDelPeriodo campo={c} id={idCampo(c)} errores={errores} ayuda={ayuda}>
      {control}
    </CampoDelPeriodo>
  );
  return (
    <>
      <ResumenDelPeriodo errores={lista} prefijo={prefijo} soloElPeriodo={!extra?.error} />
      <Form method="get" action={`${action}#${RESULTADO}`} className="formulario" key={clave}>
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
        {campo("anio", "Para un trimestre, un mes o un año.", (props) => (
          <input {...props} type="text" inputMode="numeric" maxLength={4} defaultValue={valores.anio} />
        ))}
        {campo("trimestre", "Si el periodo es un trimestre.", seleccion(TRIMESTRES, valores.trimestre))}
        {campo("mes", "Si el periodo es un mes.", seleccion(MESES, valores.mes))}
        {campo("desde", "Si el periodo es entre dos fechas: la primera, incluida.", (props) => (
          <input {...props} type="date" defaultValue={valores.desde} />
        ))}
        {campo("hasta", "Si el periodo es entre dos fechas: la última, incluida.", (props) => (
          <input {...props} type="date" defaultValue={valores.hasta} />
        ))}
        {extra ? (
          <div className={extra.error ? "campo campo-con-error" : "campo"}>
            <label htmlFor={idExtra}>{extra.etiqueta}</label>
            <p className="ayuda" id={`${extra.name}-ayuda`}>
              {extra.ayuda}
            </p>
            <ErrorDeCampo id={`${extra.name}-error`}>{extra.error}</ErrorDeCampo>
            <input
              id={idExtra}
              name={extra.name}
              type="text"
              inputMode={extra.inputMode}
              maxLength={extra.maxLength}
              defaultValue={extra.valor}
              aria-describedby={extra.error ? `${extra.name}-ayuda ${extra.name}-error` : `${extra.name}-ayuda`}
              aria-invalid={extra.error ? true : undefined}
            />
          </div>
        ) : null}
        <div className="acciones">
          <button type="submit">{boton}</button>
        </div>
      </Form>
    </>
  );
}

/** The summary's lines: each error with the id of the field it links to. */
export function enlacesDeErrores(errores: Errores, idCampo: (c: CampoPeriodo) => string): [string, string][] {
  return (Object.entries(errores) as [CampoPeriodo, string][]).map(([c, m]) => [idCampo(c), m]);
}

export type PropsControl = { id: string; name: string; "aria-describedby"?: string; "aria-invalid"?: true };

/** A field's select of one of `opciones` (the quarters, the months). */
const seleccion = (opciones: readonly { value: string; label: string }[], valor: string) => (props: PropsControl) => (
  <select {...props} defaultValue={valor}>
    {opciones.map((o) => (
      <option key={o.value} value={o.value}>
        {o.label}
      </option>
    ))}
  </select>
);

function ErrorCampo({ campo, errores }: { campo: CampoPeriodo; errores: Errores }) {
  return <ErrorDeCampo id={`${campo}-error`}>{errores[campo]}</ErrorDeCampo>;
}

/**
 * One field of a period's form, with its error beside it; `children` draws the control (another
 * book's form lays the fields out its own way, the IRPF report's).
 */
export function CampoDelPeriodo({
  campo,
  id,
  errores,
  ayuda,
  children,
}: {
  campo: CampoPeriodo;
  id: string;
  errores: Errores;
  ayuda?: string;
  children: (props: PropsControl) => ReactNode;
}) {
  const error = errores[campo];
  const describe = [ayuda ? `${campo}-ayuda` : "", error ? `${campo}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className={error ? "campo campo-con-error" : "campo"}>
      <label htmlFor={id}>{ETIQUETAS[campo]}</label>
      {ayuda ? (
        <p className="ayuda" id={`${campo}-ayuda`}>
          {ayuda}
        </p>
      ) : null}
      <ErrorCampo campo={campo} errores={errores} />
      {children({
        id,
        name: campo,
        ...(describe ? { "aria-describedby": describe } : {}),
        ...(error ? { "aria-invalid": true as const } : {}),
      })}
    </div>
  );
}

/**
 * What could not be read, GOV.UK style, as the lists' filters say it: a summary linking to each
 * field, focused when it appears (without JavaScript, the form's `#resultado` does it).
 */
export function ResumenDelPeriodo({
  errores,
  prefijo,
  soloElPeriodo = true,
}: {
  errores: [string, string][];
  prefijo: string;
  /** False when a field besides the period's is wrong too (the diario's first asiento). */
  soloElPeriodo?: boolean;
}) {
  if (errores.length === 0) return null;
  return (
    <ResumenDeErrores
      id={RESULTADO}
      tituloId={`${prefijo}-errores-titulo`}
      titulo={
        <>
          Hay {cuenta(errores.length, "error", "errores")}
          {soloElPeriodo ? " en el periodo" : ""}
        </>
      }
      firma={JSON.stringify(errores)}
    >
      <ul>
        {errores.map(([id, mensaje]) => (
          <li key={id}>
            <a href={`#${id}`}>{mensaje}</a>
          </li>
        ))}
      </ul>
    </ResumenDeErrores>
  );
}
