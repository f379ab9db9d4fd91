import type { Rol } from "~/auth/permissions";
import type { EstadoGasto } from "~/lib/constants";

/**
 * The expense workflow as the route sees it (SPEC §3, §4): which transitions exist, from which
 * state, and who may take them. Used to show only the buttons a person may press and to refuse
 * (403) a forced post. The database functions (enviar_gasto, aprobar_gasto, …) check all of it
 * again, with the row locked, and are the only way `estado` changes.
 *
 * Who may act is decided here; whether the gasto is still in the right state is left to the
 * database, so a transition someone else already made gets the clear «ya no está …» conflict
 * message rather than a 403.
 */
export type Transicion = "enviar" | "retirar" | "aprobar" | "rechazar" | "reabrir" | "pagar" | "revertir";

export const TRANSICIONES: Record<
  Transicion,
  { desde: EstadoGasto; boton: string; funcion: string; hecho: string; peligro?: boolean }
> = {
  enviar: { desde: "borrador", boton: "Enviar a aprobación", funcion: "enviar_gasto", hecho: "enviado a aprobación" },
  retirar: { desde: "pendiente", boton: "Retirar", funcion: "retirar_gasto", hecho: "retirado: vuelve a estar en borrador" },
  aprobar: { desde: "pendiente", boton: "Aprobar", funcion: "aprobar_gasto", hecho: "aprobado" },
  rechazar: { desde: "pendiente", boton: "Rechazar", funcion: "rechazar_gasto", hecho: "rechazado", peligro: true },
  reabrir: { desde: "rechazado", boton: "Reabrir", funcion: "reabrir_gasto", hecho: "reabierto: vuelve a estar en borrador" },
  pagar: { desde: "aprobado", boton: "Marcar como pagado", funcion: "pagar_gasto", hecho: "marcado como pagado" },
  revertir: { desde: "aprobado", boton: "Revertir aprobación", funcion: "revertir_gasto", hecho: "vuelve a estar pendiente de aprobación", peligro: true },
};

export const TRANSICIONES_ORDEN = Object.keys(TRANSICIONES) as Transicion[];

export function esTransicion(value: unknown): value is Transicion {
  return typeof value === "string" && Object.hasOwn(TRANSICIONES, value);
}

export type Actor = { id: string; rol: Rol; departamento_id: string | null };
export type GastoClave = { estado: string; solicitante_id: string; aprobador_id: string | null; departamento_id: string };

/** May `user` approve or reject this gasto (whatever its state)? Never their own. */
export function puedeAprobar(user: Actor, g: GastoClave, aCargo: readonly string[]): boolean {
  if (g.solicitante_id === user.id) return false;
  return (
    user.rol === "administrador" ||
    g.aprobador_id === user.id ||
    aCargo.includes(g.departamento_id) ||
    (user.rol === "aprobador" && user.departamento_id !== null && g.departamento_id === user.departamento_id)
  );
}

/** Is `user` the one who may take transition `t` on this gasto (ignoring its current state)? */
export function puedeActuar(user: Actor, g: GastoClave, t: Transicion, aCargo: readonly string[]): boolean {
  const propio = g.solicitante_id === user.id;
  const admin = user.rol === "administrador";
  switch (t) {
    case "enviar":
    case "retirar":
    case "reabrir":
      return propio || admin;
    case "aprobar":
    case "rechazar":
      return puedeAprobar(user, g, aCargo);
    case "pagar":
    case "revertir":
      return admin;
  }
}

/** The transitions to offer now: the user may take them and the gasto is in their starting state. */
export function transicionesDisponibles(user: Actor, g: GastoClave, aCargo: readonly string[]): Transicion[] {
  return TRANSICIONES_ORDEN.filter((t) => TRANSICIONES[t].desde === g.estado && puedeActuar(user, g, t, aCargo));
}

/** Edit and delete: own borradores, or anyone's for an administrador (the state is checked apart). */
export function esSuyo(user: Actor, g: GastoClave): boolean {
  return g.solicitante_id === user.id || user.rol === "administrador";
}

/** Offer bulk approve/reject: approvers, administradores, and whoever is responsible for a department. */
export function apruebaEnBloque(user: Actor, aCargo: readonly string[]): boolean {
  return user.rol !== "empleado" || aCargo.length > 0;
}
