import http from "node:http";
import type { AddressInfo } from "node:net";
import * as usuariosRoute from "~/routes/usuarios._index";
import * as usuarioRoute from "~/routes/usuarios.$id";
import { sql } from "kysely";
import { parseListState, toListQuery } from "~/crud/list-query";
import { anyTables, asUser as comoUsuario } from "~/data/sql/connection.server";
import { withSearchFunction } from "~/data/sql/performance/search.server";
import type { IdsText } from "~/data/sql/where.server";
import { sqlStore } from "~/data/sql/adapter.server";
import { EXACT_COUNT_LIMIT, type ListQuery, type Row } from "~/data/store";
import { supabaseStore } from "~/data/supabase.server";
import type { Entity } from "~/entities/entity";
import { departamentos } from "~/entities/departamentos";
import { gastos as gastosEntity } from "~/entities/gastos";
import { proveedores } from "~/entities/proveedores";
import { sucursales } from "~/entities/sucursales";
import { usuarios } from "~/entities/usuarios";
import { todayISO } from "~/lib/dates";
import { normalizarBusqueda, palabrasBusqueda } from "~/lib/busqueda";
import { generateValidCif } from "~/lib/nif";
import { createTestApp, type TestApp, type TestUser } from "../support/app";
import { asUser, connect } from "../support/as-user";
import { entityPages } from "../support/entity-pages";
import { insertDepartamento, insertSucursal, setProfile } from "../support/fixtures";
import { gastosPage } from "../support/gastos";
import { pantallasDe } from "../support/pantallas";

const departamentoRoute = pantallasDe("departamentos").ficha;
const proveedorRoute = pantallasDe("proveedores").ficha;
const sucursalRoute = pantallasDe("sucursales").ficha;

const departamentosRoute = pantallasDe("departamentos").lista;
const proveedoresRoute = pantallasDe("proveedores").lista;
const sucursalesRoute = pantallasDe("sucursales").lista;

/**
 * Search: every word, without accents or capitals, somewhere in the record's
 * searchable columns — a gasto's supplier's names too — on every list, under row-level security,
 * with the same rows through both store adapters.
 */
let app: TestApp;
let admin: TestUser;
let empleado: TestUser;
const hoy = todayISO();
/** Gasto ids by short name. */
const g: Record<string, string> = {};
/** The supplier the rename test renames. */
let renfe = "";

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  empleado = await app.createUser({ nombre: "Íñigo", rol: "empleado" });
  const dep = await insertDepartamento(app.db, { nombre: "Dirección General", codigo: "DG" });
  const suc = await insertSucursal(app.db, {
    nombre: "Málaga Centro",
    codigo: "AGP",
    direccion: "Calle Larios 5",
    ciudad: "Málaga",
  });
  await setProfile(app.db, admin.id, { departamento_id: dep, sucursal_id: suc });
  await setProfile(app.db, empleado.id, { departamento_id: dep, sucursal_id: suc });
  await app.db.updateTable("usuarios").set({ apellidos: "Administradora" }).where("id", "=", admin.id).execute();
  const proveedor = async (razon_social: string, nombre_comercial: string | null, n: number) =>
    String(
      (
        await app.db
          .insertInto("proveedores")
          .values({ razon_social, nombre_comercial, nif: generateValidCif(n), tipo_persona: "empresa", pais: "ES" })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id,
    );
  const movistar = await proveedor("Telefónica Móviles España, S.A.U.", "Movistar", 11);
  const barcelo = await proveedor("Hoteles Barceló, S.A.", null, 12);
  renfe = await proveedor("Renfe Viajeros, S.M.E.", "Renfe", 13);
  const crear = async (clave: string, descripcion: string, o: { proveedor?: string; por?: TestUser } = {}) => {
    const r = await gastos.post(
      {
        intent: "crear",
        _envio: crypto.randomUUID(),
        descripcion,
        fecha_gasto: hoy,
        categoria: "comidas",
        importe: "10,00",
        metodo_pago: "tarjeta_corporativa",
        ...(o.proveedor ? { proveedor_id: o.proveedor } : {}),
        notas: "Nota privada: barcelona",
      },
      (o.por ?? admin).cookie,
    );
    g[clave] = (await gastos.created(r)).id;
  };
  await crear("cafe", "Café y agua para la reunión");
  await crear("cafeteria", "Cafetería del aeropuerto");
  await crear("hotel", "Hotel en Barcelona — visita cliente", { proveedor: barcelo });
  await crear("cena", "Cliente X: cena");
  await crear("linea", "Línea móvil de noviembre", { proveedor: movistar });
  await crear("signos", "Descuento 50% _especial_ \\ barra");
  await crear("taxi", "Taxi 100 por cien");
  await crear("propio", "Hotel del empleado", { por: empleado });
  await crear("tren", "Billete de ida y vuelta", { proveedor: renfe });
});
afterAll(() => app?.close());

