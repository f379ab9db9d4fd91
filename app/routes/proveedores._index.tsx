import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { createAction, listLoader } from "~/crud/crud.server";
import { proveedores } from "~/entities/proveedores";
import { EntityListPage } from "~/ui/EntityPages";
import { pageTitle } from "~/ui/page";

export const loader = (args: LoaderFunctionArgs) => listLoader(proveedores, args);
export const action = (args: ActionFunctionArgs) => createAction(proveedores, args);
export default function Proveedores() {
  return <EntityListPage entity={proveedores} />;
}
export const meta: MetaFunction = () => pageTitle(proveedores.title);
