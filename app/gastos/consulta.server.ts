import type { Signed } from "~/auth/session.server";
import type { Filter } from "~/data/store";
import { toListQuery, viewFilters, type ListState } from "~/crud/list-query";
import { BUSQUEDA_MINIMA, gastos } from "~/entities/gastos";

/**
 * The list's query for this person: filters, view, search, sort, page. A search shorter than
 * BUSQUEDA_MINIMA is not applied (the page says so). Bulk «todos los que coinciden» uses it too,
 * so it acts on exactly the gastos the list shows.
 */
export function consultaGastos(state: ListState, user: Signed["user"], extra: Filter[] = []) {
  const query = toListQuery(gastos, state, [...viewFilters(gastos, state, user), ...extra]);
  return state.q.length < BUSQUEDA_MINIMA ? { ...query, search: undefined } : query;
}
