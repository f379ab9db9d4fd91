import type { LoaderFunctionArgs } from "@remix-run/node";
import { listLoader } from "~/crud/crud.server";
import { csvExport } from "~/crud/csv.server";
import { archivoParaPersonas, entidadDeLaPantalla } from "~/crud/respuestas.server";

/**
 * «Exportar CSV» of a generic list (entities/pantallas.ts): a resource route (see csvExport).
 * An entity with a record screen of its own has its own `exportar` file too: `/x/exportar`
 * would otherwise match `x.$id` as well as this, and Remix would choose by file order.
 */
export const loader = archivoParaPersonas(async (args: LoaderFunctionArgs) => {
  const entity = await entidadDeLaPantalla(args);
  return csvExport(args, (a) => listLoader(entity, a));
});
