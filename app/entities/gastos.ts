import type { Permisos } from "~/auth/permissions";
import {
  CATEGORIAS_GASTO,
  CLASES_GASTO,
  ESTADOS_GASTO,
  LUGARES_DIETA,
  METODOS_PAGO,
  PAISES,
  TIPOS_DOCUMENTO,
  TIPOS_IVA,
} from "~/lib/opciones";
import { addDaysISO, todayISO } from "~/lib/dates";
import {
  completarLineas,
  cuotaCuadra,
  cuotaDe,
  enImporte,
  etiquetaTipo,
  porcentaje,
  type LineaIva,
  type LineaParcial,
} from "~/lib/iva";
import { compareMoney, formatMoney, fromCents, isMoneyString, toCents } from "~/lib/money";
import { normalizeNif, validateNif } from "~/lib/nif";
import { SOLICITANTE, type Entity } from "./entity";
import { ACCIONES, EN_BLOQUE } from "./gastos-flujo";
import { checkbox, date, decimal, desglose, money, ref, select, text, textarea } from "./fields";

/**
 * Gastos (docs/producto.md «El gasto»). Everyone creates, edits and deletes their own borradores (an
 * administrador anyone's); row-level security decides which records each person sees and
 * touches, and the workflow functions in the database are the only way to change `estado`.
 */
const PERMISOS: Permisos = {
  crear: ["administrador", "aprobador", "empleado"],
  editar: ["administrador", "aprobador", "empleado"],
  eliminar: ["administrador", "aprobador", "empleado"],
};

/** How old a gasto may be (at most 365 days old). */
export const ANTIGUEDAD_MAXIMA_DIAS = 365;

/** The fields a person who is not an administrador writes: never the solicitante. */
export const CAMPOS_NO_ADMIN = [
  "descripcion",
  "fecha_gasto",
  "categoria",
  "importe",
  "metodo_pago",
  "proveedor_id",
  "tipo_documento",
  "emisor_nif",
  "emisor_nombre",
  "emisor_pais",
  "numero_factura",
  "fecha_expedicion",
  "factura_a_empresa",
  "inversion_sujeto_pasivo",
  "desglose_iva",
  "otros_no_sujetos",
  "departamento_id",
  "sucursal_id",
  "notas",
  "viaje_id",
  "clase",
  "km_origen",
  "km_destino",
  "km",
  "km_ida_vuelta",
  "dieta_pernocta",
  "dieta_lugar",
] as const;

/** Gastos whose importe the database computes (km × rate, the company's daily amount): no receipt, no IVA. */
export const CLASES_CALCULADAS = ["kilometraje", "dieta"] as const;
/** What only an ordinario has (a receipt's fiscal data, a supplier): no class chosen is one. */
const ORDINARIO = { campo: "clase", valores: ["", "ordinario"] } as const;
/** The fields a kilometraje needs (reglasClase checks them), marked so on its form. */
const KILOMETRAJE = { campo: "clase", valores: ["kilometraje"] } as const;
const DIETA = { campo: "clase", valores: ["dieta"] } as const;
/** Kilometraje and dietas: Oficina computes them, and what of them is exempt from IRPF. */
const CON_IRPF = { campo: "clase", valores: CLASES_CALCULADAS } as const;
const calculado = (clase: unknown) => (CLASES_CALCULADAS as readonly unknown[]).includes(clase);

/** Oldest first, and by folio within a date: how a trip's page lists its gastos. */
export const EN_ORDEN_CRONOLOGICO = [
  { column: "fecha_gasto", ascending: true },
  { column: "folio", ascending: true },
];

