/**
 * Datos de demostración de Oficina.
 *
 * - `seedIfEmpty(db, log)`: si `public.usuarios` está vacía, carga los datos de demostración
 *   (lo llama server.ts al arrancar fuera de producción). Devuelve si ha cargado algo.
 * - `seedDemo(db, { gastos, seed })`: carga los datos base (departamentos, sucursales,
 *   proveedores, 40 usuarios y `gastos` gastos) en una transacción. Determinista: mismo `seed`,
 *   mismos datos (relativos a la fecha de hoy).
 * - `addGastos(db, n, { seed, log })`: añade n gastos sintéticos a lo que ya haya (carga masiva).
 * - CLI: `tsx scripts/seed.ts --gastos 100000 [--database-url URL] [--seed N]`. Sin URL (ni
 *   DATABASE_URL) arranca el Postgres integrado de DATA_DIR (./data por defecto), aplica las
 *   migraciones, carga los datos base si la base está vacía y añade los gastos pedidos.
 *
 * Todo se hace como propietario de la base de datos (sin RLS) y con los disparadores activos:
 * el folio (GAS-AAAA-NNNNN, por año de `creado_en`), el historial y las reglas de integridad los
 * pone la propia base de datos, como en cualquier otro alta.
 *
 * Cuentas de demostración (contraseña `demo-oficina-2026`): administrador@oficina.example,
 * aprobador@oficina.example y empleado@oficina.example.
 */
import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "../app/data/database";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { hashPassword } from "../app/auth/password.server";
import type { CategoriaGasto, CategoriaProveedor, EstadoGasto, MetodoPago, Rol } from "../app/lib/constants";
import { addDaysISO, diffDaysISO, todayISO } from "../app/lib/dates";
import { generateValidEsIban, ibanCheckDigits } from "../app/lib/iban";
import { generateValidCif, generateValidDni, generateValidNie } from "../app/lib/nif";

type DB = Kysely<Database>;
type Trx = Transaction<Database>;
type Log = (line: string) => void;

export const DEMO_PASSWORD = "demo-oficina-2026";
export const DEMO_ACCOUNTS = {
  administrador: "administrador@oficina.example",
  aprobador: "aprobador@oficina.example",
  empleado: "empleado@oficina.example",
} as const;
export const DEFAULT_SEED = 20261122;
export const DEFAULT_DEMO_GASTOS = 3000;
/** Gastos repartidos a lo largo de los últimos 18 meses. */
const DAYS_BACK = 548;

