import type pg from "pg";
import { sql } from "kysely";
import { sqlStore } from "~/data/sql/adapter.server";
import { asUser, createDatabase, readAsUser } from "~/data/sql/connection.server";
import { NotFound, type ListQuery, type Row } from "~/data/store";
import { connect, createUser } from "../support/as-user";
import { createTestDatabase } from "../support/database";

/**
 * What the SQL adapter does for speed (docs/decisions/0008-performance.md) must not change what
 * it answers: reads started together share a transaction but fail one by one, and
 * `ListQuery.base` (ids from the table, rows from the view) gives the same page as the view alone.
 */
let client: pg.Client;
let db: ReturnType<typeof createDatabase>;
let admin: string;
let empleado: string;
let url: string;

beforeAll(async () => {
  url = await createTestDatabase();
  client = await connect(url);
  db = createDatabase(url, 2);
  admin = await createUser(client, { email: "rend-admin@oficina.test", nombre: "Ana", rol: "administrador" });
  empleado = await createUser(client, { email: "rend-empleado@oficina.test", nombre: "Eva" });
  const { rows: d } = await client.query(
    "insert into departamentos (nombre, codigo) values ('Ventas', 'VEN'), ('Compras', 'COM') returning id",
  );
  const { rows: s } = await client.query(
    "insert into sucursales (nombre, codigo, direccion, ciudad) values ('Madrid', 'MAD', 'Gran Vía 1', 'Madrid') returning id",
  );
  const { rows: p } = await client.query(
    "insert into proveedores (razon_social, nombre_comercial, tipo_persona, nif) values ('Restaurantes Unidos SL', 'La Tasca', 'empresa', 'B12345674'), ('Zeta Viajes SA', null, 'empresa', 'A58818501') returning id",
  );
  const hoy = new Date();
  for (let i = 0; i < 60; i++) {
    const fecha = new Date(hoy.getTime() - (i % 20) * 86_400_000).toISOString().slice(0, 10);
    await client.query(
      `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id, proveedor_id)
       values ($1, $2, $3, $4, 'efectivo', $5, $6, $7, $8)`,
      [
        `Gasto ${i}`,
        fecha,
        i % 3 ? "comidas" : "alojamiento",
        `${1 + ((i * 37) % 50)}.${String(i % 100).padStart(2, "0")}`,
        i % 4 ? empleado : admin,
        d[i % 2].id,
        s[0].id,
        p[i % 2].id,
      ],
    );
  }
});

afterAll(async () => {
  await client?.end();
  await db?.destroy();
});

describe("lecturas en el mismo turno (una conexión compartida)", () => {
  it("cada una devuelve lo suyo, como si fueran solas", async () => {
    const store = sqlStore(db, empleado);
    const query: ListQuery = {
      order: [{ column: "descripcion", ascending: true }],
      limit: 100,
      offset: 0,
      count: "exact",
    };
    const [juntas, departamentos, yo] = await Promise.all([
      store.list<Row>("gastos", query),
      store.list<Row>("departamentos", { limit: 10, offset: 0 }),
      store.get<Row>("usuarios", empleado),
    ]);
    const sola = await sqlStore(db, empleado).list<Row>("gastos", query);
    expect(juntas).toEqual(sola);
    // Row-level security as the user: the empleado sees only their own gastos.
    expect(juntas.total).toBe(45);
    expect(juntas.rows.every((r) => r.solicitante_id === empleado)).toBe(true);
    expect(departamentos.rows).toHaveLength(2);
    expect(yo.id).toBe(empleado);
  });

  it("si una falla, falla sola con su propio error y las demás responden", async () => {
    const store = sqlStore(db, admin);
    const [bien, mal, noExiste, despues] = await Promise.allSettled([
      store.list<Row>("gastos", { limit: 5, offset: 0, count: "exact" }),
      // A database error (not a uuid)…
      store.list<Row>("gastos", {
        filters: [{ column: "departamento_id", op: "eq", value: "no-es-un-uuid" }],
        limit: 5,
        offset: 0,
      }),
      store.get<Row>("gastos", "00000000-0000-4000-8000-000000000000"),
      // …and a read queued after it in that transaction still gets its rows.
      store.list<Row>("departamentos", { limit: 10, offset: 0, count: "exact" }),
    ]);
    expect(bien.status === "fulfilled" && bien.value.total).toBe(60);
    expect(mal.status).toBe("rejected");
    expect(String((mal as PromiseRejectedResult).reason?.message ?? (mal as PromiseRejectedResult).reason)).not.toMatch(
      /current transaction is aborted/,
    );
    expect(noExiste.status === "rejected" && noExiste.reason).toBeInstanceOf(NotFound);
    expect(despues.status === "fulfilled" && despues.value.total).toBe(2);
  });
});

