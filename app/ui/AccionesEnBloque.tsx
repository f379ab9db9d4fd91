import { useForm, type SubmissionResult } from "@conform-to/react";
import { Link, useActionData } from "@remix-run/react";
import { useEffect, useState, type MouseEvent, type ReactNode } from "react";
import type { BulkAction, Entity } from "~/entities/entity";
import type { Field } from "~/entities/fields";
import { cuenta } from "~/lib/plural";
import { BotonesDeIntent, ConformForm, FieldControl } from "./forms";

/**
 * The bulk actions an entity declares (`Entity.enBloque`), after its list: one plain HTML form
 * (`id` = EN_BLOQUE_FORM) that the rows' «Seleccionar» boxes join through their `form`
 * attribute, so it works without JavaScript; a fieldset per action with fields (or per `grupo`:
 * its actions' fields once, their buttons together) and a button for each. The server
 * (app/crud/en-bloque.server.ts) checks the posted action's fields and the selection and answers
 * as every form does (Conform's reply: the summary, then each error beside its field), or acts
 * and says what it did. With JavaScript, «N seleccionados» follows every box, «Seleccionar todos
 * los de esta página» checks them in place and «Quitar la selección» clears them.
 */
export const EN_BLOQUE_FORM = "en-bloque";
/**
 * Where a bulk post that is not done lands (its action URL's fragment): its error summary, or the
 * confirm step that asks first (never both). Without JavaScript the reply is a new page, which
 * opens there, and the browser focuses it.
 */
export const EN_BLOQUE_RESPUESTA = `${EN_BLOQUE_FORM}-respuesta`;

/** A refused bulk post as the page reads it back: Conform's reply and the rows that were checked. */
type Respuesta = { intent?: string; result?: SubmissionResult<string[]>; seleccion?: string[] };

export function AccionesEnBloque({
  entity,
  acciones,
  action,
  aqui,
  todosHref,
  titulo,
  otros = [],
  defaultValue,
  vacio,
  antes,
  children,
  pie,
}: {
  entity: Entity;
  /** The actions this person may post on the rows of this page. */
  acciones: readonly BulkAction[];
  action?: string;
  /** This list page, nothing checked. */
  aqui: string;
  /** This page with every box checked. */
  todosHref: string;
  /** The section's heading (by default «Con los seleccionados»). */
  titulo?: string;
  /** Other intents the form posts (a button of `children`), whose refusals it shows too. */
  otros?: readonly string[];
  defaultValue?: Record<string, string>;
  /** Said instead of the form when no action applies to a row of this page. */
  vacio?: ReactNode;
  /** Before the form (a confirm step). */
  antes?: ReactNode;
  /** More of the form, after the actions (a button that posts the selection elsewhere). */
  children?: ReactNode;
  /** After the form (actions on every row the filter matches). */
  pie?: ReactNode;
}) {
  const data = useActionData<Respuesta>();
  const propia = [...acciones.map((a) => a.intent), ...otros].includes(data?.intent ?? "");
  const [form, fields] = useForm<Record<string, unknown>>({
    id: EN_BLOQUE_FORM,
    lastResult: propia ? data?.result : undefined,
    defaultValue,
  });
  const seleccion = useSeleccion();
  const f = entity.gender === "f";
  const marcarTodas = (marcar: boolean) => (event: MouseEvent) => {
    event.preventDefault();
    for (const c of casillas()) c.checked = marcar;
    document.dispatchEvent(new Event("change"));
  };
  return (
    <section className="panel acciones-masivas" aria-labelledby={`${EN_BLOQUE_FORM}-titulo`}>
      <h2 id={`${EN_BLOQUE_FORM}-titulo`}>{titulo ?? `Con ${f ? "las seleccionadas" : "los seleccionados"}`}</h2>
      {antes}
      {acciones.length > 0 ? (
        <ConformForm form={form} action={action} summaryId={EN_BLOQUE_RESPUESTA}>
          <p className="ayuda">
            Marque {entity.plural} en la columna «Seleccionar» de la tabla. Cada {f ? "una" : "uno"} se comprueba por
            separado.
          </p>
          <p className="seleccion-pagina">
            <Link to={todosHref} onClick={seleccion === null ? undefined : marcarTodas(true)}>
              Seleccionar {f ? "todas las" : "todos los"} de esta página
            </Link>
            {seleccion !== null && seleccion.n > 0 ? (
              <>
                {" · "}
                <a href={aqui} onClick={marcarTodas(false)}>
                  Quitar la selección
                </a>
              </>
            ) : null}
          </p>
          {seleccion !== null ? (
            <p className="seleccionados" aria-live="polite">
              {cuenta(seleccion.n, f ? "seleccionada" : "seleccionado", f ? "seleccionadas" : "seleccionados")}
            </p>
          ) : null}
          {grupos(acciones).map(({ titulo: leyenda, acciones: juntas }) => {
            const botones = (
              <div className="acciones">
                <BotonesDeIntent
                  botones={juntas.map((a) => ({
                    intent: a.intent,
                    texto: a.label,
                    className: a.peligro ? "peligro" : undefined,
                  }))}
                />
              </div>
            );
            const campos = camposDe(juntas);
            // Actions with fields group them with their buttons; one without is just its button.
            return campos.length || leyenda ? (
              <fieldset key={juntas[0]!.intent}>
                <legend>{leyenda ?? juntas[0]!.label}</legend>
                {campos.map((campo) => (
                  <FieldControl key={campo.name} field={campo} meta={fields[campo.name]!} />
                ))}
                {botones}
              </fieldset>
            ) : (
              <div key={juntas[0]!.intent}>{botones}</div>
            );
          })}
          {children}
        </ConformForm>
      ) : (
        vacio
      )}
      {pie}
    </section>
  );
}

