import type { SubmissionResult } from "@conform-to/react";
import { parseSubmission } from "~/ui/parse-submission.server";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useFormAction,
  useLoaderData,
  useLocation,
  useRouteLoaderData,
} from "@remix-run/react";
import { actualField, changePasswordSchema, minutos, nuevaField, repetirField, retryAfterHeaders } from "~/auth/forms";
import { requireUser } from "~/auth/session.server";
import { tooMany } from "~/auth/throttle.server";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { alContenido, redirectWithFlash } from "~/crud/respuestas.server";
import { datosBancariosDe, guardarDatosBancarios } from "~/crud/datos-bancarios.server";
import { DATOS_BANCARIOS_CAMPOS, datosBancariosSchema, type DatosBancarios } from "~/entities/datos-bancarios";
import { usuarios } from "~/entities/usuarios";
import type { RootData } from "~/root";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { EntityRecordPage } from "~/ui/EntityPages";
import { pageTitle, useFormats } from "~/ui/page";
import { formatDateTime } from "~/lib/dates";
import { formatIban } from "~/lib/iban";
import { ConformForm, FieldControl, SubmitIntent, toFormValues, useServerForm } from "~/ui/forms";

export const headers = retryAfterHeaders;

export const loader = (args: LoaderFunctionArgs) =>
  recordLoader(usuarios, args, {
    extra: async (ctx) => ({ propio: ctx.user.id === ctx.id, ...(await datosBancariosDe(ctx)) }),
  });

/**
 * Besides the record's own actions: the signed-in user's password (own profile only), their
 * bank account (the person and the administradores: see datos-bancarios.server), and a
 * confirm step before an administrador takes away their own rights (hole 12): the
 * first POST only shows what they will lose; the second, with `confirmar_degradacion`, saves.
 */
