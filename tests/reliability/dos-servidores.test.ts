import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "~/data/embedded.server";
import {
  Browser,
  killEverything,
  removeDataDir,
  startServer,
  stopServer,
  type ServerProcess,
} from "../support/server-process";
import { createOrganisation, figure, PASSWORD, textOf, workDir } from "./support";

/**
 * Scale-out (issue 15): two app servers, each with its own DATA_DIR and nothing in memory in
 * common, on one DATABASE_URL (a PostgreSQL of their own here). What they must agree on lives in
 * the database: a session opened on one works on the other, signing out or a lock on one holds on
 * the other, a form posted twice to both creates one record, and the limits count the requests of
 * both together.
 */
const dir = workDir("dos-servidores");
let database: EmbeddedDatabase;
let servers: [ServerProcess, ServerProcess];
let org: Awaited<ReturnType<typeof createOrganisation>>;

async function withDatabase<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  removeDataDir(dir);
  database = await startEmbeddedPostgres(path.join(dir, "postgres"), { fsync: false });
  // Both at once on an empty database: one migrates, the other waits for it (advisory lock).
  servers = (await Promise.all(
    [1, 2].map((n) =>
      startServer({
        dataDir: path.join(dir, `servidor-${n}`),
        nodeEnv: "production",
        env: { DATABASE_URL: database.url, WEB_CONCURRENCY: "1" },
      }),
    ),
  )) as [ServerProcess, ServerProcess];
  org = await withDatabase((c) =>
    createOrganisation(c, [
      { key: "admin", rol: "administrador" },
      { key: "elena", rol: "empleado" },
      { key: "bruno", rol: "empleado" },
    ]),
  );
}, 300_000);

afterAll(async () => {
  for (const s of servers ?? []) if (s?.alive()) await stopServer(s).catch(() => undefined);
  for (const s of servers ?? []) await killEverything(s, s.dataDir);
  await database?.stop();
  removeDataDir(dir);
});

/** The same person's cookies, presented to the other server. */
function on(server: ServerProcess, from: Browser) {
  const b = new Browser(server.url);
  for (const [k, v] of from.cookies) b.cookies.set(k, v);
  return b;
}
const signedIn = async (b: Browser) => {
  const r = await b.get("/");
  return r.status === 200 && textOf(r.text()).includes("Cerrar sesión");
};

