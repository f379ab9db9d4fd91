import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import {
  agent,
  Browser,
  clusterDir,
  clusterState,
  freePort,
  httpRequest,
  killEverything,
  median,
  pgCtl,
  postmasterInfo,
  removeDataDir,
  sleep,
  spawnServer,
  startServer,
  stopServer,
  withOwner,
  workerPids,
  type ServerProcess,
  until,
} from "../support/server-process";
import { disposeServer } from "../support/server-suite";
import {
  createOrganisation,
  figure,
  follow,
  gastoForm,
  gastoIdOf,
  guardarForm,
  LEAKS,
  PASSWORD,
  textOf,
  workDir,
  type Account,
} from "./support";

/**
 * Faults against a real server process on its own embedded Postgres (production mode, fsync on):
 * SIGKILL in the middle of writes (20 times), SIGTERM with requests in flight, a second server on
 * the same DATA_DIR, the database stopped under load, Sentry's ingest unreachable, and people
 * racing on the same record.
 */
const dataDir = workDir("fallos");
let server: ServerProcess | undefined;
let org: Awaited<ReturnType<typeof createOrganisation>>;
const KILLS = Number(process.env.FAULT_KILLS ?? 20);
/** One port for every restart, so people stay signed in across them (sessions live in the database). */
let port: number;

async function start(env: Record<string, string> = {}) {
  const started = Date.now();
  server = await startServer({ dataDir, nodeEnv: "production", env, port });
  return Date.now() - started;
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
  org = await withOwner(dataDir, (c) =>
    createOrganisation(c, [
      { key: "admin", rol: "administrador", departamento: "compras" },
      { key: "admin2", rol: "administrador", departamento: "compras" },
      { key: "aprobador", rol: "aprobador" },
      { key: "elena", rol: "empleado", aprobador: "aprobador" },
      { key: "eva", rol: "empleado", aprobador: "aprobador" },
    ]),
  );
});

// A test that failed half-way may leave the server down: the next one starts from a running server.
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

type Tracked = { id: string; version: number; descripcion: string; estado: string };
type Pending =
  | { kind: "crear"; descripcion: string }
  | { kind: "guardar"; id: string; descripcion: string }
  | { kind: "enviar"; id: string };