// ---------------------------------------------------------------------------------------------
// Números pseudoaleatorios deterministas (mulberry32)
// ---------------------------------------------------------------------------------------------

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  /** Entero en [min, max], ambos incluidos. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  /** Elige una clave según sus pesos (no hace falta que sumen 1). */
  weighted<K extends string>(weights: Readonly<Partial<Record<K, number>>>): K {
    const entries = Object.entries(weights) as [K, number][];
    let total = 0;
    for (const [, w] of entries) total += w;
    let r = this.next() * total;
    for (const [k, w] of entries) {
      r -= w;
      if (r < 0) return k;
    }
    return entries[entries.length - 1]![0];
  }
  /** UUID con forma de v4, derivado de la semilla. */
  uuid(): string {
    const bytes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const n = Math.floor(this.next() * 4294967296) >>> 0;
      bytes.push(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
    }
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Utilidades
// ---------------------------------------------------------------------------------------------

/** Céntimos enteros → "1234.56" (nunca un float). */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Importe no válido: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

function slugEmail(s: string): string {
  return s
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ".")
    .replace(/^\.|\.$/g, "");
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function dayStartMs(iso: string): number {
  return Date.parse(`${iso}T00:00:00Z`);
}

function isoOfMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const MESES = [
  "enero",
  "febrero",
  "marzo",
  "abril",
  "mayo",
  "junio",
  "julio",
  "agosto",
  "septiembre",
  "octubre",
  "noviembre",
  "diciembre",
];

function mesDe(iso: string): string {
  return `${MESES[Number(iso.slice(5, 7)) - 1]} de ${iso.slice(0, 4)}`;
}

function telefono(rng: Rng, prefijo: string): string {
  // "+34 91x xxx xxx": 9 cifras en grupos de 3.
  let digits = prefijo;
  while (digits.length < 9) digits += String(rng.int(0, 9));
  return `+34 ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6, 9)}`;
}

// ---------------------------------------------------------------------------------------------
// Datos base
// ---------------------------------------------------------------------------------------------

type SucursalDef = {
  codigo: string;
  nombre: string;
  direccion: string;
  ciudad: string;
  provincia: string;
  codigo_postal: string;
  telefono: string;
  email: string;
  responsable: string; // email de usuario
};

const SUCURSALES: SucursalDef[] = [
  {
    codigo: "MAD",
    nombre: "Madrid — Sede central",
    direccion: "Calle de Alcalá 120, 4.ª planta",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28009",
    telefono: "+34 914 352 100",
    email: "madrid@oficina.example",
    responsable: "isabel.ramos@oficina.example",
  },
  {
    codigo: "BCN",
    nombre: "Barcelona",
    direccion: "Avinguda Diagonal 477, 6.º",
    ciudad: "Barcelona",
    provincia: "Barcelona",
    codigo_postal: "08036",
    telefono: "+34 934 101 200",
    email: "barcelona@oficina.example",
    responsable: "sergio.delgado@oficina.example",
  },
  {
    codigo: "VLC",
    nombre: "Valencia",
    direccion: "Calle de Colón 32, 2.º",
    ciudad: "Valencia",
    provincia: "Valencia",
    codigo_postal: "46004",
    telefono: "+34 963 510 300",
    email: "valencia@oficina.example",
    responsable: "beatriz.herrera@oficina.example",
  },
  {
    codigo: "SVQ",
    nombre: "Sevilla",
    direccion: "Avenida de la Constitución 21, 3.º",
    ciudad: "Sevilla",
    provincia: "Sevilla",
    codigo_postal: "41004",
    telefono: "+34 954 220 400",
    email: "sevilla@oficina.example",
    responsable: "marta.romero@oficina.example",
  },
  {
    codigo: "BIO",
    nombre: "Bilbao",
    direccion: "Gran Vía de Don Diego López de Haro 45, 5.º",
    ciudad: "Bilbao",
    provincia: "Bizkaia",
    codigo_postal: "48011",
    telefono: "+34 944 150 500",
    email: "bilbao@oficina.example",
    responsable: "ivan.marquez@oficina.example",
  },
  {
    codigo: "ZAZ",
    nombre: "Zaragoza",
    direccion: "Paseo de la Independencia 24, 1.º",
    ciudad: "Zaragoza",
    provincia: "Zaragoza",
    codigo_postal: "50004",
    telefono: "+34 976 230 600",
    email: "zaragoza@oficina.example",
    responsable: "andres.molina@oficina.example",
  },
];

type DepartamentoDef = {
  codigo: string;
  nombre: string;
  padre: string | null;
  centro_costo: string;
  presupuesto: number | null; // euros
  responsable: string; // email
  notas?: string;
};

const DEPARTAMENTOS: DepartamentoDef[] = [
  {
    codigo: "DIR",
    nombre: "Dirección General",
    padre: null,
    centro_costo: "CC-100",
    presupuesto: 6000,
    responsable: "carmen.ortega@oficina.example",
    notas: "Comité de dirección y asistencia a dirección.",
  },
  {
    codigo: "FIN",
    nombre: "Finanzas",
    padre: "DIR",
    centro_costo: "CC-110",
    presupuesto: 4500,
    responsable: "javier.morales@oficina.example",
    notas: "Contabilidad, tesorería y control de gestión. Tramita los pagos de los gastos aprobados.",
  },
  {
    codigo: "COM",
    nombre: "Comercial",
    padre: "DIR",
    centro_costo: "CC-200",
    presupuesto: 5000,
    responsable: "raul.castillo@oficina.example",
  },
  {
    codigo: "VNO",
    nombre: "Ventas Norte",
    padre: "COM",
    centro_costo: "CC-210",
    presupuesto: 9000,
    responsable: DEMO_ACCOUNTS.aprobador,
    notas: "Zona norte: País Vasco, Cantabria, Asturias, Galicia, Navarra, La Rioja, Aragón y Madrid.",
  },
  {
    codigo: "VSU",
    nombre: "Ventas Sur",
    padre: "COM",
    centro_costo: "CC-220",
    presupuesto: 5000,
    responsable: "marta.romero@oficina.example",
    notas: "Zona sur y Levante: Andalucía, Murcia, Comunidad Valenciana y Canarias.",
  },
  {
    codigo: "TEC",
    nombre: "Tecnología",
    padre: "DIR",
    centro_costo: "CC-300",
    presupuesto: 1500,
    responsable: "sergio.delgado@oficina.example",
  },
  {
    codigo: "SIS",
    nombre: "Sistemas",
    padre: "TEC",
    centro_costo: "CC-310",
    presupuesto: 3500,
    responsable: "lucia.navarro@oficina.example",
    notas: "Infraestructura, puestos de trabajo, telefonía y soporte.",
  },
  {
    codigo: "DES",
    nombre: "Desarrollo",
    padre: "TEC",
    centro_costo: "CC-320",
    presupuesto: 4000,
    responsable: "beatriz.herrera@oficina.example",
  },
  {
    codigo: "RRHH",
    nombre: "Recursos Humanos",
    padre: "DIR",
    centro_costo: "CC-400",
    presupuesto: 3000,
    responsable: "isabel.ramos@oficina.example",
    notas: "Selección, formación y relaciones laborales.",
  },
  {
    codigo: "OPE",
    nombre: "Operaciones",
    padre: "DIR",
    centro_costo: "CC-500",
    presupuesto: 2500,
    responsable: "andres.molina@oficina.example",
  },
  {
    codigo: "MKT",
    nombre: "Marketing",
    padre: "DIR",
    centro_costo: "CC-600",
    presupuesto: 6000,
    responsable: "nuria.serrano@oficina.example",
    notas: "Marca, eventos, ferias y campañas.",
  },
];

type UsuarioDef = {
  nombre: string;
  apellidos: string;
  email?: string;
  rol: Rol;
  departamento: string;
  sucursal: string;
  puesto: string;
  activo?: boolean;
  /** email del aprobador; por defecto, el responsable del departamento (o del superior). null: ninguno. */
  aprobador?: string | null;
};

const USUARIOS: UsuarioDef[] = [
  // Las tres cuentas de demostración, primero (la primera cuenta del sistema es administradora).
  {
    nombre: "Ana",
    apellidos: "Administradora",
    email: DEMO_ACCOUNTS.administrador,
    rol: "administrador",
    departamento: "FIN",
    sucursal: "MAD",
    puesto: "Responsable de administración",
  },
  {
    nombre: "Pablo",
    apellidos: "Aprobador",
    email: DEMO_ACCOUNTS.aprobador,
    rol: "aprobador",
    departamento: "VNO",
    sucursal: "MAD",
    puesto: "Jefe de ventas zona norte",
  },
  {
    nombre: "Elena",
    apellidos: "Empleada",
    email: DEMO_ACCOUNTS.empleado,
    rol: "empleado",
    departamento: "VNO",
    sucursal: "MAD",
    puesto: "Comercial",
    aprobador: DEMO_ACCOUNTS.aprobador,
  },
  // Administradores
  {
    nombre: "Javier",
    apellidos: "Morales Ibáñez",
    rol: "administrador",
    departamento: "FIN",
    sucursal: "MAD",
    puesto: "Director financiero",
  },
  {
    nombre: "Lucía",
    apellidos: "Navarro Gil",
    rol: "administrador",
    departamento: "SIS",
    sucursal: "BCN",
    puesto: "Responsable de sistemas",
  },
  // Aprobadores (responsables de departamento)
  {
    nombre: "Carmen",
    apellidos: "Ortega Lozano",
    rol: "aprobador",
    departamento: "DIR",
    sucursal: "MAD",
    puesto: "Directora general",
    aprobador: null,
  },
  {
    nombre: "Raúl",
    apellidos: "Castillo Vega",
    rol: "aprobador",
    departamento: "COM",
    sucursal: "MAD",
    puesto: "Director comercial",
  },
  {
    nombre: "Marta",
    apellidos: "Romero Sanz",
    rol: "aprobador",
    departamento: "VSU",
    sucursal: "SVQ",
    puesto: "Jefa de ventas zona sur",
  },
  {
    nombre: "Sergio",
    apellidos: "Delgado Prieto",
    rol: "aprobador",
    departamento: "TEC",
    sucursal: "BCN",
    puesto: "Director de tecnología",
  },
  {
    nombre: "Beatriz",
    apellidos: "Herrera Campos",
    rol: "aprobador",
    departamento: "DES",
    sucursal: "VLC",
    puesto: "Jefa de desarrollo",
  },
  {
    nombre: "Isabel",
    apellidos: "Ramos Fuentes",
    rol: "aprobador",
    departamento: "RRHH",
    sucursal: "MAD",
    puesto: "Directora de personas",
  },
  {
    nombre: "Andrés",
    apellidos: "Molina Cano",
    rol: "aprobador",
    departamento: "OPE",
    sucursal: "ZAZ",
    puesto: "Director de operaciones",
  },
  {
    nombre: "Nuria",
    apellidos: "Serrano Marín",
    rol: "aprobador",
    departamento: "MKT",
    sucursal: "BCN",
    puesto: "Directora de marketing",
  },
  // Empleados
  {
    nombre: "Jorge",
    apellidos: "Martín Rubio",
    rol: "empleado",
    departamento: "VNO",
    sucursal: "BIO",
    puesto: "Comercial",
  },
  {
    nombre: "Laura",
    apellidos: "Gómez Pascual",
    rol: "empleado",
    departamento: "VNO",
    sucursal: "ZAZ",
    puesto: "Comercial",
  },
  {
    nombre: "Daniel",
    apellidos: "Ruiz Herrero",
    rol: "empleado",
    departamento: "VNO",
    sucursal: "BIO",
    puesto: "Key account manager",
    aprobador: null,
  },
  {
    nombre: "Cristina",
    apellidos: "Díaz Moreno",
    rol: "empleado",
    departamento: "VSU",
    sucursal: "SVQ",
    puesto: "Comercial",
  },
  {
    nombre: "Alberto",
    apellidos: "Muñoz Santos",
    rol: "empleado",
    departamento: "VSU",
    sucursal: "VLC",
    puesto: "Comercial",
  },
  {
    nombre: "Rocío",
    apellidos: "Jiménez Vidal",
    rol: "empleado",
    departamento: "VSU",
    sucursal: "SVQ",
    puesto: "Técnica comercial",
    aprobador: null,
  },
  {
    nombre: "Miguel",
    apellidos: "Álvarez Torres",
    rol: "empleado",
    departamento: "COM",
    sucursal: "MAD",
    puesto: "Responsable de grandes cuentas",
  },
  {
    nombre: "Marcos",
    apellidos: "Ferrer Benítez",
    rol: "empleado",
    departamento: "COM",
    sucursal: "BCN",
    puesto: "Preventa",
  },
  {
    nombre: "Sara",
    apellidos: "Domínguez León",
    rol: "empleado",
    departamento: "FIN",
    sucursal: "MAD",
    puesto: "Técnica de contabilidad",
  },
  {
    nombre: "Francisco",
    apellidos: "Vázquez Reyes",
    rol: "empleado",
    departamento: "FIN",
    sucursal: "MAD",
    puesto: "Controller",
  },
  {
    nombre: "Paula",
    apellidos: "Gil Cabrera",
    rol: "empleado",
    departamento: "FIN",
    sucursal: "BCN",
    puesto: "Administrativa contable",
    activo: false,
  },
  {
    nombre: "Adrián",
    apellidos: "Blanco Suárez",
    rol: "empleado",
    departamento: "SIS",
    sucursal: "BCN",
    puesto: "Técnico de sistemas",
  },
  {
    nombre: "Irene",
    apellidos: "Castro Ortiz",
    rol: "empleado",
    departamento: "SIS",
    sucursal: "MAD",
    puesto: "Técnica de soporte",
    aprobador: null,
  },
  {
    nombre: "Hugo",
    apellidos: "Rubio Medina",
    rol: "empleado",
    departamento: "DES",
    sucursal: "VLC",
    puesto: "Desarrollador sénior",
  },
  {
    nombre: "Claudia",
    apellidos: "Sanz Garrido",
    rol: "empleado",
    departamento: "DES",
    sucursal: "VLC",
    puesto: "Desarrolladora",
  },
  {
    nombre: "Diego",
    apellidos: "Núñez Calvo",
    rol: "empleado",
    departamento: "DES",
    sucursal: "BCN",
    puesto: "Desarrollador",
  },
  {
    nombre: "Alba",
    apellidos: "Iglesias Peña",
    rol: "empleado",
    departamento: "DES",
    sucursal: "VLC",
    puesto: "Diseñadora de producto",
    aprobador: null,
  },
  {
    nombre: "Víctor",
    apellidos: "Guerrero Méndez",
    rol: "empleado",
    departamento: "TEC",
    sucursal: "BCN",
    puesto: "Arquitecto de software",
  },
  {
    nombre: "Silvia",
    apellidos: "Cortés Santiago",
    rol: "empleado",
    departamento: "RRHH",
    sucursal: "MAD",
    puesto: "Técnica de selección",
  },
  {
    nombre: "Pedro",
    apellidos: "Lorenzo Flores",
    rol: "empleado",
    departamento: "RRHH",
    sucursal: "SVQ",
    puesto: "Técnico de formación",
    activo: false,
  },
  {
    nombre: "Natalia",
    apellidos: "Aguilar Pastor",
    rol: "empleado",
    departamento: "OPE",
    sucursal: "ZAZ",
    puesto: "Coordinadora de logística",
  },
  {
    nombre: "Rubén",
    apellidos: "Caballero Nieto",
    rol: "empleado",
    departamento: "OPE",
    sucursal: "ZAZ",
    puesto: "Técnico de compras",
  },
  {
    nombre: "Lorena",
    apellidos: "Vidal Crespo",
    rol: "empleado",
    departamento: "OPE",
    sucursal: "VLC",
    puesto: "Técnica de operaciones",
    aprobador: null,
  },
  {
    nombre: "Iván",
    apellidos: "Márquez Soler",
    rol: "empleado",
    departamento: "OPE",
    sucursal: "BIO",
    puesto: "Jefe de almacén",
  },
  {
    nombre: "Patricia",
    apellidos: "Herrera Bravo",
    rol: "empleado",
    departamento: "MKT",
    sucursal: "BCN",
    puesto: "Responsable de eventos",
  },
  {
    nombre: "Álvaro",
    apellidos: "Pascual Rojas",
    rol: "empleado",
    departamento: "MKT",
    sucursal: "MAD",
    puesto: "Especialista en marketing digital",
  },
  {
    nombre: "Teresa",
    apellidos: "Montero Vera",
    rol: "empleado",
    departamento: "DIR",
    sucursal: "MAD",
    puesto: "Asistente de dirección",
  },
];

function emailOf(u: UsuarioDef): string {
  return u.email ?? `${slugEmail(u.nombre)}.${slugEmail(u.apellidos.split(" ")[0]!)}@oficina.example`;
}

/** Qué categorías de gasto atiende cada categoría de proveedor (para proveedores sin definición). */
const GASTOS_POR_CATEGORIA_PROVEEDOR: Record<CategoriaProveedor, CategoriaGasto[]> = {
  suministros: ["material_oficina", "combustible"],
  servicios_profesionales: ["servicios_profesionales", "formacion"],
  tecnologia: ["software_suscripciones", "telefonia_internet", "material_oficina"],
  viajes: ["alojamiento", "viajes_transporte"],
  logistica: ["mensajeria"],
  mantenimiento: ["mantenimiento_reparaciones"],
  marketing: ["servicios_profesionales", "atenciones_clientes", "otros"],
  otros: ["comidas", "atenciones_clientes", "aparcamiento_peajes", "otros"],
};

type ProveedorDef = {
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

const PROVEEDORES: ProveedorDef[] = [
  // Viajes
  {
    razon_social: "Hoteles Mediterráneo Levante S.L.",
    nombre_comercial: "Hotel Mediterráneo Valencia",
    nif: "B",
    categoria: "viajes",
    ciudad: "Valencia",
    provincia: "Valencia",
    codigo_postal: "46023",
    direccion: "Avenida de Francia 18",
    dominio: "hotelmediterraneo",
    gastos: ["alojamiento", "comidas"],
    iban: true,
    notas: "Tarifa de empresa con desayuno incluido.",
  },
  {
    razon_social: "Hostelería Gran Vía Madrid S.A.",
    nombre_comercial: "Hotel Gran Vía 21",
    nif: "A",
    categoria: "viajes",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28013",
    direccion: "Gran Vía 21",
    dominio: "hotelgranvia21",
    gastos: ["alojamiento", "comidas"],
    iban: true,
  },
  {
    razon_social: "Alojamientos Ría de Bilbao S.L.",
    nombre_comercial: "Hotel Abando Plaza",
    nif: "B",
    categoria: "viajes",
    ciudad: "Bilbao",
    provincia: "Bizkaia",
    codigo_postal: "48008",
    direccion: "Calle de Hurtado de Amézaga 9",
    dominio: "abandoplaza",
    gastos: ["alojamiento"],
    iban: true,
  },
  {
    razon_social: "Hoteles del Guadalquivir S.L.",
    nombre_comercial: "Hotel Triana Centro",
    nif: "B",
    categoria: "viajes",
    ciudad: "Sevilla",
    provincia: "Sevilla",
    codigo_postal: "41010",
    direccion: "Calle de San Jacinto 40",
    dominio: "hoteltriana",
    gastos: ["alojamiento"],
    iban: false,
  },
  {
    razon_social: "Gestión Hotelera Ebro S.L.",
    nombre_comercial: "Hotel Pilar Plaza",
    nif: "B",
    categoria: "viajes",
    ciudad: "Zaragoza",
    provincia: "Zaragoza",
    codigo_postal: "50003",
    direccion: "Plaza del Pilar 11",
    dominio: "hotelpilarplaza",
    gastos: ["alojamiento"],
    iban: true,
  },
  {
    razon_social: "Hotel Diagonal Nou S.L.",
    nif: "B",
    categoria: "viajes",
    ciudad: "Barcelona",
    provincia: "Barcelona",
    codigo_postal: "08019",
    direccion: "Avinguda Diagonal 205",
    dominio: "diagonalnou",
    gastos: ["alojamiento", "comidas"],
    iban: false,
  },
  {
    razon_social: "Viajes Corporativos Atlántico S.A.",
    nombre_comercial: "Atlántico Business Travel",
    nif: "A",
    categoria: "viajes",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28046",
    direccion: "Paseo de la Castellana 141, planta 9",
    dominio: "atlanticotravel",
    gastos: ["viajes_transporte", "alojamiento"],
    iban: true,
    notas: "Agencia de viajes de empresa: billetes de avión y tren, facturación mensual.",
  },
  {
    razon_social: "Aerolíneas Peninsulares S.A.",
    nombre_comercial: "AeroPenínsula",
    nif: "A",
    categoria: "viajes",
    ciudad: "Palma",
    provincia: "Illes Balears",
    codigo_postal: "07007",
    direccion: "Camí de Son Fangos 100",
    dominio: "aeropeninsula",
    gastos: ["viajes_transporte"],
  },
  {
    razon_social: "Ibertren Alta Velocidad S.A.",
    nombre_comercial: "Ibertren",
    nif: "A",
    categoria: "viajes",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28045",
    direccion: "Avenida de la Ciudad de Barcelona 8",
    dominio: "ibertren",
    gastos: ["viajes_transporte"],
  },
  {
    razon_social: "Radio Taxi Castellana S. Coop.",
    nombre_comercial: "Radio Taxi Castellana",
    nif: "F",
    categoria: "viajes",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28020",
    direccion: "Calle de Orense 34",
    dominio: "taxicastellana",
    gastos: ["viajes_transporte"],
  },
  {
    razon_social: "Taxi Metropolità de Barcelona S. Coop.",
    nombre_comercial: "Taxi Metropolità",
    nif: "F",
    categoria: "viajes",
    ciudad: "Barcelona",
    provincia: "Barcelona",
    codigo_postal: "08015",
    direccion: "Carrer de Sepúlveda 72",
    dominio: "taximetropolita",
    gastos: ["viajes_transporte"],
  },
  {
    razon_social: "Alquiler de Vehículos Meseta S.L.",
    nombre_comercial: "Meseta Rent a Car",
    nif: "B",
    categoria: "viajes",
    ciudad: "Valladolid",
    provincia: "Valladolid",
    codigo_postal: "47012",
    direccion: "Avenida de Segovia 55",
    dominio: "mesetarentacar",
    gastos: ["viajes_transporte"],
    iban: true,
  },
  // Suministros
  {
    razon_social: "Estaciones de Servicio Norte S.A.",
    nombre_comercial: "Gasolineras Norte",
    nif: "A",
    categoria: "suministros",
    ciudad: "Santander",
    provincia: "Cantabria",
    codigo_postal: "39011",
    direccion: "Calle de Castilla 88",
    dominio: "gasolinerasnorte",
    gastos: ["combustible"],
  },
  {
    razon_social: "Carburantes del Sur S.L.",
    nombre_comercial: "Petrosur",
    nif: "B",
    categoria: "suministros",
    ciudad: "Córdoba",
    provincia: "Córdoba",
    codigo_postal: "14014",
    direccion: "Polígono Las Quemadas, parcela 12",
    dominio: "petrosur",
    gastos: ["combustible"],
  },
  {
    razon_social: "Aparcamientos Urbanos Centro S.A.",
    nombre_comercial: "ParkCentro",
    nif: "A",
    categoria: "otros",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28014",
    direccion: "Calle de Alcalá 48",
    dominio: "parkcentro",
    gastos: ["aparcamiento_peajes"],
  },
  {
    razon_social: "Autopistas del Ebro Concesionaria S.A.",
    nif: "A",
    categoria: "otros",
    ciudad: "Zaragoza",
    provincia: "Zaragoza",
    codigo_postal: "50012",
    direccion: "Carretera de Logroño, km 6",
    dominio: "autopistasebro",
    gastos: ["aparcamiento_peajes"],
  },
  {
    razon_social: "Papelería Técnica Castellana S.L.",
    nombre_comercial: "Papelería La Castellana",
    nif: "B",
    categoria: "suministros",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28006",
    direccion: "Calle de Velázquez 63",
    dominio: "papelerialacastellana",
    gastos: ["material_oficina"],
    iban: true,
  },
  {
    razon_social: "Suministros de Oficina Turia S.L.",
    nombre_comercial: "OfiTuria",
    nif: "B",
    categoria: "suministros",
    ciudad: "Valencia",
    provincia: "Valencia",
    codigo_postal: "46015",
    direccion: "Avenida de Pío XII 29",
    dominio: "ofituria",
    gastos: ["material_oficina"],
    iban: true,
  },
  {
    razon_social: "Mobiliario y Equipamiento de Oficina 2000 S.L.",
    nombre_comercial: "Ofimueble 2000",
    nif: "B",
    categoria: "suministros",
    ciudad: "Getafe",
    provincia: "Madrid",
    codigo_postal: "28906",
    direccion: "Calle de la Confianza 4, polígono Los Olivos",
    dominio: "ofimueble2000",
    gastos: ["material_oficina", "mantenimiento_reparaciones"],
    iban: true,
  },
  {
    razon_social: "Distribuciones Ofimáticas del Norte S.L.",
    nif: "B",
    categoria: "suministros",
    ciudad: "Oviedo",
    provincia: "Asturias",
    codigo_postal: "33012",
    direccion: "Calle de Fray Ceferino 21",
    dominio: "ofimaticasnorte",
    gastos: ["material_oficina"],
    activo: false,
    notas: "Cerró su delegación en 2025: usar OfiTuria o Papelería La Castellana.",
  },
  // Tecnología
  {
    razon_social: "Telecomunicaciones Peninsulares S.A.",
    nombre_comercial: "TelePenínsula",
    nif: "A",
    categoria: "tecnologia",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28050",
    direccion: "Ronda de la Comunicación 5",
    dominio: "telepeninsula",
    gastos: ["telefonia_internet"],
    iban: true,
    notas: "Contrato de telefonía móvil y fibra de todas las sucursales.",
  },
  {
    razon_social: "Fibra y Datos Levante S.L.",
    nombre_comercial: "FibraLev",
    nif: "B",
    categoria: "tecnologia",
    ciudad: "Alicante",
    provincia: "Alicante",
    codigo_postal: "03008",
    direccion: "Avenida de Aguilera 36",
    dominio: "fibralev",
    gastos: ["telefonia_internet"],
    iban: true,
  },
  {
    razon_social: "Soluciones Cloud Ibérica S.L.",
    nombre_comercial: "NubeIbérica",
    nif: "B",
    categoria: "tecnologia",
    ciudad: "Barcelona",
    provincia: "Barcelona",
    codigo_postal: "08018",
    direccion: "Carrer de Pujades 77, 22@",
    dominio: "nubeiberica",
    gastos: ["software_suscripciones"],
    iban: true,
  },
  {
    razon_social: "Software de Gestión Arroyo S.L.",
    nombre_comercial: "Arroyo ERP",
    nif: "B",
    categoria: "tecnologia",
    ciudad: "Málaga",
    provincia: "Málaga",
    codigo_postal: "29590",
    direccion: "Calle de Severo Ochoa 16, Parque Tecnológico",
    dominio: "arroyoerp",
    gastos: ["software_suscripciones", "formacion"],
    iban: true,
  },
  {
    razon_social: "Ciberseguridad Bastión S.L.",
    nif: "B",
    categoria: "tecnologia",
    ciudad: "León",
    provincia: "León",
    codigo_postal: "24009",
    direccion: "Avenida de los Peregrinos 3",
    dominio: "bastionseguridad",
    gastos: ["servicios_profesionales", "software_suscripciones"],
    iban: true,
  },
  {
    razon_social: "Informática Zaragozana S.L.",
    nombre_comercial: "InfoZar",
    nif: "B",
    categoria: "tecnologia",
    ciudad: "Zaragoza",
    provincia: "Zaragoza",
    codigo_postal: "50009",
    direccion: "Calle de Francisco de Vitoria 17",
    dominio: "infozar",
    gastos: ["mantenimiento_reparaciones", "material_oficina"],
    activo: false,
  },
  {
    razon_social: "Nimbus Collaboration Software Ltd",
    nombre_comercial: "Nimbus",
    nif: "IE6388047V",
    pais: "IE",
    categoria: "tecnologia",
    ciudad: "Dublín",
    provincia: "Leinster",
    codigo_postal: "D02 X285",
    direccion: "25 Grand Canal Square",
    dominio: "nimbus-software",
    gastos: ["software_suscripciones"],
    iban: "IE",
    notas: "Proveedor de la UE: factura sin IVA (inversión del sujeto pasivo).",
  },
  {
    razon_social: "Plataforma Digital Lusitana Lda.",
    nif: "PT509876541",
    pais: "PT",
    categoria: "tecnologia",
    ciudad: "Lisboa",
    provincia: "Lisboa",
    codigo_postal: "1050-094",
    direccion: "Avenida da República 50",
    dominio: "lusitana-digital",
    gastos: ["software_suscripciones"],
  },
  // Servicios profesionales y formación
  {
    razon_social: "Asesoría Fiscal y Contable Medina S.L.P.",
    nif: "B",
    categoria: "servicios_profesionales",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28010",
    direccion: "Calle de Zurbano 45",
    dominio: "asesoriamedina",
    gastos: ["servicios_profesionales"],
    iban: true,
  },
  {
    razon_social: "Bufete Lozano y Asociados S.L.P.",
    nif: "B",
    categoria: "servicios_profesionales",
    ciudad: "Sevilla",
    provincia: "Sevilla",
    codigo_postal: "41001",
    direccion: "Calle de la Sierpes 48",
    dominio: "bufetelozano",
    gastos: ["servicios_profesionales"],
    iban: true,
  },
  {
    razon_social: "Consultoría de Procesos Cierzo S.L.",
    nif: "B",
    categoria: "servicios_profesionales",
    ciudad: "Zaragoza",
    provincia: "Zaragoza",
    codigo_postal: "50001",
    direccion: "Calle del Coso 98",
    dominio: "cierzoconsultoria",
    gastos: ["servicios_profesionales", "formacion"],
    iban: true,
  },
  {
    razon_social: "Miren Etxeberria Arrieta",
    nombre_comercial: "Traducciones Etxeberria",
    nif: "DNI",
    categoria: "servicios_profesionales",
    ciudad: "Donostia / San Sebastián",
    provincia: "Gipuzkoa",
    codigo_postal: "20004",
    direccion: "Calle de San Martín 12, 3.º izq.",
    gastos: ["servicios_profesionales"],
    iban: true,
    notas: "Traductora jurada de inglés y euskera.",
  },
  {
    razon_social: "Javier Ortiz Lamas",
    nombre_comercial: "Ortiz Arquitectura Técnica",
    nif: "DNI",
    categoria: "servicios_profesionales",
    ciudad: "Valladolid",
    provincia: "Valladolid",
    codigo_postal: "47004",
    direccion: "Calle de Santiago 7, 2.º",
    gastos: ["servicios_profesionales", "mantenimiento_reparaciones"],
    iban: true,
  },
  {
    razon_social: "Formación Empresarial Giralda S.L.",
    nif: "B",
    categoria: "servicios_profesionales",
    ciudad: "Sevilla",
    provincia: "Sevilla",
    codigo_postal: "41018",
    direccion: "Avenida de San Francisco Javier 9",
    dominio: "formaciongiralda",
    gastos: ["formacion"],
    iban: true,
  },
  {
    razon_social: "Academia de Idiomas Babel Centro S.L.",
    nombre_comercial: "Babel Idiomas",
    nif: "B",
    categoria: "servicios_profesionales",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28004",
    direccion: "Calle de Fuencarral 80",
    dominio: "babelidiomas",
    gastos: ["formacion"],
    iban: true,
  },
  {
    razon_social: "Escuela de Negocios del Cantábrico",
    nif: "G",
    categoria: "servicios_profesionales",
    ciudad: "Santander",
    provincia: "Cantabria",
    codigo_postal: "39005",
    direccion: "Avenida de los Castros 44",
    dominio: "encantabrico",
    gastos: ["formacion"],
    iban: true,
  },
  {
    razon_social: "Prevención de Riesgos Laborales Atalaya S.L.",
    nif: "B",
    categoria: "servicios_profesionales",
    ciudad: "Murcia",
    provincia: "Murcia",
    codigo_postal: "30008",
    direccion: "Avenida de la Libertad 6",
    dominio: "prlatalaya",
    gastos: ["servicios_profesionales", "formacion"],
    iban: true,
  },
  {
    razon_social: "Talento Sur Recursos Humanos S.L.",
    nif: "B",
    categoria: "servicios_profesionales",
    ciudad: "Granada",
    provincia: "Granada",
    codigo_postal: "18005",
    direccion: "Camino de Ronda 101",
    dominio: "talentosur",
    gastos: ["servicios_profesionales"],
  },
  // Logística
  {
    razon_social: "Mensajería Urgente Peninsular S.L.",
    nombre_comercial: "MensaExpress",
    nif: "B",
    categoria: "logistica",
    ciudad: "Coslada",
    provincia: "Madrid",
    codigo_postal: "28821",
    direccion: "Avenida de la Fundición 14",
    dominio: "mensaexpress",
    gastos: ["mensajeria"],
    iban: true,
  },
  {
    razon_social: "Transportes y Paquetería Ebro S.L.",
    nif: "B",
    categoria: "logistica",
    ciudad: "Zaragoza",
    provincia: "Zaragoza",
    codigo_postal: "50197",
    direccion: "Plataforma Logística PLAZA, calle Osaka 3",
    dominio: "paqueteriaebro",
    gastos: ["mensajeria"],
    iban: true,
  },
  {
    razon_social: "Logística Integral Puerto de Valencia S.A.",
    nif: "A",
    categoria: "logistica",
    ciudad: "Valencia",
    provincia: "Valencia",
    codigo_postal: "46024",
    direccion: "Muelle del Turia, edificio 2",
    dominio: "lipvalencia",
    gastos: ["mensajeria"],
  },
  {
    razon_social: "Correo Rápido Andaluz S.L.",
    nif: "B",
    categoria: "logistica",
    ciudad: "Málaga",
    provincia: "Málaga",
    codigo_postal: "29004",
    direccion: "Calle de Hilera 5",
    dominio: "correorapidoandaluz",
    gastos: ["mensajeria"],
    activo: false,
    notas: "Dado de baja: incidencias repetidas en las entregas.",
  },
  // Mantenimiento
  {
    razon_social: "Mantenimientos Integrales Bizkaia S.L.",
    nif: "B",
    categoria: "mantenimiento",
    ciudad: "Barakaldo",
    provincia: "Bizkaia",
    codigo_postal: "48903",
    direccion: "Calle de Juan de Garay 8",
    dominio: "mibizkaia",
    gastos: ["mantenimiento_reparaciones"],
    iban: true,
  },
  {
    razon_social: "Climatización Levante Confort S.L.",
    nif: "B",
    categoria: "mantenimiento",
    ciudad: "Valencia",
    provincia: "Valencia",
    codigo_postal: "46017",
    direccion: "Avenida del Cid 120",
    dominio: "levanteconfort",
    gastos: ["mantenimiento_reparaciones"],
    iban: true,
  },
  {
    razon_social: "Limpiezas Profesionales Albor S.L.",
    nif: "B",
    categoria: "mantenimiento",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28039",
    direccion: "Calle de Bravo Murillo 310",
    dominio: "limpiezasalbor",
    gastos: ["mantenimiento_reparaciones", "otros"],
    iban: true,
  },
  {
    razon_social: "Electricidad Hermanos Soto S.C.",
    nif: "J",
    categoria: "mantenimiento",
    ciudad: "Sevilla",
    provincia: "Sevilla",
    codigo_postal: "41009",
    direccion: "Calle de Arroyo 61",
    gastos: ["mantenimiento_reparaciones"],
    iban: true,
  },
  {
    razon_social: "Talleres Mecánicos Ronda Sur S.L.",
    nif: "B",
    categoria: "mantenimiento",
    ciudad: "Getafe",
    provincia: "Madrid",
    codigo_postal: "28903",
    direccion: "Avenida de las Ciudades 33",
    dominio: "tallerrondasur",
    gastos: ["mantenimiento_reparaciones"],
  },
  {
    razon_social: "Carlos Benítez Rocha",
    nombre_comercial: "Cerrajería Benítez 24 h",
    nif: "NIE",
    categoria: "mantenimiento",
    ciudad: "Barcelona",
    provincia: "Barcelona",
    codigo_postal: "08026",
    direccion: "Carrer de Sant Antoni Maria Claret 230",
    gastos: ["mantenimiento_reparaciones"],
  },
  // Marketing
  {
    razon_social: "Agencia Creativa Mirador S.L.",
    nif: "B",
    categoria: "marketing",
    ciudad: "Barcelona",
    provincia: "Barcelona",
    codigo_postal: "08012",
    direccion: "Carrer de Verdi 15",
    dominio: "miradorcreativa",
    gastos: ["servicios_profesionales", "otros"],
    iban: true,
  },
  {
    razon_social: "Gráficas Alhambra S.L.",
    nombre_comercial: "Imprenta Alhambra",
    nif: "B",
    categoria: "marketing",
    ciudad: "Granada",
    provincia: "Granada",
    codigo_postal: "18015",
    direccion: "Polígono Juncaril, calle Loja 20",
    dominio: "graficasalhambra",
    gastos: ["material_oficina", "otros"],
    iban: true,
  },
  {
    razon_social: "Eventos y Congresos Mediterránea S.L.",
    nif: "B",
    categoria: "marketing",
    ciudad: "Alicante",
    provincia: "Alicante",
    codigo_postal: "03001",
    direccion: "Rambla de Méndez Núñez 24",
    dominio: "congresosmediterranea",
    gastos: ["atenciones_clientes", "otros"],
    iban: true,
  },
  {
    razon_social: "Publicidad Exterior Meridiano S.A.",
    nif: "A",
    categoria: "marketing",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28036",
    direccion: "Calle de Orense 70",
    dominio: "meridianopublicidad",
    gastos: ["otros"],
  },
  {
    razon_social: "Lucía Prats Vilanova",
    nombre_comercial: "Prats Foto y Vídeo",
    nif: "DNI",
    categoria: "marketing",
    ciudad: "Girona",
    provincia: "Girona",
    codigo_postal: "17002",
    direccion: "Carrer de la Força 9",
    gastos: ["servicios_profesionales"],
    iban: true,
  },
  // Hostelería y otros
  {
    razon_social: "Restaurante Casa Urrutia S.L.",
    nif: "B",
    categoria: "otros",
    ciudad: "Bilbao",
    provincia: "Bizkaia",
    codigo_postal: "48005",
    direccion: "Plaza Nueva 6",
    dominio: "casaurrutia",
    gastos: ["comidas", "atenciones_clientes"],
  },
  {
    razon_social: "Grupo Hostelero La Alameda S.L.",
    nombre_comercial: "Asador La Alameda",
    nif: "B",
    categoria: "otros",
    ciudad: "Sevilla",
    provincia: "Sevilla",
    codigo_postal: "41002",
    direccion: "Alameda de Hércules 31",
    dominio: "asadorlaalameda",
    gastos: ["comidas", "atenciones_clientes"],
  },
  {
    razon_social: "Cafetería Restaurante El Cruce S.L.",
    nif: "B",
    categoria: "otros",
    ciudad: "Zaragoza",
    provincia: "Zaragoza",
    codigo_postal: "50010",
    direccion: "Avenida de Madrid 190",
    gastos: ["comidas"],
    activo: false,
  },
  {
    razon_social: "Restauración Colectiva Meseta S.L.",
    nombre_comercial: "Catering Meseta",
    nif: "B",
    categoria: "otros",
    ciudad: "Madrid",
    provincia: "Madrid",
    codigo_postal: "28022",
    direccion: "Calle de Albasanz 16",
    dominio: "cateringmeseta",
    gastos: ["comidas", "atenciones_clientes"],
    iban: true,
  },
  {
    razon_social: "Marisquería O Porto Vello S.L.",
    nif: "B",
    categoria: "otros",
    ciudad: "Vigo",
    provincia: "Pontevedra",
    codigo_postal: "36202",
    direccion: "Rúa de Montero Ríos 14",
    gastos: ["comidas", "atenciones_clientes"],
  },
  {
    razon_social: "Vinoteca Rioja Alta S.L.",
    nombre_comercial: "Rioja Alta Regalos de Empresa",
    nif: "B",
    categoria: "otros",
    ciudad: "Logroño",
    provincia: "La Rioja",
    codigo_postal: "26001",
    direccion: "Calle del Laurel 22",
    dominio: "riojaaltaregalos",
    gastos: ["atenciones_clientes"],
    iban: true,
  },
  {
    razon_social: "Montserrat Puig Casals",
    nombre_comercial: "Floristería Jardí de Gràcia",
    nif: "DNI",
    categoria: "otros",
    ciudad: "Barcelona",
    provincia: "Barcelona",
    codigo_postal: "08012",
    direccion: "Carrer Gran de Gràcia 140",
    gastos: ["atenciones_clientes", "otros"],
  },
];

const PREFIJO_TELEFONO: Record<string, string> = {
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

// ---------------------------------------------------------------------------------------------
// Plantillas de gastos
// ---------------------------------------------------------------------------------------------

type Plantilla = {
  texto: string;
  min: number; // euros
  max: number;
  iva: number; // % incluido en el importe
};

const P = (texto: string, min: number, max: number, iva: number): Plantilla => ({ texto, min, max, iva });

const PLANTILLAS: Record<CategoriaGasto, Plantilla[]> = {
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

const CIUDADES = [
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
const EXTRANJERO = ["Lisboa", "París", "Londres", "Milán", "Fráncfort", "Ciudad de México", "Bruselas", "Oporto"];
const CLIENTES = [
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
const CURSOS = [
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
const TEMAS = [
  "comercio electrónico",
  "transformación digital",
  "gestión de personas",
  "logística",
  "marketing digital",
  "ciberseguridad",
  "finanzas corporativas",
  "inteligencia artificial aplicada",
];
const MOTIVOS_RECHAZO = [
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
const NOTAS = [
  "Adjunto el ticket escaneado.",
  "Incluye desayuno.",
  "Asistentes: dos personas del cliente y yo.",
  "Pagado con la tarjeta corporativa terminada en 4821.",
  "Imputar al proyecto de implantación.",
  "Reunión aplazada desde la semana anterior.",
  "Precio con descuento de empresa.",
  "La factura original se envía por correo interno a Finanzas.",
];

type Grupo = "ventas" | "tecnologia" | "operaciones" | "marketing" | "general";

function grupoDe(codigo: string | null | undefined): Grupo {
  switch (codigo) {
    case "VNO":
    case "VSU":
    case "COM":
      return "ventas";
    case "TEC":
    case "SIS":
    case "DES":
      return "tecnologia";
    case "OPE":
      return "operaciones";
    case "MKT":
      return "marketing";
    default:
      return "general";
  }
}

const PESOS_CATEGORIA: Record<Grupo, Partial<Record<CategoriaGasto, number>>> = {
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

const PESOS_METODO: Record<CategoriaGasto, Partial<Record<MetodoPago, number>>> = {
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
const CON_PROVEEDOR: Partial<Record<CategoriaGasto, number>> = {
  viajes_transporte: 0.65,
  comidas: 0.7,
  aparcamiento_peajes: 0.6,
  combustible: 0.8,
  otros: 0.6,
};

// ---------------------------------------------------------------------------------------------
// Contexto: lo que hay en la base de datos
// ---------------------------------------------------------------------------------------------

type CtxUsuario = {
  id: string;
  email: string;
  rol: Rol;
  activo: boolean;
  departamento_id: string;
  sucursal_id: string;
  aprobador_id: string | null;
  grupo: Grupo;
  ciudad: string;
  peso: number;
};
type CtxDepartamento = { id: string; codigo: string; responsable_id: string | null; padre_id: string | null };
type CtxProveedor = { id: string; activo: boolean; gastos: CategoriaGasto[] };

type Ctx = {
  usuarios: CtxUsuario[];
  porId: Map<string, CtxUsuario>;
  departamentos: Map<string, CtxDepartamento>;
  /** Administradores activos por creado_en, id (como interno.elegir_aprobador). */
  admins: CtxUsuario[];
  /** Para gastos recientes: proveedores activos que siguen activos al terminar la carga. */
  proveedoresActivos: Map<CategoriaGasto, CtxProveedor[]>;
  /** Para gastos antiguos: también los que se darán de baja al terminar (`deBaja`). */
  proveedoresTodos: Map<CategoriaGasto, CtxProveedor[]>;
  hoy: string;
  ahora: number;
};

/** `deBaja`: proveedores que se darán de baja al terminar (solo pueden tener gastos antiguos). */
async function loadContext(trx: Trx | DB, deBaja: ReadonlySet<string> = new Set()): Promise<Ctx> {
  const usuarios = await sql<{
    id: string;
    email: string;
    rol: Rol;
    activo: boolean;
    departamento_id: string | null;
    sucursal_id: string | null;
    aprobador_id: string | null;
    creado_en: string;
    codigo: string | null;
    ciudad: string | null;
  }>`
    select u.id, u.email, u.rol, u.activo, u.departamento_id, u.sucursal_id, u.aprobador_id,
           u.creado_en::text as creado_en, d.codigo, s.ciudad
    from public.usuarios u
    left join public.departamentos d on d.id = u.departamento_id
    left join public.sucursales s on s.id = u.sucursal_id
    order by u.creado_en, u.id`.execute(trx);
  const departamentos = await sql<{
    id: string;
    codigo: string;
    responsable_id: string | null;
    departamento_padre_id: string | null;
  }>`
    select id, codigo, responsable_id, departamento_padre_id from public.departamentos order by codigo`.execute(trx);
  const proveedores = await sql<{
    id: string;
    nif: string;
    razon_social: string;
    categoria: CategoriaProveedor;
    activo: boolean;
  }>`
    select id, nif, razon_social, categoria, activo from public.proveedores order by razon_social, id`.execute(trx);

  const porNombre = new Map(PROVEEDORES.map((p) => [p.razon_social, p]));
  const ctx: Ctx = {
    usuarios: [],
    porId: new Map(),
    departamentos: new Map(),
    admins: [],
    proveedoresActivos: new Map(),
    proveedoresTodos: new Map(),
    hoy: todayISO(),
    ahora: Date.now() - MINUTE,
  };
  for (const d of departamentos.rows) {
    ctx.departamentos.set(d.id, {
      id: d.id,
      codigo: d.codigo,
      responsable_id: d.responsable_id,
      padre_id: d.departamento_padre_id,
    });
  }
  for (const u of usuarios.rows) {
    const grupo = grupoDe(u.codigo);
    const usuario: CtxUsuario = {
      id: u.id,
      email: u.email,
      rol: u.rol,
      activo: u.activo,
      departamento_id: u.departamento_id ?? "",
      sucursal_id: u.sucursal_id ?? "",
      aprobador_id: u.aprobador_id,
      grupo,
      ciudad: u.ciudad ?? "Madrid",
      peso: grupo === "ventas" ? 3 : grupo === "marketing" ? 2 : u.codigo === "DIR" ? 1.5 : 1,
    };
    ctx.porId.set(u.id, usuario);
    if (u.departamento_id && u.sucursal_id) ctx.usuarios.push(usuario);
    if (u.rol === "administrador" && u.activo) ctx.admins.push(usuario);
  }
  for (const p of proveedores.rows) {
    const def = porNombre.get(p.razon_social);
    const activo = p.activo && !deBaja.has(p.razon_social);
    const proveedor: CtxProveedor = {
      id: p.id,
      activo,
      gastos: def?.gastos ?? GASTOS_POR_CATEGORIA_PROVEEDOR[p.categoria] ?? ["otros"],
    };
    // La base de datos no admite gastos nuevos de un proveedor ya inactivo.
    if (!p.activo) continue;
    for (const cat of proveedor.gastos) {
      if (!ctx.proveedoresTodos.has(cat)) ctx.proveedoresTodos.set(cat, []);
      ctx.proveedoresTodos.get(cat)!.push(proveedor);
      if (activo) {
        if (!ctx.proveedoresActivos.has(cat)) ctx.proveedoresActivos.set(cat, []);
        ctx.proveedoresActivos.get(cat)!.push(proveedor);
      }
    }
  }
  return ctx;
}

/** El aprobador que asignaría `enviar_gasto` (misma cadena que interno.elegir_aprobador). */
function elegirAprobador(ctx: Ctx, solicitante: CtxUsuario): string | null {
  const propio = solicitante.aprobador_id ? ctx.porId.get(solicitante.aprobador_id) : undefined;
  if (
    propio &&
    propio.id !== solicitante.id &&
    propio.activo &&
    (propio.rol === "aprobador" || propio.rol === "administrador")
  ) {
    return propio.id;
  }
  let departamento = ctx.departamentos.get(solicitante.departamento_id);
  for (let vueltas = 0; departamento && vueltas < 100; vueltas++) {
    const responsable = departamento.responsable_id ? ctx.porId.get(departamento.responsable_id) : undefined;
    if (responsable && responsable.id !== solicitante.id && responsable.activo) return responsable.id;
    departamento = departamento.padre_id ? ctx.departamentos.get(departamento.padre_id) : undefined;
  }
  return ctx.admins.find((a) => a.id !== solicitante.id)?.id ?? null;
}

// ---------------------------------------------------------------------------------------------
// Generación de gastos
// ---------------------------------------------------------------------------------------------

type Gasto = {
  descripcion: string;
  fecha_gasto: string;
  categoria: CategoriaGasto;
  importe: string;
  importe_impuestos: string | null;
  metodo_pago: MetodoPago;
  proveedor_id: string | null;
  numero_factura: string | null;
  solicitante_id: string;
  departamento_id: string;
  sucursal_id: string;
  aprobador_id: string | null;
  aprobado_por_id: string | null;
  fecha_aprobacion: string | null;
  estado: EstadoGasto;
  motivo_rechazo: string | null;
  fecha_pago: string | null;
  referencia_pago: string | null;
  notas: string | null;
  creado_en: string;
  actualizado_en: string;
  version: number;
  /** Para ordenar: los folios siguen el orden de alta. */
  creado_ms: number;
};

/** Estado verosímil según la antigüedad del gasto (los recientes, aún en curso). */
function estadoSegunAntiguedad(rng: Rng, dias: number): EstadoGasto {
  if (dias <= 7) return rng.weighted({ borrador: 35, pendiente: 42, aprobado: 13, rechazado: 5, pagado: 5 });
  if (dias <= 30) return rng.weighted({ borrador: 10, pendiente: 28, aprobado: 30, rechazado: 8, pagado: 24 });
  if (dias <= 90) return rng.weighted({ borrador: 3, pendiente: 6, aprobado: 18, rechazado: 8, pagado: 65 });
  if (dias <= 300) return rng.weighted({ borrador: 1, pendiente: 1, aprobado: 5, rechazado: 7, pagado: 86 });
  return rng.weighted({ aprobado: 3, rechazado: 6, pagado: 91 });
}

function rellenar(rng: Rng, texto: string, usuario: CtxUsuario, fecha: string): string {
  return texto.replace(/\{(\w+)\}/g, (_, clave: string) => {
    switch (clave) {
      case "ciudad": {
        let ciudad = rng.pick(CIUDADES);
        for (let i = 0; i < 3 && ciudad === usuario.ciudad; i++) ciudad = rng.pick(CIUDADES);
        return ciudad;
      }
      case "origen":
        return usuario.ciudad;
      case "cliente":
        return rng.pick(CLIENTES);
      case "mes":
        return mesDe(fecha);
      case "curso":
        return rng.pick(CURSOS);
      case "tema":
        return rng.pick(TEMAS);
      case "extranjero":
        return rng.pick(EXTRANJERO);
      case "noches":
        return String(rng.int(2, 4));
      case "n":
        return String(rng.int(1, 4));
      default:
        return clave;
    }
  });
}

function numeroFactura(rng: Rng, fecha: string, conProveedor: boolean): string {
  const anio = fecha.slice(0, 4);
  switch (conProveedor ? rng.int(0, 3) : 4) {
    case 0:
      return `F-${anio}-${String(rng.int(1, 99999)).padStart(5, "0")}`;
    case 1:
      return `${anio}/${String(rng.int(1, 9999)).padStart(4, "0")}`;
    case 2:
      return `FV${anio.slice(2)}${String(rng.int(1, 999999)).padStart(6, "0")}`;
    case 3:
      return `A${anio}-${rng.int(100, 9999)}`;
    default:
      return `T-${String(rng.int(1, 999999)).padStart(6, "0")}`;
  }
}

function buildGasto(rng: Rng, ctx: Ctx, usuario: CtxUsuario, fecha: string, estado: EstadoGasto): Gasto {
  const dias = diffDaysISO(fecha, ctx.hoy);
  const categoria = rng.weighted(PESOS_CATEGORIA[usuario.grupo]);
  const plantilla = rng.pick(PLANTILLAS[categoria]);
  const descripcion = rellenar(rng, plantilla.texto, usuario, fecha).slice(0, 255);

  let cents = rng.int(plantilla.min * 100, plantilla.max * 100);
  if (plantilla.max >= 300) cents = Math.round(cents / 100) * 100 + (rng.chance(0.5) ? 0 : rng.pick([50, 95, 99]));
  cents = Math.max(cents, 100);
  const ivaNulo = plantilla.iva === 0 ? rng.chance(0.6) : rng.chance(0.08);
  const impuestos = ivaNulo ? null : Math.round((cents * plantilla.iva) / (100 + plantilla.iva));

  const metodo = rng.weighted(PESOS_METODO[categoria]);
  let proveedor: CtxProveedor | undefined;
  if (rng.chance(CON_PROVEEDOR[categoria] ?? 0.9)) {
    const lista = (dias > 180 ? ctx.proveedoresTodos : ctx.proveedoresActivos).get(categoria) ?? [];
    if (lista.length > 0) proveedor = rng.pick(lista);
  }
  const factura = proveedor || rng.chance(0.4) ? numeroFactura(rng, fecha, Boolean(proveedor)) : null;

  // Momentos del flujo, siempre en orden y nunca en el futuro.
  const tope = ctx.ahora;
  const clamp = (ms: number, desde: number) => Math.max(desde, Math.min(ms, tope - rng.int(1, 30) * MINUTE));
  const retraso = rng.weighted({ mismo: 60, pocos: 30, muchos: 10 });
  const diasAlta = retraso === "mismo" ? 0 : retraso === "pocos" ? rng.int(1, 3) : rng.int(4, 10);
  const creado = clamp(dayStartMs(fecha) + diasAlta * DAY + rng.int(7 * 60, 19 * 60) * MINUTE, 0);
  let actualizado = creado;
  let version = 1;

  let aprobador: string | null = null;
  let aprobadoPor: string | null = null;
  let fechaAprobacion: string | null = null;
  let motivo: string | null = null;
  let fechaPago: string | null = null;
  let referencia: string | null = null;

  if (estado !== "borrador") {
    aprobador = elegirAprobador(ctx, usuario);
    const enviado = clamp(creado + rng.int(5, 48 * 60) * MINUTE, creado);
    actualizado = enviado;
    version = 2;
    if (estado !== "pendiente") {
      const decidido = clamp(enviado + rng.int(60, 6 * 24 * 60) * MINUTE, enviado);
      actualizado = decidido;
      version = 3;
      if (estado === "rechazado") {
        motivo = rng.pick(MOTIVOS_RECHAZO);
      } else {
        aprobadoPor = aprobador;
        if (!aprobadoPor || (rng.chance(0.05) && ctx.admins.length > 0)) {
          aprobadoPor = ctx.admins.find((a) => a.id !== usuario.id)?.id ?? aprobador;
        }
        fechaAprobacion = new Date(decidido).toISOString();
        if (estado === "pagado") {
          let pago = addDaysISO(isoOfMs(decidido), rng.int(1, 20));
          if (pago > ctx.hoy) pago = ctx.hoy;
          if (pago < fecha) pago = fecha;
          fechaPago = pago;
          referencia = rng.chance(0.8)
            ? `TRF-${pago.replaceAll("-", "")}-${String(rng.int(1, 9999)).padStart(4, "0")}`
            : `REM-${pago.slice(0, 7)}-${String(rng.int(1, 999)).padStart(3, "0")}`;
          actualizado = clamp(dayStartMs(pago) + rng.int(9 * 60, 17 * 60) * MINUTE, decidido);
          version = 4;
        }
      }
    }
  }

  return {
    descripcion,
    fecha_gasto: fecha,
    categoria,
    importe: centsToDecimal(cents),
    importe_impuestos: impuestos === null ? null : centsToDecimal(impuestos),
    metodo_pago: metodo,
    proveedor_id: proveedor?.id ?? null,
    numero_factura: factura,
    solicitante_id: usuario.id,
    departamento_id: usuario.departamento_id,
    sucursal_id: usuario.sucursal_id,
    aprobador_id: aprobador,
    aprobado_por_id: aprobadoPor,
    fecha_aprobacion: fechaAprobacion,
    estado,
    motivo_rechazo: motivo,
    fecha_pago: fechaPago,
    referencia_pago: referencia,
    notas: rng.chance(0.1) ? rng.pick(NOTAS) : null,
    creado_en: new Date(creado).toISOString(),
    actualizado_en: new Date(actualizado).toISOString(),
    version,
    creado_ms: creado,
  };
}

/** Fecha de gasto `dias` antes de hoy; los fines de semana, casi siempre el viernes anterior. */
function fechaHace(rng: Rng, ctx: Ctx, dias: number): string {
  let fecha = addDaysISO(ctx.hoy, -dias);
  const dow = new Date(`${fecha}T00:00:00Z`).getUTCDay();
  if ((dow === 0 || dow === 6) && rng.chance(0.7)) {
    const atras = dow === 6 ? 1 : 2;
    if (dias + atras <= DAYS_BACK) fecha = addDaysISO(fecha, -atras);
  }
  return fecha;
}

class Elegidor {
  private readonly acumulado: number[] = [];
  private total = 0;
  constructor(private readonly usuarios: CtxUsuario[]) {
    for (const u of usuarios) {
      this.total += u.peso;
      this.acumulado.push(this.total);
    }
  }
  get vacio() {
    return this.usuarios.length === 0;
  }
  pick(rng: Rng): CtxUsuario {
    const r = rng.float() * this.total;
    let lo = 0;
    let hi = this.acumulado.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.acumulado[mid]! > r) hi = mid;
      else lo = mid + 1;
    }
    return this.usuarios[lo]!;
  }
}

/** Gasto al azar de un usuario al azar, con fecha entre `desde` y `hasta` días atrás. */
function gastoAlAzar(rng: Rng, ctx: Ctx, activos: Elegidor, todos: Elegidor, desde: number, hasta: number): Gasto {
  const dias = rng.int(desde, hasta);
  const fecha = fechaHace(rng, ctx, dias);
  const real = diffDaysISO(fecha, ctx.hoy);
  // Quien ya no está (inactivo) solo tiene gastos antiguos y cerrados.
  const usuario = real > 200 ? todos.pick(rng) : activos.pick(rng);
  let estado = estadoSegunAntiguedad(rng, real);
  if (!usuario.activo && (estado === "borrador" || estado === "pendiente" || estado === "aprobado")) estado = "pagado";
  return buildGasto(rng, ctx, usuario, fecha, estado);
}

const COLUMNAS_GASTO = [
  ["descripcion", "text"],
  ["fecha_gasto", "date"],
  ["categoria", "text"],
  ["importe", "numeric"],
  ["importe_impuestos", "numeric"],
  ["metodo_pago", "text"],
  ["proveedor_id", "uuid"],
  ["numero_factura", "text"],
  ["solicitante_id", "uuid"],
  ["departamento_id", "uuid"],
  ["sucursal_id", "uuid"],
  ["aprobador_id", "uuid"],
  ["aprobado_por_id", "uuid"],
  ["fecha_aprobacion", "timestamptz"],
  ["estado", "text"],
  ["motivo_rechazo", "text"],
  ["fecha_pago", "date"],
  ["referencia_pago", "text"],
  ["notas", "text"],
  ["creado_en", "timestamptz"],
  ["actualizado_en", "timestamptz"],
  ["version", "int"],
] as const satisfies readonly (readonly [keyof Gasto, string])[];

/** `unnest(…) with ordinality as t(<columnas>, orden)` con los gastos, en columnas. */
function filasGastos(gastos: Gasto[]) {
  const columnas = COLUMNAS_GASTO.map(([c]) => sql.ref(c));
  const arrays = COLUMNAS_GASTO.map(([c, tipo]) => sql`${gastos.map((g) => g[c])}::${sql.raw(tipo)}[]`);
  return {
    columnas: sql.join(columnas),
    deT: sql.join(COLUMNAS_GASTO.map(([c]) => sql.ref(`t.${c}`))),
    from: sql`unnest(${sql.join(arrays)}) with ordinality as t(${sql.join(columnas)}, orden)`,
  };
}

/**
 * Inserta los gastos en el orden dado con un solo `insert … select from unnest(…)`. Los
 * disparadores de la tabla ponen el folio (contador por año de creado_en) y el historial.
 */
async function insertGastos(trx: Trx, gastos: Gasto[]): Promise<string[]> {
  if (gastos.length === 0) return [];
  const f = filasGastos(gastos);
  const { rows } = await sql<{ id: string }>`
    insert into public.gastos (${f.columnas})
    select ${f.deT} from ${f.from}
    order by t.orden
    returning id`.execute(trx);
  return rows.map((r) => r.id);
}

/** Disparadores de alta de gastos que la carga masiva hace ella misma, por conjuntos. */
const DISPARADORES_RAPIDOS = ["gastos_asignar_folio", "gastos_validar", "registrar_historial"] as const;

/** ¿Puede usarse la vía rápida? Hace falta ser propietario de gastos y que existan esos disparadores. */
async function viaRapidaDisponible(db: DB): Promise<boolean> {
  const { rows } = await sql<{ propietario: boolean; disparadores: string[] | null }>`
    select pg_catalog.pg_has_role(current_user, c.relowner, 'USAGE') as propietario,
           array_agg(t.tgname::text) filter (where t.tgname is not null) as disparadores
      from pg_catalog.pg_class c
      left join pg_catalog.pg_trigger t on t.tgrelid = c.oid and not t.tgisinternal and t.tgenabled <> 'D'
     where c.oid = 'public.gastos'::regclass
     group by c.relowner`.execute(db);
  const fila = rows[0];
  return Boolean(fila?.propietario) && DISPARADORES_RAPIDOS.every((d) => fila?.disparadores?.includes(d));
}

/**
 * Vía rápida de la carga masiva: lo mismo que harían los disparadores de alta, pero por lotes.
 * Dentro de la transacción del lote (y solo en ella: el cambio de catálogo es transaccional y el
 * bloqueo de ALTER TABLE hace esperar a quien escriba gastos mientras tanto):
 * - desactiva gastos_asignar_folio, gastos_validar, registrar_historial y contar_cambio (que se
 *   avanza una vez al final; las claves foráneas y
 *   cualquier otro disparador siguen activos);
 * - reserva en gastos_folio_contador un tramo de números por año de creado_en (el mismo año y la
 *   misma zona horaria que usaría el disparador) y pone los folios GAS-AAAA-NNNNN en orden;
 * - escribe el alta de cada gasto en el historial como registrar_historial (todas las columnas
 *   no nulas salvo id, creado_en, actualizado_en y version; actor null, como toda carga del
 *   propietario), con la fecha de alta del gasto;
 * - vuelve a activar los disparadores.
 * gastos_validar no hace falta: los gastos llevan departamento, sucursal y creado_en, y solo
 * proveedores activos.
 */
async function insertGastosRapido(trx: Trx, gastos: Gasto[]): Promise<void> {
  if (gastos.length === 0) return;
  // contar_cambio too: its events wait for the commit, and ALTER TABLE refuses a table with any
  // pending. The change counter is advanced once below instead.
  await sql`alter table public.gastos
    disable trigger gastos_asignar_folio, disable trigger gastos_validar, disable trigger registrar_historial, disable trigger contar_cambio`.execute(
    trx,
  );

  const creados = gastos.map((g) => g.creado_en);
  const { rows: tramos } = await sql<{ anio: number; base: number }>`
    with y as (
      select extract(year from x)::integer as anio, count(*)::integer as n
        from unnest(${creados}::timestamptz[]) as x group by 1
    ), reservado as (
      insert into public.gastos_folio_contador as c (anio, ultimo)
      select anio, n from y
      on conflict (anio) do update set ultimo = c.ultimo + excluded.ultimo
      returning c.anio, c.ultimo
    )
    select r.anio, r.ultimo - y.n as base from reservado r join y using (anio)`.execute(trx);

  const f = filasGastos(gastos);
  const { rows } = await sql<{ id: string }>`
    insert into public.gastos (folio, ${f.columnas})
    select 'GAS-' || t.anio || '-' || lpad(t.numero::text, greatest(5, length(t.numero::text)), '0'), ${f.deT}
      from (
        select t.*, a.anio, b.base + row_number() over (partition by a.anio order by t.orden) as numero
          from ${f.from}
         cross join lateral (select extract(year from t.creado_en)::integer as anio) a
          join unnest(${tramos.map((r) => r.anio)}::integer[], ${tramos.map((r) => r.base)}::integer[]) as b(anio, base)
            on b.anio = a.anio
      ) t
     order by t.orden
    returning id`.execute(trx);

  await sql`
    insert into public.historial (tabla, registro_id, accion, actor_id, cambios, creado_en)
    select 'gastos', g.id, 'alta', null,
           (select coalesce(jsonb_object_agg(d.key, jsonb_build_object('antes', null, 'despues', d.value)), '{}'::jsonb)
              from jsonb_each(to_jsonb(g)) d
             where d.value <> 'null'::jsonb and d.key <> all (array['id', 'creado_en', 'actualizado_en', 'version'])),
           g.creado_en
      from public.gastos g
     where g.id = any(${rows.map((r) => r.id)}::uuid[])
     order by g.creado_en, g.folio`.execute(trx);

  await sql`update interno.cambios set n = n + 1`.execute(trx);
  await sql`alter table public.gastos
    enable trigger gastos_asignar_folio, enable trigger gastos_validar, enable trigger registrar_historial, enable trigger contar_cambio`.execute(
    trx,
  );
}

// ---------------------------------------------------------------------------------------------
// Datos base
// ---------------------------------------------------------------------------------------------

export type SeedOptions = { gastos?: number; seed?: number };

async function seedBase(trx: Trx, options: SeedOptions, log: Log): Promise<void> {
  const seed = options.seed ?? DEFAULT_SEED;
  const totalGastos = options.gastos ?? DEFAULT_DEMO_GASTOS;
  const rng = new Rng(seed);
  const hoy = todayISO();
  const hace = (dias: number, hora = 9) => new Date(dayStartMs(addDaysISO(hoy, -dias)) + hora * HOUR).toISOString();

  // Cuentas: una sola derivación de la contraseña para las 40 (scrypt es lento a propósito).
  log(`Datos de demostración: ${USUARIOS.length} cuentas (contraseña «${DEMO_PASSWORD}»)…`);
  const hash = await hashPassword(DEMO_PASSWORD);
  const usuarioIds = new Map<string, string>();
  const cuentas = USUARIOS.map((u, i) => {
    const email = emailOf(u);
    const id = rng.uuid();
    usuarioIds.set(email, id);
    return {
      id,
      email,
      encrypted_password: hash,
      email_confirmed_at: sql`now()`,
      raw_user_meta_data: JSON.stringify({ nombre: u.nombre }),
      created_at: hace(DAYS_BACK + 200 - i * 3),
    };
  });
  // Un solo insert: el disparador crea los perfiles en este orden (la primera cuenta de un sistema
  // vacío es administradora; las demás, empleado, y se completan después).
  await trx.insertInto("auth.users").values(cuentas).execute();
  const idDe = (email: string) => {
    const id = usuarioIds.get(email);
    if (!id) throw new Error(`Usuario de demostración desconocido: ${email}`);
    return id;
  };

  log(`Datos de demostración: ${SUCURSALES.length} sucursales y ${DEPARTAMENTOS.length} departamentos…`);
  const sucursalIds = new Map<string, string>();
  await trx
    .insertInto("public.sucursales")
    .values(
      SUCURSALES.map((s, i) => {
        const id = rng.uuid();
        sucursalIds.set(s.codigo, id);
        return {
          id,
          nombre: s.nombre,
          codigo: s.codigo,
          direccion: s.direccion,
          ciudad: s.ciudad,
          provincia: s.provincia,
          codigo_postal: s.codigo_postal,
          pais: "ES",
          telefono: s.telefono,
          email: s.email,
          responsable_id: idDe(s.responsable),
          activo: true,
          creado_en: hace(DAYS_BACK + 190 - i),
          actualizado_en: hace(DAYS_BACK + 190 - i),
        };
      }),
    )
    .execute();

  const departamentoIds = new Map<string, string>();
  for (const d of DEPARTAMENTOS) departamentoIds.set(d.codigo, rng.uuid());
  await trx
    .insertInto("public.departamentos")
    .values(
      DEPARTAMENTOS.map((d, i) => ({
        id: departamentoIds.get(d.codigo)!,
        nombre: d.nombre,
        codigo: d.codigo,
        departamento_padre_id: d.padre ? departamentoIds.get(d.padre)! : null,
        responsable_id: idDe(d.responsable),
        centro_costo: d.centro_costo,
        presupuesto_mensual: d.presupuesto === null ? null : centsToDecimal(d.presupuesto * 100),
        activo: true,
        notas: d.notas ?? null,
        creado_en: hace(DAYS_BACK + 185 - i),
        actualizado_en: hace(DAYS_BACK + 185 - i),
      })),
    )
    .execute();

  log("Datos de demostración: perfiles de usuario (rol, departamento, sucursal, aprobador)…");
  const responsableDe = (codigo: string | null, excepto: string): string | null => {
    for (let c = codigo; c; c = DEPARTAMENTOS.find((d) => d.codigo === c)?.padre ?? null) {
      const r = DEPARTAMENTOS.find((d) => d.codigo === c)!.responsable;
      if (r !== excepto) return r;
    }
    return null;
  };
  const perfiles = USUARIOS.map((u, i) => {
    const email = emailOf(u);
    const aprobador = u.aprobador === undefined ? responsableDe(u.departamento, email) : u.aprobador;
    const movil = telefono(rng, rng.pick(["6", "6", "6", "7"]));
    return {
      id: idDe(email),
      apellidos: u.apellidos,
      rol: u.rol,
      departamento_id: departamentoIds.get(u.departamento)!,
      sucursal_id: sucursalIds.get(u.sucursal)!,
      aprobador_id: aprobador ? idDe(aprobador) : null,
      puesto: u.puesto,
      telefono: movil,
      activo: u.activo ?? true,
      creado_en: hace(DAYS_BACK + 200 - i * 3),
    };
  });
  const col = <K extends keyof (typeof perfiles)[number]>(k: K) => perfiles.map((p) => p[k]);
  await sql`
    update public.usuarios u
       set apellidos = v.apellidos, rol = v.rol, departamento_id = v.departamento_id,
           sucursal_id = v.sucursal_id, aprobador_id = v.aprobador_id, puesto = v.puesto,
           telefono = v.telefono, activo = v.activo, creado_en = v.creado_en
      from unnest(${col("id")}::uuid[], ${col("apellidos")}::text[], ${col("rol")}::text[],
                  ${col("departamento_id")}::uuid[], ${col("sucursal_id")}::uuid[],
                  ${col("aprobador_id")}::uuid[], ${col("puesto")}::text[], ${col("telefono")}::text[],
                  ${col("activo")}::boolean[], ${col("creado_en")}::timestamptz[])
           as v(id, apellidos, rol, departamento_id, sucursal_id, aprobador_id, puesto, telefono, activo, creado_en)
     where u.id = v.id`.execute(trx);

  log(`Datos de demostración: ${PROVEEDORES.length} proveedores…`);
  const usados = new Set<number>();
  const numero = () => {
    let n = rng.int(1_000_000, 99_999_999);
    while (usados.has(n % 9_000_000)) n = rng.int(1_000_000, 99_999_999);
    usados.add(n % 9_000_000);
    return n;
  };
  const proveedores = PROVEEDORES.map((p, i) => {
    const pais = p.pais ?? "ES";
    let nif: string;
    if (p.nif === "DNI") nif = generateValidDni(numero());
    else if (p.nif === "NIE") nif = generateValidNie(numero());
    else if (/^[A-Z]$/.test(p.nif)) nif = generateValidCif(numero(), p.nif);
    else nif = p.nif;
    let iban: string | null = null;
    if (p.iban === true) iban = generateValidEsIban(numero());
    else if (p.iban === "IE") {
      const bban = `NIMB${String(rng.int(100000, 999999))}${String(rng.int(10_000_000, 99_999_999))}`;
      iban = `IE${ibanCheckDigits("IE", bban)}${bban}`;
    }
    const fisica = p.nif === "DNI" || p.nif === "NIE";
    const prefijo = pais === "ES" ? (PREFIJO_TELEFONO[p.provincia] ?? "9") : null;
    const email = p.dominio
      ? `${rng.pick(["facturacion", "administracion", "info", "clientes"])}@${p.dominio}.example`
      : `${slugEmail(p.razon_social.split(" ").slice(0, 2).join(" "))}@correo.example`;
    return {
      id: rng.uuid(),
      razon_social: p.razon_social,
      nombre_comercial: p.nombre_comercial ?? null,
      tipo_persona: fisica ? "persona_fisica" : "empresa",
      pais,
      nif,
      email,
      telefono: prefijo ? telefono(rng, prefijo) : pais === "IE" ? "+353 1 555 0142" : "+351 21 555 0187",
      sitio_web: p.dominio ? `https://www.${p.dominio}.example` : null,
      direccion: p.direccion,
      ciudad: p.ciudad,
      provincia: p.provincia,
      codigo_postal: p.codigo_postal,
      iban,
      categoria: p.categoria,
      activo: true, // los inactivos se desactivan después de cargar sus gastos antiguos
      notas: p.notas ?? null,
      creado_en: hace(DAYS_BACK + 150 - i * 2),
      actualizado_en: hace(DAYS_BACK + 150 - i * 2),
    };
  });
  await trx.insertInto("public.proveedores").values(proveedores).execute();

  // Gastos
  log(`Datos de demostración: ${totalGastos} gastos…`);
  const inactivos = PROVEEDORES.filter((p) => p.activo === false).map((p) => p.razon_social);
  const ctx = await loadContext(trx, new Set(inactivos));
  const gastos: Gasto[] = [];
  const usuario = (email: string) => ctx.porId.get(idDe(email))!;

  // La empleada de demostración: varios gastos en cada estado; los pendientes, para Pablo.
  const elena = usuario(DEMO_ACCOUNTS.empleado);
  const cupos: [EstadoGasto, number, number, number][] = [
    ["borrador", 5, 0, 20],
    ["pendiente", 6, 0, 25],
    ["rechazado", 4, 10, 150],
    ["aprobado", 6, 2, 45],
    ["pagado", 24, 20, 520],
  ];
  for (const [estado, n, desde, hasta] of cupos) {
    for (let i = 0; i < n && gastos.length < totalGastos; i++) {
      gastos.push(buildGasto(rng, ctx, elena, fechaHace(rng, ctx, rng.int(desde, hasta)), estado));
    }
  }
  // Más pendientes para el aprobador de demostración, de su equipo de Ventas Norte.
  const ventasNorte = ctx.usuarios.filter(
    (u) =>
      u.departamento_id === elena.departamento_id &&
      u.activo &&
      u.id !== elena.id &&
      u.email !== DEMO_ACCOUNTS.aprobador,
  );
  for (const u of ventasNorte) {
    for (let i = 0; i < 3 && gastos.length < totalGastos; i++) {
      gastos.push(buildGasto(rng, ctx, u, fechaHace(rng, ctx, rng.int(0, 20)), "pendiente"));
    }
  }
  const activos = new Elegidor(ctx.usuarios.filter((u) => u.activo));
  const todos = new Elegidor(ctx.usuarios);
  while (gastos.length < totalGastos) {
    // Tres de cada cuatro repartidos en los 18 meses; el resto, en los dos últimos meses.
    gastos.push(
      rng.chance(0.75)
        ? gastoAlAzar(rng, ctx, activos, todos, 0, DAYS_BACK - 3)
        : gastoAlAzar(rng, ctx, activos, todos, 0, 60),
    );
  }
  gastos.sort((a, b) => a.creado_ms - b.creado_ms);
  for (let i = 0; i < gastos.length; i += 1000) await insertGastos(trx, gastos.slice(i, i + 1000));

  log(`Datos de demostración: ${inactivos.length} proveedores dados de baja…`);
  await trx.updateTable("public.proveedores").set({ activo: false }).where("razon_social", "in", inactivos).execute();

  // El historial de esta carga, fechado como los propios registros (y no todo «hoy»).
  await sql`
    update public.historial h
       set creado_en = case when h.accion = 'alta' then r.creado_en else greatest(r.actualizado_en, r.creado_en) end
      from (
        select 'gastos' as tabla, id, creado_en, actualizado_en from public.gastos
        union all select 'usuarios', id, creado_en, creado_en + interval '5 minutes' from public.usuarios
        union all select 'departamentos', id, creado_en, actualizado_en from public.departamentos
        union all select 'sucursales', id, creado_en, actualizado_en from public.sucursales
        union all select 'proveedores', id, creado_en, now() - interval '90 days' from public.proveedores
      ) r
     where h.tabla = r.tabla and h.registro_id = r.id and h.creado_en = now()`.execute(trx);
}

/** Carga los datos de demostración (en una transacción). Falla si ya existen. */
export async function seedDemo(db: DB, options: SeedOptions = {}): Promise<void> {
  await db.transaction().execute((trx) => seedBase(trx, options, () => {}));
}

/**
 * Si no hay ningún usuario, carga los datos de demostración y devuelve true; si no, no hace nada
 * y devuelve false. Dos servidores que arrancan a la vez no cargan dos veces.
 */
export async function seedIfEmpty(db: DB, log: Log, options: SeedOptions = {}): Promise<boolean> {
  const inicio = Date.now();
  const cargado = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('oficina.seed'))`.execute(trx);
    const { rows } = await sql<{ hay: boolean }>`select exists (select 1 from public.usuarios) as hay`.execute(trx);
    if (rows[0]?.hay) return false;
    await seedBase(trx, options, log);
    return true;
  });
  if (cargado) {
    log(
      `Datos de demostración cargados en ${((Date.now() - inicio) / 1000).toFixed(1)} s. ` +
        `Entre con ${DEMO_ACCOUNTS.administrador}, ${DEMO_ACCOUNTS.aprobador} o ${DEMO_ACCOUNTS.empleado} ` +
        `y la contraseña «${DEMO_PASSWORD}».`,
    );
  }
  return cargado;
}

// ---------------------------------------------------------------------------------------------
// Carga masiva
// ---------------------------------------------------------------------------------------------

export type AddGastosOptions = {
  seed?: number;
  batchSize?: number;
  log?: Log;
  /** Vía rápida (ver insertGastosRapido); por defecto, si es posible. false: disparadores por fila. */
  fast?: boolean;
};

/**
 * Añade `count` gastos sintéticos a lo que ya haya, repartidos en los últimos 18 meses (los
 * lotes van del más antiguo al más reciente, así los folios siguen el orden de alta). Usa los
 * usuarios activos con departamento y sucursal y los proveedores activos existentes. Un lote por
 * transacción. Folio e historial quedan como los dejarían los disparadores de alta (ver
 * insertGastosRapido; con `fast: false`, los propios disparadores, fila a fila).
 */
export async function addGastos(db: DB, count: number, options: AddGastosOptions = {}): Promise<void> {
  const log = options.log ?? (() => {});
  const batchSize = options.batchSize ?? 5000;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`Número de gastos no válido: ${count}`);
  if (count === 0) return;

  const ctx = await loadContext(db);
  const activos = ctx.usuarios.filter((u) => u.activo);
  if (activos.length === 0)
    throw new Error("No hay usuarios activos con departamento y sucursal a los que asignar gastos.");
  const elegidor = new Elegidor(activos);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.gastos`.execute(db);
  // Determinista para el mismo estado de partida, distinto en cada ejecución sucesiva.
  const rng = new Rng(((options.seed ?? DEFAULT_SEED) ^ Math.imul(rows[0]?.n ?? 0, 0x9e3779b1)) >>> 0);

  const rapida = options.fast ?? (await viaRapidaDisponible(db));
  if (!rapida)
    log(
      "Carga masiva con los disparadores de alta por fila (no es propietario de gastos o el esquema ha cambiado): será más lenta.",
    );
  const lotes = Math.ceil(count / batchSize);
  const inicio = Date.now();
  let hechos = 0;
  let avisado = 0;
  for (let lote = 0; lote < lotes; lote++) {
    const n = Math.min(batchSize, count - hechos);
    // El lote `lote` cubre una franja de días, de la más antigua a la más reciente.
    const desde = Math.floor(((lotes - lote - 1) * (DAYS_BACK - 3)) / lotes);
    const hasta = Math.max(desde, Math.floor(((lotes - lote) * (DAYS_BACK - 3)) / lotes) - 1);
    const gastos: Gasto[] = [];
    for (let i = 0; i < n; i++) gastos.push(gastoAlAzar(rng, ctx, elegidor, elegidor, desde, hasta));
    gastos.sort((a, b) => a.creado_ms - b.creado_ms);
    await db.transaction().execute(async (trx) => {
      if (rapida) return insertGastosRapido(trx, gastos);
      const ids = await insertGastos(trx, gastos);
      // El alta en el historial, con la fecha de alta del gasto.
      await sql`
        update public.historial h set creado_en = g.creado_en
          from public.gastos g
         where g.id = any(${ids}::uuid[])
           and h.tabla = 'gastos' and h.registro_id = g.id and h.accion = 'alta'`.execute(trx);
    });
    hechos += n;
    // Una línea por cada décima parte.
    if (Math.floor((hechos * 10) / count) > avisado) {
      avisado = Math.floor((hechos * 10) / count);
      const segundos = (Date.now() - inicio) / 1000;
      log(
        `Gastos sintéticos: ${hechos.toLocaleString("es-ES")} de ${count.toLocaleString("es-ES")} (${segundos.toFixed(0)} s, ${Math.round(hechos / Math.max(segundos, 0.001)).toLocaleString("es-ES")} por segundo)`,
      );
    }
  }
  await sql`analyze public.gastos`.execute(db);
  await sql`analyze public.historial`.execute(db);
}

// ---------------------------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------------------------

function parseArgs(argv: string[]) {
  const args: { gastos: number; databaseUrl?: string; seed?: number } = { gastos: 0 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`Falta el valor de ${flag}`);
      return v;
    };
    switch (flag) {
      case "--gastos": {
        const v = value().replace(/[_.]/g, "");
        if (!/^\d+$/.test(v)) throw new Error(`--gastos espera un número entero: ${v}`);
        args.gastos = Number(v);
        break;
      }
      case "--database-url":
        args.databaseUrl = value();
        break;
      case "--seed": {
        const v = value();
        if (!/^\d+$/.test(v)) throw new Error(`--seed espera un número entero: ${v}`);
        args.seed = Number(v);
        break;
      }
      case "-h":
      case "--help":
        console.info(
          "Uso: tsx scripts/seed.ts [--gastos N] [--database-url URL] [--seed N]\n" +
            "Carga los datos de demostración si la base está vacía y añade N gastos sintéticos.\n" +
            "Sin --database-url (ni DATABASE_URL) usa el Postgres integrado de DATA_DIR (./data).",
        );
        process.exit(0);
      default:
        throw new Error(`Opción desconocida: ${flag} (use --help)`);
    }
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const log = (line: string) => console.info(line);
  const { startEmbeddedPostgres } = await import("../app/data/embedded.server");
  const { migrate } = await import("../app/data/migrate.server");
  const { createDatabase } = await import("../app/data/sql/connection.server");

  let url = args.databaseUrl ?? process.env.DATABASE_URL;
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  if (!url) {
    const dataDir = process.env.DATA_DIR || "./data";
    embedded = await startEmbeddedPostgres(dataDir);
    url = embedded.url;
    log(`Base de datos integrada en ${path.resolve(dataDir)}`);
  }
  const db = createDatabase(url, 2);
  const inicio = Date.now();
  try {
    await migrate(url, log);
    await seedIfEmpty(db, log, { seed: args.seed });
    if (args.gastos > 0) {
      log(`Añadiendo ${args.gastos.toLocaleString("es-ES")} gastos sintéticos…`);
      await addGastos(db, args.gastos, { seed: args.seed, log });
    }
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.gastos`.execute(db);
    log(
      `Listo en ${((Date.now() - inicio) / 1000).toFixed(1)} s: ${(rows[0]?.n ?? 0).toLocaleString("es-ES")} gastos en total.`,
    );
  } finally {
    await db.destroy();
    await embedded?.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
