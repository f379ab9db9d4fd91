import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { Readable } from "node:stream";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { deliverDue, type Envio } from "~/avisos/entrega.server";
import type { Mail } from "~/auth/mail.server";
import { AUTH_COOKIE, supabaseAuth } from "~/auth/supabase.server";
import {
  Conflict,
  EXACT_COUNT_LIMIT,
  Forbidden,
  Invalid,
  NotFound,
  Referenced,
  StoreError,
  type Row,
} from "~/data/store";
import { supabaseStore } from "~/data/supabase.server";
import { loadEnv } from "~/lib/env.server";
import { linkLife } from "~/auth/invitations.server";
import * as usuariosRoute from "~/routes/usuarios._index";
import { informeIrpf } from "~/viajes/informe.server";
import { supabaseAvisosOutbox, supabaseServices } from "~/services.supabase.server";

/**
 * The Supabase adapters at their HTTP boundary. No Supabase service can run here, so a loopback
 * HTTP server stands in for PostgREST (/rest/v1) and Supabase Auth (/auth/v1): it records every
 * request the adapters make (method, path, query, headers, body) and answers with the shapes
 * PostgREST and GoTrue document — Content-Range counts, error bodies {code, message, details,
 * hint}, 401/403/406. Each test asserts the requests AND what the adapter made of the answers.
 *
 * What this proves: the requests are the ones PostgREST/GoTrue expect and the adapters map their
 * documented answers right. What it cannot prove: that a real project answers those requests that
 * way (RLS, triggers, functions): that is store-supabase-live.test.ts, against a live project.
 */

type Recorded = {
  method: string;
  path: string;
  /** The raw query string, decoded (what PostgREST parses). */
  query: string;
  params: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  /** The body's bytes as they came (binary uploads). */
  raw: Buffer;
};
type Answer = { status?: number; headers?: Record<string, string>; body?: unknown };
type Handler = (req: Recorded) => Answer | undefined;

const ANON = "clave-anon-publica";
const JWT = jwt({ sub: "11111111-1111-4111-8111-111111111111", role: "authenticated" });
const ID = "22222222-2222-4222-8222-222222222222";
const USER_ID = "11111111-1111-4111-8111-111111111111";

let server: http.Server;
let base = "";
let requests: Recorded[] = [];
let handlers: Handler[] = [];

/** Answers `method path` (path without the query) with `answer`, as often as asked. */
function on(method: string, pathname: string, answer: Answer | ((req: Recorded) => Answer)) {
  handlers.push((req) =>
    req.method === method && req.path === pathname ? (typeof answer === "function" ? answer(req) : answer) : undefined,
  );
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url!, "http://localhost");
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: recorded as the text it is
      }
      const recorded: Recorded = {
        method: req.method!,
        path: url.pathname,
        query: decodeURIComponent(url.search.slice(1)),
        params: url.searchParams,
        headers: req.headers,
        body,
        raw: Buffer.concat(chunks),
      };
      requests.push(recorded);
      let answer: Answer | undefined;
      for (const h of handlers) if ((answer = h(recorded))) break;
      answer ??= { status: 500, body: { message: `sin respuesta preparada para ${req.method} ${url.pathname}` } };
      const payload =
        answer.body === undefined
          ? ""
          : typeof answer.body === "string" || Buffer.isBuffer(answer.body)
            ? answer.body
            : JSON.stringify(answer.body);
      res.writeHead(answer.status ?? 200, { "Content-Type": "application/json; charset=utf-8", ...answer.headers });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests = [];
  handlers = [];
});

const store = () => supabaseStore({ url: base, anonKey: ANON }, JWT);

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("Se esperaba un error y la operación terminó bien");
}

/** Every data request: the public key as apikey, the USER's JWT as bearer, never the anon key as bearer. */
function expectUserRequest(req: Recorded) {
  expect(req.headers.apikey).toBe(ANON);
  expect(req.headers.authorization).toBe(`Bearer ${JWT}`);
}

const pgError = (code: string, message: string, details: string | null = null, hint: string | null = null) => ({
  code,
  message,
  details,
  hint,
});

