import type pg from "pg";
import { sqlStore } from "~/data/sql/adapter.server";
import { Invalid } from "~/data/store";
import { addDaysISO, todayISO } from "~/lib/dates";
import { createTestApp, request, respond, type TestApp, type TestUser } from "../support/app";
import { connect, pgError } from "../support/as-user";
import { insertDepartamento, insertSucursal, setProfile } from "../support/fixtures";
import { gastosPage } from "../support/gastos";
import { pantallasDe } from "../support/pantallas";

/**
 * Políticas de gasto in the database, on a real Postgres under row-level security: each limit at
 * its boundary (exactly the maximum, a cent over), the day's and month's totals of the same
 * person, a department's policy replacing the general one, the motivo asked by enviar_gasto and
 * what the aprobador reads before approving, in the panel and in the bulk confirm step.
 */
let app: TestApp;
let admin: TestUser, aprobador: TestUser, empleado: TestUser, empleado2: TestUser;
let ventas: string, compras: string, suc: string;
let owner: pg.Client;
const hoy = todayISO();

beforeAll(async () => {
  app = await createTestApp();
  owner = await connect(app.url);
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
  empleado2 = await app.createUser({ nombre: "Eva", rol: "empleado" });
  ventas = await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" });
  compras = await insertDepartamento(app.db, { nombre: "Compras", codigo: "COM" });
  suc = await insertSucursal(app.db);
  for (const u of [admin, aprobador]) await setProfile(app.db, u.id, { departamento_id: ventas, sucursal_id: suc });
  await setProfile(app.db, empleado.id, { departamento_id: ventas, sucursal_id: suc, aprobador_id: aprobador.id });
  await setProfile(app.db, empleado2.id, { departamento_id: compras, sucursal_id: suc, aprobador_id: aprobador.id });
  await owner.query(
    `insert into public.politicas_gasto (categoria, departamento_id, maximo_por_gasto, maximo_por_dia, maximo_por_mes,
       justificante_desde, antiguedad_maxima)
     values ('comidas', null, 50.00, 80.00, 300.00, null, null),
            ('comidas', $1, 100.00, null, null, null, null),
            ('alojamiento', null, null, null, null, 20.00, 30)`,
    [compras],
  );
});
afterAll(async () => {
  await owner?.end();
  await app?.close();
});

const rpc = <T = Record<string, unknown>>(u: TestUser, fn: string, args: Record<string, unknown>) =>
  sqlStore(app.db, u.id).rpc<T>(fn, args);

let n = 0;
/** A borrador of `u` (its department's), written as the owner: its setting, not what the test is about. */
async function borrador(u: TestUser, o: { importe: string; categoria?: string; fecha?: string }) {
  n += 1;
  const { rows } = await owner.query<{ id: string }>(
    `insert into public.gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id,
       departamento_id, sucursal_id)
     values ($1, $2, $3, $4, 'efectivo', $5, (select departamento_id from public.usuarios where id = $5), $6)
     returning id`,
    [`Gasto ${n}`, o.fecha ?? hoy, o.categoria ?? "comidas", o.importe, u.id, suc],
  );
  return rows[0]!.id;
}
const fuera = (u: TestUser, id: string) => rpc<string[]>(u, "incumplimientos_politica", { p_id: id });
const enviar = (u: TestUser, id: string, motivo?: string) =>
  rpc(u, "enviar_gasto", { p_id: id, p_version: 1, p_motivo_duplicado: null, p_motivo_politica: motivo ?? null });
const gasto = async (id: string) =>
  (await owner.query("select * from public.gastos where id = $1", [id])).rows[0] as Record<string, unknown>;

