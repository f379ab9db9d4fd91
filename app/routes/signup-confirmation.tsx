import { parseSubmission } from "~/ui/parse-submission.server";
import { json, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { emailSchema, retryAfterHeaders, TOKEN_HOURS } from "~/auth/forms";
import { EmailForm } from "~/auth/LinkForms";
import { mailRefusal, tooMany } from "~/auth/throttle.server";
import { pageTitle } from "~/ui/page";

export const headers = retryAfterHeaders;

export async function action({ request, context }: ActionFunctionArgs) {
  const { auth, flash, throttle } = context.services;
  const formData = await request.formData();
  if (formData.get("intent") !== "reenviar") throw json({ message: "Acción desconocida." }, { status: 400 });
  const submission = parseSubmission(formData, emailSchema);
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const refused = await mailRefusal(throttle, "confirmacion", submission.value.email);
  if (refused) return tooMany(refused.retryAfter, { result: submission.reply({ formErrors: [refused.message] }) });
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
      <EmailForm id="reenviar" title="Reenviar el correo" button="Reenviar el correo" lastResult={actionData?.result} />
      <p>
        <Link to="/login">Volver a iniciar sesión</Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction = () => pageTitle("Revise su correo");
