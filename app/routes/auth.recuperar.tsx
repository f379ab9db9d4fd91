import type { SubmissionResult } from "@conform-to/react";
import { parseSubmission } from "~/ui/parse-submission.server";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { emailSchema, retryAfterHeaders, TOKEN_HOURS } from "~/auth/forms";
import { EmailForm, LinkFailure, NewPasswordForm } from "~/auth/LinkForms";
import { choosePassword, linkFailure, linkToken } from "~/auth/links.server";
import type { TokenFailure } from "~/auth/port";
import { mailRefusal, tooMany } from "~/auth/throttle.server";
import { pageTitle } from "~/ui/page";

/**
 * «¿Ha olvidado su contraseña?», two steps on one route:
 *  - no token: the email → the same answer whether or not an account has it → a mail whose link
 *    (1 h, single use) comes back here with `token` (local) or `token_hash` (Supabase);
 *  - with the token: the new password twice → signed in, every other session ended, the
 *    account's sign-in lock cleared.
 * GET never uses the token up (mail scanners follow links); only the POST does.
 */
export const headers = retryAfterHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = linkToken(request);
  return json({ token, state: token ? await linkFailure(context, token, "recuperar") : null });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { auth, flash, throttle } = context.services;
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "pedir") {
    const submission = parseSubmission(formData, emailSchema);
    if (submission.status !== "success")
      return json({ intent, result: submission.reply(), reason: null }, { status: 400 });
    const refused = await mailRefusal(throttle, "recuperar", submission.value.email);
    if (refused)
      return tooMany(refused.retryAfter, {
        intent,
        reason: null,
        result: submission.reply({ formErrors: [refused.message] }),
      });
    await auth.sendToken("recuperar", submission.value.email);
    const cookie = await flash.set(request, {
      kind: "exito",
      message: `Si hay una cuenta con ${submission.value.email}, le hemos enviado un enlace para elegir una contraseña nueva. Caduca en ${TOKEN_HOURS.recuperar} hora y solo sirve una vez.`,
    });
    return redirect("/auth/recuperar", { headers: { "Set-Cookie": cookie } });
  }

  if (intent === "cambiar") {
    const welcome = "Contraseña cambiada. Ha iniciado sesión; las demás sesiones de su cuenta se han cerrado.";
    return choosePassword(request, context, formData, "recuperar", welcome, { intent });
  }

  throw json({ message: "Acción desconocida." }, { status: 400 });
}

const WHY: Record<TokenFailure | "inactivo", string> = {
  caducado: `El enlace ha caducado: los enlaces para restablecer la contraseña sirven ${TOKEN_HOURS.recuperar} hora.`,
  usado: "Este enlace ya no sirve: ya se usó, o se pidió otro más reciente.",
  inactivo: "Su contraseña ha cambiado, pero su cuenta está desactivada. Hable con un administrador.",
  no_valido: "El enlace no es válido. Compruebe que ha abierto el enlace completo del correo más reciente.",
};

export default function Recuperar() {
  const { token, state } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="acceso">
      {token ? (
        <Cambiar
          token={token}
          failure={actionData?.reason ?? state}
          lastResult={actionData?.intent === "cambiar" ? actionData.result : undefined}
        />
      ) : (
        <Pedir lastResult={actionData?.intent === "pedir" ? actionData.result : undefined} />
      )}
      <p>
        <Link to="/login">Volver a iniciar sesión</Link>
      </p>
    </div>
  );
}

type LastResult = SubmissionResult<string[]> | undefined;

function Pedir({ lastResult }: { lastResult: LastResult }) {
  return (
    <>
      <h1>¿Ha olvidado su contraseña?</h1>
      <p>
        Escriba el correo de su cuenta y le enviaremos un enlace para elegir una contraseña nueva. El enlace caduca en{" "}
        {TOKEN_HOURS.recuperar} hora y solo sirve una vez.
      </p>
      <EmailForm id="pedir" title="Restablecer la contraseña" button="Enviarme el enlace" lastResult={lastResult} />
    </>
  );
}

function Cambiar(props: { token: string; failure: TokenFailure | "inactivo" | null; lastResult: LastResult }) {
  return (
    <>
      <h1>Elegir una contraseña nueva</h1>
      {props.failure ? (
        <LinkFailure why={WHY[props.failure]}>
          {props.failure === "inactivo" ? null : (
            <p>
              <Link to="/auth/recuperar">Pedir un enlace nuevo</Link>
            </p>
          )}
        </LinkFailure>
      ) : (
        <NewPasswordForm
          id="cambiar"
          title="Escriba su nueva contraseña dos veces"
          token={props.token}
          intent="cambiar"
          lastResult={props.lastResult}
        />
      )}
    </>
  );
}

// The token is in the URL: no Referer carries it to another site ("no-referrer" would also make
// the form's Origin «null», which the server rightly refuses).
export const meta: MetaFunction = () => [
  ...pageTitle("Restablecer la contraseña"),
  { name: "referrer", content: "same-origin" },
];
