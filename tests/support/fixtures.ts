import { sql } from "kysely";
import { generateValidCif } from "~/lib/nif";
import type { TestApp } from "./app";

/**
 * The records a test stands on, written straight into the database as its owner (no form, no
 * row-level security): what the test is about goes through the routes, its setting does not.
 */
type Db = TestApp["db"];

/** A departamento; returns its id. */
export async function insertDepartamento(
  db: Db,
  values: {
    nombre: string;
    codigo: string;
    presupuesto_mensual?: string;
    responsable_id?: string;
    departamento_padre_id?: string;
  },
): Promise<string> {
  const { id } = await db.insertInto("departamentos").values(values).returning("id").executeTakeFirstOrThrow();
  return String(id);
}

/** A sucursal (Madrid's unless told otherwise); returns its id. */
export async function insertSucursal(
  db: Db,
  values: { nombre: string; codigo: string; direccion: string; ciudad: string } = MADRID,
): Promise<string> {
  const { id } = await db.insertInto("sucursales").values(values).returning("id").executeTakeFirstOrThrow();
  return String(id);
}
const MADRID = { nombre: "Madrid", codigo: "MAD", direccion: "Gran Vía 1", ciudad: "Madrid" };

/** A proveedor; returns its id. */
export async function insertProveedor(
  db: Db,
  values: { razon_social: string; nif: string; tipo_persona: string; activo?: boolean },
): Promise<string> {
  const { id } = await db.insertInto("proveedores").values(values).returning("id").executeTakeFirstOrThrow();
  return String(id);
}

/**
 * A fresh departamento, sucursal or proveedor named after `code` (unique per call); `n` picks a
 * valid, distinct NIF for a proveedor. Returns its id.
 */
export async function insertMaestro(db: Db, table: string, code: string, n: number): Promise<string> {
  if (table === "departamentos") return insertDepartamento(db, { nombre: `Departamento ${code}`, codigo: code });
  if (table === "sucursales")
    return insertSucursal(db, {
      nombre: `Sucursal ${code}`,
      codigo: code,
      direccion: "Calle Mayor 1",
      ciudad: "Toledo",
    });
  if (table !== "proveedores") throw new Error(`${table} no es un maestro`);
  const { id } = await db
    .insertInto("proveedores")
    .values({
      razon_social: `Proveedor ${code} SL`,
      tipo_persona: "empresa",
      pais: "ES",
      nif: generateValidCif(n),
      categoria: "otros",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return String(id);
}

/** Sets fields of a person's profile (usuarios row). */
export function setProfile(
  db: Db,
  userId: string,
  values: { departamento_id?: string; sucursal_id?: string; aprobador_id?: string | null },
) {
  return db.updateTable("usuarios").set(values).where("id", "=", userId).execute();
}

/** How many rows a table holds. */
export async function countRows(db: Db, table: "departamentos" | "sucursales" | "proveedores" | "gastos") {
  const { n } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * One hash per table, read as the owner: «the database is unchanged» is every hash equal. Each
 * entry names a table and the column that orders its rows. The history is always there: it is
 * append-only and written by triggers on every change, so its last id and size suffice.
 */
export async function tableHashes(db: Db, tables: Record<string, [table: string, orderBy: string]>) {
  const hashes = Object.entries(tables).map(
    ([name, [table, orderBy]]) =>
      sql`(select md5(coalesce(string_agg(t::text, '|' order by ${sql.ref(`t.${orderBy}`)}), '')) from ${sql.table(table)} t) as ${sql.ref(name)}`,
  );
  const { rows } = await sql<Record<string, string>>`
    select ${sql.join(hashes)}, (select concat(max(id), '/', count(*)) from public.historial) as historial`.execute(db);
  return rows[0]!;
}
