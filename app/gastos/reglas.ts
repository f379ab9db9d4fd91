import type { EstadoGasto } from "~/lib/opciones";

/**
 * The expense workflow as the route sees it (docs/producto.md «El flujo»): which transitions exist,
 * from which state, their buttons and database functions. Who may take them is the database's
 * rule alone (public.motivos_gasto for the panel; each function checks it again with the row
 * locked), and the functions are the only way `estado` changes.
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
 * What the database says this person may do with one gasto (public.motivos_gasto): for each
 * transition, why they may not, in the words of the refusal they would get, or null when they may.
 */
export type Motivos = Record<Transicion, string | null>;

/** The transitions to offer now: the database lets this person take them, from the gasto's state. */
export function transicionesDisponibles(estado: string, motivos: Motivos | null): Transicion[] {
  return motivos ? TRANSICIONES_ORDEN.filter((t) => TRANSICIONES[t].desde === estado && motivos[t] === null) : [];
}
