import { randomUUID } from "node:crypto";
import { hashPassword } from "~/auth/password.server";
import { LINK_LIMIT, LIMITS } from "~/auth/throttle.server";
import { generateValidCif } from "~/lib/nif";
import {
  Browser,
  formBody,
  httpRequest,
  median,
  withOwner,
  type HttpResponse,
  type ServerProcess,
  serverCpuOf,
} from "../support/server-process";
import { disposeServer, startOnEmptyDataDir } from "../support/server-suite";
import { createOrganisation, figure, gastoForm, gastoIdOf, PASSWORD, textOf, workDir } from "./support";

/**
 * Hostile input, part 2, against a real server process (production mode): cross-site posts
 * (CSRF), `redirectTo`/`volver` that try to leave the site, HTML/JS stored in every text field
 * and CSV cells that start a formula, sessions (fixation, sign-out, deactivation, expiry,
 * tampering, cookie flags), and sign-in brute force (same answer, similar time, lock).
 */
const dataDir = workDir("hostil");
let server: ServerProcess;
let org: Awaited<ReturnType<typeof createOrganisation>>;
let origin: string;
let ipSeq = 0;
/** A different client address per sign-in (TRUST_PROXY=loopback): each test gets its own throttles. */
const nextIp = () => `10.${(++ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;

beforeAll(async () => {
  // https APP_URL: Secure cookies and HSTS; its host (any port) is answered, like the loopback one.
  server = await startOnEmptyDataDir({
    dataDir,
    nodeEnv: "production",
    env: { TRUST_PROXY: "loopback", APP_URL: "https://app.oficina.test" },
  });
  origin = new URL(server.url).origin;
  org = await withOwner(dataDir, (c) =>
    createOrganisation(c, [
      { key: "admin", rol: "administrador" },
      { key: "aprobador", rol: "aprobador" },
      { key: "elena", rol: "empleado", aprobador: "aprobador" },
      { key: "bruno", rol: "empleado" },
      { key: "carla", rol: "empleado" },
      ...Array.from({ length: 10 }, (_, i) => ({ key: `persona${i}`, rol: "empleado" as const })),
      ...Array.from({ length: 12 }, (_, i) => ({ key: `clave${i}`, rol: "empleado" as const })),
    ]),
  );
});

afterAll(() => disposeServer(server, dataDir));

async function signedIn(key: string) {
  const b = new Browser(server.url, { "X-Forwarded-For": nextIp() });
  await b.signIn(org.accounts[key]!.email, PASSWORD);
  return b;
}

/** Every table (and the sessions) hashed as the owner: «nothing written». */
async function snapshot() {
  return withOwner(dataDir, async (c) => {
    const tables = [
      "departamentos",
      "sucursales",
      "proveedores",
      "usuarios",
      "gastos",
      "historial",
      "auth.users",
      "auth.local_sessions",
      "auth.local_tokens",
    ];
    const out: Record<string, string> = {};
    for (const t of tables)
      out[t] = (
        await c.query(`select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${t} x`)
      ).rows[0].h;
    return out;
  });
}
const changed = (a: Record<string, string>, b: Record<string, string>) => Object.keys(a).filter((k) => a[k] !== b[k]);

// ---------------------------------------------------------------------------------------------

describe("CSRF: un POST que no viene de Oficina", () => {
  it("cada acción × cada forma de origen ajeno: 403 y nada escrito; el mismo envío desde Oficina pasa", async () => {
    const admin = await signedIn("admin");
    const elena = await signedIn("elena");
    const ids = await withOwner(dataDir, async (c) => {
      const dep = (
        await c.query(
          "insert into departamentos (nombre, codigo) values ('Objetivo CSRF', 'CSRF') returning id, version",
        )
      ).rows[0];
      const suc = (
        await c.query(
          "insert into sucursales (nombre, codigo, direccion, ciudad) values ('Objetivo CSRF', 'CSRF', 'C/ 1', 'Lugo') returning id, version",
        )
      ).rows[0];
      const prov = (
        await c.query(
          "insert into proveedores (razon_social, tipo_persona, pais, nif, categoria) values ('Objetivo CSRF SL', 'empresa', 'ES', $1, 'otros') returning id, version",
          [generateValidCif(4242)],
        )
      ).rows[0];
      return { dep, suc, prov };
    });
    const g = gastoIdOf((await elena.post("/gastos?index", gastoForm({ descripcion: "Objetivo CSRF" }))).location)!;
    const elenaId = org.accounts.elena!.id;

    // Each target with a form that would write if it got through.
    const targets: { name: string; path: string; who: Browser; form: Record<string, string> }[] = [
      {
        name: "crear departamento",
        path: "/departamentos?index",
        who: admin,
        form: { intent: "crear", nombre: "CSRF nuevo", codigo: "CSRFN", activo: "on", _envio: randomUUID() },
      },
      {
        name: "guardar departamento",
        path: `/departamentos/${ids.dep.id}`,
        who: admin,
        form: { intent: "guardar", version: String(ids.dep.version), nombre: "Cambiado", codigo: "CSRF", activo: "on" },
      },
      {
        name: "eliminar departamento",
        path: `/departamentos/${ids.dep.id}`,
        who: admin,
        form: { intent: "eliminar", version: String(ids.dep.version) },
      },
      {
        name: "eliminar sucursal",
        path: `/sucursales/${ids.suc.id}`,
        who: admin,
        form: { intent: "eliminar", version: String(ids.suc.version) },
      },
      {
        name: "eliminar proveedor",
        path: `/proveedores/${ids.prov.id}`,
        who: admin,
        form: { intent: "eliminar", version: String(ids.prov.version) },
      },
      {
        name: "hacer administradora a Elena",
        path: `/usuarios/${elenaId}`,
        who: admin,
        form: { intent: "guardar", version: "1", nombre: "elena", rol: "administrador", activo: "on" },
      },
      { name: "crear gasto", path: "/gastos?index", who: elena, form: gastoForm({ descripcion: "CSRF gasto" }) },
      { name: "enviar gasto", path: `/gastos?gasto=${g}`, who: elena, form: { intent: "enviar", id: g, version: "1" } },
      {
        name: "eliminar gasto",
        path: `/gastos?gasto=${g}`,
        who: elena,
        form: { intent: "eliminar", id: g, version: "1" },
      },
      { name: "cerrar sesión", path: "/logout", who: elena, form: {} },
      {
        name: "iniciar sesión (login CSRF)",
        path: "/login",
        who: new Browser(server.url),
        form: { intent: "iniciar", email: org.accounts.bruno!.email, password: PASSWORD, redirectTo: "/" },
      },
      {
        name: "crear cuenta",
        path: "/login",
        who: new Browser(server.url),
        form: { intent: "crear", nombre: "CSRF", email: "csrf@fiabilidad.test", password: "una contraseña bien larga" },
      },
      {
        name: "reenviar confirmación",
        path: "/signup-confirmation",
        who: new Browser(server.url),
        form: { intent: "reenviar", email: org.accounts.bruno!.email },
      },
      {
        name: "confirmar cuenta",
        path: "/auth/confirm",
        who: new Browser(server.url),
        form: { token: "x".repeat(43), type: "email" },
      },
      { name: "error de prueba", path: "/sentry-example-page", who: admin, form: {} },
    ];
    const port = Number(new URL(server.url).port);
    const ajenos: { name: string; headers: Record<string, string>; method?: string }[] = [
      { name: "Origin de otro sitio", headers: { Origin: "https://evil.example" } },
      { name: "Origin null", headers: { Origin: "null" } },
      { name: "sin Origin ni Sec-Fetch-Site", headers: {} },
      { name: "sin Origin, Sec-Fetch-Site cross-site", headers: { "Sec-Fetch-Site": "cross-site" } },
      { name: "sin Origin, Sec-Fetch-Site same-site", headers: { "Sec-Fetch-Site": "same-site" } },
      { name: "sin Origin, Sec-Fetch-Site none", headers: { "Sec-Fetch-Site": "none" } },
      {
        name: "Origin ajeno con Sec-Fetch-Site same-origin",
        headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "same-origin" },
      },
      {
        name: "Origin null con Sec-Fetch-Site same-origin",
        headers: { Origin: "null", "Sec-Fetch-Site": "same-origin" },
      },
      {
        name: "subdominio hermano",
        headers: {
          Host: `app.oficina.test:${port}`,
          Origin: `http://otra.oficina.test:${port}`,
          "Sec-Fetch-Site": "same-site",
        },
      },
      {
        name: "subdominio hermano sin Sec-Fetch-Site",
        headers: { Host: `app.oficina.test:${port}`, Origin: `http://evil.app.oficina.test:${port}` },
      },
      { name: "mismo host, otro puerto", headers: { Origin: `http://127.0.0.1:${port + 1}` } },
      { name: "mismo host, https", headers: { Origin: `https://127.0.0.1:${port}` } },
      { name: "Origin con ruta", headers: { Origin: `${origin}/` } },
      { name: "Origin que empieza como el nuestro", headers: { Origin: `${origin}.evil.example` } },
      { name: "PUT desde otro sitio", headers: { Origin: "https://evil.example" }, method: "PUT" },
      { name: "DELETE sin Origin", headers: {}, method: "DELETE" },
      { name: "PATCH con Origin null", headers: { Origin: "null" }, method: "PATCH" },
    ];

    let cells = 0;
    const failures: string[] = [];
    const before = await snapshot();
    for (const t of targets) {
      for (const a of ajenos) {
        cells += 1;
        const r = await httpRequest(server.url, t.path, {
          method: a.method ?? "POST",
          body: formBody(t.form),
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Cookie: t.who.cookieHeader(),
            "X-Forwarded-For": nextIp(),
            ...a.headers,
          },
        });
        if (r.status !== 403 || !r.text().includes("Petición rechazada"))
          failures.push(`${t.name} · ${a.name}: ${r.status}`);
        if (r.setCookies.some((c) => c.startsWith("oficina_sesion=") && !/max-age=0/i.test(c)))
          failures.push(`${t.name} · ${a.name}: abrió una sesión`);
      }
    }
    const after = await snapshot();
    // Positive control: from our own pages, the first two go through.
    const ok1 = await admin.post(targets[0]!.path, { ...targets[0]!.form, _envio: randomUUID() });
    const ok2 = await admin.post(targets[1]!.path, targets[1]!.form);
    figure(
      `CSRF: ${targets.length} acciones × ${ajenos.length} orígenes ajenos = ${cells} envíos, ${cells - failures.length} rechazados con 403, tablas cambiadas: ${changed(before, after).length}`,
    );
    expect(failures).toEqual([]);
    expect(changed(before, after)).toEqual([]);
    expect([ok1.status, ok2.status]).toEqual([302, 302]);
  });
});