describe("almacén sobre PostgREST: list", () => {
  it("filtros, búsqueda, orden y rango en la URL; total del Content-Range; suma por rpc con los mismos filtros", async () => {
    const rows = [{ id: ID, folio: "GAS-2026-00026", importe: "12.50" }];
    on("GET", "/rest/v1/gastos_vista", { status: 206, headers: { "Content-Range": "25-49/132" }, body: rows });
    on("POST", "/rest/v1/rpc/sumar_lista", { body: { importe: "1234.50" } });

    const result = await store().list("gastos_vista", {
      filters: [
        { column: "estado", op: "eq", value: "pendiente" },
        { column: "departamento_id", op: "in", value: [ID, 'raro,"valor"\\'] },
        { column: "importe", op: "gte", value: "10.5" },
        { column: "fecha_gasto", op: "lt", value: "2026-11-30" },
        { column: "proveedor_id", op: "is_null" },
        { column: "aprobador_id", op: "not_null" },
        { column: "numero_factura", op: "ilike", value: "F-1%" },
      ],
      search: { columns: ["descripcion", "folio"], term: " taxi (T4), 50%_\\* " },
      order: [{ column: "fecha_gasto", ascending: false }],
      limit: 25,
      offset: 25,
      count: "exact",
      sum: ["importe"],
    });

    expect(result).toEqual({ rows, total: 132, estimated: false, sums: { importe: "1234.50" } });
    const get = requests.find((r) => r.method === "GET")!;
    expectUserRequest(get);
    expect(get.headers.prefer).toBe("count=exact");
    expect(get.headers["accept-profile"]).toBe("public");
    const pattern = '"*taxi (T4), 50\\\\%\\\\_\\\\\\\\_*"';
    expect([...get.params]).toEqual([
      ["select", "*"],
      ["estado", "eq.pendiente"],
      ["departamento_id", `in.("${ID}","raro,\\"valor\\"\\\\")`],
      ["importe", "gte.10.5"],
      ["fecha_gasto", "lt.2026-11-30"],
      ["proveedor_id", "is.null"],
      ["aprobador_id", "not.is.null"],
      ["numero_factura", "ilike.*F-1\\%*"],
      ["or", `(descripcion.ilike.${pattern},folio.ilike.${pattern})`],
      ["order", "fecha_gasto.desc,id.desc"],
      ["offset", "25"],
      ["limit", "25"],
    ]);

    const rpc = requests.find((r) => r.method === "POST")!;
    expectUserRequest(rpc);
    expect(rpc.headers["content-type"]).toMatch(/^application\/json/);
    expect(rpc.headers["content-profile"]).toBe("public");
    expect(rpc.body).toEqual({
      p_fuente: "gastos_vista",
      p_columnas: ["importe"],
      p_filtros: [
        { column: "estado", op: "eq", value: "pendiente" },
        { column: "departamento_id", op: "in", value: [ID, 'raro,"valor"\\'] },
        { column: "importe", op: "gte", value: "10.5" },
        { column: "fecha_gasto", op: "lt", value: "2026-11-30" },
        { column: "proveedor_id", op: "is_null", value: null },
        { column: "aprobador_id", op: "not_null", value: null },
        { column: "numero_factura", op: "ilike", value: "F-1%" },
      ],
      p_busqueda: { columns: ["descripcion", "folio"], term: "taxi (T4), 50%_\\*" },
    });
    expect(requests).toHaveLength(2);
  });

  it("el informe de IRPF suma los importes que PostgREST manda como números JSON, al céntimo", async () => {
    const linea = (clase: string, exento: number, sujeto: number) => ({
      id: ID,
      solicitante_id: USER_ID,
      solicitante_nombre: "Elena",
      solicitante_email: "elena@empresa.es",
      solicitante_nif: "12345678Z",
      clase,
      importe: exento + sujeto,
      exento_irpf: exento,
      sujeto_irpf: sujeto,
    });
    on("GET", "/rest/v1/informe_irpf", {
      headers: { "Content-Range": "0-2/*" },
      body: [linea("dieta", 26.67, 3.33), linea("kilometraje", 60.1, 0), linea("dieta", 53.34, 6.66)],
    });
    const informe = await informeIrpf(store(), {
      tipo: "anio",
      desde: "2026-01-01",
      hasta: "2026-12-31",
      titulo: "Año 2026",
      clave: "2026",
    });
    expect(informe.gastos).toBe(3);
    expect(informe.totales).toEqual({
      dietas_exento: "80.01",
      dietas_sujeto: "9.99",
      km_exento: "60.10",
      km_sujeto: "0.00",
      exento: "140.11",
      sujeto: "9.99",
    });
    // Each person's NIF comes with their lines, in one request.
    expect(informe.filas).toMatchObject([{ solicitante_id: USER_ID, nif: "12345678Z", dietas: 2, kilometrajes: 1 }]);
    expect(requests.map((r) => r.path)).toEqual(["/rest/v1/informe_irpf"]);
    expect(requests[0]!.params.get("select")).toContain("solicitante_nif");
  });

  it("la búsqueda no puede inyectar filtros: comas, puntos, paréntesis y comillas quedan dentro del valor", async () => {
    on("GET", "/rest/v1/departamentos_vista", { headers: { "Content-Range": "0-0/1" }, body: [] });
    await store().list("departamentos_vista", {
      search: { columns: ["nombre"], term: 'x",id.not.is.null,nombre.eq."y' },
      limit: 5,
      offset: 0,
      count: "exact",
    });
    // Inside the quotes, \" is a quote: PostgREST reads one value, `*x",id.not.is.null,nombre.eq."y*`.
    expect(requests[0]!.params.get("or")).toBe('(nombre.ilike."*x\\",id.not.is.null,nombre.eq.\\"y*")');
  });

  it("count «none»: sin recuento ni suma; el total es offset + filas", async () => {
    on("GET", "/rest/v1/departamentos", { headers: { "Content-Range": "10-11/*" }, body: [{ id: ID }, { id: ID }] });
    const none = await store().list("departamentos", {
      limit: 2,
      offset: 10,
      count: "none",
      sum: ["presupuesto_mensual"],
    });
    expect(requests[0]!.headers.prefer).toBeUndefined();
    expect(requests[0]!.params.get("offset")).toBe("10");
    expect(none).toEqual({ rows: [{ id: ID }, { id: ID }], total: 12, estimated: false, sums: {} });
    expect(requests).toHaveLength(1);
  });

  describe("count «estimated» (como el adaptador SQL, con EXACT_COUNT_LIMIT = " + EXACT_COUNT_LIMIT + ")", () => {
    const query = {
      filters: [{ column: "estado", op: "eq" as const, value: "pendiente" }],
      limit: 2,
      offset: 0,
      count: "estimated" as const,
      sum: ["importe"],
    };
    const page = [{ id: ID }, { id: ID }];

    it("el plan dice más del límite y existe la fila límite + 1: la estimación, marcada, sin suma", async () => {
      on("GET", "/rest/v1/gastos_vista", (req) =>
        req.params.get("select") === "*"
          ? { status: 206, headers: { "Content-Range": "0-1/48210" }, body: page }
          : { body: [{ id: ID }] },
      );
      expect(await store().list("gastos_vista", query)).toEqual({
        rows: page,
        total: 48210,
        estimated: true,
        sums: {},
      });
      const [rows, probe] = requests;
      expect(rows!.headers.prefer).toBe("count=planned");
      expect(probe!.query).toBe(`select=id&estado=eq.pendiente&offset=${EXACT_COUNT_LIMIT}&limit=1`);
      expect(probe!.headers.prefer).toBeUndefined();
      expectUserRequest(probe!);
      expect(requests).toHaveLength(2); // no exact count, no sum
    });

    it("el plan exagera (no existe la fila límite + 1): recuento exacto (HEAD) y suma", async () => {
      on("GET", "/rest/v1/gastos_vista", (req) =>
        req.params.get("select") === "*"
          ? { status: 206, headers: { "Content-Range": "0-1/25000" }, body: page }
          : { body: [] },
      );
      on("HEAD", "/rest/v1/gastos_vista", { status: 206, headers: { "Content-Range": "*/1612" } });
      on("POST", "/rest/v1/rpc/sumar_lista", { body: { importe: "16523.00" } });
      expect(await store().list("gastos_vista", query)).toEqual({
        rows: page,
        total: 1612,
        estimated: false,
        sums: { importe: "16523.00" },
      });
      const head = requests.find((r) => r.method === "HEAD")!;
      expect(head.query).toBe("select=id&estado=eq.pendiente");
      expect(head.headers.prefer).toBe("count=exact");
      expect(requests.map((r) => r.method).sort()).toEqual(["GET", "GET", "HEAD", "POST"]);
    });

    it("el plan dice pocas: sin sondeo, recuento exacto y suma", async () => {
      on("GET", "/rest/v1/gastos_vista", { status: 206, headers: { "Content-Range": "0-1/40" }, body: page });
      on("HEAD", "/rest/v1/gastos_vista", { status: 206, headers: { "Content-Range": "*/37" } });
      on("POST", "/rest/v1/rpc/sumar_lista", { body: { importe: "370.00" } });
      expect(await store().list("gastos_vista", query)).toEqual({
        rows: page,
        total: 37,
        estimated: false,
        sums: { importe: "370.00" },
      });
      expect(requests.map((r) => r.method).sort()).toEqual(["GET", "HEAD", "POST"]);
    });

    it("página incompleta desde el principio y sin suma: el total son las filas, sin más peticiones", async () => {
      on("GET", "/rest/v1/gastos_vista", { headers: { "Content-Range": "0-0/3" }, body: [{ id: ID }] });
      expect(await store().list("gastos_vista", { ...query, sum: undefined })).toEqual({
        rows: [{ id: ID }],
        total: 1,
        estimated: false,
        sums: {},
      });
      expect(requests).toHaveLength(1);
    });
  });

  it("limit 0 pide limit=0 (solo el total) y `in` vacío no hace ninguna petición", async () => {
    on("GET", "/rest/v1/gastos_vista", { headers: { "Content-Range": "*/7" }, body: [] });
    expect(await store().list("gastos_vista", { limit: 0, offset: 0, count: "exact" })).toEqual({
      rows: [],
      total: 7,
      estimated: false,
      sums: {},
    });
    expect(requests[0]!.params.get("limit")).toBe("0");

    requests = [];
    const empty = await store().list("gastos_vista", {
      filters: [{ column: "id", op: "in", value: [] }],
      limit: 25,
      offset: 0,
      count: "exact",
      sum: ["importe"],
    });
    expect(empty).toEqual({ rows: [], total: 0, estimated: false, sums: { importe: "0" } });
    expect(requests).toEqual([]);
  });

  it("un nombre de tabla o columna que no es un identificador no sale nunca en una URL", async () => {
    await expect(store().list("gastos;drop", { limit: 1, offset: 0 })).rejects.toThrow(/Identificador no válido/);
    await expect(
      store().list("gastos", { filters: [{ column: "a.b", op: "eq", value: 1 }], limit: 1, offset: 0 }),
    ).rejects.toThrow(/Identificador no válido/);
    await expect(
      store().list("gastos", { order: [{ column: "importe.desc,id", ascending: true }], limit: 1, offset: 0 }),
    ).rejects.toThrow(/Identificador no válido/);
    expect(requests).toEqual([]);
  });

  it("errores de la lista: 400 de PostgREST con código de Postgres → error tipado; 401 → Forbidden", async () => {
    on("GET", "/rest/v1/gastos_vista", {
      status: 400,
      body: pgError("22P02", 'invalid input syntax for type uuid: "x"'),
    });
    expect(
      await rejection(
        store().list("gastos_vista", { filters: [{ column: "id", op: "eq", value: "x" }], limit: 1, offset: 0 }),
      ),
    ).toBeInstanceOf(Invalid);
    handlers = [];
    on("GET", "/rest/v1/gastos_vista", { status: 401, body: pgError("PGRST301", "JWT expired") });
    const expired = await rejection(store().list("gastos_vista", { limit: 1, offset: 0 }));
    expect(expired).toBeInstanceOf(Forbidden);
    expect(expired.message).toMatch(/sesión ha caducado/);
  });
});

