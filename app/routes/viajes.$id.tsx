import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { viajes } from "~/entities/viajes";
import { CLASES_GASTO, ESTADOS_GASTO, labelOf } from "~/lib/opciones";
import { formatDate } from "~/lib/dates";
import { formatMoney } from "~/lib/money";
import { cuenta } from "~/lib/plural";
import { EntityRecordPage, recordMeta } from "~/ui/EntityPages";
import { useFormats } from "~/ui/page";

type GastoDelViaje = {
  id: string;
  folio: string;
  fecha_gasto: string;
  descripcion: string;
  clase: string;
  estado: string;
  importe: string;
  exento_irpf: string | null;
  sujeto_irpf: string | null;
  irpf_explicacion: string | null;
};

/** A viaje: its data, its workflow buttons (the entity's `acciones`), and its gastos with their totals. */
export const loader = (args: LoaderFunctionArgs) =>
  recordLoader(viajes, args, {
    extra: async ({ store, id, record, user }) => ({
      gastos: (
        await store.list<GastoDelViaje>("gastos_vista", {
          filters: [{ column: "viaje_id", op: "eq", value: id }],
          order: [
            { column: "fecha_gasto", ascending: true },
            { column: "folio", ascending: true },
          ],
          columns: [
            "id",
            "folio",
            "fecha_gasto",
            "descripcion",
            "clase",
            "estado",
            "importe",
            "exento_irpf",
            "sujeto_irpf",
            "irpf_explicacion",
          ],
          limit: 500,
          offset: 0,
          count: "none",
        })
      ).rows,
      anadir: record.solicitante_id === user.id || user.rol === "administrador",
    }),
  });
export const action = (args: ActionFunctionArgs) => recordAction(viajes, args);
export const meta = recordMeta(viajes);

export default function Viaje() {
  const { gastos, anadir, record } = useLoaderData<typeof loader>();
  const formats = useFormats();
  const euros = (v: unknown) => (v === null || v === undefined ? "—" : formatMoney(String(v), formats.locale));
  const nuevo = (extra: string) => `/gastos?nuevo=1&nuevo.viaje_id=${record.id}${extra}#nuevo`;
  return (
    <EntityRecordPage entity={viajes}>
      <section aria-labelledby="gastos-viaje" className="panel">
        <h2 id="gastos-viaje">Gastos del viaje</h2>
        {gastos.length === 0 ? (
          <p>Este viaje todavía no tiene gastos.</p>
        ) : (
          // On a phone, each gasto a card of «label: value» lines (.tabla-tarjetas).
          <div className="tabla-contenedor">
            <table className="tabla-tarjetas">
              <caption className="visually-hidden">
                Gastos del viaje: {cuenta(gastos.length, "gasto", "gastos")}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Folio</th>
                  <th scope="col">Fecha</th>
                  <th scope="col">Descripción</th>
                  <th scope="col">Clase</th>
                  <th scope="col">Estado</th>
                  <th scope="col" className="numero">
                    Importe
                  </th>
                  <th scope="col" className="numero">
                    Exento de IRPF
                  </th>
                  <th scope="col" className="numero">
                    Sujeto a IRPF
                  </th>
                  <th scope="col">IRPF</th>
                </tr>
              </thead>
              <tbody>
                {gastos.map((g) => (
                  <tr key={g.id}>
                    <td className="panel-folio">
                      <Link to={`/gastos?gasto=${g.id}#gasto`}>{g.folio}</Link>
                    </td>
                    <td data-etiqueta="Fecha">{formatDate(g.fecha_gasto, formats.locale)}</td>
                    <td data-etiqueta="Descripción">{g.descripcion}</td>
                    <td data-etiqueta="Clase">{labelOf(CLASES_GASTO, g.clase)}</td>
                    <td data-etiqueta="Estado">
                      <span className={`insignia insignia-${g.estado}`}>{labelOf(ESTADOS_GASTO, g.estado)}</span>
                    </td>
                    <td data-etiqueta="Importe" className="numero">
                      {euros(g.importe)}
                    </td>
                    <td data-etiqueta="Exento de IRPF" className="numero">
                      {euros(g.exento_irpf)}
                    </td>
                    <td data-etiqueta="Sujeto a IRPF" className="numero">
                      {euros(g.sujeto_irpf)}
                    </td>
                    <td data-etiqueta="IRPF">{g.irpf_explicacion ?? ""}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <td className="panel-folio">Total</td>
                  <td />
                  <td />
                  <td />
                  <td />
                  <td data-etiqueta="Importe" className="numero">
                    {euros(record.importe_total)}
                  </td>
                  <td data-etiqueta="Exento de IRPF" className="numero">
                    {euros(record.exento_total)}
                  </td>
                  <td data-etiqueta="Sujeto a IRPF" className="numero">
                    {euros(record.sujeto_total)}
                  </td>
                  <td />
                </tr>
              </tfoot>
            </table>
          </div>
        )}
        {anadir ? (
          <p className="acciones">
            <Link to={nuevo("")}>Añadir un gasto al viaje</Link>
            <Link to={nuevo("&nuevo.clase=kilometraje")}>Añadir kilometraje</Link>
            <Link to={nuevo("&nuevo.clase=dieta")}>Añadir una dieta</Link>
          </p>
        ) : null}
      </section>
    </EntityRecordPage>
  );
}