describe("SIGKILL en mitad de una serie de escrituras", () => {
  it(
    `${KILLS} veces, alternando el servidor solo y el servidor con su Postgres: toda escritura confirmada (302) está, nada a medias`,
    { timeout: 900_000 },
    async () => {
      const tracked = new Map<string, Tracked>();
      const unconfirmedCreates: string[] = [];
      let confirmed = 0;
      let lost = 0;
      const problems: string[] = [];
      const restarts: number[] = [];
      let seq = 0;

      const writers = await Promise.all(
        [org.accounts.elena!, org.accounts.elena!, org.accounts.eva!, org.accounts.eva!].map(signedIn),
      );
      for (let round = 1; round <= KILLS; round++) {
        let confirmedThisRound = 0;
        let killed = false;
        const pendings: Pending[] = [];

        const loop = async (browser: Browser, w: number) => {
          const mine = () =>
            [...tracked.values()].filter((g) => g.descripcion.includes(`-w${w}-`) && g.estado === "borrador");
          while (!killed) {
            seq += 1;
            const dice = seq % 5;
            const candidates = mine();
            let pending: Pending;
            try {
              if (dice < 3 || candidates.length === 0) {
                const descripcion = `r${round}-w${w}-n${seq}`;
                pending = { kind: "crear", descripcion };
                pendings[w] = pending;
                const r = await browser.post(
                  "/gastos?index",
                  gastoForm({ descripcion, importe: `${1 + (seq % 900)},${String(seq % 100).padStart(2, "0")}` }),
                );
                if (r.status !== 302) throw new Error(`crear: ${r.status}`);
                const id = gastoIdOf(r.location)!;
                tracked.set(id, { id, version: 1, descripcion, estado: "borrador" });
              } else {
                const g = candidates[seq % candidates.length]!;
                if (dice === 3) {
                  const descripcion = `${g.descripcion.split("~")[0]}~e${seq}`;
                  pending = { kind: "guardar", id: g.id, descripcion };
                  pendings[w] = pending;
                  const r = await browser.post(`/gastos?gasto=${g.id}`, guardarForm(g, { descripcion }));
                  if (r.status !== 302) throw new Error(`guardar: ${r.status} ${r.text().slice(0, 200)}`);
                  Object.assign(g, { descripcion, version: g.version + 1 });
                } else {
                  pending = { kind: "enviar", id: g.id };
                  pendings[w] = pending;
                  const r = await browser.post(`/gastos?gasto=${g.id}`, {
                    intent: "enviar",
                    id: g.id,
                    version: String(g.version),
                  });
                  if (r.status !== 302) throw new Error(`enviar: ${r.status}`);
                  Object.assign(g, { estado: "pendiente", version: g.version + 1 });
                }
              }
              delete pendings[w];
              confirmed += 1;
              confirmedThisRound += 1;
            } catch (error) {
              if (!killed) problems.push(`ronda ${round}, escritor ${w}: ${(error as Error).message}`);
              return;
            }
          }
        };

        const loops = writers.map((b, w) => loop(b, w));
        // Kill once writes are flowing, after a random number of them (a moment no write chose).
        const killAfter = 3 + Math.floor(Math.random() * 12);
        while (confirmedThisRound < killAfter && server!.alive()) await sleep(10);
        const alone = round % 2 === 1;
        killed = true;
        if (alone) server!.signal("SIGKILL");
        else server!.signalGroup("SIGKILL");
        await server!.exited;
        await Promise.all(loops);
        agent.destroy(); // no keep-alive socket of the dead server is reused after the restart
        for (const p of pendings) if (p?.kind === "crear") unconfirmedCreates.push(p.descripcion);

        restarts.push(await start());

        // Every confirmed write is there; the one in flight is either wholly there or not at all.
        await withOwner(dataDir, async (c) => {
          const { rows } = await c.query<Tracked>(
            "select id, version, descripcion, estado from gastos where id = any($1::uuid[])",
            [[...tracked.keys()]],
          );
          const byId = new Map(rows.map((r) => [r.id, r]));
          for (const g of tracked.values()) {
            const row = byId.get(g.id);
            const inFlight = pendings.find((p) => p && p.kind !== "crear" && p.id === g.id) as
              Exclude<Pending, { kind: "crear" }> | undefined;
            const matches =
              row && row.descripcion === g.descripcion && row.estado === g.estado && row.version === g.version;
            const matchesInFlight =
              row &&
              inFlight &&
              row.version === g.version + 1 &&
              (inFlight.kind === "guardar"
                ? row.descripcion === inFlight.descripcion && row.estado === g.estado
                : row.estado === "pendiente" && row.descripcion === g.descripcion);
            if (!matches && !matchesInFlight) {
              lost += 1;
              problems.push(
                `ronda ${round}: ${g.id} esperado ${JSON.stringify(g)}, en la base ${JSON.stringify(row ?? null)}`,
              );
            }
            if (row) Object.assign(g, row);
          }
          const dup = await c.query(
            "select descripcion, count(*)::int as n from gastos group by descripcion having count(*) > 1",
          );
          for (const d of dup.rows) problems.push(`ronda ${round}: duplicado ${d.descripcion} ×${d.n}`);
        });
      }

      // Nothing half-written: each gasto has its «alta», one «modificación» per version step, an
      // approver when pending, and no history points to a gasto that is not there.
      const consistency = await withOwner(dataDir, async (c) => {
        const { rows } = await c.query(`
        select g.id, g.version, g.estado, g.aprobador_id, g.folio,
               count(*) filter (where h.accion = 'alta')::int as altas,
               count(*) filter (where h.accion = 'modificacion')::int as modificaciones
        from gastos g left join historial h on h.tabla = 'gastos' and h.registro_id = g.id
        group by g.id`);
        const bad = rows.filter(
          (r) =>
            r.altas !== 1 ||
            r.modificaciones !== r.version - 1 ||
            (r.estado === "pendiente" && !r.aprobador_id) ||
            !/^GAS-\d{4}-\d{5}$/.test(r.folio),
        );
        const orphans = (
          await c.query(
            "select count(*)::int as n from historial h where tabla = 'gastos' and not exists (select 1 from gastos g where g.id = h.registro_id)",
          )
        ).rows[0].n;
        const created = (
          await c.query("select count(*)::int as n from gastos where descripcion = any($1)", [unconfirmedCreates])
        ).rows[0].n;
        return { total: rows.length, bad, orphans, unconfirmedPresent: created };
      });
      for (const b of consistency.bad) problems.push(`a medias: ${JSON.stringify(b)}`);
      if (consistency.orphans) problems.push(`${consistency.orphans} filas de historial sin su gasto`);

      figure(
        `Fallos — SIGKILL ×${KILLS} (${Math.ceil(KILLS / 2)} al servidor solo, ${Math.floor(KILLS / 2)} al servidor con su Postgres): ` +
          `${confirmed} escrituras confirmadas, escrituras confirmadas perdidas: ${lost}; ${consistency.total} gastos comprobados, ` +
          `${consistency.bad.length} a medias, ${consistency.orphans} historiales huérfanos; ${unconfirmedCreates.length} altas sin respuesta al morir ` +
          `(${consistency.unconfirmedPresent} llegaron a guardarse, enteras); rearranque: mediana ${(median(restarts) / 1000).toFixed(1)} s`,
      );
      expect(problems).toEqual([]);
      expect(lost).toBe(0);
      expect(confirmed).toBeGreaterThanOrEqual(KILLS * 3);
    },
  );
});

