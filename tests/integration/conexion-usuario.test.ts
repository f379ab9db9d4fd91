import { sql } from "kysely";
import type pg from "pg";
import { asUser, createDatabase, readAsUser } from "~/data/sql/connection.server";
import { connect, createUser } from "../support/as-user";
import { createTestDatabase } from "../support/database";

/**
 * The connection layer (connection.server.ts) is the only place a pooled connection becomes a
 * user (role `authenticated` and the claims). A leaked role is a security failure: the owner's
 * statements (sessions, sign-in) must never run as anyone, and a user must never be the one who
 * had the connection before, however that one's work ended.
 */
type Quien = { pid: number; rol: string; sub: string | null; claims: string };
const quien = sql<Quien>`select pg_backend_pid() as pid, current_user as rol, auth.uid()::text as sub,
  coalesce(current_setting('request.jwt.claims', true), '') as claims`;
const LIMPIA = { rol: "postgres", sub: null, claims: "" };

let client: pg.Client;
let url: string;
let ana: string;
let eva: string;

beforeAll(async () => {
  url = await createTestDatabase();
  client = await connect(url);
  ana = await createUser(client, { email: "conexion-ana@oficina.test", nombre: "Ana", rol: "administrador" });
  eva = await createUser(client, { email: "conexion-eva@oficina.test", nombre: "Eva" });
});
afterAll(() => client.end());

/** One connection for users and one for the owner: every user below takes the one the last user had. */
async function conUna<T>(fn: (db: ReturnType<typeof createDatabase>) => Promise<T>) {
  const db = createDatabase(url, 1);
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

const leer = (db: ReturnType<typeof createDatabase>, quienLee: string) =>
  readAsUser(db, quienLee, async (trx) => (await quien.execute(trx)).rows[0]!);

describe("una conexión del pool como usuario", () => {
  it("una lectura que falla a medias, lanza un error de la aplicación o termina bien: quien toma después esa conexión es él mismo", async () => {
    await conUna(async (db) => {
      let suya: Quien | undefined;
      await expect(
        readAsUser(db, eva, async (trx) => {
          suya = (await quien.execute(trx)).rows[0]!;
          await sql`select 1 / 0`.execute(trx);
        }),
      ).rejects.toThrow();
      expect(suya).toMatchObject({ rol: "authenticated", sub: eva });
      const despues = await leer(db, ana);
      expect(despues.pid).toBe(suya!.pid);
      expect(despues).toMatchObject({ rol: "authenticated", sub: ana });
      expect(JSON.parse(despues.claims)).toMatchObject({ sub: ana });

      await expect(
        readAsUser(db, eva, async (trx) => {
          await quien.execute(trx);
          throw new Error("de la aplicación");
        }),
      ).rejects.toThrow("de la aplicación");
      expect(await leer(db, ana)).toMatchObject({ pid: suya!.pid, sub: ana });
      // In a transaction, after another user's read on the connection: the transaction's user.
      const enTransaccion = await asUser(db, eva, async (trx) => (await quien.execute(trx)).rows[0]!);
      expect(enTransaccion).toMatchObject({ pid: suya!.pid, rol: "authenticated", sub: eva });
    });
  });

  it("una transacción que falla a mitad (error de SQL o de la aplicación): nada quedó escrito y el siguiente usuario es él mismo", async () => {
    await conUna(async (db) => {
      const nombre = `Fuga ${Date.now()}`;
      await expect(
        asUser(db, ana, async (trx) => {
          await sql`insert into departamentos (nombre, codigo) values (${nombre}, 'FUG')`.execute(trx);
          await sql`select 1 / 0`.execute(trx);
        }),
      ).rejects.toThrow();
      expect(await leer(db, eva)).toMatchObject({ rol: "authenticated", sub: eva });
      await expect(
        asUser(db, ana, async (trx) => {
          await sql`insert into departamentos (nombre, codigo) values (${nombre}, 'FUH')`.execute(trx);
          throw new Error("a mitad");
        }),
      ).rejects.toThrow("a mitad");
      expect(await leer(db, eva)).toMatchObject({ rol: "authenticated", sub: eva });
      const { rows } = await client.query("select count(*)::int as n from departamentos where nombre = $1", [nombre]);
      expect(rows[0].n).toBe(0);
      // Committed: the same.
      await asUser(db, ana, (trx) => quien.execute(trx));
      expect(await leer(db, eva)).toMatchObject({ rol: "authenticated", sub: eva });
    });
  });

  it("las sentencias del dueño nunca son de nadie: sus conexiones no han sido nunca de un usuario", async () => {
    await conUna(async (db) => {
      const deUsuarios = new Set<number>();
      deUsuarios.add((await leer(db, eva)).pid);
      await expect(readAsUser(db, ana, () => Promise.reject(new Error("de la aplicación")))).rejects.toThrow();
      deUsuarios.add((await asUser(db, ana, (trx) => quien.execute(trx))).rows[0]!.pid);
      const delDueno = (await quien.execute(db)).rows[0]!;
      expect(delDueno).toMatchObject(LIMPIA);
      expect(deUsuarios.has(delDueno.pid)).toBe(false);
      // With a value: a prepared statement of the owner's own, as the session check is.
      const conValor = sql<Quien>`select current_user as rol, auth.uid()::text as sub, coalesce(current_setting('request.jwt.claims', true), '') || ${""} as claims`;
      expect((await conValor.execute(db)).rows[0]).toEqual(LIMPIA);
    });
  });

  it("una conexión cortada por el servidor no vuelve al pool", async () => {
    await conUna(async (db) => {
      const cortada = await readAsUser(db, eva, async (trx) => {
        const { pid } = (await quien.execute(trx)).rows[0]!;
        // Ended by the server while the user still has it.
        await client.query("select pg_terminate_backend($1, 5000)", [pid]);
        return pid;
      });
      const despues = await leer(db, ana);
      expect(despues.pid).not.toBe(cortada);
      expect(despues).toMatchObject({ rol: "authenticated", sub: ana });
    });
  });

  it("muchas lecturas de dos usuarios y del dueño a la vez sobre dos conexiones: cada una ve solo a quien la hizo", async () => {
    const db = createDatabase(url, 2);
    try {
      const vistas = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          i % 3 === 0
            ? quien.execute(db).then((r) => ({ esperado: null, visto: r.rows[0]! }))
            : readAsUser(db, i % 3 === 1 ? ana : eva, (trx) => quien.execute(trx)).then((r) => ({
                esperado: i % 3 === 1 ? ana : eva,
                visto: r.rows[0]!,
              })),
        ),
      );
      for (const { esperado, visto } of vistas)
        if (esperado === null) expect(visto).toMatchObject(LIMPIA);
        else expect(visto).toMatchObject({ rol: "authenticated", sub: esperado });
    } finally {
      await db.destroy();
    }
  });
});
