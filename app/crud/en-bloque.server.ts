import { json, type AppLoadContext } from "@remix-run/node";
import type { Signed } from "~/auth/session.server";
import { Conflict, Forbidden, Invalid, NotFound, UUID, versionDe } from "~/data/store";
import type { ListQuery, Row, Store } from "~/data/store";
import { capitalize, recordName, type BulkAction, type Entity } from "~/entities/entity";
import { formSchema } from "~/entities/fields";
import { conArticulo, conIndefinido } from "~/lib/articulos";
import { cuenta, plural } from "~/lib/plural";
import { parseSubmission } from "~/ui/parse-submission.server";
import { avisosDe, forbidden, noVisible, redirectWithFlash } from "./respuestas.server";

/**
 * Bulk actions, for any entity that declares them (`Entity.enBloque`): the rows checked in its
 * list (`seleccion`, «id:version» each) or every row its filter matches, one call of the
 * action's function per row, each in its own transaction with the version the person saw. The
 * database decides each row on its own; the summary says what was done and, for the rest, why not.
 */

/** At most this many rows in one bulk action, checked or matched (the rest: another go). */
export const EN_BLOQUE_MAXIMO = 500;

/** One checked row: its id and the version the person saw (null: the current one). */
export type Marcado = { id: string; version: number | null };

type Ctx = { request: Request; context: AppLoadContext; signed: Signed; formData: FormData; volver: string };

/** The checked rows of a post, unreadable values left out. */
export function leerSeleccion(formData: FormData): { raw: string[]; items: Marcado[] } {
  const raw = formData.getAll("seleccion").map(String);
  const items = raw.flatMap((v) => {
    const [id, version] = v.split(":");
    return id && UUID.test(id) ? [{ id, version: versionDe(version) }] : [];
  });
  return { raw, items };
}

/** The action's fields (one set for every row), all their errors at once: Conform's reply, as every form's. */
function leerCampos(accion: BulkAction, formData: FormData) {
  return parseSubmission(formData, (z) => accion.esquema?.(z) ?? formSchema(z, accion.campos ?? []));
}

/** What is wrong with the checked rows, as the error of the field `seleccion`, or null. */
function errorDeSeleccion(entity: Entity, items: readonly Marcado[]): string | null {
  const marcados = new Set(items.map((i) => i.id)).size;
  if (marcados === 0) return `Marque al menos ${conIndefinido(entity.singular)} de la lista.`;
  // Each checked row costs reads and a call: as many as «todos los que coinciden» at most.
  if (marcados > EN_BLOQUE_MAXIMO)
    return `Marque como mucho ${EN_BLOQUE_MAXIMO} ${entity.plural} a la vez; el resto, en otro envío. No se ha cambiado nada.`;
  return null;
}

/**
 * A workflow function's arguments from its parsed fields: `p_<campo>` each, or what the action's
 * `argumentos` makes of them. Record actions (crud.server.ts) call their functions the same way.
 */
export function argumentosDe(accion: Pick<BulkAction, "campos" | "argumentos">, values: Row): Row {
  return (
    accion.argumentos?.(values) ??
    Object.fromEntries((accion.campos ?? []).map((f) => [`p_${f.name}`, values[f.name] ?? null]))
  );
}

type Resultado = { hechos: string[]; rechazados: { nombre: string; motivo: string }[]; avisos: string[] };

/** The database's refusal as words for a person; the database already says it in Spanish. */
function motivoDe(entity: Entity, error: unknown): string {
  if (error instanceof NotFound) return noVisible(entity);
  if (error instanceof Conflict || error instanceof Forbidden || error instanceof Invalid) return error.message;
  throw error;
}

/**
 * Calls the action's function on each row, one by one. `extra`: its own arguments, the same for
 * every row. The warnings it returns (avisosDe) are said after the summary, a later one on the
 * same subject (the words before «:») replacing an earlier one (a budget's running total).
 */
export async function ejecutarEnBloque(
  store: Store,
  entity: Entity,
  accion: BulkAction,
  items: readonly Marcado[],
  extra: Row,
): Promise<Resultado> {
  const ids = [...new Set(items.map((i) => i.id))];
  const { rows } = await store.list<Row>(entity.view, {
    filters: [{ column: "id", op: "in", value: ids }],
    columns: ["id", "version", entity.labelColumn],
    limit: ids.length,
    offset: 0,
    count: "none",
  });
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  const out: Resultado = { hechos: [], rechazados: [], avisos: [] };
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    const row = byId.get(item.id);
    if (!row) {
      out.rechazados.push({ nombre: capitalize(conIndefinido(entity.singular)), motivo: noVisible(entity) });
      continue;
    }
    const nombre = recordName(entity, row);
    try {
      const hecho = await store.rpc<unknown>(accion.funcion, {
        p_id: item.id,
        p_version: item.version ?? Number(row.version),
        ...extra,
      });
      out.hechos.push(nombre);
      for (const aviso of avisosDe(hecho)) {
        const asunto = aviso.split(":")[0];
        out.avisos = [...out.avisos.filter((a) => a.split(":")[0] !== asunto), aviso];
      }
    } catch (error) {
      out.rechazados.push({ nombre, motivo: motivoDe(entity, error) });
    }
  }
  return out;
}

const MAX_DETALLES = 8;
const MAX_NOMBRES = 20;

/**
 * «Se han aprobado 3 de 5 gastos.», then the rows it changed, then one line each for what was
 * refused and why (the first few), then the warnings.
 */
