/**
 * La organización de demostración: las tres cuentas con las que se entra, las sucursales, los
 * departamentos (con su jerarquía) y las 40 personas. Solo datos; los identificadores, teléfonos
 * y fechas los pone el generador (scripts/seed/generator/organization.ts).
 */
import type { Rol } from "../../../app/lib/opciones";
import { generateValidCif } from "../../../app/lib/nif";

export const DEMO_PASSWORD = "demo-oficina-2026";
export const DEMO_ACCOUNTS = {
  administrador: "administrador@oficina.example",
  aprobador: "aprobador@oficina.example",
  empleado: "empleado@oficina.example",
} as const;

/** La empresa de demostración (la fila de `public.empresa`): su sede es la de Madrid. */
export const EMPRESA = {
  razon_social: "Oficina Demostración Servicios, S.L.",
  nif: generateValidCif(8_462_135, "B"),
  direccion: "Calle de Alcalá 120, 4.ª planta",
  codigo_postal: "28009",
  ciudad: "Madrid",
  provincia: "Madrid",
  pais: "ES",
};

/**
 * La cuenta desde la que paga la empresa de demostración (una fila de `public.cuentas_empresa`):
 * un IBAN español con sus dígitos de control (nacionales e IBAN) correctos.
 */
export const CUENTA_EMPRESA = {
  nombre: "Cuenta principal",
  iban: "ES2721005731780200123456",
  bic: "CAIXESBBXXX",
  sufijo: "000",
  formato: "pain.001.001.09",
  activa: true,
};

export type SucursalDef = {
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

export const SUCURSALES: SucursalDef[] = [
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

export type DepartamentoDef = {
  codigo: string;
  nombre: string;
  padre: string | null;
  centro_costo: string;
  presupuesto: number | null; // euros
  responsable: string; // email
  notas?: string;
};

export const DEPARTAMENTOS: DepartamentoDef[] = [
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

export type UsuarioDef = {
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

export const USUARIOS: UsuarioDef[] = [
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
