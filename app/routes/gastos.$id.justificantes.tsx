import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/session.server";
import { forbidden, getOr404, notFound, redirectWithFlash } from "~/crud/respuestas.server";
import { Forbidden, NotFound, StoreError, UUID } from "~/data/store";
import {
  almacenDe,
  almacenPara,
  contarSubida,
  resumenSubida,
  subirJustificantes,
  SubidaRechazada,
} from "~/justificantes/subir.server";
import { safeRedirect } from "~/lib/safe-redirect";

/**
 * Adds receipts to a gasto (multipart, streamed: its own body policy in server/edge.ts)
 * or removes one (`intent=eliminar`, an ordinary form). Both only while the gasto is a borrador
 * and by whoever may edit it; the database checks the same again. Back to the gasto's panel.
 */
/** Nothing to show here: the receipts are in the gasto's panel. */
export const loader = ({ params }: LoaderFunctionArgs) =>
  redirect(UUID.test(params.id ?? "") ? `/gastos?gasto=${params.id}#gasto` : "/gastos");

/**
 * Never drawn (the loader redirects, the action answers with a redirect), but a page route: a
 * refusal the action throws (403, 404, 413…) is then the site's error page, not bare JSON, for a
 * browser without JavaScript.
 */
export default function Justificantes() {
  return null;
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, store } = await requireUser(request, context);
  const id = params.id ?? "";
  if (!UUID.test(id)) notFound();
  const gasto = await getOr404<{ id: string; folio: string; estado: string; solicitante_id: string }>(
    store,
    "gastos",
    id,
  );
  // Refused before a byte is read: nothing of someone else's upload is ever stored.
  if (gasto.solicitante_id !== user.id && user.rol !== "administrador")
    forbidden("Solo el solicitante o un administrador pueden cambiar los justificantes de este gasto.");
  if (gasto.estado !== "borrador")
    forbidden("Los justificantes solo se pueden añadir o quitar mientras el gasto está en borrador.");
  const volver = volverDe(request, id);

  if (!/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    const form = await request.formData();
    if (form.get("intent") !== "eliminar") notFound();
    const justificanteId = String(form.get("justificante") ?? "");
    if (!UUID.test(justificanteId)) notFound();
    const j = await getOr404<{ gasto_id: string; nombre: string }>(store, "justificantes", justificanteId);
    if (j.gasto_id !== id) notFound();
    try {
      await store.remove("justificantes", justificanteId);
    } catch (error) {
      if (error instanceof NotFound) notFound();
      if (error instanceof Forbidden) forbidden(error.message);
      if (error instanceof StoreError) return redirectWithFlash(context, request, volver, error.message, "error");
      throw error;
    }
    return redirectWithFlash(context, request, volver, `Justificante «${j.nombre}» quitado.`);
  }

  const existentes = (
    await store.list("justificantes", {
      filters: [{ column: "gasto_id", op: "eq", value: id }],
      columns: ["id"],
      limit: 20,
      offset: 0,
      count: "none",
    })
  ).rows.length;
  let subida;
  try {
    // Counted before a byte is read: past the limit, nothing of the body is kept.
    await contarSubida(context.services.throttle, user.id, context.services.config.SUBIDAS_POR_PERSONA);
    subida = await subirJustificantes(request, {
      gastoId: id,
      store,
      almacen: almacenPara(context.services, store),
      staging: almacenDe(context.services.config.DATA_DIR),
      existentes,
      reservar: context.services.reservarContenido,
    });
  } catch (error) {
    if (error instanceof SubidaRechazada) throw error.respuesta();
    throw error;
  }
  const { n, detalles, message, duplicado } = resumenSubida(subida);
  if (duplicado)
    return redirectWithFlash(context, request, volver, duplicado.message, "aviso", {
      enlace: duplicado.enlace,
      detalles,
    });
  if (n === 0)
    return redirectWithFlash(
      context,
      request,
      volver,
      detalles.length ? "No se ha adjuntado ningún archivo." : "No eligió ningún archivo.",
      "error",
      { detalles },
    );
  return redirectWithFlash(context, request, volver, message, detalles.length ? "aviso" : "exito", { detalles });
}

/**
 * Back to the page the form was on (`?volver=`: the list's filters and this gasto's panel), at the
 * top where the message is; only `/gastos` with this gasto open, else that panel alone.
 */
function volverDe(request: Request, id: string) {
  const pedido = safeRedirect(new URL(request.url).searchParams.get("volver"), "");
  const url = pedido ? new URL(pedido, "http://oficina.invalid") : null;
  if (!url || url.pathname !== "/gastos" || url.searchParams.get("gasto") !== id) return `/gastos?gasto=${id}`;
  for (const p of ["quitar", "eliminar", "masivo", "index"]) url.searchParams.delete(p);
  return `${url.pathname}${url.search}#contenido`;
}
