import pg from "pg";
import { todayISO } from "~/lib/dates";
import { generateValidEsIban } from "~/lib/iban";
import { generateValidCif } from "~/lib/nif";
import {
  agent,
  Browser,
  freePort,
  killEverything,
  ownerUrl,
  removeDataDir,
  startServer,
  until,
  withOwner,
  type HttpResponse,
  type ServerProcess,
} from "../support/server-process";
import { disposeServer } from "../support/server-suite";
import { createOrganisation, figure, PASSWORD, workDir, type Account } from "./support";

/**
 * Remesas against a real server process on its own embedded Postgres (production mode):
 * confirming a remesa is one transaction, so a SIGKILL of the server (alone, or with its
 * Postgres) while it is half-way through leaves every gasto either pagado or still «en remesa»,
 * never some of each; and two administradores generating remesas from the same gastos at once
 * leave each gasto in exactly one. The moment to kill or to race is made, not guessed: a
 * connection of the test holds a gasto's row lock, and the test waits until the server's
 * transaction is waiting for it (pg_stat_activity), with the gastos before it already changed.
 */
const dataDir = workDir("remesas");
let server: ServerProcess | undefined;
let port: number;
let org: Awaited<ReturnType<typeof createOrganisation>>;
let cuenta: string;
const hoy = todayISO();
/** More than a PL/pgSQL loop fetches at once (10): the confirmation changes gastos before it blocks. */
const GASTOS_POR_REMESA = 12;
const RONDAS = Number(process.env.REMESAS_KILLS ?? 4);

async function start() {
  server = await startServer({ dataDir, nodeEnv: "production", port });
}

async function signedIn(who: Account) {
  const b = new Browser(server!.url);
  await b.signIn(who.email, PASSWORD);
  return b;
}

beforeAll(async () => {
  removeDataDir(dataDir);
  port = await freePort();
  await start();
  org = await withOwner(dataDir, async (c) => {
    const o = await createOrganisation(c, [
      { key: "admin", rol: "administrador", departamento: "compras" },
      { key: "admin2", rol: "administrador", departamento: "compras" },
      { key: "aprobador", rol: "aprobador" },
      { key: "elena", rol: "empleado", aprobador: "aprobador" },
      { key: "eva", rol: "empleado", aprobador: "aprobador" },
    ]);
    await c.query("update empresa set razon_social = 'Oficina Fiabilidad SL', nif = $1", [generateValidCif(5)]);
    cuenta = (
      await c.query<{ id: string }>(
        "insert into cuentas_empresa (nombre, iban, bic) values ('Principal', $1, 'CAIXESBBXXX') returning id",
        [generateValidEsIban(1)],
      )
    ).rows[0]!.id;
    for (const [key, n] of [
      ["elena", 2],
      ["eva", 3],
    ] as const)
      await c.query("insert into datos_bancarios (usuario_id, iban) values ($1, $2)", [
        o.accounts[key]!.id,
        generateValidEsIban(n),
      ]);
    return o;
  });
});

beforeEach(async () => {
  if (server?.alive()) return;
  await killEverything(server, dataDir);
  await start();
});

afterEach((ctx) => {
  if (ctx.task.result?.state === "fail")
    console.error(
      `Salida del servidor (pid ${server?.pid}, vivo: ${server?.alive()}):\n${server?.output().slice(-3000)}`,
    );
});

afterAll(() => disposeServer(server, dataDir));

let n = 0;
type Gasto = { id: string; importe: string };
/** `count` approved gastos of Elena and Eva (approved by their aprobador, so any administrador may pay them). */
async function aprobados(count: number): Promise<Gasto[]> {
  return withOwner(dataDir, async (c) => {
    const out: Gasto[] = [];
    for (let i = 0; i < count; i++) {
      n += 1;
      const quien = org.accounts[i % 2 ? "eva" : "elena"]!.id;
      const { rows } = await c.query<Gasto>(
        `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id,
           departamento_id, sucursal_id, estado, aprobador_id, aprobado_por_id, fecha_aprobacion)
         select $1, $2, 'otros', $3, 'efectivo', u.id, u.departamento_id, u.sucursal_id, 'aprobado', $4, $4, now()
           from usuarios u where u.id = $5
         returning id, importe::text`,
        [
          `Remesa de fiabilidad ${n}`,
          hoy,
          `${10 + (n % 90)}.${String(n % 100).padStart(2, "0")}`,
          org.accounts.aprobador!.id,
          quien,
        ],
      );
      out.push(rows[0]!);
    }
    return out;
  });
}

