import { formSchema, textarea, type Field, type Z } from "~/entities/fields";
import { CAMPOS_PAGO, campoMotivo, esquemaPago } from "~/entities/gastos";
import type { Transicion } from "./reglas";

/**
 * What each transition asks for: a motivo to reject or to revert an approval, the
 * date and reference to mark as paid. The same declarations draw the panel's forms and parse
 * the posts; the database checks them again.
 */
const motivo = (hint: string) => campoMotivo("Motivo", "Escriba el motivo", hint);

/**
 * Asked by «Enviar a aprobación» only when a receipt of the gasto is also on another one
 * (`enviar_gasto` refuses without it and writes it to the history). Shown as required, since
 * it is shown only when it is needed; the schema leaves it optional because only the database
 * knows for sure (the other gasto may be one the sender cannot see). The panel decides when to
 * show it: `mostrarCampo`.
 */
export const MOTIVO_DUPLICADO: Field = {
  ...textarea("motivo_duplicado", "Motivo del duplicado", {
    max: 500,
    hint: "Un justificante de este gasto ya está adjunto a otro gasto. Explique por qué se presenta de nuevo (por ejemplo, «Ticket compartido: cada uno paga su parte»); quedará en el historial.",
  }),
  required: true,
};

/**
 * Asked by «Enviar a aprobación» when the gasto is outside its spending policy (the panel lists
 * what it breaks); as MOTIVO_DUPLICADO, the database decides and refuses without it. The
 * aprobador reads it before approving.
 */
export const MOTIVO_POLITICA: Field = {
  ...textarea("motivo_politica", "Motivo para salirse de la política", {
    max: 500,
    hint: "Lo verá quien lo apruebe antes de aprobarlo, por ejemplo «Único hotel disponible junto a la feria».",
  }),
  required: true,
};

export const CAMPOS_TRANSICION: Record<Transicion, readonly Field[]> = {
  enviar: [MOTIVO_DUPLICADO, MOTIVO_POLITICA],
  retirar: [],
  aprobar: [],
  rechazar: [motivo("Lo verá el solicitante, por ejemplo «Falta el ticket».")],
  reabrir: [],
  pagar: CAMPOS_PAGO,
  revertir: [motivo("Por qué se revierte la aprobación; queda en el historial.")],
};

/**
 * Whether transition form field `f` is drawn: «Motivo del duplicado» only when the panel marks a
 * receipt as also on another gasto, the policy's motivo only when the gasto is outside its
 * policy, or either when the database refused the send for lack of it (it carries the error and
 * what was typed); every other field always.
 */
export function mostrarCampo(
  f: Field,
  o: { duplicado: boolean; fueraDePolitica: boolean; errores?: readonly string[] },
) {
  if (o.errores?.length) return true;
  if (f === MOTIVO_DUPLICADO) return o.duplicado;
  if (f === MOTIVO_POLITICA) return o.fueraDePolitica;
  return true;
}

/**
 * The form schema of transition `t` on a gasto dated `fecha_gasto`: its fields, and for a payment
 * the rules pagar_gasto checks (esquemaPago).
 */
export function esquemaTransicion(z: Z, t: Transicion, fechaGasto: unknown) {
  return t === "pagar" ? esquemaPago(z, fechaGasto) : formSchema(z, CAMPOS_TRANSICION[t]);
}
