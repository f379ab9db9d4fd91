import { useForm, type SubmissionResult } from "@conform-to/react";
import { Link, useActionData } from "@remix-run/react";
import type { BulkAction, Entity } from "~/entities/entity";
import { ConformForm, FieldControl } from "./forms";

/**
 * The bulk actions an entity declares (`Entity.enBloque`), after its list: one plain HTML form
 * (`id` = EN_BLOQUE_FORM) that the rows' «Seleccionar» boxes join through their `form`
 * attribute, so it works without JavaScript; one fieldset per action with its fields and its
 * button. The server (app/crud/en-bloque.server.ts) checks the posted action's fields and the
 * selection and answers as every form does (Conform's reply: the summary, then each error beside
 * its field), or acts and says what it did.
 */
export const EN_BLOQUE_FORM = "en-bloque";

export function AccionesEnBloque({
  entity,
  acciones,
  action,
  todosHref,
}: {
  entity: Entity;
  /** The actions this person may post. */
  acciones: readonly BulkAction[];
  action?: string;
  /** This page with every box checked. */
  todosHref: string;
}) {
  const data = useActionData<{ intent?: string; result?: SubmissionResult<string[]> }>();
  const lastResult = acciones.some((a) => a.intent === data?.intent) ? data?.result : undefined;
  const [form, fields] = useForm<Record<string, unknown>>({ id: EN_BLOQUE_FORM, lastResult });
  return (
    <section className="panel acciones-masivas" aria-labelledby={`${EN_BLOQUE_FORM}-titulo`}>
      <h2 id={`${EN_BLOQUE_FORM}-titulo`}>Con {entity.gender === "f" ? "las seleccionadas" : "los seleccionados"}</h2>
      <ConformForm form={form} action={action} summaryId={`${EN_BLOQUE_FORM}-errores`}>
        <p className="ayuda">
          Marque {entity.plural} en la columna «Seleccionar» de la tabla. Cada {entity.gender === "f" ? "una" : "uno"}{" "}
          se comprueba por separado.
        </p>
        <p>
          <Link to={todosHref}>Seleccionar {entity.gender === "f" ? "todas las" : "todos los"} de esta página</Link>
        </p>
        {acciones.map((a) => {
          const boton = (
            <div className="acciones">
              <button type="submit" name="intent" value={a.intent} className={a.peligro ? "peligro" : undefined}>
                {a.label}
              </button>
            </div>
          );
          // An action with fields groups them with its button; one without is just its button.
          return a.campos?.length ? (
            <fieldset key={a.intent}>
              <legend>{a.label}</legend>
              {a.campos.map((f) => (
                <FieldControl key={f.name} field={f} meta={fields[f.name]!} />
              ))}
              {boton}
            </fieldset>
          ) : (
            <div key={a.intent}>{boton}</div>
          );
        })}
      </ConformForm>
    </section>
  );
}
