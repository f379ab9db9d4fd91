import { parseSubmission } from "~/ui/parse-submission.server";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { correoField, minutos, retryAfterHeaders } from "~/auth/forms";
import { linkLife, type PendingInvitation } from "~/auth/invitations.server";
import { requireUser } from "~/auth/session.server";
import { MAIL_LIMIT, mailKey } from "~/auth/throttle.server";
import { listData, type Options } from "~/crud/crud.server";
import { storeErrorReply } from "~/crud/errores.server";
import { datosDePagina, forbidden, redirectWithFlash } from "~/crud/respuestas.server";
import { csvToExport } from "~/crud/csv.server";
import { formSchema, type Field, type Z } from "~/entities/fields";
import { usuarios } from "~/entities/usuarios";
import { labelOf, ROLES } from "~/lib/opciones";
import { formatDateTime } from "~/lib/dates";
import { EntityListPage } from "~/ui/EntityPages";
import { pageTitle, useFormats } from "~/ui/page";
import { CeldaDeAcciones } from "~/ui/TablaTarjetas";
import { anchorIds, ConformForm, FieldControl, useServerForm } from "~/ui/forms";

/**
 * The people of the office, and (for administradores) invitations (ADR 0013): the
 * «Invitar a una persona» form and the pending invitations, each of which can be resent or
 * cancelled. Profiles are not created here any other way: an account's profile is born with it.
 */
const SOLO_ADMIN = "Solo un administrador puede invitar a personas o gestionar las invitaciones.";
const SIN_INVITACIONES =
  "En esta instalación las invitaciones se envían desde el panel de Supabase (Authentication → Users → Invite user): para enviarlas desde aquí, el servidor necesita la clave de servicio de Supabase, que no tiene configurada. Cuando la persona acepte y entre por primera vez, asígnele aquí su rol, departamento, sucursal y aprobador.";

const entidad = {
  ...usuarios,
  intro:
    "Las personas entran con una invitación de un administrador (formulario «Invitar a una persona»: eligen su contraseña con el enlace que reciben por correo) o, donde está permitido, registrándose con «Crear cuenta» en la página de inicio de sesión. Cada uno puede editar su propio perfil.",
};

const campo = (name: string) => usuarios.fields.find((f) => f.name === name)!;
/** The form's fields; `vida` is how long this backend's links live (7 días locally, 24 horas on Supabase). */
const invitarCampos = (vida: string): Field[] => [
  campo("nombre"),
  campo("apellidos"),
  { ...correoField, hint: `Recibirá aquí el enlace para elegir su contraseña (caduca en ${vida}).` },
  campo("rol"),
  campo("departamento_id"),
  campo("sucursal_id"),
  campo("aprobador_id"),
];
// A hint never changes what is valid: the schema does not need the links' life.
const invitarSchema = (z: Z) => formSchema(z, invitarCampos(""));

export const headers = retryAfterHeaders;

