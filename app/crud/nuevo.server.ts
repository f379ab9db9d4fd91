import { recordName, writableFields, type Entity } from "~/entities/entity";
import { UUID, type Row, type Store } from "~/data/store";
import { toFormValues, type FormValues } from "~/ui/forms";
import { getOr404, notFound } from "./respuestas.server";

/** A record the form starts from: its id, its name, and what the page adds about what was left out. */
export type Copia = { id: string; de: string; notas: string[] };
/** What the «Nuevo …» form starts with, and the record it copies, if any. */
export type Nuevo = { defaults: FormValues; copia: Copia | null };

/**
 * The «Nuevo …» form's first values, each over the one before: the entity's defaults; with
 * `?como={id}` (entity.copia), the values of a record this person sees, but those the entity keeps
 * to that record; and `?nuevo.<campo>=<valor>` (e.g. a supplier from the issuer typed on a gasto).
 * Only fields this person writes (`campos`) are taken from the URL or the record. Nothing is saved
 * until sent.
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
  const defaults: FormValues = { ...entity.defaults?.(quien) };
  const id = url.searchParams.get("como");
  if (!entity.copia || id === null) return { defaults: { ...defaults, ...prefill }, copia: null };

  const { sinCopiar, delDueno } = entity.copia;
  const noEsta = `${entity.gender === "f" ? "La" : "El"} ${entity.singular} que quiere copiar no existe o no tiene acceso a ${entity.gender === "f" ? "ella" : "él"}.`;
  if (!UUID.test(id)) notFound(noEsta);
  const record = await getOr404<Row>(store, entity.view, id, noEsta);
  for (const name of sinCopiar) campos.delete(name);
  const copiados = toFormValues(
    entity.fields.filter((f) => campos.has(f.name)),
    record,
  );
  for (const f of entity.fields) {
    if (!campos.has(f.name)) continue;
    // Unticked in the record: unticked in the form, whatever a new one starts with.
    if (f.input.type === "checkbox") copiados[f.name] ??= "";
    // A one-line breakdown carries its rate only: its base and cuota follow the new amount.
    const lineas = copiados[f.name];
    if (f.input.type === "desglose" && Array.isArray(lineas) && lineas.length === 1)
      copiados[f.name] = [{ tipo: lineas[0]!.tipo ?? "", base: "", cuota: "" }];
  }
  // Someone else's record: what goes with its owner starts as for a new one.
  if (delDueno && record[delDueno.columna] !== (copiados[delDueno.columna] ?? defaults[delDueno.columna]))
    for (const name of delDueno.campos) delete copiados[name];
  return {
    defaults: { ...defaults, ...copiados, ...prefill },
    copia: { id, de: recordName(entity, record), notas: [] },
  };
}
