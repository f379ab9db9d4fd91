import type { Permisos } from "~/auth/permissions";
import { ESTADOS_VIAJE, PAISES } from "~/lib/opciones";
import { addDaysISO, todayISO } from "~/lib/dates";
import { cuenta } from "~/lib/plural";
import { SOLICITANTE, type Entity } from "./entity";
import { checkbox, dateTime, ref, select, text, textarea } from "./fields";

/**
 * Viajes (docs/producto.md «Viajes, kilometraje y dietas»): the gastos of one trip, sent,
 * approved or rejected together. Everyone creates their own; row-level security decides who sees
 * which (as gastos), and only the solicitante or an administrador changes one. What decides
 * whether its dietas are exempt from IRPF is asked here, once for the whole trip.
 */
const PERMISOS: Permisos = {
  crear: ["administrador", "aprobador", "empleado"],
  editar: ["administrador", "aprobador", "empleado"],
  eliminar: ["administrador", "aprobador", "empleado"],
};

/** How far from today a trip may start, and how long it may last. */
const DIAS_DE_UN_ANIO = 365;

/** What a person who is not an administrador writes: never the solicitante. */
export const CAMPOS_VIAJE_NO_ADMIN = [
  "destino_municipio",
  "destino_pais",
  "motivo",
  "salida",
  "regreso",
  "municipio_distinto",
  "mas_de_nueve_meses",
  "notas",
] as const;

/** What a trip with gastos sent, approved or paid still lets its solicitante change. */
const CAMPOS_VIAJE_FIJO = ["motivo", "notas"] as const;
const VIAJE_FIJO =
  "El viaje tiene gastos enviados, aprobados o pagados: sus fechas, su destino y lo que decide la exención ya no se pueden cambiar, ni se puede eliminar.";

const APRUEBAN = ["administrador", "aprobador"] as const;

/** «Valencia, 27/11/2026», «Lisboa (PT), 02/03/2026»: as interno.titulo_viaje names a viaje. */
export function tituloViaje(row: Record<string, unknown>): string {
  const salida = String(row.salida ?? "");
  const fecha = /^\d{4}-\d{2}-\d{2}/.test(salida)
    ? `${salida.slice(8, 10)}/${salida.slice(5, 7)}/${salida.slice(0, 4)}`
    : "";
  const pais = row.destino_pais && row.destino_pais !== "ES" ? ` (${String(row.destino_pais)})` : "";
  return `${String(row.destino_municipio ?? "")}${pais}${fecha ? `, ${fecha}` : ""}`;
}

/** What approving a viaje asks to reject it: the motivo every pending gasto keeps. */
const motivoRechazo = (hint: string) =>
  text("motivo", "Motivo del rechazo", { required: true, min: 1, max: 1000, hint });

/**
 * Approving and rejecting, on one viaje or on the ones checked in the list: the same function, for
 * the same roles, offered where the database says this person may approve the viaje.
 */
const APROBAR = { funcion: "aprobar_viaje", roles: APRUEBAN } as const;
const RECHAZAR = { funcion: "rechazar_viaje", roles: APRUEBAN, peligro: true } as const;
const puedeAprobar = (row: Record<string, unknown>) => row.puede_aprobar === true;

const esSuyo = (record: Record<string, unknown>, user: { id: string; rol: string }) =>
  user.rol === "administrador" || record.solicitante_id === user.id;