export async function loader(args: LoaderFunctionArgs) {
  const signed = await requireUser(args.request, args.context);
  csvToExport(entidad, new URL(args.request.url));
  const data = await listData(entidad, signed, args);
  const { user } = signed;
  const invitations = args.context.services.invitations?.(signed.store);
  const invitar =
    user.rol !== "administrador"
      ? null
      : invitations
        ? {
            disponible: true as const,
            pendientes: await invitations.pending(),
            vida: linkLife(invitations.linkHours),
          }
        : { disponible: false as const, pendientes: [] as PendingInvitation[] };
  return datosDePagina({ ...data, invitar });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, store } = await requireUser(request, context);
  if (user.rol !== "administrador") forbidden(SOLO_ADMIN);
  const { auth, throttle, once } = context.services;
  const invitations = context.services.invitations?.(store);
  if (!invitations) throw json({ message: SIN_INVITACIONES }, { status: 400 });
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "invitar")
    return once(user.id, formData.get("_envio"), async () => {
      const submission = parseSubmission(formData, invitarSchema);
      if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
      const v = submission.value as {
        nombre: string;
        apellidos: string | null;
        email: string;
        rol: (typeof ROLES)[number]["value"];
        departamento_id: string | null;
        sucursal_id: string | null;
        aprobador_id: string | null;
      };
      const emailTaken = (reason: "cuenta" | "pendiente") =>
        json(
          {
            intent,
            result: submission.reply({
              fieldErrors: {
                email: [
                  reason === "cuenta"
                    ? `Ya hay una cuenta con ${v.email}: esa persona ya puede entrar (si está desactivada, actívela en su ficha)`
                    : `Ya hay una invitación pendiente para ${v.email}: reenvíela desde «Invitaciones pendientes»`,
                ],
              },
            }),
          },
          { status: 400 },
        );
      const taken = await invitations.taken(v.email);
      if (taken) return emailTaken(taken);
      // The same per-inbox mail limit as every other mail (no mail bombing, even by an administrador).
      const refused = await throttle.take(mailKey("invitacion", v.email), MAIL_LIMIT.limit, MAIL_LIMIT.windowMs);
      if (refused)
        return json(
          {
            intent,
            result: submission.reply({
              formErrors: [
                `Se han enviado demasiados correos a ${v.email}: no hemos invitado a nadie. Espere ${minutos(refused.retryAfter)}.`,
              ],
            }),
          },
          { status: 429, headers: { "Retry-After": String(refused.retryAfter) } },
        );
      let created;
      try {
        created = await invitations.create(user.id, v);
      } catch (error) {
        return storeErrorReply(usuarios, store, submission, error, formData);
      }
      if (!created.ok) return emailTaken(created.reason);
      await auth.sendToken("invitacion", v.email);
      return redirectWithFlash(
        context,
        request,
        "/usuarios",
        `Invitación enviada a ${v.email}. El enlace caduca en ${linkLife(invitations.linkHours)} y solo sirve una vez.`,
      );
    });

  if (intent === "reenviar" || intent === "cancelar") {
    const yaNoPendiente = () =>
      redirectWithFlash(
        context,
        request,
        "/usuarios",
        "Esa invitación ya no está pendiente: la persona ya la aceptó o se canceló.",
        "aviso",
      );
    const pending = await invitations.get(String(formData.get("id") ?? ""));
    if (!pending) return yaNoPendiente();
    if (intent === "cancelar") {
      const cancelled = await invitations.cancel(user.id, pending.id);
      if (!cancelled) return yaNoPendiente();
      return redirectWithFlash(
        context,
        request,
        "/usuarios",
        cancelled.result === "eliminada"
          ? `Invitación de ${cancelled.email} cancelada: el enlace ya no sirve y la cuenta pendiente se ha eliminado.`
          : `Invitación de ${cancelled.email} cancelada: el enlace ya no sirve. La cuenta se ha desactivado en lugar de eliminarse porque otros registros ya la mencionan.`,
      );
    }
    const refused = await throttle.take(mailKey("invitacion", pending.email), MAIL_LIMIT.limit, MAIL_LIMIT.windowMs);
    if (refused)
      return json(
        {
          intent,
          id: pending.id,
          error: `Se han enviado demasiados correos a ${pending.email}: no hemos enviado otro. Espere ${minutos(refused.retryAfter)}; mientras, sirve el enlace del último correo.`,
        },
        { status: 429, headers: { "Retry-After": String(refused.retryAfter) } },
      );
    await auth.sendToken("invitacion", pending.email);
    await invitations.sent(pending.id);
    return redirectWithFlash(
      context,
      request,
      "/usuarios",
      `Invitación reenviada a ${pending.email}. El enlace anterior ya no sirve; el nuevo caduca en ${linkLife(invitations.linkHours)}.`,
    );
  }

  throw json({ message: "Acción desconocida." }, { status: 400 });
}

type ActionData =
  | { intent?: string; result?: Parameters<typeof useServerForm>[0]["lastResult"]; id?: string; error?: string }
  | undefined;