export const gastos: Entity = {
  table: "gastos",
  view: "gastos_vista",
  path: "/gastos",
  title: "Gastos",
  singular: "gasto",
  plural: "gastos",
  gender: "m",
  fields: [
    { ...text("folio", "Folio", { max: 20 }), readOnly: true },
    text("descripcion", "Descripción", { required: true, min: 3, max: 255 }),
    date("fecha_gasto", "Fecha", {
      required: true,
      hint: "No puede ser futura ni de hace más de un año. En una dieta, el día del viaje que paga.",
    }),
    select("categoria", "Categoría", CATEGORIAS_GASTO, { required: true }),
    {
      // Required for an ordinario (reglasClase says so); kilometraje and dietas leave it empty.
      ...money("importe", "Importe", { required: true, positive: true, max: 1_000_000 }),
      schema: money("importe", "Importe", { positive: true, max: 1_000_000 }).schema,
      salvoSi: { campo: "clase", valores: CLASES_CALCULADAS },
      // Kilometraje and dietas: Oficina computes it.
      aplicaSi: ORDINARIO,
      hint: "Con IVA (sin él en una factura con inversión del sujeto pasivo), hasta 2 decimales, por ejemplo 125,50.",
    },
    {
      // Required for an ordinario (reglasClase says so). A kilometraje or a dieta is reimbursed to
      // whoever travelled: not asked, the database writes «efectivo» (account 465, like any
      // gasto the person paid).
      ...select("metodo_pago", "Método de pago", METODOS_PAGO, { required: true }),
      schema: select("metodo_pago", "Método de pago", METODOS_PAGO).schema,
      salvoSi: CON_IRPF,
      aplicaSi: ORDINARIO,
    },
    // A kilometraje or a dieta has no supplier nor receipt: these are out of its form and its record.
    { ...ref("proveedor_id", "Proveedor", "proveedores", { hint: "Solo proveedores activos." }), aplicaSi: ORDINARIO },
    { ...text("numero_factura", "Nº de factura / ticket", { max: 50 }), aplicaSi: ORDINARIO },
    {
      ...select("tipo_documento", "Tipo de documento", TIPOS_DOCUMENTO, {
        hint: "Una factura completa lleva el NIF del emisor, su número y su fecha.",
      }),
      aplicaSi: ORDINARIO,
    },
    {
      ...text("emisor_nif", "NIF del emisor", {
        max: 20,
        uppercase: true,
        enMensaje: "el NIF del emisor",
        hint: "Si no es un proveedor de la lista: el NIF de quien emitió el documento.",
      }),
      aplicaSi: ORDINARIO,
    },
    { ...text("emisor_nombre", "Nombre del emisor", { max: 200, min: 2 }), aplicaSi: ORDINARIO },
    {
      ...select("emisor_pais", "País del emisor", PAISES, {
        hint: "Si no es un proveedor de la lista: el país de quien emitió el documento; su NIF se comprueba según ese país.",
      }),
      aplicaSi: ORDINARIO,
    },
    {
      ...date("fecha_expedicion", "Fecha de expedición", { hint: "Si la deja vacía, la fecha del gasto." }),
      aplicaSi: ORDINARIO,
    },
    {
      ...checkbox("factura_a_empresa", "A nombre de la empresa (con su NIF)", {
        hint: "La factura tiene como destinataria a la empresa, no a la persona.",
      }),
      aplicaSi: ORDINARIO,
    },
    {
      ...checkbox("inversion_sujeto_pasivo", "Inversión del sujeto pasivo", {
        hint: "La factura llega sin IVA y lo declara la empresa: un proveedor de otro país que factura un servicio a la empresa (software, asesoría); no un hotel ni un restaurante de fuera, que cobran el IVA de su país. El desglose lleva la cuota de ese IVA, que no es parte del importe.",
      }),
      aplicaSi: ORDINARIO,
    },
    {
      ...desglose("desglose_iva", "Desglose de IVA", TIPOS_IVA, {
        lineas: 4,
        importe: "importe",
        otros: "otros_no_sujetos",
        sinIva: "inversion_sujeto_pasivo",
        hint: "Si lo deja vacío, una línea al tipo habitual de la categoría. Con una sola línea basta el tipo; con la base o la cuota se calcula la otra.",
      }),
      aplicaSi: ORDINARIO,
    },
    {
      ...money("otros_no_sujetos", "Otros importes no sujetos", {
        hint: "Propinas, tasas turísticas: parte del importe sin IVA.",
      }),
      aplicaSi: ORDINARIO,
    },
    { ...money("importe_impuestos", "Impuestos (IVA)", {}), readOnly: true, aplicaSi: ORDINARIO },
    ref("solicitante_id", "Solicitante", "usuarios", { hint: "Si lo deja vacío, usted." }),
    ref("departamento_id", "Departamento", "departamentos", { hint: "Si lo deja vacío, el del solicitante." }),
    ref("sucursal_id", "Sucursal", "sucursales", { hint: "Si lo deja vacío, la del solicitante.", genero: "f" }),
    textarea("notas", "Notas", { max: 2000 }),
    select("clase", "Clase de gasto", CLASES_GASTO, {
      hint: "Ordinario: con su ticket o factura. Kilometraje (vehículo propio) y dieta (manutención de un día de viaje): Oficina calcula el importe con las tarifas de la empresa y no piden justificante. Si la deja vacía, ordinario.",
      genero: "f",
    }),
    {
      ...ref("viaje_id", "Viaje", "viajes", { hint: "Uno de sus viajes. Una dieta siempre es de un viaje." }),
      soloSi: DIETA,
    },
    {
      ...text("km_origen", "Origen", { max: 100, min: 2, hint: "Por ejemplo Madrid, oficina de Ventas Norte." }),
      soloSi: KILOMETRAJE,
      aplicaSi: KILOMETRAJE,
    },
    { ...text("km_destino", "Destino", { max: 100, min: 2 }), soloSi: KILOMETRAJE, aplicaSi: KILOMETRAJE },
    {
      ...decimal("km", "Kilómetros", {
        decimales: 1,
        max: 20_000,
        unidad: "km",
        hint: "Los de un sentido si marca «Ida y vuelta», por ejemplo 115.",
      }),
      soloSi: KILOMETRAJE,
      aplicaSi: KILOMETRAJE,
    },
    { ...checkbox("km_ida_vuelta", "Ida y vuelta (cuenta los kilómetros dos veces)"), aplicaSi: KILOMETRAJE },
    { ...money("km_tarifa", "Tarifa por km", {}), readOnly: true, aplicaSi: KILOMETRAJE },
    {
      ...checkbox("dieta_pernocta", "Con pernocta (durmió fuera esa noche)", {
        hint: "El día del regreso (y un viaje que vuelve el mismo día) es siempre sin pernocta.",
      }),
      aplicaSi: DIETA,
    },
    {
      ...select("dieta_lugar", "Dónde", LUGARES_DIETA, {
        hint: "Si lo deja vacío, según el país de destino del viaje; en un viaje a España, en España.",
      }),
      aplicaSi: DIETA,
    },
    { ...money("exento_irpf", "Exento de IRPF", {}), readOnly: true, aplicaSi: CON_IRPF },
    { ...money("sujeto_irpf", "Sujeto a IRPF", {}), readOnly: true, aplicaSi: CON_IRPF },
    { ...text("irpf_explicacion", "IRPF", { max: 500 }), readOnly: true, aplicaSi: CON_IRPF },
  ],
  columns: [
    { name: "folio", label: "Folio", link: true, sortable: true },
    { name: "fecha_gasto", label: "Fecha", kind: "date", sortable: true },
    { name: "descripcion", label: "Descripción", sortable: true },
    { name: "proveedor_nombre", label: "Proveedor", sortable: true },
    { name: "categoria", label: "Categoría", kind: "option", options: CATEGORIAS_GASTO, sortable: true },
    { name: "importe", label: "Importe", kind: "money", sortable: true },
    { name: "estado", label: "Estado", kind: "option", options: ESTADOS_GASTO, sortable: true, badge: true },
    SOLICITANTE.columna,
    { name: "departamento_nombre", label: "Departamento", sortable: true },
    {
      name: "justificantes",
      label: "Justificantes",
      kind: "count",
      contar: { singular: "justificante", plural: "justificantes", icono: "clip" },
    },
    // The fiscal data, for the gestoría's spreadsheet (gastos_vista: interno.deducibilidad).
    { name: "tipo_documento", label: "Tipo de documento", kind: "option", options: TIPOS_DOCUMENTO, soloEnCsv: true },
    { name: "emisor_nif_efectivo", label: "NIF del emisor", soloEnCsv: true },
    { name: "emisor_nombre_efectivo", label: "Emisor", soloEnCsv: true },
    { name: "importe_impuestos", label: "IVA", kind: "money", soloEnCsv: true },
    // With it, the IVA above is not in the importe: the company declares it.
    { name: "inversion_sujeto_pasivo", label: "Inversión del sujeto pasivo", kind: "boolean", soloEnCsv: true },
    { name: "iva_deducible", label: "IVA deducible", kind: "money", soloEnCsv: true },
    { name: "iva_motivo", label: "Por qué no se deduce todo el IVA", soloEnCsv: true },
    { name: "clase", label: "Clase de gasto", kind: "option", options: CLASES_GASTO, soloEnCsv: true },
    { name: "viaje_titulo", label: "Viaje", soloEnCsv: true },
    { name: "exento_irpf", label: "Exento de IRPF", kind: "money", soloEnCsv: true },
    { name: "sujeto_irpf", label: "Sujeto a IRPF", kind: "money", soloEnCsv: true },
  ],
  // Hundreds of thousands of gastos: counted exactly up to EXACT_COUNT_LIMIT, the sum of importe
  // beside the count, and sorting by a related name only on a filter that small (ADR 0006).
  escala: {
    sumas: ["importe"],
    ordenSoloContado: ["proveedor_nombre", "solicitante_nombre", "departamento_nombre"],
    busquedaMinima: 3,
  },
  // The bulk approval's checkboxes: «id:version», never on one's own gasto, and only where the
  // database would accept the approval (gastos_vista.puede_aprobar).
  rowFields: ["version", "solicitante_id", "puede_aprobar"],
  // folio, descripcion, numero_factura and the supplier's names: migration 20261201000001_busqueda
  search: ["busqueda"],
  // The same search through the trigram indexes (under RLS a plain ILIKE uses none): migration 20261201000001_busqueda.
  searchFunction: "buscar_gastos",
  filters: [
    { name: "estado", label: "Estado", kind: "select", column: "estado", options: ESTADOS_GASTO },
    { name: "categoria", label: "Categoría", kind: "select", column: "categoria", options: CATEGORIAS_GASTO },
    { name: "clase", label: "Clase de gasto", kind: "select", column: "clase", options: CLASES_GASTO, genero: "f" },
    { name: "viaje", label: "Viaje", kind: "ref", column: "viaje_id", table: "viajes" },
    { name: "departamento", label: "Departamento", kind: "ref", column: "departamento_id", table: "departamentos" },
    { name: "sucursal", label: "Sucursal", kind: "ref", column: "sucursal_id", table: "sucursales", genero: "f" },
    { name: "proveedor", label: "Proveedor", kind: "ref", column: "proveedor_id", table: "proveedores" },
    SOLICITANTE.filtro,
    // Sent with a motivo although outside its spending policy (migration 20261219000001_politicas).
    { name: "fuera_de_politica", label: "Fuera de política", kind: "boolean", column: "fuera_de_politica" },
    { name: "desde", label: "Fecha desde", kind: "date_from", column: "fecha_gasto" },
    { name: "hasta", label: "Fecha hasta", kind: "date_to", column: "fecha_gasto" },
    // In cents: an indexable copy of importe under RLS (the column in migration 20261125000001_esquema,
    // its index in 20261125000007_escala).
    { name: "importe_min", label: "Importe mínimo", kind: "money_min", column: "importe_centimos", centimos: true },
    { name: "importe_max", label: "Importe máximo", kind: "money_max", column: "importe_centimos", centimos: true },
  ],
  vistas: [
    { name: "mios", label: "Mis gastos", filters: (user) => [{ column: "solicitante_id", op: "eq", value: user.id }] },
    {
      // What this person can approve: pending, and gastos_vista.puede_aprobar (the rule of
      // aprobar_gasto, separation of duties), not merely what they see that is not theirs.
      // tests/integration/separacion-funciones.test.ts checks the equivalence.
      name: "pendientes",
      label: "Mis pendientes de aprobar",
      roles: ["aprobador", "administrador"],
      filters: (user) => [
        { column: "estado", op: "eq", value: "pendiente" },
        { column: "solicitante_id", op: "neq", value: user.id },
        { column: "puede_aprobar", op: "eq", value: true },
      ],
    },
    {
      // What is still to pay: approved and in no live remesa (gastos_vista.en_remesa), where a
      // remesa is built from («Crear remesa») or a payment made elsewhere is recorded.
      name: "por_pagar",
      label: "Aprobados pendientes de pago",
      roles: ["administrador"],
      filters: () => [
        { column: "estado", op: "eq", value: "aprobado" },
        { column: "en_remesa", op: "is_null" },
      ],
    },
  ],
  grupos: [
    {
      titulo: "Datos fiscales",
      campos: [
        "tipo_documento",
        "emisor_nif",
        "emisor_nombre",
        "emisor_pais",
        "fecha_expedicion",
        "factura_a_empresa",
        "inversion_sujeto_pasivo",
        "desglose_iva",
        "otros_no_sujetos",
      ],
      plegado: true,
    },
    // One fold, at the end: an ordinary gasto passes it with one key. Each class's fields count
    // only for it (the database clears the others).
    {
      titulo: "Viaje, kilometraje y dieta",
      // «Añadir kilometraje» and «Añadir una dieta» (a trip's page) choose the class: these come first.
      alFrente: "clase",
      campos: [
        "clase",
        "viaje_id",
        "km_origen",
        "km_destino",
        "km",
        "km_ida_vuelta",
        "km_tarifa",
        "dieta_pernocta",
        "dieta_lugar",
      ],
      plegado: true,
    },
    { titulo: "IRPF", campos: ["exento_irpf", "sujeto_irpf", "irpf_explicacion"], plegado: true },
  ],
  defaultOrder: { column: "fecha_gasto", ascending: false },
  // Within one date, the newest first (the order the panel and the avisos use too).
  thenBy: { fecha_gasto: ["creado_en"] },
  labelColumn: "folio",
  // Department and branch start empty: on save they come from the solicitante's profile
  // (app/gastos/acciones.server.ts), whoever the solicitante ends up being.
  defaults: ({ userId, country }) => ({
    fecha_gasto: todayISO(),
    solicitante_id: userId,
    tipo_documento: "ticket",
    emisor_pais: country,
  }),
  // «Nuevo gasto como este»: the monthly bill, the same route driven again. The date and the
  // document's number are the new one's (the date starts as today).
  copia: {
    sinCopiar: ["fecha_gasto", "numero_factura", "fecha_expedicion"],
    aviso: "Los justificantes no se copian: adjunte los del nuevo gasto.",
    delDueno: { columna: "solicitante_id", campos: ["departamento_id", "sucursal_id", "viaje_id"] },
  },
  permisos: PERMISOS,
  acciones: ACCIONES,
  motivos: "motivos_gasto",
  enBloque: EN_BLOQUE,
  // Edit and delete: one's own gastos, or anyone's for an administrador (as the RLS says); only
  // a borrador is edited or deleted, which the panel and the database check apart, so that a
  // gasto someone else has just sent gets «ya no está en borrador», not a 403.
  acceso: (user, _id, record) => {
    const suyo = record !== undefined && (record.solicitante_id === user.id || user.rol === "administrador");
    return { editar: suyo, eliminar: suyo, campos: user.rol === "administrador" ? undefined : CAMPOS_NO_ADMIN };
  },
  refine: (values, ctx) => {
    const fecha = values.fecha_gasto;
    if (typeof fecha === "string" && /^\d{4}-\d{2}-\d{2}$/.test(fecha)) {
      const hoy = todayISO();
      if (fecha > hoy)
        ctx.addIssue({
          code: "custom",
          path: ["fecha_gasto"],
          message:
            values.clase === "kilometraje" || values.clase === "dieta"
              ? "Fecha: no puede ser futura; el kilometraje y las dietas de un viaje se añaden desde el día en que ocurren"
              : "Fecha: no puede ser futura; escriba la fecha del ticket o la factura",
        });
      else if (fecha < addDaysISO(hoy, -ANTIGUEDAD_MAXIMA_DIAS))
        ctx.addIssue({
          code: "custom",
          path: ["fecha_gasto"],
          message: `Fecha: no puede ser de hace más de ${ANTIGUEDAD_MAXIMA_DIAS} días`,
        });
    }
    reglasClase(values, ctx);
    if (!calculado(values.clase)) reglasFiscales(values, ctx);
  },
  // A form without the fiscal fields (they fold away) is a ticket with nothing outside the IVA.
  // Kilometraje and dietas: the database computes the importe (sent empty) and drops the fiscal
  // data; an ordinario keeps none of their fields.
  normalize: (values) =>
    calculado(values.clase)
      ? {
          ...values,
          importe: null,
          tipo_documento: "sin_justificante",
          emisor_pais: values.emisor_pais ?? "ES",
          otros_no_sujetos: "0.00",
          desglose_iva: [],
        }
      : {
          ...values,
          clase: values.clase ?? "ordinario",
          tipo_documento: values.tipo_documento ?? "ticket",
          emisor_pais: values.emisor_pais ?? "ES",
          otros_no_sujetos: values.otros_no_sujetos ?? "0.00",
          desglose_iva: completarDesglose(values) ?? [],
        },
};

