import { Form, Link, useLocation, useNavigate, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, type MouseEvent, type ReactNode } from "react";
import type { Options } from "~/crud/crud.server";
import { enLaTabla, forRole, type Column, type Entity } from "~/entities/entity";
import { Icono } from "./Icono";
import { ErrorDeCampo } from "./ErrorDeCampo";
import { ResumenDeErrores } from "./ResumenDeErrores";
import { formatValue } from "~/crud/cells";
import type { Formats } from "~/lib/format";
import { DEFAULT_PAGE_SIZE, listHref, PAGE_SIZES, type ListState } from "~/crud/list-query";
import { cuenta, plural } from "~/lib/plural";
import type { RootData } from "~/root";
import { RESULTS_ID } from "~/ui/anclas";

/** What every part of a list page is drawn from: the entity and the list's state from its URL. */
export type DeLaLista = { entity: Entity; state: ListState };

/**
 * The list machinery every screen shares: filter form (GET, so the URL is the state), a table
 * whose headers are sort links with aria-sort, the count, pagination, CSV export. Columns and
 * filters declared for some roles only (`roles`) are left out for the others.
 */

/** The entity as the signed-in person's role sees it in a list. */
function useForRole(entity: Entity) {
  return forRole(entity, useRouteLoaderData<RootData>("root")?.user?.rol);
}

/** The id of a row's record link: a fragment (`#fila-{id}`) brings a person back to that row. */
export function rowAnchor(id: unknown) {
  return `fila-${String(id)}`;
}

/** `href` landing on the row of record `id` in its list (see rowAnchor). */
export function backToRow(href: string, id: unknown) {
  return `${href.replace(/#.*$/, "")}#${rowAnchor(id)}`;
}

/**
 * The filter form. `plegable`: on a phone its fields fold into a `<details>` whose summary says
 * which filters are on, so the results come first (wider screens show them all, always).
 * `resumenId`: the results' summary, where the focus goes after filtering with JavaScript (not
 * back at the top of the page, a long way of Tab presses from the results).
 */
export function FilterForm({
  entity: declared,
  state,
  options,
  children,
  plegable = false,
  resumenId,
}: DeLaLista & {
  options: Options;
  children?: ReactNode;
  plegable?: boolean;
  resumenId?: string;
}) {
  const entity = useForRole(declared);
  const errores = Object.entries(state.errores);
  const filtrando = useFocoTrasFiltrar(resumenId, errores.length > 0);
  const campos = (
    <CamposFiltro entity={entity} state={state} options={options}>
      {children}
    </CamposFiltro>
  );
  return (
    <Form
      method="get"
      action={`${entity.path}#filtros-errores`}
      className={plegable ? "filtros filtros-con-plegable" : "filtros"}
      role="search"
      aria-label={`Buscar ${entity.plural}`}
      onSubmit={filtrando}
    >
      <FilterErrors errores={errores} />
      {plegable ? (
        <details className="filtros-plegables" open={errores.length > 0 || undefined}>
          <summary>{filtrosActivos(entity, state, options)}</summary>
          <div className="filtros-campos">{campos}</div>
        </details>
      ) : (
        campos
      )}
    </Form>
  );
}

/** «Filtros: Estado: Pendiente · Buscar: «taxi»», or that none is on. */
function filtrosActivos(entity: Entity, state: ListState, options: Options) {
  const activos: string[] = [];
  if (state.q) activos.push(`Buscar: «${state.q}»`);
  for (const filter of entity.filters) {
    const value = state.filtros[filter.name];
    if (!value) continue;
    const list =
      filter.kind === "select" ? filter.options : filter.kind === "ref" ? options[filter.table]?.options : undefined;
    const shown =
      filter.kind === "boolean"
        ? value === "si"
          ? "Sí"
          : "No"
        : (list?.find((o) => o.value === value)?.label ?? value);
    activos.push(`${filter.label}: ${shown}`);
  }
  return activos.length ? `Filtros (${activos.length}): ${activos.join(" · ")}` : "Filtros: ninguno activo";
}

/**
 * With JavaScript, after the form is sent and the new results are in, the focus goes to the
 * results' summary (unless a filter was refused: its error summary takes the focus).
 */
function useFocoTrasFiltrar(resumenId: string | undefined, conErrores: boolean) {
  const location = useLocation();
  const enviado = useRef<string | null>(null);
  useEffect(() => {
    if (enviado.current === null || !resumenId || enviado.current === location.key) return;
    enviado.current = null;
    if (!conErrores) document.getElementById(resumenId)?.focus();
  }, [location.key, resumenId, conErrores]);
  return () => {
    enviado.current = location.key;
  };
}

