import { json, type AppLoadContext } from "@remix-run/node";
import type { Signed } from "~/auth/session.server";
import { Conflict, Forbidden, Invalid, NotFound, UUID, versionDe, type Store } from "~/data/store";
import { DATOS_BANCARIOS_CAMPOS, datosBancariosSchema, type DatosBancarios } from "~/entities/datos-bancarios";
import { conArticulo } from "~/lib/articulos";
import { usuarios } from "~/entities/usuarios";
import { normalizeNif } from "~/lib/nif";
import { quienIndico } from "~/pagos/cuenta-indicada";
import { parseSubmission } from "~/ui/parse-submission.server";
import { alContenido, forbidden, getOr404, notFound, redirectWithFlash } from "./respuestas.server";

/**
 * «Datos bancarios» on a person's profile: only that person and the administradores see it or
 * write it (row-level security says the same; for anyone else nothing is even read).
 */
export const veDatosBancarios = (user: Signed["user"], usuarioId: string) =>
  user.id === usuarioId || user.rol === "administrador";

async function datosDe(store: Store, usuarioId: string): Promise<DatosBancarios | null> {
  const { rows } = await store.list("datos_bancarios", {
    filters: [{ column: "usuario_id", op: "eq", value: usuarioId }],
    columns: ["id", "version", "iban", "titular", "nif"],
    limit: 1,
    offset: 0,
    count: "none",
  });
  return rows[0] ?? null;
}

/**
 * When the account (the IBAN) was last written and by whom (public.cuenta_indicada, from its
 * history), said as the remesas say it. Someone whose refunds go to an account another person
 * wrote sees it on their profile (and that person cannot pay to it: remesas).
 */
async function cambioDeCuenta(store: Store, usuarioId: string, user: Signed["user"]) {
  const cambio = await store.rpc<{ en: string; actor_id: string | null; actor_nombre: string | null } | null>(
    "cuenta_indicada",
    { p_usuario_id: usuarioId },
    // Only reads: with the account's own read, not in a transaction of its own.
    { reads: true },
  );
  if (!cambio) return null;
  return { en: cambio.en, quien: quienIndico({ por_id: cambio.actor_id, por: cambio.actor_nombre }, user.id) };
}

/** The profile's section (a `recordLoader` extra): null to anyone who may not see it. */
export async function datosBancariosDe({ user, store, id }: Signed & { id: string }) {
  if (!veDatosBancarios(user, id)) return { datosBancarios: null };
  const [fila, cambio] = await Promise.all([datosDe(store, id), cambioDeCuenta(store, id, user)]);
  return { datosBancarios: { fila, cambio, envio: crypto.randomUUID() } };
}

const CAMBIADOS =
  "Otra persona cambió estos datos bancarios mientras los editaba: los de ahora están encima del formulario. Si vuelve a guardar, lo que hay en el formulario los sustituirá, también lo que dejó vacío.";

/**
 * POST `intent=datos_bancarios`: the account is added (no row yet) or changed (the row's
 * `version`, posted by the form, must still be current). Refusals answer as `datosBancarios`.
 */
export async function guardarDatosBancarios(
  { user, store }: Signed,
  { request, context }: { request: Request; context: AppLoadContext },
  usuarioId: string,
  form: FormData,
) {
  if (!UUID.test(usuarioId)) notFound();
  if (!veDatosBancarios(user, usuarioId))
    forbidden("Solo la propia persona y los administradores cambian su cuenta bancaria.");
  const intent = "datos_bancarios";
  return context.services.once(user.id, form.get("_envio"), async () => {
    await getOr404(store, usuarios.view, usuarioId);
    const submission = parseSubmission(form, datosBancariosSchema);
    if (submission.status !== "success") return json({ intent, datosBancarios: submission.reply() }, { status: 400 });
    const { iban, titular, nif } = submission.value;
    const values = { iban, titular, nif: typeof nif === "string" ? normalizeNif(nif, "ES") || null : null };
    const refused = (o: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }, status = 400) =>
      json({ intent, datosBancarios: submission.reply(o) }, { status });
    try {
      const actual = await datosDe(store, usuarioId);
      const posted = versionDe(form.get("version"));
      // Both emptied: what was saved goes (at the version shown); with nothing saved, one is asked for.
      if (!values.iban && !values.nif) {
        if (!actual) return refused({ fieldErrors: { iban: ["Escriba el IBAN, el NIF o los dos"] } });
        if (posted === null) return refused({ formErrors: [CAMBIADOS] }, 409);
        await store.remove("datos_bancarios", actual.id, posted);
        const url = new URL(request.url);
        return redirectWithFlash(context, request, alContenido(url.pathname + url.search), "Datos bancarios quitados.");
      }
      if (actual) {
        // A form shown before the account existed has no version: someone added it meanwhile.
        if (posted === null) return refused({ formErrors: [CAMBIADOS] }, 409);
        await store.update("datos_bancarios", actual.id, posted, values);
      } else await store.insert("datos_bancarios", { usuario_id: usuarioId, ...values });
    } catch (error) {
      if (error instanceof Conflict) return refused({ formErrors: [CAMBIADOS] }, 409);
      if (error instanceof Invalid) {
        // A constraint's name reads as `datos_<bancarios_columna>_check` (see storeErrorFromPostgres).
        const campo = error.field?.replace(/^bancarios_/, "");
        if (campo === "usuario_id") return refused({ formErrors: [CAMBIADOS] }, 409);
        const etiqueta = DATOS_BANCARIOS_CAMPOS.find((f) => f.name === campo)?.label;
        if (campo && etiqueta)
          return refused({
            fieldErrors: {
              [campo]: [error.message === "Valor no válido" ? `Revise ${conArticulo(etiqueta)}` : error.message],
            },
          });
        return refused({ formErrors: [error.message] });
      }
      if (error instanceof Forbidden) forbidden(error.message);
      if (error instanceof NotFound) notFound();
      throw error;
    }
    const url = new URL(request.url);
    return redirectWithFlash(context, request, alContenido(url.pathname + url.search), "Datos bancarios guardados.");
  });
}
