import { redirect, type AppLoadContext } from "@remix-run/node";
import { NotFound, type Store } from "~/data/store";
import { comoRol, type Rol } from "./permissions";

export type CurrentUser = {
  id: string;
  nombre: string;
  apellidos: string | null;
  email: string;
  rol: Rol;
  departamento_id: string | null;
  sucursal_id: string | null;
  aprobador_id: string | null;
  activo: boolean;
  /** It signed itself up (not invited nor created by an administrador): see permissions.ts `pendiente`. */
  alta_propia?: boolean;
  /** Unread avisos, when the backend reads them with the session (the header's «Avisos (N)»). */
  avisos_sin_leer?: number;
};

export type Signed = { user: CurrentUser; store: Store };

/**
 * The signed-in user and a store acting as them, or null. Read once per request (the root and
 * the route loaders share it through the request's context). A user who was deactivated is no
 * longer visible to themself under row-level security: their sessions are ended here at once.
 */
export function currentUser(request: Request, context: AppLoadContext): Promise<Signed | null> {
  context.signed ??= (async () => {
    const { auth, storeFor } = context.services;
    const { session, headers } = await auth.getSession(request);
    headers.forEach((value, key) => key.toLowerCase() === "set-cookie" && context.appendCookie(value));
    if (!session) return null;
    const store = storeFor(session);
    if (session.profile?.activo) return { user: session.profile, store };
    try {
      const u = await store.get("usuarios", session.userId);
      if (!u.activo) throw new NotFound("inactivo");
      const { id, nombre, apellidos, email, departamento_id, sucursal_id, aprobador_id, activo, alta_propia } = u;
      const rol = comoRol(u.rol);
      const user: CurrentUser = {
        id,
        nombre,
        apellidos,
        email,
        rol,
        departamento_id,
        sucursal_id,
        aprobador_id,
        activo,
        alta_propia,
      };
      return { user, store };
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
      await auth.endSessionsOf(session.userId);
      return null;
    }
  })();
  return context.signed;
}

export async function requireUser(request: Request, context: AppLoadContext): Promise<Signed> {
  const signed = await currentUser(request, context);
  if (!signed) {
    const url = new URL(request.url);
    const here = url.pathname + url.search;
    throw redirect(here === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(here)}`);
  }
  return signed;
}
