import pg from "pg";

/**
 * Helpers for database tests that act as a signed-in user exactly like the app and PostgREST do:
 * inside a transaction, `set_config('role','authenticated',true)` plus the JWT claims.
 */

export type Query = (sql: string, params?: unknown[]) => Promise<pg.QueryResult>;

export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/**
 * Runs `fn` in a transaction as user `userId` (role authenticated), or as `anon` when userId is
 * null. Commits when `fn` resolves (unless `rollback: true`), rolls back when it throws.
 */
export async function asUser<T>(
  client: pg.ClientBase,
  userId: string | null,
  fn: (q: Query) => Promise<T>,
  options: { rollback?: boolean } = {},
): Promise<T> {
  await client.query("begin");
  try {
    if (userId === null) {
      await client.query("select set_config('role', 'anon', true), set_config('request.jwt.claims', $1, true)", [
        JSON.stringify({ role: "anon" }),
      ]);
    } else {
      await client.query(
        "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)",
        [JSON.stringify({ sub: userId, role: "authenticated" })],
      );
    }
    const result = await fn((sql, params) => client.query(sql, params as unknown[]));
    await client.query(options.rollback ? "rollback" : "commit");
    return result;
  } catch (error) {
    await client.query("rollback");
    throw error;
  }
}

/** The database error a promise rejects with (fails the test if it resolves). */
export async function pgError(promise: Promise<unknown>): Promise<pg.DatabaseError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof pg.DatabaseError) return error;
    throw error;
  }
  throw new Error("Se esperaba un error de la base de datos y la orden se ejecutó sin error");
}

/**
 * Creates a confirmed account as the owner (insert into auth.users → the trigger creates its
 * usuarios row) and then sets the profile fields given. Returns the user id.
 */
export async function createUser(
  client: pg.ClientBase,
  fields: {
    email: string;
    nombre?: string;
    rol?: "administrador" | "aprobador" | "empleado";
    departamento_id?: string | null;
    sucursal_id?: string | null;
    aprobador_id?: string | null;
    activo?: boolean;
    apellidos?: string | null;
    alta_propia?: boolean;
  },
): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    "insert into auth.users (email, raw_user_meta_data, email_confirmed_at) values ($1, $2, now()) returning id",
    [fields.email, JSON.stringify(fields.nombre ? { nombre: fields.nombre } : {})],
  );
  const id = rows[0].id;
  const { email: _email, nombre: _nombre, ...profile } = fields;
  // As an account an administrador set up, not one that signed itself up (those wait to be placed).
  const entries = Object.entries({ alta_propia: false, ...profile }).filter(([, v]) => v !== undefined);
  if (entries.length > 0) {
    const sets = entries.map(([k], i) => `${k} = $${i + 2}`).join(", ");
    await client.query(`update public.usuarios set ${sets} where id = $1`, [id, ...entries.map(([, v]) => v)]);
  }
  return id;
}