describe("SIGTERM", () => {
  it("las peticiones en curso terminan, Postgres se detiene limpio, sin postmaster.pid, y el siguiente arranque es limpio", async () => {
    const elena = await signedIn(org.accounts.elena!);
    const admin = await signedIn(org.accounts.admin!);
    // Slow form posts: headers and half of the body sent, the rest after SIGTERM.
    const slow = await Promise.all(
      Array.from({ length: 4 }, async (_, i) => {
        const descripcion = `sigterm-${i}-${randomUUID().slice(0, 8)}`;
        const body = new URLSearchParams(gastoForm({ descripcion })).toString();
        const socket = net.connect(server!.port, "127.0.0.1");
        await new Promise((resolve) => socket.once("connect", resolve));
        const chunks: Buffer[] = [];
        socket.on("data", (c) => chunks.push(c));
        const closed = new Promise<string>((resolve) =>
          socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8"))),
        );
        socket.write(
          `POST /gastos?index HTTP/1.1\r\nHost: 127.0.0.1:${server!.port}\r\nOrigin: ${server!.url}\r\nSec-Fetch-Site: same-origin\r\n` +
            `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCookie: ${elena.cookieHeader()}\r\nConnection: close\r\n\r\n`,
        );
        socket.write(body.slice(0, 20));
        return { socket, rest: body.slice(20), closed, descripcion };
      }),
    );
    // A client that keeps its keep-alive connection busy (a monitor, an impatient browser).
    let busy = true;
    let busyAnswers = 0;
    const busyLoop = (async () => {
      while (busy) {
        const r = await httpRequest(server!.url, "/healthz").catch(() => null);
        if (!r) break;
        busyAnswers += 1;
      }
    })();
    await until("el cliente ocupado recibe respuestas", () => busyAnswers >= 3);
    // Fresh connections, so a GET is either read by the server (then it must finish) or never accepted.
    let getsAnswered = 0;
    const gets = Array.from({ length: 10 }, () =>
      httpRequest(server!.url, "/gastos", {
        agent: false,
        headers: { Cookie: admin.cookieHeader(), Connection: "close" },
      }).then(
        (r) => {
          getsAnswered += 1;
          return r.status;
        },
        (e: Error) => e.message,
      ),
    );
    // SIGTERM once the server is answering them: the first is done, the others in flight.
    await until("la primera lectura responde", () => getsAnswered > 0);
    const t = Date.now();
    server!.signal("SIGTERM");
    // The uploads' rest arrives once the server is already stopping.
    await until("el servidor empieza a detenerse", () =>
      server!.output().includes("terminando las peticiones en curso"),
    );
    for (const s of slow) s.socket.write(s.rest);
    const answers = await Promise.all(slow.map((s) => s.closed));
    const statuses = await Promise.all(gets);
    const exit = await Promise.race([server!.exited, sleep(30_000).then(() => null)]);
    const took = Date.now() - t;
    busy = false;
    await busyLoop;

    for (const a of answers) expect(a).toMatch(/^HTTP\/1\.1 302/);
    // A GET either completed or was never accepted (connection refused): never a 5xx or a cut.
    // A GET the server had read finished with 200; one it had not (closed unread, or refused) got
    // no answer at all, which a browser retries. Never a 5xx, never a cut response.
    for (const s of statuses) expect(String(s)).toMatch(/^200$|ECONNREFUSED|ECONNRESET|socket hang up/);
    // A timeout, not a speed: a close the busy client held would end only at the workers' 25 s
    // deadline (server.ts), and still exit 0.
    expect(took).toBeLessThan(20_000);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server!.output()).toContain("Oficina detenida.");
    expect(existsSync(path.join(clusterDir(dataDir), "postmaster.pid"))).toBe(false);
    expect(existsSync(path.join(dataDir, "oficina.pid"))).toBe(false);
    expect(clusterState(dataDir)).toBe("shut down");

    const restart = await start();
    const written = await withOwner(
      dataDir,
      async (c) =>
        (
          await c.query("select count(*)::int as n from gastos where descripcion = any($1)", [
            slow.map((s) => s.descripcion),
          ])
        ).rows[0].n,
    );
    expect(written).toBe(slow.length);
    expect(server!.output()).not.toMatch(/seguía en marcha/);
    figure(
      `Fallos — SIGTERM: ${slow.length} envíos a medias terminaron con 302 y están en la base; ${statuses.filter((s) => s === 200).length} de ${statuses.length} lecturas lanzadas justo antes con 200 ` +
        `(el resto no llegó a leerse: sin respuesta, nunca un 5xx); un cliente con keep-alive ocupado (${busyAnswers} peticiones) no retuvo el cierre; ` +
        `salida 0 en ${(took / 1000).toFixed(1)} s; Postgres «shut down», sin postmaster.pid; rearranque limpio en ${(restart / 1000).toFixed(1)} s`,
    );
  });
});

