/**
 * Lo que el catálogo dice de cada proveedor de demostración. Solo datos; NIF, IBAN, correo,
 * teléfono e identificador los pone el generador.
 */
import type { CategoriaGasto, CategoriaProveedor } from "../../../app/lib/opciones";

/** Qué categorías de gasto atiende cada categoría de proveedor (para proveedores sin definición). */
export const GASTOS_POR_CATEGORIA_PROVEEDOR: Record<CategoriaProveedor, CategoriaGasto[]> = {
  suministros: ["material_oficina", "combustible"],
  servicios_profesionales: ["servicios_profesionales", "formacion"],
  tecnologia: ["software_suscripciones", "telefonia_internet", "material_oficina"],
  viajes: ["alojamiento", "viajes_transporte"],
  logistica: ["mensajeria"],
  mantenimiento: ["mantenimiento_reparaciones"],
  marketing: ["servicios_profesionales", "atenciones_clientes", "otros"],
  otros: ["comidas", "atenciones_clientes", "aparcamiento_peajes", "otros"],
};

export type ProveedorDef = {
  razon_social: string;
  nombre_comercial?: string;
  /** Tipo de CIF (A, B, F, G, J), "DNI", "NIE", o el identificador fiscal de un proveedor extranjero. */
  nif: string;
  pais?: string;
  categoria: CategoriaProveedor;
  ciudad: string;
  provincia: string;
  codigo_postal: string;
  direccion: string;
  dominio?: string;
  gastos: CategoriaGasto[];
  iban?: boolean | string;
  activo?: boolean;
  notas?: string;
};
