/**
 * De qué son los gastos de demostración: plantillas de descripción con su horquilla de importe e
 * IVA, los textos con que se rellenan, y cuánto pesa cada categoría y cada forma de pago según el
 * área de quien gasta. Solo datos; el generador (scripts/seed/generator/gastos.ts) los combina.
 */
import type { CategoriaGasto, MetodoPago } from "../../../app/lib/constants";

export type Plantilla = {
  texto: string;
  min: number; // euros
  max: number;
  iva: number; // % incluido en el importe
};

const P = (texto: string, min: number, max: number, iva: number): Plantilla => ({ texto, min, max, iva });

export const PLANTILLAS: Record<CategoriaGasto, Plantilla[]> = {
  alojamiento: [
    P("Hotel en {ciudad} — visita cliente", 85, 190, 10),
    P("Hotel en {ciudad} — feria sectorial", 110, 260, 10),
    P("Alojamiento {noches} noches en {ciudad} — reunión con {cliente}", 160, 620, 10),
    P("Hotel en {ciudad} — formación interna", 75, 150, 10),
    P("Hotel en {ciudad} — visita a la sucursal", 80, 165, 10),
  ],
  comidas: [
    P("Comida de trabajo con {cliente}", 28, 140, 10),
    P("Cena de equipo en {ciudad}", 60, 320, 10),
    P("Dietas viaje a {ciudad}", 25, 90, 10),
    P("Menú del día — jornada en {ciudad}", 12, 28, 10),
    P("Desayuno de trabajo — reunión de departamento", 14, 65, 10),
  ],
  viajes_transporte: [
    P("Taxi aeropuerto", 22, 45, 10),
    P("Taxi a las oficinas de {cliente}", 9, 32, 10),
    P("Tren {origen}–{ciudad} ida y vuelta", 45, 190, 10),
    P("Vuelo {origen}–{ciudad} — visita cliente", 90, 420, 10),
    P("Alquiler de coche en {ciudad}", 55, 240, 21),
    P("Autobús {origen}–{ciudad}", 12, 48, 10),
  ],
  combustible: [
    P("Gasolina — ruta comercial por {ciudad}", 45, 95, 21),
    P("Gasóleo del vehículo de empresa", 50, 110, 21),
    P("Repostaje en viaje a {ciudad}", 40, 85, 21),
  ],
  aparcamiento_peajes: [
    P("Aparcamiento del aeropuerto de {origen}", 18, 75, 21),
    P("Peaje autopista {origen}–{ciudad}", 6, 38, 21),
    P("Parking en el centro de {ciudad} — visita a {cliente}", 4, 24, 21),
    P("Zona azul en {ciudad}", 2, 9, 21),
  ],
  material_oficina: [
    P("Tóner y papel para la oficina de {origen}", 45, 260, 21),
    P("Material de oficina — cuadernos, bolígrafos y pósits", 12, 70, 21),
    P("Archivadores y carpetas para el archivo", 18, 95, 21),
    P("Silla ergonómica para puesto de trabajo", 160, 420, 21),
    P("Auriculares con micrófono para videollamadas", 35, 140, 21),
    P("Cartuchos de impresora", 30, 120, 21),
  ],
  telefonia_internet: [
    P("Factura de telefonía móvil — {mes}", 25, 90, 21),
    P("Fibra de la oficina de {origen} — {mes}", 45, 160, 21),
    P("Tarjeta SIM de datos para portátil", 15, 40, 21),
    P("Itinerancia de datos — viaje a {extranjero}", 10, 65, 21),
  ],
  software_suscripciones: [
    P("Suscripción anual a herramienta de diseño", 240, 720, 21),
    P("Licencias de ofimática — {mes}", 60, 420, 21),
    P("Servicio de videoconferencia — {mes}", 14, 95, 21),
    P("Almacenamiento en la nube — {mes}", 10, 180, 21),
    P("Licencia de software de contabilidad", 90, 650, 21),
    P("Certificado SSL del dominio corporativo", 40, 260, 21),
  ],
  formacion: [
    P("Curso de {curso}", 120, 950, 21),
    P("Inscripción en congreso de {tema}", 180, 890, 21),
    P("Libros técnicos de {tema}", 25, 140, 4),
    P("Clases de inglés — {mes}", 90, 240, 0),
    P("Certificación profesional en {tema}", 250, 1600, 21),
  ],
  atenciones_clientes: [
    P("Comida con {cliente} — cierre de contrato", 80, 360, 10),
    P("Obsequio de empresa para {cliente}", 40, 220, 21),
    P("Cesta de productos para {cliente}", 45, 160, 10),
    P("Cena con el equipo de {cliente} en {ciudad}", 120, 480, 10),
    P("Entradas para evento con {cliente}", 60, 300, 21),
  ],
  mensajeria: [
    P("Envío urgente de documentación a {ciudad}", 8, 45, 21),
    P("Mensajería de contratos firmados a {cliente}", 9, 35, 21),
    P("Envío de muestras a {cliente}", 18, 120, 21),
    P("Paquetería de material a la sucursal de {ciudad}", 15, 90, 21),
  ],
  mantenimiento_reparaciones: [
    P("Reparación del aire acondicionado — oficina de {origen}", 180, 1400, 21),
    P("Mantenimiento de impresora multifunción", 70, 320, 21),
    P("Revisión del vehículo de empresa", 140, 620, 21),
    P("Cambio de cerradura — sala de archivo", 90, 280, 21),
    P("Reparación de portátil", 60, 390, 21),
    P("Mantenimiento preventivo de extintores", 80, 240, 21),
  ],
  servicios_profesionales: [
    P("Asesoría fiscal — {mes}", 300, 1200, 21),
    P("Honorarios de notaría — poderes", 120, 480, 21),
    P("Traducción jurada de contrato al inglés", 180, 900, 21),
    P("Consultoría de procesos — fase {n}", 1200, 6800, 21),
    P("Auditoría de seguridad informática", 1500, 7500, 21),
    P("Diseño de campaña para {ciudad}", 600, 3800, 21),
    P("Reportaje fotográfico del evento de {cliente}", 250, 950, 21),
  ],
  otros: [
    P("Flores para la recepción de {origen}", 20, 90, 10),
    P("Café y agua para la oficina de {origen}", 25, 140, 10),
    P("Tasas administrativas", 10, 180, 0),
    P("Fotocopias y encuadernación de la propuesta para {cliente}", 8, 60, 21),
    P("Cuota de asociación profesional", 60, 350, 0),
    P("Material para stand de feria en {ciudad}", 90, 900, 21),
  ],
};