describe("Host detrás de un proxy de confianza (TRUST_PROXY)", () => {
  it("X-Forwarded-Host decide el Host: el de APP_URL pasa, otro recibe 400", async () => {
    const as = (xfh: string) =>
      httpRequest(server.url, "/login", { headers: { "X-Forwarded-Host": xfh, "X-Forwarded-Proto": "https" } });
    const good = await as("app.oficina.test");
    const evil = await as("evil.example");
    const listed = await as("evil.example, app.oficina.test");
    figure(
      `TRUST_PROXY: X-Forwarded-Host de APP_URL → ${good.status}, ajeno → ${evil.status}, ajeno seguido del bueno → ${listed.status}`,
    );
    expect(good.status).toBe(200);
    expect([evil.status, listed.status]).toEqual([400, 400]);
    expect(evil.text()).toContain("Dirección no válida");
  });
});

// ---------------------------------------------------------------------------------------------

// Django, tests/utils_tests/test_http.py (URLHasAllowedHostAndSchemeTests.test_bad_urls), and
// the auth views' open-redirect tests, plus backslash, tab, control and encoded variants.
const BAD_URLS = [
  "http://example.com",
  "http:///example.com",
  "https://example.com",
  "ftp://example.com",
  String.raw`\\example.com`,
  String.raw`\\\example.com`,
  String.raw`/\\/example.com`,
  String.raw`\\//example.com`,
  String.raw`/\/example.com`,
  String.raw`\/example.com`,
  String.raw`/\example.com`,
  String.raw`http:/\//example.com`,
  String.raw`http:\/example.com`,
  String.raw`http:/\example.com`,
  'javascript:alert("XSS")',
  "\njavascript:alert(x)",
  "\x08//example.com",
  String.raw`http://otherserver\@example.com`,
  String.raw`http:\\testserver\@example.com`,
  String.raw`http://testserver\me:pass@example.com`,
  String.raw`http://testserver\@example.com`,
  String.raw`http:\\testserver\confirm\me@example.com`,
  "http:999999999",
  "ftp:9999999999",
  "\n",
  "http://[2001:cdba:0000:0000:0000:0000:3257:9652/",
  "http://2001:cdba:0000:0000:0000:0000:3257:9652]/",
  "//example.com",
  "///example.com",
  "////example.com",
  "/\t/example.com",
  "\t//example.com",
  "/\r\n/example.com",
  " //example.com",
  "/%2F/example.com",
  "/%2f%2fexample.com",
  "%2F%2Fexample.com",
  "/%5Cexample.com",
  "/%5C%5Cexample.com",
  "/%09/example.com",
  "/%0d%0a/example.com",
  "/%252F%252Fexample.com",
  "https:%2F%2Fexample.com",
  "/\\example.com",
  "\\\\example.com",
  "/．/example.com",
  "／／example.com",
  "/\u3000/example.com",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "//example.com@127.0.0.1",
  "http://127.0.0.1@example.com",
  "/gastos\r\nLocation: https://example.com",
  // Dot segments that normalise into a protocol-relative URL («/.//evil» was
  // answered «Location: //evil»).
  ...["/.", "/..", "/x/..", "/x/y/../..", "/%2e", "/%2E", "/.%2e", "/%2e%2e", "/x/%2e%2e"].flatMap((p) => [
    `${p}//evil.example/phish`,
    `${p}///evil.example`,
  ]),
];

