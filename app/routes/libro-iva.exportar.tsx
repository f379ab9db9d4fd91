import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { archivoParaPersonas } from "~/crud/respuestas.server";
import { formats } from "~/crud/crud.server";
import { LIBRO_IVA_PATH } from "~/fiscal/enlaces";
import { csvLibro, requireAdministrador, xlsxLibro } from "~/fiscal/libro.server";
import { leerPeriodo } from "~/fiscal/periodo";
import { todayISO } from "~/lib/dates";

/**
 * `/libro-iva/exportar?…&formato=xlsx|csv`: the libro of the period as a file, a resource route
 * (a screen's loader cannot answer a page request with a file). A period that cannot be read goes
 * back to the screen, which says why.
 */
export const loader = archivoParaPersonas(async ({ request, context }: LoaderFunctionArgs) => {
  const { store } = await requireAdministrador(request, context);
  const f = formats(context);
  const params = new URL(request.url).searchParams;
  const { periodo } = leerPeriodo(params, todayISO(), f.locale);
  const formato = params.get("formato");
  if (!periodo || (formato !== "xlsx" && formato !== "csv")) {
    params.delete("formato");
    throw redirect(`${LIBRO_IVA_PATH}?${params}#resultado`);
  }
  return formato === "xlsx" ? xlsxLibro(store, periodo) : csvLibro(store, periodo, f);
});
