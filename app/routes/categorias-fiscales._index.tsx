import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { createAction, listLoader } from "~/crud/crud.server";
import { categoriasFiscales } from "~/entities/categorias-fiscales";
import { EntityListPage } from "~/ui/EntityPages";
import { pageTitle } from "~/ui/page";

export const loader = (args: LoaderFunctionArgs) => listLoader(categoriasFiscales, args);
// No «Nueva categoría» (permisos.crear is empty): a post here is refused like any other.
export const action = (args: ActionFunctionArgs) => createAction(categoriasFiscales, args);
export default function CategoriasFiscales() {
  return <EntityListPage entity={categoriasFiscales} />;
}
export const meta: MetaFunction = () => pageTitle(categoriasFiscales.title);