export const CIUDADES = [
  "Madrid",
  "Barcelona",
  "Valencia",
  "Sevilla",
  "Bilbao",
  "Zaragoza",
  "Málaga",
  "Valladolid",
  "A Coruña",
  "Vigo",
  "Alicante",
  "Murcia",
  "Palma",
  "Santander",
  "Pamplona",
  "San Sebastián",
  "Granada",
  "Córdoba",
  "Oviedo",
  "Las Palmas",
  "Salamanca",
  "Logroño",
  "Burgos",
  "Tarragona",
  "Girona",
  "León",
  "Cádiz",
  "Vitoria",
];
export const EXTRANJERO = [
  "Lisboa",
  "París",
  "Londres",
  "Milán",
  "Fráncfort",
  "Ciudad de México",
  "Bruselas",
  "Oporto",
];
export const CLIENTES = [
  "Grupo Alvarado",
  "Construcciones Ibarra",
  "Talleres Urbieta",
  "Distribuciones Levante",
  "Bodegas Valdecruz",
  "Clínica San Rafael",
  "Hierros del Nervión",
  "Frutas Hermanos Ledesma",
  "Logística Meridiana",
  "Cerámicas del Turia",
  "Seguros La Previsora",
  "Hoteles Costa Azahar",
  "Laboratorios Almagro",
  "Textil Montcada",
  "Papelera del Ebro",
  "Inmobiliaria Castellana Norte",
  "Renovables Moncayo",
  "Conservas Ría de Arousa",
  "Automoción Getafe",
  "Editorial Sol y Luna",
];
export const CURSOS = [
  "Excel avanzado",
  "liderazgo de equipos",
  "negociación comercial",
  "prevención de riesgos laborales",
  "inglés de negocios",
  "Power BI",
  "ciberseguridad para usuarios",
  "gestión ágil de proyectos",
  "contabilidad para no financieros",
  "protección de datos (RGPD)",
];
export const TEMAS = [
  "comercio electrónico",
  "transformación digital",
  "gestión de personas",
  "logística",
  "marketing digital",
  "ciberseguridad",
  "finanzas corporativas",
  "inteligencia artificial aplicada",
];
export const MOTIVOS_RECHAZO = [
  "Falta el ticket o la factura: adjúntela y vuelva a enviarlo.",
  "El importe supera la política de viajes (máximo 120 € por noche de hotel).",
  "Gasto duplicado: ya se presentó con otro folio.",
  "Indique en las notas quiénes asistieron a la comida.",
  "Debe imputarse al centro de coste del proyecto, no al del departamento.",
  "La factura no está a nombre de la empresa.",
  "Gasto personal: no es reembolsable.",
  "El viaje no tenía autorización previa.",
  "La fecha del ticket no coincide con la del viaje.",
];
export const NOTAS = [
  "Adjunto el ticket escaneado.",
  "Incluye desayuno.",
  "Asistentes: dos personas del cliente y yo.",
  "Pagado con la tarjeta corporativa terminada en 4821.",
  "Imputar al proyecto de implantación.",
  "Reunión aplazada desde la semana anterior.",
  "Precio con descuento de empresa.",
  "La factura original se envía por correo interno a Finanzas.",
];

