import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/ui/EntityPages";

/**
 * The landing of the confirmation mail. GET only shows a button: mail scanners that follow links
 * must not use up the token. The POST confirms and signs the person in.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return json({ token: url.searchParams.get("token") ?? url.searchParams.get("token_hash") ?? "", type: url.searchParams.get("type") ?? "email" });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const token = String(formData.get("token") ?? "");
  const type = String(formData.get("type") ?? "email");
  const result = token && token.length <= 200 ? await context.services.auth.confirm(request, token, type) : { ok: false as const };
  if (!result.ok) return json({ error: "El enlace no es válido o ha caducado. Pida uno nuevo." }, { status: 400 });
  const headers = new Headers(result.headers);
  headers.append("Set-Cookie", await context.services.flash.set(request, { kind: "exito", message: "Cuenta confirmada. Le damos la bienvenida a Oficina." }));
  return redirect("/", { headers });
}

export default function Confirm() {
  const { token, type } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="acceso">
      <h1>Confirmar la cuenta</h1>
      {actionData?.error ? (
        <div className="aviso aviso-error" role="alert">
          <p>{actionData.error}</p>
          <p>
            <Link to="/signup-confirmation">Reenviar el correo de confirmación</Link>
          </p>
        </div>
      ) : null}
      {token ? (
        <Form method="post">
          <input type="hidden" name="token" value={token} />
          <input type="hidden" name="type" value={type} />
          <p>Pulse el botón para activar su cuenta y entrar.</p>
          <button type="submit">Confirmar mi cuenta</button>
        </Form>
      ) : (
        <p>
          Falta el código del enlace. Abra el enlace completo del correo o <Link to="/signup-confirmation">pida uno nuevo</Link>.
        </p>
      )}
    </div>
  );
}

export const meta: MetaFunction = () => pageTitle("Confirmar la cuenta");
