import type { Rol } from "~/auth/permissions";
import type { EstadoGasto } from "~/lib/opciones";

/**
 * The expense workflow as the route sees it (docs/producto.md «El flujo»): which transitions exist, from which
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
  retirar: {
    desde: "pendiente",
    boton: "Retirar",
    funcion: "retirar_gasto",
    hecho: "retirado: vuelve a estar en borrador",
  },
  aprobar: { desde: "pendiente", boton: "Aprobar", funcion: "aprobar_gasto", hecho: "aprobado" },
  rechazar: { desde: "pendiente", boton: "Rechazar", funcion: "rechazar_gasto", hecho: "rechazado", peligro: true },
  reabrir: {
    desde: "rechazado",
    boton: "Reabrir",
    funcion: "reabrir_gasto",
    hecho: "reabierto: vuelve a estar en borrador",
  },
  pagar: { desde: "aprobado", boton: "Marcar como pagado", funcion: "pagar_gasto", hecho: "marcado como pagado" },
  revertir: {
    desde: "aprobado",
    boton: "Revertir aprobación",
    funcion: "revertir_gasto",
    hecho: "vuelve a estar pendiente de aprobación",
    peligro: true,
  },
};

export const TRANSICIONES_ORDEN = Object.keys(TRANSICIONES) as Transicion[];

export function esTransicion(value: unknown): value is Transicion {
  return typeof value === "string" && Object.hasOwn(TRANSICIONES, value);
}

export type Actor = { id: string; rol: Rol; departamento_id: string | null };
export type GastoClave = {
  estado: string;
  solicitante_id: string;
  aprobador_id: string | null;
  departamento_id: string;
  creado_por_id?: string | null;
  editado_por_id?: string | null;
  aprobado_por_id?: string | null;
};

/**
 * What the database says about this person's approval rights (public.alcance_aprobacion(), read
 * at each request): the people whose gastos they approve by their relation to them (their
 * aprobador_id, their department, the departments in their charge and below), and whether the
 * installation lets whoever approved a gasto also mark it paid (PERMITIR_ADMIN_UNICO).
 */
export type Alcance = { solicitantes: readonly string[]; permitir_admin_unico: boolean };
export const SIN_ALCANCE: Alcance = { solicitantes: [], permitir_admin_unico: false };

/**
 * May `user` approve or reject this gasto (whatever its state)? Separation of duties,
 * as interno.motivo_no_aprueba decides it: only an active aprobador or administrador; never their
 * own, nor one they created or last edited on someone's behalf; an administrador anything else,
 * an aprobador the one assigned to them and those of the people they approve for — decided by
 * the solicitante, never by the gasto's department (the cost centre).
 */
export function puedeAprobar(user: Actor, g: GastoClave, alcance: Alcance): boolean {
  return motivoNoAprueba(user, g, alcance) === null;
}

/** Why not (the database's wording for the same cases), or null when they may. */
export function motivoNoAprueba(
  user: Actor,
  g: GastoClave,
  alcance: Alcance,
  accion: "aprobar" | "rechazar" = "aprobar",
): string | null {
  if (g.solicitante_id === user.id) return `No puede ${accion} sus propios gastos.`;
  if (user.rol !== "aprobador" && user.rol !== "administrador")
    return `Su rol es empleado: no puede ${accion} gastos. Si cree que debería, hable con un administrador.`;
  if (g.creado_por_id === user.id)
    return `Usted creó este gasto en nombre de otra persona: debe ${accion}lo otra persona.`;
  if (g.editado_por_id === user.id)
    return `Usted editó este gasto en nombre de otra persona: debe ${accion}lo otra persona.`;
  if (user.rol === "administrador" || g.aprobador_id === user.id || alcance.solicitantes.includes(g.solicitante_id))
    return null;
  return `No tiene permiso para ${accion} este gasto: lo ${accion === "aprobar" ? "aprueban" : "rechazan"} el aprobador del solicitante, los responsables de su departamento o un administrador.`;
}

/** Mark paid: an administrador who did not approve it (unless the installation allows it). */
export function motivoNoPaga(user: Actor, g: GastoClave, alcance: Alcance): string | null {
  if (user.rol !== "administrador") return "Solo un administrador puede marcar gastos como pagados.";
  if (g.aprobado_por_id === user.id && !alcance.permitir_admin_unico)
    return "Usted aprobó este gasto: debe marcarlo como pagado otro administrador.";
  return null;
}

/** Is `user` the one who may take transition `t` on this gasto (ignoring its current state)? */
export function puedeActuar(user: Actor, g: GastoClave, t: Transicion, alcance: Alcance): boolean {
  return motivoNoActua(user, g, t, alcance) === null;
}

/** Why `user` may not take `t` (a 403 page's words), or null. */
export function motivoNoActua(user: Actor, g: GastoClave, t: Transicion, alcance: Alcance): string | null {
  const propio = g.solicitante_id === user.id;
  const admin = user.rol === "administrador";
  switch (t) {
    case "enviar":
    case "retirar":
    case "reabrir":
      return propio || admin ? null : "Solo el solicitante o un administrador pueden hacerlo.";
    case "aprobar":
    case "rechazar":
      return motivoNoAprueba(user, g, alcance, t);
    case "pagar":
      return motivoNoPaga(user, g, alcance);
    case "revertir":
      return admin ? null : "Solo un administrador puede revertir una aprobación.";
  }
}

/** The transitions to offer now: the user may take them and the gasto is in their starting state. */
export function transicionesDisponibles(user: Actor, g: GastoClave, alcance: Alcance): Transicion[] {
  return TRANSICIONES_ORDEN.filter((t) => TRANSICIONES[t].desde === g.estado && puedeActuar(user, g, t, alcance));
}

/** Edit and delete: own borradores, or anyone's for an administrador (the state is checked apart). */
export function esSuyo(user: Actor, g: GastoClave): boolean {
  return g.solicitante_id === user.id || user.rol === "administrador";
}

/** Offer bulk approve/reject: aprobadores and administradores (an empleado approves nothing). */
export function apruebaEnBloque(user: Actor): boolean {
  return user.rol === "aprobador" || user.rol === "administrador";
}
