import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { recordAction, recordLoader } from "~/entities/crud.server";
import { usuarios } from "~/entities/usuarios";
import { EntityRecordPage, pageTitle } from "~/ui/EntityPages";

export const loader = (args: LoaderFunctionArgs) => recordLoader(usuarios, args);
/** A deactivated user's sessions end at once (their next request is refused anyway: see session.server). */
export const action = (args: ActionFunctionArgs) =>
  recordAction(usuarios, args, {
    afterSave: async (saved) => {
      if (saved.activo === false) await args.context.services.auth.endSessionsOf(String(saved.id));
    },
  });
export default function Usuario() {
  return <EntityRecordPage entity={usuarios} />;
}
export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data ? String(data.record.nombre_completo ?? data.record.nombre) : undefined, usuarios.title);
