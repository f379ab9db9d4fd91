import { SOLO_ADMIN } from "~/auth/permissions";
import type { Entity } from "./entity";
import { checkbox, code, money, ref, text, textarea } from "./fields";

export const departamentos: Entity = {
  table: "departamentos",
  view: "departamentos_vista",
  path: "/departamentos",
  title: "Departamentos",
  singular: "departamento",
  plural: "departamentos",
  gender: "m",
  fields: [
    text("nombre", "Nombre", { required: true, min: 2, max: 80 }),
    code("codigo", "Código"),
    ref("departamento_padre_id", "Departamento superior", "departamentos"),
    ref("responsable_id", "Responsable", "usuarios", {
      hint: "Aprueba los gastos del departamento si el empleado no tiene aprobador.",
    }),
    text("centro_costo", "Centro de coste", { max: 20 }),
    money("presupuesto_mensual", "Presupuesto mensual", { hint: "En euros, por ejemplo 12.000,00" }),
    checkbox("activo", "Activo"),
    textarea("notas", "Notas", { max: 2000 }),
  ],
  columns: [
    { name: "nombre", label: "Nombre", link: true, sortable: true },
    { name: "codigo", label: "Código", sortable: true },
    { name: "departamento_padre_nombre", label: "Departamento superior", sortable: true },
    { name: "responsable_nombre", label: "Responsable", sortable: true },
    { name: "centro_costo", label: "Centro de coste", sortable: true },
    {
      name: "presupuesto_mensual",
      label: "Presupuesto mensual",
      kind: "money",
      sortable: true,
      roles: ["administrador", "aprobador"],
    },
    { name: "activo", label: "Activo", kind: "boolean", sortable: true },
  ],
  search: ["busqueda"], // nombre, codigo, centro_costo: migration 20261201000001_busqueda
  filters: [
    { name: "activo", label: "Activo", kind: "boolean", column: "activo" },
    {
      name: "padre",
      label: "Departamento superior",
      kind: "ref",
      column: "departamento_padre_id",
      table: "departamentos",
    },
  ],
  defaultOrder: { column: "nombre", ascending: true },
  labelColumn: "nombre",
  permisos: SOLO_ADMIN,
  secciones: [{ tipo: "personas", por: "departamento", donde: "en este departamento" }],
  defaults: () => ({ activo: "on" }),
  duplicados: { codigo: ["codigo"] },
  // Read by the administradores and by whoever is in charge of the department (its responsable,
  // its aprobadores): for an aprobador of another department the database gives nothing
  // (supabase/migrations/20261226000001_datos_por_necesidad.sql: departamentos_presupuesto).
  reservados: { presupuesto_mensual: ["administrador", "aprobador"] },
  historialAparte: ["departamentos_presupuesto"],
};
