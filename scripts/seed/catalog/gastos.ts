/**
 * De qué son los gastos de demostración: plantillas de descripción con su horquilla de importe e
 * IVA, los textos con que se rellenan, y cuánto pesa cada categoría y cada forma de pago según el
 * área de quien gasta. Solo datos; el generador (scripts/seed/generator/gastos.ts) los combina.
 */
import type { CategoriaGasto, MetodoPago } from "../../../app/lib/opciones";

export type Plantilla = {
  texto: string;
  min: number; // euros
  max: number;
  iva: number; // % incluido en el importe
};

/**
 * Una tabla de plantillas, una por línea: importe mínimo y máximo en euros, IVA incluido en el
 * importe (%) y la descripción, con huecos {ciudad}, {origen}, {cliente}, {mes}… que rellena el
 * generador.
 */
function plantillas(tabla: string): Plantilla[] {
  return tabla
    .trim()
    .split("\n")
    .map((linea) => {
      const m = /^(\d+)\s+(\d+)\s+(\d+)\s+(.+)$/.exec(linea.trim());
      if (!m) throw new Error(`Plantilla mal escrita: ${linea}`);
      return { texto: m[4]!, min: Number(m[1]), max: Number(m[2]), iva: Number(m[3]) };
    });
}

export const PLANTILLAS: Record<CategoriaGasto, Plantilla[]> = {
  alojamiento: plantillas(`
      85   190  10  Hotel en {ciudad} — visita cliente
     110   260  10  Hotel en {ciudad} — feria sectorial
     160   620  10  Alojamiento {noches} noches en {ciudad} — reunión con {cliente}
      75   150  10  Hotel en {ciudad} — formación interna
      80   165  10  Hotel en {ciudad} — visita a la sucursal
  `),
  comidas: plantillas(`
      28   140  10  Comida de trabajo con {cliente}
      60   320  10  Cena de equipo en {ciudad}
      25    90  10  Dietas viaje a {ciudad}
      12    28  10  Menú del día — jornada en {ciudad}
      14    65  10  Desayuno de trabajo — reunión de departamento
  `),
  viajes_transporte: plantillas(`
      22    45  10  Taxi aeropuerto
       9    32  10  Taxi a las oficinas de {cliente}
      45   190  10  Tren {origen}–{ciudad} ida y vuelta
      90   420  10  Vuelo {origen}–{ciudad} — visita cliente
      55   240  21  Alquiler de coche en {ciudad}
      12    48  10  Autobús {origen}–{ciudad}
  `),
  combustible: plantillas(`
      45    95  21  Gasolina — ruta comercial por {ciudad}
      50   110  21  Gasóleo del vehículo de empresa
      40    85  21  Repostaje en viaje a {ciudad}
  `),
  aparcamiento_peajes: plantillas(`
      18    75  21  Aparcamiento del aeropuerto de {origen}
       6    38  21  Peaje autopista {origen}–{ciudad}
       4    24  21  Parking en el centro de {ciudad} — visita a {cliente}
       2     9  21  Zona azul en {ciudad}
  `),
  material_oficina: plantillas(`
      45   260  21  Tóner y papel para la oficina de {origen}
      12    70  21  Material de oficina — cuadernos, bolígrafos y pósits
      18    95  21  Archivadores y carpetas para el archivo
     160   420  21  Silla ergonómica para puesto de trabajo
      35   140  21  Auriculares con micrófono para videollamadas
      30   120  21  Cartuchos de impresora
  `),
  telefonia_internet: plantillas(`
      25    90  21  Factura de telefonía móvil — {mes}
      45   160  21  Fibra de la oficina de {origen} — {mes}
      15    40  21  Tarjeta SIM de datos para portátil
      10    65  21  Itinerancia de datos — viaje a {extranjero}
  `),
  software_suscripciones: plantillas(`
     240   720  21  Suscripción anual a herramienta de diseño
      60   420  21  Licencias de ofimática — {mes}
      14    95  21  Servicio de videoconferencia — {mes}
      10   180  21  Almacenamiento en la nube — {mes}
      90   650  21  Licencia de software de contabilidad
      40   260  21  Certificado SSL del dominio corporativo
  `),
  formacion: plantillas(`
     120   950  21  Curso de {curso}
     180   890  21  Inscripción en congreso de {tema}
      25   140   4  Libros técnicos de {tema}
      90   240   0  Clases de inglés — {mes}
     250  1600  21  Certificación profesional en {tema}
  `),
  atenciones_clientes: plantillas(`
      80   360  10  Comida con {cliente} — cierre de contrato
      40   220  21  Obsequio de empresa para {cliente}
      45   160  10  Cesta de productos para {cliente}
     120   480  10  Cena con el equipo de {cliente} en {ciudad}
      60   300  21  Entradas para evento con {cliente}
  `),
  mensajeria: plantillas(`
       8    45  21  Envío urgente de documentación a {ciudad}
       9    35  21  Mensajería de contratos firmados a {cliente}
      18   120  21  Envío de muestras a {cliente}
      15    90  21  Paquetería de material a la sucursal de {ciudad}
  `),
  mantenimiento_reparaciones: plantillas(`
     180  1400  21  Reparación del aire acondicionado — oficina de {origen}
      70   320  21  Mantenimiento de impresora multifunción
     140   620  21  Revisión del vehículo de empresa
      90   280  21  Cambio de cerradura — sala de archivo
      60   390  21  Reparación de portátil
      80   240  21  Mantenimiento preventivo de extintores
  `),
  servicios_profesionales: plantillas(`
     300  1200  21  Asesoría fiscal — {mes}
     120   480  21  Honorarios de notaría — poderes
     180   900  21  Traducción jurada de contrato al inglés
    1200  6800  21  Consultoría de procesos — fase {n}
    1500  7500  21  Auditoría de seguridad informática
     600  3800  21  Diseño de campaña para {ciudad}
     250   950  21  Reportaje fotográfico del evento de {cliente}
  `),
  otros: plantillas(`
      20    90  10  Flores para la recepción de {origen}
      25   140  10  Café y agua para la oficina de {origen}
      10   180   0  Tasas administrativas
       8    60  21  Fotocopias y encuadernación de la propuesta para {cliente}
      60   350   0  Cuota de asociación profesional
      90   900  21  Material para stand de feria en {ciudad}
  `),
};