const gastos = gastosPage(() => app);
const pages = (path: string, index: never, record: never) =>
  entityPages(path, { index, record }, () => ({ app, cookie: admin.cookie }));

/** The gastos the list shows for `q`, by short name, sorted. */
async function buscar(q: string, who: TestUser = admin) {
  const data = await gastos.list(`?q=${encodeURIComponent(q)}&por_pagina=100`, who.cookie);
  const byId = Object.fromEntries(Object.entries(g).map(([k, id]) => [id, k]));
  return (data.result.rows as { id: string }[]).map((r) => byId[r.id] ?? r.id).sort();
}

describe("/gastos", () => {
  it("sin acentos ni mayúsculas, en los dos sentidos", async () => {
    expect(await buscar("cafe")).toEqual(["cafe", "cafeteria"]);
    expect(await buscar("café")).toEqual(["cafe", "cafeteria"]);
    expect(await buscar("CAFÉ")).toEqual(["cafe", "cafeteria"]);
    expect(await buscar("cafeteria")).toEqual(["cafeteria"]);
    expect(await buscar("LÍNEA")).toEqual(["linea"]);
  });

  it("cada palabra en cualquier orden y en cualquier columna, también en el proveedor", async () => {
    expect(await buscar("hotel barcelona")).toEqual(["hotel"]);
    expect(await buscar("barcelona hotel")).toEqual(["hotel"]);
    expect(await buscar("cena cliente")).toEqual(["cena"]);
    // «telefonica» only in the supplier's legal name, «movil» in both.
    expect(await buscar("telefonica movil")).toEqual(["linea"]);
    // One word in the supplier's trade name, the other in the description.
    expect(await buscar("noviembre movistar")).toEqual(["linea"]);
    expect(await buscar("barcelo")).toEqual(["hotel"]);
    // The supplier's names only: not its NIF (the proveedores list finds it by NIF).
    expect(await buscar(generateValidCif(11))).toEqual([]);
    // Every word must match: one that does not empties the list.
    expect(await buscar("hotel madrid")).toEqual([]);
  });

  it("partes de palabras y el folio", async () => {
    expect(await buscar("aeropu")).toEqual(["cafeteria"]);
    const { folio } = await gastos.row(g.cena!);
    expect(await buscar(folio.toLowerCase())).toEqual(["cena"]);
    expect(await buscar(folio.slice(-5))).toEqual(["cena"]);
  });

  it("%, _ y \\ escritos por el usuario son texto, no comodines", async () => {
    expect(await buscar("50%")).toEqual(["signos"]);
    expect(await buscar("100%")).toEqual([]);
    expect(await buscar("_especial_")).toEqual(["signos"]);
    expect(await buscar("\\ barra desc")).toEqual(["signos"]);
    expect(await buscar("%%%")).toEqual([]);
    expect(await buscar("___")).toEqual([]);
  });

  it("una entrada muy larga no falla: se recorta y las palabras repetidas no cuentan", async () => {
    expect(await buscar("hotel ".repeat(1000))).toEqual(["hotel", "propio"]);
    expect(await buscar("barcelona ".repeat(9) + "x".repeat(5000))).toEqual([]);
    const muchas = Array.from({ length: 40 }, (_, i) => `p${i}`).join(" ");
    expect(await buscar(muchas)).toEqual([]);
  });

  it("un proveedor que cambia de nombre: sus gastos se encuentran por el nuevo, sin contar como edición", async () => {
    expect(await buscar("renfe billete")).toEqual(["tren"]);
    // Searched before and after each change: a search kept between requests must not outlive one.
    expect(await buscar("renfe")).toEqual(["tren"]);
    const gasto = () =>
      app.db
        .selectFrom("gastos")
        .select(["version", "actualizado_en"])
        .where("id", "=", g.tren!)
        .executeTakeFirstOrThrow();
    const historial = async () =>
      (
        await app.db
          .selectFrom("historial")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .where("registro_id", "=", g.tren!)
          .executeTakeFirstOrThrow()
      ).n;
    const [antes, historialAntes] = [await gasto(), await historial()];
    const client = await connect(app.url);
    try {
      // As the administrador (RLS on), as the proveedores form saves it.
      await asUser(client, admin.id, (q) =>
        q(
          "update public.proveedores set razon_social = 'Ferrocarriles Viajeros, S.L.', nombre_comercial = 'Iryo' where id = $1",
          [renfe],
        ),
      );
    } finally {
      await client.end();
    }
    expect(await buscar("iryo billete")).toEqual(["tren"]);
    expect(await buscar("ferrocarriles")).toEqual(["tren"]);
    expect(await buscar("renfe")).toEqual([]);
    // Not an edit of the gasto: same version and date, nothing in its history.
    expect(await gasto()).toEqual(antes);
    expect(await historial()).toBe(historialAntes);
    expect(await buscar("iryo")).toEqual(["tren"]);
    // A gasto that changes supplier takes the new one's names.
    await app.db.updateTable("gastos").set({ proveedor_id: null }).where("id", "=", g.tren!).execute();
    expect(await buscar("iryo")).toEqual([]);
    expect(await buscar("billete")).toEqual(["tren"]);
  });

  it("con RLS: un empleado solo encuentra lo que ve, y las notas no se buscan", async () => {
    expect(await buscar("hotel", empleado)).toEqual(["propio"]);
    // The administrador sees every gasto, the empleado's draft too.
    expect(await buscar("hotel")).toEqual(["hotel", "propio"]);
    expect(await buscar("privada")).toEqual([]);
  });
});

