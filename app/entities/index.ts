import { departamentos } from "./departamentos";
import type { Entity } from "./entity";
import { proveedores } from "./proveedores";
import { sucursales } from "./sucursales";
import { usuarios } from "./usuarios";

/** Every entity by table name, for related-record selects and the navigation. */
export const ENTITIES: Record<string, Entity> = { departamentos, sucursales, proveedores, usuarios };

/** Where the options of a foreign-key select come from: the related table's view and label column. */
export const OPTION_SOURCES: Record<string, { source: string; label: string }> = {
  departamentos: { source: "departamentos", label: "nombre" },
  sucursales: { source: "sucursales", label: "nombre" },
  proveedores: { source: "proveedores", label: "razon_social" },
  usuarios: { source: "usuarios_vista", label: "nombre_completo" },
};