function InvitarForm({ options, envio, vida }: { options: Options; envio: string; vida: string }) {
  const data = useActionData<ActionData>();
  const navigation = useNavigation();
  const [form, fields] = useServerForm({
    // Not «invitar»: that id is the fragment the form lands on (its heading, or its error summary).
    id: "invitacion",
    schema: invitarSchema,
    lastResult: data?.intent === "invitar" ? data.result : undefined,
    defaultValue: { rol: "empleado" },
  });
  const busy = navigation.state === "submitting" && navigation.formData?.get("_envio") === envio;
  // A refused invitation lands (`#invitar`) on the error summary, focused, even without JavaScript.
  const ids = anchorIds(form, "invitar");
  return (
    <section aria-labelledby={ids.heading} className="panel">
      <h2 id={ids.heading} tabIndex={-1}>
        Invitar a una persona
      </h2>
      <p>
        Recibirá un correo con un enlace para elegir su contraseña; al entrar tendrá el rol, el departamento, la
        sucursal y el aprobador que elija aquí.
      </p>
      <ConformForm form={form} action="/usuarios?index#invitar" summaryId={ids.summary}>
        <input type="hidden" name="_envio" value={envio} />
        <input type="hidden" name="intent" value="invitar" />
        {invitarCampos(vida).map((field) => (
          <FieldControl
            key={field.name}
            field={field}
            meta={fields[field.name]!}
            options={field.input.type === "ref" ? options[field.input.table]?.options : undefined}
          />
        ))}
        <div className="acciones">
          <button type="submit" disabled={busy}>
            {busy ? "Enviando…" : "Enviar la invitación"}
          </button>
        </div>
      </ConformForm>
    </section>
  );
}

const BOTONES_INVITACION = [
  { intent: "reenviar", texto: "Reenviar", className: "secundario" },
  { intent: "cancelar", texto: "Cancelar", className: "peligro" },
] as const;

function Pendientes({ pendientes }: { pendientes: PendingInvitation[] }) {
  const data = useActionData<ActionData>();
  const { locale } = useFormats();
  return (
    <section aria-labelledby="pendientes" className="panel">
      <h2 id="pendientes" tabIndex={-1}>
        Invitaciones pendientes
      </h2>
      {data?.error ? (
        <div className="aviso aviso-error" role="alert">
          {data.error}
        </div>
      ) : null}
      {pendientes.length === 0 ? (
        <p>No hay invitaciones pendientes.</p>
      ) : (
        <div className="tabla-contenedor">
          <table>
            <caption className="visually-hidden">Invitaciones pendientes: {pendientes.length}</caption>
            <thead>
              <tr>
                <th scope="col">Persona</th>
                <th scope="col">Rol</th>
                <th scope="col">Departamento</th>
                <th scope="col">Enviada</th>
                <th scope="col">Enlace</th>
                <th scope="col">Acciones</th>
              </tr>
            </thead>
            <tbody>
              {pendientes.map((p) => (
                <tr key={p.id}>
                  <th scope="row">
                    {p.nombre_completo}
                    <br />
                    <span className="ayuda">{p.email}</span>
                  </th>
                  <td>{labelOf(ROLES, p.rol)}</td>
                  <td>{p.departamento_nombre ?? "—"}</td>
                  <td>
                    {formatDateTime(p.enviada_en, locale)}
                    {p.invitada_por_nombre ? ` por ${p.invitada_por_nombre}` : ""}
                  </td>
                  <td>
                    {p.caduca_en
                      ? `Caduca el ${formatDateTime(p.caduca_en, locale)}`
                      : "Caducado: reenvíe la invitación"}
                  </td>
                  <CeldaDeAcciones
                    campo="id"
                    valor={p.id}
                    botones={BOTONES_INVITACION}
                    etiqueta={(b) => `${b.texto} la invitación de ${p.email}`}
                    action="/usuarios?index#pendientes"
                    className="acciones"
                  />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export default function Usuarios() {
  const { invitar, options, nuevo } = useLoaderData<typeof loader>();
  return (
    <EntityListPage entity={entidad}>
      {invitar ? (
        invitar.disponible ? (
          <>
            <Pendientes pendientes={invitar.pendientes} />
            <InvitarForm options={options} envio={nuevo.envio} vida={invitar.vida} />
          </>
        ) : (
          <section aria-labelledby="invitar" className="panel">
            <h2 id="invitar">Invitar a una persona</h2>
            <p>{SIN_INVITACIONES}</p>
          </section>
        )
      ) : null}
    </EntityListPage>
  );
}
export const meta: MetaFunction = () => pageTitle(usuarios.title);
