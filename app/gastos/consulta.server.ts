import type { Signed } from "~/auth/session.server";
import type { Filter } from "~/data/store";
import { BUSQUEDA_MINIMA, gastos } from "~/entities/gastos";
import { toListQuery, viewFilters, type ListState } from "~/lib/list-query";

/**
 * The list's query for this person: filters, view, search, sort, page. A search shorter than
 * BUSQUEDA_MINIMA is not applied (the page says so). Bulk «todos los que coinciden» uses it too,
 * so it acts on exactly the gastos the list shows.
 */
export function consultaGastos(state: ListState, user: Signed["user"], extra: Filter[] = []) {
  // «Mis pendientes de aprobar»: what the database says this person may approve (the view's
  // puede_aprobar, the rule of aprobar_gasto), not merely what they see that is not theirs.
  const pendientes: Filter[] = state.vista === "pendientes" ? [{ column: "puede_aprobar", op: "eq", value: true }] : [];
  const query = toListQuery(gastos, state, [...viewFilters(gastos, state, user), ...pendientes, ...extra]);
  return state.q.length < BUSQUEDA_MINIMA ? { ...query, search: undefined } : query;
}
