import { useActionData, useRouteLoaderData } from "@remix-run/react";
import type { JustificanteVista } from "./Justificantes";

/** The send form's field when a receipt of the gasto is also on another one (enviar_gasto asks). */
export const CAMPO_MOTIVO_DUPLICADO = "motivo_duplicado";

type Enviado = { intent?: string; result?: { error?: Record<string, string[] | null> | null; initialValue?: unknown } };

/**
 * «Motivo del duplicado», inside the «Enviar a aprobación» form: shown when the panel marks a
 * receipt as also attached to another gasto, or when the database refused the send for that
 * reason (the other gasto may be one this person cannot see). Required there; the database
 * checks it again and writes it to the gasto's history. A plain textarea: works without JS.
 */
export function MotivoDuplicado() {
  const data = useRouteLoaderData<{ panel?: { justificantes?: JustificanteVista[] } }>("routes/gastos._index");
  const enviado = useActionData<Enviado>();
  const devuelto = enviado?.intent === "enviar" ? enviado.result : undefined;
  const error = devuelto?.error?.[CAMPO_MOTIVO_DUPLICADO]?.[0];
  const marcado = data?.panel?.justificantes?.some((j) => j.duplicado) ?? false;
  if (!marcado && !error) return null;
  const previo = (devuelto?.initialValue as Record<string, unknown> | undefined)?.[CAMPO_MOTIVO_DUPLICADO];
  // The id the form's error summary links to (`${form id}-${name}`, ui/forms.tsx).
  const id = `enviar-gasto-${CAMPO_MOTIVO_DUPLICADO}`;
  return (
    <div className={`campo${error ? " campo-con-error" : ""}`}>
      <label htmlFor={id}>
        Motivo del duplicado <span aria-hidden="true">*</span>
      </label>
      <p className="ayuda" id={`${id}-ayuda`}>
        Un justificante de este gasto ya está adjunto a otro gasto. Explique por qué se presenta de nuevo (por ejemplo,
        «Ticket compartido: cada uno paga su parte»); quedará en el historial.
      </p>
      <textarea
        id={id}
        name={CAMPO_MOTIVO_DUPLICADO}
        required
        maxLength={500}
        rows={3}
        defaultValue={typeof previo === "string" ? previo : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={[`${id}-ayuda`, error ? `${id}-error` : ""].filter(Boolean).join(" ")}
      />
      {error ? (
        <p className="error-campo" id={`${id}-error`}>
          <span className="visually-hidden">Error: </span>
          {error}
        </p>
      ) : null}
    </div>
  );
}
