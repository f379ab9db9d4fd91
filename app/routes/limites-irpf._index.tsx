import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { createAction, listLoader } from "~/crud/crud.server";
import { limitesExentosIrpf } from "~/entities/limites-exentos-irpf";
import { EntityListPage } from "~/ui/EntityPages";
import { pageTitle } from "~/ui/page";

export const loader = (args: LoaderFunctionArgs) => listLoader(limitesExentosIrpf, args);
export const action = (args: ActionFunctionArgs) => createAction(limitesExentosIrpf, args);
export default function LimitesIrpf() {
  return <EntityListPage entity={limitesExentosIrpf} />;
}
export const meta: MetaFunction = () => pageTitle(limitesExentosIrpf.title);