describe("los registros", () => {
  const usuariosPages = pages("/usuarios", usuariosRoute as never, usuarioRoute as never);
  const proveedoresPages = pages("/proveedores", proveedoresRoute as never, proveedorRoute as never);
  const departamentosPages = pages("/departamentos", departamentosRoute as never, departamentoRoute as never);
  const sucursalesPages = pages("/sucursales", sucursalesRoute as never, sucursalRoute as never);
  const names = (data: { result: { rows: Row[] } }, column: string) => data.result.rows.map((r) => r[column]);

  it("usuarios por nombre y apellidos juntos, en cualquier orden", async () => {
    expect(names(await usuariosPages.list("?q=Ana%20Administradora"), "id")).toEqual([admin.id]);
    expect(names(await usuariosPages.list("?q=administradora%20ana"), "id")).toEqual([admin.id]);
    expect(names(await usuariosPages.list("?q=inigo"), "id")).toEqual([empleado.id]);
  });

  it("proveedores, departamentos y sucursales", async () => {
    expect(names(await proveedoresPages.list("?q=telefonica%20movistar"), "razon_social")).toEqual([
      "Telefónica Móviles España, S.A.U.",
    ]);
    expect(names(await proveedoresPages.list("?q=S.A."), "razon_social").sort()).toEqual([
      "Hoteles Barceló, S.A.",
      "Telefónica Móviles España, S.A.U.",
    ]);
    expect(names(await proveedoresPages.list(`?q=${generateValidCif(11).toLowerCase()}`), "nombre_comercial")).toEqual([
      "Movistar",
    ]);
    expect(names(await departamentosPages.list("?q=general%20DIRECCION"), "nombre")).toEqual(["Dirección General"]);
    expect(names(await sucursalesPages.list("?q=malaga%20larios"), "nombre")).toEqual(["Málaga Centro"]);
    expect(names(await sucursalesPages.list("?q=malaga%20madrid"), "nombre")).toEqual([]);
  });
});

