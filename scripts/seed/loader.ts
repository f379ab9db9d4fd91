/**
 * Escritura en Postgres: los datos de demostración en una transacción y la carga masiva de gastos
 * por lotes, una transacción por lote. Todo se hace como propietario de la base de datos (sin RLS)
 * y con los disparadores activos: el folio (GAS-AAAA-NNNNN, por año de `creado_en`), el historial
 * y las reglas de integridad los pone la propia base de datos, como en cualquier otro alta. La
 * única excepción es la vía rápida de la carga masiva (insertGastosRapido), que hace lo mismo que
 * esos disparadores, por conjuntos.
 */
import { generateValidEsIban } from "../../app/lib/iban";
import { GASTOS_DE_VIAJES, seedViajes } from "./viajes";
import { sql, type Kysely, type Transaction } from "kysely";
import { hashPassword } from "../../app/auth/password.server";
import type { Database } from "../../app/data/database";
import { CUENTA_EMPRESA, DEMO_ACCOUNTS, DEMO_PASSWORD, EMPRESA } from "./catalog/organization";
import { batchGastos, buildContext, type ContextRows, demoGastos, Elegidor, type Gasto } from "./generator/gastos";
import { generateOrganization, PROVEEDORES_DE_BAJA } from "./generator/organization";
import { seedJustificantes } from "./justificantes";
import { DEFAULT_SEED, Rng } from "./generator/random";

type DB = Kysely<Database>;
type Trx = Transaction<Database>;
type Log = (line: string) => void;

export const DEFAULT_DEMO_GASTOS = 3000;

/** Lo que ya hay en la base de datos, para generar gastos coherentes con ello. */
async function readContext(db: Trx | DB, deBaja?: ReadonlySet<string>) {
  const usuarios = await sql<ContextRows["usuarios"][number]>`
    select u.id, u.email, u.rol, u.activo, u.departamento_id, u.sucursal_id, u.aprobador_id, d.codigo, s.ciudad
    from public.usuarios u
    left join public.departamentos d on d.id = u.departamento_id
    left join public.sucursales s on s.id = u.sucursal_id
    order by u.creado_en, u.id`.execute(db);
  const departamentos = await sql<ContextRows["departamentos"][number]>`
    select id, codigo, responsable_id, departamento_padre_id from public.departamentos order by codigo`.execute(db);
  const proveedores = await sql<ContextRows["proveedores"][number]>`
    select id, razon_social, categoria, activo, pais from public.proveedores order by razon_social, id`.execute(db);
  return buildContext(
    { usuarios: usuarios.rows, departamentos: departamentos.rows, proveedores: proveedores.rows },
    deBaja,
  );
}