describe("los límites, en su frontera", () => {
  it("exactamente el máximo por gasto cumple; un céntimo más se sale y dice cuánto", async () => {
    expect(await fuera(empleado, await borrador(empleado, { importe: "50.00" }))).toEqual([]);
    expect(await fuera(empleado, await borrador(empleado, { importe: "50.01", fecha: addDaysISO(hoy, -1) }))).toEqual([
      "50,01 € en un gasto; el máximo por gasto es 50,00 € (0,01 € más).",
    ]);
  });

  it("el día y el mes suman los gastos enviados de la misma persona y categoría, no los borradores ni los de otra", async () => {
    const dia = addDaysISO(hoy, -3);
    const a = await borrador(empleado, { importe: "45.00", fecha: dia });
    await enviar(empleado, a);
    // Eva (another person) and a borrador of Elena's on the same day do not count.
    await enviar(empleado2, await borrador(empleado2, { importe: "45.00", fecha: dia }));
    await borrador(empleado, { importe: "40.00", fecha: dia });
    expect(await fuera(empleado, await borrador(empleado, { importe: "35.00", fecha: dia }))).toEqual([]);
    const b = await borrador(empleado, { importe: "35.01", fecha: dia });
    expect(await fuera(empleado, b)).toEqual([
      `80,01 € de esta categoría el ${dia.split("-").reverse().join("/")} con este gasto; el máximo por día es 80,00 € (0,01 € más).`,
    ]);
  });

  it("la política de un departamento sustituye entera a la general", async () => {
    // Compras: 100 € per gasto and no daily limit; the general 50 € does not apply.
    expect(await fuera(empleado2, await borrador(empleado2, { importe: "99.99" }))).toEqual([]);
    expect(await fuera(empleado2, await borrador(empleado2, { importe: "100.01" }))).toHaveLength(1);
  });

  it("justificante desde un importe y antigüedad máxima en días", async () => {
    const viejo = await borrador(empleado, {
      importe: "20.00",
      categoria: "alojamiento",
      fecha: addDaysISO(hoy, -31),
    });
    expect(await fuera(empleado, viejo)).toEqual([
      "Sin justificante: en esta categoría se pide desde 20,00 €.",
      "El gasto tiene 31 días; se admiten hasta 30 días desde la fecha del gasto.",
    ]);
    const reciente = await borrador(empleado, {
      importe: "19.99",
      categoria: "alojamiento",
      fecha: addDaysISO(hoy, -30),
    });
    expect(await fuera(empleado, reciente)).toEqual([]);
  });

  it("solo de un borrador que quien pregunta ve", async () => {
    const g = await borrador(empleado, { importe: "60.00", fecha: addDaysISO(hoy, -5) });
    expect(await fuera(empleado, g)).toHaveLength(1);
    expect(await fuera(empleado2, g)).toEqual([]);
    expect(await fuera(aprobador, g)).toEqual([]);
  });
});

describe("enviar con un motivo, y quien aprueba lo lee antes", () => {
  it("sin motivo no se envía (y nada cambia); con motivo, queda lo incumplido y el motivo en el gasto y su historial", async () => {
    const g = await borrador(empleado, { importe: "62.40", fecha: addDaysISO(hoy, -7) });
    const error = await enviar(empleado, g).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect(error).toMatchObject({ field: "motivo_politica" });
    expect((error as Invalid).message).toMatch(
      /se sale de la política de gastos: 62,40 € en un gasto.* Indique el motivo/,
    );
    expect(await gasto(g)).toMatchObject({ estado: "borrador", version: 1, politica_incumplida: null });

    const largo = await enviar(empleado, g, "x".repeat(501)).catch((e: unknown) => e);
    expect(largo).toMatchObject({ field: "motivo_politica", message: "El motivo admite como mucho 500 caracteres." });

    await enviar(empleado, g, "  Comida con el cliente de Oporto: menú cerrado  ");
    expect(await gasto(g)).toMatchObject({
      estado: "pendiente",
      fuera_de_politica: true,
      politica_incumplida: ["62,40 € en un gasto; el máximo por gasto es 50,00 € (12,40 € más)."],
      motivo_politica: "Comida con el cliente de Oporto: menú cerrado",
    });
    const avisos = await rpc<string[]>(aprobador, "avisos_antes_de_aprobar", { p_id: g });
    expect(avisos.slice(0, 2)).toEqual([
      "Fuera de la política de gastos: 62,40 € en un gasto; el máximo por gasto es 50,00 € (12,40 € más).",
      "Motivo de quien lo envía: «Comida con el cliente de Oporto: menú cerrado».",
    ]);
    // Its solicitante does not approve it: nothing for her.
    expect(await rpc<string[]>(empleado, "avisos_antes_de_aprobar", { p_id: g })).toEqual([]);
    const { rows } = await owner.query<{ cambios: Record<string, { despues: unknown }> }>(
      "select cambios from public.historial where registro_id = $1 and cambios ? 'motivo_politica'",
      [g],
    );
    expect(rows[0]?.cambios.motivo_politica?.despues).toBe("Comida con el cliente de Oporto: menú cerrado");
  });

  it("dentro de la política no pide motivo ni guarda uno que se mande", async () => {
    const g = await borrador(empleado, { importe: "12.30", fecha: addDaysISO(hoy, -9) });
    await enviar(empleado, g, "por si acaso");
    expect(await gasto(g)).toMatchObject({
      estado: "pendiente",
      fuera_de_politica: false,
      politica_incumplida: null,
      motivo_politica: null,
    });
  });

  it("nadie escribe lo incumplido ni el motivo por su cuenta", async () => {
    const g = await borrador(empleado, { importe: "12.31", fecha: addDaysISO(hoy, -10) });
    const e = await sqlStore(app.db, empleado.id)
      .update("gastos", g, 1, { motivo_politica: "Sí" })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    expect((await gasto(g)).motivo_politica).toBeNull();
  });
});

