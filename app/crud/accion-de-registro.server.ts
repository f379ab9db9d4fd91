import { json, type AppLoadContext } from "@remix-run/node";
import type { Signed } from "~/auth/session.server";
import { Conflict, Forbidden, Invalid, NotFound, UUID, versionDe, type Row, type Store } from "~/data/store";
import { capitalize, recordName, type Entity, type Motivos, type RecordAction } from "~/entities/entity";
import { formSchema } from "~/entities/fields";
import { conArticulo } from "~/lib/articulos";
import { parseSubmission } from "~/ui/parse-submission.server";
import { argumentosDe } from "./en-bloque.server";
import { avisosDe, forbidden, getOr404, notFound, noVisible, redirectWithFlash } from "./respuestas.server";

/**
 * The entity's record actions (`Entity.acciones`, RecordAction): one workflow step on one record,
 * a call to its database function with the version the person saw. The record page posts them
 * (crud.server.ts, recordAction), and a record open beside its list (gastos) too.
 */

/**
 * What the database says this person may not do with record `id` and why (the entity's
 * `motivos`); undefined when the entity declares none, null when the record is not visible.
 */
export async function motivosDe(store: Store, entity: Entity, id: string): Promise<Motivos | null | undefined> {
  if (!entity.motivos) return undefined;
  return store.rpc<Motivos | null>(entity.motivos, { p_id: id }, { reads: true });
}

/**
 * One of the entity's `acciones` on record `id`: refused first when the person may not (its
 * roles, the entity's `motivos`), then its fields parsed, its database function called with the
 * version the person saw, and back to `volver` with what it did (or why not). `nombrar`: the
 * messages name the record («Gasto GAS-2026-00012: …»), for a record open beside its list.
 */
export async function recordStep(
  entity: Entity,
  accion: RecordAction,
  { request, context }: { request: Request; context: AppLoadContext },
  { user, store }: Signed,
  o: {
    id: string;
    formData: FormData;
    volver: string;
    nombrar?: boolean;
    /** The record as its view reads it, when the caller has just read it. */
    record?: Row;
  },
) {
  const { id, formData, volver, nombrar = false } = o;
  if (accion.roles && !accion.roles.includes(user.rol)) forbidden();
  const noEsta = `${capitalize(conArticulo(entity.singular, { genero: entity.gender }))} ${noVisible(entity)}`;
  if (!UUID.test(id)) notFound(noEsta);
  const version = versionDe(formData.get("version"));
  if (version === null)
    throw json(
      {
        message: `Falta la versión ${entity.gender === "f" ? "de la" : "del"} ${entity.singular}: recargue la página.`,
      },
      { status: 400 },
    );
  const [record, motivos] = await Promise.all([
    o.record ?? getOr404<Row>(store, entity.view, id, noEsta),
    motivosDe(store, entity, id),
  ]);
  if (motivos === null) notFound(noEsta);
  // Refused before the form is read: a forced post by someone who may not gets a 403, not field errors.
  const no = motivos?.[accion.intent];
  if (no) forbidden(no);

  const campos = accion.campos ?? [];
  const submission = parseSubmission(formData, (zod) => accion.esquema?.(zod, record) ?? formSchema(zod, campos));
  if (submission.status !== "success")
    return json({ intent: accion.intent, result: submission.reply() }, { status: 400 });
  const nombre = nombrar ? `${capitalize(entity.singular)} ${recordName(entity, record)}: ` : "";
  try {
    const hecho = await store.rpc<Record<string, unknown>>(accion.funcion, {
      p_id: id,
      p_version: version,
      ...argumentosDe(accion, submission.value as Row),
    });
    const avisos = avisosDe(hecho);
    const message = accion.hecho(hecho ?? {}, record);
    return redirectWithFlash(context, request, volver, message, avisos.length ? "aviso" : "exito", {
      detalles: avisos.map((a) => `Aviso: ${a}`),
    });
  } catch (error) {
    if (error instanceof NotFound) notFound(noEsta);
    if (error instanceof Forbidden) forbidden(error.message);
    if (error instanceof Invalid || error instanceof Conflict) {
      const campo = error instanceof Invalid ? campos.find((f) => error.field?.startsWith(f.name)) : undefined;
      if (campo)
        return json(
          { intent: accion.intent, result: submission.reply({ fieldErrors: { [campo.name]: [error.message] } }) },
          { status: 400 },
        );
      const remedio = error instanceof Invalid && error.field ? accion.remedios?.[error.field] : undefined;
      return redirectWithFlash(context, request, volver, `${nombre}${error.message}`, "error", {
        enlace: remedio && { href: `${volver.replace(/#.*$/, "")}#${remedio.ancla}`, texto: remedio.texto },
      });
    }
    throw error;
  }
}
