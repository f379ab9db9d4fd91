/**
 * Gastos sintéticos verosímiles: de quién, de qué, cuánto, con qué proveedor y en qué punto del
 * flujo, coherentes con lo que exigen la base de datos y el flujo de aprobación (el aprobador que
 * asignaría `enviar_gasto`, fechas en orden y nunca futuras, proveedores activos en los recientes).
 * Se generan sobre un contexto leído de la base de datos (scripts/seed/loader.ts), así sirven
 * igual para la demostración que para añadir gastos a una base con datos propios.
 */
import type { CategoriaGasto, CategoriaProveedor, EstadoGasto, MetodoPago, Rol } from "../../../app/lib/opciones";
import { addDaysISO, diffDaysISO, formatMonthKey, monthKey, todayISO } from "../../../app/lib/dates";
import { generateValidCif } from "../../../app/lib/nif";
import {
  CIUDADES,
  CLIENTES,
  CON_PROVEEDOR,
  CURSOS,
  EXTRANJERO,
  GRUPO_DE_DEPARTAMENTO,
  type Grupo,
  MOTIVOS_RECHAZO,
  NOTAS,
  PESOS_CATEGORIA,
  PESOS_METODO,
  PLANTILLAS,
  PROVEEDOR_DE_PLANTILLA,
  TEMAS,
} from "../catalog/gastos";
import { DEMO_ACCOUNTS } from "../catalog/organization";
import { GASTOS_POR_CATEGORIA_PROVEEDOR } from "../catalog/proveedor";
import { PROVEEDORES } from "../catalog/proveedores";
import { centsToDecimal, DAY, DAYS_BACK, dayStartMs, MINUTE } from "./common";
import type { Rng } from "./random";

// ---------------------------------------------------------------------------------------------
// Contexto: lo que hay en la base de datos
// ---------------------------------------------------------------------------------------------

/** Las filas que lee el cargador, en este orden (usuarios por creado_en, id; proveedores por razón social, id). */
export type ContextRows = {
  usuarios: {
    id: string;
    email: string;
    rol: Rol;
    activo: boolean;
    departamento_id: string | null;
    sucursal_id: string | null;
    aprobador_id: string | null;
    codigo: string | null;
    ciudad: string | null;
  }[];
  departamentos: { id: string; codigo: string; responsable_id: string | null; departamento_padre_id: string | null }[];
  proveedores: { id: string; razon_social: string; categoria: CategoriaProveedor; activo: boolean; pais: string }[];
};

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
/** `nombre`: razón social y nombre comercial, lo que PROVEEDOR_DE_PLANTILLA busca. */
type CtxProveedor = { id: string; gastos: CategoriaGasto[]; nombre: string; pais: string };

