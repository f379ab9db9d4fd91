import type { LoaderFunctionArgs } from "@remix-run/node";
import { gastosLoader } from "~/gastos/lista.server";
import { csvExport } from "~/crud/csv.server";

/** «Exportar CSV» of the list: a resource route (see csvExport). */
export const loader = (args: LoaderFunctionArgs) => csvExport(args, gastosLoader);