export function resumenEnBloque(entity: Entity, accion: BulkAction, r: Resultado) {
  const { infinitivo, participio, perfecto } = accion.verbo;
  const n = r.hechos.length;
  const total = n + r.rechazados.length;
  const seHa = `${n === 1 ? "Se ha" : "Se han"} ${perfecto[n === 1 ? 0 : 1]}`;
  const uno = entity.gender === "f" ? "Una" : "Uno";
  // Names with commas («Valencia, 27/11/2026») are told apart by semicolons.
  const separador = r.hechos.some((h) => h.includes(",")) ? "; " : ", ";
  const ninguno = entity.gender === "f" ? "ninguna de las" : "ninguno de los";
  const message =
    r.rechazados.length === 0
      ? `${seHa} ${cuenta(n, entity.singular, entity.plural)}.`
      : n === 0
        ? `No se pudo ${infinitivo} ${total === 1 ? conArticulo(entity.singular) : `${ninguno} ${total} ${entity.plural}`}:`
        : `${seHa} ${n} de ${cuenta(total, entity.singular, entity.plural)}. ${r.rechazados.length === 1 ? `${uno} no se pudo` : `${r.rechazados.length} no se pudieron`} ${infinitivo}:`;
  const hechos =
    n === 0
      ? []
      : [
          `${plural(n, ...participio)}: ${r.hechos.slice(0, MAX_NOMBRES).join(separador)}${n > MAX_NOMBRES ? ` y ${n - MAX_NOMBRES} más` : ""}.`,
        ];
  const detalles = r.rechazados
    .slice(0, MAX_DETALLES)
    .map((x) => `${x.nombre}: ${x.motivo.length > 160 ? `${x.motivo.slice(0, 157)}…` : x.motivo}`);
  if (r.rechazados.length > MAX_DETALLES) detalles.push(`y ${r.rechazados.length - MAX_DETALLES} más.`);
  for (const aviso of r.avisos.slice(0, 3)) detalles.push(`Aviso: ${aviso}`);
  const kind = n === 0 ? "error" : r.rechazados.length > 0 || r.avisos.length > 0 ? "aviso" : "exito";
  return { message, detalles: [...hechos, ...detalles], kind: kind as "error" | "aviso" | "exito" };
}

/** Runs the action on the rows and says, back at `volver`, above the list, what it did and what not. */
async function actuar(
  entity: Entity,
  accion: BulkAction,
  items: readonly Marcado[],
  extra: Row,
  { request, context, signed, volver }: Ctx,
) {
  const r = resumenEnBloque(entity, accion, await ejecutarEnBloque(signed.store, entity, accion, items, extra));
  return redirectWithFlash(context, request, volver, r.message, r.kind, { detalles: r.detalles, deLaLista: true });
}

/**
 * A bulk action on the checked rows: who may (403 otherwise), the selection and the action's
 * fields (a 400 with every error and what was posted), then the rows one by one and the summary
 * as a flash back at `volver`. `antes`, when given, may answer instead of acting (a confirm step:
 * it receives the checked rows and posts them again with `confirmado`).
 */
export async function seleccionEnBloque(
  entity: Entity,
  accion: BulkAction,
  ctx: Ctx,
  o: { antes?: (items: Marcado[]) => Promise<Record<string, unknown> | null> } = {},
) {
  const { signed, formData } = ctx;
  if (accion.roles && !accion.roles.includes(signed.user.rol)) forbidden();
  const { raw, items } = leerSeleccion(formData);
  const submission = leerCampos(accion, formData);
  const seleccion = errorDeSeleccion(entity, items);
  if (submission.status !== "success" || seleccion)
    return json(
      {
        intent: accion.intent,
        // The selection's error links to the list's «Seleccionar» column (useColumnaSeleccion).
        result: submission.reply(seleccion ? { fieldErrors: { seleccion: [seleccion] } } : {}),
        seleccion: raw,
      },
      { status: 400 },
    );
  if (o.antes && formData.get("confirmado") !== "1") {
    const paso = await o.antes(items);
    if (paso) return json({ intent: accion.intent, seleccion: raw, ...paso }, { status: 200 });
  }
  return actuar(entity, accion, items, argumentosDe(accion, submission.value as Row), ctx);
}

/**
 * The same action on every row a list query matches (after its confirm step), the first
 * EN_BLOQUE_MAXIMO in the list's order; `query` is the list's own, narrowed to the rows the action
 * applies to. A 400 with the field errors when the action's fields are refused.
 */
export async function coincidentesEnBloque(
  entity: Entity,
  accion: BulkAction,
  query: ListQuery,
  ctx: Ctx,
  o: {
    /** The posted intent, for the reply. */
    intent: string;
    /** The flash when nothing matches. */
    ninguno: string;
    /** When set, the query cannot be trusted (e.g. a filter value that cannot be read): this error, nothing done. */
    rechazo?: string;
  },
) {
  const { request, context, signed, volver } = ctx;
  if (accion.roles && !accion.roles.includes(signed.user.rol)) forbidden();
  const submission = leerCampos(accion, ctx.formData);
  if (submission.status !== "success") return json({ intent: o.intent, result: submission.reply() }, { status: 400 });
  if (o.rechazo) return redirectWithFlash(context, request, volver, o.rechazo, "error", { deLaLista: true });
  const { rows } = await signed.store.list<Row>(entity.view, {
    ...query,
    columns: ["id", "version"],
    limit: EN_BLOQUE_MAXIMO,
    offset: 0,
    count: "none",
  });
  if (rows.length === 0) return redirectWithFlash(context, request, volver, o.ninguno, "aviso", { deLaLista: true });
  const items = rows.map((r) => ({ id: String(r.id), version: Number(r.version) }));
  return actuar(entity, accion, items, argumentosDe(accion, submission.value as Row), ctx);
}
