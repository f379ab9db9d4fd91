import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { tiposIva } from "~/entities/tipos-iva";
import { EntityRecordPage, recordMeta } from "~/ui/EntityPages";

export const loader = (args: LoaderFunctionArgs) => recordLoader(tiposIva, args);
export const action = (args: ActionFunctionArgs) => recordAction(tiposIva, args);
export const meta = recordMeta(tiposIva);

export default function TipoIva() {
  return <EntityRecordPage entity={tiposIva} />;
}
