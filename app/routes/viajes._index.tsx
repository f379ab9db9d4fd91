import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { listAction, listLoader } from "~/crud/crud.server";
import { tituloViaje, viajes } from "~/entities/viajes";
import { EntityListPage } from "~/ui/EntityPages";
import { pageTitle } from "~/ui/page";

export const loader = (args: LoaderFunctionArgs) => listLoader(viajes, args);
// The bulk actions (viajes.enBloque), or «Nuevo viaje»: an administrador who leaves «Solicitante»
// empty creates the viaje for themself.
export const action = (args: ActionFunctionArgs) =>
  listAction(viajes, args, {
    prepare: async (values, { user }) => ({ values: { ...values, solicitante_id: values.solicitante_id ?? user.id } }),
    // The table's row has no `titulo` (the view's): the message names it as the view does.
    done: async (row) => ({ message: `Viaje creado: ${tituloViaje(row)}. Añada sus gastos y envíelo a aprobación.` }),
  });
export default function Viajes() {
  return <EntityListPage entity={viajes} />;
}
export const meta: MetaFunction = () => pageTitle(viajes.title);
