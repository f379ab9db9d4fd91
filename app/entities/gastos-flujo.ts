import { addYearsISO, todayISO } from "~/lib/dates";
import type { BulkAction, RecordAction } from "./entity";
import { date, formSchema, text, textarea, type Field, type Z } from "./fields";

/**
 * The gasto's workflow as the entity declares it (docs/producto.md «El flujo»): each transition a
 * record action (the panel's buttons) and the list's bulk actions, with the fields they ask for.
 * Who may take each one is the database's rule alone (public.motivos_gasto for the panel; each
 * function checks it again with the row locked), and the functions are the only way `estado`
 * changes.
 */

/** Who approves: aprobadores and administradores (the database says which gastos). */
const APRUEBAN = ["administrador", "aprobador"] as const;

/**
 * «Marcar como pagado»'s fields, on one gasto (its panel) and on many (the list): the payment's
 * value date, which may be in the future (a scheduled transfer) up to a year from today, as
 * pagar_gasto checks, and the bank's reference.
 */
export const CAMPOS_PAGO: readonly Field[] = [
  date("fecha_pago", "Fecha de pago", {
    required: true,
    hint: "La fecha valor del pago; puede ser futura (como mucho dentro de un año).",
  }),
  text("referencia_pago", "Referencia de pago", {
    required: true,
    min: 1,
    max: 100,
    hint: "Por ejemplo el número de la transferencia.",
  }),
];

/** pagar_gasto's arguments: the field «Referencia de pago» is its `p_referencia`. */
function argumentosPago(values: Record<string, unknown>) {
  return { p_fecha_pago: values.fecha_pago, p_referencia: values.referencia_pago };
}

/** The latest payment date «Marcar como pagado» takes. */
export const fechaPagoMaxima = (hoy: string = todayISO()) => addYearsISO(hoy, 1);

/**
 * The payment's schema for a gasto dated `fechaGasto` (null: many gastos, each date checked by
 * the database): its fields plus the rules pagar_gasto checks, run even when another field
 * failed, so one submit shows every error.
 */
export function esquemaPago(z: Z, fechaGasto: unknown) {
  return formSchema(
    z,
    CAMPOS_PAGO,
    (values, ctx) => {
      const fecha = values.fecha_pago;
      if (typeof fecha !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(fecha)) return;
      const message =
        fecha > fechaPagoMaxima()
          ? "Fecha de pago: puede ser futura (la fecha valor), pero como mucho dentro de un año"
          : typeof fechaGasto === "string" && fecha < fechaGasto
            ? "Fecha de pago: no puede ser anterior a la fecha del gasto"
            : null;
      if (message) ctx.addIssue({ code: "custom", path: ["fecha_pago"], message });
    },
    { always: true },
  );
}

/**
 * A motivo the workflow keeps (rejecting, reverting an approval): `vacio` says what is missing,
 * in the words of the form it is in.
 */
export const campoMotivo = (etiqueta: string, vacio: string, hint?: string): Field => ({
  ...text("motivo", etiqueta, { required: true, min: 1, max: 1000, hint }),
  schema: (z) =>
    z
      .string({ error: vacio })
      .trim()
      .min(1, { error: vacio })
      .max(1000, { error: "Motivo: como máximo 1000 caracteres" }),
});

const PENDIENTE_SUYO = (row: Record<string, unknown>) => row.estado === "pendiente" && row.puede_aprobar === true;
const MOTIVO_SIN_ESCRIBIR = "Escriba el motivo del rechazo: se guarda en cada gasto rechazado.";

/**
 * The list's bulk actions (app/crud/en-bloque.server.ts): send one's drafts to approval (those
 * that need a motivo are refused with it, to be sent from their own panel), approve or reject what
 * this person may approve (gastos_vista.puede_aprobar, the database's rule), and mark approved
 * gastos as paid (administradores, one date and reference for all).
 */
