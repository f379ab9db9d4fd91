import type pg from "pg";
import { createTestDatabase } from "../support/database";
import { asUser, connect, createUser, pgError } from "../support/as-user";

/**
 * The checks the migrations share (interno.exigir_sesion, interno.exigir_admin): each function that
 * calls them refuses an inactive user and a non-administrator with its own code and message, and
 * lets an administrator through. The helpers themselves are for their callers only.
 */
let db: pg.Client;
const u = {} as Record<"admin" | "empleado" | "inactivo", string>;

const SESION = "Su usuario no está activo o la sesión no es válida.";
const NINGUNO = "00000000-0000-0000-0000-000000000000";

beforeAll(async () => {
  db = await connect(await createTestDatabase());
  u.admin = await createUser(db, { email: "admin@example.com", nombre: "Ana", rol: "administrador" });
  u.empleado = await createUser(db, { email: "emp@example.com", nombre: "Elena" });
  u.inactivo = await createUser(db, {
    email: "baja@example.com",
    nombre: "Íñigo",
    rol: "administrador",
    activo: false,
  });
});

afterAll(() => db.end());

const como = (user: string, sql: string, params: unknown[] = []) =>
  asUser(db, user, (q) => q(sql, params), { rollback: true });

async function rechaza(user: string, sql: string, params: unknown[], message: string) {
  const e = await pgError(como(user, sql, params));
  expect({ code: e.code, message: e.message }).toEqual({ code: "OFPRM", message });
}

const PERIODO = ["2026-01-01", "2026-12-31"];

test.each([
  ["retirar_gasto", "select public.retirar_gasto($1, 1)", [NINGUNO]],
  ["enviar_viaje", "select public.enviar_viaje($1, 1)", [NINGUNO]],
  ["remesa_datos", "select public.remesa_datos($1)", [NINGUNO]],
  ["meses_libro_diario", "select public.meses_libro_diario($1, $2)", PERIODO],
])("%s: un usuario inactivo no actúa", async (_, sql, params) => {
  await rechaza(u.inactivo, sql, params, SESION);
});

test.each([
  [
    "remesa_datos",
    "select public.remesa_datos($1)",
    [NINGUNO],
    "Solo un administrador puede preparar y gestionar remesas de pago.",
  ],
  [
    "meses_libro_diario",
    "select public.meses_libro_diario($1, $2)",
    PERIODO,
    "Solo un administrador puede ver y descargar el libro diario.",
  ],
  [
    "correos_fallidos",
    "select public.correos_fallidos()",
    [],
    "Solo un administrador puede ver los correos no entregados.",
  ],
  [
    "descartar_correos_fallidos",
    "select public.descartar_correos_fallidos('{}')",
    [],
    "Solo un administrador puede ver, reintentar o descartar los correos no entregados.",
  ],
  [
    "invitacion_estado",
    "select public.invitacion_estado('nadie@example.com')",
    [],
    "Solo un administrador puede invitar a personas o gestionar las invitaciones.",
  ],
])("%s: solo un administrador", async (_, sql, params, message) => {
  await rechaza(u.empleado, sql, params, message);
  // La sesión se comprueba antes que el rol: un administrador inactivo oye lo de la sesión.
  await rechaza(u.inactivo, sql, params, SESION);
});

test("un administrador pasa las comprobaciones", async () => {
  const uno = async (sql: string, params: unknown[] = []) => (await como(u.admin, sql, params)).rows[0].r;
  expect(await uno("select public.meses_libro_diario($1, $2) as r", PERIODO)).toEqual([]);
  expect(await uno("select public.correos_fallidos() as r")).toEqual([]);
  expect(await uno("select public.descartar_correos_fallidos('{}') as r")).toBe(0);
  expect(await uno("select public.invitacion_estado('nadie@example.com') as r")).toBeNull();
  const e = await pgError(como(u.admin, "select public.remesa_datos($1)", [NINGUNO]));
  expect({ code: e.code, message: e.message }).toEqual({ code: "OFNTF", message: "La remesa no existe." });
});

test("las comprobaciones y el folio son solo de las funciones que las llaman", async () => {
  for (const sql of [
    "select interno.exigir_sesion()",
    "select interno.exigir_admin('x')",
    "select interno.folio_siguiente('public.gastos_folio_contador', 'GAS', 2026, 5)",
  ]) {
    expect((await pgError(como(u.admin, sql))).code).toBe("42501");
  }
  // Los avisos de quien pregunta (security invoker) sí dicen el mes.
  expect((await como(u.empleado, "select interno.mes_y_anio('2026-03-15') as r")).rows[0].r).toBe("marzo de 2026");
});
