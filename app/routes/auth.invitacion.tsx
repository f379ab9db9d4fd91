import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { retryAfterHeaders } from "~/auth/forms";
import { LinkFailure, NewPasswordForm } from "~/auth/LinkForms";
import { choosePassword, linkFailure, linkToken, plausibleToken } from "~/auth/links.server";
import type { TokenFailure } from "~/auth/port";
import { pageTitle } from "~/ui/page";

/**
 * The invitation's landing: the mailed link (single use; 7 days locally, a day on
 * Supabase) comes here with `token` (local) or `token_hash` (Supabase). The person chooses a
 * password twice; that confirms the account and signs them in with the rol and the rest the
 * administrador chose.
 * GET never uses the token up (mail scanners follow links): it only says whether it still works.
 */

export const headers = retryAfterHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = linkToken(request);
  const state = await linkFailure(context, token, "invitacion");
  // What cannot be a token is not sent back to the page.
  return json({ token: plausibleToken(token) ? token : "", state });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  if (formData.get("intent") !== "aceptar") throw json({ message: "Acción desconocida." }, { status: 400 });
  const welcome = "Bienvenido a Oficina: su contraseña está guardada y ha iniciado sesión.";
  return choosePassword(request, context, formData, "invitacion", welcome, {});
}

const WHY: Record<TokenFailure | "inactivo", string> = {
  // No number of days: how long a link lives depends on the backend (and, on Supabase, the project).
  caducado: "El enlace de la invitación ha caducado.",
  usado:
    "Este enlace ya no sirve: ya se usó, se envió otro más reciente o se canceló la invitación. Si ya eligió su contraseña, inicie sesión con ella.",
  inactivo: "Su contraseña se ha guardado, pero su cuenta está desactivada. Hable con un administrador.",
  no_valido:
    "El enlace de la invitación no es válido. Compruebe que ha abierto el enlace completo del correo más reciente.",
};

export default function Invitacion() {
  const { token, state } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const failure = actionData?.reason ?? state;
  return (
    <div className="acceso">
      <h1>Bienvenido a Oficina</h1>
      {failure ? (
        <LinkFailure why={WHY[failure]}>
          {failure === "inactivo" ? null : <p>Pida a un administrador que le envíe otra invitación.</p>}
        </LinkFailure>
      ) : (
        <NewPasswordForm
          id="invitacion"
          title="Elija su contraseña"
          token={token}
          intent="aceptar"
          lastResult={actionData?.result}
        >
          <p>Un administrador le ha invitado. Escriba dos veces la contraseña con la que entrará a partir de ahora.</p>
        </NewPasswordForm>
      )}
      <p>
        <Link to="/login">Ir a iniciar sesión</Link>
      </p>
    </div>
  );
}

// The token is in the URL: no Referer carries it to another site.
export const meta: MetaFunction = () => [
  ...pageTitle("Aceptar la invitación"),
  { name: "referrer", content: "same-origin" },
];
