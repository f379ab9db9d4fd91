import { sql } from "kysely";
import { sqlStore } from "~/data/sql/adapter.server";
import { anyTables, asUser } from "~/data/sql/connection.server";
import { withSearchFunction } from "~/data/sql/performance/search.server";
import type { IdsText } from "~/data/sql/where.server";
import { EXACT_COUNT_LIMIT, type ListQuery } from "~/data/store";
import { todayISO } from "~/lib/dates";
import { requireUser } from "~/auth/session.server";
import { listData } from "~/crud/crud.server";
import { gastos } from "~/entities/gastos";
import { loader } from "~/routes/gastos._index";
import { createTestApp, request, respond, type TestApp, type TestUser } from "../support/app";
import { insertDepartamento, insertSucursal } from "../support/fixtures";

/**
 * The gastos list over more rows than are counted exactly (EXACT_COUNT_LIMIT): the count is the
 * planner's estimate, marked as such, without a sum; a filter that narrows it is exact again,
 * with its sum. (Decision and EXPLAIN findings: docs/decisions/0006-gastos-list-at-scale.md.)
 */
let app: TestApp;
let admin: TestUser, empleado: TestUser;
const N = EXACT_COUNT_LIMIT + 500;

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
  const dep = await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" });
  const suc = await insertSucursal(app.db);
  // As the owner, like a bulk load: N gastos of the administrador, three formación ones of the empleado.
  await sql`
    insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id)
    select 'Carga ' || i, ${todayISO()}::date - (i % 300), 'comidas', 10.25, 'efectivo', ${admin.id}::uuid, ${dep}::uuid, ${suc}::uuid
    from generate_series(1, ${N}) i`.execute(app.db);
  await sql`
    insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id)
    select 'Curso ' || i, ${todayISO()}::date, 'formacion', 100.10, 'efectivo', ${empleado.id}::uuid, ${dep}::uuid, ${suc}::uuid
    from generate_series(1, 3) i`.execute(app.db);
  await sql`analyze gastos`.execute(app.db);
}, 120_000);
afterAll(() => app.close());

const list = async (search: string, cookie: string) =>
  JSON.parse(
    await (
      await respond(() =>
        loader({ request: request(`/gastos${search}`, { cookie }), context: app.context(), params: {} }),
      )
    ).text(),
  );

