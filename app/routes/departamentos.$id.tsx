import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { recordAction, recordLoader } from "~/entities/crud.server";
import { departamentos } from "~/entities/departamentos";
import { EntityRecordPage, pageTitle } from "~/ui/EntityPages";

export const loader = (args: LoaderFunctionArgs) => recordLoader(departamentos, args);
export const action = (args: ActionFunctionArgs) => recordAction(departamentos, args);
export default function Departamento() {
  return <EntityRecordPage entity={departamentos} />;
}
export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data ? String(data.record.nombre) : undefined, departamentos.title);
