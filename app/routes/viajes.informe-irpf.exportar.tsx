import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { archivoParaPersonas } from "~/crud/respuestas.server";
import { formats } from "~/crud/crud.server";
import { csvIrpf, INFORME_IRPF_PATH, requireAdministrador, xlsxIrpf } from "~/viajes/informe.server";
import { periodoIrpf } from "~/viajes/informe";

/** `/viajes/informe-irpf/exportar?…&formato=xlsx|csv`: the report as a file (a resource route). */
export const loader = archivoParaPersonas(async ({ request, context }: LoaderFunctionArgs) => {
  const { store } = await requireAdministrador(request, context);
  const params = new URL(request.url).searchParams;
  const { periodo } = periodoIrpf(params);
  const formato = params.get("formato");
  if (!periodo || (formato !== "xlsx" && formato !== "csv")) {
    params.delete("formato");
    throw redirect(`${INFORME_IRPF_PATH}?${params}#resultado`);
  }
  return formato === "xlsx" ? xlsxIrpf(store, periodo) : csvIrpf(store, periodo, formats(context));
});
