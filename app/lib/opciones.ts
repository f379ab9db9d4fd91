/**
 * Fixed lists. `value` is the slug stored in the database (check constraints use the
 * same slugs); `label` is what people see.
 */

export type Option<V extends string = string> = { readonly value: V; readonly label: string };

function values<V extends string>(list: readonly Option<V>[]): [V, ...V[]] {
  return list.map((o) => o.value) as [V, ...V[]];
}

/** The keys a breakdown line stores: the percentage itself, or «exento». */
export const TIPOS_IVA = [
  { value: "21", label: "21 %" },
  { value: "10", label: "10 %" },
  { value: "5", label: "5 %" },
  { value: "4", label: "4 %" },
  { value: "2", label: "2 %" },
  { value: "0", label: "0 %" },
  { value: "exento", label: "Exento" },
] as const satisfies readonly Option[];
export type TipoIva = (typeof TIPOS_IVA)[number]["value"];

export const CATEGORIAS_GASTO = [
  { value: "alojamiento", label: "Alojamiento" },
  { value: "comidas", label: "Comidas" },
  { value: "viajes_transporte", label: "Viajes y transporte" },
  { value: "combustible", label: "Combustible" },
  { value: "aparcamiento_peajes", label: "Aparcamiento y peajes" },
  { value: "material_oficina", label: "Material de oficina" },
  { value: "telefonia_internet", label: "Telefonía e internet" },
  { value: "software_suscripciones", label: "Software y suscripciones" },
  { value: "formacion", label: "Formación" },
  { value: "atenciones_clientes", label: "Atenciones a clientes" },
  { value: "mensajeria", label: "Mensajería" },
  { value: "mantenimiento_reparaciones", label: "Mantenimiento y reparaciones" },
  { value: "servicios_profesionales", label: "Servicios profesionales" },
  { value: "otros", label: "Otros" },
] as const satisfies readonly Option[];
export type CategoriaGasto = (typeof CATEGORIAS_GASTO)[number]["value"];

export const METODOS_PAGO = [
  { value: "efectivo", label: "Efectivo" },
  { value: "tarjeta_credito", label: "Tarjeta de crédito" },
  { value: "tarjeta_debito", label: "Tarjeta de débito" },
  { value: "tarjeta_corporativa", label: "Tarjeta corporativa" },
  { value: "transferencia", label: "Transferencia bancaria" },
  { value: "domiciliacion", label: "Domiciliación" },
  { value: "cheque", label: "Cheque" },
  { value: "caja_chica", label: "Caja chica" },
] as const satisfies readonly Option[];
export type MetodoPago = (typeof METODOS_PAGO)[number]["value"];

export const CATEGORIAS_PROVEEDOR = [
  { value: "suministros", label: "Suministros" },
  { value: "servicios_profesionales", label: "Servicios profesionales" },
  { value: "tecnologia", label: "Tecnología" },
  { value: "viajes", label: "Viajes" },
  { value: "logistica", label: "Logística" },
  { value: "mantenimiento", label: "Mantenimiento" },
  { value: "marketing", label: "Marketing" },
  { value: "otros", label: "Otros" },
] as const satisfies readonly Option[];
export type CategoriaProveedor = (typeof CATEGORIAS_PROVEEDOR)[number]["value"];

/** What kind of document backs a gasto: it decides what the document must show and whether its IVA is deductible. */
export const TIPOS_DOCUMENTO = [
  { value: "ticket", label: "Ticket" },
  { value: "factura_simplificada", label: "Factura simplificada" },
  { value: "factura_completa", label: "Factura completa" },
  { value: "sin_justificante", label: "Sin justificante" },
] as const satisfies readonly Option[];
export type TipoDocumento = (typeof TIPOS_DOCUMENTO)[number]["value"];

export const ROLES = [
  { value: "administrador", label: "Administrador" },
  { value: "aprobador", label: "Aprobador" },
  { value: "empleado", label: "Empleado" },
] as const satisfies readonly Option[];
export type Rol = (typeof ROLES)[number]["value"];

export const ESTADOS_GASTO = [
  { value: "borrador", label: "Borrador" },
  { value: "pendiente", label: "Pendiente de aprobación" },
  { value: "aprobado", label: "Aprobado" },
  { value: "rechazado", label: "Rechazado" },
  { value: "pagado", label: "Pagado" },
] as const satisfies readonly Option[];
export type EstadoGasto = (typeof ESTADOS_GASTO)[number]["value"];
export const ESTADO_GASTO_VALUES = values(ESTADOS_GASTO);

