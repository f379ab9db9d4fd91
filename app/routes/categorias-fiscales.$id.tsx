import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { categoriasFiscales } from "~/entities/categorias-fiscales";
import { EntityRecordPage, recordMeta } from "~/ui/EntityPages";

export const loader = (args: LoaderFunctionArgs) => recordLoader(categoriasFiscales, args);
export const action = (args: ActionFunctionArgs) => recordAction(categoriasFiscales, args);
export const meta = recordMeta(categoriasFiscales);

export default function CategoriaFiscal() {
  return <EntityRecordPage entity={categoriasFiscales} />;
}
