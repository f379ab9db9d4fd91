import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { cuentasEmpresa } from "~/entities/cuentas-empresa";
import { EntityRecordPage, recordMeta } from "~/ui/EntityPages";

export const loader = (args: LoaderFunctionArgs) => recordLoader(cuentasEmpresa, args);
export const action = (args: ActionFunctionArgs) => recordAction(cuentasEmpresa, args);
export const meta = recordMeta(cuentasEmpresa);

export default function CuentaEmpresa() {
  return <EntityRecordPage entity={cuentasEmpresa} />;
}
