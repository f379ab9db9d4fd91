import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { sql, type Kysely, type Transaction } from "kysely";
import { hashPassword } from "~/auth/password.server";
import { loadEnv } from "~/lib/env.server";
import { sqlServices } from "~/services.server";
import { createTestDatabase } from "./database";

/**
 * Integration tests call route loaders and actions with real Requests against a real Postgres
 * (a fresh database per test file), through the same services the server builds.
 */
export const ORIGIN = "http://oficina.test";
export const PASSWORD = "contraseña-de-prueba-larga";

export async function createTestApp(env: Record<string, string> = {}) {
  const url = await createTestDatabase();
  const config = loadEnv({ NODE_ENV: "test", DATA_DIR: ".tmp/vitest-data", SESSION_SECRET: "s".repeat(40), ...env });
  const services = sqlServices(config, url);
  let passwordHash: string | undefined;

  /**
   * An account and its profile, created as the owner (confirmed, active). Like an account an
   * administrador set up, unless `altaPropia`: then it signed itself up and, as an empleado
   * without a departamento, waits to be placed (sees only its own gastos and profile).
   */
  async function createUser(
    o: {
      nombre?: string;
      email?: string;
      rol?: "administrador" | "aprobador" | "empleado";
      activo?: boolean;
      altaPropia?: boolean;
    } = {},
  ) {
    passwordHash ??= await hashPassword(PASSWORD);
    const email = (o.email ?? `u${Math.random().toString(36).slice(2, 10)}@oficina.test`).toLowerCase();
    const { id } = await services.db
      .insertInto("auth.users")
      .values({
        email,
        encrypted_password: passwordHash,
        email_confirmed_at: sql`now()`,
        raw_user_meta_data: JSON.stringify({ nombre: o.nombre ?? "Prueba" }),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await services.db
      .updateTable("usuarios")
      .set({ rol: o.rol ?? "empleado", activo: o.activo ?? true, alta_propia: o.altaPropia ?? false })
      .where("id", "=", id)
      .execute();
    const signIn = await services.auth.signIn(new Request(ORIGIN), email, PASSWORD);
    if (!signIn.ok) throw new Error(`No se pudo iniciar sesión como ${email}: ${signIn.reason}`);
    const cookie = signIn.headers.get("Set-Cookie")!.split(";")[0]!;
    return { id, email, cookie };
  }

  function context(): AppLoadContext {
    return { services, cspNonce: "test", clientIp: "127.0.0.1", appendCookie: () => {} };
  }

  return { services, db: services.db, config, url, createUser, context, close: () => services.close() };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
/** A signed-in account made by `createUser`: its id, email and session cookie. */
export type TestUser = Awaited<ReturnType<TestApp["createUser"]>>;
/** A transaction on the test database, typed by the same schema as `app.db`. */
export type TestTransaction = TestApp["db"] extends Kysely<infer Schema> ? Transaction<Schema> : never;
/** A route module's loader and action, as the tests call them. */
export type RouteModule = {
  loader: (args: LoaderFunctionArgs) => unknown;
  action?: (args: ActionFunctionArgs) => unknown;
};

/** A Request like the browser sends: the session cookie and, for POSTs, a urlencoded form. */
export function request(
  path: string,
  o: { cookie?: string; form?: Record<string, string | string[]>; method?: string } = {},
) {
  const headers = new Headers({ Origin: ORIGIN });
  if (o.cookie) headers.set("Cookie", o.cookie);
  let body: URLSearchParams | undefined;
  if (o.form) {
    body = new URLSearchParams();
    for (const [key, value] of Object.entries(o.form)) for (const v of [value].flat()) body.append(key, v);
    headers.set("Content-Type", "application/x-www-form-urlencoded");
  }
  return new Request(new URL(path, ORIGIN), { method: o.method ?? (o.form ? "POST" : "GET"), headers, body });
}

/** The JSON body of a loader's or action's Response. */
export const json = async (r: Response) => JSON.parse(await r.text());

const esDatosDePagina = (x: unknown): x is { data: unknown; init?: ResponseInit } =>
  typeof x === "object" && x !== null && "data" in x && "init" in x && "deferredKeys" in x;

/** Runs a loader/action and returns its Response, whether it was returned or thrown. */
export async function respond(run: () => unknown): Promise<Response> {
  try {
    const result = await run();
    if (result instanceof Response) return result;
    // A page's data (`datosDePagina`, a deferred answer with no promises): what the browser gets.
    if (esDatosDePagina(result))
      return new Response(JSON.stringify(result.data), {
        status: result.init?.status ?? 200,
        headers: result.init?.headers,
      });
    return new Response(JSON.stringify(result), { status: 200 });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