describe("las políticas, en su tabla", () => {
  it("una por categoría y departamento; al menos un límite; el día no pasa del mes", async () => {
    const dup = await pgError(
      owner.query("insert into public.politicas_gasto (categoria, maximo_por_gasto) values ('comidas', 10)"),
    );
    expect(dup.code).toBe("23505");
    const vacia = await pgError(owner.query("insert into public.politicas_gasto (categoria) values ('formacion')"));
    expect(vacia.constraint).toBe("politicas_gasto_algun_limite_check");
    const dia = await pgError(
      owner.query(
        "insert into public.politicas_gasto (categoria, maximo_por_dia, maximo_por_mes) values ('formacion', 20, 10)",
      ),
    );
    expect(dia.constraint).toBe("politicas_gasto_dia_mes_check");
  });

  it("el formulario dice qué dos campos repiten una política que ya existe", async () => {
    const pol = pantallasDe("politicas-gasto").lista;
    const r = await respond(() =>
      pol.action({
        request: request("/politicas-gasto?index", {
          cookie: admin.cookie,
          form: { categoria: "comidas", maximo_por_gasto: "10,00", _envio: crypto.randomUUID() },
        }),
        context: app.context(),
        params: {},
      }),
    );
    expect(r.status).toBe(400);
    expect(await r.text()).toContain(
      "Ya existe una política de gasto con estos valores de «Categoría» y «Departamento»: cambie alguno de ellos",
    );
  });

  it("«Nueva política de gasto como esta»: la general de una categoría, para un departamento", async () => {
    const pol = pantallasDe("politicas-gasto");
    const { rows } = await owner.query<{ id: string }>(
      "select id from public.politicas_gasto where categoria = 'comidas' and departamento_id is null",
    );
    const como = rows[0]!.id;
    const lista = (cookie: string, search: string) =>
      respond(() =>
        pol.lista.loader({
          request: request(`/politicas-gasto${search}`, { cookie }),
          context: app.context(),
          params: {},
        }),
      );
    const r = await lista(admin.cookie, `?como=${como}`);
    expect(r.status).toBe(200);
    const { nuevo } = (await r.json()) as { nuevo: { defaults: Record<string, string>; copia: { de: string } } };
    expect(nuevo).toMatchObject({
      copia: { id: como, de: "Comidas", notas: [] },
      defaults: { categoria: "comidas", maximo_por_gasto: "50,00", maximo_por_dia: "80,00", maximo_por_mes: "300,00" },
    });
    expect(nuevo.defaults).not.toHaveProperty("departamento_id");
    // Its record page links the copy for whoever creates policies, and only for them.
    const ficha = (cookie: string) =>
      respond(() =>
        pol.ficha.loader({
          request: request(`/politicas-gasto/${como}`, { cookie }),
          context: app.context(),
          params: { id: como },
        }),
      );
    expect(((await (await ficha(admin.cookie)).json()) as { can: { crear: boolean } }).can.crear).toBe(true);
    expect(((await (await ficha(empleado.cookie)).json()) as { can: { crear: boolean } }).can.crear).toBe(false);
    for (const search of [`?como=${crypto.randomUUID()}`, "?como=1%27"]) {
      const refused = await lista(admin.cookie, search);
      expect(refused.status, search).toBe(404);
      expect(await refused.text()).toContain(
        "La política de gasto que quiere copiar no existe o no tiene acceso a ella.",
      );
    }
  });

  it("las escriben los administradores; los demás las leen", async () => {
    const e = await sqlStore(app.db, empleado.id)
      .insert("politicas_gasto", { categoria: "formacion", maximo_por_gasto: "10" })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    const { rows } = await sqlStore(app.db, empleado.id).list("politicas_gasto_vista", {
      limit: 10,
      offset: 0,
      count: "none",
    });
    expect(rows.length).toBe(3);
    await sqlStore(app.db, admin.id).insert("politicas_gasto", { categoria: "formacion", maximo_por_gasto: "300.00" });
  });
});

describe("el paso de confirmación en bloque", () => {
  it("dice cuántos de los que se van a aprobar se salen de su política", async () => {
    const { list } = gastosPage(() => app);
    const data = await list("?estado=pendiente&masivo=aprobar", aprobador.cookie);
    const { rows } = await owner.query<{ total: string; fuera: string }>(
      `select count(*) as total, count(*) filter (where fuera_de_politica) as fuera
         from public.gastos where estado = 'pendiente' and solicitante_id <> $1`,
      [aprobador.id],
    );
    expect(data.masivo).toMatchObject({ accion: "aprobar", total: Number(rows[0]!.total), fueraDePolitica: 1 });
    expect(Number(rows[0]!.fuera)).toBe(1);
  });
});
