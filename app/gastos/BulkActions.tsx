import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { GastoAConfirmar } from "./workflow.server";
import { cuenta, plural } from "~/lib/plural";
import { formatMoney, fromCents } from "~/lib/money";

/**
 * Bulk actions on the list: approve/reject (aprobadores and administradores) and mark as paid
 * (administradores, one date and reference for all). The rows' checkboxes (`seleccion`,
 * «id:version») sit in the table and join this form through the `form` attribute, so it is one
 * plain HTML form that works without JavaScript. «Seleccionar todos los de esta página» is a link
 * that reloads the page with every box checked (`?seleccionar=todos`); with JavaScript it checks
 * them in place, and «N seleccionados» follows every change. The motivo is a textarea, so
 * pressing Enter while typing it never submits the wrong button. «Aplicar a todos los que
 * coinciden» goes through a confirm step (`?masivo=aprobar|rechazar`, a GET) that says how many.
 * «Crear remesa» (administradores) leads to the remesa builder with the checked rows, or with
 * every approved gasto pending payment that matches the filter; the builder is its confirm step.
 */
export const BULK_FORM_ID = "acciones-masivas";

type Posted = {
  intent?: string;
  /** A refusal: Conform's reply (app/crud/en-bloque.server.ts); the selection's error is the form's. */
  result?: SubmissionResult<string[]>;
  seleccion?: string[];
  /** «Aprobar seleccionados» with warnings: the confirm step before approving. */
  confirmar?: { gastos: GastoAConfirmar[]; presupuestos: string[] };
};

type BulkData =
  | (Omit<Posted, "result"> & {
      /** The first error of each field (`seleccion`: the selection's). */
      errores?: Record<string, string>;
      /** The fields as posted, to show again. */
      valores?: Record<string, string>;
    })
  | undefined;

const INTENTS = ["aprobar_seleccion", "rechazar_seleccion", "pagar_seleccion", "remesa_seleccion", "masivo"];

export function useBulkData(): BulkData {
  const data = useActionData<Posted>();
  if (!data?.intent || !INTENTS.includes(data.intent)) return undefined;
  const { result, ...rest } = data;
  const errores = Object.fromEntries(
    Object.entries(result?.error ?? {}).flatMap(([campo, mensajes]) =>
      mensajes?.[0] ? [[campo || "seleccion", mensajes[0]]] : [],
    ),
  );
  const valores = Object.fromEntries(
    Object.entries(result?.initialValue ?? {}).flatMap(([campo, v]) => (typeof v === "string" ? [[campo, v]] : [])),
  );
  return { ...rest, errores: Object.keys(errores).length ? errores : undefined, valores };
}

const casillas = () =>
  Array.from(document.querySelectorAll<HTMLInputElement>(`input[form="${BULK_FORM_ID}"][name="seleccion"]`));

/** How many rows are checked, kept up to date as they change (JavaScript only: null before it runs). */
function useSeleccionados() {
  return useSeleccion()?.n ?? null;
}

/** The checked rows: how many and their importe in cents (each box carries its row's, `data-centimos`). */
function useSeleccion() {
  const [seleccion, setSeleccion] = useState<{ n: number; centimos: bigint } | null>(null);
  useEffect(() => {
    const update = () => {
      const marcadas = casillas().filter((c) => c.checked);
      const n = marcadas.length;
      const centimos = marcadas.reduce((t, c) => t + BigInt(c.dataset.centimos ?? "0"), 0n);
      // The same selection keeps the same state: this effect runs after every render.
      setSeleccion((antes) => (antes?.n === n && antes.centimos === centimos ? antes : { n, centimos }));
    };
    update();
    document.addEventListener("change", update);
    return () => document.removeEventListener("change", update);
  });
  return seleccion;
}

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
        <button type="submit" form={BULK_FORM_ID} name="intent" value="aprobar_seleccion">
          Aprobar seleccionados
        </button>
      ) : null}
      <a href="#masivas-titulo">Más acciones con los seleccionados</a>
    </div>
  );
}

const ERROR_ANCLA: Record<string, string> = {
  motivo: "#masivo-motivo",
  fecha_pago: "#masivo-fecha-pago",
  referencia_pago: "#masivo-referencia-pago",
};