describe("redirectTo y volver nunca salen del sitio", () => {
  it("iniciar sesión con cada URL de la lista de Django y sus variantes: siempre una ruta de Oficina", async () => {
    const leaving: string[] = [];
    let checked = 0;
    for (const bad of BAD_URLS) {
      const b = new Browser(server.url, { "X-Forwarded-For": nextIp() });
      const r = await b.post("/login", {
        intent: "iniciar",
        email: org.accounts.bruno!.email,
        password: PASSWORD,
        redirectTo: bad,
      });
      checked += 1;
      const location = r.location ?? "";
      const target = new URL(location, server.url);
      if (
        r.status !== 302 ||
        !location.startsWith("/") ||
        location.startsWith("//") ||
        location.includes("\\") ||
        // A control character in Location is exactly what is looked for (header splitting).
        // eslint-disable-next-line no-control-regex
        /[\u0000-\u001f]/.test(location) ||
        target.origin !== origin
      )
        leaving.push(`${JSON.stringify(bad)} → ${r.status} ${JSON.stringify(location)}`);
      // The login page itself carries it only as an escaped hidden value.
      const page = await httpRequest(server.url, `/login?redirectTo=${encodeURIComponent(bad)}`);
      checked += 1;
      if (/<script>alert|href="javascript:/i.test(page.text()))
        leaving.push(`/login?redirectTo=${JSON.stringify(bad)} lo pinta sin escapar`);
    }
    // `volver` after saving a record: back to the same list, never elsewhere.
    const admin = await signedIn("admin");
    const dep = await withOwner(
      dataDir,
      async (c) =>
        (await c.query("insert into departamentos (nombre, codigo) values ('Volver', 'VOLVER') returning id, version"))
          .rows[0],
    );
    let version = dep.version as number;
    for (const bad of BAD_URLS) {
      const r = await admin.post(`/departamentos/${dep.id}?volver=${encodeURIComponent(bad)}`, {
        intent: "guardar",
        version: String(version),
        nombre: "Volver",
        codigo: "VOLVER",
        activo: "on",
        notas: String(version),
      });
      checked += 1;
      if (r.status === 302) version += 1;
      // A saved record lands on the page's content (`#contenido`), wherever `volver` pointed.
      const destino = r.location?.replace(/#contenido$/, "");
      if (r.status !== 302 || !(destino === "/departamentos" || destino?.startsWith("/departamentos?")))
        leaving.push(`volver=${JSON.stringify(bad)} → ${r.status} ${JSON.stringify(r.location)}`);
    }
    figure(
      `redirectTo/volver: ${BAD_URLS.length} URLs hostiles (lista de Django + barras invertidas, tabuladores, controles y codificadas) en ${checked} comprobaciones a través de /login real y de «volver»: ${leaving.length} salen del sitio`,
    );
    expect(leaving).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------

const XSS = `<img src=x onerror=alert(1)>"'><script>alert(2)</script>`;
const RAW = [/<img src=x onerror/i, /<script>alert\(2\)/i, /href="javascript:/i, /src="javascript:/i];

describe("HTML y JavaScript guardados se muestran como texto; el CSV no ejecuta fórmulas", () => {
  it("cada campo de texto de cada entidad, en cada pantalla y para cada rol que la ve", async () => {
    const elena = await signedIn("elena");
    const admin = await signedIn("admin");
    const aprobador = await signedIn("aprobador");
    const ids = await withOwner(dataDir, async (c) => {
      const written: string[] = [];
      const setAll = async (table: string, id: string) => {
        const { rows } = await c.query(
          `select column_name, character_maximum_length as max from information_schema.columns where table_schema = 'public' and table_name = $1 and data_type in ('text', 'character varying') and column_name not in ('estado', 'rol', 'pais', 'tipo_persona', 'categoria', 'metodo_pago', 'folio')`,
          [table],
        );
        for (const { column_name } of rows) {
          await c.query("savepoint s");
          try {
            await c.query(`update public.${table} set ${column_name} = $2 where id = $1`, [
              id,
              column_name === "sitio_web" ? "javascript:alert(3)" : XSS,
            ]);
            await c.query("release savepoint s");
            written.push(`${table}.${column_name}`);
          } catch {
            // A check constraint (codigo, email, teléfono, NIF…) keeps this one out of the database.
            await c.query("rollback to savepoint s");
          }
        }
      };
      await c.query("begin");
      const dep = (await c.query("insert into departamentos (nombre, codigo) values ('xss', 'XSS') returning id"))
        .rows[0].id;
      const suc = (
        await c.query(
          "insert into sucursales (nombre, codigo, direccion, ciudad) values ('xss', 'XSS', 'x', 'x') returning id",
        )
      ).rows[0].id;
      const prov = (
        await c.query(
          "insert into proveedores (razon_social, tipo_persona, pais, nif, categoria) values ('xss', 'empresa', 'ES', $1, 'otros') returning id",
          [generateValidCif(777)],
        )
      ).rows[0].id;
      await setAll("departamentos", dep);
      await setAll("sucursales", suc);
      await setAll("proveedores", prov);
      await setAll("usuarios", org.accounts.carla!.id);
      await c.query("update usuarios set departamento_id = $2 where id = $1", [org.accounts.elena!.id, dep]);
      await c.query("commit");
      return { dep, suc, prov, written };
    });
    const g = gastoIdOf(
      (await elena.post("/gastos?index", gastoForm({ descripcion: "xss", proveedor_id: ids.prov }))).location,
    )!;
    await withOwner(dataDir, async (c) => {
      for (const col of ["descripcion", "numero_factura", "notas"]) {
        // numero_factura holds 50 characters: the image alone.
        await c.query(`update gastos set ${col} = $2 where id = $1`, [
          g,
          col === "numero_factura" ? XSS.slice(0, XSS.indexOf(">") + 1) : XSS,
        ]);
        ids.written.push(`gastos.${col}`);
      }
    });
    // The flash and a rejection motive too.
    await elena.post(`/gastos?gasto=${g}`, { intent: "enviar", id: g, version: "4" });
    const rechazo = await aprobador.post(`/gastos?gasto=${g}`, {
      intent: "rechazar",
      id: g,
      version: "5",
      motivo: XSS,
    });
    expect(rechazo.status).toBe(302);
    ids.written.push("gastos.motivo_rechazo");
    const flash = await admin.post("/departamentos?index", {
      intent: "crear",
      nombre: `${XSS} (aviso)`,
      codigo: "XSSF",
      activo: "on",
      _envio: randomUUID(),
    });
    expect(flash.status).toBe(302);

    const screens: [Browser, string][] = [
      [admin, flash.location!],
      [admin, "/"],
      [admin, "/departamentos"],
      [admin, `/departamentos/${ids.dep}`],
      [admin, "/sucursales"],
      [admin, `/sucursales/${ids.suc}`],
      [admin, "/proveedores"],
      [admin, `/proveedores/${ids.prov}`],
      [admin, "/usuarios"],
      [admin, `/usuarios/${org.accounts.carla!.id}`],
      [admin, "/gastos"],
      [admin, `/gastos?gasto=${g}`],
      [admin, `/gastos?q=${encodeURIComponent(XSS)}`],
      [admin, `/departamentos?q=${encodeURIComponent(XSS)}`],
      [elena, "/"],
      [elena, "/gastos"],
      [elena, `/gastos?gasto=${g}`],
      [elena, `/departamentos/${ids.dep}`],
      [elena, `/usuarios/${org.accounts.carla!.id}`],
      [aprobador, `/gastos?gasto=${g}`],
    ];
    const problems: string[] = [];
    let shown = 0;
    for (const [who, path] of screens) {
      const r = await who.get(path);
      const html = r.text();
      if (r.status !== 200) problems.push(`${path}: ${r.status}`);
      for (const raw of RAW) if (raw.test(html)) problems.push(`${path}: contiene ${raw} sin escapar`);
      if (html.includes("&lt;img src=x onerror=alert(1)&gt;")) shown += 1;
    }

    // CSV: every cell that starts like a formula is neutralised (a plain number may start with -).
    await withOwner(dataDir, async (c) => {
      await c.query(
        "update gastos set descripcion = '=1+2', numero_factura = '+34 600', notas = '@SUM(A1)' where id = $1",
        [g],
      );
      await c.query("update departamentos set nombre = '-2+3', centro_costo = '=cmd|x' where id = $1", [ids.dep]);
      await c.query(
        "update proveedores set razon_social = '@evil', nombre_comercial = '\tTAB', ciudad = '=HYPERLINK(\"x\")' where id = $1",
        [ids.prov],
      );
      await c.query("update sucursales set nombre = '+ciudad', direccion = '-x' where id = $1", [ids.suc]);
      await c.query("update usuarios set nombre = '=A1', puesto = '+1' where id = $1", [org.accounts.carla!.id]);
    });
    let cellsChecked = 0;
    for (const path of [
      "/gastos/exportar",
      "/departamentos/exportar",
      "/proveedores/exportar",
      "/sucursales/exportar",
      "/usuarios/exportar",
    ]) {
      const r = await admin.get(path);
      expect(r.status, path).toBe(200);
      const text = r.text().replace(/^\uFEFF/, "");
      for (const line of text.split("\r\n").filter(Boolean))
        for (const raw of line.split(";")) {
          const cell = raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw;
          cellsChecked += 1;
          if (/^[=+\-@\t\r\n]/.test(cell) && !/^[+-]?\d+([.,]\d+)?$/.test(cell))
            problems.push(`${path}: celda ${JSON.stringify(cell)} sin neutralizar`);
        }
      // The columns the lists export carry them (gastos: descripción; departamentos: nombre).
      const expected = {
        "/gastos/exportar": "'=1+2",
        "/departamentos/exportar": "'-2+3",
        "/sucursales/exportar": "'+ciudad",
        "/usuarios/exportar": "'=A1",
      }[path];
      if (expected && !text.includes(expected)) problems.push(`${path}: no aparece ${expected}`);
    }
    figure(
      `HTML guardado: ${ids.written.length} campos de texto con <img onerror>/<script> (${ids.written.join(", ")}) en ${screens.length} pantallas y 3 roles: ` +
        `0 sin escapar (${shown} pantallas lo muestran como texto); CSV: ${cellsChecked} celdas de 5 exportaciones, las que empiezan por = + - @ tabulador neutralizadas`,
    );
    expect(problems).toEqual([]);
    expect(shown).toBeGreaterThanOrEqual(12);
  });
});

// ---------------------------------------------------------------------------------------------

describe("sesiones", () => {
  const home = (b: Browser) => b.get("/");
  const signedOut = (r: HttpResponse) => r.status === 302 && (r.location ?? "").startsWith("/login");

  it("id nuevo al iniciar sesión (aunque el navegador traiga uno plantado), cookie HttpOnly, SameSite=Lax, Secure en producción", async () => {
    const b = new Browser(server.url, { "X-Forwarded-For": nextIp() });
    b.cookies.set("oficina_sesion", "plantada-por-un-atacante");
    const r1 = await b.signIn(org.accounts.bruno!.email, PASSWORD);
    const first = b.cookies.get("oficina_sesion")!;
    const line = r1.setCookies.find((c) => c.startsWith("oficina_sesion="))!;
    expect(first).not.toBe("plantada-por-un-atacante");
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
    expect(line).toMatch(/;\s*Secure/i);
    expect(line).toMatch(/;\s*Path=\//i);
    expect(line).toMatch(/;\s*Max-Age=604800/i);
    const b2 = new Browser(server.url, { "X-Forwarded-For": nextIp() });
    await b2.signIn(org.accounts.bruno!.email, PASSWORD);
    expect(b2.cookies.get("oficina_sesion")).not.toBe(first);
    // A planted value never works as a session.
    const planted = new Browser(server.url);
    planted.cookies.set("oficina_sesion", "plantada-por-un-atacante");
    expect(signedOut(await home(planted))).toBe(true);
    expect((await home(b)).status).toBe(200);
    expect(r1.headers["strict-transport-security"] ?? (await home(b)).headers["strict-transport-security"]).toMatch(
      /max-age=\d+/,
    );
  });

  it("la cookie antigua no sirve tras cerrar sesión, tras desactivar a la persona, tras caducar, ni retocada", async () => {
    const admin = await signedIn("admin");
    // Sign-out.
    const a = await signedIn("persona1");
    const old = a.cookieHeader();
    expect((await home(a)).status).toBe(200);
    await a.post("/logout", {});
    const replay = new Browser(server.url);
    for (const part of old.split("; ")) replay.cookies.set(part.split("=")[0]!, part.slice(part.indexOf("=") + 1));
    expect(signedOut(await home(replay))).toBe(true);

    // Deactivation by an administrador: at once, and the person cannot sign in again.
    const d = await signedIn("persona2");
    expect((await home(d)).status).toBe(200);
    const id = org.accounts.persona2!.id;
    const v = await withOwner(
      dataDir,
      async (c) => (await c.query("select version, nombre from usuarios where id = $1", [id])).rows[0],
    );
    const saved = await admin.post(`/usuarios/${id}`, {
      intent: "guardar",
      version: String(v.version),
      nombre: v.nombre,
      rol: "empleado",
      activo: "",
    });
    expect(saved.status).toBe(302);
    expect(signedOut(await home(d))).toBe(true);
    const again = await new Browser(server.url, { "X-Forwarded-For": nextIp() }).post("/login", {
      intent: "iniciar",
      email: org.accounts.persona2!.email,
      password: PASSWORD,
      redirectTo: "/",
    });
    expect(again.status).toBe(400);
    expect(textOf(again.text())).toContain("Su cuenta está desactivada");
    // Deactivated straight in the database (another path): refused too.
    const e = await signedIn("persona3");
    await withOwner(dataDir, (c) =>
      c.query("update usuarios set activo = false where id = $1", [org.accounts.persona3!.id]),
    );
    expect(signedOut(await home(e))).toBe(true);

    // Expiry.
    const x = await signedIn("persona4");
    expect((await home(x)).status).toBe(200);
    await withOwner(dataDir, (c) =>
      c.query("update auth.local_sessions set expires_at = now() - interval '1 second' where user_id = $1", [
        org.accounts.persona4!.id,
      ]),
    );
    expect(signedOut(await home(x))).toBe(true);

    // Tampered: the token changed, or the signature.
    const t = await signedIn("persona5");
    const value = decodeURIComponent(t.cookies.get("oficina_sesion")!);
    for (const forged of [
      value.replace(/^./, (c) => (c === "A" ? "B" : "A")),
      value.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
      value.split(".")[0]!,
    ]) {
      const f = new Browser(server.url);
      f.cookies.set("oficina_sesion", encodeURIComponent(forged));
      expect(signedOut(await home(f)), forged).toBe(true);
    }
    expect((await home(t)).status).toBe(200);
    figure(
      "Sesiones: id nuevo en cada inicio (el plantado no sirve), HttpOnly + SameSite=Lax + Secure + 7 días; la cookie antigua se rechaza tras cerrar sesión, desactivar (formulario o base de datos), caducar y retocarla",
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe("fuerza bruta al iniciar sesión", () => {
  const attempt = (email: string, password: string, ip = nextIp()) =>
    new Browser(server.url, { "X-Forwarded-For": ip }).post("/login", {
      intent: "iniciar",
      email,
      password,
      redirectTo: "/",
    });

  it("el mismo mensaje y un tiempo parecido con correo conocido y desconocido (medianas)", async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    const messages = new Set<string>();
    const N = 24;
    for (let i = 0; i < N; i++) {
      for (const kind of i % 2 ? ["conocido", "desconocido"] : ["desconocido", "conocido"]) {
        const email =
          kind === "conocido"
            ? org.accounts[`clave${i % 12}`]!.email
            : `nadie${i}-${randomUUID().slice(0, 6)}@fiabilidad.test`;
        const t = performance.now();
        const r = await attempt(email, `mala-${i}`);
        const ms = performance.now() - t;
        (kind === "conocido" ? known : unknown).push(ms);
        expect(r.status).toBe(400);
        messages.add(
          textOf(r.text()).match(
            /Correo o contraseña incorrectos|Demasiados intentos[^.]*\.|desactivada|Confirme/,
          )?.[0] ?? "otro",
        );
      }
    }
    const mk = median(known);
    const mu = median(unknown);
    figure(
      `Fuerza bruta: mensaje idéntico («${[...messages].join("», «")}»); mediana ${mk.toFixed(0)} ms con correo conocido y ${mu.toFixed(0)} ms con desconocido (${N} intentos de cada)`,
    );
    expect([...messages]).toEqual(["Correo o contraseña incorrectos"]);
    // A skipped password hash for unknown addresses would differ by a whole scrypt hash (N = 16 384,
    // about twice the floor on this machine); the floor absorbs jitter when both are quick.
    expect(Math.abs(mk - mu)).toBeLessThan(Math.max(40, 0.35 * Math.max(mk, mu)));
  });

  it(`tras 5 fallos la cuenta queda bloqueada (también con la contraseña buena) y dice lo mismo exista o no; por dirección, a los ${LIMITS.direccion}`, async () => {
    const lockMsg = "Demasiados intentos fallidos con este correo.";
    for (const email of [org.accounts.persona9!.email, `inexistente-${randomUUID().slice(0, 6)}@fiabilidad.test`]) {
      for (let i = 0; i < 5; i++) expect((await attempt(email, `mala-${i}`)).status).toBe(400);
      const locked = await attempt(email, PASSWORD);
      expect(locked.status).toBe(429);
      expect(textOf(locked.text())).toContain(lockMsg);
      expect(locked.setCookies.some((c) => c.startsWith("oficina_sesion=") && !/max-age=0/i.test(c))).toBe(false);
    }
    // Per address: a threshold an office behind one NAT never reaches honestly; past it, even a
    // good password waits (and says so, with Retry-After).
    const ip = "192.0.2.77";
    for (let i = 0; i < LIMITS.direccion - 1; i++)
      await attempt(`varios${i}-${randomUUID().slice(0, 4)}@fiabilidad.test`, "mala", ip);
    expect((await attempt(org.accounts.carla!.email, PASSWORD, ip)).status).toBe(302);
    await attempt(`ultimo-${randomUUID().slice(0, 4)}@fiabilidad.test`, "mala", ip);
    const byIp = await attempt(org.accounts.carla!.email, PASSWORD, ip);
    expect(byIp.status).toBe(429);
    expect(Number(byIp.headers["retry-after"])).toBeGreaterThan(0);
    expect(textOf(byIp.text())).toContain("Demasiados intentos fallidos desde su red");
    figure(
      `Fuerza bruta: cuenta bloqueada tras 5 fallos (429 con Retry-After, mismo mensaje para un correo que no existe, ni con la contraseña correcta); la dirección, tras ${LIMITS.direccion} fallos (un inicio correcto no cuenta)`,
    );
  });
});

describe("enlaces falsos en /auth/recuperar y /auth/invitacion", () => {
  const serverCpu = async (fn: () => Promise<unknown>) => (await serverCpuOf(server, fn)).ms;

  it("300 envíos con un token inventado no cuestan 300 scrypt; desde una dirección, el límite los corta", async () => {
    const N = 300;
    const form = (i: number) => ({
      intent: i % 2 ? "aceptar" : "cambiar",
      token: randomUUID().replaceAll("-", ""),
      password: "una contraseña cualquiera",
      confirmacion: "una contraseña cualquiera",
    });
    const statuses = new Map<number, number>();
    // Each from its own address: what one post costs, without the per-address limit.
    const cpu = await serverCpu(async () => {
      for (let i = 0; i < N; i++) {
        const r = await new Browser(server.url, { "X-Forwarded-For": nextIp() }).post(
          i % 2 ? "/auth/invitacion" : "/auth/recuperar",
          form(i),
        );
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    });
    // One scrypt, measured here on the same machine: what each post cost before the change.
    const t = process.cpuUsage();
    for (let i = 0; i < 5; i++) await hashPassword("una contraseña cualquiera");
    const used = process.cpuUsage(t);
    const scryptMs = (used.user + used.system) / 1000 / 5;
    const oneAddress = new Map<number, number>();
    const ip = nextIp();
    for (let i = 0; i < LINK_LIMIT.limit + 5; i++) {
      const r = await new Browser(server.url, { "X-Forwarded-For": ip }).post(
        i % 2 ? "/auth/invitacion" : "/auth/recuperar",
        form(i),
      );
      oneAddress.set(r.status, (oneAddress.get(r.status) ?? 0) + 1);
    }
    figure(
      `Enlaces falsos: ${N} envíos con token inventado (cada uno desde su dirección) cuestan ${cpu} ms de CPU del servidor (un scrypt aquí: ${scryptMs.toFixed(0)} ms, ${N} serían ${((N * scryptMs) / 1000).toFixed(1)} s); desde una dirección, ${oneAddress.get(429) ?? 0} de ${LINK_LIMIT.limit + 5} reciben 429`,
    );
    expect(Object.fromEntries(statuses)).toEqual({ 400: N });
    expect(cpu).toBeLessThan((N * scryptMs) / 4);
    expect(Object.fromEntries(oneAddress)).toEqual({ 400: LINK_LIMIT.limit, 429: 5 });
  });
});
