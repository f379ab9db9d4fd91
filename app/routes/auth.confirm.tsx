import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { LinkFailure } from "~/auth/LinkForms";
import { linkToken, plausibleToken } from "~/auth/links.server";
import type { TokenFailure } from "~/auth/port";
import { pageTitle } from "~/ui/page";

/**
 * The landing of the confirmation mail. GET only shows a button: mail scanners that follow links
 * must not use up the token. The POST confirms and signs the person in; every way it can fail
 * says what to do next.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return json({ token: linkToken(request), type: new URL(request.url).searchParams.get("type") ?? "email" });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const token = String(formData.get("token") ?? "");
  const type = String(formData.get("type") ?? "email");
  const result = plausibleToken(token)
    ? await context.services.auth.confirm(request, token, type)
    : { ok: false as const, reason: "no_valido" as const };
  if (!result.ok) return json({ reason: result.reason }, { status: result.reason === "ya_confirmada" ? 409 : 400 });
  const headers = new Headers(result.headers);
  headers.append(
    "Set-Cookie",
    await context.services.flash.set(request, {
      kind: "exito",
      message: "Cuenta confirmada. Le damos la bienvenida a Oficina.",
    }),
  );
  return redirect("/", { headers });
}

const WHY: Record<TokenFailure, string> = {
  caducado: "El enlace ha caducado: los enlaces de confirmación sirven 24 horas.",
  usado: "Este enlace ya no sirve: se envió otro más reciente, o ya se usó.",
  no_valido: "El enlace no es válido. Compruebe que ha abierto el enlace completo del correo más reciente.",
};

function Failure({ reason }: { reason: TokenFailure | "ya_confirmada" }) {
  if (reason === "ya_confirmada")
    return (
      <div className="aviso" role="alert">
        <p>Su cuenta ya está confirmada: este enlace ya no hace falta.</p>
        <p>
          <Link to="/login">Iniciar sesión</Link>
        </p>
      </div>
    );
  return (
    <LinkFailure why={WHY[reason]}>
      <p>
        Pida un enlace nuevo en <Link to="/signup-confirmation">Reenviar el correo de confirmación</Link>, o vuelva a
        crear la cuenta desde <Link to="/login">Iniciar sesión</Link>.
      </p>
    </LinkFailure>
  );
}

export default function Confirm() {
  const { token, type } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (actionData?.reason)
    return (
      <div className="acceso">
        <h1>Confirmar la cuenta</h1>
        <Failure reason={actionData.reason} />
      </div>
    );
  return (
    <div className="acceso">
      <h1>Confirmar la cuenta</h1>
      {token ? (
        <Form method="post">
          <input type="hidden" name="token" value={token} />
          <input type="hidden" name="type" value={type} />
          <p>Pulse el botón para activar su cuenta y entrar.</p>
          <button type="submit">Confirmar mi cuenta</button>
        </Form>
      ) : (
        <p>
          Falta el código del enlace. Abra el enlace completo del correo o{" "}
          <Link to="/signup-confirmation">pida uno nuevo</Link>.
        </p>
      )}
    </div>
  );
}

export const meta: MetaFunction = () => [
  ...pageTitle("Confirmar la cuenta"),
  { name: "referrer", content: "same-origin" },
];
