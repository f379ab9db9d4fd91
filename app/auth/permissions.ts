/**
 * Who may do what (docs/producto.md «Roles»), for hiding buttons and refusing requests in routes. The database
 * enforces the same rules again with row-level security; these never replace it.
 */
export type Rol = "administrador" | "aprobador" | "empleado";
export type Accion = "crear" | "editar" | "eliminar";
export type Permisos = Record<Accion, readonly Rol[]>;

export const SOLO_ADMIN: Permisos = {
  crear: ["administrador"],
  editar: ["administrador"],
  eliminar: ["administrador"],
};

export function puede(permisos: Permisos, accion: Accion, user: { rol: Rol }): boolean {
  return permisos[accion].includes(user.rol);
}