describe("cuenta estimada y suma a escala", () => {
  it("más de EXACT_COUNT_LIMIT coincidencias: la estimación del planificador, marcada, sin suma", async () => {
    const { result } = await list("", admin.cookie);
    expect(result.estimated).toBe(true);
    expect(result.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(result.total).toBeGreaterThan(N * 0.5);
    expect(result.total).toBeLessThan(N * 2);
    expect(result.sums).toEqual({});
    expect(result.rows).toHaveLength(25);
  });

  it("ordenar por un nombre relacionado solo con un filtro contable: si no, por fecha y lo dice", async () => {
    const grande = await list("?orden=solicitante_nombre&dir=asc", admin.cookie);
    expect(grande.state.orden).toBe("fecha_gasto");
    expect(grande.avisoOrden).toMatch(/Para ordenar por solicitante, filtre hasta 10\.000 gastos/);
    const pequeno = await list("?categoria=formacion&orden=solicitante_nombre&dir=asc", admin.cookie);
    expect(pequeno.state.orden).toBe("solicitante_nombre");
    expect(pequeno.avisoOrden).toBeNull();
  });

  it("un filtro que deja pocas: cuenta y suma exactas", async () => {
    const { result } = await list("?categoria=formacion", admin.cookie);
    expect(result).toMatchObject({ total: 3, estimated: false, sums: { importe: "300.30" } });
    const mios = await list("", empleado.cookie); // RLS: only their own three
    expect(mios.result).toMatchObject({ total: 3, estimated: false, sums: { importe: "300.30" } });
  });

  it("justo por debajo del límite se cuenta exacto aunque el planificador crea que son más", async () => {
    const store = sqlStore(app.db, admin.id);
    // «Carga 1…» matches 1, 10–19, 100–199, 1000–1999, 10000–10500: 1612 rows, whatever the estimate says.
    const r = await store.list("gastos_vista", {
      search: { columns: ["descripcion"], term: "Carga 1" },
      limit: 5,
      offset: 0,
      count: "estimated",
      sum: ["importe"],
    });
    expect(r).toMatchObject({ total: 1612, estimated: false, sums: { importe: (1612 * 10.25).toFixed(2) } });
  });

  it("el CSV de todo el filtro sale entero, en el orden de la lista, aunque sean miles de filas", async () => {
    const r = await respond(() =>
      loader({
        request: request("/gastos/exportar?orden=importe&dir=desc&formato=csv", { cookie: admin.cookie }),
        context: app.context(),
        params: {},
      }),
    );
    const text = await r.text();
    const lines = text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(1 + N + 3);
    expect(lines[1]).toMatch(
      /;"Curso \d";;"Formación";100,10;"Borrador";"Elena";"Ventas";0;"Ticket";;;17,37;"No";0,00;"Ticket sin NIF de la empresa";"Ordinario";;;$/,
    );
    expect(lines.at(-1)).toMatch(
      /;"Comidas";10,25;"Borrador";"Ana";"Ventas";0;"Ticket";;;0,93;"No";0,00;"Ticket sin NIF de la empresa";"Ordinario";;;$/,
    );
    expect(new Set(lines.map((l) => l.split(";")[0])).size).toBe(lines.length); // no row twice
  });

  it("es de la maquinaria genérica: la lista de cualquier entidad que declare `escala` cuenta, suma, ordena y avisa igual", async () => {
    // A declaration that is gastos in all but its name and path: what the generic list does with it.
    const otra = { ...gastos, path: "/otros-gastos", title: "Otros gastos" };
    for (const search of ["", "?orden=solicitante_nombre&dir=asc", "?categoria=formacion", "?q=ca"]) {
      const pagina = await list(search, admin.cookie);
      const args = { request: request(`/otros-gastos${search}`, { cookie: admin.cookie }), context: app.context() };
      const generica = await listData(otra, await requireUser(args.request, args.context), args);
      expect(
        { state: generica.state, avisoOrden: generica.avisoOrden, busquedaCorta: generica.busquedaCorta },
        search,
      ).toEqual({ state: pagina.state, avisoOrden: pagina.avisoOrden, busquedaCorta: pagina.busquedaCorta });
      expect(generica.result, search).toEqual(pagina.result);
    }
  });

  it("«exact» sigue contando todo", async () => {
    const r = await sqlStore(app.db, admin.id).list("gastos", {
      limit: 1,
      offset: 0,
      count: "exact",
      sum: ["importe"],
    });
    expect(r).toMatchObject({ total: N + 3, estimated: false });
    expect(r.sums.importe).toBe((N * 10.25 + 300.3).toFixed(2));
  });
});

describe("el orden por defecto (fecha, la más reciente de una fecha primero, id) lo sirve un índice", () => {
  it("la página sale del índice en orden, sin ordenar las filas de una fecha (gastos_fecha_creado_id_idx)", async () => {
    const plan = await sql<{
      "QUERY PLAN": unknown;
    }>`explain (format json) select id from gastos order by fecha_gasto desc, creado_en desc, id desc limit 25 offset 50`.execute(
      app.db,
    );
    const text = JSON.stringify(plan.rows[0]!["QUERY PLAN"]);
    expect(text).toContain("gastos_fecha_creado_id_idx");
    expect(text).not.toMatch(/"Node Type":"(Incremental )?Sort"/);
  });
});

describe("la página filtrada por estado, departamento y fechas, por importe, sale del índice", () => {
  it("un index-only scan también con la visibilidad (RLS) de quien mira (gastos_estado_departamento_importe_idx)", async () => {
    // As after autovacuum. (Which pages end all-visible depends on what else runs, so the test
    // checks the plan's shape, not its heap fetches: a covering index gives an index-only path.)
    await sql`vacuum analyze gastos`.execute(app.db);
    const { id: dep } = await app.db
      .selectFrom("departamentos")
      .select("id")
      .where("codigo", "=", "VEN")
      .executeTakeFirstOrThrow();
    for (const who of [admin, empleado]) {
      const plan = await asUser(app.db, who.id, (trx) =>
        sql<{
          "QUERY PLAN": unknown;
        }>`explain (format json) select id from gastos where estado = 'borrador' and departamento_id = ${dep}
          and fecha_gasto between ${todayISO()}::date - 250 and ${todayISO()}::date - 50 order by importe desc, id desc limit 25 offset 975`.execute(
          trx,
        ),
      );
      const text = JSON.stringify(plan.rows[0]!["QUERY PLAN"]);
      expect(text).toContain('"Node Type":"Index Only Scan"');
      expect(text).toContain("gastos_estado_departamento_importe_idx");
    }
  });
});

describe("una búsqueda con más coincidencias que las que se cuentan (ADR 0008)", () => {
  const rpc = (who: { id: string }, p_tope: number | null) =>
    sqlStore(app.db, who.id).rpc<{ ids: string | null; coincidencias: number }[]>("buscar_gastos", {
      p_termino: "carga",
      p_tope,
    });
  /** The ids of page `pagina` of a plain search over the view (each word in `busqueda`), in the list's order (date, then id). */
  const plainPage = async (term: string, pagina: number) =>
    (
      await sqlStore(app.db, admin.id).list<{ id: string }>("gastos_vista", {
        search: { columns: ["busqueda"], term, words: term.toLowerCase().split(" ") },
        order: [{ column: "fecha_gasto", ascending: false }],
        limit: 25,
        offset: 25 * (pagina - 1),
        count: "none",
      })
    ).rows.map((r) => r.id);

  it("la función lee hasta el tope: debajo, los ids; encima, ninguno y una estimación", async () => {
    const [pocas] = await sqlStore(app.db, admin.id).rpc<{ ids: string; coincidencias: number }[]>("buscar_gastos", {
      p_termino: "Carga 9999",
      p_tope: 10,
    });
    expect(pocas).toMatchObject({ coincidencias: 1 });
    expect(pocas!.ids).toMatch(/^[0-9a-f-]{36}$/);
    const [muchas] = await rpc(admin, 100);
    expect(muchas!.ids).toBeNull();
    expect(Number(muchas!.coincidencias)).toBeGreaterThan(N * 0.5);
    expect(Number(muchas!.coincidencias)).toBeLessThan(N * 2);
    // Without a cap (the export), every id.
    const [todas] = await rpc(admin, null);
    expect(todas!.ids!.split(",")).toHaveLength(N);
    // Visibility as gastos_select: the empleado sees none of the administrador's gastos.
    expect(await rpc(empleado, 100)).toEqual([{ ids: "", coincidencias: 0, exacto: true, sumas: { importe: "0" } }]);
  });

  it("hasta el tope: la cuenta, la suma y los ids de todas, en el orden de la lista", async () => {
    // «Carga 1…»: 1612 matches, more than a few pages, fewer than the cap.
    const [medio] = await sqlStore(app.db, admin.id).rpc<
      { ids: string | null; coincidencias: number; exacto: boolean; sumas: Record<string, string> }[]
    >("buscar_gastos", { p_termino: "Carga 1", p_tope: EXACT_COUNT_LIMIT });
    const { rows: enOrden } = await sql<{
      id: string;
    }>`select id from gastos where busqueda like '%carga 1%' order by fecha_gasto desc, id desc`.execute(app.db);
    expect(enOrden).toHaveLength(1612);
    expect(medio).toEqual({
      ids: enOrden.map((r) => r.id).join(","),
      coincidencias: 1612,
      exacto: true,
      sumas: { importe: (1612 * 10.25).toFixed(2) },
    });
    // The list searches word by word: «carga» and «1» anywhere, the folio too.
    const { rows: cuenta } = await sql<{
      n: number;
    }>`select count(*)::int as n from gastos where busqueda like '%carga%' and busqueda like '%1%'`.execute(app.db);
    const n = cuenta[0]!.n;
    expect(n).toBeGreaterThan(1612);
    expect(n).toBeLessThan(EXACT_COUNT_LIMIT);
    const { result } = await list("?q=Carga+1", admin.cookie);
    expect(result).toMatchObject({ total: n, estimated: false, sums: { importe: (n * 10.25).toFixed(2) } });
    expect(result.rows).toHaveLength(25);
    expect(
      result.rows.every(
        (r: { descripcion: string; folio: string }) =>
          /^Carga /.test(r.descripcion) && `${r.folio} ${r.descripcion}`.includes("1"),
      ),
    ).toBe(true);
    // Paging and coming back: the same answer (kept), the same rows as a plain search.
    const tercera = await list("?q=Carga+1&pagina=3", admin.cookie);
    expect(tercera.result).toMatchObject({ total: n, estimated: false });
    expect(tercera.result.rows.map((r: { id: string }) => r.id)).toEqual(await plainPage("Carga 1", 3));
  });

  it("la lista: la página en su orden, cada fila coincide, la cuenta estimada y marcada", async () => {
    const { result } = await list("?q=carga", admin.cookie);
    expect(result).toMatchObject({ estimated: true, sums: {} });
    expect(result.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(result.total).toBeLessThan(N * 2);
    expect(result.rows).toHaveLength(25);
    expect(result.rows.every((r: { descripcion: string }) => r.descripcion.startsWith("Carga "))).toBe(true);
    // The same page as a plain substring search over the view, in the same order.
    const segunda = await list("?q=carga&pagina=2", admin.cookie);
    expect(segunda.result.rows.map((r: { id: string }) => r.id)).toEqual(await plainPage("carga", 2));
  });

  it("la función de páginas: si las coincidencias no están al principio del orden, las lee todas", async () => {
    // The empleado's three «Curso» are dated today: last in ascending date, past the first rows of
    // the index that the function walks before reading every match.
    const pagina = (p_orden: string, p_ascendente: boolean, p_desde: number) =>
      sqlStore(app.db, admin.id).rpc<string>("buscar_gastos_pagina", {
        p_palabras: ["curso"],
        p_orden,
        p_ascendente,
        p_desde,
        p_cuantos: 2,
      });
    const cursos = async (ascending: boolean) =>
      (
        await sqlStore(app.db, admin.id).list<{ id: string }>("gastos_vista", {
          search: { columns: ["busqueda"], term: "curso", words: ["curso"] },
          order: [{ column: "fecha_gasto", ascending }],
          limit: 25,
          offset: 0,
          count: "none",
        })
      ).rows.map((r) => r.id);
    const [asc, desc] = [await cursos(true), await cursos(false)];
    expect(asc).toHaveLength(3);
    expect(await pagina("fecha_gasto", true, 0)).toBe(asc.slice(0, 2).join(","));
    expect(await pagina("fecha_gasto", true, 2)).toBe(asc.slice(2).join(","));
    expect(await pagina("fecha_gasto", false, 0)).toBe(desc.slice(0, 2).join(","));
    expect(await pagina("fecha_gasto", false, 3)).toBe("");
  });

  it("con más filtros que la dejan en pocas, cuenta y suma exactas", async () => {
    const hoy = todayISO();
    // «Carga i» with i % 300 = 0 is dated today: 35 of them.
    const { result } = await list(`?q=carga&desde=${hoy}&hasta=${hoy}`, admin.cookie);
    expect(result).toMatchObject({ total: 35, estimated: false, sums: { importe: (35 * 10.25).toFixed(2) } });
  });

  it("el CSV de esa búsqueda trae todas las coincidencias", async () => {
    const r = await respond(() =>
      loader({
        request: request("/gastos/exportar?q=carga&formato=csv", { cookie: admin.cookie }),
        context: app.context(),
        params: {},
      }),
    );
    expect((await r.text()).trim().split("\r\n")).toHaveLength(1 + N);
  });
});

describe("una búsqueda de pocas coincidencias: sus ids, en el orden de la lista, con su cuenta", () => {
  // «carga» and «100» anywhere (the folio too): a few pages of matches, fewer than 5·√(filas).
  const search = { columns: ["busqueda"], term: "carga 100", words: ["carga", "100"] };
  // As the list sorts by date: then the newest first (entities/gastos.ts `thenBy`).
  const porFecha = [
    { column: "fecha_gasto", ascending: false },
    { column: "creado_en", ascending: false },
  ];
  /** Every match of a plain search over the view (no function), in `order`. */
  const todas = async (order: ListQuery["order"], who: TestUser = admin) =>
    (
      await sqlStore(app.db, who.id).list<{ id: string }>("gastos_vista", {
        search,
        order,
        limit: 1000,
        offset: 0,
        count: "none",
      })
    ).rows.map((r) => r.id);

  it("la función los da en el orden por defecto (fecha, después id) con su cuenta y suma, también en mayúsculas", async () => {
    const ids = await todas(porFecha);
    expect(ids.length).toBeGreaterThan(50);
    expect(ids.length).toBeLessThan(200);
    for (const p_palabras of [search.words, ["CARGA", "100"]]) {
      const [r] = await sqlStore(app.db, admin.id).rpc<unknown[]>("buscar_gastos", {
        p_palabras,
        p_tope: EXACT_COUNT_LIMIT,
      });
      expect(r).toEqual({
        ids: ids.join(","),
        coincidencias: ids.length,
        exacto: true,
        sumas: { importe: (ids.length * 10.25).toFixed(2) },
      });
    }
  });

  it("en su orden y sin filtros, la página es su trozo; por un nombre relacionado o con filtros, todos", async () => {
    const ids = await todas(porFecha);
    const buscar = (q: Partial<ListQuery>) =>
      asUser(app.db, admin.id, (trx) =>
        withSearchFunction(
          anyTables(trx),
          { search: { ...search, fn: "buscar_gastos" }, order: porFecha, limit: 25, offset: 25, ...q },
          EXACT_COUNT_LIMIT,
        ),
      );
    const enOrden = await buscar({});
    expect(enOrden.found).toEqual({
      total: ids.length,
      estimated: false,
      sums: { importe: (ids.length * 10.25).toFixed(2) },
    });
    expect(enOrden.page).toMatchObject({ offset: 0, limit: 25, search: undefined });
    expect((enOrden.page!.filters![0]!.value as IdsText).text).toBe(ids.slice(25, 50).join(","));
    expect((enOrden.query.filters![0]!.value as IdsText).text).toBe(ids.join(","));
    // By another column of gastos, the ids come in that order (then id, in the same direction).
    const porImporte = [{ column: "importe", ascending: true }];
    const enImporte = await buscar({ order: porImporte });
    expect((enImporte.page!.filters![0]!.value as IdsText).text).toBe(
      (await todas(porImporte)).slice(25, 50).join(","),
    );
    // By a related name the function cannot sort by: every id, and the list sorts them.
    const porProveedor = await buscar({ order: [{ column: "proveedor_nombre", ascending: true }] });
    expect(porProveedor.page).toBeUndefined();
    expect((porProveedor.query.filters![0]!.value as IdsText).text).toBe(ids.join(","));
    expect((await buscar({ filters: [{ column: "solicitante_id", op: "eq", value: admin.id }] })).page).toBeUndefined();
    // Without a cap (an exact count, the export) the ids come unsorted: no slice either.
    const sinTope = await asUser(app.db, admin.id, (trx) =>
      withSearchFunction(
        anyTables(trx),
        { search: { ...search, fn: "buscar_gastos" }, order: porFecha, limit: 25, offset: 25 },
        null,
      ),
    );
    expect(sinTope.page).toBeUndefined();
  });

  it("la lista: cada página, en cada orden, con cada cuenta y para cada cual, la de la búsqueda sin función", async () => {
    const orders: ListQuery["order"][] = [
      porFecha,
      [{ column: "fecha_gasto", ascending: true }],
      [{ column: "importe", ascending: true }],
      [{ column: "descripcion", ascending: false }],
    ];
    for (const who of [admin, empleado])
      for (const order of orders)
        for (const count of ["estimated", "exact"] as const) {
          const n = (await todas(order, who)).length;
          for (let offset = 0; offset <= n; offset += 25) {
            const q: ListQuery = {
              search,
              order,
              limit: 25,
              offset,
              count,
              sum: ["importe"],
              base: "gastos",
            };
            const store = sqlStore(app.db, who.id);
            const sin = await store.list<{ id: string }>("gastos_vista", q);
            const con = await store.list<{ id: string }>("gastos_vista", {
              ...q,
              search: { ...search, fn: "buscar_gastos" },
            });
            expect({ ...con, rows: con.rows.map((r) => r.id) }).toEqual({ ...sin, rows: sin.rows.map((r) => r.id) });
          }
        }
  });
});
