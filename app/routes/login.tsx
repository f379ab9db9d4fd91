import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import * as z from "zod";
import { currentUser } from "~/auth/session.server";
import { email, text, type Z } from "~/entities/fields";
import { safeRedirect } from "~/lib/safe-redirect";
import { pageTitle } from "~/ui/EntityPages";
import { ConformForm, FieldControl, useServerForm } from "~/ui/forms";

/** Sign in and sign up, two forms on one page (SPEC §6); `intent` tells them apart. */
const correo = email("email", "Correo electrónico", { required: true });
const fields = {
  iniciar: [correo, text("password", "Contraseña", { required: true, min: 1, max: 200, type: "password", autoComplete: "current-password" })],
  crear: [
    text("nombre", "Nombre", { required: true, min: 1, max: 80, autoComplete: "name" }),
    correo,
    text("password", "Contraseña", {
      required: true,
      min: 12,
      max: 200,
      type: "password",
      autoComplete: "new-password",
      hint: "Al menos 12 caracteres. Una frase fácil de recordar es una buena contraseña.",
    }),
  ],
};
const schemas = {
  iniciar: (z: Z) => z.object({ email: correo.schema(z), password: z.string({ error: "Escriba su contraseña" }).max(200) }),
  crear: (z: Z) => z.object({ nombre: fields.crear[0]!.schema(z), email: correo.schema(z), password: fields.crear[2]!.schema(z) }),
};

const WRONG = "Correo o contraseña incorrectos";

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await currentUser(request, context)) throw redirect("/");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { auth, config, flash, throttle } = context.services;
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "iniciar") {
    const submission = parseWithZod(formData, { schema: schemas.iniciar(z) });
    if (submission.status !== "success") return json({ intent, result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
    const { email, password } = submission.value;
    if (await throttle.isLocked(email, context.clientIp))
      return json({ intent, result: submission.reply({ formErrors: ["Demasiados intentos fallidos. Espere 15 minutos antes de volver a intentarlo."], hideFields: ["password"] }) }, { status: 429 });
    const result = await auth.signIn(request, email, password);
    if (!result.ok) {
      if (result.reason === "credentials") await throttle.recordFailure(email, context.clientIp);
      const message =
        result.reason === "unconfirmed"
          ? "Confirme su correo antes de iniciar sesión: abra el enlace que le enviamos o pida otro en «Reenviar el correo»."
          : result.reason === "inactive"
            ? "Su cuenta está desactivada. Hable con un administrador."
            : WRONG;
      return json({ intent, result: submission.reply({ formErrors: [message], hideFields: ["password"] }) }, { status: 400 });
    }
    await throttle.clearFailures(email);
    return redirect(safeRedirect(formData.get("redirectTo"), "/"), { headers: result.headers });
  }

  if (intent === "crear") {
    const submission = parseWithZod(formData, { schema: schemas.crear(z) });
    if (submission.status !== "success") return json({ intent, result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
    const domain = submission.value.email.split("@")[1] ?? "";
    if (config.SIGNUP_MODE === "dominio" && !config.SIGNUP_ALLOWED_DOMAINS.includes(domain))
      return json(
        { intent, result: submission.reply({ fieldErrors: { email: [`Solo pueden crear cuenta correos de: ${config.SIGNUP_ALLOWED_DOMAINS.join(", ")}`] }, hideFields: ["password"] }) },
        { status: 400 },
      );
    await auth.signUp(request, submission.value);
    const cookie = await flash.set(request, { kind: "exito", message: `Le hemos enviado un correo a ${submission.value.email} con el enlace para activar su cuenta.` });
    return redirect("/signup-confirmation", { headers: { "Set-Cookie": cookie } });
  }

  throw json({ message: "Acción desconocida." }, { status: 400 });
}

export default function Login() {
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const [signIn, signInFields] = useServerForm({ id: "iniciar", schema: schemas.iniciar, lastResult: actionData?.intent === "iniciar" ? actionData.result : undefined });
  const [signUp, signUpFields] = useServerForm({ id: "crear", schema: schemas.crear, lastResult: actionData?.intent === "crear" ? actionData.result : undefined });
  return (
    <div className="acceso">
      <h1>Oficina</h1>
      <div className="acceso-columnas">
        <section aria-labelledby="titulo-iniciar" className="panel">
          <h2 id="titulo-iniciar">Iniciar sesión</h2>
          <ConformForm form={signIn}>
            <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/"} />
            {fields.iniciar.map((f) => (
              <FieldControl key={f.name} field={f} meta={signInFields[f.name as "email"]} />
            ))}
            <div className="acciones">
              <button type="submit" name="intent" value="iniciar" disabled={busy("iniciar")}>
                {busy("iniciar") ? "Entrando…" : "Iniciar sesión"}
              </button>
            </div>
          </ConformForm>
        </section>
        <section aria-labelledby="titulo-crear" className="panel">
          <h2 id="titulo-crear">Crear cuenta</h2>
          <ConformForm form={signUp}>
            {fields.crear.map((f) => (
              <FieldControl key={f.name} field={f} meta={signUpFields[f.name as "email"]} />
            ))}
            <div className="acciones">
              <button type="submit" name="intent" value="crear" disabled={busy("crear")}>
                {busy("crear") ? "Creando…" : "Crear cuenta"}
              </button>
            </div>
          </ConformForm>
        </section>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => pageTitle("Iniciar sesión");
