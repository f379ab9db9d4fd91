import { json } from "@remix-run/node";
import { Conflict, Forbidden, Invalid, NotFound, type Filter, type Row, type Store } from "~/data/store";
import type { Entity } from "~/entities/entity";
import { entityOf } from "~/entities/index";
import { conArticulo } from "~/lib/articulos";
import { cuenta } from "~/lib/plural";
import { forbidden, intentOf, notFound } from "./respuestas.server";

/** A store's refusal (unique value, invalid value, a record still referenced) said in the form's words. */

/** «nombre», but «NIF / RFC / ID fiscal» stays as it is (an acronym first). */
function inSentence(label: string) {
  return /^\p{Lu}{2}/u.test(label) ? label : label.toLowerCase();
}

/**
 * A store refusal as a form reply: field errors where the column is known, else a form error.
 * A duplicate of a field in `entity.duplicados` also gives `existente`, the record that holds the
 * value, so the form links to it.
 */
export async function storeErrorReply(
  entity: Entity,
  store: Store,
  submission: {
    reply: (o?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => unknown;
    payload?: unknown;
    value?: unknown;
  },
  error: unknown,
  formData: FormData,
  selfId?: string,
) {
  if (error instanceof NotFound) notFound();
  if (error instanceof Forbidden) forbidden(error.message);
  if (error instanceof Invalid || error instanceof Conflict) {
    const column = error instanceof Invalid ? columnOfEntity(entity, error.field) : undefined;
    const field = column ? entity.fields.find((f) => f.name === column) : undefined;
    const values = (submission.value ?? {}) as Row;
    const repeated = error.message === "Ya existe un registro con este valor";
    const duplicate = Boolean(field) && repeated;
    // A unique constraint over several columns (`clave_desde`): the fields it names, in the message.
    const together =
      column && repeated && !field ? entity.fields.filter((f) => `_${column}_`.includes(`_${f.name}_`)) : [];
    const shown = field
      ? String(typeof values[field.name] === "string" ? values[field.name] : (formData.get(field.name) ?? "")).trim()
      : "";
    const message =
      field && duplicate
        ? `Ya existe ${entity.gender === "f" ? "una" : "un"} ${entity.singular} con ${inSentence(field.label)} «${field.display ? field.display(shown) : shown}»`
        : error.message === "Valor no válido" && field
          ? `Revise ${conArticulo(field.label)}`
          : together.length > 1
            ? `Ya existe ${entity.gender === "f" ? "una" : "un"} ${entity.singular} con estos valores de ${together.map((f) => `«${f.label}»`).join(" y ")}: cambie alguno de ellos`
            : error.message;
    const reply = field
      ? submission.reply({ fieldErrors: { [field.name]: [message] } })
      : submission.reply({ formErrors: [message] });
    const existente = field && duplicate ? await findExisting(entity, store, field.name, values, selfId) : null;
    return json(
      { ...intentOf(formData), result: reply, ...(existente ? { existente } : {}) },
      { status: error instanceof Conflict ? 409 : 400 },
    );
  }
  throw error;
}

/**
 * The column a refusal names, as the entity's fields name it. Constraint names are
 * `<table>_<column>_…`, read as if the table's name were one word: for a table whose name has
 * an underscore (`tipos_iva_hasta_check`), the rest of its name comes first (`iva_hasta`) and is
 * dropped here.
 */
function columnOfEntity(entity: Entity, column: string | undefined): string | undefined {
  if (!column || entity.fields.some((f) => f.name === column)) return column;
  const rest = entity.table.split("_").slice(1).join("_");
  return rest && column.startsWith(`${rest}_`) ? column.slice(rest.length + 1) : column;
}

/** The record already holding a unique value, to link to it from the error. */
async function findExisting(entity: Entity, store: Store, field: string, values: Row, selfId?: string) {
  const columns = entity.duplicados?.[field];
  if (!columns || columns.some((c) => values[c] === undefined || values[c] === null)) return null;
  const filters: Filter[] = columns.map((column) => ({ column, op: "eq", value: values[column] }));
  if (selfId) filters.push({ column: "id", op: "neq", value: selfId });
  const { rows } = await store
    .list<Row>(entity.view, { filters, limit: 1, offset: 0, count: "none" })
    .catch(() => ({ rows: [] as Row[] }));
  const row = rows[0];
  return row
    ? { campo: field, href: `${entity.path}/${String(row.id)}`, nombre: String(row[entity.labelColumn] ?? "") }
    : null;
}

export async function referencedMessage(store: Store, entity: Entity, id: string) {
  const rows = await store
    .rpc<{ tabla: string; total: number }[] | null>("referencias", { p_tabla: entity.table, p_id: id })
    .catch(() => null);
  const parts = (rows ?? [])
    .filter((r) => Number(r.total) > 0)
    .map((r) => {
      const related = entityOf(r.tabla);
      const a = related?.gender === "f" ? "a" : "o";
      return related
        ? cuenta(Number(r.total), `${related.singular} asociad${a}`, `${related.plural} asociad${a}s`)
        : cuenta(Number(r.total), `registro en ${r.tabla}`, `registros en ${r.tabla}`);
    });
  const what = parts.length ? parts.join(", ") : "registros asociados";
  return `No se puede eliminar: tiene ${what}. ${entity.fields.some((f) => f.name === "activo") ? `Desactív${entity.gender === "f" ? "ela" : "elo"} en su lugar.` : ""}`.trim();
}
