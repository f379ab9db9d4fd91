import { sql, type Kysely, type Transaction } from "kysely";
import { addDaysISO, todayISO } from "../../app/lib/dates";
import { DEMO_ACCOUNTS } from "./catalog/organization";

/**
 * A few realistic trips for the demo (docs/producto.md «Viajes, kilometraje y dietas»): the
 * company pays above the IRPF exempt limits, so the report has both parts. Importes, exempt and
 * taxable parts are the database's (interno.gastos_clase, interno.irpf): approved trips appear in
 * the IRPF report with totals that match their gastos; one trip waits for approval.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Trx = Transaction<any> | Kysely<any>;

/** The company's rate and daily amounts in the demo (above the exempt limits, as many companies pay). */
export const EMPRESA_VIAJES = {
  tarifa_km: "0.30",
  dieta_espana_sin_pernocta: "30.00",
  dieta_espana_con_pernocta: "60.00",
  dieta_extranjero_sin_pernocta: "50.00",
  dieta_extranjero_con_pernocta: "100.00",
};

/** How many gastos the trips below hold (the demo's total includes them). */
export const GASTOS_DE_VIAJES = 11;

type Persona = { id: string; departamento_id: string; sucursal_id: string; aprobador_id: string | null };

export async function seedViajes(trx: Trx): Promise<number> {
  await trx.updateTable("public.empresa").set(EMPRESA_VIAJES).execute();
  const { rows: personas } = await sql<Persona & { email: string }>`
    select u.id, u.departamento_id, u.sucursal_id, u.aprobador_id, u.email
      from public.usuarios u
     where u.activo and u.rol = 'empleado' and u.aprobador_id is not null and u.departamento_id is not null
     order by u.email = ${DEMO_ACCOUNTS.empleado} desc, u.creado_en, u.id
     limit 3`.execute(trx);
  if (personas.length === 0) return 0;
  const hoy = todayISO();
  const dia = (n: number) => addDaysISO(hoy, -n);
  const trips = [
    {
      quien: personas[0]!,
      destino: ["Zaragoza", "ES"],
      motivo: "Reunión con distribuidores de Aragón",
      salida: `${dia(40)} 07:30`,
      regreso: `${dia(39)} 20:15`,
      estado: "aprobado",
      gastos: [
        {
          clase: "kilometraje",
          fecha: dia(40),
          descripcion: "Coche propio Madrid – Zaragoza, ida y vuelta",
          km: "325",
          ida_vuelta: true,
          origen: "Madrid",
          destino: "Zaragoza",
        },
        { clase: "dieta", fecha: dia(40), descripcion: "Dieta con pernocta", pernocta: true },
        { clase: "dieta", fecha: dia(39), descripcion: "Dieta del regreso" },
        {
          clase: "ordinario",
          fecha: dia(39),
          descripcion: "Hotel en Zaragoza, una noche",
          categoria: "alojamiento",
          importe: "89.00",
        },
      ],
    },
    {
      quien: personas[1] ?? personas[0]!,
      destino: ["Lisboa", "PT"],
      motivo: "Feria internacional del sector",
      salida: `${dia(75)} 06:45`,
      regreso: `${dia(73)} 22:30`,
      estado: "aprobado",
      gastos: [
        { clase: "dieta", fecha: dia(75), descripcion: "Dieta en Lisboa", pernocta: true },
        { clase: "dieta", fecha: dia(74), descripcion: "Dieta en Lisboa", pernocta: true },
        { clase: "dieta", fecha: dia(73), descripcion: "Dieta del regreso" },
        {
          clase: "ordinario",
          fecha: dia(80),
          descripcion: "Vuelo Madrid – Lisboa, ida y vuelta",
          categoria: "viajes_transporte",
          importe: "186.40",
        },
        {
          clase: "ordinario",
          fecha: dia(74),
          descripcion: "Taxi al recinto ferial",
          categoria: "viajes_transporte",
          importe: "17.50",
        },
      ],
    },
    {
      quien: personas[2] ?? personas[0]!,
      destino: ["Toledo", "ES"],
      motivo: "Visita a un cliente, ida y vuelta en el día",
      salida: `${dia(6)} 08:00`,
      regreso: `${dia(6)} 19:00`,
      estado: "pendiente",
      gastos: [
        {
          clase: "kilometraje",
          fecha: dia(6),
          descripcion: "Coche propio Madrid – Toledo, ida y vuelta",
          km: "72",
          ida_vuelta: true,
          origen: "Madrid",
          destino: "Toledo",
        },
        { clase: "dieta", fecha: dia(6), descripcion: "Dieta sin pernocta" },
      ],
    },
  ];
  let n = 0;
  for (const t of trips) {
    const { rows } = await sql<{ id: string }>`
      insert into public.viajes (solicitante_id, destino_municipio, destino_pais, motivo, salida, regreso)
      values (${t.quien.id}, ${t.destino[0]}, ${t.destino[1]}, ${t.motivo}, ${t.salida}, ${t.regreso})
      returning id`.execute(trx);
    const viaje = rows[0]!.id;
    for (const g of t.gastos) {
      const aprobado = t.estado === "aprobado";
      await sql`
        insert into public.gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id,
          departamento_id, sucursal_id, viaje_id, clase, km_origen, km_destino, km, km_ida_vuelta,
          dieta_pernocta, tipo_documento, estado, aprobador_id, aprobado_por_id, fecha_aprobacion)
        values (${g.descripcion}, ${g.fecha},
          ${"categoria" in g ? g.categoria : g.clase === "dieta" ? "comidas" : "viajes_transporte"},
          ${"importe" in g ? g.importe : null}, 'efectivo', ${t.quien.id}, ${t.quien.departamento_id},
          ${t.quien.sucursal_id}, ${viaje}, ${g.clase}, ${"origen" in g ? g.origen : null},
          ${"destino" in g ? g.destino : null}, ${"km" in g ? g.km : null}, ${"ida_vuelta" in g ? g.ida_vuelta : false},
          ${"pernocta" in g ? g.pernocta : false}, ${g.clase === "ordinario" ? "factura_simplificada" : "sin_justificante"},
          ${t.estado}, ${t.quien.aprobador_id}, ${aprobado ? t.quien.aprobador_id : null},
          ${aprobado ? sql`now()` : null})`.execute(trx);
      n += 1;
    }
  }
  return n;
}
