import type { SubmissionResult } from "@conform-to/react";
import { useFormAction } from "@remix-run/react";
import type { ReactNode } from "react";
import type { RecordAction } from "~/entities/entity";
import { formSchema, type Field } from "~/entities/fields";
import { ConformForm, FieldControl, useServerForm } from "./forms";

/**
 * One of the entity's `acciones` as its own form: hidden intent and version (and the record's
 * id, for a record open beside its list), what it says first, the fields it asks for, and its
 * button. Its schema is the server's: the action's `esquema` for this record, or its fields'.
 */
export function AccionForm({
  accion,
  record,
  lastResult,
  idForm = `accion-${accion.intent}`,
  action,
  defaultValue,
  conId = false,
  mostrar,
  children,
}: {
  accion: RecordAction;
  record: Record<string, unknown>;
  lastResult?: SubmissionResult<string[]>;
  /** The form's id; its fields' ids start with it. */
  idForm?: string;
  /** Where it posts, when not this page's URL (then at its own error summary). */
  action?: string;
  defaultValue?: Record<string, string | undefined>;
  /** Posts the record's id too: a record open beside its list, whose URL is the list's. */
  conId?: boolean;
  /** Whether field `f` is drawn now (every field by default; always when it has errors). */
  mostrar?: (f: Field) => boolean;
  /** What the form says before its fields. */
  children?: ReactNode;
}) {
  const campos = accion.campos ?? [];
  const [form, fields] = useServerForm({
    id: idForm,
    schema: (z) => accion.esquema?.(z, record) ?? formSchema(z, campos),
    lastResult,
    defaultValue,
  });
  // A refused post lands on its error summary, focused, even without JavaScript (as EditForm).
  const resumen = `${idForm}-errores`;
  const here = useFormAction();
  return (
    <ConformForm
      form={form}
      className={`formulario transicion transicion-${accion.intent}`}
      action={action ?? `${here}#${resumen}`}
      summaryId={action ? undefined : resumen}
    >
      <input type="hidden" name="intent" value={accion.intent} />
      {conId ? <input type="hidden" name="id" value={String(record.id)} /> : null}
      <input type="hidden" name="version" value={String(record.version)} />
      {accion.ayuda ? <p className="ayuda">{accion.ayuda}</p> : null}
      {children}
      {campos.map((field) => {
        const meta = fields[field.name]!;
        return !mostrar || meta.errors?.length || mostrar(field) ? (
          <FieldControl key={field.name} field={field} meta={meta} />
        ) : null;
      })}
      <div className="acciones">
        <button type="submit" className={accion.peligro ? "peligro" : undefined}>
          {accion.label}
        </button>
      </div>
    </ConformForm>
  );
}