/**
 * What each class needs (the database checks the same: interno.gastos_clase): an ordinario its
 * importe; a kilometraje its origin, destination and km; a dieta its viaje.
 */
function reglasClase(values: Record<string, unknown>, ctx: Ctx) {
  const falta = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (values.clase === "kilometraje") {
    if (!texto(values.km_origen)) falta("km_origen", "Origen: escriba de dónde salió (kilometraje)");
    if (!texto(values.km_destino)) falta("km_destino", "Destino: escriba adónde fue (kilometraje)");
    if (!texto(values.km)) falta("km", "Kilómetros: escriba los del trayecto, por ejemplo 230");
  } else if (values.clase === "dieta") {
    if (!texto(values.viaje_id)) falta("viaje_id", "Viaje: una dieta es de un día de un viaje; elija el viaje");
  } else {
    if (!texto(values.importe)) falta("importe", "Escriba el importe, por ejemplo 125,50");
    if (!texto(values.metodo_pago)) falta("metodo_pago", "Elija un método de pago");
  }
}

type Ctx = Parameters<NonNullable<Entity["refine"]>>[1];
const texto = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : null);

/**
 * The document and its issuer (the database checks the same: interno.gastos_fiscal), and whether
 * the breakdown adds up to the importe — said here too so every error shows at once.
 */