describe("ListQuery.base: los ids en la tabla, las filas en la vista", () => {
  const casos: [string, Omit<ListQuery, "limit" | "offset">][] = [
    ["por fecha descendente", { order: [{ column: "fecha_gasto", ascending: false }] }],
    [
      "por importe con filtros",
      {
        order: [{ column: "importe", ascending: false }],
        filters: [{ column: "categoria", op: "eq", value: "comidas" }],
      },
    ],
    ["por descripción, ascendente", { order: [{ column: "descripcion", ascending: true }] }],
    ["por un nombre de la vista (sin base)", { order: [{ column: "proveedor_nombre", ascending: true }] }],
    ["búsqueda por columnas", { search: { columns: ["descripcion", "folio"], term: "tasca" } }],
  ];
  for (const [nombre, parcial] of casos)
    it(nombre, async () => {
      for (const user of [admin, empleado])
        for (const offset of [0, 7, 40]) {
          const query: ListQuery = { ...parcial, limit: 10, offset, count: "estimated", sum: ["importe"] };
          const conBase = await sqlStore(db, user).list<Row>("gastos_vista", { ...query, base: "gastos" });
          const sinBase = await sqlStore(db, user).list<Row>("gastos_vista", query);
          expect(conBase).toEqual(sinBase);
          const columns = ["id", "folio", "importe", "proveedor_nombre"];
          const soloColumnas = await sqlStore(db, user).list<Row>("gastos_vista", {
            ...query,
            base: "gastos",
            columns,
          });
          expect(soloColumnas).toEqual({
            ...sinBase,
            rows: sinBase.rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c]]))),
          });
        }
    });
});

describe("la cuenta y la suma se guardan mientras nada cambia (interno.cambios)", () => {
  const query: ListQuery = {
    filters: [{ column: "categoria", op: "eq", value: "combustible" }],
    limit: 5,
    offset: 0,
    count: "estimated",
    sum: ["importe"],
  };
  const nuevo = (descripcion: string, solicitante: string) =>
    client.query(
      `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id)
       select $1, current_date, 'combustible', '10.00', 'efectivo', $2, (select id from departamentos where codigo = 'VEN'), (select id from sucursales where codigo = 'MAD')
       returning id`,
      [descripcion, solicitante],
    );

  it("se reutilizan: una fila escrita sin pasar por los disparadores no se cuenta hasta que el contador avanza", async () => {
    const antes = await sqlStore(db, admin).list<Row>("gastos_vista", query);
    // A transaction that counts as counted already (interno.contar_cambio) leaves the counter where it was: the kept count is served…
    await client.query("begin; select set_config('oficina.cambio_contado', 'si', true)");
    try {
      await nuevo("Sin contador", admin);
      await client.query("commit");
    } catch (error) {
      await client.query("rollback");
      throw error;
    }
    const guardada = await sqlStore(db, admin).list<Row>("gastos_vista", query);
    expect({ total: guardada.total, sums: guardada.sums }).toEqual({ total: antes.total, sums: antes.sums });
    // …and the rows themselves are always read afresh.
    expect(guardada.rows.map((r) => r.descripcion)).toContain("Sin contador");
    await client.query("update interno.cambios set n = n + 1");
    const nueva = await sqlStore(db, admin).list<Row>("gastos_vista", query);
    expect(nueva.total).toBe(antes.total + 1);
    expect(Number(nueva.sums.importe)).toBeCloseTo(Number(antes.sums.importe ?? 0) + 10, 2);
  });

  it("cualquier escritura confirmada las renueva: alta, cambio, baja y TRUNCATE de otra tabla", async () => {
    const cuenta = async (user = admin) => (await sqlStore(db, user).list<Row>("gastos_vista", query)).total;
    const inicial = await cuenta();
    const { rows } = await nuevo("Con contador", admin);
    expect(await cuenta()).toBe(inicial + 1);
    await client.query("update gastos set categoria = 'comidas' where id = $1", [rows[0].id]);
    expect(await cuenta()).toBe(inicial);
    // A rolled-back write changes nothing, and the count stays right.
    await client.query("begin");
    await nuevo("Deshecho", admin);
    await client.query("rollback");
    expect(await cuenta()).toBe(inicial);
    // Visibility follows usuarios under RLS: the empleado made administrador sees everyone's.
    const suya = await cuenta(empleado);
    await client.query("update usuarios set rol = 'administrador' where id = $1", [empleado]);
    expect(await cuenta(empleado)).toBe(inicial);
    await client.query("update usuarios set rol = 'empleado' where id = $1", [empleado]);
    expect(await cuenta(empleado)).toBe(suya);
    const { rows: n } = await client.query("select n from interno.cambios");
    await client.query("truncate public.proveedores cascade");
    expect((await client.query("select n from interno.cambios")).rows[0].n).not.toBe(n[0].n);
  });
});