describe("almacén sobre PostgREST: get, insert, update, remove, rpc", () => {
  it("get: GET ?select=*&id=eq.…; [] → NotFound; 406 PGRST116 → NotFound; id mal formado → sin petición", async () => {
    const row = { id: ID, nombre: "Ventas", version: 3 };
    on("GET", "/rest/v1/departamentos", { body: [row] });
    expect(await store().get("departamentos", ID)).toEqual(row);
    expectUserRequest(requests[0]!);
    expect(requests[0]!.query).toBe(`select=*&id=eq.${ID}`);

    handlers = [];
    on("GET", "/rest/v1/departamentos", { body: [] });
    expect(await rejection(store().get("departamentos", ID))).toBeInstanceOf(NotFound);
    handlers = [];
    on("GET", "/rest/v1/departamentos", {
      status: 406,
      body: pgError("PGRST116", "JSON object requested, multiple (or no) rows returned", "The result contains 0 rows"),
    });
    expect(await rejection(store().get("departamentos", ID))).toBeInstanceOf(NotFound);

    requests = [];
    expect(await rejection(store().get("departamentos", "../usuarios"))).toBeInstanceOf(NotFound);
    expect(requests).toEqual([]);
  });

  it("insert: POST con Prefer return=representation y el cuerpo sin undefined; 201 → la fila", async () => {
    const row = { id: ID, nombre: "Ventas", codigo: "VEN", version: 1 };
    on("POST", "/rest/v1/departamentos", { status: 201, body: [row] });
    expect(
      await store().insert("departamentos", {
        nombre: "Ventas",
        codigo: "ven",
        notas: undefined,
        presupuesto_mensual: null,
      }),
    ).toEqual(row);
    const req = requests[0]!;
    expectUserRequest(req);
    expect(req.query).toBe("select=*");
    expect(req.headers.prefer).toBe("return=representation");
    expect(req.headers["content-type"]).toMatch(/^application\/json/);
    expect(req.body).toEqual({ nombre: "Ventas", codigo: "ven", presupuesto_mensual: null });
  });

  it("insert: 409 23505 → Invalid con la columna de la restricción; 403 42501 → Forbidden; 400 OFINV → Invalid con su columna y mensaje", async () => {
    on("POST", "/rest/v1/departamentos", {
      status: 409,
      body: pgError(
        "23505",
        'duplicate key value violates unique constraint "departamentos_codigo_key"',
        "Key (codigo)=(VEN) already exists.",
      ),
    });
    const dup = await rejection(store().insert("departamentos", { nombre: "Ventas", codigo: "VEN" }));
    expect(dup).toBeInstanceOf(Invalid);
    expect((dup as Invalid).field).toBe("codigo");

    handlers = [];
    on("POST", "/rest/v1/departamentos", {
      status: 403,
      body: pgError("42501", 'new row violates row-level security policy for table "departamentos"'),
    });
    expect(await rejection(store().insert("departamentos", { nombre: "Ventas", codigo: "VEN" }))).toBeInstanceOf(
      Forbidden,
    );

    handlers = [];
    on("POST", "/rest/v1/gastos", {
      status: 400,
      body: pgError("OFINV", "La fecha del gasto no puede ser futura.", "fecha_gasto"),
    });
    const invalid = await rejection(store().insert("gastos", { fecha_gasto: "2999-01-01" }));
    expect(invalid).toBeInstanceOf(Invalid);
    expect(invalid.message).toBe("La fecha del gasto no puede ser futura.");
    expect((invalid as Invalid).field).toBe("fecha_gasto");

    handlers = [];
    on("POST", "/rest/v1/gastos", {
      status: 409,
      body: pgError(
        "23503",
        'insert or update on table "gastos" violates foreign key constraint "gastos_proveedor_id_fkey"',
        `Key (proveedor_id)=(${ID}) is not present in table "proveedores".`,
      ),
    });
    const fk = await rejection(store().insert("gastos", { proveedor_id: ID }));
    expect(fk).toBeInstanceOf(Invalid);
    expect((fk as Invalid).field).toBe("proveedor_id");
  });

  it("update: PATCH ?id=eq.…&version=eq.…&select=* con return=representation → la fila nueva", async () => {
    on("PATCH", "/rest/v1/departamentos", { body: [{ id: ID, nombre: "Compras", version: 4 }] });
    expect(await store().update("departamentos", ID, 3, { nombre: "Compras", notas: undefined })).toEqual({
      id: ID,
      nombre: "Compras",
      version: 4,
    });
    const req = requests[0]!;
    expectUserRequest(req);
    expect(req.query).toBe(`id=eq.${ID}&version=eq.3&select=*`);
    expect(req.headers.prefer).toBe("return=representation");
    expect(req.body).toEqual({ nombre: "Compras" });
    expect(requests).toHaveLength(1);
  });

  it("update que no toca filas: vuelve a mirar (select=id,version) y distingue NotFound, Conflict y Forbidden", async () => {
    let current: Row[] = [];
    on("PATCH", "/rest/v1/departamentos", { body: [] });
    on("GET", "/rest/v1/departamentos", () => ({ body: current }));

    expect(await rejection(store().update("departamentos", ID, 3, { nombre: "Compras" }))).toBeInstanceOf(NotFound);
    const look = requests[1]!;
    expect(look.method).toBe("GET");
    expect(look.query).toBe(`select=id,version&id=eq.${ID}`);
    expectUserRequest(look);

    current = [{ id: ID, version: 4 }];
    const conflict = await rejection(store().update("departamentos", ID, 3, { nombre: "Compras" }));
    expect(conflict).toBeInstanceOf(Conflict);
    expect(conflict.message).toBe("Otra persona modificó este registro mientras lo editaba");

    current = [{ id: ID, version: 3 }];
    expect(await rejection(store().update("departamentos", ID, 3, { nombre: "Compras" }))).toBeInstanceOf(Forbidden);
    expect(requests.map((r) => r.method)).toEqual(["PATCH", "GET", "PATCH", "GET", "PATCH", "GET"]);
  });

  it("update: 400 OFCNF → Conflict; 400 23514 → Invalid con la columna; OFPRM → Forbidden", async () => {
    on("PATCH", "/rest/v1/usuarios", { status: 400, body: pgError("OFCNF", "Otra persona lo ha cambiado", "version") });
    expect(await rejection(store().update("usuarios", ID, 1, { nombre: "Eva" }))).toBeInstanceOf(Conflict);
    handlers = [];
    on("PATCH", "/rest/v1/usuarios", {
      status: 400,
      body: pgError(
        "23514",
        'new row for relation "usuarios" violates check constraint "usuarios_telefono_check"',
        "Failing row contains (…).",
      ),
    });
    const check = await rejection(store().update("usuarios", ID, 1, { telefono: "abc" }));
    expect(check).toBeInstanceOf(Invalid);
    expect((check as Invalid).field).toBe("telefono");
    handlers = [];
    on("PATCH", "/rest/v1/usuarios", {
      status: 400,
      body: pgError("OFPRM", "Solo un administrador puede cambiar el rol de un usuario.", "rol"),
    });
    expect(await rejection(store().update("usuarios", ID, 1, { rol: "administrador" }))).toBeInstanceOf(Forbidden);
  });

  it("remove: DELETE ?id=eq.…&version=eq.…&select=id; 409 23503 «still referenced» → Referenced; [] → mira y NotFound", async () => {
    on("DELETE", "/rest/v1/departamentos", {
      status: 409,
      body: pgError(
        "23503",
        'update or delete on table "departamentos" violates foreign key constraint "gastos_departamento_id_fkey" on table "gastos"',
        `Key (id)=(${ID}) is still referenced from table "gastos".`,
      ),
    });
    expect(await rejection(store().remove("departamentos", ID, 2))).toBeInstanceOf(Referenced);
    const req = requests[0]!;
    expectUserRequest(req);
    expect(req.query).toBe(`id=eq.${ID}&version=eq.2&select=id`);
    expect(req.headers.prefer).toBe("return=representation");

    handlers = [];
    requests = [];
    on("DELETE", "/rest/v1/departamentos", { body: [{ id: ID }] });
    await store().remove("departamentos", ID);
    expect(requests.map((r) => `${r.method} ${r.query}`)).toEqual([`DELETE id=eq.${ID}&select=id`]);

    handlers = [];
    requests = [];
    on("DELETE", "/rest/v1/departamentos", { body: [] });
    on("GET", "/rest/v1/departamentos", { body: [] });
    expect(await rejection(store().remove("departamentos", ID, 2))).toBeInstanceOf(NotFound);
    expect(requests.map((r) => r.method)).toEqual(["DELETE", "GET"]);
  });

  it("rpc: POST /rpc/<función> con los argumentos como cuerpo; el valor de la función; OFCNF/OFNTF/OFPRM tipados", async () => {
    on("POST", "/rest/v1/rpc/enviar_gasto", { body: { id: ID, estado: "pendiente", version: 2, aviso: null } });
    expect(await store().rpc("enviar_gasto", { p_id: ID, p_version: 1 })).toEqual({
      id: ID,
      estado: "pendiente",
      version: 2,
      aviso: null,
    });
    const req = requests[0]!;
    expectUserRequest(req);
    expect(req.body).toEqual({ p_id: ID, p_version: 1 });
    expect(req.headers.prefer).toBeUndefined();

    for (const [code, type] of [
      ["OFCNF", Conflict],
      ["OFNTF", NotFound],
      ["OFPRM", Forbidden],
      ["OFINV", Invalid],
    ] as const) {
      handlers = [];
      on("POST", "/rest/v1/rpc/aprobar_gasto", {
        status: 400,
        body: pgError(code, `mensaje ${code}`, code === "OFINV" ? "motivo_rechazo" : ""),
      });
      const error = await rejection(store().rpc("aprobar_gasto", { p_id: ID, p_version: 2 }));
      expect(error).toBeInstanceOf(type);
      expect(error.message).toBe(`mensaje ${code}`);
    }
    await expect(store().rpc("aprobar_gasto; drop", {})).rejects.toThrow(/Identificador no válido/);
  });

  it("lo que no tiene significado tipado (500, red caída) es un Error normal, no un StoreError", async () => {
    on("GET", "/rest/v1/departamentos", { status: 500, body: pgError("XX000", "internal error") });
    const error = await rejection(store().get("departamentos", ID));
    expect(error).not.toBeInstanceOf(StoreError);
    expect(error.message).toMatch(/Supabase respondió 500 \(XX000\)/);

    const offline = supabaseStore({ url: "http://127.0.0.1:9", anonKey: ANON }, JWT);
    const network = await rejection(offline.insert("departamentos", { nombre: "x" }));
    expect(network).not.toBeInstanceOf(StoreError);
    expect(network.message).toMatch(/No se pudo contactar con Supabase/);
  });

  it("sin el JWT del usuario no hay almacén (nunca se cae a la clave pública)", () => {
    expect(() => supabaseStore({ url: base, anonKey: ANON }, "")).toThrow(/JWT del usuario/);
  });
});