describe("las palabras se normalizan como en la base de datos", () => {
  it("carácter a carácter: letras latinas, marcas sueltas y puntuación", async () => {
    const chars: string[] = [];
    for (const [from, to] of [
      [0x20, 0x24f],
      [0x300, 0x36f],
      [0x1e00, 0x1eff],
      [0x2010, 0x205f],
    ] as const)
      for (let cp = from; cp <= to; cp++) chars.push(String.fromCodePoint(cp));
    chars.push("Ñandú Cafetería", "e\u0301", "L’Oréal «Œuvre»", "Straße", "Łódź");
    const client = await connect(app.url);
    try {
      const { rows } = await client.query<{ n: string }>(
        "select interno.normalizar(c) as n from unnest($1::text[]) with ordinality as x (c, i) order by i",
        [chars],
      );
      const distintos = chars.filter((c, i) => normalizarBusqueda(c) !== rows[i]!.n);
      expect(distintos).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it("las palabras: separadas por espacios, sin repetir ni las contenidas en otra", () => {
    expect(palabrasBusqueda("  Café   cafe\tCAFETERÍA  ")).toEqual(["cafeteria"]);
    expect(palabrasBusqueda("Hotel   Barcelona")).toEqual(["hotel", "barcelona"]);
    expect(palabrasBusqueda(" ")).toEqual([]);
  });
});

describe("el adaptador de Supabase encuentra las mismas filas (por HTTP, contra esta base de datos)", () => {
  let server: http.Server;
  let base = "";
  beforeAll(async () => {
    server = miniPostgrest(app.url);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const casos: [Entity, string, string][] = [
    [gastosEntity, "gastos_vista", "cafe"],
    [gastosEntity, "gastos_vista", "hotel barcelona"],
    [gastosEntity, "gastos_vista", "telefonica movil"],
    [gastosEntity, "gastos_vista", "noviembre MOVISTAR"],
    [gastosEntity, "gastos_vista", "50% \\ _especial_"],
    [gastosEntity, "gastos_vista", "hotel"],
    [usuarios, "usuarios_vista", "administradora ana"],
    [proveedores, "proveedores_vista", "s.a. hoteles"],
    [departamentos, "departamentos_vista", "direccion"],
    [sucursales, "sucursales_vista", "larios malaga"],
  ];
  for (const [entity, source, q] of casos)
    for (const who of ["admin", "empleado"] as const)
      it(`${source} «${q}» (${who})`, async () => {
        const user = who === "admin" ? admin : empleado;
        const query: ListQuery = {
          ...toListQuery(entity, parseListState(entity, new URLSearchParams({ q }))),
          ...(entity === gastosEntity ? { sum: ["importe"] } : {}),
        };
        const viaSql = await sqlStore(app.db, user.id).list<Row>(source, query);
        const viaSupabase = await supabaseStore({ url: base, anonKey: "anon" }, jwt(user.id)).list<Row>(source, query);
        // The same rows in the same order: both adapters break ties by id in the sort's direction.
        const ids = (rows: Row[]) => rows.map((r) => String(r.id));
        expect(ids(viaSupabase.rows)).toEqual(ids(viaSql.rows));
        // The administrador finds something in every case (an empleado may find nothing).
        if (who === "admin") expect(viaSql.rows.length).toBeGreaterThan(0);
        expect({ total: viaSupabase.total, sums: viaSupabase.sums }).toEqual({
          total: viaSql.total,
          sums: viaSql.sums,
        });
      });
});

describe("con muchas coincidencias: las mismas filas, en el mismo orden, que la búsqueda sin función", () => {
  // A supplier with hundreds of gastos (its name in each one's `busqueda`), another whose name
  // shares a word with it, gastos without supplier that mention that word, invoice numbers:
  // more matches than a few pages, some visible to the empleado. The reference is the search as a
  // plain condition on the view (each word in `busqueda`, under RLS): what the list answered
  // before the search function existed, and what the function must answer faster.
  let folio = "";
  beforeAll(async () => {
    const perfil = await app.db
      .selectFrom("usuarios")
      .select(["departamento_id", "sucursal_id"])
      .where("id", "=", admin.id)
      .executeTakeFirstOrThrow();
    const proveedor = async (razon_social: string, nombre_comercial: string | null, n: number) =>
      String(
        (
          await app.db
            .insertInto("proveedores")
            .values({ razon_social, nombre_comercial, nif: generateValidCif(n), tipo_persona: "empresa", pais: "ES" })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id,
      );
    const autopistas = await proveedor("Autopistas del Cierzo, S.A.", "Cierzo Peajes", 21);
    const areas = await proveedor("Áreas de Servicio Cierzo, S.L.", null, 22);
    // As the owner, like a bulk load; dates repeat (ties broken by id), amounts vary.
    const cargar = async (
      n: number,
      descripcion: string,
      proveedorId: string | null,
      who: TestUser,
      factura: string | null,
    ) =>
      sql`
        insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id,
                            sucursal_id, proveedor_id, numero_factura)
        select ${descripcion} || ' ' || i, ${hoy}::date - (i % 37), 'aparcamiento_peajes', 1 + (i * 7919 % 9700) / 100.0,
               'tarjeta_corporativa', ${who.id}::uuid, ${perfil.departamento_id}::uuid, ${perfil.sucursal_id}::uuid,
               ${proveedorId}::uuid, case when ${factura}::text is null then null else ${factura} || i end
        from generate_series(1, ${n}) i`.execute(app.db);
    await cargar(420, "Peaje tramo", autopistas, admin, "CZ-");
    await cargar(60, "Peaje tramo", autopistas, empleado, null);
    await cargar(90, "Gasóleo", areas, admin, null);
    await cargar(25, "Dieta en el Cierzo", null, admin, "DC-");
    await cargar(15, "Dieta en el Cierzo", null, empleado, null);
    await sql`analyze gastos`.execute(app.db);
    folio = (
      await app.db
        .selectFrom("gastos")
        .select("folio")
        .where("descripcion", "=", "Peaje tramo 17")
        .where("solicitante_id", "=", admin.id)
        .executeTakeFirstOrThrow()
    ).folio;
  }, 60_000);

  // As the list sorts by date: then the newest first (entities/gastos.ts `thenBy`).
  const porFecha = [
    { column: "fecha_gasto", ascending: false },
    { column: "creado_en", ascending: false },
  ];
  // Not the function's order (it sorts a date's gastos by creation): its ids filter the rows, the list sorts them.
  const soloFecha = [{ column: "fecha_gasto", ascending: false }];
  const orders: ListQuery["order"][] = [
    porFecha,
    [
      { column: "fecha_gasto", ascending: true },
      { column: "creado_en", ascending: true },
    ],
    soloFecha,
    [{ column: "importe", ascending: false }],
    [{ column: "descripcion", ascending: true }],
    [{ column: "estado", ascending: false }],
    [{ column: "folio", ascending: true }],
    [{ column: "proveedor_nombre", ascending: true }],
  ];
  const consulta = (q: string): ListQuery => ({
    ...toListQuery(gastosEntity, parseListState(gastosEntity, new URLSearchParams({ q }))),
    sum: ["importe"],
    base: "gastos",
  });

  it("el nombre de un proveedor, un folio, palabras de la descripción y un número de factura", async () => {
    const casos = [
      "cierzo", // two suppliers' names and the descriptions of gastos without supplier
      "autopistas", // one supplier's legal name only
      "CIERZO peajes", // trade name, in capitals
      "areas cierzo", // accents
      "cierzo dieta", // one word in the supplier, one in the description; or both in the description
      "peaje tramo 1", // description words, a short one
      "gasoleo", // a description word
      "cz-41", // invoice numbers
      "xyzzy",
    ];
    const vistos: Record<string, number> = {};
    for (const q of [...casos, folio])
      for (const who of [admin, empleado])
        for (const order of orders)
          for (const count of ["estimated", "exact"] as const) {
            const store = sqlStore(app.db, who.id);
            const base = { ...consulta(q), order, count };
            const sin = { ...base, search: { ...base.search!, fn: undefined } };
            const total = (await store.list<Row>("gastos_vista", { ...sin, limit: 1, offset: 0 })).total;
            // The page's rows do not depend on how the total is counted: the other pages, counted exactly.
            const offsets = count === "exact" ? [0, 25, Math.max(0, total - 10)] : [0];
            for (const offset of offsets) {
              const referencia = await store.list<Row>("gastos_vista", { ...sin, limit: 25, offset });
              const buscada = await store.list<Row>("gastos_vista", { ...base, limit: 25, offset });
              const ids = (r: { rows: Row[] }) => r.rows.map((x) => x.id);
              expect({ ...buscada, rows: ids(buscada) }, `${q} ${JSON.stringify(order)} ${offset}`).toEqual({
                ...referencia,
                rows: ids(referencia),
              });
            }
            if (who === admin) vistos[q] = total;
          }
    // The cases are what they say: hundreds of matches for a supplier's word, one for a folio.
    expect(vistos.cierzo).toBe(420 + 60 + 90 + 25 + 15);
    expect(vistos.autopistas).toBe(480);
    expect(vistos["cierzo dieta"]).toBe(40);
    expect(vistos[folio]).toBe(1);
    expect(vistos["cz-41"]).toBe(11);
    expect(vistos.xyzzy).toBe(0);
    // Some 600 queries compared pairwise: a time limit of its own, not the default for one request's worth.
  }, 120_000);

  it("la función da los ids de todas hasta el tope, en el orden de la lista", async () => {
    const [r] = await sqlStore(app.db, admin.id).rpc<{ ids: string | null; coincidencias: number }[]>("buscar_gastos", {
      p_palabras: ["cierzo"],
      p_tope: EXACT_COUNT_LIMIT,
    });
    const todas = await sqlStore(app.db, admin.id).list<Row>("gastos_vista", {
      ...consulta("cierzo"),
      search: { ...consulta("cierzo").search!, fn: undefined },
      order: porFecha,
      limit: 1000,
      offset: 0,
      count: "none",
    });
    expect(r!.coincidencias).toBe(610);
    expect(r!.ids).toBe(todas.rows.map((x) => x.id).join(","));
    // The supplier's 480 gastos, counted by its index before reading any: at the cap, exact; one
    // under it, the function says there are more than the cap without listing them.
    const autopistas = (p_tope: number) =>
      sqlStore(app.db, admin.id).rpc<{ ids: string | null; coincidencias: number; exacto: boolean }[]>(
        "buscar_gastos",
        { p_palabras: ["autopistas"], p_tope },
      );
    const [justas] = await autopistas(480);
    expect(justas).toMatchObject({ coincidencias: 480, exacto: true });
    expect(justas!.ids!.split(",")).toHaveLength(480);
    const [demasiadas] = await autopistas(479);
    expect(demasiadas).toMatchObject({ ids: null, exacto: false });
    expect(Number(demasiadas!.coincidencias)).toBeGreaterThanOrEqual(480);
  });

  it("más coincidencias que el tope: la página en el orden de la lista la da la función de páginas", async () => {
    for (const who of [admin, empleado])
      for (const q of ["cierzo", "peaje tramo"])
        for (const order of orders.filter((o) => o !== soloFecha && o![0]!.column !== "proveedor_nombre"))
          for (const offset of [0, 25, 500]) {
            const query: ListQuery = { ...consulta(q), order, limit: 25, offset, count: "estimated" };
            const { rows: referencia } = await sqlStore(app.db, who.id).list<Row>("gastos_vista", {
              ...query,
              search: { ...query.search!, fn: undefined },
            });
            // A cap of 50: the function counts 51 and gives no ids.
            const r = await comoUsuario(app.db, who.id, (trx) => withSearchFunction(anyTables(trx), query, 50));
            expect(r.found).toMatchObject({ estimated: true });
            expect((r.page!.filters![0]!.value as IdsText).text, `${q} ${JSON.stringify(order)} ${offset}`).toBe(
              referencia.map((x) => x.id).join(","),
            );
          }
  });
});

function jwt(sub: string): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub, role: "authenticated", aud: "authenticated", exp: Math.floor(Date.now() / 1000) + 3600 })}.firma`;
}

/**
 * PostgREST, for the requests a list with a search makes: `select` with empty embeds
 * (`alias:table!fk()`), `or=(…)` trees of `col.ilike."…"` and `embed.not.is.null`, `embed.or=(…)`,
 * `order`, `offset`, `limit`, `Prefer: count=exact`, and `rpc/sumar_lista` — each run on the real
 * database as the JWT's user, the way PostgREST runs them. Anything else is refused, so the test
 * fails rather than answering something PostgREST would not.
 */
function miniPostgrest(url: string): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      answer(req, Buffer.concat(chunks).toString("utf8"))
        .then(({ status, headers, body }) => {
          res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...headers });
          res.end(JSON.stringify(body));
        })
        .catch((error: Error) => {
          res.writeHead(400, { "Content-Type": "application/json" });
          res.end(JSON.stringify({ code: "PGRST100", message: error.message, details: null, hint: null }));
        });
    });
  });

  async function answer(req: http.IncomingMessage, text: string) {
    const { pathname, searchParams } = new URL(req.url!, "http://localhost");
    const sub = JSON.parse(Buffer.from(req.headers.authorization!.split(".")[1]!, "base64url").toString()).sub;
    const client = await connect(url);
    try {
      if (req.method === "POST" && pathname === "/rest/v1/rpc/sumar_lista") {
        const a = JSON.parse(text);
        const r = await asUser(client, sub, (q) =>
          q("select public.sumar_lista($1, $2, $3, $4) as r", [
            a.p_fuente,
            a.p_columnas,
            JSON.stringify(a.p_filtros),
            a.p_busqueda === null ? null : JSON.stringify(a.p_busqueda),
          ]),
        );
        return { status: 200, headers: {}, body: r.rows[0].r };
      }
      const source = /^\/rest\/v1\/([a-z_]+)$/.exec(pathname)?.[1];
      if (req.method !== "GET" || !source) throw new Error(`no soportado: ${req.method} ${pathname}`);
      const params: unknown[] = [];
      const ident = (s: string) => {
        if (!/^[a-z_][a-z0-9_]*$/.test(s)) throw new Error(`identificador: ${s}`);
        return `"${s}"`;
      };
      const like = (column: string, value: string, alias = "t") => {
        params.push(value.replace(/\*/g, "%"));
        return `${alias}.${ident(column)}::text ilike $${params.length}`;
      };
      // The embeds: alias → (table, foreign key column).
      const embeds = new Map<string, { table: string; fk: string }>();
      const columns: string[] = [];
      for (const item of splitTop(searchParams.get("select") ?? "*")) {
        const embed = /^(?:([a-z_0-9]+):)?([a-z_]+)!([a-z_]+)\(\)$/.exec(item);
        if (embed) embeds.set(embed[1] ?? embed[2]!, { table: embed[2]!, fk: embed[3]! });
        else columns.push(item === "*" ? "t.*" : `t.${ident(item)}`);
      }
      const where: string[] = [];
      const embedded = new Map<string, string[]>();
      for (const [key, value] of searchParams) {
        if (["select", "order", "offset", "limit"].includes(key)) continue;
        const nested = /^([a-z_0-9]+)\.or$/.exec(key);
        if (key !== "or" && !nested) throw new Error(`filtro no soportado: ${key}`);
        const terms = splitTop(value.replace(/^\((.*)\)$/s, "$1")).map((term) => {
          const null_ = /^([a-z_0-9]+)\.not\.is\.null$/.exec(term);
          if (null_ && !nested) return { embed: null_[1]! };
          const m = /^([a-z_]+)\.ilike\.(.*)$/s.exec(term);
          if (!m) throw new Error(`condición no soportada: ${term}`);
          return { column: m[1]!, value: unquote(m[2]!) };
        });
        if (nested)
          embedded.set(
            nested[1]!,
            terms.map((c) => like(c.column!, c.value!, "x")),
          );
        else where.push(terms.map((c) => ("embed" in c ? `@${c.embed}` : like(c.column!, c.value!))).join(" or "));
      }
      // An embed is not null when a row of its table matches its own filter (a to-one left join).
      const sqlWhere = where
        .map((w) =>
          w.replace(/@([a-z_0-9]+)/g, (_, alias: string) => {
            const e = embeds.get(alias);
            const cond = embedded.get(alias);
            if (!e) throw new Error(`embebido desconocido: ${alias}`);
            return `t.${ident(e.fk)} = any(array(select x.id from public.${ident(e.table)} x where ${(cond ?? ["true"]).join(" or ")}))`;
          }),
        )
        .map((w) => `(${w})`);
      const order = (searchParams.get("order") ?? "")
        .split(",")
        .filter(Boolean)
        .map((o) => {
          const [column, dir] = o.split(".");
          return `t.${ident(column!)} ${dir === "desc" ? "desc" : "asc"}`;
        });
      const from = `from public.${ident(source)} t ${sqlWhere.length ? `where ${sqlWhere.join(" and ")}` : ""}`;
      const offset = Number(searchParams.get("offset") ?? 0);
      const limit = searchParams.get("limit");
      const { rows, total } = await asUser(client, sub, async (q) => ({
        rows: (
          await q(
            `select ${columns.join(", ")} ${from} ${order.length ? `order by ${order.join(", ")}` : ""} offset ${offset} ${limit ? `limit ${Number(limit)}` : ""}`,
            params,
          )
        ).rows,
        total: Number((await q(`select count(*) as n ${from}`, params)).rows[0].n),
      }));
      const range = rows.length ? `${offset}-${offset + rows.length - 1}` : "*";
      return { status: 200, headers: { "Content-Range": `${range}/${total}` }, body: rows };
    } finally {
      await client.end();
    }
  }
}

/** Splits at the commas outside quotes and parentheses. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted && c === "\\") {
      cur += c + (s[++i] ?? "");
      continue;
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "(") depth++;
    else if (!quoted && c === ")") depth--;
    else if (!quoted && depth === 0 && c === ",") {
      out.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  if (cur) out.push(cur);
  return out;
}

/** A PostgREST value: `"…"` with backslash escapes, or as is. */
function unquote(v: string): string {
  return v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1).replace(/\\(.)/gs, "$1") : v;
}
