import type { Rol } from "~/auth/permissions";
import { UUID, type Filter, type ListQuery } from "~/data/store";
import type { Entity, ListFilter } from "~/entities/entity";
import { conArticulo, conIndefinido } from "~/lib/articulos";
import { palabrasBusqueda } from "~/lib/busqueda";
import { parseDateInput } from "~/lib/dates";
import { parseMoney, toCents } from "~/lib/money";

/**
 * The URL is the list's state: `q`, `orden`, `dir`, `pagina`, `por_pagina` and the entity's
 * filters. Unknown parameters and malformed paging are ignored rather than failing the page; a
 * filter value that cannot be read (an amount «abc», «desde» after «hasta») is not applied and is
 * said in `errores`, so the filter form shows it instead of silently listing everything.
 */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;

export type ListState = {
  q: string;
  orden: string;
  dir: "asc" | "desc";
  pagina: number;
  porPagina: number;
  /** Filter values as they appear in the URL (for the filter form and links). */
  filtros: Record<string, string>;
  /** The one-click view (`?vista=`, one of `entity.vistas`), if any. */
  vista?: string;
  /** Filter values that cannot be read, by filter name: what was typed and why it was not applied. */
  errores: Record<string, { valor: string; mensaje: string }>;
};

/** Search terms and filter values never need control characters (and PostgreSQL refuses NUL). */
export function sinControl(value: string | null | undefined): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are what it replaces
  return value?.replace(/[\u0000-\u001f\u007f]/g, " ");
}

export function parseListState(entity: Entity, params: URLSearchParams): ListState {
  const sortable = new Set(entity.columns.filter((c) => c.sortable).map((c) => c.name));
  const orden = sortable.has(params.get("orden") ?? "") ? params.get("orden")! : entity.defaultOrder.column;
  const defaultDir = orden === entity.defaultOrder.column && !entity.defaultOrder.ascending ? "desc" : "asc";
  const dirParam = params.get("dir");
  const dir = dirParam === "asc" || dirParam === "desc" ? dirParam : defaultDir;
  const porPagina = Math.min(100, Math.max(1, toInt(params.get("por_pagina")) ?? DEFAULT_PAGE_SIZE));
  const pagina = Math.max(1, toInt(params.get("pagina")) ?? 1);
  const filtros: Record<string, string> = {};
  const errores: ListState["errores"] = {};
  for (const filter of entity.filters) {
    const value = sinControl(params.get(filter.name))?.trim().slice(0, 100);
    if (!value) continue;
    if (filterValue(filter, value) !== undefined) filtros[filter.name] = value;
    else errores[filter.name] = { valor: value, mensaje: unreadable(filter) };
  }
  for (const [from, to] of rangePairs(entity)) {
    const a = filtros[from.name];
    const b = filtros[to.name];
    if (a === undefined || b === undefined || compareRange(from, filterValue(from, a), filterValue(to, b)) <= 0)
      continue;
    // Neither end is applied: which one was mistyped is the user's call, and half a range misleads.
    delete filtros[from.name];
    delete filtros[to.name];
    const desde = from.kind === "date_from";
    errores[to.name] = {
      valor: b,
      mensaje: `«${to.label}» debe ser ${desde ? "igual o posterior a" : "igual o mayor que"} «${from.label}»`,
    };
    errores[from.name] = {
      valor: a,
      mensaje: `«${from.label}» es ${desde ? "posterior a" : "mayor que"} «${to.label}»`,
    };
  }
  const vista = entity.vistas?.find((v) => v.name === params.get("vista"))?.name;
  return {
    q: (sinControl(params.get("q")) ?? "").trim().slice(0, 100),
    orden,
    dir,
    pagina,
    porPagina,
    filtros,
    ...(vista ? { vista } : {}),
    errores,
  };
}

/** Why a filter value is not applied, in the words of the filter form. */
function unreadable(filter: ListFilter): string {
  switch (filter.kind) {
    case "money_min":
    case "money_max":
      return `Escriba ${conArticulo(filter.label)} como un importe, por ejemplo 1.234,50`;
    case "date_from":
    case "date_to":
      return `Escriba ${conArticulo(filter.label)} como una fecha real, por ejemplo 31/12/2026`;
    case "boolean":
      return `Elija Sí, No o Todos en «${filter.label}»`;
    default:
      return `Elija ${conIndefinido(filter.label, { genero: filter.genero })} de la lista`;
  }
}

/** The «desde»/«hasta» filters over the same column (dates or amounts), as pairs. */
function rangePairs(entity: Entity): [ListFilter, ListFilter][] {
  return entity.filters.flatMap((from) => {
    const end = from.kind === "date_from" ? "date_to" : from.kind === "money_min" ? "money_max" : null;
    const to = end && entity.filters.find((f) => f.kind === end && f.column === from.column);
    return to ? [[from, to] as [ListFilter, ListFilter]] : [];
  });
}

