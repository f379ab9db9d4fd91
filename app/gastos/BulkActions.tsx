import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { BulkAction } from "~/entities/entity";
import { gastos } from "~/entities/gastos";
import type { GastoAConfirmar } from "./workflow.server";
import { cuenta, plural } from "~/lib/plural";
import { formatMoney, fromCents } from "~/lib/money";
import { AccionesEnBloque, EN_BLOQUE_FORM, EN_BLOQUE_RESPUESTA, useSeleccion } from "~/ui/AccionesEnBloque";
import { ErrorDeCampo } from "~/ui/ErrorDeCampo";

/**
 * The list's bulk actions (the entity's, drawn by AccionesEnBloque): send one's drafts,
 * approve/reject (aprobadores and administradores) and mark as paid (administradores, one date and
 * reference for all), and what only gastos have: the confirm step before approving rows with
 * warnings, «Crear remesa» (administradores) to the remesa builder with the checked rows or with
 * every approved gasto pending payment that matches the filter (the builder is its confirm step),
 * and «aplicar a todos los que coinciden», whose confirm step (`?masivo=aprobar|rechazar`, a GET)
 * says how many.
 */
type Posted = {
  intent?: string;
  /** A refusal: Conform's reply (app/crud/en-bloque.server.ts). */
  result?: SubmissionResult<string[]>;
  /** «Aprobar seleccionados» with warnings: the confirm step before approving. */
  confirmar?: { gastos: GastoAConfirmar[]; presupuestos: string[] };
};

/**
 * With JavaScript, while rows are checked: a bar held at the bottom of the window as the table
 * scrolls («3 seleccionados · 123,45 €»), with «Aprobar seleccionados» and a link to every other
 * bulk action; it comes to rest after the table, above them. Placed right after the table, in its
 * container, so that it sticks only while the table is in view. Without JavaScript the actions
 * are where they always are, after the table.
 */
export function BarraSeleccion({ aprobar, locale }: { aprobar: boolean; locale: string }) {
  const seleccion = useSeleccion();
  if (!seleccion || seleccion.n === 0) return null;
  return (
    <div className="barra-seleccion" role="region" aria-label="Gastos seleccionados">
      <p>
        <strong>{cuenta(seleccion.n, "seleccionado", "seleccionados")}</strong> ·{" "}
        {formatMoney(fromCents(seleccion.centimos), locale)}
      </p>
      {aprobar ? (
        <button type="submit" form={EN_BLOQUE_FORM} name="intent" value="aprobar_seleccion">
          Aprobar seleccionados
        </button>
      ) : null}
      <a href={`#${EN_BLOQUE_FORM}-titulo`}>Más acciones con los seleccionados</a>
    </div>
  );
}

export function BulkActions({
  acciones,
  aqui,
  todosHref,
  masivos,
  remesaTodos,
  hoy,
  locale,
  action,
}: {
  /** The bulk actions this person may take on the rows of this page. */
  acciones: readonly BulkAction[];
  aqui: string;
  /** This page with every selectable row checked. */
  todosHref: string;
  /** Whether the filter can contain pendientes: only then «aprobar todos los que coinciden». */
  masivos: boolean;
  /** The remesa builder with every approved gasto pending payment of this filter (administradores), or null. */
  remesaTodos: string | null;
  hoy: string;
  locale: string;
  action?: string;
}) {
  const data = useActionData<Posted>();
  const sep = aqui.includes("?") ? "&" : "?";
  const pagar = acciones.some((a) => a.intent === "pagar_seleccion");
  // One's own drafts: «Enviar varios a aprobación»; with others to approve too, the default title.
  const enviar = acciones.some((a) => a.intent === "enviar_seleccion");
  // Named for what this page's rows allow: approved ones only (a view of what is to pay), paying.
  const aprobar = acciones.some((a) => a.intent === "aprobar_seleccion");
  const titulo = enviar
    ? acciones.length === 1
      ? "Enviar varios a aprobación"
      : undefined
    : pagar
      ? aprobar
        ? "Aprobar, rechazar o pagar varios"
        : "Pagar varios"
      : "Aprobar o rechazar varios";
  return (
    <AccionesEnBloque
      entity={gastos}
      acciones={acciones}
      action={action}
      aqui={aqui}
      todosHref={todosHref}
      titulo={titulo}
      otros={["remesa_seleccion"]}
      defaultValue={{ fecha_pago: hoy }}
      vacio={<p>En esta página no hay gastos pendientes que pueda aprobar.</p>}
      antes={
        data?.confirmar ? (
          <ConfirmSeleccion confirmar={data.confirmar} cancelar={aqui} locale={locale} action={action} />
        ) : null
      }
      pie={
        <>
          {remesaTodos ? (
            <p>
              Con todos los aprobados pendientes de pago que coinciden con el filtro:{" "}
              <Link to={remesaTodos}>crear remesa con todos los que coinciden…</Link>
            </p>
          ) : null}
          {masivos ? (
            <p>
              O bien, a todos los pendientes que coinciden con el filtro:{" "}
              <Link to={`${aqui}${sep}masivo=aprobar#masivo-confirmar`}>aprobar todos…</Link> ·{" "}
              <Link to={`${aqui}${sep}masivo=rechazar#masivo-confirmar`}>rechazar todos…</Link>
            </p>
          ) : null}
        </>
      }
    >
      {pagar ? (
        <fieldset>
          <legend>Pagar por transferencia con una remesa SEPA</legend>
          <p className="ayuda">
            En la remesa elegirá la cuenta de cargo y la fecha de ejecución; los gastos que no puedan ir se dicen con su
            motivo.
          </p>
          <div className="acciones">
            <button type="submit" name="intent" value="remesa_seleccion" className="secundario">
              Crear remesa con los seleccionados
            </button>
          </div>
        </fieldset>
      ) : null}
    </AccionesEnBloque>
  );
}

