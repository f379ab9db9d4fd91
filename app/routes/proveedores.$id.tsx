import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { proveedores } from "~/entities/proveedores";
import { formatMoney } from "~/lib/money";
import { EntityRecordPage, recordMeta } from "~/ui/EntityPages";
import { useFormats } from "~/ui/page";

/** The supplier's expenses the user may see (row-level security decides): how many and their total. */
export const loader = (args: LoaderFunctionArgs) =>
  recordLoader(proveedores, args, {
    extra: async ({ store, id, user }) => {
      const { total, sums } = await store.list("gastos_vista", {
        filters: [{ column: "proveedor_id", op: "eq", value: id }],
        limit: 0,
        offset: 0,
        count: "exact",
        sum: ["importe"],
      });
      return { gastos: { total, importe: sums.importe ?? "0", todos: user.rol === "administrador" } };
    },
  });
export const action = (args: ActionFunctionArgs) => recordAction(proveedores, args);

export default function Proveedor() {
  const { gastos, record } = useLoaderData<typeof loader>();
  const formats = useFormats();
  return (
    <EntityRecordPage entity={proveedores}>
      <section aria-labelledby="gastos-proveedor" className="panel">
        <h2 id="gastos-proveedor">Gastos</h2>
        <p>
          {gastos.total === 0
            ? "Este proveedor no tiene gastos"
            : `${gastos.total.toLocaleString(formats.locale)} ${gastos.total === 1 ? "gasto" : "gastos"} por un total de ${formatMoney(gastos.importe, formats.locale, formats.currency)}`}
          {gastos.todos ? "." : " que usted pueda ver."}
        </p>
        {gastos.total > 0 ? (
          <p>
            <Link to={`/gastos?proveedor=${encodeURIComponent(String(record.id))}`}>
              Ver los gastos de este proveedor
            </Link>
          </p>
        ) : null}
      </section>
    </EntityRecordPage>
  );
}
export const meta = recordMeta(proveedores);