export type Grupo = "ventas" | "tecnologia" | "operaciones" | "marketing" | "general";

/** Área de gasto de cada departamento de demostración; cualquier otro departamento, «general». */
export const GRUPO_DE_DEPARTAMENTO: Readonly<Record<string, Grupo>> = {
  VNO: "ventas",
  VSU: "ventas",
  COM: "ventas",
  TEC: "tecnologia",
  SIS: "tecnologia",
  DES: "tecnologia",
  OPE: "operaciones",
  MKT: "marketing",
};

export const PESOS_CATEGORIA: Record<Grupo, Partial<Record<CategoriaGasto, number>>> = {
  ventas: {
    alojamiento: 16,
    comidas: 18,
    viajes_transporte: 20,
    combustible: 12,
    aparcamiento_peajes: 10,
    atenciones_clientes: 10,
    telefonia_internet: 3,
    material_oficina: 2,
    mensajeria: 3,
    formacion: 2,
    otros: 2,
    software_suscripciones: 1,
    servicios_profesionales: 1,
  },
  tecnologia: {
    software_suscripciones: 18,
    material_oficina: 12,
    telefonia_internet: 10,
    formacion: 10,
    viajes_transporte: 10,
    alojamiento: 6,
    comidas: 10,
    mantenimiento_reparaciones: 8,
    servicios_profesionales: 4,
    mensajeria: 3,
    aparcamiento_peajes: 3,
    otros: 3,
  },
  operaciones: {
    mensajeria: 16,
    mantenimiento_reparaciones: 14,
    combustible: 14,
    material_oficina: 12,
    viajes_transporte: 10,
    aparcamiento_peajes: 8,
    comidas: 10,
    alojamiento: 6,
    telefonia_internet: 4,
    formacion: 3,
    otros: 3,
  },
  marketing: {
    servicios_profesionales: 12,
    atenciones_clientes: 14,
    viajes_transporte: 12,
    alojamiento: 10,
    comidas: 12,
    otros: 12,
    software_suscripciones: 8,
    material_oficina: 6,
    mensajeria: 6,
    formacion: 4,
    aparcamiento_peajes: 4,
  },
  general: {
    comidas: 14,
    viajes_transporte: 14,
    alojamiento: 8,
    formacion: 12,
    servicios_profesionales: 10,
    material_oficina: 10,
    telefonia_internet: 6,
    software_suscripciones: 6,
    atenciones_clientes: 6,
    mensajeria: 5,
    aparcamiento_peajes: 4,
    otros: 5,
  },
};

export const PESOS_METODO: Record<CategoriaGasto, Partial<Record<MetodoPago, number>>> = {
  alojamiento: { tarjeta_corporativa: 60, tarjeta_credito: 20, transferencia: 20 },
  comidas: { tarjeta_corporativa: 50, tarjeta_debito: 20, efectivo: 20, tarjeta_credito: 10 },
  viajes_transporte: { tarjeta_corporativa: 45, efectivo: 25, tarjeta_credito: 15, transferencia: 15 },
  combustible: { tarjeta_corporativa: 75, tarjeta_debito: 15, efectivo: 10 },
  aparcamiento_peajes: { tarjeta_corporativa: 50, efectivo: 30, tarjeta_debito: 20 },
  material_oficina: { caja_chica: 35, tarjeta_corporativa: 35, transferencia: 30 },
  telefonia_internet: { domiciliacion: 80, tarjeta_corporativa: 20 },
  software_suscripciones: { tarjeta_credito: 45, domiciliacion: 35, tarjeta_corporativa: 20 },
  formacion: { transferencia: 70, tarjeta_corporativa: 30 },
  atenciones_clientes: { tarjeta_corporativa: 70, tarjeta_credito: 20, efectivo: 10 },
  mensajeria: { domiciliacion: 45, transferencia: 35, caja_chica: 20 },
  mantenimiento_reparaciones: { transferencia: 70, cheque: 10, tarjeta_corporativa: 20 },
  servicios_profesionales: { transferencia: 85, domiciliacion: 10, cheque: 5 },
  otros: { caja_chica: 35, efectivo: 25, tarjeta_corporativa: 25, transferencia: 10, cheque: 5 },
};

/** Probabilidad de que el gasto lleve proveedor. */
export const CON_PROVEEDOR: Partial<Record<CategoriaGasto, number>> = {
  viajes_transporte: 0.65,
  comidas: 0.7,
  aparcamiento_peajes: 0.6,
  combustible: 0.8,
  otros: 0.6,
};
