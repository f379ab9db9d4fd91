/**
 * Los 60 proveedores de demostración (cada uno como dice scripts/seed/catalog/proveedor.ts), en
 * dos archivos por sector, y el prefijo de teléfono de cada provincia.
 */
import type { ProveedorDef } from "./proveedor";
import { PROVEEDORES_DE_SERVICIOS } from "./proveedores-de-servicios";
import { PROVEEDORES_DE_VIAJES_Y_OFICINA } from "./proveedores-de-viajes-y-oficina";

export const PROVEEDORES: ProveedorDef[] = [...PROVEEDORES_DE_VIAJES_Y_OFICINA, ...PROVEEDORES_DE_SERVICIOS];

export const PREFIJO_TELEFONO: Record<string, string> = {
  Madrid: "91",
  Barcelona: "93",
  Valencia: "96",
  Alicante: "96",
  Sevilla: "95",
  Córdoba: "957",
  Málaga: "95",
  Granada: "958",
  Bizkaia: "94",
  Gipuzkoa: "943",
  Zaragoza: "976",
  Cantabria: "942",
  Asturias: "98",
  Valladolid: "983",
  León: "987",
  Murcia: "968",
  "La Rioja": "941",
  Pontevedra: "986",
  Girona: "972",
  "Illes Balears": "971",
};
