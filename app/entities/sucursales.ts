import { SOLO_ADMIN } from "~/auth/permissions";
import { PAISES } from "~/lib/opciones";
import type { Entity } from "./entity";
import { checkbox, code, email, phone, ref, select, text } from "./fields";

export const sucursales: Entity = {
  table: "sucursales",
  view: "sucursales_vista",
  path: "/sucursales",
  title: "Sucursales",
  singular: "sucursal",
  plural: "sucursales",
  gender: "f",
  fields: [
    text("nombre", "Nombre", { required: true, min: 2, max: 80 }),
    code("codigo", "Código"),
    text("direccion", "Dirección", { required: true, min: 1, max: 200, autoComplete: "street-address" }),
    text("ciudad", "Ciudad", { required: true, min: 1, max: 80 }),
    text("provincia", "Provincia / Estado", { max: 80 }),
    text("codigo_postal", "Código postal", { max: 10, autoComplete: "postal-code" }),
    select("pais", "País", PAISES, { required: true }),
    phone("telefono", "Teléfono"),
    email("email", "Correo electrónico"),
    ref("responsable_id", "Responsable", "usuarios"),
    checkbox("activo", "Activa"),
  ],
  columns: [
    { name: "nombre", label: "Nombre", link: true, sortable: true },
    { name: "codigo", label: "Código", sortable: true },
    { name: "ciudad", label: "Ciudad", sortable: true },
    { name: "provincia", label: "Provincia / Estado", sortable: true },
    { name: "pais", label: "País", kind: "option", options: PAISES, sortable: true },
    { name: "responsable_nombre", label: "Responsable", sortable: true },
    { name: "telefono", label: "Teléfono" },
    { name: "activo", label: "Activa", kind: "boolean", sortable: true },
  ],
  search: ["busqueda"], // nombre, codigo, ciudad, direccion, provincia: migration 20261201000001_busqueda
  filters: [
    { name: "activo", label: "Activa", kind: "boolean", column: "activo" },
    { name: "ciudad", label: "Ciudad", kind: "text", column: "ciudad", match: "contains" },
    { name: "pais", label: "País", kind: "select", column: "pais", options: PAISES },
  ],
  defaultOrder: { column: "nombre", ascending: true },
  labelColumn: "nombre",
  permisos: SOLO_ADMIN,
  secciones: [{ tipo: "personas", por: "sucursal", donde: "en esta sucursal" }],
  defaults: ({ country }) => ({ activo: "on", pais: country }),
};
