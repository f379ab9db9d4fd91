import type { LoaderFunctionArgs } from "@remix-run/node";
import { Readable } from "node:stream";
import { requireUser } from "~/auth/session.server";
import { archivoParaPersonas, getOr404, notFound } from "~/crud/respuestas.server";
import { UUID } from "~/data/store";
import { nombreDeDescarga } from "~/justificantes/nombre";
import { almacenPara } from "~/justificantes/subir.server";

type Justificante = {
  id: string;
  gasto_id: string;
  nombre: string;
  tipo: string;
  bytes: number;
  sha256: string;
  miniatura: string | null;
};

/**
 * A receipt's bytes (`?miniatura` for its thumbnail), read through the store as the user on
 * every request: whoever cannot see the gasto gets 404, as for a receipt that does not exist.
 * Served so that no browser runs it as a page: its stored type, nosniff, a sandboxing CSP.
 */
export const loader = archivoParaPersonas(async ({ request, params, context }: LoaderFunctionArgs) => {
  const { store } = await requireUser(request, context);
  const id = params.id ?? "";
  if (!UUID.test(id)) notFound();
  const j = await getOr404<Justificante>(store, "justificantes", id);
  const miniatura = new URL(request.url).searchParams.has("miniatura");
  const sha256 = miniatura ? j.miniatura : j.sha256;
  if (!sha256) notFound("Este justificante no tiene miniatura.");
  const contenido = await almacenPara(context.services, store).get(sha256, { gasto: j.gasto_id });
  if (!contenido) notFound("El archivo de este justificante no está disponible. Avise a un administrador.");
  return new Response(Readable.toWeb(contenido) as ReadableStream, {
    headers: {
      "Content-Type": miniatura ? "image/webp" : j.tipo,
      "Content-Disposition": disposition(
        miniatura ? nombreDeDescarga(`miniatura-${j.nombre}`, "image/webp") : nombreDeDescarga(j.nombre, j.tipo),
      ),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox; default-src 'none'",
      "Cache-Control": "private, no-store",
    },
  });
});

/** Inline (every stored type is an image or a PDF), the name as text: ASCII fallback and RFC 5987. */
function disposition(nombre: string) {
  const ascii = nombre.replace(/[^\x20-\x7e]|["\\/%;]/g, "_");
  // RFC 5987's value allows none of «'()*», which encodeURIComponent leaves as they are.
  const codificado = encodeURIComponent(nombre).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${ascii}"; filename*=UTF-8''${codificado}`;
}
