import { parseSubmission } from "~/ui/parse-submission.server";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import {
  chosenPasswordField,
  correoField,
  INVITATION_ONLY,
  knownPasswordField,
  minutos,
  retryAfterHeaders,
} from "~/auth/forms";
import { currentUser } from "~/auth/session.server";
import { mailRefusal, SIGNUP_LIMIT, signUpKey, tooMany } from "~/auth/throttle.server";
import { text, type Z } from "~/entities/fields";
import { safeRedirect } from "~/lib/safe-redirect";
import { pageTitle } from "~/ui/page";
import { ConformForm, FieldControl, useServerForm } from "~/ui/forms";

/** Sign in and sign up, two forms on one page; `intent` tells them apart. */
const nombreField = text("nombre", "Nombre", { required: true, min: 1, max: 80, autoComplete: "name" });
const nuevaField = chosenPasswordField("Contraseña");
const fields = {
  iniciar: [correoField, knownPasswordField("password", "Contraseña")],
  crear: [nombreField, correoField, nuevaField],
};
const schemas = {
  iniciar: (z: Z) =>
    z.object({ email: correoField.schema(z), password: z.string({ error: "Escriba su contraseña" }).max(200) }),
  crear: (z: Z) =>
    z.object({ nombre: nombreField.schema(z), email: correoField.schema(z), password: nuevaField.schema(z) }),
};

const WRONG = "Correo o contraseña incorrectos";

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await currentUser(request, context)) throw redirect("/");
  return json({ signupOpen: await signupOpen(context) });
}

/**
 * «Crear cuenta» is offered unless sign-up is by invitation; even then, an installation with no
 * account lets its first person in (the first confirmed account is the administrador).
 */
async function signupOpen(context: LoaderFunctionArgs["context"]) {
  const { config, installationEmpty } = context.services;
  return config.SIGNUP_MODE !== "invitacion" || ((await installationEmpty?.()) ?? false);
}

export const headers = retryAfterHeaders;

export async function action({ request, context }: ActionFunctionArgs) {
  const { auth, config, flash, throttle } = context.services;
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "iniciar") {
    const submission = parseSubmission(formData, schemas.iniciar);
    if (submission.status !== "success")
      return json({ intent, result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
    const { email, password } = submission.value;
    // Only failures count: per account (5) and per address (hundreds: one office, one NAT).
    const locked = await throttle.lockedFor(email, context.clientIp);
    if (locked) {
      const message =
        locked.scope === "cuenta"
          ? `Demasiados intentos fallidos con este correo. Espere ${minutos(locked.retryAfter)} o elija una contraseña nueva con «¿Ha olvidado su contraseña?», que desbloquea la cuenta al momento.`
          : `Demasiados intentos fallidos desde su red. Espere ${minutos(locked.retryAfter)} antes de volver a intentarlo.`;
      return tooMany(locked.retryAfter, {
        intent,
        result: submission.reply({ formErrors: [message], hideFields: ["password"] }),
      });
    }
    const result = await auth.signIn(request, email, password);
    if (!result.ok) {
      if (result.reason === "credentials") await throttle.recordFailure(email, context.clientIp);
      const message =
        result.reason === "unconfirmed"
          ? "Confirme su correo antes de iniciar sesión: abra el enlace que le enviamos o pida otro en «Reenviar el correo»."
          : result.reason === "inactive"
            ? "Su cuenta está desactivada. Hable con un administrador."
            : WRONG;
      return json(
        { intent, result: submission.reply({ formErrors: [message], hideFields: ["password"] }) },
        { status: 400 },
      );
    }
    await throttle.clearFailures(email);
    return redirect(safeRedirect(formData.get("redirectTo"), "/"), { headers: result.headers });
  }

  if (intent === "crear") {
    if (!(await signupOpen(context)))
      return json({ intent, result: { status: "error" as const, error: { "": [INVITATION_ONLY] } } }, { status: 403 });
    const submission = parseSubmission(formData, schemas.crear);
    if (submission.status !== "success")
      return json({ intent, result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
    const domain = submission.value.email.split("@")[1] ?? "";
    if (config.SIGNUP_MODE === "dominio" && !config.SIGNUP_ALLOWED_DOMAINS.includes(domain))
      return json(
        {
          intent,
          result: submission.reply({
            fieldErrors: {
              email: [`Solo pueden crear cuenta correos de: ${config.SIGNUP_ALLOWED_DOMAINS.join(", ")}`],
            },
            hideFields: ["password"],
          }),
        },
        { status: 400 },
      );
    // Accounts created per address, then mails per inbox: no flood of accounts, no mail bombing.
    const perAddress = await throttle.take(signUpKey(context.clientIp), SIGNUP_LIMIT.limit, SIGNUP_LIMIT.windowMs);
    if (perAddress)
      return tooMany(perAddress.retryAfter, {
        intent,
        result: submission.reply({
          formErrors: [
            `Se han creado demasiadas cuentas desde su red. Espere ${minutos(perAddress.retryAfter)} o pida a un administrador que le invite.`,
          ],
          hideFields: ["password"],
        }),
      });
    const perInbox = await mailRefusal(throttle, "confirmacion", submission.value.email);
    if (perInbox)
      return tooMany(perInbox.retryAfter, {
        intent,
        result: submission.reply({ formErrors: [perInbox.message], hideFields: ["password"] }),
      });
    await auth.signUp(request, submission.value);
    const cookie = await flash.set(request, {
      kind: "exito",
      message: `Le hemos enviado un correo a ${submission.value.email} con el enlace para activar su cuenta.`,
    });
    return redirect("/signup-confirmation", { headers: { "Set-Cookie": cookie } });
  }

  throw json({ message: "Acción desconocida." }, { status: 400 });
}

export default function Login() {
  const { signupOpen } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const [signIn, signInFields] = useServerForm({
    id: "iniciar",
    schema: schemas.iniciar,
    lastResult: actionData?.intent === "iniciar" ? actionData.result : undefined,
  });
  const [signUp, signUpFields] = useServerForm({
    id: "crear",
    schema: schemas.crear,
    lastResult: actionData?.intent === "crear" ? actionData.result : undefined,
  });
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
            <Submit intent="iniciar" label="Iniciar sesión" busyLabel="Entrando…" />
          </ConformForm>
          <p>
            <Link to="/auth/recuperar">¿Ha olvidado su contraseña?</Link>
          </p>
        </section>
        <section aria-labelledby="titulo-crear" className="panel">
          <h2 id="titulo-crear">{signupOpen ? "Crear cuenta" : "¿No tiene cuenta?"}</h2>
          {signupOpen ? (
            <ConformForm form={signUp}>
              {fields.crear.map((f) => (
                <FieldControl key={f.name} field={f} meta={signUpFields[f.name as "email"]} />
              ))}
              <Submit intent="crear" label="Crear cuenta" busyLabel="Creando…" />
            </ConformForm>
          ) : (
            <p>{INVITATION_ONLY} Pídasela a la persona que administra Oficina en su empresa.</p>
          )}
        </section>
      </div>
    </div>
  );
}

/** The form's button, which says it is working while its own form is being sent. */
function Submit({ intent, label, busyLabel }: { intent: string; label: string; busyLabel: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <div className="acciones">
      <button type="submit" name="intent" value={intent} disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}

export const meta: MetaFunction = () => pageTitle("Iniciar sesión");