// ---------------------------------------------------------------------------------------------
// Supabase Auth (GoTrue) through @supabase/ssr cookies
// ---------------------------------------------------------------------------------------------

const ORIGIN = "http://oficina.test";
const EMAIL = "eva@example.com";

function authBackend(secure = false) {
  return supabaseAuth({ url: base, anonKey: ANON, secure, siteUrl: ORIGIN });
}

function sessionBody(accessToken: string, o: { expiresIn?: number; refresh?: string } = {}) {
  const expiresIn = o.expiresIn ?? 3600;
  return {
    access_token: accessToken,
    token_type: "bearer",
    expires_in: expiresIn,
    expires_at: Math.floor(Date.now() / 1000) + expiresIn,
    refresh_token: o.refresh ?? "refresco-1",
    user: userBody(),
  };
}

function userBody() {
  return {
    id: USER_ID,
    aud: "authenticated",
    role: "authenticated",
    email: EMAIL,
    email_confirmed_at: "2026-11-01T10:00:00Z",
    app_metadata: { provider: "email" },
    user_metadata: { nombre: "Eva" },
    created_at: "2026-11-01T10:00:00Z",
  };
}

const GOTRUE = { "X-Supabase-Api-Version": "2024-01-01" };
const gotrueError = (status: number, code: string, message: string): Answer => ({
  status,
  headers: GOTRUE,
  body: { code, message },
});