describe("listas `keep` (opciones de los selectores): se guardan mientras nada cambia", () => {
  const query: ListQuery = {
    order: [{ column: "nombre", ascending: true }],
    columns: ["id", "nombre"],
    limit: 200,
    offset: 0,
    count: "exact",
  };
  const keep = { keep: true };
  it("la misma lectura de la misma persona se sirve guardada hasta que el contador avanza; la de otra persona, no", async () => {
    const antes = await sqlStore(db, admin).list<Row>("departamentos", query, keep);
    await client.query("begin; select set_config('oficina.cambio_contado', 'si', true)");
    try {
      await client.query("insert into departamentos (nombre, codigo) values ('Zeta oculto', 'ZOC')");
      await client.query("commit");
    } catch (error) {
      await client.query("rollback");
      throw error;
    }
    expect(await sqlStore(db, admin).list<Row>("departamentos", query, keep)).toEqual(antes);
    // Not kept (another user, or without `keep`): read afresh.
    expect((await sqlStore(db, empleado).list<Row>("departamentos", query, keep)).rows.map((r) => r.nombre)).toContain(
      "Zeta oculto",
    );
    expect((await sqlStore(db, admin).list<Row>("departamentos", query)).rows.map((r) => r.nombre)).toContain(
      "Zeta oculto",
    );
    await client.query("update interno.cambios set n = n + 1");
    expect((await sqlStore(db, admin).list<Row>("departamentos", query, keep)).rows.map((r) => r.nombre)).toContain(
      "Zeta oculto",
    );
  });

  it("dentro de una petición, tras una lectura, se sirven sin volver a la base; una escritura de la misma petición las renueva", async () => {
    const una = createDatabase(url, 1);
    const peticion = sqlStore(una, admin);
    await peticion.list<Row>("gastos_vista", { limit: 1, offset: 0, count: "none" });
    const antes = await peticion.list<Row>("departamentos", query, keep);
    // With its connections gone, any statement would fail: the kept read does not need one.
    await una.destroy();
    expect(await peticion.list<Row>("departamentos", query, keep)).toBe(antes);
    await expect(peticion.list<Row>("departamentos", query)).rejects.toThrow();

    const otra = sqlStore(db, admin);
    await otra.list<Row>("departamentos", query, keep);
    await otra.insert("departamentos", { nombre: "Nuevo en la petición", codigo: "NPE" });
    expect((await otra.list<Row>("departamentos", query, keep)).rows.map((r) => r.nombre)).toContain(
      "Nuevo en la petición",
    );
  });
});

