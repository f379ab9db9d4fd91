import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { limitesExentosIrpf } from "~/entities/limites-exentos-irpf";
import { EntityRecordPage, recordMeta } from "~/ui/EntityPages";

export const loader = (args: LoaderFunctionArgs) => recordLoader(limitesExentosIrpf, args);
export const action = (args: ActionFunctionArgs) => recordAction(limitesExentosIrpf, args);
export const meta = recordMeta(limitesExentosIrpf);

export default function LimiteIrpf() {
  return <EntityRecordPage entity={limitesExentosIrpf} />;
}