/** Dates compare as ISO text; amounts as numbers (cents as integers, euros as decimals). */
function compareRange(filter: ListFilter, a: unknown, b: unknown): number {
  if (filter.kind === "date_from") return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  return Number(a) - Number(b);
}

export function toListQuery(entity: Entity, state: ListState, extra: Filter[] = []): ListQuery {
  const filters: Filter[] = [...extra];
  // Every word, without accents or capitals, as the `busqueda` columns hold the text (app/lib/busqueda.ts);
  // none from a term too short to search (`escala.busquedaMinima`).
  const words = busquedaCorta(entity, state) ? [] : palabrasBusqueda(state.q);
  for (const filter of entity.filters) {
    const raw = state.filtros[filter.name];
    if (raw === undefined) continue;
    const value = filterValue(filter, raw);
    const op =
      filter.kind === "text" && filter.match === "contains"
        ? "ilike"
        : (({ date_from: "gte", money_min: "gte", date_to: "lte", money_max: "lte" } as const)[
            filter.kind as "date_from"
          ] ?? "eq");
    if (value !== undefined) filters.push({ column: filter.column, op, value });
  }
  return {
    filters,
    search: words.length
      ? {
          columns: [...entity.search],
          term: state.q,
          words,
          ...(entity.searchFunction ? { fn: entity.searchFunction } : {}),
        }
      : undefined,
    order: [state.orden, ...(entity.thenBy?.[state.orden] ?? [])].map((column) => ({
      column,
      ascending: state.dir === "asc",
    })),
    limit: state.porPagina,
    offset: (state.pagina - 1) * state.porPagina,
    count: "exact",
  };
}

/** The filters of the state's one-click view, for this user (none without a view). */
export function viewFilters(entity: Entity, state: ListState, user: { id: string; rol: Rol }): Filter[] {
  return entity.vistas?.find((v) => v.name === state.vista)?.filters(user) ?? [];
}

/**
 * The list's query for this person: its filters, view, search, sort and page; `extra` narrows it
 * further. The CSV and the bulk actions on «todos los que coinciden» use it too, so they take
 * exactly the records the list shows.
 */
export function listQueryFor(
  entity: Entity,
  state: ListState,
  user: { id: string; rol: Rol },
  extra: Filter[] = [],
): ListQuery {
  return toListQuery(entity, state, [...viewFilters(entity, state, user), ...extra]);
}

/** Whether a search, a filter or a view narrows the list (then it says «con estos filtros»). */
export function listaFiltrada(state: ListState): boolean {
  return Boolean(state.q) || Object.keys(state.filtros).length > 0 || Boolean(state.vista);
}

/** Whether `q` was typed but is too short to search this list (`escala.busquedaMinima`). */
export function busquedaCorta(entity: Entity, state: ListState): boolean {
  return state.q.length > 0 && state.q.length < (entity.escala?.busquedaMinima ?? 0);
}

function filterValue(filter: ListFilter, raw: string): unknown {
  switch (filter.kind) {
    case "boolean":
      return raw === "si" ? true : raw === "no" ? false : undefined;
    case "select":
      return filter.options.some((o) => o.value === raw) ? raw : undefined;
    case "ref":
      return UUID.test(raw) ? raw : undefined;
    case "text":
      return raw.slice(0, 100);
    case "date_from":
    case "date_to":
      return parseDateInput(raw) ?? undefined;
    case "money_min":
    case "money_max": {
      const amount = parseMoney(raw);
      if (amount === null) return undefined;
      return filter.centimos ? toCents(amount).toString() : amount;
    }
  }
}

/** `?seleccionar=todos`: the list's page with every box of a bulk action checked (the «select all» that needs no JavaScript). */
export const SELECCIONAR_TODOS = "seleccionar";

/** The list URL with some parameters changed (page links, sort links); empty values dropped. */
export function listHref(path: string, state: ListState, changes: Record<string, string | number | undefined>) {
  const params = new URLSearchParams();
  const merged: Record<string, string | number | undefined> = {
    vista: state.vista,
    q: state.q,
    ...state.filtros,
    orden: state.orden,
    dir: state.dir,
    por_pagina: state.porPagina === DEFAULT_PAGE_SIZE ? undefined : state.porPagina,
    pagina: state.pagina === 1 ? undefined : state.pagina,
    ...changes,
  };
  for (const [key, value] of Object.entries(merged))
    if (value !== undefined && value !== "") params.set(key, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function toInt(value: string | null): number | undefined {
  if (!value || !/^\d{1,6}$/.test(value)) return undefined;
  return Number(value);
}
