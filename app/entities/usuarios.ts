import type { Permisos } from "~/auth/permissions";
import { ROLES } from "~/lib/opciones";
import type { Entity } from "./entity";
import { checkbox, email, phone, ref, select, text } from "./fields";

/**
 * Profiles of accounts. Nobody creates them here (an account's profile is born at sign-up);
 * administradores edit anyone's, including rol and activo; everyone else edits only their own
 * profile, and never their rol, activo, departamento or aprobador (the database refuses those
 * too: interno.usuarios_proteger).
 */
const PERMISOS: Permisos = { crear: [], editar: ["administrador"], eliminar: ["administrador"] };

/** What a user who is not an administrador writes on their own profile. */
export const CAMPOS_PERFIL_PROPIO = ["nombre", "apellidos", "sucursal_id", "puesto", "telefono"] as const;

export const usuarios: Entity = {
  table: "usuarios",
  view: "usuarios_vista",
  path: "/usuarios",
  title: "Usuarios",
  singular: "usuario",
  plural: "usuarios",
  gender: "m",
  intro:
    "Las cuentas se crean al registrarse con «Crear cuenta» en la página de inicio de sesión; aquí se completa el perfil de cada persona. Cada uno puede editar su propio perfil.",
  fields: [
    text("nombre", "Nombre", { required: true, min: 1, max: 80, autoComplete: "given-name" }),
    text("apellidos", "Apellidos", { max: 120, autoComplete: "family-name" }),
    { ...email("email", "Correo electrónico"), readOnly: true, hint: "El de la cuenta; no se cambia aquí." },
    select("rol", "Rol", ROLES, { required: true }),
    ref("departamento_id", "Departamento", "departamentos"),
    ref("sucursal_id", "Sucursal", "sucursales", { genero: "f" }),
    ref("aprobador_id", "Aprobador de gastos", "usuarios", {
      hint: "Si lo deja vacío, aprueba el responsable del departamento. No puede ser el propio usuario.",
    }),
    text("puesto", "Puesto", { max: 80, autoComplete: "organization-title" }),
    phone("telefono", "Teléfono"),
    checkbox("activo", "Activo", {
      hint: "Un usuario inactivo no puede iniciar sesión; al desactivarlo se cierran sus sesiones.",
    }),
  ],
  columns: [
    { name: "nombre_completo", label: "Nombre", link: true, sortable: true },
    { name: "email", label: "Correo electrónico", sortable: true },
    { name: "rol", label: "Rol", kind: "option", options: ROLES, sortable: true },
    { name: "departamento_nombre", label: "Departamento", sortable: true },
    { name: "sucursal_nombre", label: "Sucursal", sortable: true },
    { name: "puesto", label: "Puesto", sortable: true },
    { name: "activo", label: "Activo", kind: "boolean", sortable: true },
  ],
  search: ["busqueda"], // nombre, apellidos, email, puesto: migration 20261201000001_busqueda
  filters: [
    { name: "rol", label: "Rol", kind: "select", column: "rol", options: ROLES },
    { name: "departamento", label: "Departamento", kind: "ref", column: "departamento_id", table: "departamentos" },
    { name: "sucursal", label: "Sucursal", kind: "ref", column: "sucursal_id", table: "sucursales", genero: "f" },
    { name: "activo", label: "Activo", kind: "boolean", column: "activo" },
  ],
  defaultOrder: { column: "nombre_completo", ascending: true },
  labelColumn: "nombre_completo",
  optionsFrom: "usuarios_vista",
  // Written at sign-up: an account made by the person, not by an invitation.
  etiquetasHistorial: { alta_propia: "Alta por su cuenta" },
  permisos: PERMISOS,
  acceso: (user, id) =>
    user.rol === "administrador"
      ? // An administrador does not delete their own profile (they would lock themself out).
        { editar: true, eliminar: user.id !== id }
      : { editar: user.id === id, eliminar: false, campos: CAMPOS_PERFIL_PROPIO },
  refine: (values, ctx, record) => {
    if (record.id && values.aprobador_id && values.aprobador_id === record.id)
      ctx.addIssue({
        code: "custom",
        path: ["aprobador_id"],
        message: "Elija como aprobador a otra persona: nadie aprueba sus propios gastos.",
      });
  },
};
