import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { E2E_DATA_DIR } from "./entorno";

/**
 * A connection to the end-to-end server's own embedded database (its port from postmaster.pid,
 * its password from DATA_DIR), as its owner: to arrange what a journey starts from (the records
 * it works on, a mail the mail server refused for good) — a journey's own steps go through the
 * screens, and its checks read the screens.
 */
export async function conectarBaseDeDatos(): Promise<pg.Client> {
  const pid = readFileSync(path.resolve(E2E_DATA_DIR, "postgres", "postmaster.pid"), "utf8").split("\n");
  const password = readFileSync(path.resolve(E2E_DATA_DIR, "postgres.password"), "utf8").trim();
  const client = new pg.Client({ host: "127.0.0.1", port: Number(pid[3]), user: "postgres", password });
  await client.connect();
  return client;
}

/** One statement on its own connection. */
export async function enLaBaseDeDatos<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = await conectarBaseDeDatos();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * One statement as the person `usuarioId`, with the role and claims the app gives her requests:
 * the history, and so the screens, then say that she did it.
 */
export async function comoPersonaEnLaBase<T>(usuarioId: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = await conectarBaseDeDatos();
  try {
    await client.query("begin");
    await client.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
      JSON.stringify({ sub: usuarioId, role: "authenticated" }),
    ]);
    const { rows } = await client.query(text, values);
    await client.query("commit");
    return rows as T[];
  } finally {
    await client.end();
  }
}

/** A confirmed account without a password (nobody signs in as it), as a sign-up leaves it: an empleado. */
export async function personaEnLaBase(nombre: string, email: string): Promise<string> {
  const [fila] = await enLaBaseDeDatos<{ id: string }>(
    `insert into auth.users (email, email_confirmed_at, raw_user_meta_data) values ($1, now(), $2) returning id`,
    [email, JSON.stringify({ nombre })],
  );
  return fila!.id;
}

/** A departamento with just its name and code. */
export async function departamentoEnLaBase(nombre: string, codigo: string): Promise<string> {
  const [fila] = await enLaBaseDeDatos<{ id: string }>(
    "insert into departamentos (nombre, codigo) values ($1, $2) returning id",
    [nombre, codigo],
  );
  return fila!.id;
}

/** A sucursal in Logroño. */
export async function sucursalEnLaBase(nombre: string, codigo: string): Promise<string> {
  const [fila] = await enLaBaseDeDatos<{ id: string }>(
    "insert into sucursales (nombre, codigo, direccion, ciudad) values ($1, $2, 'Calle Mayor 1', 'Logroño') returning id",
    [nombre, codigo],
  );
  return fila!.id;
}

/**
 * A new unread aviso «Su gasto … está aprobado» for the account `email`, about one of that
 * person's own gastos (the demo data has many) that no aviso names yet, so that journeys running
 * at once never share one: what the workflow writes, without the journey of three people it takes
 * to get there. Returns the aviso's and the gasto's ids and the folio.
 */
export async function avisoNuevo(email: string) {
  const client = await conectarBaseDeDatos();
  try {
    await client.query("begin");
    // One at a time, across workers: the gasto chosen here is then named by an aviso.
    await client.query("select pg_advisory_xact_lock(hashtext('e2e avisoNuevo'))");
    const { rows } = await client.query<{ aviso: string; gasto: string; folio: string }>(
      `with g as (
         select g.id, g.folio, g.descripcion, g.importe, u.id as destinatario
           from public.gastos g join public.usuarios u on u.id = g.solicitante_id
          where lower(u.email) = lower($1) and g.estado <> 'borrador'
            and not exists (select 1 from public.avisos a where a.gasto_id = g.id)
          order by random() limit 1)
       insert into public.avisos (destinatario_id, tipo, gasto_id, datos)
       select destinatario, 'aprobado', id, jsonb_build_object('folio', folio, 'descripcion', descripcion, 'importe', importe)
         from g
       returning id as aviso, gasto_id as gasto, datos->>'folio' as folio`,
      [email],
    );
    await client.query("commit");
    if (!rows[0]) throw new Error(`${email} no tiene gastos sin avisos en los datos de demostración`);
    return rows[0];
  } finally {
    await client.end();
  }
}
