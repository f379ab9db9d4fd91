import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { createAction, listLoader } from "~/crud/crud.server";
import { tiposIva } from "~/entities/tipos-iva";
import { EntityListPage } from "~/ui/EntityPages";
import { pageTitle } from "~/ui/page";

export const loader = (args: LoaderFunctionArgs) => listLoader(tiposIva, args);
export const action = (args: ActionFunctionArgs) => createAction(tiposIva, args);
export default function TiposIva() {
  return <EntityListPage entity={tiposIva} />;
}
export const meta: MetaFunction = () => pageTitle(tiposIva.title);