describe("dos servidores sobre una base de datos", () => {
  it("la sesión abierta en uno sirve en el otro; lo creado en el otro se ve en el primero; cerrarla en uno la cierra en los dos", async () => {
    const [a, b] = servers;
    const admin = new Browser(a.url);
    await admin.signIn(org.accounts.admin!.email, PASSWORD);
    const onB = on(b, admin);
    expect(await signedIn(onB)).toBe(true);

    const nombre = `Escala ${randomUUID().slice(0, 6)}`;
    const created = await onB.post("/departamentos?index", {
      intent: "crear",
      nombre,
      codigo: `E-${nombre.slice(-6).toUpperCase()}`,
      activo: "on",
      _envio: randomUUID(),
    });
    expect(created.status).toBe(302);
    expect(textOf((await admin.get(`/departamentos?q=${encodeURIComponent(nombre)}`)).text())).toContain(nombre);

    await onB.post("/logout", {});
    expect(await signedIn(admin)).toBe(false);
    figure(
      "Dos servidores: sesión abierta en A sirve en B, lo creado en B se ve en A, cerrar sesión en B la cierra en A",
    );
  });

  it("un formulario enviado a la vez a los dos crea un solo registro", async () => {
    const [a, b] = servers;
    const admin = new Browser(a.url);
    await admin.signIn(org.accounts.admin!.email, PASSWORD);
    const nombre = `Doble ${randomUUID().slice(0, 6)}`;
    const form = {
      intent: "crear",
      nombre,
      codigo: `D-${nombre.slice(-6).toUpperCase()}`,
      activo: "on",
      _envio: randomUUID(),
    };
    const answers = await Promise.all([
      admin.post("/departamentos?index", form),
      on(b, admin).post("/departamentos?index", form),
      admin.post("/departamentos?index", form),
    ]);
    expect(answers.map((r) => r.status)).toEqual([302, 302, 302]);
    const n = await withDatabase(async (c) =>
      Number((await c.query("select count(*) from departamentos where nombre = $1", [nombre])).rows[0].count),
    );
    expect(n).toBe(1);
  });

  it("5 contraseñas malas repartidas entre los dos bloquean la cuenta en los dos; otra cuenta desde la misma dirección entra", async () => {
    const email = org.accounts.elena!.email;
    for (let i = 0; i < 5; i++) {
      const r = await new Browser(servers[i % 2]!.url).post("/login", {
        intent: "iniciar",
        email,
        password: `mala-${i}`,
        redirectTo: "/",
      });
      expect(r.status).toBe(400);
    }
    for (const s of servers) {
      const r = await new Browser(s.url).post("/login", {
        intent: "iniciar",
        email,
        password: PASSWORD,
        redirectTo: "/",
      });
      expect(r.status).toBe(429);
      expect(r.headers["retry-after"]).toBeTruthy();
      expect(r.setCookies.some((c) => c.startsWith("oficina_sesion=") && !/max-age=0/i.test(c))).toBe(false);
    }
    const other = await new Browser(servers[1].url).post("/login", {
      intent: "iniciar",
      email: org.accounts.bruno!.email,
      password: PASSWORD,
      redirectTo: "/",
    });
    expect(other.status).toBe(302);
  });

  it("los correos a una dirección se cuentan entre los dos servidores: el límite no se duplica", async () => {
    // The dev outbox of each server (DATA_DIR/correo/<address>.txt): mails to `email` on both.
    const mailsTo = (email: string) =>
      servers
        .map((s) => path.join(s.dataDir, "correo", `${email}.txt`))
        .filter((f) => existsSync(f))
        .reduce((n, f) => n + (readFileSync(f, "utf8").match(/^Asunto:/gm)?.length ?? 0), 0);
    const ask = async (email: string) => {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++)
        statuses.push(
          (await new Browser(servers[i % 2]!.url).post("/auth/recuperar", { intent: "pedir", email })).status,
        );
      return statuses;
    };
    const real = org.accounts.bruno!.email;
    const before = mailsTo(real);
    const statuses = await ask(real);
    const mails = mailsTo(real) - before;
    // An address without an account gets no mail, and the very same answers.
    const nobody = `nadie-${randomUUID().slice(0, 6)}@fiabilidad.test`;
    const nobodyStatuses = await ask(nobody);
    figure(
      `Dos servidores: 8 peticiones de restablecimiento para un mismo correo repartidas entre A y B → ${mails} correos (respuestas ${statuses.join(", ")}; las mismas para un correo sin cuenta)`,
    );
    expect(mails).toBeGreaterThan(0);
    expect(mails).toBeLessThanOrEqual(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8 - mails);
    expect(nobodyStatuses).toEqual(statuses);
    expect(mailsTo(nobody)).toBe(0);
  });

  it("200 inicios de sesión correctos desde una dirección en menos de 5 minutos, repartidos entre los dos: todos entran", async () => {
    const started = Date.now();
    let ok = 0;
    for (let i = 0; i < 200; i++) {
      const r = await new Browser(servers[i % 2]!.url).post("/login", {
        intent: "iniciar",
        email: org.accounts.admin!.email,
        password: PASSWORD,
        redirectTo: "/",
      });
      if (r.status === 302) ok += 1;
    }
    const seconds = (Date.now() - started) / 1000;
    figure(
      `Dos servidores: 200 inicios de sesión correctos desde una dirección en ${seconds.toFixed(0)} s → ${ok} entran`,
    );
    expect(ok).toBe(200);
    expect(seconds).toBeLessThan(300);
  });
});
