import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { createAction, listLoader } from "~/crud/crud.server";
import { departamentos } from "~/entities/departamentos";
import { EntityListPage } from "~/ui/EntityPages";
import { pageTitle } from "~/ui/page";

export const loader = (args: LoaderFunctionArgs) => listLoader(departamentos, args);
export const action = (args: ActionFunctionArgs) => createAction(departamentos, args);
export default function Departamentos() {
  return <EntityListPage entity={departamentos} />;
}
export const meta: MetaFunction = () => pageTitle(departamentos.title);
