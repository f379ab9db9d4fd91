import type { Permisos } from "~/auth/permissions";
import { CATEGORIAS_PROVEEDOR, PAISES, TIPOS_PERSONA, isValueOf } from "~/lib/opciones";
import { normalizeNif, validateNif } from "~/lib/nif";
import type { Entity } from "./entity";
import { checkbox, email, iban, phone, select, text, textarea, url } from "./fields";

const PERMISOS: Permisos = {
  crear: ["administrador", "aprobador"],
  editar: ["administrador", "aprobador"],
  eliminar: ["administrador"],
};

export const proveedores: Entity = {
  table: "proveedores",
  view: "proveedores_vista",
  path: "/proveedores",
  title: "Proveedores",
  singular: "proveedor",
  plural: "proveedores",
  gender: "m",
  fields: [
    text("razon_social", "Razón social", { required: true, min: 2, max: 200, autoComplete: "organization" }),
    text("nombre_comercial", "Nombre comercial", { max: 200 }),
    select("tipo_persona", "Tipo", TIPOS_PERSONA, { required: true }),
    select("pais", "País", PAISES, { required: true }),
    text("nif", "NIF / RFC / ID fiscal", {
      required: true,
      min: 1,
      max: 30,
      hint: "España: DNI, NIE o CIF con su letra o dígito de control. México: RFC de 12 (empresa) o 13 (persona física) caracteres. Se guarda en mayúsculas, sin espacios, puntos ni guiones.",
    }),
    email("email", "Correo"),
    phone("telefono", "Teléfono"),
    url("sitio_web", "Sitio web"),
    text("direccion", "Dirección", { max: 200, autoComplete: "street-address" }),
    text("ciudad", "Ciudad", { max: 80 }),
    text("provincia", "Provincia / Estado", { max: 80 }),
    text("codigo_postal", "Código postal", { max: 10, autoComplete: "postal-code" }),
    iban("iban", "IBAN", { hint: "Opcional. Por ejemplo ES91 2100 0418 4502 0005 1332, con espacios o sin ellos." }),
    select("categoria", "Categoría", CATEGORIAS_PROVEEDOR, { required: true }),
    checkbox("activo", "Activo", { hint: "Solo los proveedores activos se pueden elegir en un gasto." }),
    textarea("notas", "Notas", { max: 2000 }),
  ],
  columns: [
    { name: "razon_social", label: "Razón social", link: true, sortable: true },
    { name: "nombre_comercial", label: "Nombre comercial", sortable: true },
    { name: "nif", label: "NIF / RFC / ID fiscal", sortable: true },
    { name: "pais", label: "País", kind: "option", options: PAISES, sortable: true },
    { name: "categoria", label: "Categoría", kind: "option", options: CATEGORIAS_PROVEEDOR, sortable: true },
    { name: "ciudad", label: "Ciudad", sortable: true },
    { name: "activo", label: "Activo", kind: "boolean", sortable: true },
  ],
  search: ["busqueda"], // razon_social, nombre_comercial, nif, email, ciudad: migration 20261201000001_busqueda
  filters: [
    { name: "categoria", label: "Categoría", kind: "select", column: "categoria", options: CATEGORIAS_PROVEEDOR },
    { name: "pais", label: "País", kind: "select", column: "pais", options: PAISES },
    { name: "activo", label: "Activo", kind: "boolean", column: "activo" },
  ],
  defaultOrder: { column: "razon_social", ascending: true },
  labelColumn: "razon_social",
  // Elsewhere (gastos' selects, filters, history; gastos_vista.proveedor_nombre) one name:
  // «Nombre comercial (Razón social)», or the razón social alone (interno.nombre_proveedor,
  // supabase/migrations/20261125000004_rls.sql).
  optionsFrom: "proveedores_vista",
  optionLabel: "nombre",
  permisos: PERMISOS,
  secciones: [{ tipo: "gastos", por: "proveedor" }],
  defaults: ({ country }) => ({ activo: "on", pais: country, tipo_persona: "empresa" }),
  // The tax id's rules depend on the country (and, in Mexico, on the kind of person).
  refine: (values, ctx) => {
    if (typeof values.nif !== "string" || values.nif === "" || !isValueOf(PAISES, values.pais)) return;
    const problem = validateNif(
      values.nif,
      values.pais,
      isValueOf(TIPOS_PERSONA, values.tipo_persona) ? values.tipo_persona : undefined,
    );
    if (problem) ctx.addIssue({ code: "custom", path: ["nif"], message: problem });
  },
  normalize: (values) => ({ ...values, nif: normalizeNif(String(values.nif), String(values.pais)) }),
  duplicados: { nif: ["pais", "nif"] },
  // Who pays reads where to pay and the notes about it; everyone else still lists and chooses
  // suppliers (supabase/migrations/20261226000001_datos_por_necesidad.sql: proveedores_pago).
  reservados: { iban: ["administrador"], notas: ["administrador"] },
  historialAparte: ["proveedores_pago"],
};