export const viajes: Entity = {
  table: "viajes",
  view: "viajes_vista",
  path: "/viajes",
  title: "Viajes",
  singular: "viaje",
  plural: "viajes",
  gender: "m",
  intro:
    "Cada viaje agrupa sus gastos (hotel, taxis, kilometraje, dietas): se envían a aprobación y se aprueban juntos. Las dietas y el kilometraje dicen qué parte está exenta de IRPF.",
  fields: [
    ref("solicitante_id", "Solicitante", "usuarios", { hint: "Si lo deja vacío, usted." }),
    text("destino_municipio", "Municipio de destino", {
      required: true,
      min: 2,
      max: 100,
      hint: "Por ejemplo Bilbao o Lisboa.",
    }),
    select("destino_pais", "País de destino", PAISES, { required: true }),
    text("motivo", "Motivo", { required: true, min: 3, max: 500, hint: "Por ejemplo «Visita a clientes de Bizkaia»." }),
    dateTime("salida", "Salida", { required: true, genero: "f", hint: "Día y hora de salida." }),
    dateTime("regreso", "Regreso", {
      required: true,
      hint: "Día y hora de vuelta. El mismo día que la salida: dietas sin pernocta.",
    }),
    checkbox("municipio_distinto", "El destino es otro municipio que el del centro de trabajo y el de la residencia", {
      hint: "Sin esto, las dietas no están exentas de IRPF (Reglamento del IRPF, art. 9).",
    }),
    checkbox("mas_de_nueve_meses", "Estancia de más de nueve meses seguidos en el mismo municipio", {
      hint: "Márquelo también si el viaje continúa una estancia anterior en el mismo lugar: las dietas dejan de estar exentas.",
    }),
    textarea("notas", "Notas", { max: 2000 }),
  ],
  columns: [
    { name: "destino_municipio", label: "Destino", link: true, sortable: true },
    { name: "destino_pais", label: "País", kind: "option", options: PAISES, sortable: true },
    { name: "salida", label: "Salida", kind: "datetime", sortable: true },
    { name: "regreso", label: "Regreso", kind: "datetime", sortable: true },
    { name: "motivo", label: "Motivo" },
    SOLICITANTE.columna,
    { name: "num_gastos", label: "Gastos", kind: "count", contar: { singular: "gasto", plural: "gastos" } },
    { name: "importe_total", label: "Importe", kind: "money", sortable: true },
    { name: "exento_total", label: "Exento de IRPF", kind: "money" },
    { name: "sujeto_total", label: "Sujeto a IRPF", kind: "money" },
    { name: "estado", label: "Estado", kind: "option", options: ESTADOS_VIAJE, badge: true },
  ],
  // puede_aprobar: which rows the bulk actions offer.
  rowFields: ["solicitante_id", "puede_aprobar"],
  search: ["destino_municipio", "motivo"],
  filters: [
    { name: "estado", label: "Estado", kind: "select", column: "estado", options: ESTADOS_VIAJE },
    { name: "pais", label: "País de destino", kind: "select", column: "destino_pais", options: PAISES },
    SOLICITANTE.filtro,
  ],
  vistas: [
    { name: "mios", label: "Mis viajes", filters: (user) => [{ column: "solicitante_id", op: "eq", value: user.id }] },
    {
      name: "pendientes",
      label: "Viajes pendientes de aprobar",
      roles: APRUEBAN,
      filters: () => [{ column: "puede_aprobar", op: "eq", value: true }],
    },
  ],
  defaultOrder: { column: "salida", ascending: false },
  labelColumn: "titulo",
  // The gasto form's «Viaje»: one's own trips (an administrador's, all).
  optionsFrom: "viajes_opciones",
  optionLabel: "titulo",
  permisos: PERMISOS,
  acceso: (user, recordId, record) => {
    const suyo = !recordId || !record || esSuyo(record, user);
    // Once a gasto of the trip is sent, approved or paid, what decides its dietas stays (the
    // database refuses the change, interno.viajes_validar). Any gasto keeps it from going (the
    // database refuses that too: «tiene N gastos asociados»).
    const fijos = record?.datos_fijos === true;
    const conGastos = Number(record?.num_gastos ?? 0) > 0;
    return {
      editar: suyo,
      eliminar: suyo && !conGastos,
      // The solicitante is chosen once, by an administrador creating it; never changed after.
      campos: fijos ? CAMPOS_VIAJE_FIJO : user.rol === "administrador" && !recordId ? undefined : CAMPOS_VIAJE_NO_ADMIN,
      ...(fijos && suyo ? { porQue: VIAJE_FIJO } : {}),
      ...(conGastos && suyo
        ? {
            noSeElimina: `No se puede eliminar: el viaje tiene ${cuenta(Number(record?.num_gastos), "gasto", "gastos")}. Elimínelos o quítelos del viaje antes.`,
          }
        : {}),
    };
  },
  defaults: ({ country, userId }) => ({ destino_pais: country, municipio_distinto: "on", solicitante_id: userId }),
  refine: (values, ctx) => {
    const { salida, regreso } = values;
    if (typeof salida !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(salida)) return;
    const problema = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    // Sensible dates, as a gasto's (the database says the same, interno.viajes_validar).
    const hoy = todayISO();
    const dia = salida.slice(0, 10);
    if (dia < addDaysISO(hoy, -DIAS_DE_UN_ANIO))
      problema("salida", "Salida: no puede ser de hace más de un año (sus gastos ya no se podrían anotar)");
    else if (dia > addDaysISO(hoy, DIAS_DE_UN_ANIO)) problema("salida", "Salida: como mucho dentro de un año");
    if (typeof regreso !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(regreso)) return;
    if (regreso < salida) problema("regreso", "Regreso: no puede ser anterior a la salida");
    else if (regreso.slice(0, 10) > addDaysISO(dia, DIAS_DE_UN_ANIO))
      problema("regreso", "Regreso: un viaje dura como mucho un año; para uno más largo, anote varios");
  },
  acciones: [
    {
      intent: "enviar",
      label: "Enviar el viaje a aprobación",
      funcion: "enviar_viaje",
      ayuda: "Envía a la vez todos sus gastos en borrador; si alguno no puede enviarse, no se envía ninguno.",
      disponible: (record, user) => Number(record.borradores) > 0 && esSuyo(record, user),
      hecho: (r) => `Viaje enviado a aprobación: ${cuenta(Number(r.gastos), "gasto", "gastos")}.`,
    },
    {
      intent: "aprobar",
      label: "Aprobar el viaje",
      ...APROBAR,
      ayuda: "Aprueba a la vez todos sus gastos pendientes.",
      disponible: puedeAprobar,
      hecho: (r) => `Viaje aprobado: ${cuenta(Number(r.gastos), "gasto aprobado", "gastos aprobados")}.`,
    },
    {
      intent: "rechazar",
      label: "Rechazar el viaje",
      ...RECHAZAR,
      campos: [motivoRechazo("Lo verá el solicitante; se guarda en cada gasto pendiente del viaje.")],
      disponible: puedeAprobar,
      hecho: (r) => `Viaje rechazado: ${cuenta(Number(r.gastos), "gasto rechazado", "gastos rechazados")}.`,
    },
  ],
  // The same two steps on the trips checked in the list: each viaje with all its pending gastos.
  enBloque: [
    {
      intent: "aprobar_seleccion",
      label: "Aprobar los viajes seleccionados",
      ...APROBAR,
      aplicable: puedeAprobar,
      verbo: { infinitivo: "aprobar", participio: ["Aprobado", "Aprobados"], perfecto: ["aprobado", "aprobado"] },
    },
    {
      intent: "rechazar_seleccion",
      label: "Rechazar los viajes seleccionados",
      ...RECHAZAR,
      campos: [motivoRechazo("Lo verá cada solicitante; se guarda en cada gasto pendiente de los viajes rechazados.")],
      aplicable: puedeAprobar,
      verbo: {
        infinitivo: "rechazar",
        participio: ["Rechazado", "Rechazados"],
        perfecto: ["rechazado", "rechazado"],
      },
    },
  ],
};
