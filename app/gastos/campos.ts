import { date, text, type Field } from "~/entities/fields";
import type { Transicion } from "./reglas";

/**
 * What each transition asks for (SPEC §3): a motivo to reject or to revert an approval, the
 * date and reference to mark as paid. The same declarations draw the panel's forms and parse
 * the posts; the database checks them again.
 */
const motivo = (hint: string): Field => ({
  ...text("motivo", "Motivo", { required: true, min: 1, max: 1000, hint }),
  schema: (z) =>
    z
      .string({ error: "Escriba el motivo" })
      .trim()
      .min(1, { error: "Escriba el motivo" })
      .max(1000, { error: "Motivo: como máximo 1000 caracteres" }),
});

export const CAMPOS_TRANSICION: Record<Transicion, readonly Field[]> = {
  enviar: [],
  retirar: [],
  aprobar: [],
  rechazar: [motivo("Lo verá el solicitante, por ejemplo «Falta el ticket».")],
  reabrir: [],
  pagar: [
    date("fecha_pago", "Fecha de pago", { required: true }),
    text("referencia_pago", "Referencia de pago", {
      required: true,
      min: 1,
      max: 100,
      hint: "Por ejemplo el número de la transferencia.",
    }),
  ],
  revertir: [motivo("Por qué se revierte la aprobación; queda en el historial.")],
};