describe("funciones de solo lectura con `keep` (el panel de inicio)", () => {
  it("se sirven guardadas, por persona y argumentos, hasta que el contador avanza; sin `keep`, se leen", async () => {
    const { rows } = await client.query("select id from departamentos where codigo = 'VEN'");
    const args = { p_tabla: "departamentos", p_id: rows[0].id };
    const gastosDe = (r: { tabla: string; total: number }[]) => r.find((x) => x.tabla === "gastos")?.total ?? 0;
    const antes = await sqlStore(db, admin).rpc<{ tabla: string; total: number }[]>("referencias", args, {
      keep: true,
    });
    await client.query("begin; select set_config('oficina.cambio_contado', 'si', true)");
    try {
      await client.query(
        `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id)
         select 'Oculto', current_date, 'comidas', 1, 'efectivo', $1, $2, id from sucursales limit 1`,
        [admin, rows[0].id],
      );
      await client.query("commit");
    } catch (error) {
      await client.query("rollback");
      throw error;
    }
    expect(await sqlStore(db, admin).rpc("referencias", args, { keep: true })).toEqual(antes);
    expect(gastosDe(await sqlStore(db, admin).rpc("referencias", args))).toBe(gastosDe(antes) + 1);
    await client.query("update interno.cambios set n = n + 1");
    expect(gastosDe(await sqlStore(db, admin).rpc("referencias", args, { keep: true }))).toBe(gastosDe(antes) + 1);
  });
});

describe("una página filtrada por un rango: sus fechas van en el texto de la sentencia", () => {
  it("queda preparada con las fechas escritas (el plan sabe cuánto deja pasar el rango); otro valor, parámetro y sin preparar; la misma página en todos los casos", async () => {
    // One connection, so the statements it keeps prepared are the ones this test made.
    const una = createDatabase(url, 1);
    try {
      const hoy = new Date().toISOString().slice(0, 10);
      const desde = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
      const pagina: ListQuery = {
        order: [{ column: "importe", ascending: false }],
        limit: 5,
        offset: 5,
        count: "none",
        base: "gastos",
        columns: ["id", "importe", "fecha_gasto"],
      };
      const rango: ListQuery = {
        ...pagina,
        filters: [
          { column: "fecha_gasto", op: "gte", value: desde },
          { column: "fecha_gasto", op: "lte", value: hoy },
        ],
      };
      // On the users' one connection, where the pages were read.
      const preparadas = async () =>
        (
          await readAsUser(una, admin, (trx) =>
            sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(trx),
          )
        ).rows
          .map((r) => r.statement)
          .filter((t) => t.includes("any(array("));
      const conRango = await sqlStore(una, admin).list<Row>("gastos_vista", rango);
      const escritas = await preparadas();
      expect(escritas).toHaveLength(1);
      expect(escritas[0]).toContain(`"fecha_gasto" >= '${desde}'`);
      expect(escritas[0]).toContain(`"fecha_gasto" <= '${hoy}'`);
      expect(conRango).toEqual(await sqlStore(db, admin).list<Row>("gastos_vista", { ...rango, base: undefined }));
      expect(conRango.rows.every((r) => String(r.fecha_gasto) >= desde && String(r.fecha_gasto) <= hoy)).toBe(true);
      // An end that is not a plain date or amount stays a parameter, and such a page is planned with its values.
      const marca: ListQuery = { ...pagina, filters: [{ column: "fecha_gasto", op: "lte", value: `${hoy} 23:59` }] };
      const conMarca = await sqlStore(una, admin).list<Row>("gastos_vista", marca);
      expect(await preparadas()).toHaveLength(1);
      expect(conMarca).toEqual(await sqlStore(db, admin).list<Row>("gastos_vista", { ...marca, base: undefined }));
      await sqlStore(una, admin).list<Row>("gastos_vista", pagina);
      expect(await preparadas()).toHaveLength(2);
      // The first page has no OFFSET at all (a parameter there cost it its kept plan: prepared.server.ts `skip`).
      await sqlStore(una, admin).list<Row>("gastos_vista", { ...pagina, offset: 0 });
      const todas = await preparadas();
      expect(todas).toHaveLength(3);
      expect(todas.filter((t) => !/offset/i.test(t))).toHaveLength(1);
    } finally {
      await una.destroy();
    }
  });
});