const suma = (gastos: Gasto[]) => {
  const centimos = gastos.reduce((s, g) => s + Math.round(Number(g.importe) * 100), 0);
  return `${Math.floor(centimos / 100)}.${String(centimos % 100).padStart(2, "0")}`;
};

/** The proposal of `gastos` as the page shows it first: its fingerprint, in the form's hidden field. */
async function huellaDe(b: Browser, gastos: Gasto[]) {
  const r = await b.get(`/remesas?${gastos.map((g) => `gasto=${g.id}`).join("&")}`);
  const huella = /name="huella" value="([0-9a-f]{32})"/.exec(r.text())?.[1];
  if (!huella) throw new Error(`propuesta sin huella: ${r.status} ${r.text().slice(0, 300)}`);
  return huella;
}

/** The builder's own form, as the browser posts it after reading the proposal. */
const generar = async (b: Browser, gastos: Gasto[]) =>
  b.post("/remesas?index", {
    gasto: gastos.map((g) => g.id),
    cuenta,
    fecha_ejecucion: hoy,
    importe_total: suma(gastos),
    huella: await huellaDe(b, gastos),
  });

const remesaDe = (r: HttpResponse) => {
  if (r.status !== 302) throw new Error(`generar: ${r.status} ${r.text().slice(0, 300)}`);
  return new URL(r.location!, "http://x").pathname.split("/").at(-1)!;
};

/** A connection of the test's own, as the owner, that survives the server's death (not its Postgres's). */
async function owner() {
  const c = new pg.Client({ connectionString: ownerUrl(dataDir) });
  c.on("error", () => {});
  await c.connect();
  return c;
}

/**
 * The server's backends waiting for a lock inside `fn` (e.g. confirmar_remesa). Read outside any
 * transaction: within one, PostgreSQL keeps the first view of pg_stat_activity until it ends.
 */
const esperando = (fn: string) =>
  withOwner(dataDir, async (c) =>
    (
      await c.query<{ pid: number }>(
        "select pid from pg_stat_activity where wait_event_type = 'Lock' and state = 'active' and query ilike $1",
        [`%${fn}%`],
      )
    ).rows.map((r) => r.pid),
  );

type Estado = { remesa: string; gastos: Record<string, number>; avisos: number; notas: number };
/** The remesa's state and its gastos', the «pagado» avisos and the history notes of its payment. */
const estadoDe = (id: string, gastos: Gasto[]) =>
  withOwner(dataDir, async (c): Promise<Estado> => {
    const ids = gastos.map((g) => g.id);
    const remesa = (await c.query("select estado, folio from remesas where id = $1", [id])).rows[0];
    const porEstado = await c.query<{ estado: string; n: number }>(
      "select estado, count(*)::int as n from gastos where id = any($1::uuid[]) group by estado",
      [ids],
    );
    const avisos = await c.query<{ n: number }>(
      "select count(*)::int as n from avisos where tipo = 'pagado' and gasto_id = any($1::uuid[])",
      [ids],
    );
    const notas = await c.query<{ n: number }>(
      `select count(*)::int as n from historial
        where tabla = 'gastos' and registro_id = any($1::uuid[]) and cambios -> 'estado' ->> 'despues' = 'pagado'`,
      [ids],
    );
    return {
      remesa: remesa.estado,
      gastos: Object.fromEntries(porEstado.rows.map((r) => [r.estado, r.n])),
      avisos: avisos.rows[0]!.n,
      notas: notas.rows[0]!.n,
    };
  });

