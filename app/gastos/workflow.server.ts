import { parseSubmission } from "~/ui/parse-submission.server";
import { json, redirect, type AppLoadContext } from "@remix-run/node";
import type { Signed } from "~/auth/session.server";
import type { Row, Store } from "~/data/store";
import {
  coincidentesEnBloque,
  EN_BLOQUE_MAXIMO,
  leerSeleccion,
  seleccionEnBloque,
  type Marcado,
} from "~/crud/en-bloque.server";
import { forbidden } from "~/crud/respuestas.server";
import { accionEnBloque, type BulkAction } from "~/entities/entity";
import { gastos } from "~/entities/gastos";
import { listQueryFor, parseListState, SELECCIONAR_TODOS } from "~/crud/list-query";

/**
 * What the list's bulk workflow needs beyond the generic machinery (app/crud/en-bloque.server.ts):
 * the confirm step before approving rows with warnings, «todos los que coinciden» (its count and
 * its run) and «Crear remesa» with the checked rows. Every transition is one call to its
 * database function, in its own transaction, with the version the person saw; the function
 * locks the row and refuses what is no longer valid.
 */

type Ctx = { request: Request; context: AppLoadContext; signed: Signed; formData: FormData; volver: string };

/**
 * Bulk approve/reject, or mark as paid, of the checked rows (the entity's bulk actions, run by
 * app/crud/en-bloque.server.ts). Approving asks first when any checked row carries a warning, as
 * the panel and «todos los que coinciden» say it; the confirm step posts again with `confirmado`.
 */
export function seleccion(accion: BulkAction, ctx: Ctx) {
  return seleccionEnBloque(gastos, accion, ctx, {
    antes:
      accion.intent === "aprobar_seleccion"
        ? async (items) => {
            const confirmar = await avisosSeleccion(ctx.signed.store, items);
            return confirmar.gastos.some((g) => g.avisos.length > 0) ? { confirmar } : null;
          }
        : undefined,
  });
}

/** A checked row its approver would approve, with what they should know first (empty: nothing). */
export type GastoAConfirmar = { valor: string; folio: string; importe: string; avisos: string[] };

/**
 * The warnings of approving the checked rows, each row's and, per department and month, the
 * budget they would pass together (avisos_presupuesto_en_bloque, as «todos los que coinciden»).
 * Only the rows this person may approve now: the rest are refused with their reason anyway.
 */
async function avisosSeleccion(store: Store, items: Marcado[]) {
  const ids = [...new Set(items.map((i) => i.id))];
  // Each row's own warnings are the panel's (avisos_antes_de_aprobar), from the database.
  const [propios, { rows }] = await Promise.all([
    store.rpc<{ id: string; avisos: string[] }[]>("avisos_antes_de_aprobar_varios", { p_ids: ids }, { reads: true }),
    store.list<Row>(gastos.view, {
      filters: [
        { column: "id", op: "in", value: ids },
        { column: "estado", op: "eq", value: "pendiente" },
        { column: "puede_aprobar", op: "eq", value: true },
      ],
      columns: ["id", "folio", "importe", "version", "departamento_id", "departamento_nombre", "fecha_gasto"],
      order: [{ column: "folio", ascending: true }],
      limit: ids.length,
      offset: 0,
      count: "none",
    }),
  ]);
  const grupos = new Map<string, Row[]>();
  for (const g of rows) {
    if (!g.departamento_id) continue;
    const clave = `${String(g.departamento_id)}:${dia(g.fecha_gasto).slice(0, 7)}`;
    grupos.set(clave, [...(grupos.get(clave) ?? []), g]);
  }
  const porGrupo = await Promise.all(
    [...grupos.values()].map(async (filas) => ({
      filas,
      avisos:
        (await store.rpc<string[] | null>(
          "avisos_presupuesto_en_bloque",
          { p_ids: filas.map((g) => String(g.id)) },
          { reads: true },
        )) ?? [],
    })),
  );
  const presupuestos = porGrupo.flatMap((p) => p.avisos);
  const pasan = new Set(porGrupo.filter((p) => p.avisos.length > 0).flatMap((p) => p.filas.map((g) => String(g.id))));
  const version = new Map(items.map((i) => [i.id, i.version]));
  const propiosDe = new Map(propios.map((a) => [a.id, a.avisos]));
  const aConfirmar: GastoAConfirmar[] = rows.map((g) => {
    const avisos = [...(propiosDe.get(String(g.id)) ?? [])];
    if (pasan.has(String(g.id)))
      avisos.push(`Cuenta para el presupuesto superado de ${String(g.departamento_nombre)}.`);
    return {
      valor: `${String(g.id)}:${version.get(String(g.id)) ?? String(g.version)}`,
      folio: String(g.folio),
      importe: String(g.importe),
      avisos,
    };
  });
  return { gastos: aConfirmar, presupuestos };
}

/** A date column's day, however the store returns it. */
const dia = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v ?? ""));

/**
 * The query «aplicar a todos los que coinciden» works on: the list's, limited to what this person
 * can approve now (gastos_vista.puede_aprobar: the database's rule, so nothing is offered that
 * aprobar_gasto would refuse).
 */