describe("un segundo servidor sobre el mismo DATA_DIR", () => {
  it("se niega a arrancar con un mensaje claro y el primero sigue sirviendo", async () => {
    const before = postmasterInfo(dataDir);
    const second = spawnServer({ dataDir, nodeEnv: "production", port: await freePort() });
    const exit = await Promise.race([second.exited, sleep(90_000).then(() => null)]);
    if (!exit) second.signalGroup("SIGKILL");
    expect(exit).toEqual({ code: 1, signal: null });
    expect(second.output()).toContain(`ya está en uso por otro servidor de Oficina (pid ${server!.pid})`);
    expect(postmasterInfo(dataDir)).toEqual(before);
    expect((await httpRequest(server!.url, "/healthz")).status).toBe(200);
    figure(
      `Fallos — segundo servidor en el mismo DATA_DIR: sale con código 1 y «${second.output().trim().split("\n").pop()}»`,
    );
  });
});

describe("un proceso del servidor muere (node:cluster)", () => {
  it("el primario arranca otro; las páginas siguen respondiendo, ninguna con 5xx", async () => {
    const before = workerPids(server!.pid);
    expect(before).toHaveLength(os.availableParallelism());
    const elena = await signedIn(org.accounts.elena!);
    let stop = false;
    const seen = { ok: 0, cortadas: 0, otras: [] as number[] };
    const load = (async () => {
      while (!stop) {
        // A connection the primary was handing to the dying process may never be answered: as a
        // browser would, give up on it after a while and ask again.
        const r = await httpRequest(server!.url, "/gastos", {
          headers: { Cookie: elena.cookieHeader() },
          timeoutMs: 5_000,
        }).catch(() => null);
        if (!r) seen.cortadas += 1;
        else if (r.status === 200) seen.ok += 1;
        else seen.otras.push(r.status);
      }
    })();
    await until("la carga recibe páginas", () => seen.ok >= 5);
    const started = Date.now();
    process.kill(before[0]!, "SIGKILL");
    let after: number[] = [];
    while (Date.now() - started < 30_000) {
      after = workerPids(server!.pid);
      if (
        after.length === before.length &&
        !after.includes(before[0]!) &&
        (await httpRequest(server!.url, "/healthz")).status === 200
      )
        break;
      await sleep(100);
    }
    const replacedMs = Date.now() - started;
    // Pages served after the replacement, not only before the kill.
    const servedBefore = seen.ok;
    await until("páginas servidas tras la sustitución", () => seen.ok >= servedBefore + 10);
    stop = true;
    await load;
    expect(after).toHaveLength(before.length);
    expect(after).not.toContain(before[0]);
    expect(server!.output()).toMatch(new RegExp(`El proceso ${before[0]} terminó \\(SIGKILL\\); se arranca otro`));
    expect(seen.otras).toEqual([]);
    expect(seen.ok).toBeGreaterThan(10);
    figure(
      `Fallos — SIGKILL a uno de los ${before.length} procesos del servidor: sustituido en ${(replacedMs / 1000).toFixed(1)} s; ${seen.ok} páginas servidas mientras, ` +
        `${seen.cortadas} conexiones cortadas (las que atendía el proceso muerto), 0 respuestas 5xx`,
    );
  });
});