export const EN_BLOQUE: readonly BulkAction[] = [
  {
    intent: "enviar_seleccion",
    label: "Enviar seleccionados a aprobación",
    funcion: "enviar_gasto",
    aplicable: (row, user) =>
      row.estado === "borrador" && (row.solicitante_id === user.id || user.rol === "administrador"),
    verbo: {
      infinitivo: "enviar a aprobación",
      participio: ["Enviado a aprobación", "Enviados a aprobación"],
      perfecto: ["enviado a aprobación", "enviado a aprobación"],
    },
  },
  {
    intent: "aprobar_seleccion",
    label: "Aprobar seleccionados",
    funcion: "aprobar_gasto",
    roles: APRUEBAN,
    grupo: "Aprobar o rechazar",
    aplicable: PENDIENTE_SUYO,
    verbo: { infinitivo: "aprobar", participio: ["Aprobado", "Aprobados"], perfecto: ["aprobado", "aprobado"] },
  },
  {
    intent: "rechazar_seleccion",
    label: "Rechazar seleccionados",
    funcion: "rechazar_gasto",
    roles: APRUEBAN,
    peligro: true,
    grupo: "Aprobar o rechazar",
    // Several lines, so that Enter while typing it never posts the group's first button (Aprobar).
    campos: [
      {
        ...campoMotivo("Motivo del rechazo (solo para rechazar)", MOTIVO_SIN_ESCRIBIR),
        input: { type: "textarea" },
      },
    ],
    aplicable: PENDIENTE_SUYO,
    verbo: { infinitivo: "rechazar", participio: ["Rechazado", "Rechazados"], perfecto: ["rechazado", "rechazado"] },
  },
  {
    intent: "pagar_seleccion",
    label: "Marcar como pagados",
    funcion: "pagar_gasto",
    roles: ["administrador"],
    grupo: "Marcar como pagados (la misma fecha y referencia para todos)",
    campos: CAMPOS_PAGO,
    esquema: (z) => esquemaPago(z, null),
    argumentos: argumentosPago,
    aplicable: (row, user) => user.rol === "administrador" && row.estado === "aprobado",
    verbo: {
      infinitivo: "marcar como pagado",
      participio: ["Marcado como pagado", "Marcados como pagados"],
      perfecto: ["marcado como pagado", "marcado como pagados"],
    },
  },
];

const motivo = (hint: string) => campoMotivo("Motivo", "Escriba el motivo", hint);

/**
 * Asked by «Enviar a aprobación» only when a receipt of the gasto is also on another one
 * (`enviar_gasto` refuses without it and writes it to the history). Shown as required, since
 * it is shown only when it is needed; the schema leaves it optional because only the database
 * knows for sure (the other gasto may be one the sender cannot see). The panel decides when to
 * show it (FichaGasto.tsx).
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

/** Offered from this state only (the database says the rest: public.motivos_gasto). */
const desde = (estado: string) => (record: Record<string, unknown>) => record.estado === estado;
/** «Gasto GAS-2026-00012 aprobado.» */
const hecho = (texto: string) => (_: unknown, record: Record<string, unknown>) =>
  `Gasto ${String(record.folio)} ${texto}.`;

/** The transitions, in the order the panel shows them. */
export const ACCIONES: readonly RecordAction[] = [
  {
    intent: "enviar",
    label: "Enviar a aprobación",
    funcion: "enviar_gasto",
    campos: [MOTIVO_DUPLICADO, MOTIVO_POLITICA],
    disponible: desde("borrador"),
    hecho: hecho("enviado a aprobación"),
    // No receipt (JUSTIFICANTE_OBLIGATORIO_DESDE): the message leads to the panel's file field.
    remedios: { justificantes: { ancla: "justificantes-archivos", texto: "Adjuntar el justificante" } },
  },
  {
    intent: "retirar",
    label: "Retirar",
    funcion: "retirar_gasto",
    disponible: desde("pendiente"),
    hecho: hecho("retirado: vuelve a estar en borrador"),
  },
  {
    intent: "aprobar",
    label: "Aprobar",
    funcion: "aprobar_gasto",
    disponible: desde("pendiente"),
    hecho: hecho("aprobado"),
  },
  {
    intent: "rechazar",
    label: "Rechazar",
    funcion: "rechazar_gasto",
    peligro: true,
    campos: [motivo("Lo verá el solicitante, por ejemplo «Falta el ticket».")],
    disponible: desde("pendiente"),
    hecho: hecho("rechazado"),
  },
  {
    intent: "reabrir",
    label: "Reabrir",
    funcion: "reabrir_gasto",
    disponible: desde("rechazado"),
    hecho: hecho("reabierto: vuelve a estar en borrador"),
  },
  {
    intent: "pagar",
    label: "Marcar como pagado",
    funcion: "pagar_gasto",
    campos: CAMPOS_PAGO,
    esquema: (z, record) => esquemaPago(z, record.fecha_gasto),
    argumentos: argumentosPago,
    disponible: desde("aprobado"),
    hecho: hecho("marcado como pagado"),
  },
  {
    intent: "revertir",
    label: "Revertir aprobación",
    funcion: "revertir_gasto",
    peligro: true,
    campos: [motivo("Por qué se revierte la aprobación; queda en el historial.")],
    disponible: desde("aprobado"),
    hecho: hecho("vuelve a estar pendiente de aprobación"),
  },
];
