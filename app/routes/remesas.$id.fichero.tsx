import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { archivoParaPersonas, notFound } from "~/crud/respuestas.server";
import { NotFound, UUID } from "~/data/store";
import { requireAdministrador } from "~/pagos/remesas.server";

/**
 * `/remesas/{id}/fichero` — the remesa's SEPA file as it was stored when generated: the same
 * bytes every download (what the bank received is what is kept). Not once annulled: its gastos
 * may be in another remesa by then, and sending both files would pay them twice.
 */
export const loader = archivoParaPersonas(async ({ request, context, params }: LoaderFunctionArgs) => {
  const { store } = await requireAdministrador(request, context);
  const id = params.id;
  if (!id || !UUID.test(id)) notFound("La remesa no existe.");
  let remesa: { folio: string; xml: string | null; estado: string };
  try {
    remesa = await store.get("remesas", id);
  } catch (error) {
    if (error instanceof NotFound) notFound("La remesa no existe.");
    throw error;
  }
  if (remesa.estado === "anulada")
    throw json(
      { message: `La remesa ${remesa.folio} está anulada: su fichero ya no se descarga, para no enviarlo al banco.` },
      { status: 410 },
    );
  if (!remesa.xml) notFound("La remesa no tiene fichero.");
  return new Response(remesa.xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Content-Disposition": `attachment; filename="${remesa.folio}.xml"`,
      "Cache-Control": "private, no-store",
    },
  });
});
