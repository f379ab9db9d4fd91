import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import {
  correoField,
  minutos,
  newPasswordSchema,
  nuevaField,
  repetirField,
  retryAfterHeaders,
  TOKEN_HOURS,
} from "~/auth/forms";
import type { TokenFailure } from "~/auth/port";
import { MAIL_LIMIT, mailKey } from "~/auth/throttle.server";
import type { Z } from "~/entities/fields";
import { pageTitle } from "~/ui/EntityPages";
import { ConformForm, FieldControl, useServerForm } from "~/ui/forms";

/**
 * «¿Ha olvidado su contraseña?» (SPEC §6), two steps on one route:
 *  - no token: the email → the same answer whether or not an account has it → a mail whose link
 *    (1 h, single use) comes back here with `token` (local) or `token_hash` (Supabase);
 *  - with the token: the new password twice → signed in, every other session ended, the
 *    account's sign-in lock cleared.
 * GET never uses the token up (mail scanners follow links); only the POST does.
 */
const pedirSchema = (z: Z) => z.object({ email: correoField.schema(z) });

export const headers = retryAfterHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? url.searchParams.get("token_hash") ?? "";
  if (!token) return json({ token: "", state: null });
  const state =
    token.length > 200
      ? { ok: false as const, reason: "no_valido" as const }
      : await context.services.auth.checkToken(token, "recuperar");
  return json({ token, state: state && !state.ok ? state.reason : null });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { auth, flash, throttle } = context.services;
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "pedir") {
    const submission = parseWithZod(formData, { schema: pedirSchema(z) });
    if (submission.status !== "success")
      return json({ intent, result: submission.reply(), reason: null }, { status: 400 });
    // Counted per inbox whether or not an account has it: the refusal reveals nothing either.
    const refused = await throttle.take(
      mailKey("recuperar", submission.value.email),
      MAIL_LIMIT.limit,
      MAIL_LIMIT.windowMs,
    );
    if (refused)
      return json(
        {
          intent,
          reason: null,
          result: submission.reply({
            formErrors: [
              `Ha pedido demasiados correos para esta dirección: no hemos enviado otro. Espere ${minutos(refused.retryAfter)} o use el enlace del último correo que recibió (mire también en el correo no deseado).`,
            ],
          }),
        },
        { status: 429, headers: { "Retry-After": String(refused.retryAfter) } },
      );
    await auth.sendToken("recuperar", submission.value.email);
    const cookie = await flash.set(request, {
      kind: "exito",
      message: `Si hay una cuenta con ${submission.value.email}, le hemos enviado un enlace para elegir una contraseña nueva. Caduca en ${TOKEN_HOURS.recuperar} hora y solo sirve una vez.`,
    });
    return redirect("/auth/recuperar", { headers: { "Set-Cookie": cookie } });
  }

  if (intent === "cambiar") {
    const token = String(formData.get("token") ?? "");
    const submission = parseWithZod(formData, { schema: newPasswordSchema(z) });
    if (submission.status !== "success")
      return json(
        { intent, result: submission.reply({ hideFields: ["password", "confirmacion"] }), reason: null },
        { status: 400 },
      );
    const result =
      token && token.length <= 200
        ? await auth.setPasswordWithToken(request, token, "recuperar", submission.value.password)
        : { ok: false as const, reason: "no_valido" as const };
    if (!result.ok)
      return json(
        { intent, result: submission.reply({ hideFields: ["password", "confirmacion"] }), reason: result.reason },
        { status: 400 },
      );
    // A reset unlocks the account (SPEC §6).
    await throttle.clearFailures(result.email);
    const headers = new Headers(result.headers);
    headers.append(
      "Set-Cookie",
      await flash.set(request, {
        kind: "exito",
        message: "Contraseña cambiada. Ha iniciado sesión; las demás sesiones de su cuenta se han cerrado.",
      }),
    );
    return redirect("/", { headers });
  }

  throw json({ message: "Acción desconocida." }, { status: 400 });
}

function Failure({ reason }: { reason: TokenFailure | "inactivo" }) {
  const why =
    reason === "caducado"
      ? `El enlace ha caducado: los enlaces para restablecer la contraseña sirven ${TOKEN_HOURS.recuperar} hora.`
      : reason === "usado"
        ? "Este enlace ya no sirve: ya se usó, o se pidió otro más reciente."
        : reason === "inactivo"
          ? "Su contraseña ha cambiado, pero su cuenta está desactivada. Hable con un administrador."
          : "El enlace no es válido. Compruebe que ha abierto el enlace completo del correo más reciente.";
  return (
    <div className="aviso aviso-error" role="alert">
      <p>{why}</p>
      {reason === "inactivo" ? null : (
        <p>
          <Link to="/auth/recuperar">Pedir un enlace nuevo</Link>
        </p>
      )}
    </div>
  );
}

export default function Recuperar() {
  const { token, state } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [pedir, pedirFields] = useServerForm({
    id: "pedir",
    schema: pedirSchema,
    lastResult: actionData?.intent === "pedir" ? actionData.result : undefined,
  });
  const [cambiar, cambiarFields] = useServerForm({
    id: "cambiar",
    schema: newPasswordSchema,
    lastResult: actionData?.intent === "cambiar" ? actionData.result : undefined,
  });
  const failure = actionData?.reason ?? state;

  if (token)
    return (
      <div className="acceso">
        <h1>Elegir una contraseña nueva</h1>
        {failure ? (
          <Failure reason={failure} />
        ) : (
          <section aria-labelledby="titulo-cambiar" className="panel">
            <h2 id="titulo-cambiar">Escriba su nueva contraseña dos veces</h2>
            <ConformForm form={cambiar}>
              <input type="hidden" name="token" value={token} />
              <FieldControl field={nuevaField} meta={cambiarFields.password} />
              <FieldControl field={repetirField} meta={cambiarFields.confirmacion} />
              <div className="acciones">
                <button type="submit" name="intent" value="cambiar">
                  Guardar la contraseña y entrar
                </button>
              </div>
            </ConformForm>
          </section>
        )}
        <p>
          <Link to="/login">Volver a iniciar sesión</Link>
        </p>
      </div>
    );

  return (
    <div className="acceso">
      <h1>¿Ha olvidado su contraseña?</h1>
      <p>
        Escriba el correo de su cuenta y le enviaremos un enlace para elegir una contraseña nueva. El enlace caduca en{" "}
        {TOKEN_HOURS.recuperar} hora y solo sirve una vez.
      </p>
      <section aria-labelledby="titulo-pedir" className="panel">
        <h2 id="titulo-pedir">Restablecer la contraseña</h2>
        <ConformForm form={pedir}>
          <FieldControl field={correoField} meta={pedirFields.email} />
          <div className="acciones">
            <button type="submit" name="intent" value="pedir">
              Enviarme el enlace
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

// The token is in the URL: no Referer carries it to another site ("no-referrer" would also make
// the form's Origin «null», which the server rightly refuses).
export const meta: MetaFunction = () => [
  ...pageTitle("Restablecer la contraseña"),
  { name: "referrer", content: "same-origin" },
];