const version = (id: string) =>
  withOwner(dataDir, async (c) => (await c.query("select version from remesas where id = $1", [id])).rows[0].version);

describe("SIGKILL mientras se confirma una remesa", () => {
  it(
    `${RONDAS} veces, alternando el servidor solo y el servidor con su Postgres: todos sus gastos pagados o todos aún en la remesa`,
    { timeout: 600_000 },
    async () => {
      const problemas: string[] = [];
      const resultados: string[] = [];
      for (let ronda = 1; ronda <= RONDAS; ronda++) {
        const solo = ronda % 2 === 1;
        const admin = await signedIn(org.accounts.admin!);
        const gastos = await aprobados(GASTOS_POR_REMESA);
        const id = remesaDe(await generar(admin, gastos));
        // The gasto the confirmation reaches last (it goes in id order) is held by the test.
        const ultimo = [...gastos].sort((a, b) => (a.id < b.id ? -1 : 1)).at(-1)!;
        const primero = [...gastos].sort((a, b) => (a.id < b.id ? -1 : 1))[0]!;
        const bloqueo = await owner();
        await bloqueo.query("begin");
        await bloqueo.query("select id from gastos where id = $1 for update", [ultimo.id]);

        const confirmar = admin
          .post(`/remesas/${id}`, { intent: "confirmar", version: String(await version(id)) })
          .then(
            (r) => `respondió ${r.status}`,
            (e: Error) => `sin respuesta (${e.message})`,
          );
        await until(
          "la confirmación espera al último gasto",
          async () => (await esperando("confirmar_remesa")).length === 1,
        );
        // Half-way: the first gasto is already changed (and locked) by the confirmation's transaction.
        const mitad = await owner();
        await mitad.query("begin");
        const ocupado = await mitad.query("select id from gastos where id = $1 for update nowait", [primero.id]).then(
          () => false,
          (e: { code?: string }) => e.code === "55P03",
        );
        await mitad.end().catch(() => {});
        if (!ocupado) problemas.push(`ronda ${ronda}: el primer gasto no estaba ya cambiado por la confirmación`);

        if (solo) server!.signal("SIGKILL");
        else server!.signalGroup("SIGKILL");
        await server!.exited;
        agent.destroy();
        const respuesta = await confirmar;
        if (solo) {
          // Its Postgres lives on: let the confirmation's transaction go on, and wait for it to end.
          await bloqueo.query("rollback");
          await until("la transacción de la confirmación termina", () =>
            withOwner(
              dataDir,
              async (c) =>
                (
                  await c.query(
                    "select 1 from pg_stat_activity where query ilike '%confirmar_remesa%' and state <> 'idle' and pid <> pg_backend_pid()",
                  )
                ).rows.length === 0,
            ),
          );
        }
        await bloqueo.end().catch(() => {});
        await start();

        const despues = await estadoDe(id, gastos);
        const todoPagado =
          despues.remesa === "confirmada" &&
          despues.gastos.pagado === GASTOS_POR_REMESA &&
          despues.avisos === GASTOS_POR_REMESA &&
          despues.notas === GASTOS_POR_REMESA;
        const todoEnRemesa =
          despues.remesa === "generada" &&
          despues.gastos.aprobado === GASTOS_POR_REMESA &&
          despues.avisos === 0 &&
          despues.notas === 0;
        resultados.push(todoPagado ? "pagada" : todoEnRemesa ? "en remesa" : "a medias");
        if (!todoPagado && !todoEnRemesa)
          problemas.push(
            `ronda ${ronda} (${solo ? "servidor" : "servidor y Postgres"}, ${respuesta}): ${JSON.stringify(despues)}`,
          );

        // Still «en remesa»: confirming again pays them all.
        if (todoEnRemesa) {
          const otra = await signedIn(org.accounts.admin!);
          const r = await otra.post(`/remesas/${id}`, { intent: "confirmar", version: String(await version(id)) });
          if (r.status !== 302) problemas.push(`ronda ${ronda}: confirmar de nuevo respondió ${r.status}`);
          const final = await estadoDe(id, gastos);
          if (
            final.remesa !== "confirmada" ||
            final.gastos.pagado !== GASTOS_POR_REMESA ||
            final.avisos !== GASTOS_POR_REMESA
          )
            problemas.push(`ronda ${ronda}: al confirmar de nuevo, ${JSON.stringify(final)}`);
        }
      }
      figure(
        `Remesas — SIGKILL ×${RONDAS} con la confirmación a medias (${GASTOS_POR_REMESA} gastos; ${Math.ceil(RONDAS / 2)} al servidor solo, ` +
          `${Math.floor(RONDAS / 2)} con su Postgres): ${resultados.filter((r) => r === "en remesa").length} quedaron enteras en la remesa, ` +
          `${resultados.filter((r) => r === "pagada").length} enteras pagadas, ${resultados.filter((r) => r === "a medias").length} a medias`,
      );
      expect(problemas).toEqual([]);
    },
  );
});