/** What kind of gasto (`gastos.clase`): a receipt's, mileage or a daily allowance. */
export const CLASES_GASTO = [
  { value: "ordinario", label: "Ordinario" },
  { value: "kilometraje", label: "Kilometraje" },
  { value: "dieta", label: "Dieta" },
] as const satisfies readonly Option[];

/** Where a dieta's day was spent (`gastos.dieta_lugar`). */
export const LUGARES_DIETA = [
  { value: "espana", label: "España" },
  { value: "extranjero", label: "Extranjero" },
] as const satisfies readonly Option[];

/** A viaje as its gastos leave it (`viajes_vista.estado`). */
export const ESTADOS_VIAJE = [
  { value: "sin_gastos", label: "Sin gastos" },
  { value: "borrador", label: "Con borradores" },
  { value: "pendiente", label: "Pendiente de aprobación" },
  { value: "rechazado", label: "Con rechazados" },
  { value: "aprobado", label: "Aprobado" },
  { value: "pagado", label: "Pagado" },
] as const satisfies readonly Option[];

/** The kinds of IRPF exempt limit (`limites_exentos_irpf.tipo`). */
export const TIPOS_LIMITE_IRPF = [
  { value: "km", label: "Kilometraje (€/km)" },
  { value: "dieta_espana_sin_pernocta", label: "Dieta en España sin pernocta" },
  { value: "dieta_espana_con_pernocta", label: "Dieta en España con pernocta" },
  { value: "dieta_extranjero_sin_pernocta", label: "Dieta en el extranjero sin pernocta" },
  { value: "dieta_extranjero_con_pernocta", label: "Dieta en el extranjero con pernocta" },
] as const satisfies readonly Option[];

export const TIPOS_PERSONA = [
  { value: "empresa", label: "Empresa" },
  { value: "persona_fisica", label: "Persona física" },
] as const satisfies readonly Option[];
export type TipoPersona = (typeof TIPOS_PERSONA)[number]["value"];

/** Whether a category's IVA may be deducted (`categorias_fiscales.deducibilidad`). */
export const DEDUCIBILIDADES = [
  { value: "factura_empresa", label: "Deducible con factura a nombre de la empresa" },
  { value: "vehiculo_mixto", label: "Deducible al 50 % (vehículo de uso mixto), con factura a nombre de la empresa" },
  { value: "no_deducible", label: "No deducible" },
] as const satisfies readonly Option[];

/** ISO 3166-1 alpha-2 with Spanish names, alphabetical by name. */
export const PAISES = [
  { value: "DE", label: "Alemania" },
  { value: "AD", label: "Andorra" },
  { value: "AR", label: "Argentina" },
  { value: "AT", label: "Austria" },
  { value: "BE", label: "Bélgica" },
  { value: "BO", label: "Bolivia" },
  { value: "BR", label: "Brasil" },
  { value: "CA", label: "Canadá" },
  { value: "CL", label: "Chile" },
  { value: "CN", label: "China" },
  { value: "CO", label: "Colombia" },
  { value: "CR", label: "Costa Rica" },
  { value: "DK", label: "Dinamarca" },
  { value: "EC", label: "Ecuador" },
  { value: "ES", label: "España" },
  { value: "US", label: "Estados Unidos" },
  { value: "FI", label: "Finlandia" },
  { value: "FR", label: "Francia" },
  { value: "GR", label: "Grecia" },
  { value: "GT", label: "Guatemala" },
  { value: "IE", label: "Irlanda" },
  { value: "IT", label: "Italia" },
  { value: "JP", label: "Japón" },
  { value: "LU", label: "Luxemburgo" },
  { value: "MA", label: "Marruecos" },
  { value: "MX", label: "México" },
  { value: "NO", label: "Noruega" },
  { value: "NL", label: "Países Bajos" },
  { value: "PA", label: "Panamá" },
  { value: "PY", label: "Paraguay" },
  { value: "PE", label: "Perú" },
  { value: "PL", label: "Polonia" },
  { value: "PT", label: "Portugal" },
  { value: "GB", label: "Reino Unido" },
  { value: "CZ", label: "República Checa" },
  { value: "DO", label: "República Dominicana" },
  { value: "SE", label: "Suecia" },
  { value: "CH", label: "Suiza" },
  { value: "UY", label: "Uruguay" },
  { value: "VE", label: "Venezuela" },
] as const satisfies readonly Option[];
export type Pais = (typeof PAISES)[number]["value"];

/** The label for `value`, or the value itself when unknown (never a blank cell); "" for null. */
export function labelOf(list: readonly Option[], value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  return list.find((o) => o.value === value)?.label ?? value;
}

export function isValueOf<V extends string>(list: readonly Option<V>[], value: unknown): value is V {
  return typeof value === "string" && list.some((o) => o.value === value);
}
