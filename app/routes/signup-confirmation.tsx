import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import * as z from "zod";
import { correoField, minutos, retryAfterHeaders, TOKEN_HOURS } from "~/auth/forms";
import { MAIL_LIMIT, mailKey } from "~/auth/throttle.server";
import type { Z } from "~/entities/fields";
import { pageTitle } from "~/ui/EntityPages";
import { ConformForm, FieldControl, useServerForm } from "~/ui/forms";

const correo = correoField;
const schema = (z: Z) => z.object({ email: correo.schema(z) });

export const headers = retryAfterHeaders;

export async function action({ request, context }: ActionFunctionArgs) {
  const { auth, flash, throttle } = context.services;
  const formData = await request.formData();
  if (formData.get("intent") !== "reenviar") throw json({ message: "Acción desconocida." }, { status: 400 });
  const submission = parseWithZod(formData, { schema: schema(z) });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  // Counted per inbox whether or not an account is pending there: the refusal reveals nothing.
  const refused = await throttle.take(
    mailKey("confirmacion", submission.value.email),
    MAIL_LIMIT.limit,
    MAIL_LIMIT.windowMs,
  );
  if (refused)
    return json(
      {
        result: submission.reply({
          formErrors: [
            `Ha pedido demasiados correos para esta dirección: no hemos enviado otro. Espere ${minutos(refused.retryAfter)} o use el enlace del último correo que recibió (mire también en el correo no deseado).`,
          ],
        }),
      },
      { status: 429, headers: { "Retry-After": String(refused.retryAfter) } },
    );
  await auth.resendConfirmation(request, submission.value.email);
  // The same answer whether or not the account exists.
  const cookie = await flash.set(request, {
    kind: "exito",
    message:
      "Si hay una cuenta pendiente de confirmar con ese correo, le hemos enviado un enlace nuevo. Los enlaces anteriores ya no sirven.",
  });
  return redirect("/signup-confirmation", { headers: { "Set-Cookie": cookie } });
}

export default function SignupConfirmation() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useServerForm({ id: "reenviar", schema, lastResult: actionData?.result });
  return (
    <div className="acceso">
      <h1>Revise su correo</h1>
      <p>
        Le hemos enviado un enlace para confirmar su cuenta. Ábralo y pulse «Confirmar mi cuenta» para entrar en
        Oficina.
      </p>
      <p>
        El enlace caduca en {TOKEN_HOURS.confirm} horas y solo sirve una vez. Si no lo encuentra, mire en la carpeta de
        correo no deseado o pida otro aquí: el nuevo sustituye a los anteriores.
      </p>
      <section aria-labelledby="titulo-reenviar" className="panel">
        <h2 id="titulo-reenviar">Reenviar el correo</h2>
        <ConformForm form={form}>
          <FieldControl field={correo} meta={fields.email} />
          <div className="acciones">
            <button type="submit" name="intent" value="reenviar">
              Reenviar el correo
            </button>
          </div>
        </ConformForm>
      </section>
      <p>
        <Link to="/login">Volver a iniciar sesión</Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction = () => pageTitle("Revise su correo");
