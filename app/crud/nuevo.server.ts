import { recordName, writableFields, type Entity } from "~/entities/entity";
import { UUID, type Row, type Store } from "~/data/store";
import { toFormValues, type FormValues } from "~/ui/forms";
import { getOr404, notFound } from "./respuestas.server";

/** What the «Nuevo …» form starts with, and the record it copies (its label), if any. */
export type Nuevo = { defaults: FormValues; copiaDe: string | null };

/**
 * The «Nuevo …» form's first values, each over the one before: the entity's defaults; with
 * `?como={id}` (entity.copia), the values of a record this person sees, but those the entity keeps
 * to that record; and `?nuevo.<campo>=<valor>` (e.g. a supplier from the issuer typed on a gasto).
 * Only fields this person writes (`campos`) are taken from the URL or the record. Nothing is saved until sent.
 */
export async function valoresDelNuevo(
  store: Store,
  entity: Entity,
  url: URL,
  quien: { userId: string; country: string; campos: readonly string[] | null },
): Promise<Nuevo> {
  const campos = new Set(quien.campos ?? writableFields(entity).map((f) => f.name));
  const prefill = Object.fromEntries(
    [...url.searchParams]
      .filter(([key]) => key.startsWith("nuevo.") && campos.has(key.slice("nuevo.".length)))
      .map(([key, value]) => [key.slice("nuevo.".length), value.slice(0, 500)]),
  );
  const defaults = { ...entity.defaults?.(quien) };
  const id = url.searchParams.get("como");
  if (!entity.copia || id === null) return { defaults: { ...defaults, ...prefill }, copiaDe: null };

  const noEsta = `${entity.gender === "f" ? "La" : "El"} ${entity.singular} que quiere copiar no existe o no tiene acceso a ${entity.gender === "f" ? "ella" : "él"}.`;
  if (!UUID.test(id)) notFound(noEsta);
  const record = await getOr404<Row>(store, entity.view, id, noEsta);
  for (const name of entity.copia.sinCopiar) campos.delete(name);
  const copiados = toFormValues(
    entity.fields.filter((f) => campos.has(f.name)),
    record,
  );
  // A one-line breakdown carries its rate only: its base and cuota follow the new amount.
  for (const f of entity.fields) {
    const lineas = copiados[f.name];
    if (f.input.type === "desglose" && Array.isArray(lineas) && lineas.length === 1)
      copiados[f.name] = [{ tipo: lineas[0]!.tipo ?? "", base: "", cuota: "" }];
  }
  return {
    defaults: { ...defaults, ...copiados, ...prefill },
    copiaDe: recordName(entity, record),
  };
}
