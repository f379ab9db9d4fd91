import { Form, Link, useActionData } from "@remix-run/react";
import { cuenta, plural } from "~/lib/plural";

/**
 * Bulk approve/reject for approvers. The rows' checkboxes (`seleccion`, «id:version») sit in the
 * table and join this form through the `form` attribute, so it is one plain HTML form that
 * works without JavaScript. The motivo is a textarea, so pressing Enter while typing it never
 * submits the wrong button. «Aplicar a todos los que coinciden» goes through a confirm step
 * (`?masivo=aprobar|rechazar`, a GET) that says how many.
 */
export const BULK_FORM_ID = "acciones-masivas";

type BulkData =
  { intent?: string; errores?: Record<string, string>; seleccion?: string[]; motivo?: string } | undefined;

export function useBulkData(): BulkData {
  const data = useActionData<BulkData>();
  return data?.intent === "aprobar_seleccion" || data?.intent === "rechazar_seleccion" || data?.intent === "masivo"
    ? data
    : undefined;
}

export function BulkActions({
  aqui,
  hayPendientes,
  action,
}: {
  aqui: string;
  hayPendientes: boolean;
  action?: string;
}) {
  const data = useBulkData();
  const errores = data?.intent !== "masivo" ? data?.errores : undefined;
  const sep = aqui.includes("?") ? "&" : "?";
  return (
    <section className="panel acciones-masivas" aria-labelledby="masivas-titulo">
      <h2 id="masivas-titulo">Aprobar o rechazar varios</h2>
      {errores ? (
        <div className="resumen-errores" role="alert" tabIndex={-1}>
          <h3>Hay {cuenta(Object.keys(errores).length, "error", "errores")}</h3>
          <ul>
            {Object.entries(errores).map(([campo, mensaje]) => (
              <li key={campo}>
                <a href={campo === "motivo" ? "#masivo-motivo" : "#tabla-gastos"}>{mensaje}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {hayPendientes ? (
        <Form method="post" id={BULK_FORM_ID} className="formulario" action={action}>
          <p className="ayuda">
            Marque los gastos en la columna «Seleccionar» de la tabla. Cada gasto se comprueba por separado.
          </p>
          <div className={`campo${errores?.motivo ? " campo-con-error" : ""}`}>
            <label htmlFor="masivo-motivo">Motivo del rechazo (solo para rechazar)</label>
            {errores?.motivo ? (
              <p className="error-campo" id="masivo-motivo-error">
                <span className="visually-hidden">Error: </span>
                {errores.motivo}
              </p>
            ) : null}
            <textarea
              id="masivo-motivo"
              name="motivo"
              rows={2}
              maxLength={1000}
              defaultValue={data?.motivo}
              aria-invalid={errores?.motivo ? true : undefined}
              aria-describedby={errores?.motivo ? "masivo-motivo-error" : undefined}
            />
          </div>
          <div className="acciones">
            <button type="submit" name="intent" value="aprobar_seleccion">
              Aprobar seleccionados
            </button>
            <button type="submit" name="intent" value="rechazar_seleccion" className="peligro">
              Rechazar seleccionados
            </button>
          </div>
        </Form>
      ) : (
        <p>En esta página no hay gastos pendientes que pueda aprobar.</p>
      )}
      <p>
        O bien, a todos los pendientes que coinciden con el filtro:{" "}
        <Link to={`${aqui}${sep}masivo=aprobar#masivo-confirmar`}>aprobar todos…</Link> ·{" "}
        <Link to={`${aqui}${sep}masivo=rechazar#masivo-confirmar`}>rechazar todos…</Link>
      </p>
    </section>
  );
}

/** The confirm step of «aplicar a todos los que coinciden con el filtro»: how many, then one POST. */
export function ConfirmMasivo({
  masivo,
  cancelar,
  locale,
  action,
}: {
  masivo: { accion: "aprobar" | "rechazar"; total: number; estimado: boolean; maximo: number };
  cancelar: string;
  locale: string;
  action?: string;
}) {
  const data = useBulkData();
  const error = data?.intent === "masivo" ? data.errores?.motivo : undefined;
  const verbo = masivo.accion === "aprobar" ? "aprobar" : "rechazar";
  const n = masivo.total.toLocaleString(locale);
  return (
    <section id="masivo-confirmar" className="confirmar" aria-labelledby="masivo-titulo" tabIndex={-1}>
      <h2 id="masivo-titulo">
        ¿{verbo.charAt(0).toUpperCase() + verbo.slice(1)} {masivo.estimado ? `unos ${n}` : n}{" "}
        {plural(masivo.total, "gasto pendiente que coincide", "gastos pendientes que coinciden")} con el filtro?
      </h2>
      {masivo.total === 0 ? (
        <p>
          Ningún gasto pendiente que usted pueda aprobar coincide con el filtro.{" "}
          <Link to={cancelar}>Volver a la lista</Link>
        </p>
      ) : (
        <>
          <p>
            Solo los pendientes de aprobación que no son suyos.
            {masivo.total > masivo.maximo
              ? ` Se aplicará a los ${masivo.maximo.toLocaleString(locale)} primeros en el orden de la lista; repita para el resto.`
              : ""}{" "}
            Cada gasto se comprueba por separado y al terminar verá cuántos se hicieron y cuáles no, y por qué.
          </p>
          <Form method="post" className="formulario" action={action}>
            <input type="hidden" name="intent" value="masivo" />
            <input type="hidden" name="accion" value={masivo.accion} />
            {masivo.accion === "rechazar" ? (
              <div className={`campo${error ? " campo-con-error" : ""}`}>
                <label htmlFor="masivo-todos-motivo">
                  Motivo del rechazo <span className="obligatorio">(obligatorio)</span>
                </label>
                {error ? (
                  <p className="error-campo" id="masivo-todos-motivo-error" role="alert">
                    <span className="visually-hidden">Error: </span>
                    {error}
                  </p>
                ) : null}
                <textarea
                  id="masivo-todos-motivo"
                  name="motivo"
                  rows={2}
                  maxLength={1000}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? "masivo-todos-motivo-error" : undefined}
                />
              </div>
            ) : null}
            <div className="acciones">
              <button type="submit" className={masivo.accion === "rechazar" ? "peligro" : undefined}>
                Sí, {verbo}{" "}
                {masivo.total > masivo.maximo ? `los ${masivo.maximo.toLocaleString(locale)} primeros` : "todos"}
              </button>
              <Link to={cancelar}>Cancelar</Link>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}
