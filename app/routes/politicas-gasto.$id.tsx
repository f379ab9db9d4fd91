import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { politicasGasto } from "~/entities/politicas-gasto";
import { EntityRecordPage, recordMeta } from "~/ui/EntityPages";

export const loader = (args: LoaderFunctionArgs) => recordLoader(politicasGasto, args);
export const action = (args: ActionFunctionArgs) => recordAction(politicasGasto, args);
export const meta = recordMeta(politicasGasto);

export default function PoliticaGasto() {
  return <EntityRecordPage entity={politicasGasto} />;
}
