import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import { newPasswordSchema, nuevaField, repetirField, TOKEN_HOURS } from "~/auth/forms";
import type { TokenFailure } from "~/auth/port";
import { pageTitle } from "~/ui/EntityPages";
import { ConformForm, FieldControl, useServerForm } from "~/ui/forms";

/**
 * The invitation's landing (SPEC §6): the mailed link (7 days, single use) comes here with
 * `token` (local) or `token_hash` (Supabase). The person chooses a password twice; that confirms
 * the account and signs them in with the rol and the rest the administrador chose.
 * GET never uses the token up (mail scanners follow links): it only says whether it still works.
 */
const DIAS = TOKEN_HOURS.invitacion / 24;
const PIDA_OTRA = "Pida a un administrador que le envíe otra invitación.";

const tokenFrom = (url: URL) => url.searchParams.get("token") ?? url.searchParams.get("token_hash") ?? "";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = tokenFrom(new URL(request.url));
  if (!token || token.length > 200) return json({ token: "", state: "no_valido" as TokenFailure | null });
  const state = await context.services.auth.checkToken(token, "invitacion");
  return json({ token, state: state && !state.ok ? state.reason : null });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { auth, flash, throttle } = context.services;
  const formData = await request.formData();
  if (formData.get("intent") !== "aceptar") throw json({ message: "Acción desconocida." }, { status: 400 });
  const token = String(formData.get("token") ?? "");
  const submission = parseWithZod(formData, { schema: newPasswordSchema(z) });
  const hidden = { hideFields: ["password", "confirmacion"] };
  if (submission.status !== "success") return json({ result: submission.reply(hidden), reason: null }, { status: 400 });
  const result =
    token && token.length <= 200
      ? await auth.setPasswordWithToken(request, token, "invitacion", submission.value.password)
      : { ok: false as const, reason: "no_valido" as const };
  if (!result.ok) return json({ result: submission.reply(hidden), reason: result.reason }, { status: 400 });
  await throttle.clearFailures(result.email);
  const headers = new Headers(result.headers);
  headers.append(
    "Set-Cookie",
    await flash.set(request, {
      kind: "exito",
      message: "Bienvenido a Oficina: su contraseña está guardada y ha iniciado sesión.",
    }),
  );
  return redirect("/", { headers });
}

function Failure({ reason }: { reason: TokenFailure | "inactivo" }) {
  const why =
    reason === "caducado"
      ? `El enlace de la invitación ha caducado: sirve ${DIAS} días.`
      : reason === "usado"
        ? "Este enlace ya no sirve: ya se usó, se envió otro más reciente o se canceló la invitación. Si ya eligió su contraseña, inicie sesión con ella."
        : reason === "inactivo"
          ? "Su contraseña se ha guardado, pero su cuenta está desactivada. Hable con un administrador."
          : "El enlace de la invitación no es válido. Compruebe que ha abierto el enlace completo del correo más reciente.";
  return (
    <div className="aviso aviso-error" role="alert">
      <p>{why}</p>
      {reason === "inactivo" ? null : <p>{PIDA_OTRA}</p>}
    </div>
  );
}

export default function Invitacion() {
  const { token, state } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useServerForm({ id: "invitacion", schema: newPasswordSchema, lastResult: actionData?.result });
  const failure = actionData?.reason ?? state;
  return (
    <div className="acceso">
      <h1>Bienvenido a Oficina</h1>
      {failure ? (
        <Failure reason={failure} />
      ) : (
        <section aria-labelledby="titulo-invitacion" className="panel">
          <h2 id="titulo-invitacion">Elija su contraseña</h2>
          <p>Un administrador le ha invitado. Escriba dos veces la contraseña con la que entrará a partir de ahora.</p>
          <ConformForm form={form}>
            <input type="hidden" name="token" value={token} />
            <FieldControl field={nuevaField} meta={fields.password} />
            <FieldControl field={repetirField} meta={fields.confirmacion} />
            <div className="acciones">
              <button type="submit" name="intent" value="aceptar">
                Guardar la contraseña y entrar
              </button>
            </div>
          </ConformForm>
        </section>
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