export async function action(args: ActionFunctionArgs) {
  const { request, context, params } = args;
  const form = await request.formData();
  const intent = form.get("intent");

  if (intent === "cambiar_contrasena") {
    const { user } = await requireUser(request, context);
    if (user.id !== params.id) throw json({ message: "Solo puede cambiar su propia contraseña." }, { status: 403 });
    const submission = parseSubmission(form, changePasswordSchema);
    const hidden = { hideFields: ["actual", "password", "confirmacion"] };
    // Not `result`: that key belongs to the record's edit form on the same page.
    if (submission.status !== "success") return json({ intent, contrasena: submission.reply(hidden) }, { status: 400 });
    // The current password is a guess like a sign-in's: the same counters and the same lock, so
    // a stolen session cannot try passwords here while the sign-in page refuses them.
    const { throttle } = context.services;
    const locked = await throttle.lockedFor(user.email, context.clientIp);
    if (locked)
      return tooMany(locked.retryAfter, {
        intent,
        contrasena: submission.reply({
          ...hidden,
          formErrors: [
            `Demasiados intentos fallidos con la contraseña de esta cuenta. Espere ${minutos(locked.retryAfter)} antes de volver a intentarlo.`,
          ],
        }),
      });
    const result = await context.services.auth.changePassword(
      request,
      submission.value.actual,
      submission.value.password,
    );
    if (!result.ok) {
      await throttle.recordFailure(user.email, context.clientIp);
      return json(
        {
          intent,
          contrasena: submission.reply({ ...hidden, fieldErrors: { actual: ["La contraseña actual no es correcta"] } }),
        },
        { status: 400 },
      );
    }
    await throttle.clearFailures(user.email);
    const response = await redirectWithFlash(
      context,
      request,
      alContenido(`/usuarios/${user.id}`),
      "Contraseña cambiada. Se han cerrado sus otras sesiones; esta sigue abierta.",
    );
    // Supabase re-authenticated: this browser's session continues under the new tokens.
    for (const cookie of result.headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
    return response;
  }

  if (intent === "datos_bancarios")
    return guardarDatosBancarios(await requireUser(request, context), args, params.id ?? "", form);

  if (intent === "guardar" && form.get("confirmar_degradacion") !== "1") {
    const { user } = await requireUser(request, context);
    const demotes = form.has("rol") && form.get("rol") !== "administrador";
    const deactivates = form.has("rol") && form.get("activo") !== "on";
    if (user.id === params.id && user.rol === "administrador" && (demotes || deactivates)) {
      const pierde = [
        ...(demotes
          ? [
              `Dejará de ser administrador (pasará a ${form.get("rol") === "aprobador" ? "aprobador" : "empleado"}): no podrá gestionar usuarios, departamentos ni sucursales, ni marcar gastos como pagados, ni deshacerlo usted.`,
            ]
          : []),
        ...(deactivates
          ? [
              "Desactivará su propia cuenta: su sesión se cerrará y no podrá volver a entrar hasta que otro administrador la reactive.",
            ]
          : []),
      ];
      const campos = [...form.entries()].filter(([k, v]) => k !== "intent" && typeof v === "string") as [
        string,
        string,
      ][];
      return json({ intent: "confirmar_degradacion" as const, pierde, campos });
    }
  }

  return recordAction(
    usuarios,
    { ...args, formData: form },
    {
      /** A deactivated user's sessions end at once (their next request is refused anyway: see session.server). */
      afterSave: async (saved) => {
        if (saved.activo === false) await context.services.auth.endSessionsOf(String(saved.id));
      },
    },
  );
}

function ConfirmarDegradacion({ pierde, campos }: { pierde: string[]; campos: [string, string][] }) {
  const location = useLocation();
  return (
    <ConfirmDialog titleId="degradacion-titulo" cancelHref={location.pathname + location.search}>
      <h2 id="degradacion-titulo">¿Quitarse sus propios permisos de administrador?</h2>
      <ul>
        {pierde.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
      <p>Solo otro administrador podrá devolvérselos.</p>
      <Form method="post" className="acciones">
        {campos.map(([name, value], i) => (
          <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirmar_degradacion" value="1" />
        <button type="submit" name="intent" value="guardar" className="peligro">
          Sí, guardar los cambios
        </button>
        <Link to={location.pathname + location.search}>Cancelar</Link>
      </Form>
    </ConfirmDialog>
  );
}

function CambiarContrasena() {
  const actionData = useActionData<typeof action>();
  const lastResult =
    actionData && "intent" in actionData && actionData.intent === "cambiar_contrasena" && "contrasena" in actionData
      ? (actionData.contrasena as SubmissionResult<string[]>)
      : undefined;
  const [form, fields] = useServerForm({ id: "contrasena", schema: changePasswordSchema, lastResult });
  // A refused change lands on its error summary, focused, not at the top of the page.
  const destino = `${useFormAction()}#contrasena-errores`;
  return (
    <section aria-labelledby="titulo-contrasena" className="panel">
      <h2 id="titulo-contrasena">Cambiar mi contraseña</h2>
      <p>Al cambiarla se cierran sus sesiones en otros navegadores; esta sigue abierta.</p>
      <ConformForm form={form} action={destino} summaryId="contrasena-errores">
        <FieldControl field={actualField} meta={fields.actual} />
        <FieldControl field={nuevaField} meta={fields.password} />
        <FieldControl field={repetirField} meta={fields.confirmacion} />
        <SubmitIntent intent="cambiar_contrasena">Cambiar la contraseña</SubmitIntent>
      </ConformForm>
    </section>
  );
}

/** Where this person's reimbursements are paid: shown, and added or changed, in one small form. */
function DatosBancariosSeccion({
  fila,
  cambio,
  envio,
  propio,
  nombre,
}: {
  fila: DatosBancarios | null;
  /** When the IBAN was last written, and by whom. */
  cambio: { en: string; quien: string } | null;
  envio: string;
  propio: boolean;
  /** The person's name: the account's holder unless `titular` says otherwise. */
  nombre: string;
}) {
  const { locale } = useFormats();
  const actionData = useActionData<typeof action>();
  const lastResult =
    actionData && "intent" in actionData && actionData.intent === "datos_bancarios" && "datosBancarios" in actionData
      ? (actionData.datosBancarios as SubmissionResult<string[]>)
      : undefined;
  const [form, fields] = useServerForm({
    id: "datos-bancarios",
    schema: datosBancariosSchema,
    lastResult,
    defaultValue: toFormValues(DATOS_BANCARIOS_CAMPOS, fila),
  });
  // A refused account lands on its error summary, focused, not at the top of the page.
  const destino = `${useFormAction()}#datos-bancarios-errores`;
  return (
    <section aria-labelledby="titulo-datos-bancarios" className="panel">
      <h2 id="titulo-datos-bancarios">Datos bancarios</h2>
      <p>
        {propio
          ? "La cuenta en la que cobra los reembolsos de sus gastos, y su NIF para el informe de IRPF. Solo los ven usted y los administradores."
          : "La cuenta en la que esta persona cobra los reembolsos de sus gastos, y su NIF para el informe de IRPF. Solo los ven ella y los administradores."}
      </p>
      {fila ? (
        <dl className="ficha">
          <dt>IBAN</dt>
          <dd>{fila.iban ? formatIban(fila.iban) : "Ninguno: los reembolsos no se pueden pagar por transferencia."}</dd>
          {fila.iban ? (
            <>
              <dt>Titular</dt>
              <dd>{fila.titular ?? nombre}</dd>
            </>
          ) : null}
          {cambio ? (
            <>
              <dt>Cuenta indicada</dt>
              <dd>
                {formatDateTime(cambio.en, locale)}, {cambio.quien}
              </dd>
            </>
          ) : null}
          <dt>NIF</dt>
          <dd>{fila.nif ?? "—"}</dd>
        </dl>
      ) : null}
      {fila ? (
        <p className="ayuda">Para quitarlos, deje vacíos el IBAN y el NIF y guarde.</p>
      ) : (
        <p>Todavía no hay ninguna cuenta: sin ella, sus reembolsos no se pueden pagar por transferencia.</p>
      )}
      <ConformForm form={form} action={destino} summaryId="datos-bancarios-errores">
        <input type="hidden" name="_envio" value={envio} />
        {fila ? <input type="hidden" name="version" value={fila.version} /> : null}
        {DATOS_BANCARIOS_CAMPOS.map((f) => (
          <FieldControl key={f.name} field={f} meta={fields[f.name]!} />
        ))}
        <SubmitIntent intent="datos_bancarios">Guardar los datos bancarios</SubmitIntent>
      </ConformForm>
    </section>
  );
}

export default function Usuario() {
  const { propio, datosBancarios, record } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const confirmar =
    actionData && "intent" in actionData && actionData.intent === "confirmar_degradacion"
      ? (actionData as { pierde: string[]; campos: [string, string][] })
      : null;
  // One's own profile reached from the header («Mi perfil»), not from the list (whose links carry
  // `?volver=`), or by someone whose navigation has no list of users: no way «back» to it.
  const { search } = useLocation();
  const navegacion = useRouteLoaderData<RootData>("root")?.navegacion;
  const listaEnSuNavegacion = [
    ...(navegacion?.principal ?? []),
    ...(navegacion?.grupos ?? []).flatMap((g) => g.secciones),
  ].some((s) => s.to === usuarios.path);
  const sinVolver = propio && (!listaEnSuNavegacion || !new URLSearchParams(search).has("volver"));
  return (
    <EntityRecordPage entity={usuarios} sinVolver={sinVolver}>
      {confirmar ? <ConfirmarDegradacion pierde={confirmar.pierde} campos={confirmar.campos} /> : null}
      {datosBancarios ? (
        // A new version is a fresh form: after a save it shows what was stored.
        <DatosBancariosSeccion
          key={datosBancarios.fila?.version ?? 0}
          fila={datosBancarios.fila}
          cambio={datosBancarios.cambio}
          envio={datosBancarios.envio}
          propio={propio}
          nombre={String(record.nombre_completo ?? record.nombre)}
        />
      ) : null}
      {propio ? <CambiarContrasena /> : null}
    </EntityRecordPage>
  );
}
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageTitle(data ? String(data.record.nombre_completo ?? data.record.nombre) : undefined, usuarios.title);