describe("la base de datos se detiene con carga", () => {
  it("las páginas muestran la pantalla de error con su código (sin caída ni traza) y la app se recupera sola al volver la base", async () => {
    const admin = await signedIn(org.accounts.admin!);
    const elena = await signedIn(org.accounts.elena!);
    const pm = postmasterInfo(dataDir)!;
    let stop = false;
    const seen = { ok: 0, error: 0, otros: [] as string[] };
    const errorPages: string[] = [];
    const load = async (b: Browser, paths: string[]) => {
      for (let i = 0; !stop; i++) {
        const r = await b.get(paths[i % paths.length]!).catch((e: Error) => ({ status: -1, text: () => e.message }));
        if (r.status === 200) seen.ok += 1;
        else if (r.status === 500) {
          seen.error += 1;
          if (errorPages.length < 50) errorPages.push(r.text());
        } else seen.otros.push(`${r.status} ${r.text().slice(0, 100)}`);
      }
    };
    const loops = [
      load(admin, ["/gastos", "/", "/departamentos"]),
      load(elena, ["/gastos", "/proveedores", "/"]),
      load(admin, ["/usuarios", "/sucursales"]),
    ];
    onTestFinished(() => {
      stop = true;
    });
    await until("la carga recibe páginas", () => seen.ok >= 10);

    const stopped = pgCtl(dataDir, ["stop", "-m", "fast", "-w"]);
    expect(stopped.status, stopped.output).toBe(0);
    const downSince = Date.now();
    // The app has noticed: the load gets error pages.
    await until("páginas de error con la base detenida", () => seen.error >= 3);
    const health = await httpRequest(server!.url, "/healthz");
    const page = await admin.get("/gastos");
    const write = await elena.post("/gastos?index", gastoForm({ descripcion: `sin-base-${randomUUID().slice(0, 8)}` }));
    expect(server!.alive()).toBe(true);

    const log = path.join(clusterDir(dataDir), "reinicio.log");
    const started = pgCtl(dataDir, [
      "start",
      "-w",
      "-l",
      log,
      "-o",
      `-p ${pm.port} -c listen_addresses=127.0.0.1 -c max_connections=200`,
    ]);
    expect(started.status, started.output).toBe(0);
    const upAt = Date.now();
    let recovered = -1;
    while (Date.now() - upAt < 60_000) {
      const r = await admin.get("/gastos");
      if (r.status === 200) {
        recovered = Date.now() - upAt;
        break;
      }
      await sleep(100);
    }
    const servedBefore = seen.ok;
    await until("la carga vuelve a recibir páginas", () => seen.ok >= servedBefore + 10);
    stop = true;
    await Promise.all(loops);
    const after = await Promise.all([
      admin.get("/"),
      elena.post("/gastos?index", gastoForm({ descripcion: `con-base-${randomUUID().slice(0, 8)}` })),
    ]);

    expect(health.status).toBe(503);
    expect(page.status).toBe(500);
    expect(write.status).toBe(500);
    for (const html of [page.text(), write.text(), ...errorPages]) {
      expect(textOf(html)).toContain("Error de la aplicación: se produjo una excepción en el servidor");
      expect(textOf(html)).toMatch(/Código: [0-9a-f]{8}/);
      for (const leak of LEAKS) expect(html).not.toMatch(leak);
    }
    expect(seen.otros).toEqual([]);
    expect(recovered).toBeGreaterThanOrEqual(0);
    expect(after[0].status).toBe(200);
    expect(after[1].status).toBe(302);
    expect(server!.alive()).toBe(true);
    figure(
      `Fallos — base de datos detenida con carga (${((upAt - downSince) / 1000).toFixed(1)} s): ${seen.error} páginas de error con código y sin traza, ${seen.ok} respuestas 200, ` +
        `/healthz 503 mientras tanto; recuperada sin reiniciar la app ${(recovered / 1000).toFixed(1)} s después de volver la base`,
    );

    // SIGTERM still ends cleanly, though the app's own Postgres child is gone (it was restarted by hand).
    const t = Date.now();
    server!.signal("SIGTERM");
    const exit = await Promise.race([server!.exited, sleep(30_000).then(() => null)]);
    const exitMs = Date.now() - t;
    expect(exit, `SIGTERM no terminó el servidor en 30 s:\n${server!.output().slice(-2000)}`).toEqual({
      code: 0,
      signal: null,
    });
    // The Postgres started by hand is left for the next start to stop (as after a crash).
    const again = await start();
    expect(server!.output()).toMatch(/seguía en marcha/);
    figure(
      `Fallos — tras la caída de la base, SIGTERM sale con 0 en ${(exitMs / 1000).toFixed(1)} s y el siguiente arranque detiene el Postgres huérfano y arranca en ${(again / 1000).toFixed(1)} s`,
    );
  });
});