/**
 * The confirm step of «Aprobar seleccionados» when a checked row carries a warning (no receipt,
 * out of policy, a department's month budget passed): each row's, then the budgets in euros,
 * then «Sí, aprobar» the lot, or only those without warnings. Each button posts the rows again
 * with `confirmado`; the list keeps them checked meanwhile.
 */
function ConfirmSeleccion({
  confirmar,
  cancelar,
  locale,
  action,
}: {
  confirmar: { gastos: GastoAConfirmar[]; presupuestos: string[] };
  cancelar: string;
  locale: string;
  action?: string;
}) {
  const ref = useRef<HTMLElement>(null);
  // With JavaScript the page does not reload: the step takes the focus, as a new page's anchor would.
  useEffect(() => ref.current?.focus(), [confirmar]);
  const conAvisos = confirmar.gastos.filter((g) => g.avisos.length > 0);
  const sinAvisos = confirmar.gastos.filter((g) => g.avisos.length === 0);
  const total = confirmar.gastos.length;
  const ocultos = (gastos: GastoAConfirmar[]) => (
    <>
      <input type="hidden" name="intent" value="aprobar_seleccion" />
      <input type="hidden" name="confirmado" value="1" />
      {gastos.map((g) => (
        <input key={g.valor} type="hidden" name="seleccion" value={g.valor} />
      ))}
    </>
  );
  return (
    <section
      id={EN_BLOQUE_RESPUESTA}
      className="confirmar"
      aria-labelledby="seleccion-confirmar-titulo"
      tabIndex={-1}
      ref={ref}
    >
      <h3 id="seleccion-confirmar-titulo">
        ¿Aprobar {total === 1 ? "el gasto seleccionado" : `los ${total} gastos seleccionados`}?
      </h3>
      <div className="aviso aviso-aviso">
        <p>Antes de aprobar:</p>
        <ul>
          {conAvisos.map((g) => (
            <li key={g.valor}>
              <strong>{g.folio}</strong> ({formatMoney(g.importe, locale)}): {g.avisos.join(" ")}
            </li>
          ))}
          {confirmar.presupuestos.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      </div>
      <div className="acciones">
        <Form method="post" action={action}>
          {ocultos(confirmar.gastos)}
          <button type="submit">{total === 1 ? "Sí, aprobarlo" : `Sí, aprobar los ${total}`}</button>
        </Form>
        {sinAvisos.length > 0 ? (
          <Form method="post" action={action}>
            {ocultos(sinAvisos)}
            <button type="submit" className="secundario">
              {sinAvisos.length === 1
                ? "Aprobar solo el que no tiene avisos"
                : `Aprobar solo los ${sinAvisos.length} sin avisos`}
            </button>
          </Form>
        ) : null}
        <Link to={cancelar}>Cancelar</Link>
      </div>
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
  masivo: {
    accion: "aprobar" | "rechazar";
    total: number;
    estimado: boolean;
    maximo: number;
    fueraDePolitica: number;
    presupuestos: string[];
  };
  cancelar: string;
  locale: string;
  action?: string;
}) {
  const data = useActionData<Posted>();
  const error = data?.intent === "masivo" ? data.result?.error?.motivo?.[0] : undefined;
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
          {masivo.fueraDePolitica > 0 || masivo.presupuestos.length > 0 ? (
            <div className="aviso aviso-aviso">
              <p>Antes de aprobar:</p>
              <ul>
                {masivo.fueraDePolitica > 0 ? (
                  <li>
                    {masivo.fueraDePolitica.toLocaleString(locale)} de los {n}{" "}
                    {masivo.fueraDePolitica === 1 ? "se sale" : "se salen"} de la política de gastos: se enviaron con un
                    motivo, que puede leer en cada uno (filtro «Fuera de política»).
                  </li>
                ) : null}
                {masivo.presupuestos.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <Form method="post" className="formulario" action={action}>
            <input type="hidden" name="intent" value="masivo" />
            <input type="hidden" name="accion" value={masivo.accion} />
            {masivo.accion === "rechazar" ? (
              <div className={`campo${error ? " campo-con-error" : ""}`}>
                <label htmlFor="masivo-todos-motivo">
                  Motivo del rechazo <span className="obligatorio">(obligatorio)</span>
                </label>
                <ErrorDeCampo id="masivo-todos-motivo-error" role="alert">
                  {error}
                </ErrorDeCampo>
                <textarea
                  id="masivo-todos-motivo"
                  name="motivo"
                  rows={2}
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
