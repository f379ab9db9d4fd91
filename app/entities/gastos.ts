import type { Permisos } from "~/auth/permissions";
import { CATEGORIAS_GASTO, ESTADOS_GASTO, METODOS_PAGO } from "~/lib/constants";
import { addDaysISO, todayISO } from "~/lib/dates";
import { compareMoney, isMoneyString } from "~/lib/money";
import type { Entity } from "./entity";
import { date, money, ref, select, text, textarea } from "./fields";

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
  "importe_impuestos",
  "metodo_pago",
  "proveedor_id",
  "numero_factura",
  "departamento_id",
  "sucursal_id",
  "notas",
] as const;

/**
 * Sorting by a related record's name (not a column of gastos) reads and sorts the whole filter:
 * offered only while the filter is counted exactly (EXACT_COUNT_LIMIT gastos or fewer). ADR 0006.
 */
export const ORDEN_SOLO_FILTRADO = ["proveedor_nombre", "solicitante_nombre", "departamento_nombre"] as const;

/** Shorter search terms cannot use the trigram indexes: they are not searched (ADR 0006). */
export const BUSQUEDA_MINIMA = 3;

/** Who sees other people's gastos: an empleado sees only their own, so «Solicitante» is not shown to them. */
const CON_EQUIPO = ["administrador", "aprobador"] as const;

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
    date("fecha_gasto", "Fecha", { required: true, hint: "No puede ser futura ni de hace más de un año." }),
    select("categoria", "Categoría", CATEGORIAS_GASTO, { required: true }),
    money("importe", "Importe", {
      required: true,
      positive: true,
      max: 1_000_000,
      hint: "Con IVA, hasta 2 decimales, por ejemplo 125,50",
    }),
    money("importe_impuestos", "Impuestos", { hint: "Opcional: la parte del importe que son impuestos." }),
    select("metodo_pago", "Método de pago", METODOS_PAGO, { required: true }),
    ref("proveedor_id", "Proveedor", "proveedores", { hint: "Solo proveedores activos." }),
    text("numero_factura", "Nº de factura / ticket", { max: 50 }),
    ref("solicitante_id", "Solicitante", "usuarios", { hint: "Si lo deja vacío, usted." }),
    ref("departamento_id", "Departamento", "departamentos", { hint: "Si lo deja vacío, el del solicitante." }),
    ref("sucursal_id", "Sucursal", "sucursales", { hint: "Si lo deja vacío, la del solicitante.", genero: "f" }),
    textarea("notas", "Notas", { max: 2000 }),
  ],
  columns: [
    { name: "folio", label: "Folio", link: true, sortable: true },
    { name: "fecha_gasto", label: "Fecha", kind: "date", sortable: true },
    { name: "descripcion", label: "Descripción", sortable: true },
    { name: "proveedor_nombre", label: "Proveedor", sortable: true },
    { name: "categoria", label: "Categoría", kind: "option", options: CATEGORIAS_GASTO, sortable: true },
    { name: "importe", label: "Importe", kind: "money", sortable: true },
    { name: "estado", label: "Estado", kind: "option", options: ESTADOS_GASTO, sortable: true, badge: true },
    { name: "solicitante_nombre", label: "Solicitante", sortable: true, roles: CON_EQUIPO },
    { name: "departamento_nombre", label: "Departamento", sortable: true },
    {
      name: "justificantes",
      label: "Justificantes",
      kind: "count",
      contar: { singular: "justificante", plural: "justificantes", icono: "clip" },
    },
  ],
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
    { name: "departamento", label: "Departamento", kind: "ref", column: "departamento_id", table: "departamentos" },
    { name: "sucursal", label: "Sucursal", kind: "ref", column: "sucursal_id", table: "sucursales", genero: "f" },
    { name: "proveedor", label: "Proveedor", kind: "ref", column: "proveedor_id", table: "proveedores" },
    {
      name: "solicitante",
      label: "Solicitante",
      kind: "ref",
      column: "solicitante_id",
      table: "usuarios",
      roles: CON_EQUIPO,
    },
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
  ],
  defaultOrder: { column: "fecha_gasto", ascending: false },
  labelColumn: "folio",
  permisos: PERMISOS,
  acceso: (user) => ({
    editar: true,
    eliminar: true,
    campos: user.rol === "administrador" ? undefined : CAMPOS_NO_ADMIN,
  }),
  refine: (values, ctx) => {
    const fecha = values.fecha_gasto;
    if (typeof fecha === "string" && /^\d{4}-\d{2}-\d{2}$/.test(fecha)) {
      const hoy = todayISO();
      if (fecha > hoy)
        ctx.addIssue({
          code: "custom",
          path: ["fecha_gasto"],
          message: "Fecha: no puede ser futura; escriba la fecha del ticket o la factura",
        });
      else if (fecha < addDaysISO(hoy, -ANTIGUEDAD_MAXIMA_DIAS))
        ctx.addIssue({
          code: "custom",
          path: ["fecha_gasto"],
          message: `Fecha: no puede ser de hace más de ${ANTIGUEDAD_MAXIMA_DIAS} días`,
        });
    }
    const { importe, importe_impuestos: impuestos } = values;
    if (
      typeof importe === "string" &&
      typeof impuestos === "string" &&
      isMoneyString(importe) &&
      isMoneyString(impuestos) &&
      compareMoney(impuestos, importe) > 0
    )
      ctx.addIssue({
        code: "custom",
        path: ["importe_impuestos"],
        message: "Impuestos: no pueden ser mayores que el importe",
      });
  },
};