describe("asUser: BEGIN viaja con el rol y las claims (un viaje menos)", () => {
  it("es una transacción como usuario: mismo txid, rol authenticated, sus claims; confirma al acabar y deshace si falla", async () => {
    const { default: realPg } = await import("pg");
    const sent = vi.spyOn(realPg.Client.prototype, "query");
    try {
      const seen = await asUser(db, empleado, async (trx) => {
        const a = await sql<{ txid: string; rol: string; sub: string }>`
          select txid_current()::text as txid, current_user as rol, auth.uid()::text as sub`.execute(trx);
        const b = await sql<{ txid: string }>`select txid_current()::text as txid`.execute(trx);
        return { ...a.rows[0]!, otra: b.rows[0]!.txid };
      });
      expect(seen).toMatchObject({ rol: "authenticated", sub: empleado });
      expect(seen.otra).toBe(seen.txid);
      // BEGIN + set_config in one message, the two statements, COMMIT: four messages (it was five).
      expect(sent).toHaveBeenCalledTimes(4);
    } finally {
      sent.mockRestore();
    }

    const nombre = `Dep ${Date.now()}`;
    await expect(
      asUser(db, admin, async (trx) => {
        await sql`insert into departamentos (nombre, codigo) values (${nombre}, 'TMP')`.execute(trx);
        throw new Error("después de escribir");
      }),
    ).rejects.toThrow("después de escribir");
    expect(
      (await client.query("select count(*)::int as n from departamentos where nombre = $1", [nombre])).rows[0].n,
    ).toBe(0);

    await asUser(db, admin, (trx) =>
      sql`insert into departamentos (nombre, codigo) values (${nombre}, 'TMQ')`.execute(trx),
    );
    expect(
      (await client.query("select count(*)::int as n from departamentos where nombre = $1", [nombre])).rows[0].n,
    ).toBe(1);
  });
});

