import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { createAction, listLoader } from "~/crud/crud.server";
import { sucursales } from "~/entities/sucursales";
import { EntityListPage } from "~/ui/EntityPages";
import { pageTitle } from "~/ui/page";

export const loader = (args: LoaderFunctionArgs) => listLoader(sucursales, args);
export const action = (args: ActionFunctionArgs) => createAction(sucursales, args);
export default function Sucursales() {
  return <EntityListPage entity={sucursales} />;
}
export const meta: MetaFunction = () => pageTitle(sucursales.title);