function reglasFiscales(values: Record<string, unknown>, ctx: Ctx) {
  const proveedor = texto(values.proveedor_id);
  const nif = texto(values.emisor_nif);
  if (values.tipo_documento === "factura_completa") {
    if (!proveedor && !nif)
      ctx.addIssue({
        code: "custom",
        path: ["emisor_nif"],
        message: "NIF del emisor: una factura completa lo lleva; elija el proveedor o escriba su NIF",
      });
    if (!texto(values.numero_factura))
      ctx.addIssue({
        code: "custom",
        path: ["numero_factura"],
        message: "Nº de factura: una factura completa lo lleva; escríbalo como aparece en ella",
      });
  }
  if (!proveedor && nif) {
    const pais = texto(values.emisor_pais) ?? "ES";
    const error = validateNif(normalizeNif(nif, pais), pais);
    if (error) ctx.addIssue({ code: "custom", path: ["emisor_nif"], message: `NIF del emisor: ${error}` });
    if (!texto(values.emisor_nombre))
      ctx.addIssue({
        code: "custom",
        path: ["emisor_nombre"],
        message: "Nombre del emisor: escriba el nombre o la razón social de quien emitió el documento",
      });
  }
  const sinIva = values.inversion_sujeto_pasivo === true;
  if (sinIva && values.tipo_documento !== "factura_completa")
    ctx.addIssue({
      code: "custom",
      path: ["inversion_sujeto_pasivo"],
      message:
        "Inversión del sujeto pasivo: solo en una factura completa, la que el proveedor emite sin IVA a nombre de la empresa",
    });
  else if (sinIva && values.factura_a_empresa !== true)
    ctx.addIssue({
      code: "custom",
      path: ["factura_a_empresa"],
      message:
        "A nombre de la empresa: con inversión del sujeto pasivo la factura va a nombre de la empresa, con su NIF; márquelo",
    });
  const importe = texto(values.importe);
  const otros = texto(values.otros_no_sujetos) ?? "0.00";
  const lineas = Array.isArray(values.desglose_iva) ? (values.desglose_iva as LineaParcial[]) : null;
  if (!importe || !isMoneyString(importe) || !isMoneyString(otros) || !lineas) return;
  if (compareMoney(otros, importe) > 0) {
    ctx.addIssue({
      code: "custom",
      path: ["otros_no_sujetos"],
      message: "Otros importes no sujetos: no pueden ser mayores que el importe",
    });
    return;
  }
  lineas.forEach((l, i) => {
    if (l.base !== "" && lineas.length > 1 && !cuotaCuadra(l as LineaIva))
      ctx.addIssue({
        code: "custom",
        path: ["desglose_iva", i, "cuota"],
        message:
          porcentaje(l.tipo) === 0n
            ? `Desglose de IVA, línea ${i + 1}: ${l.tipo === "exento" ? "una línea exenta" : "una línea al 0 %"} no lleva cuota; escriba 0,00 €, no ${formatMoney(l.cuota)}`
            : `Desglose de IVA, línea ${i + 1}: la cuota al ${etiquetaTipo(l.tipo)} de ${formatMoney(l.base)} es ${formatMoney(cuotaDe(l.base, l.tipo))}, no ${formatMoney(l.cuota)}`,
      });
  });
  const sinImporte = lineas.filter((l) => l.base === "");
  if (sinImporte.length > 1)
    ctx.addIssue({
      code: "custom",
      path: ["desglose_iva"],
      message:
        "Desglose de IVA: escriba la base o la cuota de cada línea (solo una puede quedar con el tipo, y sale del importe)",
    });
  else if (sinImporte.length === 0 && lineas.length > 1) {
    const suma = lineas.reduce((acc, l) => acc + enImporte(l as LineaIva, sinIva), toCents(otros));
    if (suma !== toCents(importe))
      ctx.addIssue({
        code: "custom",
        path: ["desglose_iva"],
        message: sinIva
          ? `Desglose de IVA: con inversión del sujeto pasivo la cuota no es parte del importe; bases y otros importes suman ${formatMoney(fromCents(suma))} y el importe es ${formatMoney(importe)}`
          : `Desglose de IVA: bases, cuotas y otros importes suman ${formatMoney(fromCents(suma))} y el importe es ${formatMoney(importe)}; corrija una línea o vacíe el desglose para calcularlo`,
      });
  } else if (sinImporte.length === 1) {
    const resto = lineas
      .filter((l) => l.base !== "")
      .reduce((acc, l) => acc - enImporte(l as LineaIva, sinIva), toCents(importe) - toCents(otros));
    if (resto < 0n)
      ctx.addIssue({
        code: "custom",
        path: ["desglose_iva"],
        message: "Desglose de IVA: las líneas escritas ya pasan del importe",
      });
  }
}

/**
 * The breakdown completed from the importe (app/lib/iva.ts completarLineas). An empty breakdown
 * stays empty: the database fills it at the category's usual rate (which administradores edit).
 */
function completarDesglose(values: Record<string, unknown>): unknown {
  const lineas = values.desglose_iva as LineaParcial[] | undefined;
  const importe = texto(values.importe);
  if (!Array.isArray(lineas) || !importe || !isMoneyString(importe)) return lineas;
  return completarLineas(
    lineas,
    importe,
    texto(values.otros_no_sujetos) ?? "0.00",
    values.inversion_sujeto_pasivo === true,
  );
}