/**
 * Qué proveedores pueden haber emitido cada descripción (por cómo empieza): el nombre, razón social
 * o comercial, ha de coincidir, para que un «Taxi aeropuerto» no lo cobre una aerolínea ni una
 * «Silla ergonómica» una papelería. `null`: ningún proveedor de la lista lo vende (un billete de
 * autobús, unas tasas), y el gasto va sin proveedor. Lo que no está aquí, cualquiera de su categoría.
 */
export const PROVEEDOR_DE_PLANTILLA: [descripcion: RegExp, proveedor: RegExp | null][] = [
  [/^Taxi/, /taxi/i],
  [/^Tren/, /tren/i],
  [/^Vuelo/, /aero/i],
  [/^Alquiler de coche/, /rent a car|alquiler de veh/i],
  [/^Autobús/, /viajes corporativos|business travel/i],
  [/^(Aparcamiento|Parking|Zona azul)/, /park/i],
  [/^Peaje/, /autopista/i],
  [/^(Comida|Cena|Menú|Desayuno)/, /restaurante|asador|cafetería|catering|marisquería|hotel/i],
  [/^(Obsequio|Cesta)/, /regalos/i],
  [/^Entradas para evento/, /eventos/i],
  [/^Flores/, /florister/i],
  [/^(Café y agua|Tasas administrativas|Cuota de asociación)/, null],
  [/^Fotocopias/, /imprenta/i],
  [/^Material para stand/, /eventos|publicidad|creativa/i],
  [/^(Tóner|Material de oficina|Archivadores|Cartuchos)/, /papeler|ofituria|ofimátic/i],
  [/^Silla/, /ofimueble/i],
  [/^Auriculares/, /infozar|ofituria|ofimátic/i],
  [/^Reparación del aire/, /climatizaci/i],
  [/^(Mantenimiento de impresora|Reparación de portátil)/, /infozar|ofimueble|ofimátic/i],
  [/^Revisión del vehículo/, /talleres/i],
  [/^Cambio de cerradura/, /cerrajer/i],
  [/^Mantenimiento preventivo de extintores/, /mantenimientos integrales|prevención/i],
  [/^Asesoría fiscal/, /asesoría fiscal/i],
  [/^Honorarios de notaría/, null],
  [/^Traducción/, /traducc/i],
  [/^Consultoría de procesos/, /consultoría de procesos/i],
  [/^Auditoría de seguridad/, /ciberseguridad/i],
  [/^Diseño de campaña/, /creativa|publicidad/i],
  [/^Reportaje fotográfico/, /foto/i],
  [/^Curso de/, /formación|escuela|prevención|arroyo/i],
  [/^(Inscripción en congreso|Libros técnicos)/, null],
  [/^Clases de inglés/, /idiomas/i],
  [/^Certificación profesional/, /escuela|formación/i],
  [
    /^(Suscripción anual|Licencias de ofimática|Servicio de videoconferencia|Almacenamiento en la nube)/,
    /nube|nimbus|digital/i,
  ],
  [/^Licencia de software de contabilidad/, /erp/i],
  [/^Certificado SSL/, /ciberseguridad/i],
];

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
