import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { createAction, listLoader } from "~/crud/crud.server";
import { cuentasEmpresa } from "~/entities/cuentas-empresa";
import { EntityListPage } from "~/ui/EntityPages";
import { pageTitle } from "~/ui/page";

export const loader = (args: LoaderFunctionArgs) => listLoader(cuentasEmpresa, args);
export const action = (args: ActionFunctionArgs) => createAction(cuentasEmpresa, args);
export default function CuentasEmpresa() {
  return <EntityListPage entity={cuentasEmpresa} />;
}
export const meta: MetaFunction = () => pageTitle(cuentasEmpresa.title);
