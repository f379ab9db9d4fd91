import type { LoaderFunctionArgs } from "@remix-run/node";
import { archivoParaPersonas } from "~/crud/respuestas.server";
import { listLoader } from "~/crud/crud.server";
import { csvExport } from "~/crud/csv.server";
import { usuarios } from "~/entities/usuarios";

/** «Exportar CSV» of the list: a resource route (see csvExport). */
export const loader = archivoParaPersonas((args: LoaderFunctionArgs) =>
  csvExport(args, (a) => listLoader(usuarios, a)),
);
