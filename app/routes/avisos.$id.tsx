import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/session.server";
import { enlaceCuenta, esDeCuenta, type Aviso } from "~/avisos/mensajes";
import { getOr404, notFound } from "~/crud/respuestas.server";
import { UUID } from "~/data/store";

/**
 * `/avisos/{id}` — opening an aviso: it is marked read (the person has now seen what it says) and
 * the browser goes on to its gasto's panel, at its anchor (a changed bank account: to the page
 * where that account is, one's own or the supplier's). A link, not a form, so it works the
 * same without JavaScript; marking read twice changes nothing, so a repeated GET is harmless.
 * Row-level security lets each person open and mark only their own avisos.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { store } = await requireUser(request, context);
  const id = params.id ?? "";
  if (!UUID.test(id)) notFound("Ese aviso no existe.");
  const aviso = await getOr404<Aviso & { destinatario_id: string }>(store, "avisos", id);
  await store.rpc<number>("marcar_avisos_leidos", { p_ids: [id] });
  if (esDeCuenta(aviso)) return redirect(enlaceCuenta(aviso, aviso.destinatario_id));
  return redirect(aviso.gasto_id ? `/gastos?gasto=${aviso.gasto_id}#gasto` : "/avisos");
}

/** Never drawn (the loader redirects), but a page route: an aviso not found is the site's error page. */
export default function Aviso() {
  return null;
}
