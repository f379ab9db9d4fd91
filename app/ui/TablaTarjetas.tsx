import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { BotonesDeIntent } from "./forms";

/** A column: `cell` writes a row's value; `total`, the totals row's. */
export type ColumnaTarjeta<T> = {
  header: string;
  /** Figures, right-aligned: class «numero» on the header and the cells. */
  numeric?: boolean;
  /** The cells' class, where it is another than the figures' one. */
  celda?: string;
  cell: (fila: T) => ReactNode;
  total?: ReactNode;
};

/** A table's header row: a `th scope="col"` a column, figures right-aligned like their cells. */
export function Encabezados({ columnas }: { columnas: readonly { header: string; numeric?: boolean }[] }) {
  return (
    <thead>
      <tr>
        {columnas.map((c) => (
          <th key={c.header} scope="col" className={c.numeric ? "numero" : undefined}>
            {c.header}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * A row's actions cell: a form posting the row's key (`campo`, `valor`) with one submit button per
 * intent; `etiqueta` names the row in each button's accessible name.
 */
export function CeldaDeAcciones<B extends { intent: string; texto: string; className?: string }>(props: {
  campo: string;
  valor: string;
  botones: readonly B[];
  etiqueta: (boton: B) => string;
  action?: string;
  className: string;
}) {
  return (
    <td>
      <Form method="post" action={props.action} className={props.className}>
        <input type="hidden" name={props.campo} value={props.valor} />
        <BotonesDeIntent botones={props.botones} etiqueta={props.etiqueta} />
      </Form>
    </td>
  );
}

/**
 * A table that a phone shows as cards, one a row, of «label: value» lines (`data-etiqueta`).
 * `titulada`: the first column is each card's title (a folio, a name), shown without its label.
 * `contenedor`: inside the `.tabla-contenedor` that scrolls a wide table on its own. `total`:
 * the first cell of a totals row, written when given.
 */
export function TablaTarjetas<T>(props: {
  caption?: ReactNode;
  captionOculto?: boolean;
  className?: string;
  titulada?: boolean;
  contenedor?: boolean;
  filas: readonly T[];
  clave: (fila: T) => string;
  columnas: readonly ColumnaTarjeta<T>[];
  total?: ReactNode;
}) {
  const { columnas, titulada } = props;
  const clase = (c: ColumnaTarjeta<T>, i: number) =>
    titulada && i === 0 ? "panel-folio" : (c.celda ?? (c.numeric ? "numero" : undefined));
  const tabla = (
    <table className={props.className ? `tabla-tarjetas ${props.className}` : "tabla-tarjetas"}>
      {props.caption !== undefined ? (
        <caption className={props.captionOculto ? "visually-hidden" : undefined}>{props.caption}</caption>
      ) : null}
      <Encabezados columnas={columnas} />
      <tbody>
        {props.filas.map((fila) => (
          <tr key={props.clave(fila)}>
            {columnas.map((c, i) => (
              <td key={c.header} className={clase(c, i)} data-etiqueta={titulada && i === 0 ? undefined : c.header}>
                {c.cell(fila)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      {props.total !== undefined ? (
        <tfoot>
          <tr>
            {columnas.map((c, i) =>
              titulada && i === 0 ? (
                <td key={c.header} className="panel-folio">
                  {props.total}
                </td>
              ) : (
                <td key={c.header} className={clase(c, i)} data-etiqueta={c.total !== undefined ? c.header : undefined}>
                  {c.total}
                </td>
              ),
            )}
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
  return props.contenedor ? <div className="tabla-contenedor">{tabla}</div> : tabla;
}
