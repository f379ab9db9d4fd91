import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { empresa } from "~/entities/empresa";
import { EntityRecordPage, recordMeta } from "~/ui/EntityPages";

/** The company's one record, at /empresa itself (`single`). */
export const loader = (args: LoaderFunctionArgs) => recordLoader(empresa, args);
export const action = (args: ActionFunctionArgs) => recordAction(empresa, args);
export const meta = recordMeta(empresa);

export default function Empresa() {
  return <EntityRecordPage entity={empresa} />;
}