/** The cookie our session lives in, as the browser would send it back. */
function cookieFrom(headers: Headers): string {
  return headers
    .getSetCookie()
    .filter((c) => !/max-age=0/i.test(c))
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** A session cookie as @supabase/ssr writes it (base64url JSON), e.g. with an expired token. */
function sessionCookie(session: object) {
  return `${AUTH_COOKIE}=base64-${Buffer.from(JSON.stringify(session)).toString("base64url")}`;
}

function signInRequest() {
  return new Request(`${ORIGIN}/login`, { method: "POST" });
}

describe("cuentas sobre Supabase Auth", () => {
  it("signIn: POST /token?grant_type=password; comprueba el perfil con el JWT del usuario; devuelve las cookies HttpOnly", async () => {
    on("POST", "/auth/v1/token", { body: sessionBody(JWT) });
    on("GET", "/rest/v1/usuarios", { body: [{ id: USER_ID, activo: true }] });

    const result = await authBackend(true).signIn(signInRequest(), "  Eva@Example.com ", "contraseña-larga-1");
    expect(result).toMatchObject({ ok: true, session: { userId: USER_ID, accessToken: JWT } });

    const [token, profile] = requests;
    expect(token!.query).toBe("grant_type=password");
    expect(token!.headers.apikey).toBe(ANON);
    expect(token!.body).toMatchObject({ email: "eva@example.com", password: "contraseña-larga-1" });
    expect(profile!.query).toBe(`select=id,activo&id=eq.${USER_ID}`);
    expectUserRequest(profile!);

    const cookies = (result as { headers: Headers }).headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(new RegExp(`^${AUTH_COOKIE}=base64-`));
    expect(cookies[0]).toMatch(/; HttpOnly/i);
    expect(cookies[0]).toMatch(/; SameSite=Lax/i);
    expect(cookies[0]).toMatch(/; Secure/i);
    expect(cookies[0]).toMatch(/; Path=\//i);
    expect((result as { headers: Headers }).headers.get("Cache-Control")).toMatch(/no-store/);
  });

  it("signIn: credenciales, correo sin confirmar y perfil inactivo (la sesión recién abierta se cierra y no sale ninguna cookie)", async () => {
    on("POST", "/auth/v1/token", gotrueError(400, "invalid_credentials", "Invalid login credentials"));
    expect(await authBackend().signIn(signInRequest(), EMAIL, "mala")).toEqual({ ok: false, reason: "credentials" });

    handlers = [];
    on("POST", "/auth/v1/token", gotrueError(400, "email_not_confirmed", "Email not confirmed"));
    expect(await authBackend().signIn(signInRequest(), EMAIL, "buena")).toEqual({ ok: false, reason: "unconfirmed" });

    handlers = [];
    requests = [];
    on("POST", "/auth/v1/token", { body: sessionBody(JWT) });
    on("GET", "/rest/v1/usuarios", { body: [] }); // RLS: an inactive profile sees no rows, not even its own
    on("POST", "/auth/v1/logout", { status: 204 });
    expect(await authBackend().signIn(signInRequest(), EMAIL, "buena")).toEqual({ ok: false, reason: "inactive" });
    const logout = requests.find((r) => r.path === "/auth/v1/logout")!;
    expect(logout.query).toBe("scope=local");
    expect(logout.headers.authorization).toBe(`Bearer ${JWT}`);
  });

  it("signIn: Supabase Auth caído (503) es un error, no «contraseña incorrecta»", async () => {
    on("POST", "/auth/v1/token", { status: 503, body: { message: "unavailable" } });
    await expect(authBackend().signIn(signInRequest(), EMAIL, "x")).rejects.toThrow(/Supabase Auth no responde/);
  });

  it("getSession: GET /user con el token de la cookie → {userId, accessToken}; sin cookie, ninguna petición", async () => {
    expect(await authBackend().getSession(new Request(ORIGIN))).toMatchObject({ session: null });
    expect(requests).toEqual([]);

    on("GET", "/auth/v1/user", { body: userBody() });
    const request = new Request(ORIGIN, { headers: { Cookie: `otra=1; ${sessionCookie(sessionBody(JWT))}` } });
    const { session, headers } = await authBackend().getSession(request);
    expect(session).toEqual({ userId: USER_ID, accessToken: JWT });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /auth/v1/user"]);
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${JWT}`);
    expect(headers.getSetCookie()).toEqual([]);
  });

  it("getSession con el token caducado: lo renueva (refresh_token), valida el nuevo y lo devuelve en Set-Cookie", async () => {
    const fresh = jwt({ sub: USER_ID, role: "authenticated", n: 2 });
    on("POST", "/auth/v1/token", (req) =>
      req.query === "grant_type=refresh_token"
        ? { body: sessionBody(fresh, { refresh: "refresco-2" }) }
        : { status: 400, body: {} },
    );
    on("GET", "/auth/v1/user", { body: userBody() });
    const expired = { ...sessionBody(JWT), expires_at: Math.floor(Date.now() / 1000) - 60 };
    const { session, headers } = await authBackend().getSession(
      new Request(ORIGIN, { headers: { Cookie: sessionCookie(expired) } }),
    );

    expect(session).toEqual({ userId: USER_ID, accessToken: fresh });
    const [refresh, user] = requests;
    expect(refresh!.body).toEqual({ refresh_token: "refresco-1" });
    expect(user!.headers.authorization).toBe(`Bearer ${fresh}`);
    const cookie = headers.getSetCookie();
    expect(cookie).toHaveLength(1);
    expect(cookie[0]).toMatch(/; HttpOnly/i);
    const stored = JSON.parse(
      Buffer.from(
        cookie[0]!
          .split(";")[0]!
          .split("=")[1]!
          .replace(/^base64-/, ""),
        "base64url",
      ).toString(),
    );
    expect(stored).toMatchObject({ access_token: fresh, refresh_token: "refresco-2" });
  });

  it("getSession con una sesión revocada (403 session_not_found) o un JWT inválido: sin sesión y las cookies se borran", async () => {
    for (const answer of [
      gotrueError(403, "session_not_found", "Session from session_id claim in JWT does not exist"),
      gotrueError(401, "bad_jwt", "invalid JWT"),
    ]) {
      handlers = [];
      on("GET", "/auth/v1/user", answer);
      const { session, headers } = await authBackend().getSession(
        new Request(ORIGIN, { headers: { Cookie: sessionCookie(sessionBody(JWT)) } }),
      );
      expect(session).toBeNull();
      const cleared = headers.getSetCookie().filter((c) => c.startsWith(`${AUTH_COOKIE}=;`));
      // Once, although the library writes the removal on each auth event.
      expect(cleared).toHaveLength(1);
      expect(cleared[0]).toMatch(/max-age=0/i);
    }
  });

  it("signUp: POST /signup con redirect_to a /auth/confirm y el nombre en los metadatos; el mismo resultado si Supabase lo rechaza", async () => {
    on("POST", "/auth/v1/signup", { body: { ...userBody(), email_confirmed_at: null, identities: [] } });
    await authBackend().signUp(new Request(`${ORIGIN}/login`, { method: "POST" }), {
      nombre: "Eva",
      email: " EVA@example.com",
      password: "contraseña-larga-1",
    });
    const req = requests[0]!;
    expect(req.params.get("redirect_to")).toBe(`${ORIGIN}/auth/confirm`);
    expect(req.headers.apikey).toBe(ANON);
    expect(req.body).toMatchObject({
      email: "eva@example.com",
      password: "contraseña-larga-1",
      data: { nombre: "Eva" },
    });

    handlers = [];
    on("POST", "/auth/v1/signup", gotrueError(422, "weak_password", "Password should contain…"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await expect(
      authBackend().signUp(new Request(`${ORIGIN}/login`), { nombre: "Eva", email: EMAIL, password: "x".repeat(12) }),
    ).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("weak_password"));
    warn.mockRestore();

    const withSite = supabaseAuth({ url: base, anonKey: ANON, secure: true, siteUrl: "https://oficina.empresa.es" });
    handlers = [];
    requests = [];
    on("POST", "/auth/v1/signup", { body: userBody() });
    await withSite.signUp(new Request("http://10.0.0.5:3000/login"), {
      nombre: "Eva",
      email: EMAIL,
      password: "x".repeat(12),
    });
    expect(requests[0]!.params.get("redirect_to")).toBe("https://oficina.empresa.es/auth/confirm");
  });

  it("resendConfirmation: POST /resend {type: signup, email} con redirect_to", async () => {
    on("POST", "/auth/v1/resend", { body: {} });
    await authBackend().resendConfirmation(new Request(`${ORIGIN}/signup-confirmation`), "Eva@example.com");
    expect(requests[0]!.body).toMatchObject({ type: "signup", email: "eva@example.com" });
    expect(requests[0]!.params.get("redirect_to")).toBe(`${ORIGIN}/auth/confirm`);
  });

  it("confirm: POST /verify {token_hash, type}; abre la sesión (Set-Cookie); enlace caducado → ok:false; tipo desconocido → sin petición", async () => {
    on("POST", "/auth/v1/verify", { body: sessionBody(JWT) });
    on("GET", "/rest/v1/usuarios", { body: [{ id: USER_ID, activo: true }] });
    const ok = await authBackend().confirm(
      new Request(`${ORIGIN}/auth/confirm`, { method: "POST" }),
      "pkce_abc123",
      "email",
    );
    expect(ok.ok).toBe(true);
    expect(requests[0]!.body).toMatchObject({ token_hash: "pkce_abc123", type: "email" });
    expect((ok as { headers: Headers }).headers.getSetCookie()[0]).toMatch(
      new RegExp(`^${AUTH_COOKIE}=base64-.*HttpOnly`, "i"),
    );

    handlers = [];
    on("POST", "/auth/v1/verify", gotrueError(403, "otp_expired", "Email link is invalid or has expired"));
    expect(await authBackend().confirm(new Request(`${ORIGIN}/auth/confirm`), "viejo", "email")).toEqual({
      ok: false,
      reason: "caducado",
    });

    requests = [];
    expect(await authBackend().confirm(new Request(`${ORIGIN}/auth/confirm`), "x", "recovery")).toEqual({
      ok: false,
      reason: "no_valido",
    });
    expect(requests).toEqual([]);
  });

  it("sendToken recuperar: POST /recover con redirect_to desde APP_URL aunque el Host sea otro; la misma respuesta si GoTrue lo rechaza; invitación: error claro", async () => {
    on("POST", "/auth/v1/recover", { body: {} });
    await authBackend().sendToken("recuperar", " Eva@Example.com ");
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /auth/v1/recover"]);
    expect(requests[0]!.body).toMatchObject({ email: "eva@example.com" });
    expect(requests[0]!.params.get("redirect_to")).toBe(`${ORIGIN}/auth/recuperar`);
    expect(JSON.stringify(requests[0])).not.toContain("evil.example");

    handlers = [];
    on("POST", "/auth/v1/recover", gotrueError(429, "over_email_send_rate_limit", "For security purposes…"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await expect(authBackend().sendToken("recuperar", EMAIL)).resolves.toBeUndefined();
    warn.mockRestore();
    await expect(authBackend().sendToken("invitacion", EMAIL)).rejects.toThrow(/service-role/);
    expect(await authBackend().checkToken("x", "recuperar")).toBeNull();
  });

  it("setPasswordWithToken recuperar: POST /verify {type: recovery, token_hash}, PUT /user {password}, POST /logout?scope=others; abre la sesión", async () => {
    on("POST", "/auth/v1/verify", { body: sessionBody(JWT) });
    on("PUT", "/auth/v1/user", { body: userBody() });
    on("POST", "/auth/v1/logout", { status: 204 });
    on("GET", "/rest/v1/usuarios", { body: [{ id: USER_ID, activo: true }] });
    const result = await authBackend().setPasswordWithToken(
      new Request("http://evil.example/auth/recuperar", { method: "POST" }),
      "hash_de_recuperacion",
      "recuperar",
      "una contraseña nueva",
    );
    expect(result).toMatchObject({ ok: true, email: EMAIL });
    expect(requests.map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ""}`)).toEqual([
      "POST /auth/v1/verify",
      "PUT /auth/v1/user",
      "POST /auth/v1/logout?scope=others",
      `GET /rest/v1/usuarios?select=id,activo&id=eq.${USER_ID}`,
    ]);
    expect(requests[0]!.body).toMatchObject({ token_hash: "hash_de_recuperacion", type: "recovery" });
    expect(requests[1]!.body).toMatchObject({ password: "una contraseña nueva" });
    expect(requests[1]!.headers.authorization).toBe(`Bearer ${JWT}`);
    expect(requests[2]!.headers.authorization).toBe(`Bearer ${JWT}`);
    expect((result as { headers: Headers }).headers.getSetCookie()[0]).toMatch(
      new RegExp(`^${AUTH_COOKIE}=base64-.*HttpOnly`, "i"),
    );

    handlers = [];
    requests = [];
    on("POST", "/auth/v1/verify", gotrueError(403, "otp_expired", "Email link is invalid or has expired"));
    expect(
      await authBackend().setPasswordWithToken(
        new Request(`${ORIGIN}/auth/recuperar`),
        "viejo",
        "recuperar",
        "una contraseña nueva",
      ),
    ).toEqual({ ok: false, reason: "caducado" });
    expect(requests.map((r) => r.path)).toEqual(["/auth/v1/verify"]);
  });

  it("changePassword: GET /user, reautentica con POST /token (contraseña actual), PUT /user, POST /logout?scope=others; la actual mal → sin cambios", async () => {
    const cookie = sessionCookie(sessionBody(JWT));
    const fresh = jwt({ sub: USER_ID, role: "authenticated", n: 3 });
    on("GET", "/auth/v1/user", { body: userBody() });
    on("POST", "/auth/v1/token", (req) =>
      (req.body as { password?: string }).password === "la actual de eva"
        ? { body: sessionBody(fresh, { refresh: "refresco-3" }) }
        : gotrueError(400, "invalid_credentials", "Invalid login credentials"),
    );
    on("PUT", "/auth/v1/user", { body: userBody() });
    on("POST", "/auth/v1/logout", { status: 204 });

    expect(
      await authBackend().changePassword(
        new Request(`${ORIGIN}/usuarios/${USER_ID}`, { method: "POST", headers: { Cookie: cookie } }),
        "otra",
        "una contraseña nueva",
      ),
    ).toEqual({ ok: false, reason: "credentials" });
    expect(requests.some((r) => r.method === "PUT")).toBe(false);

    requests = [];
    const ok = await authBackend().changePassword(
      new Request(`${ORIGIN}/usuarios/${USER_ID}`, { method: "POST", headers: { Cookie: cookie } }),
      "la actual de eva",
      "una contraseña nueva",
    );
    expect(ok.ok).toBe(true);
    expect(requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual([
      "GET /auth/v1/user?",
      "POST /auth/v1/token?grant_type=password",
      "PUT /auth/v1/user?",
      "POST /auth/v1/logout?scope=others",
    ]);
    expect(requests[1]!.body).toMatchObject({ email: EMAIL, password: "la actual de eva" });
    expect(requests[2]!.body).toMatchObject({ password: "una contraseña nueva" });
    // This browser continues on the re-authenticated session; the others' refresh tokens are revoked.
    expect(requests[3]!.headers.authorization).toBe(`Bearer ${fresh}`);
    expect(cookieFrom((ok as { headers: Headers }).headers)).toContain(AUTH_COOKIE);
  });

  it("signOut: POST /logout?scope=local con el JWT de la sesión y las cookies borradas", async () => {
    on("POST", "/auth/v1/logout", { status: 204 });
    const headers = await authBackend().signOut(
      new Request(`${ORIGIN}/logout`, { method: "POST", headers: { Cookie: sessionCookie(sessionBody(JWT)) } }),
    );
    expect(requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual(["POST /auth/v1/logout?scope=local"]);
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${JWT}`);
    const cookies = headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    expect(cookies.every((c) => c.startsWith(`${AUTH_COOKIE}=;`) && /max-age=0/i.test(c))).toBe(true);
  });

  it("signOut con Supabase Auth caído: las cookies se borran igualmente", async () => {
    on("POST", "/auth/v1/logout", { status: 502, body: {} });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const headers = await authBackend().signOut(
      new Request(`${ORIGIN}/logout`, { method: "POST", headers: { Cookie: sessionCookie(sessionBody(JWT)) } }),
    );
    warn.mockRestore();
    expect(headers.getSetCookie().some((c) => c.startsWith(`${AUTH_COOKIE}=;`) && /max-age=0/i.test(c))).toBe(true);
  });

  it("endSessionsOf: con el último JWT visto de ese usuario, POST /logout?scope=global; de un usuario no visto, ninguna petición", async () => {
    const auth = authBackend();
    on("GET", "/auth/v1/user", { body: userBody() });
    on("POST", "/auth/v1/logout", { status: 204 });
    await auth.getSession(new Request(ORIGIN, { headers: { Cookie: sessionCookie(sessionBody(JWT)) } }));
    requests = [];
    await auth.endSessionsOf(USER_ID);
    expect(requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual(["POST /auth/v1/logout?scope=global"]);
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${JWT}`);
    expect(requests[0]!.headers.apikey).toBe(ANON);

    requests = [];
    await auth.endSessionsOf(USER_ID); // already used
    await auth.endSessionsOf("33333333-3333-4333-8333-333333333333");
    expect(requests).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Invitations with the service-role key (ADR 0007, 0013)
// ---------------------------------------------------------------------------------------------

const SERVICE = "clave-de-servicio-secreta";
const INVITED = "44444444-4444-4444-8444-444444444444";

/** The service-role key as GoTrue's admin endpoints expect it, and only there. */
function expectAdminRequest(req: Recorded) {
  expect(req.path === "/auth/v1/invite" || req.path.startsWith("/auth/v1/admin/")).toBe(true);
  expect(req.headers.apikey).toBe(SERVICE);
  expect(req.headers.authorization).toBe(`Bearer ${SERVICE}`);
}

/** Everything else: never the service-role key. */
function expectNoServiceKey(req: Recorded) {
  expect(JSON.stringify(req.headers)).not.toContain(SERVICE);
  expect(JSON.stringify(req.body ?? "")).not.toContain(SERVICE);
}

const invitedUser = (o: object = {}) => ({
  ...userBody(),
  id: INVITED,
  email: "lucia@example.com",
  email_confirmed_at: null,
  ...o,
});

describe("invitaciones sobre Supabase (con la clave de servicio)", () => {
  const services = () =>
    supabaseServices(
      loadEnv({
        NODE_ENV: "test",
        APP_URL: ORIGIN,
        SUPABASE_URL: base,
        SUPABASE_ANON_KEY: ANON,
        SUPABASE_SERVICE_ROLE_KEY: SERVICE,
      }),
    );
  const invitations = () => services().invitations!(supabaseStore({ url: base, anonKey: ANON }, JWT));
  const choice = {
    nombre: "Lucía",
    apellidos: "Pérez",
    email: " Lucia@Example.com",
    rol: "aprobador" as const,
    departamento_id: ID,
    sucursal_id: null,
    aprobador_id: USER_ID,
  };
  const invitarBody = {
    p_email: "lucia@example.com",
    p_nombre: "Lucía",
    p_apellidos: "Pérez",
    p_rol: "aprobador",
    p_departamento_id: ID,
    p_sucursal_id: null,
    p_aprobador_id: USER_ID,
  };

  it("sin la clave de servicio no hay invitaciones (la pantalla lo explica) y sendToken('invitacion') lo dice", async () => {
    const without = supabaseServices(loadEnv({ NODE_ENV: "test", SUPABASE_URL: base, SUPABASE_ANON_KEY: ANON }));
    expect(without.invitations).toBeUndefined();
    await expect(without.auth.sendToken("invitacion", EMAIL)).rejects.toThrow(/service-role/);
    expect(requests).toEqual([]);
  });

  it("invitar: ¿ocupado? por rpc con el JWT del administrador; la cuenta sin confirmar con POST /admin/users (clave de servicio, sin correo); el perfil con rpc invitar (JWT del administrador); después sendToken envía POST /invite", async () => {
    on("POST", "/rest/v1/rpc/invitacion_estado", { body: null });
    on("POST", "/auth/v1/admin/users", { body: invitedUser() });
    on("POST", "/rest/v1/rpc/invitar", { body: { id: INVITED } });
    on("POST", "/auth/v1/invite", { body: invitedUser({ invited_at: "2026-11-24T10:00:00Z" }) });

    expect(await invitations().create(USER_ID, choice)).toEqual({ ok: true, id: INVITED });
    await services().auth.sendToken("invitacion", choice.email);

    expect(requests.map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ""}`)).toEqual([
      "POST /rest/v1/rpc/invitacion_estado",
      "POST /auth/v1/admin/users",
      "POST /rest/v1/rpc/invitar",
      `POST /auth/v1/invite?redirect_to=${ORIGIN}/auth/invitacion`,
    ]);
    const [estado, cuenta, invitar, invite] = requests;
    expectUserRequest(estado!);
    expect(estado!.body).toEqual({ p_email: "lucia@example.com" });
    expectAdminRequest(cuenta!);
    expect(cuenta!.body).toEqual({
      email: "lucia@example.com",
      email_confirm: false,
      user_metadata: { nombre: "Lucía" },
    });
    expectUserRequest(invitar!);
    expect(invitar!.body).toEqual(invitarBody);
    expectAdminRequest(invite!);
    expect(invite!.body).toMatchObject({ email: "lucia@example.com" });
    for (const r of [estado!, invitar!]) expectNoServiceKey(r);
  });

  it("invitar: correo con cuenta o con invitación pendiente → el motivo, sin crear nada; un alta sin confirmar de ese correo (email_exists) se reutiliza", async () => {
    for (const reason of ["cuenta", "pendiente"] as const) {
      handlers = [];
      requests = [];
      // A function returning text: PostgREST answers a JSON string.
      on("POST", "/rest/v1/rpc/invitacion_estado", { body: JSON.stringify(reason) });
      expect(await invitations().create(USER_ID, choice)).toEqual({ ok: false, reason });
      expect(requests.map((r) => r.path)).toEqual(["/rest/v1/rpc/invitacion_estado"]);
    }

    handlers = [];
    requests = [];
    on("POST", "/rest/v1/rpc/invitacion_estado", { body: null });
    on(
      "POST",
      "/auth/v1/admin/users",
      gotrueError(422, "email_exists", "A user with this email address has already been registered"),
    );
    on("POST", "/rest/v1/rpc/invitar", { body: { id: INVITED } });
    expect(await invitations().create(USER_ID, choice)).toEqual({ ok: true, id: INVITED });
    expect(requests.map((r) => r.path)).toEqual([
      "/rest/v1/rpc/invitacion_estado",
      "/auth/v1/admin/users",
      "/rest/v1/rpc/invitar",
    ]);
  });

  it("invitar: si la base de datos rechaza la elección (OFINV, OFPRM) o otro administrador ganó, la cuenta recién creada se borra (DELETE /admin/users/<id>) y el error llega tipado", async () => {
    for (const [code, type] of [
      ["OFINV", Invalid],
      ["OFPRM", Forbidden],
    ] as const) {
      handlers = [];
      requests = [];
      on("POST", "/rest/v1/rpc/invitacion_estado", { body: null });
      on("POST", "/auth/v1/admin/users", { body: invitedUser() });
      on("POST", "/rest/v1/rpc/invitar", { status: 400, body: pgError(code, `mensaje ${code}`, "aprobador_id") });
      on("DELETE", `/auth/v1/admin/users/${INVITED}`, { body: {} });
      const error = await rejection(invitations().create(USER_ID, choice));
      expect(error).toBeInstanceOf(type);
      expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        "POST /rest/v1/rpc/invitacion_estado",
        "POST /auth/v1/admin/users",
        "POST /rest/v1/rpc/invitar",
        `DELETE /auth/v1/admin/users/${INVITED}`,
      ]);
      expectAdminRequest(requests[3]!);
    }

    handlers = [];
    requests = [];
    on("POST", "/rest/v1/rpc/invitacion_estado", { body: null });
    on("POST", "/auth/v1/admin/users", { body: invitedUser() });
    on("POST", "/rest/v1/rpc/invitar", { body: { ocupado: "pendiente" } });
    on("DELETE", `/auth/v1/admin/users/${INVITED}`, { body: {} });
    expect(await invitations().create(USER_ID, choice)).toEqual({ ok: false, reason: "pendiente" });
    expect(requests.at(-1)!.method).toBe("DELETE");
  });

  it("pendientes, una pendiente y «enviada»: rpc con el JWT del administrador; caduca_en desde el último envío", async () => {
    const recent = new Date(Date.now() - 3_600_000).toISOString();
    const old = new Date(Date.now() - 30 * 3_600_000).toISOString();
    const row = (id: string, enviada_en: string) => ({
      id,
      email: "lucia@example.com",
      nombre_completo: "Lucía Pérez",
      rol: "aprobador",
      departamento_nombre: "Ventas",
      sucursal_nombre: null,
      invitada_por_nombre: "Eva",
      enviada_en,
    });
    on("POST", "/rest/v1/rpc/invitaciones_pendientes", (req) =>
      (req.body as { p_id?: string }).p_id
        ? { body: [row(INVITED, recent)] }
        : { body: [row(INVITED, recent), row(ID, old)] },
    );
    on("POST", "/rest/v1/rpc/invitacion_enviada", { status: 204 });

    const list = await invitations().pending();
    expect(list[0]).toMatchObject({
      id: INVITED,
      caduca_en: new Date(Date.parse(recent) + 24 * 3_600_000).toISOString(),
    });
    expect(list[1]).toMatchObject({ id: ID, caduca_en: null });
    expect(await invitations().get(INVITED)).toEqual({ id: INVITED, email: "lucia@example.com" });
    expect(await invitations().get("no-es-un-id")).toBeNull();
    await invitations().sent(INVITED);

    expect(requests.map((r) => [r.path, r.body])).toEqual([
      ["/rest/v1/rpc/invitaciones_pendientes", { p_limite: 200 }],
      ["/rest/v1/rpc/invitaciones_pendientes", { p_limite: 1, p_id: INVITED }],
      ["/rest/v1/rpc/invitacion_enviada", { p_id: INVITED }],
    ]);
    for (const r of requests) expectUserRequest(r);
  });

  it("la pantalla dice lo que dura el enlace de Supabase (24 horas), no los 7 días de los enlaces locales", async () => {
    expect(invitations().linkHours).toBe(24);
    expect([linkLife(24), linkLife(7 * 24), linkLife(1)]).toEqual(["24 horas", "7 días", "1 hora"]);
    // /usuarios as the signed-in administrador, over the fake PostgREST: every list empty.
    on("POST", "/rest/v1/rpc/invitaciones_pendientes", { body: [] });
    handlers.push((req) =>
      req.method === "GET" ? { status: 200, headers: { "Content-Range": "*/0" }, body: [] } : undefined,
    );
    const admin = {
      id: USER_ID,
      nombre: "Eva",
      apellidos: null,
      email: EMAIL,
      rol: "administrador" as const,
      departamento_id: null,
      sucursal_id: null,
      aprobador_id: null,
      activo: true,
    };
    const { data } = await usuariosRoute.loader({
      request: new Request(`${ORIGIN}/usuarios`),
      params: {},
      context: {
        services: services(),
        cspNonce: "",
        clientIp: "127.0.0.1",
        appendCookie: () => {},
        signed: Promise.resolve({ user: admin, store: supabaseStore({ url: base, anonKey: ANON }, JWT) }),
      },
    });
    expect(data.invitar).toMatchObject({ disponible: true, vida: "24 horas" });
  });

  it("reenviar: POST /invite otra vez (Supabase Auth manda un enlace nuevo); ya confirmada (email_exists) → nada; otra negativa → error, no silencio", async () => {
    on("POST", "/auth/v1/invite", { body: invitedUser() });
    await services().auth.sendToken("invitacion", "lucia@example.com");
    expectAdminRequest(requests[0]!);

    handlers = [];
    on(
      "POST",
      "/auth/v1/invite",
      gotrueError(422, "email_exists", "A user with this email address has already been registered"),
    );
    await expect(services().auth.sendToken("invitacion", "lucia@example.com")).resolves.toBeUndefined();

    handlers = [];
    on("POST", "/auth/v1/invite", gotrueError(429, "over_email_send_rate_limit", "Email rate limit exceeded"));
    await expect(services().auth.sendToken("invitacion", "lucia@example.com")).rejects.toThrow(
      /no envió la invitación: over_email_send_rate_limit/,
    );
  });

  it("cancelar: rpc cancelar_invitacion con el JWT del administrador; «eliminar» → DELETE /admin/users/<id>; «desactivada» → nada más; ya no pendiente → null", async () => {
    on("POST", "/rest/v1/rpc/cancelar_invitacion", { body: { email: "lucia@example.com", resultado: "eliminar" } });
    on("DELETE", `/auth/v1/admin/users/${INVITED}`, { body: {} });
    expect(await invitations().cancel(USER_ID, INVITED)).toEqual({ email: "lucia@example.com", result: "eliminada" });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /rest/v1/rpc/cancelar_invitacion",
      `DELETE /auth/v1/admin/users/${INVITED}`,
    ]);
    expectUserRequest(requests[0]!);
    expect(requests[0]!.body).toEqual({ p_id: INVITED });
    expectAdminRequest(requests[1]!);

    handlers = [];
    requests = [];
    on("POST", "/rest/v1/rpc/cancelar_invitacion", { body: { email: "lucia@example.com", resultado: "desactivada" } });
    expect(await invitations().cancel(USER_ID, INVITED)).toEqual({ email: "lucia@example.com", result: "desactivada" });
    expect(requests.map((r) => r.path)).toEqual(["/rest/v1/rpc/cancelar_invitacion"]);

    handlers = [];
    requests = [];
    on("POST", "/rest/v1/rpc/cancelar_invitacion", { body: null });
    expect(await invitations().cancel(USER_ID, INVITED)).toBeNull();
    expect(await invitations().cancel(USER_ID, "x")).toBeNull();
    expect(requests).toHaveLength(1);

    // Supabase Auth cannot delete the account: an error, and the invitation stays pending.
    handlers = [];
    on("POST", "/rest/v1/rpc/cancelar_invitacion", { body: { email: "lucia@example.com", resultado: "eliminar" } });
    on("DELETE", `/auth/v1/admin/users/${INVITED}`, {
      status: 500,
      body: { code: "unexpected_failure", message: "Database error deleting user" },
    });
    await expect(invitations().cancel(USER_ID, INVITED)).rejects.toThrow(/no eliminó la cuenta invitada/);
  });
});

describe("supabaseServices", () => {
  const config = () =>
    loadEnv({
      NODE_ENV: "test",
      SUPABASE_URL: `${base}/`,
      SUPABASE_ANON_KEY: ANON,
      SUPABASE_SERVICE_ROLE_KEY: "clave-de-servicio-secreta",
    });

  it("ping pregunta a /auth/v1/health; storeFor usa el JWT de la sesión; la clave de servicio no sale en ninguna petición", async () => {
    on("GET", "/auth/v1/health", { body: { version: "v2", name: "GoTrue" } });
    on("GET", "/rest/v1/departamentos", { body: [{ id: ID }] });
    const services = supabaseServices(config());
    await services.ping();
    expect(requests[0]!.headers.apikey).toBe(ANON);
    await services.storeFor({ userId: USER_ID, accessToken: JWT }).get("departamentos", ID);
    expectUserRequest(requests[1]!);
    for (const r of requests) expect(JSON.stringify(r.headers)).not.toContain("clave-de-servicio-secreta");
    expect(() => services.storeFor({ userId: USER_ID })).toThrow(/JWT/);

    handlers = [];
    on("GET", "/auth/v1/health", { status: 503, body: {} });
    await expect(services.ping()).rejects.toThrow(/503/);
  });

  it("el código que llega al navegador no importa nada de Supabase ni de los adaptadores de servidor", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.(ts|tsx)$/.test(name) && !/\.server\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
          const text = readFileSync(file, "utf8");
          if (/from\s+["'](@supabase\/|[^"']*supabase\.server|[^"']*services\.supabase\.server)/.test(text))
            offenders.push(file);
          if (/SUPABASE_SERVICE_ROLE_KEY/.test(text)) offenders.push(file);
        }
      }
    };
    walk(path.resolve("app"));
    expect(offenders).toEqual([]);
  });
});

describe("avisos por correo sobre Supabase (el worker, con la clave de servicio)", () => {
  const outbox = (key: string | null = SERVICE) =>
    supabaseAvisosOutbox(
      loadEnv({
        NODE_ENV: "test",
        SUPABASE_URL: `${base}/`,
        SUPABASE_ANON_KEY: ANON,
        ...(key ? { SUPABASE_SERVICE_ROLE_KEY: key } : {}),
      }),
    );
  const delivery = (mail: (m: Mail) => Promise<void>) => ({
    outbox: outbox()!,
    mail,
    appUrl: ORIGIN,
    locale: "es-ES",
    currency: "EUR",
    timeZone: "Europe/Madrid",
  });
  const enviado: Envio = {
    mensaje_id: "5f0e4f7e-1c2b-4c1d-9a3e-0f6f1b2c3d4e",
    destinatario_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    email: "pablo@example.com",
    nombre: "Pablo",
    avisos: [
      {
        tipo: "enviado",
        gasto_id: ID,
        datos: { folio: "GAS-2026-00007", descripcion: "Taxi", importe: "45.20", solicitante: "Elena" },
      },
    ],
    pendientes: null,
    total_pendientes: null,
  };
  const resumen: Envio = {
    mensaje_id: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
    destinatario_id: "16fd2706-8baf-433b-82eb-8c7fada847da",
    email: "marta@example.com",
    nombre: "Marta",
    avisos: [],
    pendientes: [
      {
        id: ID,
        folio: "GAS-2026-00003",
        descripcion: "Hotel",
        importe: "120.00",
        solicitante: "Elena Gil",
        fecha_gasto: "2026-11-20",
      },
    ],
    total_pendientes: 1,
  };
  /** Every request of the worker: the service-role key as apikey and bearer, to /rest/v1/rpc/entrega_* only. */
  function expectWorkerRequest(req: Recorded) {
    expect(req.method).toBe("POST");
    expect(req.path).toMatch(/^\/rest\/v1\/rpc\/entrega_(programar_resumenes|reclamar|enviado|fallido)$/);
    expect(req.headers.apikey).toBe(SERVICE);
    expect(req.headers.authorization).toBe(`Bearer ${SERVICE}`);
  }

  it("sin la clave de servicio no hay worker (los avisos quedan en la aplicación) y no se pide nada", () => {
    expect(outbox(null)).toBeUndefined();
    expect(outbox("  ")).toBeUndefined();
    expect(requests).toEqual([]);
  });

  it("una pasada: programa resúmenes, reclama por rpc, manda cada envío y lo marca enviado o fallido con el error", async () => {
    const fallido: Envio = {
      ...enviado,
      mensaje_id: "7b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
      email: "rebota@example.com",
    };
    on("POST", "/rest/v1/rpc/entrega_programar_resumenes", { body: 1 });
    on("POST", "/rest/v1/rpc/entrega_reclamar", { body: [enviado, resumen, fallido] });
    on("POST", "/rest/v1/rpc/entrega_enviado", { status: 204 });
    on("POST", "/rest/v1/rpc/entrega_fallido", { status: 204 });
    const sent: Mail[] = [];
    const pass = await deliverDue(
      delivery(async (m) => {
        if (m.to === "rebota@example.com") throw new Error("550 5.1.1 Buzón desconocido");
        sent.push(m);
      }),
    );

    expect(pass).toEqual({ sent: 2, failed: 1, digests: 1 });
    for (const r of requests) expectWorkerRequest(r);
    expect(requests.map((r) => [r.path.replace("/rest/v1/rpc/", ""), r.body])).toEqual([
      ["entrega_programar_resumenes", { p_zona: "Europe/Madrid" }],
      ["entrega_reclamar", { p_personas: 50, p_plazo: "2 minutes" }],
      ["entrega_enviado", { p_mensaje_id: enviado.mensaje_id }],
      ["entrega_enviado", { p_mensaje_id: resumen.mensaje_id }],
      ["entrega_fallido", { p_mensaje_id: fallido.mensaje_id, p_error: "550 5.1.1 Buzón desconocido" }],
    ]);
    // The mails are written here from what the database sent back: nothing else is read.
    expect(sent.map((m) => [m.to, m.subject, m.messageId])).toEqual([
      ["pablo@example.com", "GAS-2026-00007 espera su aprobación", `<${enviado.mensaje_id}@oficina.test>`],
      ["marta@example.com", "Tiene 1 gasto pendiente de aprobar", `<${resumen.mensaje_id}@oficina.test>`],
    ]);
    expect(sent[0]!.text).toContain(`${ORIGIN}/gastos?gasto=${ID}`);
    expect(sent[0]!.headers?.["List-Unsubscribe"]).toBe(`<${ORIGIN}/avisos/preferencias>`);
    expect(sent[1]!.text).toContain("GAS-2026-00003");
  });

  it("si PostgREST rechaza la llamada (clave equivocada, función ausente), la pasada falla sin mandar nada", async () => {
    on("POST", "/rest/v1/rpc/entrega_programar_resumenes", { body: 0 });
    on("POST", "/rest/v1/rpc/entrega_reclamar", {
      status: 404,
      body: pgError("PGRST202", "Could not find the function public.entrega_reclamar(p_personas, p_plazo)"),
    });
    const sent: Mail[] = [];
    await expect(deliverDue(delivery(async (m) => void sent.push(m)))).rejects.toThrow(
      /entrega_reclamar: Could not find the function/,
    );
    expect(sent).toEqual([]);
    expect(requests.map((r) => r.path)).toEqual([
      "/rest/v1/rpc/entrega_programar_resumenes",
      "/rest/v1/rpc/entrega_reclamar",
    ]);

    handlers = [];
    requests = [];
    on("POST", "/rest/v1/rpc/entrega_programar_resumenes", {
      status: 401,
      body: pgError("42501", "permission denied for function entrega_programar_resumenes"),
    });
    await expect(deliverDue(delivery(async (m) => void sent.push(m)))).rejects.toThrow(/permission denied/);
    expect(requests).toHaveLength(1);
  });
});

/** A JWT-shaped token (unsigned: the fake servers never verify it, the real ones always do). */
function jwt(claims: Record<string, unknown>): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "HS256", typ: "JWT" })}.${part({ aud: "authenticated", exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}.firma`;
}

describe("justificantes en Supabase Storage (el bucket privado, como el usuario)", () => {
  const GASTO = "33333333-3333-4333-8333-333333333333";
  const bytes = Buffer.from("%PDF-1.4\n% ticket de taxi\n%%EOF\n");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const objeto = `/storage/v1/object/justificantes/${GASTO}/${sha256}`;
  let staging: string;
  beforeAll(() => {
    staging = mkdtempSync(path.join(tmpdir(), "oficina-staging-"));
  });
  afterAll(() => rmSync(staging, { recursive: true, force: true }));
  const almacen = () => {
    const services = supabaseServices(
      loadEnv({ NODE_ENV: "test", SUPABASE_URL: base, SUPABASE_ANON_KEY: ANON, DATA_DIR: staging }),
    );
    return services.almacenFor!(services.storeFor({ userId: USER_ID, accessToken: JWT }));
  };
  const texto = async (r: Readable | null) => {
    const chunks: Buffer[] = [];
    for await (const c of r!) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };

  it("sube a <gasto>/<sha256> con el JWT del usuario, el tipo y la longitud; el mismo contenido ya subido vale", async () => {
    on("POST", objeto, { body: { Key: `justificantes/${GASTO}/${sha256}` } });
    expect(await almacen().put(Readable.from([bytes]), { gasto: GASTO, tipo: "application/pdf" })).toEqual({
      sha256,
      bytes: bytes.length,
    });
    const [r] = requests;
    expectUserRequest(r!);
    expect(r!.headers["content-type"]).toBe("application/pdf");
    expect(r!.headers["content-length"]).toBe(String(bytes.length));
    expect(r!.headers["x-upsert"]).toBe("false");
    expect(r!.raw.equals(bytes)).toBe(true);

    // Storage's two ways of saying "already there" (older: 400 with statusCode "409").
    handlers = [];
    on("POST", objeto, {
      status: 400,
      body: { statusCode: "409", error: "Duplicate", message: "The resource already exists" },
    });
    expect((await almacen().put(Readable.from([bytes]), { gasto: GASTO, tipo: "application/pdf" })).sha256).toBe(
      sha256,
    );
    handlers = [];
    on("POST", objeto, { status: 409, body: { statusCode: "409", error: "Duplicate" } });
    expect((await almacen().put(Readable.from([bytes]), { gasto: GASTO, tipo: "application/pdf" })).sha256).toBe(
      sha256,
    );
    expect(readdirSync(path.join(staging, "justificantes", "tmp"))).toEqual([]); // the staged copy is gone
  });

  it("rechaza lo que pasa del límite sin subir nada, y dice qué respondió Storage a una política que lo impide", async () => {
    await expect(
      almacen().put(Readable.from([bytes]), { gasto: GASTO, tipo: "application/pdf", maxBytes: 10 }),
    ).rejects.toThrow(/más de 10 bytes/);
    expect(requests).toEqual([]);
    on("POST", objeto, {
      status: 400,
      body: { statusCode: "403", error: "Unauthorized", message: "new row violates row-level security policy" },
    });
    await expect(almacen().put(Readable.from([bytes]), { gasto: GASTO, tipo: "application/pdf" })).rejects.toThrow(
      /Supabase Storage respondió 400 al guardar un justificante: new row violates row-level security policy/,
    );
    await expect(almacen().put(Readable.from([bytes]), { gasto: "../otro", tipo: "application/pdf" })).rejects.toThrow(
      /no válido/,
    );
  });

  it("lee por la ruta autenticada (nunca una URL firmada ni pública) y trae los bytes; lo que no está o no se ve es null", async () => {
    on("GET", `/storage/v1/object/authenticated/justificantes/${GASTO}/${sha256}`, {
      headers: { "Content-Type": "application/pdf" },
      body: bytes,
    });
    expect((await texto(await almacen().get(sha256, { gasto: GASTO }))).equals(bytes)).toBe(true);
    expectUserRequest(requests[0]!);
    const otro = "e".repeat(64);
    on("GET", `/storage/v1/object/authenticated/justificantes/${GASTO}/${otro}`, {
      status: 400,
      body: { statusCode: "404", error: "not_found", message: "Object not found" },
    });
    expect(await almacen().get(otro, { gasto: GASTO })).toBeNull();
    const roto = "d".repeat(64);
    on("GET", `/storage/v1/object/authenticated/justificantes/${GASTO}/${roto}`, { status: 500, body: {} });
    await expect(almacen().get(roto, { gasto: GASTO })).rejects.toThrow(/500 al leer/);
    for (const r of requests) expect(r.path).not.toMatch(/\/sign\/|\/public\//);
  });

  it("quita con la lista de nombres, como el usuario", async () => {
    on("DELETE", "/storage/v1/object/justificantes", { body: [] });
    await almacen().remove(sha256, { gasto: GASTO });
    expectUserRequest(requests[0]!);
    expect(requests[0]!.body).toEqual({ prefixes: [`${GASTO}/${sha256}`] });
  });
});
