import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useParams } from "@remix-run/react";
import { listAction, listLoader } from "~/crud/crud.server";
import { entidadDeLaPantalla } from "~/crud/respuestas.server";
import { entidadDeLaRuta } from "~/entities/pantallas";
import { EntityListPage } from "~/ui/EntityPages";
import { pageTitle } from "~/ui/page";

/**
 * The list of an entity with generic screens (entities/pantallas.ts), with its filters, its CSV,
 * its bulk actions (`enBloque`) and its «Nuevo …» form: /tipos-iva, /sucursales… Any other first
 * segment is the 404 screen. An entity whose `permisos.crear` is empty offers no form, and a
 * post of it here is refused.
 */
export const loader = async (args: LoaderFunctionArgs) => listLoader(await entidadDeLaPantalla(args), args);
export const action = async (args: ActionFunctionArgs) => listAction(await entidadDeLaPantalla(args), args);
export const meta: MetaFunction = ({ params }) => pageTitle(entidadDeLaRuta(params.entidad)?.title);

export default function ListaDeEntidad() {
  const entity = entidadDeLaRuta(useParams().entidad)!;
  // Another entity's list is another page: nothing typed or selected in this one carries over.
  return <EntityListPage key={entity.path} entity={entity} />;
}
