import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { EXACT_COUNT_LIMIT, type ListResult } from "~/data/store";
import { csvHref, type DeLaLista } from "~/ui/lists";
import { listaFiltrada } from "~/crud/list-query";
import { nuevo, type Entity } from "~/entities/entity";
import type { Formats } from "~/lib/format";
import { numberFormat } from "~/lib/intl";
import { formatMoney } from "~/lib/money";
import { cuenta } from "~/lib/plural";

type Resultado = Pick<ListResult, "total" | "estimated" | "sums">;

/**
 * «132 gastos» and, on a list that declares `escala.sumas`, «45.210,33 €»; over a filter too large
 * to count, «≈ 1,2 millones de gastos» and why there is no sum.
 */
export function resumenDeLista(entity: Entity, result: Resultado, formats: Formats) {
  const { total, estimated } = result;
  const sumas = entity.escala?.sumas ?? [];
  if (estimated) {
    const aprox = numberFormat(formats.locale, {
      notation: "compact",
      compactDisplay: "long",
      maximumFractionDigits: 1,
    }).format(total);
    const de = /(millón|millones)$/.test(aprox) ? " de" : "";
    return {
      cuenta: `≈ ${aprox}${de} ${entity.plural}`,
      suma: sumas.length
        ? `suma no disponible para más de ${EXACT_COUNT_LIMIT.toLocaleString(formats.locale)} ${entity.plural}; filtre más`
        : null,
    };
  }
  return {
    cuenta: cuenta(total, entity.singular, entity.plural, formats.locale),
    suma: sumas.length
      ? sumas.map((s) => formatMoney(result.sums[s] ?? "0.00", formats.locale, formats.currency)).join(" · ")
      : null,
  };
}

/**
 * The line above a list: how many records match (and their sum), said again to screen readers
 * as it changes, and the whole filter as CSV. `id` lets the filter form bring the focus here.
 */
export function ResumenLista({
  entity,
  state,
  result,
  formats,
  id,
}: DeLaLista & {
  result: Resultado;
  formats: Formats;
  id?: string;
}) {
  const { cuenta, suma } = resumenDeLista(entity, result, formats);
  return (
    <div className="resumen-lista">
      <p aria-live="polite" id={id} tabIndex={id ? -1 : undefined}>
        <strong>{cuenta}</strong>
        {listaFiltrada(state) ? " con estos filtros" : ""}
        {suma ? ` · ${suma}` : ""}
      </p>
      {result.total > 0 ? (
        <a href={csvHref(entity.path, state)} download>
          Exportar CSV
        </a>
      ) : null}
    </div>
  );
}

/** What the list did not do as asked: a search too short (`escala.busquedaMinima`), a sort it cannot give now. */
export function AvisosDeLista({
  entity,
  state,
  busquedaCorta,
  avisoOrden,
}: DeLaLista & {
  busquedaCorta: boolean;
  avisoOrden: string | null;
}) {
  return (
    <>
      {busquedaCorta ? (
        <p className="aviso aviso-aviso" role="status">
          Escriba al menos {entity.escala?.busquedaMinima} letras o cifras para buscar; la lista no está filtrada por «
          {state.q}».
        </p>
      ) : null}
      {avisoOrden ? (
        <p className="aviso aviso-aviso" role="status">
          {avisoOrden}
        </p>
      ) : null}
    </>
  );
}

/** «Cree el primero con el formulario «Nuevo departamento».», the form's name a link where given one. */
export function creeElPrimero(entity: Entity, href?: string): ReactNode {
  const frase = `Cree ${entity.gender === "f" ? "la primera" : "el primero"} con el formulario `;
  return href ? (
    <>
      {frase}
      <Link to={href}>{`«${nuevo(entity)}»`}</Link>.
    </>
  ) : (
    `${frase}«${nuevo(entity)}».`
  );
}

/**
 * A list page without rows: nothing matches the search, filters or view, a page past the last,
 * or nothing yet (then `primero`, how to create the first one, if this person may).
 */
export function ListaVacia({
  entity,
  state,
  total,
  primero,
}: DeLaLista & {
  total: number;
  primero?: ReactNode;
}) {
  return (
    <div className="vacio">
      {listaFiltrada(state) ? (
        <p>
          No hay {entity.plural} que coincidan con la búsqueda. <Link to={entity.path}>Quitar filtros</Link>
        </p>
      ) : total > 0 ? (
        <p>
          Esta página está vacía. <Link to={entity.path}>Ir a la primera página</Link>
        </p>
      ) : (
        <p>
          Todavía no hay {entity.plural}.{primero ? <> {primero}</> : null}
        </p>
      )}
    </div>
  );
}
