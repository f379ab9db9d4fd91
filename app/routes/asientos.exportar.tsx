import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { csvDiario, requireAdministrador, xdiario, xlsxDiario, xsubcta } from "~/contabilidad/diario.server";
import { ASIENTOS_PATH } from "~/contabilidad/enlaces";
import { formats } from "~/crud/crud.server";
import { leerPeriodo } from "~/fiscal/periodo";
import { todayISO } from "~/lib/dates";

const FORMATOS = ["xlsx", "csv", "xdiario", "xsubcta"] as const;

/**
 * `/asientos/exportar?…&formato=xlsx|csv|xdiario|xsubcta`: the libro diario of the period as a
 * file (a resource route). A period or a format that cannot be read goes back to the screen,
 * which says why.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { store } = await requireAdministrador(request, context);
  const f = formats(context);
  const params = new URL(request.url).searchParams;
  const { periodo } = leerPeriodo(params, todayISO(), f.locale);
  const formato = FORMATOS.find((x) => x === params.get("formato"));
  if (!periodo || !formato) {
    params.delete("formato");
    throw redirect(`${ASIENTOS_PATH}?${params}#resultado`);
  }
  if (formato === "xlsx") return xlsxDiario(store, periodo);
  if (formato === "csv") return csvDiario(store, periodo, f);
  return formato === "xdiario" ? xdiario(store, periodo) : xsubcta(store, periodo);
}
