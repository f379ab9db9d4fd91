import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useParams } from "@remix-run/react";
import { recordAction, recordLoader, type RecordData } from "~/crud/crud.server";
import { entidadDeLaPantalla } from "~/crud/respuestas.server";
import { entidadDeLaRuta } from "~/entities/pantallas";
import { EntityRecordPage, recordMeta } from "~/ui/EntityPages";
import { pageTitle } from "~/ui/page";

/**
 * The record of an entity with generic screens (entities/pantallas.ts): its form, its actions,
 * the sections it declares (the people of a department) and its history: /tipos-iva/:id,
 * /departamentos/:id…
 */
export const loader = async (args: LoaderFunctionArgs) => recordLoader(await entidadDeLaPantalla(args), args);
export const action = async (args: ActionFunctionArgs) => recordAction(await entidadDeLaPantalla(args), args);
export const meta: MetaFunction = (args) => {
  const entity = entidadDeLaRuta(args.params.entidad);
  return entity ? recordMeta(entity)({ data: args.data as RecordData | undefined }) : pageTitle();
};

export default function FichaDeEntidad() {
  const entity = entidadDeLaRuta(useParams().entidad)!;
  return <EntityRecordPage key={entity.path} entity={entity} />;
}
