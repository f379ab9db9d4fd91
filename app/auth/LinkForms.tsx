import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { ConformForm, FieldControl, SubmitIntent, useServerForm } from "~/ui/forms";
import { correoField, emailSchema, newPasswordSchema, nuevaField, repetirField } from "./forms";

/** The account screens' parts about mailed links: asking for one, using one, its failure. */

type FormProps = {
  /** The form's id; its heading is `titulo-<id>`. */
  id: string;
  title: string;
  lastResult: SubmissionResult<string[]> | undefined;
};

/** Asks for a link by mail (a reset, the confirmation again); `id` is also the intent. */
export function EmailForm({ id, title, button, lastResult }: FormProps & { button: string }) {
  const [form, fields] = useServerForm({ id, schema: emailSchema, lastResult });
  return (
    <section aria-labelledby={`titulo-${id}`} className="panel">
      <h2 id={`titulo-${id}`}>{title}</h2>
      <ConformForm form={form}>
        <FieldControl field={correoField} meta={fields.email} />
        <SubmitIntent intent={id}>{button}</SubmitIntent>
      </ConformForm>
    </section>
  );
}

/** The new password twice, posted with the link's token (a reset, an invitation). */
export function NewPasswordForm({
  id,
  title,
  lastResult,
  token,
  intent,
  children,
}: FormProps & { token: string; intent: string; children?: ReactNode }) {
  const [form, fields] = useServerForm({ id, schema: newPasswordSchema, lastResult });
  return (
    <section aria-labelledby={`titulo-${id}`} className="panel">
      <h2 id={`titulo-${id}`}>{title}</h2>
      {children}
      <ConformForm form={form}>
        <input type="hidden" name="token" value={token} />
        <FieldControl field={nuevaField} meta={fields.password} />
        <FieldControl field={repetirField} meta={fields.confirmacion} />
        <SubmitIntent intent={intent}>Guardar la contraseña y entrar</SubmitIntent>
      </ConformForm>
    </section>
  );
}

/** Why a link does not work, then what to do next. */
export function LinkFailure({ why, children }: { why: string; children?: ReactNode }) {
  return (
    <div className="aviso aviso-error" role="alert">
      <p>{why}</p>
      {children}
    </div>
  );
}