function CamposFiltro({
  entity,
  state,
  options,
  children,
}: DeLaLista & {
  options: Options;
  children?: ReactNode;
}) {
  return (
    <>
      <div className="campo">
        <label htmlFor="filtro-q">Buscar</label>
        <input id="filtro-q" type="search" name="q" defaultValue={state.q} key={state.q} maxLength={100} />
      </div>
      {entity.filters.map((filter) => {
        const id = `filtro-${filter.name}`;
        const error = state.errores[filter.name];
        const value = state.filtros[filter.name] ?? error?.valor ?? "";
        const invalid = error
          ? ({ "aria-invalid": true, "aria-describedby": `${id}-error` } as const)
          : ({} as Record<string, never>);
        let control: ReactNode;
        if (filter.kind === "boolean") {
          control = (
            <select id={id} name={filter.name} defaultValue={value} key={value} {...invalid}>
              <option value="">Todos</option>
              <option value="si">Sí</option>
              <option value="no">No</option>
            </select>
          );
        } else if (filter.kind === "select" || filter.kind === "ref") {
          const list = filter.kind === "select" ? filter.options : (options[filter.table]?.options ?? []);
          control = (
            <select id={id} name={filter.name} defaultValue={value} key={value} {...invalid}>
              <option value="">Todos</option>
              {list.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          );
        } else {
          const type = filter.kind.startsWith("date") ? "date" : "text";
          control = (
            <input
              id={id}
              name={filter.name}
              type={type}
              defaultValue={value}
              key={value}
              inputMode={filter.kind.startsWith("money") ? "decimal" : undefined}
              {...invalid}
            />
          );
        }
        return (
          <div className={error ? "campo campo-con-error" : "campo"} key={filter.name}>
            <label htmlFor={id}>{filter.label}</label>
            <ErrorDeCampo id={`${id}-error`}>{error?.mensaje}</ErrorDeCampo>
            {control}
          </div>
        );
      })}
      {state.vista ? <input type="hidden" name="vista" value={state.vista} /> : null}
      <input type="hidden" name="orden" value={state.orden} />
      <input type="hidden" name="dir" value={state.dir} />
      <div className="campo">
        <label htmlFor="filtro-por-pagina">Por página</label>
        <select id="filtro-por-pagina" name="por_pagina" defaultValue={String(state.porPagina)} key={state.porPagina}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      {children}
      <div className="acciones">
        <button type="submit">Filtrar</button>
        <Link to={entity.path}>Quitar filtros</Link>
      </div>
    </>
  );
}

/**
 * The filter values that were not applied, GOV.UK style: a summary linking to each filter, focused
 * when it appears. Without JavaScript the form's `#filtros-errores` fragment does the focusing.
 */
function FilterErrors({ errores }: { errores: [string, { mensaje: string }][] }) {
  if (errores.length === 0) return null;
  return (
    <ResumenDeErrores
      id="filtros-errores"
      tituloId="filtros-errores-titulo"
      titulo={<>Hay {cuenta(errores.length, "error", "errores")} en los filtros</>}
      firma={JSON.stringify(errores)}
    >
      <p>La lista se muestra sin {plural(errores.length, "ese filtro", "esos filtros")}.</p>
      <ul>
        {errores.map(([name, e]) => (
          <li key={name}>
            <a href={`#filtro-${name}`}>{e.mensaje}</a>
          </li>
        ))}
      </ul>
    </ResumenDeErrores>
  );
}

export function DataTable<Row extends Record<string, unknown>>({
  entity: declared,
  rows,
  state,
  formats,
  caption,
  recordHref,
  leading,
  selectedId,
  estimated = false,
}: {
  entity: Entity;
  rows: Row[];
  state: ListState;
  formats: Formats;
  caption: string;
  recordHref: (row: Row) => string;
  /** An extra first cell per row (e.g. a selection checkbox); `label` names it on a phone's card. */
  /**
   * A first column (the selection's boxes); `ancla`, the id of the rows' body, what a link to the
   * column lands on; `irA`, a link to where the selection is acted on, held at the bottom of the
   * window while the rows are cards (a phone: the form is after them all).
   */
  leading?: {
    header: ReactNode;
    label?: string;
    cell: (row: Row) => ReactNode;
    ancla?: string;
    irA?: { href: string; texto: string };
  };
  /** The row whose record is open beside the list (marked, and its link says so). */
  selectedId?: string;
  /** A filter too large to count: its `escala.ordenSoloContado` columns offer no sorting. */
  estimated?: boolean;
}) {
  const entity = useForRole(declared);
  const sinOrden = estimated ? (entity.escala?.ordenSoloContado ?? []) : [];
  useFocusReturnsToRow(selectedId);
  const followLink = useTableLinks();
  return (
    // Narrow (app/estilos/tablas.css, «A list of records»), every row is a card of «label: value»
    // lines led by its record link; the labels come from data-etiqueta.
    <div className="lista-registros" id={RESULTS_ID} tabIndex={-1}>
      <div className="tabla-contenedor">
        {/* Clicks (and Enter) on the table's links, delegated: see useTableLinks. */}
        {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions */}
        <table className="tabla-lista" onClick={followLink}>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {leading ? <th scope="col">{leading.header}</th> : null}
              {enLaTabla(entity).map((column) => (
                <SortHeader
                  key={column.name}
                  entity={entity}
                  column={sinOrden.includes(column.name) ? { ...column, sortable: false } : column}
                  state={state}
                />
              ))}
            </tr>
          </thead>
          <tbody id={leading?.ancla}>
            {rows.map((row) => (
              <tr key={String(row.id)} className={selectedId === row.id ? "seleccionada" : undefined}>
                {leading ? (
                  <td
                    className="celda-previa"
                    data-etiqueta={leading.label ?? (typeof leading.header === "string" ? leading.header : undefined)}
                  >
                    {leading.cell(row)}
                  </td>
                ) : null}
                {enLaTabla(entity).map((column) => {
                  const text = formatValue(column, row[column.name], formats);
                  const shown =
                    column.badge && text ? (
                      <span className={`insignia insignia-${String(row[column.name])}`}>{text}</span>
                    ) : column.kind === "count" && text && column.contar?.icono ? (
                      <>
                        <span aria-hidden="true" title={text} className="recuento">
                          <Icono nombre={column.contar.icono} />{" "}
                          {Number(row[column.name]).toLocaleString(formats.locale)}
                        </span>
                        <span className="visually-hidden">{text}</span>
                      </>
                    ) : (
                      text
                    );
                  const className = [column.kind === "money" ? "numero" : "", column.link ? "celda-registro" : ""]
                    .filter(Boolean)
                    .join(" ");
                  return (
                    <td key={column.name} className={className || undefined} data-etiqueta={column.label}>
                      {column.link ? (
                        <a
                          href={recordHref(row)}
                          id={rowAnchor(row.id)}
                          aria-current={selectedId === row.id ? "true" : undefined}
                        >
                          {text || "(sin nombre)"}
                        </a>
                      ) : (
                        shown
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {leading?.irA ? (
        <p className="ir-a-seleccion">
          <a href={leading.irA.href}>{leading.irA.texto}</a>
        </p>
      ) : null}
    </div>
  );
}

/**
 * The table's links (each row's record, each column's sort) are plain anchors, not `<Link>`s: a
 * Link costs the server CPU for each one (its hooks resolve the path again for every one; ADR
 * 0008, «The page»). With JavaScript, one listener on the table gives them what a Link gives: a plain
 * click (or Enter) navigates inside the app, replacing the entry when it is the page already
 * shown; a click with a modifier, or another button, is left to the browser (a new tab, a
 * download). Without JavaScript they are links like any other.
 */
function useTableLinks() {
  const navigate = useNavigate();
  const location = useLocation();
  return (event: MouseEvent<HTMLElement>) => {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!link || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    const href = link.getAttribute("href")!;
    event.preventDefault();
    navigate(href, { replace: href === location.pathname + location.search + location.hash });
  };
}

/**
 * Back from a record, keyboard focus goes to that record's link in the list, not to the page's
 * start: when the record open beside the list closes (`selectedId` goes away), or when the URL
 * names a row (`#fila-{id}`, the way back from a record page). Without JavaScript the fragment
 * alone lands there. Only when nothing else holds focus (the close link has just gone).
 */
function useFocusReturnsToRow(selectedId: string | undefined) {
  const location = useLocation();
  const previous = useRef(selectedId);
  useEffect(() => {
    const closed = previous.current && !selectedId ? previous.current : undefined;
    previous.current = selectedId;
    const named = location.hash.startsWith("#fila-") ? decodeURIComponent(location.hash.slice(6)) : undefined;
    const id = closed ?? named;
    const link = id ? document.getElementById(rowAnchor(id)) : null;
    const free = !document.activeElement || document.activeElement === document.body;
    if (link && free) link.focus();
  }, [selectedId, location.key, location.hash]);
}

function SortHeader({ entity, column, state }: { entity: Entity; column: Column; state: ListState }) {
  if (!column.sortable)
    return (
      <th scope="col">
        {column.contar?.icono ? (
          // A count shown as an icon gets an icon header too: the column stays narrow, its name
          // is still what a screen reader announces.
          <>
            <span title={column.label}>
              <Icono nombre={column.contar.icono} />
            </span>
            <span className="visually-hidden">{column.label}</span>
          </>
        ) : (
          column.label
        )}
      </th>
    );
  const active = state.orden === column.name;
  const nextDir = active && state.dir === "asc" ? "desc" : "asc";
  return (
    <th scope="col" aria-sort={active ? (state.dir === "asc" ? "ascending" : "descending") : undefined}>
      <a href={listHref(entity.path, state, { orden: column.name, dir: nextDir, pagina: undefined })}>
        {column.label}
        <span className="visually-hidden">
          {active ? `, ordenado ${state.dir === "asc" ? "ascendente" : "descendente"}` : ""}. Ordenar{" "}
          {nextDir === "asc" ? "ascendente" : "descendente"}
        </span>
        <span aria-hidden="true" className="flecha">
          {active ? (state.dir === "asc" ? " ▲" : " ▼") : ""}
        </span>
      </a>
    </th>
  );
}

/** `estimated`: the total is the planner's estimate, so the last page is not offered by number. */
export function Pagination({
  path,
  state,
  total,
  estimated,
}: {
  path: string;
  state: ListState;
  total: number;
  estimated?: boolean;
}) {
  const pages = Math.max(1, Math.ceil(total / state.porPagina));
  if (pages <= 1) return null;
  const page = Math.min(state.pagina, pages);
  const around = [1, page - 2, page - 1, page, page + 1, page + 2, ...(estimated ? [] : [pages])]
    .filter((p, i, all) => p >= 1 && p <= pages && all.indexOf(p) === i)
    .sort((a, b) => a - b);
  return (
    <nav className="paginacion" aria-label="Paginación">
      <ul>
        {page > 1 ? (
          <li>
            <Link to={listHref(path, state, { pagina: page - 1 === 1 ? undefined : page - 1 })} rel="prev">
              Anterior
            </Link>
          </li>
        ) : null}
        {around.map((p, i) => (
          <li key={p}>
            {i > 0 && p - around[i - 1]! > 1 ? <span aria-hidden="true">… </span> : null}
            {p === page ? (
              <span aria-current="page">
                <span className="visually-hidden">Página </span>
                {p}
              </span>
            ) : (
              <Link to={listHref(path, state, { pagina: p === 1 ? undefined : p })}>
                <span className="visually-hidden">Página </span>
                {p}
              </Link>
            )}
          </li>
        ))}
        {page < pages ? (
          <li>
            <Link to={listHref(path, state, { pagina: page + 1 })} rel="next">
              Siguiente
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** The filtered list as CSV: `{path}/exportar` is a resource route (see csvExport in app/crud/csv.server.ts). */
export function csvHref(path: string, state: ListState) {
  return listHref(`${path}/exportar`, { ...state, pagina: 1, porPagina: DEFAULT_PAGE_SIZE }, {});
}

/**
 * The entity's one-click views (`?vista=`) offered to this role, plus `todos` (the list with no
 * view) when given a label. Links, so they work without JavaScript; the current one is marked.
 */
export function ListViews({
  entity,
  state,
  rol,
  todos,
}: DeLaLista & {
  rol: string;
  todos?: string;
}) {
  const views = (entity.vistas ?? []).filter((v) => !v.roles || v.roles.some((r) => r === rol));
  if (views.length === 0 && !todos) return null;
  const links = [
    ...views.map((v) => ({ name: v.name, label: v.label, href: `${entity.path}?vista=${encodeURIComponent(v.name)}` })),
  ];
  if (todos) links.push({ name: "", label: todos, href: entity.path });
  return (
    <nav className="vistas" aria-label={`Vistas de ${entity.plural}`}>
      <ul>
        {links.map((l) => (
          <li key={l.name || "todos"}>
            <Link to={l.href} aria-current={(state.vista ?? "") === l.name ? "page" : undefined}>
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
