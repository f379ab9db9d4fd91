import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { createAction, listLoader } from "~/crud/crud.server";
import { politicasGasto } from "~/entities/politicas-gasto";
import { EntityListPage } from "~/ui/EntityPages";
import { pageTitle } from "~/ui/page";

export const loader = (args: LoaderFunctionArgs) => listLoader(politicasGasto, args);
export const action = (args: ActionFunctionArgs) => createAction(politicasGasto, args);
export default function PoliticasGasto() {
  return <EntityListPage entity={politicasGasto} />;
}
export const meta: MetaFunction = () => pageTitle(politicasGasto.title);