/** The actions in order, those of one `grupo` together where the first of them is. */
function grupos(acciones: readonly BulkAction[]) {
  const out: { titulo?: string; acciones: BulkAction[] }[] = [];
  for (const a of acciones) {
    const grupo = a.grupo ? out.find((g) => g.titulo === a.grupo) : undefined;
    if (grupo) grupo.acciones.push(a);
    else out.push({ titulo: a.grupo, acciones: [a] });
  }
  return out;
}

/**
 * The fields of actions shown together, each once. One that only some of them ask for is not
 * marked as required (a rejection's motivo beside «Aprobar»): the server requires it of those.
 */
function camposDe(acciones: readonly BulkAction[]): Field[] {
  const campos = new Map<string, Field>();
  for (const a of acciones) for (const c of a.campos ?? []) if (!campos.has(c.name)) campos.set(c.name, c);
  return [...campos.values()].map((c) =>
    acciones.every((a) => a.campos?.some((x) => x.name === c.name)) ? c : { ...c, required: false },
  );
}

const casillas = () =>
  Array.from(document.querySelectorAll<HTMLInputElement>(`input[form="${EN_BLOQUE_FORM}"][name="seleccion"]`));

/**
 * The checked rows, kept up to date as they change (JavaScript only: null before it runs): how
 * many, and the sum of what their boxes carry in `data-centimos` (0 when they carry nothing).
 */
export function useSeleccion() {
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
 * The list's «Seleccionar» column (DataTable's `leading`): a box on each row `seleccionable`
 * says, joined to the bulk form, valued «id:version» (the version the person saw). Checked on
 * `?seleccionar=todos` and, after a refused post, those that were.
 */
export function useColumnaSeleccion<R extends { id: unknown; version?: unknown }>({
  entity,
  seleccionable,
  nombre,
  todos,
  datos,
}: {
  entity: Entity;
  seleccionable: (row: R) => boolean;
  /** What the box's label names: «Seleccionar GAS-2026-00012». */
  nombre: (row: R) => string;
  todos: boolean;
  /** `data-*` attributes of the box (what useSeleccion sums). */
  datos?: (row: R) => Record<`data-${string}`, string>;
}) {
  const marcados = useActionData<Respuesta>()?.seleccion;
  return {
    // Named for screen readers only: each box says what it selects, and a visible word would
    // cost the width the table needs at 1366 px.
    header: <span className="visually-hidden">Seleccionar</span>,
    // The error summary's «Marque al menos…» links to the rows: the next Tab is the first box.
    ancla: `${EN_BLOQUE_FORM}-seleccion`,
    irA: {
      href: `#${EN_BLOQUE_FORM}-titulo`,
      texto: `Ir a las acciones con ${entity.gender === "f" ? "las seleccionadas" : "los seleccionados"}`,
    },
    label: "Seleccionar",
    cell: (row: R) => {
      if (!seleccionable(row)) return null;
      const valor = `${String(row.id)}:${String(row.version)}`;
      return (
        <>
          <input
            // Keyed by «todos»: following that link with JavaScript remounts the boxes checked.
            key={todos ? "todos" : "uno"}
            type="checkbox"
            id={`sel-${String(row.id)}`}
            name="seleccion"
            form={EN_BLOQUE_FORM}
            value={valor}
            {...datos?.(row)}
            // After a refused bulk post (without JavaScript, a new page): still checked.
            defaultChecked={todos || marcados?.includes(valor)}
          />
          <label htmlFor={`sel-${String(row.id)}`} className="visually-hidden">
            Seleccionar {nombre(row)}
          </label>
        </>
      );
    },
  };
}