export function BulkActions({
  aqui,
  todosHref,
  hayPendientes,
  hayAprobados,
  masivos,
  remesaTodos,
  hoy,
  locale,
  action,
}: {
  aqui: string;
  /** This page with every selectable row checked. */
  todosHref: string;
  /** Rows on this page this person may approve or reject. */
  hayPendientes: boolean;
  /** Approved rows on this page an administrador may mark as paid. */
  hayAprobados: boolean;
  /** Whether the filter can contain pendientes: only then «aprobar todos los que coinciden». */
  masivos: boolean;
  /** The remesa builder with every approved gasto pending payment of this filter (administradores), or null. */
  remesaTodos: string | null;
  hoy: string;
  locale: string;
  action?: string;
}) {
  const data = useBulkData();
  const errores = data?.intent !== "masivo" ? data?.errores : undefined;
  const seleccionados = useSeleccionados();
  const sep = aqui.includes("?") ? "&" : "?";
  const pagar = hayAprobados;
  const marcarTodos = (marcar: boolean) => (event: React.MouseEvent) => {
    event.preventDefault();
    for (const c of casillas()) c.checked = marcar;
    document.dispatchEvent(new Event("change"));
  };
  const error = (campo: string) =>
    errores?.[campo] ? (
      <p className="error-campo" id={`${ERROR_ANCLA[campo]!.slice(1)}-error`}>
        <span className="visually-hidden">Error: </span>
        {errores[campo]}
      </p>
    ) : null;
  const invalido = (campo: string) =>
    errores?.[campo]
      ? { "aria-invalid": true as const, "aria-describedby": `${ERROR_ANCLA[campo]!.slice(1)}-error` }
      : {};
  return (
    <section className="panel acciones-masivas" aria-labelledby="masivas-titulo">
      <h2 id="masivas-titulo">{pagar ? "Aprobar, rechazar o pagar varios" : "Aprobar o rechazar varios"}</h2>
      {errores ? (
        <div className="resumen-errores" role="alert" tabIndex={-1}>
          <h3>Hay {cuenta(Object.keys(errores).length, "error", "errores")}</h3>
          <ul>
            {Object.entries(errores).map(([campo, mensaje]) => (
              <li key={campo}>
                <a href={ERROR_ANCLA[campo] ?? "#tabla-gastos"}>{mensaje}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {data?.confirmar ? (
        <ConfirmSeleccion confirmar={data.confirmar} cancelar={aqui} locale={locale} action={action} />
      ) : null}
      {hayPendientes || hayAprobados ? (
        <Form method="post" id={BULK_FORM_ID} className="formulario" action={action}>
          <p className="ayuda">
            Marque los gastos en la columna «Seleccionar» de la tabla. Cada gasto se comprueba por separado.
          </p>
          <p className="seleccion-pagina">
            <Link to={todosHref} onClick={seleccionados === null ? undefined : marcarTodos(true)}>
              Seleccionar todos los de esta página
            </Link>
            {seleccionados !== null && seleccionados > 0 ? (
              <>
                {" · "}
                <a href={aqui} onClick={marcarTodos(false)}>
                  Quitar la selección
                </a>
              </>
            ) : null}
          </p>
          {seleccionados !== null ? (
            <p className="seleccionados" aria-live="polite">
              {cuenta(seleccionados, "seleccionado", "seleccionados")}
            </p>
          ) : null}
          {hayPendientes ? (
            <fieldset>
              <legend>Aprobar o rechazar</legend>
              <div className={`campo${errores?.motivo ? " campo-con-error" : ""}`}>
                <label htmlFor="masivo-motivo">Motivo del rechazo (solo para rechazar)</label>
                {error("motivo")}
                <textarea
                  id="masivo-motivo"
                  name="motivo"
                  rows={2}
                  maxLength={1000}
                  defaultValue={data?.valores?.motivo}
                  {...invalido("motivo")}
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
            </fieldset>
          ) : null}
          {pagar ? (
            <fieldset>
              <legend>Marcar como pagados (la misma fecha y referencia para todos)</legend>
              <div className={`campo${errores?.fecha_pago ? " campo-con-error" : ""}`}>
                <label htmlFor="masivo-fecha-pago">Fecha de pago</label>
                <p className="ayuda" id="masivo-fecha-pago-ayuda">
                  La fecha valor del pago; puede ser futura (como mucho dentro de un año).
                </p>
                {error("fecha_pago")}
                <input
                  type="date"
                  id="masivo-fecha-pago"
                  name="fecha_pago"
                  defaultValue={data?.valores?.fecha_pago ?? hoy}
                  {...invalido("fecha_pago")}
                  aria-describedby={[errores?.fecha_pago ? "masivo-fecha-pago-error" : "", "masivo-fecha-pago-ayuda"]
                    .filter(Boolean)
                    .join(" ")}
                />
              </div>
              <div className={`campo${errores?.referencia_pago ? " campo-con-error" : ""}`}>
                <label htmlFor="masivo-referencia-pago">Referencia de pago</label>
                {error("referencia_pago")}
                <input
                  type="text"
                  id="masivo-referencia-pago"
                  name="referencia_pago"
                  maxLength={100}
                  defaultValue={data?.valores?.referencia_pago}
                  {...invalido("referencia_pago")}
                />
              </div>
              <div className="acciones">
                <button type="submit" name="intent" value="pagar_seleccion">
                  Marcar como pagados
                </button>
              </div>
            </fieldset>
          ) : null}
          {pagar ? (
            <fieldset>
              <legend>Pagar por transferencia con una remesa SEPA</legend>
              <p className="ayuda">
                En la remesa elegirá la cuenta de cargo y la fecha de ejecución; los gastos que no puedan ir se dicen
                con su motivo.
              </p>
              <div className="acciones">
                <button type="submit" name="intent" value="remesa_seleccion" className="secundario">
                  Crear remesa con los seleccionados
                </button>
              </div>
            </fieldset>
          ) : null}
        </Form>
      ) : (
        <p>En esta página no hay gastos pendientes que pueda aprobar.</p>
      )}
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
    </section>
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
      id="seleccion-confirmar"
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