/**
 * Where SENTRY_DSN points when Sentry cannot be reached: a closed port (refused at once), or a
 * server that accepts the connection and never answers — what a transport or a flush that waits
 * would hang on. `conexiones` counts what reached it (null: nothing can).
 */
async function ingestaCerrada() {
  return { port: await freePort(), conexiones: () => null as number | null, cerrar: async () => {} };
}
async function ingestaMuda() {
  const sockets = new Set<net.Socket>();
  let conexiones = 0;
  const muda = net.createServer((socket) => {
    conexiones++;
    sockets.add(socket);
    socket.on("data", () => {}); // read and never answer
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => muda.listen(0, "127.0.0.1", resolve));
  return {
    port: (muda.address() as net.AddressInfo).port,
    conexiones: () => conexiones as number | null,
    cerrar: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => muda.close(resolve));
    },
  };
}

describe("Sentry inalcanzable", () => {
  it.each([
    ["un puerto cerrado", ingestaCerrada],
    ["un servidor que acepta y nunca responde", ingestaMuda],
  ])(
    "con SENTRY_DSN hacia %s, las páginas no se ven afectadas, los errores siguen mostrando su código y el servidor se detiene a tiempo",
    async (nombre, crearIngesta) => {
      await stopServer(server!);
      const ingesta = await crearIngesta();
      try {
        const dsn = `http://clavepublica@127.0.0.1:${ingesta.port}/42`;
        await start({ SENTRY_DSN: dsn });
        const admin = await signedIn(org.accounts.admin!);
        const timed = async (fn: () => Promise<{ status: number }>) => {
          const t = performance.now();
          const r = await fn();
          return { status: r.status, ms: performance.now() - t };
        };
        const before = [];
        for (let i = 0; i < 10; i++) before.push(await timed(() => admin.get("/gastos")));
        const errors = [];
        for (let i = 0; i < 15; i++) {
          const t = performance.now();
          const r = await admin.post("/sentry-example-page", {});
          errors.push({ status: r.status, ms: performance.now() - t, html: r.text() });
        }
        const envelope = `${JSON.stringify({ dsn, sent_at: new Date().toISOString() })}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify({ message: "prueba" })}\n`;
        const tunel = () =>
          timed(() =>
            httpRequest(server!.url, "/monitoring", {
              method: "POST",
              body: envelope,
              headers: { Origin: server!.url, "Sec-Fetch-Site": "same-origin", "Content-Type": "text/plain" },
            }),
          );
        const paginas = async () => {
          const out = [];
          for (let i = 0; i < 10; i++) out.push(await timed(() => admin.get("/gastos")));
          return out;
        };
        const muda = ingesta.conexiones() !== null;
        let tunnels: { status: number; ms: number }[] = [];
        let afterPages;
        if (muda) {
          // The tunnel's requests wait on the ingest: the pages go on meanwhile.
          const esperando = Promise.all(Array.from({ length: 5 }, tunel));
          afterPages = await paginas();
          tunnels = await esperando;
        } else {
          for (let i = 0; i < 5; i++) tunnels.push(await tunel());
          afterPages = await paginas();
        }
        const tunnel = median(tunnels.map((t) => t.ms));

        for (const r of [...before, ...afterPages]) expect(r.status).toBe(200);
        for (const e of errors) {
          expect(e.status).toBe(500);
          expect(textOf(e.html)).toMatch(/Código: [0-9a-f]{8}/);
        }
        for (const t of tunnels) expect(t.status).toBe(502);
        // The server's events did try to go out (the mute ingest counts them): the pages above
        // ran while its transport waited.
        if (muda) expect(ingesta.conexiones()).toBeGreaterThan(0);
        const page = median(before.map((r) => r.ms));
        const pageAfter = median(afterPages.map((r) => r.ms));
        const errorPage = median(errors.map((e) => e.ms));
        // Against /gastos just before, on this machine at this moment: an answer that waited on the
        // unreachable transport (a connection, a retry, a flush) would take many pages' time.
        expect(pageAfter).toBeLessThan(3 * page);
        expect(errorPage).toBeLessThan(3 * page);
        // The tunnel answers 502 at once when refused; when nothing answers, at its own 5 s
        // timeout (a deadline: never twice that).
        if (muda) expect(tunnel).toBeLessThan(10_000);
        else expect(tunnel).toBeLessThan(3 * page);
        expect(server!.alive()).toBe(true);
        const t = Date.now();
        const exit = await stopServer(server!);
        const stopMs = Date.now() - t;
        // A deadline, not a speed: well below the workers' 25 s (server.ts), as without Sentry.
        expect(exit).toEqual({ code: 0, signal: null });
        expect(stopMs).toBeLessThan(10_000);
        figure(
          `Fallos — Sentry en ${nombre}: /gastos mediana ${page.toFixed(0)} ms antes y ${pageAfter.toFixed(0)} ms después de ` +
            `${errors.length} errores de servidor (pantalla de error con código en ${errorPage.toFixed(0)} ms); el túnel /monitoring responde 502 en ${tunnel.toFixed(0)} ms (mediana de 5${muda ? " a la vez" : ""}); SIGTERM sale en ${(stopMs / 1000).toFixed(1)} s`,
        );
      } finally {
        await ingesta.cerrar();
      }
      await start();
    },
  );
});

