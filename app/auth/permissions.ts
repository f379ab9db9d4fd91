/**
 * Who may do what (docs/producto.md «Roles»), for hiding buttons and refusing requests in routes. The database
 * enforces the same rules again with row-level security; these never replace it.
 */
export type Rol = "administrador" | "aprobador" | "empleado";
const ROLES: readonly string[] = ["administrador", "aprobador", "empleado"] satisfies Rol[];

/** A role as the database stores it (text, checked by its constraint), as the type the code uses. */
export function comoRol(valor: string): Rol {
  if (!ROLES.includes(valor)) throw new Error(`Rol desconocido: ${valor}`);
  return valor as Rol;
}
export type Accion = "crear" | "editar" | "eliminar";
export type Permisos = Record<Accion, readonly Rol[]>;

export const SOLO_ADMIN: Permisos = {
  crear: ["administrador"],
  editar: ["administrador"],
  eliminar: ["administrador"],
};

/** Rows the database makes and keeps (a fixed list, the one company): nobody adds or deletes one. */
export const SOLO_EDITA_ADMIN: Permisos = { crear: [], editar: ["administrador"], eliminar: [] };

export function puede(permisos: Permisos, accion: Accion, user: { rol: Rol }): boolean {
  return permisos[accion].includes(user.rol);
}

export const PENDIENTE =
  "Su cuenta está pendiente de que un administrador le asigne un departamento. Mientras tanto solo ve sus gastos y su perfil.";

/**
 * An account that signed itself up and that no administrador has placed yet (an empleado with
 * no departamento): it sees only its own gastos and profile (row-level security says the same:
 * interno.ubicado).
 */
export function pendiente(user: { rol: Rol; departamento_id: string | null; alta_propia?: boolean }): boolean {
  return user.alta_propia === true && user.rol === "empleado" && !user.departamento_id;
}
