import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { EN_ORDEN_CRONOLOGICO } from "~/entities/gastos";
import { viajes } from "~/entities/viajes";
import { CLASES_GASTO, ESTADOS_GASTO, labelOf } from "~/lib/opciones";
import { formatDate, todayISO } from "~/lib/dates";
import { formatMoney } from "~/lib/money";
import { cuenta } from "~/lib/plural";
import { EntityRecordPage, recordMeta } from "~/ui/EntityPages";
import { useFormats } from "~/ui/page";
import { TablaTarjetas } from "~/ui/TablaTarjetas";

/** A viaje: its data, its workflow buttons (the entity's `acciones`), and its gastos with their totals. */
export const loader = (args: LoaderFunctionArgs) =>
  recordLoader(viajes, args, {
    extra: async ({ store, id, record, user }) => ({
      gastos: (
        await store.list("gastos_vista", {
          filters: [{ column: "viaje_id", op: "eq", value: id }],
          order: EN_ORDEN_CRONOLOGICO,
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
      ).rows.map((g) => ({
        // A view's columns are nullable by type; a gasto's folio, date and state are not.
        ...g,
        id: String(g.id),
        folio: String(g.folio),
        fecha_gasto: String(g.fecha_gasto),
        descripcion: String(g.descripcion),
        clase: String(g.clase),
        estado: String(g.estado),
      })),
      anadir: record.solicitante_id === user.id || user.rol === "administrador",
      // Before the trip starts, its kilometraje and dietas cannot be added yet (no gasto is future).
      antesDeSalir: String(record.salida).slice(0, 10) > todayISO(),
      // The day their form opens on: today during the trip, its first day once it is over.
      diaDelViaje: String(record.regreso).slice(0, 10) < todayISO() ? String(record.salida).slice(0, 10) : todayISO(),
    }),
  });
// A trip is where its gastos are added and sent from: a save stays on it, not on the list.
export const action = (args: ActionFunctionArgs) =>
  recordAction(viajes, args, { volver: { guardado: `${viajes.path}/${args.params.id ?? ""}` } });
export const meta = recordMeta(viajes);

export default function Viaje() {
  const { gastos, anadir, antesDeSalir, diaDelViaje, record } = useLoaderData<typeof loader>();
  const dia = `&nuevo.fecha_gasto=${diaDelViaje}`;
  const formats = useFormats();
  const euros = (v: unknown) =>
    v === null || v === undefined ? "—" : formatMoney(String(v), formats.locale, formats.currency);
  // For whoever travelled: an administrador adding to another person's trip (only they choose the
  // solicitante; for anyone else the form drops it).
  const nuevo = (extra: string) =>
    `/gastos?nuevo=1&nuevo.viaje_id=${record.id}&nuevo.solicitante_id=${record.solicitante_id}${extra}#nuevo`;
  return (
    <EntityRecordPage entity={viajes}>
      <section aria-labelledby="gastos-viaje" className="panel">
        <h2 id="gastos-viaje">Gastos del viaje</h2>
        {gastos.length === 0 ? (
          <p>Este viaje todavía no tiene gastos.</p>
        ) : (
          <TablaTarjetas
            caption={<>Gastos del viaje: {cuenta(gastos.length, "gasto", "gastos")}</>}
            captionOculto
            contenedor
            titulada
            filas={gastos}
            clave={(g) => g.id}
            total="Total"
            columnas={[
              { header: "Folio", cell: (g) => <Link to={`/gastos?gasto=${g.id}#gasto`}>{g.folio}</Link> },
              { header: "Fecha", cell: (g) => formatDate(g.fecha_gasto, formats.locale) },
              { header: "Descripción", cell: (g) => g.descripcion },
              { header: "Clase", cell: (g) => labelOf(CLASES_GASTO, g.clase) },
              {
                header: "Estado",
                cell: (g) => (
                  <span className={`insignia insignia-${g.estado}`}>{labelOf(ESTADOS_GASTO, g.estado)}</span>
                ),
              },
              { header: "Importe", numeric: true, cell: (g) => euros(g.importe), total: euros(record.importe_total) },
              {
                header: "Exento de IRPF",
                numeric: true,
                cell: (g) => euros(g.exento_irpf),
                total: euros(record.exento_total),
              },
              {
                header: "Sujeto a IRPF",
                numeric: true,
                cell: (g) => euros(g.sujeto_irpf),
                total: euros(record.sujeto_total),
              },
              { header: "IRPF", cell: (g) => g.irpf_explicacion ?? "" },
            ]}
          />
        )}
        {anadir ? (
          <>
            {antesDeSalir ? (
              <p>
                El kilometraje y las dietas se añaden desde el día de salida, el{" "}
                {formatDate(String(record.salida), formats.locale)}. Antes, solo lo ya pagado (un billete, una reserva).
              </p>
            ) : null}
            <p className="acciones">
              <Link to={nuevo("")}>Añadir un gasto al viaje</Link>
              {antesDeSalir ? null : (
                <>
                  {/* Their class and category as they nearly always are, on a day of the trip. */}
                  <Link to={nuevo(`&nuevo.clase=kilometraje&nuevo.categoria=viajes_transporte${dia}`)}>
                    Añadir kilometraje
                  </Link>
                  <Link to={nuevo(`&nuevo.clase=dieta&nuevo.categoria=comidas${dia}`)}>Añadir una dieta</Link>
                </>
              )}
            </p>
          </>
        ) : null}
      </section>
    </EntityRecordPage>
  );
}