describe("carreras: dos personas sobre lo mismo, envíos dobles", () => {
  const ROUNDS = 8;
  it("dos ediciones a la vez de un departamento: una gana, la otra recibe 409 con los valores actuales; nada se pierde en silencio", async () => {
    const [a, b] = await Promise.all([signedIn(org.accounts.admin!), signedIn(org.accounts.admin2!)]);
    let races = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const codigo = `R${randomUUID().slice(0, 6).toUpperCase()}`;
      const id = await withOwner(
        dataDir,
        async (c) =>
          (
            await c.query("insert into departamentos (nombre, codigo) values ($1, $2) returning id", [
              `Carrera ${codigo}`,
              codigo,
            ])
          ).rows[0].id as string,
      );
      const form = (notas: string) => ({
        intent: "guardar",
        version: "1",
        nombre: `Carrera ${codigo}`,
        codigo,
        departamento_padre_id: "",
        responsable_id: "",
        centro_costo: "",
        presupuesto_mensual: "",
        activo: "on",
        notas,
      });
      const [ra, rb] = await Promise.all([
        a.post(`/departamentos/${id}`, form("de Ana")),
        b.post(`/departamentos/${id}`, form("de Bea")),
      ]);
      const statuses = [ra.status, rb.status].sort();
      expect(statuses).toEqual([302, 409]);
      const loser = ra.status === 409 ? ra : rb;
      expect(textOf(loser.text())).toContain("Otra persona modificó este registro mientras lo editaba");
      const row = await withOwner(
        dataDir,
        async (c) => (await c.query("select notas, version from departamentos where id = $1", [id])).rows[0],
      );
      expect(row).toEqual({ notas: ra.status === 302 ? "de Ana" : "de Bea", version: 2 });
      const mods = await withOwner(
        dataDir,
        async (c) =>
          (
            await c.query(
              "select count(*)::int as n from historial where registro_id = $1 and accion = 'modificacion'",
              [id],
            )
          ).rows[0].n,
      );
      expect(mods).toBe(1);
      races += 1;
    }
    figure(
      `Carreras — ediciones simultáneas del mismo registro: ${races} carreras, ${races} ganadores únicos, ${races} avisos 409 «Otra persona modificó…», 0 actualizaciones perdidas`,
    );
  });

  it("dos aprobaciones a la vez del mismo gasto: una gana, la otra lo dice; una sola transición en el historial", async () => {
    const [elena, apro, admin] = await Promise.all([
      signedIn(org.accounts.elena!),
      signedIn(org.accounts.aprobador!),
      signedIn(org.accounts.admin!),
    ]);
    for (let i = 0; i < ROUNDS; i++) {
      const r = await elena.post(
        "/gastos?index",
        gastoForm({ descripcion: `aprobar-a-la-vez-${i}-${randomUUID().slice(0, 6)}`, importe: `${100 + i},00` }),
      );
      const id = gastoIdOf(r.location)!;
      expect((await elena.post(`/gastos?gasto=${id}`, { intent: "enviar", id, version: "1" })).status).toBe(302);
      const [x, y] = await Promise.all([
        apro.post(`/gastos?gasto=${id}`, { intent: "aprobar", id, version: "2" }),
        admin.post(`/gastos?gasto=${id}`, { intent: "aprobar", id, version: "2" }),
      ]);
      expect([x.status, y.status]).toEqual([302, 302]);
      const pages = [textOf(await follow(apro, x.location)), textOf(await follow(admin, y.location))];
      const row = await withOwner(
        dataDir,
        async (c) => (await c.query("select estado, version, aprobado_por_id from gastos where id = $1", [id])).rows[0],
      );
      expect(row.estado).toBe("aprobado");
      expect(row.version).toBe(3);
      expect([org.accounts.aprobador!.id, org.accounts.admin!.id]).toContain(row.aprobado_por_id);
      const [winnerPage, loserPage] =
        row.aprobado_por_id === org.accounts.aprobador!.id ? pages : [pages[1]!, pages[0]!];
      expect(winnerPage).toMatch(/Gasto GAS-\d{4}-\d{5} aprobado\./);
      expect(loserPage).toMatch(
        /Gasto GAS-\d{4}-\d{5}: (El gasto ya no está pendiente de aprobación: otra persona lo ha cambiado|Otra persona modificó este gasto)/,
      );
      const transitions = await withOwner(
        dataDir,
        async (c) =>
          (
            await c.query(
              "select count(*)::int as n from historial where registro_id = $1 and cambios -> 'estado' ->> 'despues' = 'aprobado'",
              [id],
            )
          ).rows[0].n,
      );
      expect(transitions).toBe(1);
    }
    figure(
      `Carreras — aprobaciones simultáneas: ${ROUNDS} carreras, una aprobación cada vez, la otra persona recibe el aviso, 1 transición en el historial`,
    );
  });

  it("formularios enviados dos (o cinco) veces a la vez: un solo registro, una sola transición", async () => {
    const [elena, admin] = await Promise.all([signedIn(org.accounts.elena!), signedIn(org.accounts.admin!)]);
    for (let i = 0; i < ROUNDS; i++) {
      const form = gastoForm({ descripcion: `doble-envio-${i}-${randomUUID().slice(0, 6)}`, importe: `${200 + i},00` });
      const rs = await Promise.all(Array.from({ length: i % 2 ? 5 : 2 }, () => elena.post("/gastos?index", form)));
      for (const r of rs) expect(r.status).toBe(302);
      expect(new Set(rs.map((r) => gastoIdOf(r.location))).size).toBe(1);
      const n = await withOwner(
        dataDir,
        async (c) =>
          (await c.query("select count(*)::int as n from gastos where descripcion = $1", [form.descripcion])).rows[0].n,
      );
      expect(n).toBe(1);

      const id = gastoIdOf(rs[0]!.location)!;
      const sends = await Promise.all(
        [1, 2].map(() => elena.post(`/gastos?gasto=${id}`, { intent: "enviar", id, version: "1" })),
      );
      expect(sends.map((s) => s.status)).toEqual([302, 302]);
      const h = await withOwner(
        dataDir,
        async (c) =>
          (
            await c.query(
              "select count(*)::int as n from historial where registro_id = $1 and cambios -> 'estado' ->> 'despues' = 'pendiente'",
              [id],
            )
          ).rows[0].n,
      );
      expect(h).toBe(1);

      const codigo = `D${randomUUID().slice(0, 6).toUpperCase()}`;
      const dep = { intent: "crear", nombre: `Doble ${codigo}`, codigo, activo: "on", _envio: randomUUID() };
      const ds = await Promise.all([admin.post("/departamentos?index", dep), admin.post("/departamentos?index", dep)]);
      expect(ds.map((d) => d.status)).toEqual([302, 302]);
      const nd = await withOwner(
        dataDir,
        async (c) =>
          (await c.query("select count(*)::int as n from departamentos where codigo = $1", [codigo])).rows[0].n,
      );
      expect(nd).toBe(1);
    }
    figure(
      `Carreras — envíos dobles: ${ROUNDS} altas de gasto (×2 y ×5), ${ROUNDS} «Enviar» ×2 y ${ROUNDS} altas de departamento ×2: 0 duplicados, 0 transiciones repetidas`,
    );
  });
});

// Last: it leaves the database without this tree's schema.
describe("una base de datos que aplicó una migración que cambió después", () => {
  it("el servidor no arranca, dice qué hacer y no deja su Postgres encendido", async () => {
    await withOwner(dataDir, (c) =>
      c.query(
        "update supabase_migrations.huellas_oficina set sha256 = repeat('0', 64) where version = '20261125000001'",
      ),
    );
    await stopServer(server!);
    const refused = spawnServer({ dataDir, nodeEnv: "production", port });
    const exit = await Promise.race([refused.exited, sleep(90_000).then(() => null)]);
    if (!exit) refused.signalGroup("SIGKILL");
    expect(exit).toEqual({ code: 1, signal: null });
    expect(refused.output()).toMatch(
      /la migración supabase\/migrations\/20261125000001_esquema\.sql cambió después de aplicarse\..*borre el directorio DATA_DIR\/postgres/,
    );
    // The embedded PostgreSQL it started is stopped with it, not left behind.
    expect(postmasterInfo(dataDir)).toBeNull();
    figure(`Fallos — base sin el esquema de este árbol: sale con código 1, sin Postgres encendido`);
  });
});
