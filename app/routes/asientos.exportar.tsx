import { json, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { archivoParaPersonas } from "~/crud/respuestas.server";
import { leerPeriodoDiario } from "~/contabilidad/diario";
import {
  csvDiario,
  DiarioNoDisponible,
  requireAdministrador,
  xdiario,
  xlsxDiario,
  xsubcta,
} from "~/contabilidad/diario.server";
import { ASIENTOS_PATH } from "~/contabilidad/enlaces";
import { formats } from "~/crud/crud.server";
import { todayISO } from "~/lib/dates";

const FORMATOS = ["xlsx", "csv", "xdiario", "xsubcta"] as const;

/**
 * `/asientos/exportar?…&formato=xlsx|csv|xdiario|xsubcta[&primero=N]`: the libro diario of the period as a
 * file (a resource route). A period or a format that cannot be read goes back to the screen,
 * which says why; a file that cannot be made (found before its first byte) is a page that says why.
 */
export const loader = archivoParaPersonas(async ({ request, context }: LoaderFunctionArgs) => {
  const { store } = await requireAdministrador(request, context);
  const f = formats(context);
  const params = new URL(request.url).searchParams;
  const { periodo, primerAsiento } = leerPeriodoDiario(params, todayISO(), f.locale);
  const formato = FORMATOS.find((x) => x === params.get("formato"));
  if (!periodo || !formato) {
    params.delete("formato");
    throw redirect(`${ASIENTOS_PATH}?${params}#resultado`);
  }
  try {
    if (formato === "xlsx") return await xlsxDiario(store, periodo, primerAsiento);
    if (formato === "csv") return await csvDiario(store, periodo, f, primerAsiento);
    return await (formato === "xdiario" ? xdiario(store, periodo, primerAsiento) : xsubcta(store, periodo));
  } catch (error) {
    if (error instanceof DiarioNoDisponible) throw json({ message: error.message }, { status: error.status });
    throw error;
  }
});