describe("dos administradores generan remesas con los mismos gastos a la vez", () => {
  it("cada gasto acaba en exactamente una remesa; la otra se rechaza y lo dice", { timeout: 300_000 }, async () => {
    const [a, b] = await Promise.all([signedIn(org.accounts.admin!), signedIn(org.accounts.admin2!)]);
    const problemas: string[] = [];
    const RONDAS_CARRERA = 5;
    let ganadas = 0;
    for (let ronda = 1; ronda <= RONDAS_CARRERA; ronda++) {
      const [soloA, comunes, soloB] = [await aprobados(2), await aprobados(3), await aprobados(2)];
      const bloqueo = await owner();
      await bloqueo.query("begin");
      await bloqueo.query("select id from gastos where id = $1 for update", [comunes[0]!.id]);
      const carrera = Promise.all([generar(a, [...soloA, ...comunes]), generar(b, [...comunes, ...soloB])]);
      // Both wait on the same gasto: released together, they race for real.
      await until("las dos remesas esperan al mismo gasto", async () => (await esperando("crear_remesa")).length === 2);
      await bloqueo.query("rollback");
      await bloqueo.end();
      const respuestas = await carrera;
      const estados = respuestas.map((r) => r.status).sort();
      if (estados.join() !== "302,400") problemas.push(`ronda ${ronda}: respuestas ${estados.join(", ")}`);
      const perdida = respuestas.find((r) => r.status === 400);
      if (perdida && !/no pueden ir en la remesa|Otro administrador/.test(perdida.text()))
        problemas.push(`ronda ${ronda}: la rechazada no lo dice: ${perdida.text().slice(0, 300)}`);
      ganadas += respuestas.filter((r) => r.status === 302).length;

      const todos = [...soloA, ...comunes, ...soloB].map((g) => g.id);
      const { rows } = await withOwner(dataDir, (c) =>
        c.query<{ gasto_id: string; n: number }>(
          "select gasto_id, count(*)::int as n from remesa_gastos where viva and gasto_id = any($1::uuid[]) group by gasto_id",
          [todos],
        ),
      );
      const enRemesas = new Map(rows.map((r) => [r.gasto_id, r.n]));
      for (const g of comunes)
        if (enRemesas.get(g.id) !== 1)
          problemas.push(`ronda ${ronda}: un gasto común está en ${enRemesas.get(g.id) ?? 0} remesas`);
      for (const g of [...soloA, ...soloB])
        if ((enRemesas.get(g.id) ?? 0) > 1)
          problemas.push(`ronda ${ronda}: un gasto está en ${enRemesas.get(g.id)} remesas`);
    }
    figure(
      `Remesas — dos administradores a la vez ×${RONDAS_CARRERA} con 3 gastos en común (soltados a la vez): ${ganadas} remesas generadas, ` +
        `${RONDAS_CARRERA * 2 - ganadas} rechazadas con su motivo; gastos en dos remesas: ${problemas.filter((p) => /remesas$/.test(p)).length}`,
    );
    expect(problemas).toEqual([]);
  });
});
