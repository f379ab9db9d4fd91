import type { LoaderFunctionArgs } from "@remix-run/node";
import { archivoParaPersonas } from "~/crud/respuestas.server";
import { gastosLoader } from "~/gastos/lista.server";
import { csvExport } from "~/crud/csv.server";

/** «Exportar CSV» of the list: a resource route (see csvExport). */
export const loader = archivoParaPersonas((args: LoaderFunctionArgs) => csvExport(args, gastosLoader));