describe("readAsUser: lecturas como usuario sin transacción (un viaje menos)", () => {
  type Quien = { rol: string; sub: string | null; claims: string };
  const quien = sql<Quien>`select current_user as rol, auth.uid()::text as sub, coalesce(current_setting('request.jwt.claims', true), '') as claims`;

  it("rol authenticated y sus claims: una sentencia para empezar, sin BEGIN ni COMMIT, nada al devolver la conexión", async () => {
    const { default: realPg } = await import("pg");
    const sent = vi.spyOn(realPg.Client.prototype, "query");
    try {
      const seen = await readAsUser(db, empleado, async (trx, cambios) => {
        const a = (await quien.execute(trx)).rows[0]!;
        const b = await sql<{ txid: string }>`select txid_current()::text as txid`.execute(trx);
        const c = await sql<{ txid: string }>`select txid_current()::text as txid`.execute(trx);
        return { ...a, cambios, distintas: b.rows[0]!.txid !== c.rows[0]!.txid };
      });
      expect(seen).toMatchObject({ rol: "authenticated", sub: empleado, distintas: true });
      expect(Number(seen.cambios)).toBeGreaterThan(0);
      // The role, the claims and the counter in one statement, then the three statements.
      expect(sent).toHaveBeenCalledTimes(4);
    } finally {
      sent.mockRestore();
    }
  });

  it("un rpc que solo lee (`reads`) va con las lecturas de su turno: sin transacción propia", async () => {
    const { rows } = await client.query("select id from gastos order by id limit 1");
    const store = sqlStore(db, admin);
    const { default: realPg } = await import("pg");
    const sent = vi.spyOn(realPg.Client.prototype, "query");
    try {
      const [lista, duplicados] = await Promise.all([
        store.list<Row>("departamentos", { limit: 10, offset: 0, count: "none" }),
        store.rpc<unknown[]>("justificantes_duplicados", { p_gasto: rows[0].id }, { reads: true }),
      ]);
      expect(lista.rows.length).toBeGreaterThan(0);
      expect(duplicados).toEqual([]);
      // The role once, the two statements; a transaction of its own would add BEGIN + role and COMMIT.
      expect(sent).toHaveBeenCalledTimes(3);
    } finally {
      sent.mockRestore();
    }
  });

  it("la página de una lista como usuario: las mismas filas y la misma seguridad, la cuenta guardada", async () => {
    // One connection, so the second read finds its statements prepared.
    const una = createDatabase(url, 1);
    const { default: realPg } = await import("pg");
    const query: ListQuery = {
      order: [{ column: "importe", ascending: false }],
      limit: 10,
      offset: 10,
      count: "exact",
    };
    // Gastos of its own: an earlier test emptied the table (TRUNCATE … CASCADE).
    const { rows: d } = await client.query("select id from departamentos order by nombre limit 1");
    const { rows: s } = await client.query("select id from sucursales limit 1");
    for (let i = 0; i < 30; i++)
      await client.query(
        `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id)
         values ($1, current_date, 'comidas', $2, 'efectivo', $3, $4, $5)`,
        [`Con el rol ${i}`, `${10 + i}.00`, i % 3 ? empleado : admin, d[0].id, s[0].id],
      );
    try {
      const primera = await sqlStore(una, empleado).list<Row>("gastos", query);
      const sent = vi.spyOn(realPg.Client.prototype, "query");
      try {
        const segunda = await sqlStore(una, empleado).list<Row>("gastos", query);
        expect(segunda).toEqual(primera);
        // The role, its claims and the counter, then the page; the count was kept for that counter.
        expect(sent).toHaveBeenCalledTimes(2);
      } finally {
        sent.mockRestore();
      }
      const cuantos = async (where: string, values: unknown[] = []) =>
        Number((await client.query(`select count(*) from gastos ${where}`, values)).rows[0].count);
      expect(primera.total).toBe(await cuantos("where solicitante_id = $1", [empleado]));
      expect(primera.rows).toHaveLength(10);
      expect(primera.rows.every((r) => r.solicitante_id === empleado)).toBe(true);
      // Another user's page on that connection: their own role and claims, not the empleado's.
      const deAdmin = await sqlStore(una, admin).list<Row>("gastos", query);
      expect(deAdmin.total).toBe(await cuantos(""));
      expect(deAdmin.total).toBeGreaterThan(primera.total);
      expect((await quien.execute(una)).rows[0]).toEqual({ rol: "postgres", sub: null, claims: "" });
    } finally {
      await una.destroy();
    }
  });

  it("si la página de una lista falla, falla sola: las demás lecturas responden y nada corre sin el rol", async () => {
    const una = createDatabase(url, 1);
    const mala: ListQuery = {
      filters: [{ column: "departamento_id", op: "eq", value: "no-es-un-uuid" }],
      limit: 5,
      offset: 0,
    };
    try {
      await expect(sqlStore(una, empleado).list<Row>("gastos", mala)).rejects.toThrow();
      const store = sqlStore(una, empleado);
      const [fallo, yo, departamentos] = await Promise.allSettled([
        store.list<Row>("gastos", mala),
        store.get<Row>("usuarios", empleado),
        store.list<Row>("departamentos", { limit: 10, offset: 0, count: "exact" }),
      ]);
      expect(fallo.status).toBe("rejected");
      expect(yo.status === "fulfilled" && yo.value.id).toBe(empleado);
      const { rows } = await client.query("select count(*)::int as n from departamentos");
      expect(departamentos.status === "fulfilled" && departamentos.value.total).toBe(rows[0].n);
      // The same connection, after: the owner is the owner, a user is that user.
      expect((await quien.execute(una)).rows[0]).toEqual({ rol: "postgres", sub: null, claims: "" });
      expect((await readAsUser(una, admin, (trx) => quien.execute(trx))).rows[0]).toMatchObject({
        rol: "authenticated",
        sub: admin,
      });
    } finally {
      await una.destroy();
    }
  });
});