export async function countGastos(db: DB): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.gastos`.execute(db);
  return rows[0]?.n ?? 0;
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
  ["tipo_documento", "text"],
  ["factura_a_empresa", "boolean"],
  ["inversion_sujeto_pasivo", "boolean"],
  ["emisor_nif", "text"],
  ["emisor_nombre", "text"],
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

/** `enable`/`disable trigger` de los que apaga la vía rápida: los de alta y contar_cambio. */
function disparadores(accion: "enable" | "disable") {
  return sql.raw([...DISPARADORES_RAPIDOS, "contar_cambio"].map((d) => `${accion} trigger ${d}`).join(", "));
}

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
 *   no nulas salvo id, creado_en, actualizado_en, version y las derivadas, cuya lista da la base
 *   de datos: interno.columnas_derivadas(); actor null, como toda carga del propietario), con la
 *   fecha de alta del gasto;
 * - vuelve a activar los disparadores.
 * gastos_validar no hace falta: los gastos llevan departamento, sucursal y creado_en, y solo
 * proveedores activos.
 */
async function insertGastosRapido(trx: Trx, gastos: Gasto[]): Promise<void> {
  if (gastos.length === 0) return;
  // contar_cambio too: its events wait for the commit, and ALTER TABLE refuses a table with any
  // pending. The change counter is advanced once below instead.
  await sql`alter table public.gastos ${disparadores("disable")}`.execute(trx);

  const creados = gastos.map((g) => g.creado_en);
  // The folio's year is the office's (Madrid), as interno.gastos_asignar_folio numbers them.
  const { rows: tramos } = await sql<{ anio: number; base: number }>`
    with y as (
      select extract(year from x at time zone 'Europe/Madrid')::integer as anio, count(*)::integer as n
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
         cross join lateral (select extract(year from t.creado_en at time zone 'Europe/Madrid')::integer as anio) a
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
             where d.value <> 'null'::jsonb and d.key <> all (array['id', 'creado_en', 'actualizado_en', 'version'] || interno.columnas_derivadas())),
           g.creado_en
      from public.gastos g
     where g.id = any(${rows.map((r) => r.id)}::uuid[])
     order by g.creado_en, g.folio`.execute(trx);

  await sql`update interno.cambios set n = n + 1`.execute(trx);
  await sql`alter table public.gastos ${disparadores("enable")}`.execute(trx);
}

// ---------------------------------------------------------------------------------------------
// Datos de demostración
// ---------------------------------------------------------------------------------------------

export type SeedOptions = {
  gastos?: number;
  seed?: number;
  /** Where the server keeps receipts (its DATA_DIR): with it, some gastos get a demo ticket. */
  dataDir?: string;
};

async function seedBase(trx: Trx, options: SeedOptions, log: Log): Promise<void> {
  const totalGastos = options.gastos ?? DEFAULT_DEMO_GASTOS;
  const rng = new Rng(options.seed ?? DEFAULT_SEED);
  const org = generateOrganization(rng);

  // Cuentas: una sola derivación de la contraseña para las 40 (scrypt es lento a propósito).
  log(`Datos de demostración: ${org.cuentas.length} cuentas (contraseña «${DEMO_PASSWORD}»)…`);
  const hash = await hashPassword(DEMO_PASSWORD);
  // Un solo insert: el disparador crea los perfiles en este orden (la primera cuenta de un sistema
  // vacío es administradora; las demás, empleado, y se completan después).
  await trx
    .insertInto("auth.users")
    .values(org.cuentas.map((c) => ({ ...c, encrypted_password: hash, email_confirmed_at: sql`now()` })))
    .execute();

  // La fila de la empresa la crea la migración, vacía: aquí se rellena con la de demostración.
  log(`Datos de demostración: la empresa (${EMPRESA.razon_social}) y su cuenta de pago…`);
  await trx.updateTable("public.empresa").set(EMPRESA).execute();
  await trx.insertInto("public.cuentas_empresa").values(CUENTA_EMPRESA).execute();

  log(`Datos de demostración: ${org.sucursales.length} sucursales y ${org.departamentos.length} departamentos…`);
  await trx.insertInto("public.sucursales").values(org.sucursales).execute();
  await trx.insertInto("public.departamentos").values(org.departamentos).execute();

  log("Datos de demostración: perfiles de usuario (rol, departamento, sucursal, aprobador)…");
  const col = <K extends keyof (typeof org.perfiles)[number]>(k: K) => org.perfiles.map((p) => p[k]);
  await sql`
    update public.usuarios u
       set apellidos = v.apellidos, rol = v.rol, departamento_id = v.departamento_id,
           sucursal_id = v.sucursal_id, aprobador_id = v.aprobador_id, puesto = v.puesto,
           telefono = v.telefono, activo = v.activo, creado_en = v.creado_en, alta_propia = false
      from unnest(${col("id")}::uuid[], ${col("apellidos")}::text[], ${col("rol")}::text[],
                  ${col("departamento_id")}::uuid[], ${col("sucursal_id")}::uuid[],
                  ${col("aprobador_id")}::uuid[], ${col("puesto")}::text[], ${col("telefono")}::text[],
                  ${col("activo")}::boolean[], ${col("creado_en")}::timestamptz[])
           as v(id, apellidos, rol, departamento_id, sucursal_id, aprobador_id, puesto, telefono, activo, creado_en)
     where u.id = v.id`.execute(trx);

  // Los IBAN de casi todas las personas (sus reembolsos van por remesa); sin él, uno de cada diez,
  // que la remesa deja fuera diciendo por qué. Cada una la dio al llegar (su alta y su historial,
  // abajo, con la fecha de la persona): una cuenta escrita hace poco se señala en las remesas.
  const conIban = org.perfiles.filter((_, i) => i % 10 !== 9);
  log(`Datos de demostración: ${conIban.length} IBAN de personas…`);
  await trx
    .insertInto("public.datos_bancarios")
    .values(
      conIban.map((p, i) => ({
        usuario_id: p.id,
        iban: generateValidEsIban(2_000 + i),
        creado_en: p.creado_en,
        actualizado_en: p.creado_en,
      })),
    )
    .execute();

  log(`Datos de demostración: ${org.proveedores.length} proveedores…`);
  await trx.insertInto("public.proveedores").values(org.proveedores).execute();

  log(`Datos de demostración: ${totalGastos} gastos…`);
  const ctx = await readContext(trx, new Set(PROVEEDORES_DE_BAJA));
  // The trips' gastos are part of the total (seedViajes, below).
  const deViajes = totalGastos >= 100 ? GASTOS_DE_VIAJES : 0;
  const gastos = demoGastos(rng, ctx, totalGastos - deViajes);
  for (let i = 0; i < gastos.length; i += 1000) await insertGastos(trx, gastos.slice(i, i + 1000));

  if (deViajes) {
    const viajes = await seedViajes(trx);
    log(`Datos de demostración: 3 viajes con ${viajes} gastos (kilometraje, dietas, hotel, vuelo y taxi)…`);
  }

  if (options.dataDir) {
    const n = await seedJustificantes(trx, options.dataDir);
    log(`Datos de demostración: ${n} justificantes (tickets generados)…`);
  }

  log(`Datos de demostración: ${PROVEEDORES_DE_BAJA.length} proveedores dados de baja…`);
  await trx
    .updateTable("public.proveedores")
    .set({ activo: false })
    .where("razon_social", "in", PROVEEDORES_DE_BAJA)
    .execute();

  // El historial de esta carga, fechado como los propios registros (y no todo «hoy»). La cuenta
  // de un proveedor (proveedores_pago, sin fechas propias) se dio con su alta.
  await sql`
    update public.historial h
       set creado_en = case when h.accion = 'alta' then r.creado_en else greatest(r.actualizado_en, r.creado_en) end
      from (
        select 'gastos' as tabla, id, creado_en, actualizado_en from public.gastos
        union all select 'usuarios', id, creado_en, creado_en + interval '5 minutes' from public.usuarios
        union all select 'departamentos', id, creado_en, actualizado_en from public.departamentos
        union all select 'sucursales', id, creado_en, actualizado_en from public.sucursales
        union all select 'proveedores', id, creado_en, now() - interval '90 days' from public.proveedores
        union all select 'datos_bancarios', id, creado_en, actualizado_en from public.datos_bancarios
        union all select 'proveedores_pago', id, creado_en, creado_en from public.proveedores
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

  const ctx = await readContext(db);
  const activos = ctx.usuarios.filter((u) => u.activo);
  if (activos.length === 0)
    throw new Error("No hay usuarios activos con departamento y sucursal a los que asignar gastos.");
  const usuarios = new Elegidor(activos);
  // Determinista para el mismo estado de partida, distinto en cada ejecución sucesiva.
  const rng = new Rng(((options.seed ?? DEFAULT_SEED) ^ Math.imul(await countGastos(db), 0x9e3779b1)) >>> 0);

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
    const gastos = batchGastos(rng, ctx, usuarios, lote, lotes, n);
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