export function filtrosMasivos(url: URL, signed: Signed) {
  const state = parseListState(gastos, url.searchParams);
  return {
    // A filter value that cannot be read is not applied to the list: acting on «all that match»
    // would then act on more than the person asked for. Refused until it is corrected.
    ilegibles: Object.keys(state.errores).length > 0,
    query: listQueryFor(gastos, state, signed.user, [
      { column: "estado", op: "eq", value: "pendiente" },
      { column: "puede_aprobar", op: "eq", value: true },
    ]),
  };
}

/**
 * How many pending gastos the confirm step would act on (exact up to the store's limit), how many
 * of them were sent outside their spending policy and, to approve, which departments would pass
 * their month's budget once the first EN_BLOQUE_MAXIMO (those the action takes) are approved.
 */
export async function contarMasivo(url: URL, signed: Signed, accion: "aprobar" | "rechazar") {
  const { query, ilegibles } = filtrosMasivos(url, signed);
  if (ilegibles) return { total: 0, estimado: false, fueraDePolitica: 0, presupuestos: [] as string[] };
  const r = await signed.store.list(gastos.view, { ...query, limit: 1, offset: 0, count: "estimated" });
  const fuera = await signed.store.list(gastos.view, {
    ...query,
    filters: [...(query.filters ?? []), { column: "fuera_de_politica", op: "eq", value: true }],
    limit: 0,
    offset: 0,
    count: "estimated",
  });
  let presupuestos: string[] = [];
  if (accion === "aprobar" && r.total > 0) {
    const { rows } = await signed.store.list<{ id: string }>(gastos.view, {
      ...query,
      columns: ["id"],
      limit: EN_BLOQUE_MAXIMO,
      offset: 0,
      count: "none",
    });
    presupuestos =
      (await signed.store.rpc<string[] | null>(
        "avisos_presupuesto_en_bloque",
        { p_ids: rows.map((g) => g.id) },
        { reads: true },
      )) ?? [];
  }
  return { total: r.total, estimado: r.estimated, fueraDePolitica: fuera.total, presupuestos };
}

/**
 * The bulk action «todos los que coinciden» takes by its name (`?masivo=aprobar|rechazar`, and the
 * confirm step's `accion`): approving or rejecting; paying all that match is the remesa builder's.
 */
export function accionMasiva(nombre: unknown): BulkAction | undefined {
  return nombre === "aprobar" || nombre === "rechazar" ? accionEnBloque(gastos, `${nombre}_seleccion`) : undefined;
}

/** «Aplicar a todos los que coinciden con el filtro», after the confirm step: the first EN_BLOQUE_MAXIMO. */
export async function masivo(ctx: Ctx) {
  const accion = accionMasiva(ctx.formData.get("accion"));
  if (!accion) throw json({ message: "Acción desconocida." }, { status: 400 });
  const { query, ilegibles } = filtrosMasivos(new URL(ctx.request.url), ctx.signed);
  return coincidentesEnBloque(gastos, accion, query, ctx, {
    intent: "masivo",
    ninguno: "Ningún gasto pendiente de aprobar coincide con el filtro: no se ha cambiado nada.",
    // A filter value that cannot be read is not applied to the list: acting on «all that match»
    // would then act on more than the person asked for.
    rechazo: ilegibles
      ? "El filtro tiene valores que no se pueden leer: corríjalos antes de aplicar la acción a todos los que coinciden. No se ha cambiado nada."
      : undefined,
  });
}

/**
 * The list's own query string (filters, view, search, order, page) without what only this page
 * view carries: where the remesa builder goes back to, and what «todos los que coinciden» reads.
 */
export function consultaDeLista(url: URL): string {
  const params = new URLSearchParams(url.search);
  for (const key of ["index", "_data", "gasto", "eliminar", "quitar", "masivo", SELECCIONAR_TODOS, "nuevo"])
    params.delete(key);
  return params.toString();
}

/**
 * «Crear remesa» with the checked rows (administradores): to the remesa builder with them chosen,
 * where the paying account and the execution date are picked and whatever cannot go is listed
 * with its reason. Nothing is written here: the builder's own form generates the remesa.
 */
export async function remesaSeleccion({ request, signed, formData }: Ctx) {
  if (signed.user.rol !== "administrador") forbidden("Solo un administrador prepara las remesas de pago.");
  const { raw, items } = leerSeleccion(formData);
  const ids = [...new Set(items.map((i) => i.id))];
  if (ids.length === 0)
    return json(
      {
        intent: "remesa_seleccion",
        result: parseSubmission(formData, (z) => z.object({})).reply({
          fieldErrors: { seleccion: ["Marque al menos un gasto de la lista."] },
        }),
        seleccion: raw,
      },
      { status: 400 },
    );
  const params = new URLSearchParams(ids.map((id) => ["gasto", id]));
  params.set("lista", consultaDeLista(new URL(request.url)));
  return redirect(`/remesas?${params.toString()}#nueva-remesa`, 303);
}