export type Ctx = {
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

function grupoDe(codigo: string | null): Grupo {
  return codigo !== null && Object.hasOwn(GRUPO_DE_DEPARTAMENTO, codigo) ? GRUPO_DE_DEPARTAMENTO[codigo]! : "general";
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** `deBaja`: proveedores que se darán de baja al terminar (solo pueden tener gastos antiguos). */
export function buildContext(rows: ContextRows, deBaja: ReadonlySet<string> = new Set()): Ctx {
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
  for (const d of rows.departamentos) {
    ctx.departamentos.set(d.id, {
      id: d.id,
      codigo: d.codigo,
      responsable_id: d.responsable_id,
      padre_id: d.departamento_padre_id,
    });
  }
  for (const u of rows.usuarios) {
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
  for (const p of rows.proveedores) {
    // La base de datos no admite gastos nuevos de un proveedor ya inactivo.
    if (!p.activo) continue;
    const proveedor: CtxProveedor = {
      id: p.id,
      gastos: porNombre.get(p.razon_social)?.gastos ?? GASTOS_POR_CATEGORIA_PROVEEDOR[p.categoria] ?? ["otros"],
      nombre: `${p.razon_social} ${porNombre.get(p.razon_social)?.nombre_comercial ?? ""}`,
      pais: p.pais,
    };
    for (const cat of proveedor.gastos) {
      push(ctx.proveedoresTodos, cat, proveedor);
      if (!deBaja.has(p.razon_social)) push(ctx.proveedoresActivos, cat, proveedor);
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

export type Gasto = {
  descripcion: string;
  fecha_gasto: string;
  categoria: CategoriaGasto;
  importe: string;
  importe_impuestos: string | null;
  metodo_pago: MetodoPago;
  proveedor_id: string | null;
  numero_factura: string | null;
  tipo_documento: "factura_completa" | "factura_simplificada" | "ticket";
  factura_a_empresa: boolean;
  inversion_sujeto_pasivo: boolean;
  emisor_nif: string | null;
  emisor_nombre: string | null;
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
        return formatMonthKey(monthKey(fecha), "es-ES", "long");
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

/** Quien emite las facturas simplificadas de gastos sin proveedor de la lista (taxis, bares…). */
const EMISORES_SUELTOS = [
  "Radio Taxi Ciudad S.L.",
  "Bar Restaurante El Puerto S.L.",
  "Cafetería Central S.L.",
  "Aparcamientos Urbanos S.A.",
  "Papelería Moderna S.L.",
  "Gasolinera La Vega S.L.",
] as const;

/**
 * El documento de cada gasto, sin tirar más dados (la misma semilla da los mismos gastos de
 * siempre): con proveedor y número, factura completa (casi siempre a nombre de la empresa; la de
 * un proveedor de otro país, un servicio que factura sin IVA a la empresa: inversión del sujeto
 * pasivo); sin proveedor y con número, factura simplificada de un emisor escrito a mano; si no,
 * ticket.
 */
function datosFiscales(cents: number, proveedor: CtxProveedor | undefined, factura: string | null) {
  if (factura && proveedor) {
    const extranjero = proveedor.pais !== "ES";
    return {
      tipo_documento: "factura_completa" as const,
      factura_a_empresa: extranjero || cents % 10 !== 3,
      inversion_sujeto_pasivo: extranjero,
      emisor_nif: null,
      emisor_nombre: null,
    };
  }
  if (factura)
    return {
      tipo_documento: "factura_simplificada" as const,
      factura_a_empresa: cents % 3 === 0,
      inversion_sujeto_pasivo: false,
      emisor_nif: generateValidCif(4_000 + (cents % EMISORES_SUELTOS.length)),
      emisor_nombre: EMISORES_SUELTOS[cents % EMISORES_SUELTOS.length]!,
    };
  return {
    tipo_documento: "ticket" as const,
    factura_a_empresa: false,
    inversion_sujeto_pasivo: false,
    emisor_nif: null,
    emisor_nombre: null,
  };
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
    const todos = (dias > 180 ? ctx.proveedoresTodos : ctx.proveedoresActivos).get(categoria) ?? [];
    // Only a supplier that sells what the description says (none for some: the gasto goes without).
    const encaje = PROVEEDOR_DE_PLANTILLA.find(([d]) => d.test(plantilla.texto));
    const lista = encaje ? todos.filter((p) => encaje[1]?.test(p.nombre)) : todos;
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
          let pago = addDaysISO(new Date(decidido).toISOString().slice(0, 10), rng.int(1, 20));
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
    ...datosFiscales(cents, proveedor, factura),
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

export class Elegidor {
  private readonly acumulado: number[] = [];
  private total = 0;
  constructor(private readonly usuarios: CtxUsuario[]) {
    for (const u of usuarios) {
      this.total += u.peso;
      this.acumulado.push(this.total);
    }
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

/**
 * Los gastos de la demostración, en orden de alta. Primero, los que hacen falta para enseñar el
 * flujo con las cuentas de demostración; el resto, al azar.
 */
export function demoGastos(rng: Rng, ctx: Ctx, total: number): Gasto[] {
  const gastos: Gasto[] = [];
  const usuario = (email: string) => [...ctx.porId.values()].find((u) => u.email === email)!;

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
    for (let i = 0; i < n && gastos.length < total; i++) {
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
    for (let i = 0; i < 3 && gastos.length < total; i++) {
      gastos.push(buildGasto(rng, ctx, u, fechaHace(rng, ctx, rng.int(0, 20)), "pendiente"));
    }
  }
  const activos = new Elegidor(ctx.usuarios.filter((u) => u.activo));
  const todos = new Elegidor(ctx.usuarios);
  while (gastos.length < total) {
    // Tres de cada cuatro repartidos en los 18 meses; el resto, en los dos últimos meses.
    gastos.push(
      rng.chance(0.75)
        ? gastoAlAzar(rng, ctx, activos, todos, 0, DAYS_BACK - 3)
        : gastoAlAzar(rng, ctx, activos, todos, 0, 60),
    );
  }
  return gastos.sort((a, b) => a.creado_ms - b.creado_ms);
}

/**
 * El lote `lote` de `lotes` de una carga masiva: `n` gastos de `usuarios`, en orden de alta. Cada
 * lote cubre una franja de días, del primero (la más antigua) al último, así los folios de toda
 * la carga siguen el orden de alta.
 */
export function batchGastos(rng: Rng, ctx: Ctx, usuarios: Elegidor, lote: number, lotes: number, n: number): Gasto[] {
  const desde = Math.floor(((lotes - lote - 1) * (DAYS_BACK - 3)) / lotes);
  const hasta = Math.max(desde, Math.floor(((lotes - lote) * (DAYS_BACK - 3)) / lotes) - 1);
  const gastos: Gasto[] = [];
  for (let i = 0; i < n; i++) gastos.push(gastoAlAzar(rng, ctx, usuarios, usuarios, desde, hasta));
  return gastos.sort((a, b) => a.creado_ms - b.creado_ms);
}
