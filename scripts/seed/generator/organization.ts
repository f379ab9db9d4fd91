/**
 * Las filas de la organización de demostración (cuentas, sucursales, departamentos, perfiles y
 * proveedores) a partir del catálogo: identificadores, teléfonos, NIF, IBAN y fechas de alta.
 * Nada toca la base de datos; las escribe scripts/seed/loader.ts.
 */
import { addDaysISO, todayISO } from "../../../app/lib/dates";
import { generateValidEsIban, ibanCheckDigits } from "../../../app/lib/iban";
import { generateValidCif, generateValidDni, generateValidNie } from "../../../app/lib/nif";
import { DEPARTAMENTOS, SUCURSALES, USUARIOS, type UsuarioDef } from "../catalog/organization";
import { PREFIJO_TELEFONO, PROVEEDORES } from "../catalog/proveedores";
import { centsToDecimal, DAYS_BACK, dayStartMs, HOUR } from "./common";
import type { Rng } from "./random";

function slugEmail(s: string): string {
  return s
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ".")
    .replace(/^\.|\.$/g, "");
}

function emailOf(u: UsuarioDef): string {
  return u.email ?? `${slugEmail(u.nombre)}.${slugEmail(u.apellidos.split(" ")[0]!)}@oficina.example`;
}

function telefono(rng: Rng, prefijo: string): string {
  // "+34 91x xxx xxx": 9 cifras en grupos de 3.
  let digits = prefijo;
  while (digits.length < 9) digits += String(rng.int(0, 9));
  return `+34 ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6, 9)}`;
}

/** El responsable de un departamento o, si es `excepto`, el del primer superior que no lo sea. */
function responsableDe(codigo: string | null, excepto: string): string | null {
  for (let c = codigo; c; c = DEPARTAMENTOS.find((d) => d.codigo === c)?.padre ?? null) {
    const r = DEPARTAMENTOS.find((d) => d.codigo === c)!.responsable;
    if (r !== excepto) return r;
  }
  return null;
}

/** Los proveedores que se darán de baja al terminar la carga (antes, reciben gastos antiguos). */
export const PROVEEDORES_DE_BAJA = PROVEEDORES.filter((p) => p.activo === false).map((p) => p.razon_social);

export type Organization = ReturnType<typeof generateOrganization>;

/**
 * Todas las filas, en el orden en que se escriben. El orden de las llamadas a `rng` es el de
 * siempre (cuentas, sucursales, departamentos, perfiles, proveedores): ver random.ts.
 */
export function generateOrganization(rng: Rng) {
  const hoy = todayISO();
  const hace = (dias: number, hora = 9) => new Date(dayStartMs(addDaysISO(hoy, -dias)) + hora * HOUR).toISOString();

  const usuarioIds = new Map<string, string>();
  // Sin contraseña ni confirmación: las pone quien escribe (una sola derivación para todas).
  const cuentas = USUARIOS.map((u, i) => {
    const email = emailOf(u);
    const id = rng.uuid();
    usuarioIds.set(email, id);
    return {
      id,
      email,
      raw_user_meta_data: JSON.stringify({ nombre: u.nombre }),
      created_at: hace(DAYS_BACK + 200 - i * 3),
    };
  });
  const idDe = (email: string) => {
    const id = usuarioIds.get(email);
    if (!id) throw new Error(`Usuario de demostración desconocido: ${email}`);
    return id;
  };

  const sucursalIds = new Map<string, string>();
  const sucursales = SUCURSALES.map((s, i) => {
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
  });

  const departamentoIds = new Map<string, string>();
  for (const d of DEPARTAMENTOS) departamentoIds.set(d.codigo, rng.uuid());
  const departamentos = DEPARTAMENTOS.map((d, i) => ({
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
  }));

  // El alta de cada cuenta crea su perfil (empleado); esto lo completa.
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
      activo: true, // los de PROVEEDORES_DE_BAJA se desactivan después de cargar sus gastos antiguos
      notas: p.notas ?? null,
      creado_en: hace(DAYS_BACK + 150 - i * 2),
      actualizado_en: hace(DAYS_BACK + 150 - i * 2),
    };
  });

  return { cuentas, sucursales, departamentos, perfiles, proveedores };
}
