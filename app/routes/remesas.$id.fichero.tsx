import type { LoaderFunctionArgs } from "@remix-run/node";
import { archivoParaPersonas, notFound } from "~/crud/respuestas.server";
import { NotFound, UUID } from "~/data/store";
import { requireAdministrador } from "~/pagos/remesas.server";

/**
 * `/remesas/{id}/fichero` — the remesa's SEPA file as it was stored when generated: the same
 * bytes every download (what the bank received is what is kept).
 */
export const loader = archivoParaPersonas(async ({ request, context, params }: LoaderFunctionArgs) => {
  const { store } = await requireAdministrador(request, context);
  const id = params.id;
  if (!id || !UUID.test(id)) notFound("La remesa no existe.");
  let remesa: { folio: string; xml: string | null };
  try {
    remesa = await store.get("remesas", id);
  } catch (error) {
    if (error instanceof NotFound) notFound("La remesa no existe.");
    throw error;
  }
  if (!remesa.xml) notFound("La remesa no tiene fichero.");
  return new Response(remesa.xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Content-Disposition": `attachment; filename="${remesa.folio}.xml"`,
      "Cache-Control": "private, no-store",
    },
  });
});
