import { defer, json, redirect, type AppLoadContext } from "@remix-run/node";
import { requireUser } from "~/auth/session.server";
import { NotFound, type Store } from "~/data/store";
import { capitalize, type Entity } from "~/entities/entity";
import { entidadDeLaRuta } from "~/entities/pantallas";
import type { Flash } from "~/lib/flash.server";
import { escaparHtml, paginaSencilla } from "~/lib/html";
import { safeRedirect } from "~/lib/safe-redirect";

/** The answers every screen's loader and action give besides its data: refusals, a 404, a redirect with a flash. */

/**
 * A page's data, handed to the server's render as it is. `json()` would serialize it into a
 * response that Remix 2 (without Single Fetch) parses back for the render on every page load;
 * `defer` with no promises skips that round trip, as React Router 7 does with a loader's plain
 * object. The browser still receives it once, as JSON, so it holds JSON values only.
 */
export const datosDePagina = <T extends Record<string, unknown>>(data: T, init?: ResponseInit) => defer(data, init);

export function forbidden(message = "No tiene permiso para ver esta página o hacer esta acción."): never {
  throw json({ message }, { status: 403 });
}
export function notFound(message = "La página o el registro que busca no existe."): never {
  throw json({ message }, { status: 404 });
}

type Args = { request: Request; context: AppLoadContext; params?: Record<string, string | undefined> };

/** A path no screen serves: the 404 screen, after sign-in (the site's map is not public). */
export async function noExiste({ request, context }: Args): Promise<never> {
  await requireUser(request, context);
  notFound();
}

/**
 * The entity a generic screen serves (`$entidad` in its path, entities/pantallas.ts). Any other
 * path is answered as Remix answers one no route serves: reading it, `noExiste`; posting to it,
 * a 405 before anything else (as to a route without an action).
 */
export async function entidadDeLaPantalla(args: Args): Promise<Entity> {
  const entity = entidadDeLaRuta(args.params?.entidad);
  if (entity) return entity;
  if (args.request.method !== "GET" && args.request.method !== "HEAD")
    throw new Response(null, { status: 405, statusText: "Method Not Allowed" });
  return noExiste(args);
}

/** `{ intent }` when the form posted one (for replies), else nothing. */
export function intentOf(formData: FormData): { intent?: string } {
  const intent = formData.get("intent");
  return typeof intent === "string" && intent ? { intent } : {};
}

/** Row `id` of `source` as this person sees it; a 404 with `message` when they see none. */
export async function getOr404<T>(
  store: Store,
  source: string,
  id: string,
  message = `${capitalize("el registro")} no existe o no tiene acceso a él.`,
): Promise<T> {
  try {
    return await store.get<T>(source, id);
  } catch (error) {
    if (error instanceof NotFound) notFound(message);
    throw error;
  }
}

/** «no existe o no tiene acceso a él» («… a ella» for a feminine entity). */
export const noVisible = (entity: Pick<Entity, "gender">) =>
  `no existe o no tiene acceso a ${entity.gender === "f" ? "ella" : "él"}.`;

/**
 * The warnings a workflow function reports with what it did, as `avisos` (a list) or `aviso`
 * (one): the same contract for record and bulk actions (RecordAction, BulkAction).
 */
export function avisosDe(resultado: unknown): string[] {
  const r = (resultado ?? {}) as { avisos?: unknown; aviso?: unknown };
  const avisos = Array.isArray(r.avisos) ? r.avisos.map(String) : [];
  return typeof r.aviso === "string" && r.aviso ? [...avisos, r.aviso] : avisos;
}

/** The filtered list to go back to (`volver`), only ever a path of this entity's list. */
export function backTo(entity: Entity, url: URL) {
  const target = safeRedirect(url.searchParams.get("volver"), entity.path);
  return target === entity.path || target.startsWith(`${entity.path}?`) ? target : entity.path;
}

/**
 * Where a form that posts to its own error summary (`…#…-errores`) sends a saved post: a
 * redirect without a fragment would keep that one, so it lands on the page's content instead.
 */
export const alContenido = (to: string) => (to.includes("#") ? to : `${to}#contenido`);

export type FlashKind = "exito" | "aviso" | "error";
/** A link shown after a flash message (e.g. to the other gasto a new one duplicates). */
export type FlashLink = { href: string; texto: string };

export async function redirectWithFlash(
  context: AppLoadContext,
  request: Request,
  to: string,
  message: string,
  kind: FlashKind = "exito",
  o: Pick<Flash, "enlace" | "detalles" | "deLaLista"> = {},
) {
  const { enlace, detalles, deLaLista } = o;
  const flash: Flash = {
    message,
    kind,
    ...(enlace ? { enlace } : {}),
    ...(detalles?.length ? { detalles } : {}),
    ...(deLaLista ? { deLaLista } : {}),
  };
  return redirect(to, { headers: { "Set-Cookie": await context.services.flash.set(request, flash) } });
}

/**
 * A file's route (a download, a receipt) is opened by a person following a link, and Remix
 * answers what such a route throws as it is: its refusals (`{ message }`, 403, 404, 422…) become a
 * short page in the app's style that says the message, with the same status. Redirects
 * (sign-in) pass through.
 */
export function archivoParaPersonas<A>(loader: (args: A) => Promise<Response>) {
  return async (args: A): Promise<Response> => {
    try {
      return await loader(args);
    } catch (error) {
      if (!(error instanceof Response) || error.status < 400) throw error;
      const body = (await error.json().catch(() => null)) as { message?: unknown } | null;
      const message = typeof body?.message === "string" ? body.message : "No se ha podido obtener el archivo.";
      return new Response(paginaDeError(error.status, message), {
        status: error.status,
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" },
      });
    }
  };
}

function paginaDeError(status: number, message: string) {
  const titulo = status === 404 ? "No existe" : status === 403 ? "Sin permiso" : "No se puede descargar";
  return paginaSencilla(titulo, [escaparHtml(message), `<a href="/">Ir al inicio</a>`]);
}
