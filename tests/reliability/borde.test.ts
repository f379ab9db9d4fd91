import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import {
  Browser,
  freePort,
  httpRequest,
  median,
  removeDataDir,
  startServer,
  stopServer,
  withOwner,
  type ServerProcess,
  serverCpuOf,
  until,
} from "../support/server-process";
import { disposeServer, startOnEmptyDataDir } from "../support/server-suite";
import { createOrganisation, figure, LEAKS, PASSWORD, workDir } from "./support";

/**
 * The Express edge (server.ts) against a real production server, including the account-route
 * limiter: which Host it answers, bodies capped and checked before any
 * route parses them, Cache-Control, refusals on the app's own page, odd methods and targets, and
 * `npm start` as a fresh installation runs it.
 */
const APP_URL = "https://oficina.example";
const dataDir = workDir("borde");
let server: ServerProcess;
let org: Awaited<ReturnType<typeof createOrganisation>>;
let port: number;

beforeAll(async () => {
  // An explicit APP_URL: a real installation (no demo data), https (Secure cookies, HSTS).
  server = await startOnEmptyDataDir({ dataDir, nodeEnv: "production", env: { APP_URL } });
  port = server.port;
  org = await withOwner(dataDir, (c) =>
    createOrganisation(c, [
      { key: "admin", rol: "administrador" },
      { key: "elena", rol: "empleado" },
    ]),
  );
});

afterAll(() => disposeServer(server, dataDir));

/** Raw HTTP/1.1 over a socket: headers and request line exactly as written. */
function raw(
  text: string | Buffer,
  o: { port?: number; halfClose?: boolean; waitMs?: number } = {},
): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(o.port ?? port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const finish = () => {
      const all = Buffer.concat(chunks).toString("utf8");
      const [head = "", ...rest] = all.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body: rest.join("\r\n\r\n") });
    };
    socket.on("data", (c) => chunks.push(c));
    socket.on("close", finish);
    socket.on("error", () => undefined);
    socket.write(text);
    if (o.halfClose) socket.end();
    setTimeout(() => socket.destroy(), o.waitMs ?? 15_000).unref();
  });
}

const here = () => `127.0.0.1:${port}`;
const ours = () => `Origin: http://${here()}\r\nSec-Fetch-Site: same-origin\r\n`;
function post(target: string, contentType: string | null, body: string, o: { length?: number; extra?: string } = {}) {
  return `POST ${target} HTTP/1.1\r\nHost: ${here()}\r\n${ours()}${contentType ? `Content-Type: ${contentType}\r\n` : ""}Content-Length: ${o.length ?? Buffer.byteLength(body)}\r\n${o.extra ?? ""}Connection: close\r\n\r\n${body}`;
}
const get = (target: string, host = here(), extra = "") =>
  `GET ${target} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`;

/** The app's own layout (root.tsx) with no stack, path or SQL in it. */
function isAppPage(body: string) {
  return (
    body.includes('class="marca"') &&
    body.includes("</html>") &&
    !LEAKS.some((l) => l.test(body)) &&
    !body.includes(path.resolve("."))
  );
}

/** The server's output once it contains `text` (the primary logs after the workers listen). */
async function logged(s: ServerProcess, text: string) {
  await until(`«${text}» en el registro del servidor`, () => s.output().includes(text), 10_000);
  return s.output();
}

/** CPU (ms) the server's processes (primary and workers) used while `fn` ran. */
const cpuOf = async (fn: () => Promise<unknown>) => (await serverCpuOf(server, fn)).ms;

// ---------------------------------------------------------------------------------------------

describe("Host: solo APP_URL y los nombres de loopback (agujero 4)", () => {
  it("otro Host: 400 con una página breve en castellano; APP_URL, localhost, 127.0.0.1 y [::1] pasan; /healthz responde a cualquiera", async () => {
    const refused: string[] = [];
    const answered: string[] = [];
    for (const host of [
      "evil.example",
      `evil.example:${port}`,
      "10.0.0.1",
      "oficina.example.evil.example",
      "evil.example@localhost",
      "localhost.",
      "127.0.0.2",
      `localhost:99999`,
      "a b",
      "",
      `localhost:${port}, evil.example`,
    ]) {
      const r = await raw(get("/login", host));
      if (
        r.status === 400 &&
        r.body.includes("Dirección no válida") &&
        r.body.includes("APP_URL") &&
        !r.body.includes("<script")
      )
        refused.push(host);
      else answered.push(`${JSON.stringify(host)} → ${r.status}`);
    }
    const ok: string[] = [];
    for (const host of [here(), `localhost:${port}`, `[::1]:${port}`, "oficina.example", "OFICINA.example:8443"]) {
      const r = await raw(get("/login", host));
      if (r.status !== 200) ok.push(`${host} → ${r.status}`);
    }
    // Without TRUST_PROXY, X-Forwarded-Host is not the Host: ignored, never refused nor used.
    const xfh = await raw(get("/login", here(), "X-Forwarded-Host: evil.example\r\n"));
    // A load balancer's probe, by address.
    const health = await raw(get("/healthz", "10.0.0.7:8080"));
    // Not a path: «*» and an absolute URL naming another host.
    const star = await raw(`OPTIONS * HTTP/1.1\r\nHost: ${here()}\r\nConnection: close\r\n\r\n`);
    const absolute = await raw(
      `GET http://evil.example/login HTTP/1.1\r\nHost: ${here()}\r\nConnection: close\r\n\r\n`,
    );
    figure(
      `Host: ${refused.length} Host ajenos o mal formados → 400 con página en castellano; APP_URL y loopback → 200; /healthz con cualquier Host → ${health.status}; «OPTIONS *» → ${star.status}, forma absoluta → ${absolute.status}`,
    );
    expect(answered).toEqual([]);
    expect(ok).toEqual([]);
    expect(xfh.status).toBe(200);
    expect([health.status, health.body]).toEqual([200, "ok"]);
    expect([star.status, absolute.status]).toEqual([400, 400]);
  });

  it("el Origin de un formulario es APP_URL o el origen loopback al que llegó, nunca el de un Host cualquiera; Origin ≠ Host con APP_URL no da 500", async () => {
    const form = "intent=iniciar&email=nadie%40oficina.example&password=mala-clave&redirectTo=%2F";
    const send = (host: string, origin: string | null, extra = "") =>
      raw(
        `POST /login HTTP/1.1\r\nHost: ${host}\r\n${origin ? `Origin: ${origin}\r\n` : ""}${extra}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\nConnection: close\r\n\r\n${form}`,
      );
    // Behind a proxy that forwards neither Host nor X-Forwarded-Host: loopback Host, APP_URL's Origin.
    const proxied = await send(here(), APP_URL);
    const direct = await send(here(), `http://${here()}`);
    const viaAppHost = await send("oficina.example", APP_URL);
    const foreign = await send(here(), "http://evil.example");
    const otherLoopback = await send(here(), `http://localhost:${port}`);
    const forgedXfh = await send(here(), "http://evil.example", "X-Forwarded-Host: evil.example\r\n");
    const appHostOtherOrigin = await send("oficina.example", "http://oficina.example");
    figure(
      `Origin: APP_URL con Host loopback → ${proxied.status}, loopback → ${direct.status}, APP_URL → ${viaAppHost.status}; ajeno → ${foreign.status}, otro loopback → ${otherLoopback.status}, X-Forwarded-Host falso → ${forgedXfh.status}`,
    );
    // 400: the login form's own answer to a wrong password (it reached the action).
    expect([proxied.status, direct.status, viaAppHost.status]).toEqual([400, 400, 400]);
    for (const r of [proxied, direct, viaAppHost]) expect(r.body).toContain("Correo o contraseña incorrectos");
    for (const r of [foreign, otherLoopback, forgedXfh, appHostOtherOrigin]) {
      expect(r.status).toBe(403);
      expect(isAppPage(r.body)).toBe(true);
      expect(r.body).toContain("Petición rechazada");
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe("campos sin límite (agujero 5)", () => {
  const many = (n: number) =>
    ["intent=iniciar", "email=a%40b.es", "password=x", ...Array.from({ length: n - 3 }, (_, i) => `campo${i}=v`)].join(
      "&",
    );
  const multipart = (n: number) => {
    const b = "----limite";
    return {
      type: `multipart/form-data; boundary=${b}`,
      body:
        Array.from(
          { length: n },
          (_, i) => `--${b}\r\nContent-Disposition: form-data; name="campo${i}"\r\n\r\nv\r\n`,
        ).join("") + `--${b}--\r\n`,
    };
  };
  // Addressed as the public site is (APP_URL's host and origin), which the old edge let through too.
  const send = (type: string, body: string) =>
    httpRequest(server.url, "/login", {
      method: "POST",
      body,
      headers: { Host: "oficina.example", "Content-Type": type, Origin: APP_URL, "Sec-Fetch-Site": "same-origin" },
    });

  it("80 000 campos: 413 en la página de la aplicación, sin devolver el envío y sin gastar CPU; 1 000 campos pasan", async () => {
    const body = many(80_000);
    const cpu: number[] = [];
    let last = await send("application/x-www-form-urlencoded", body);
    for (let i = 0; i < 3; i++)
      cpu.push(await cpuOf(async () => (last = await send("application/x-www-form-urlencoded", body))));
    const small: number[] = [];
    for (let i = 0; i < 3; i++) small.push(await cpuOf(() => send("application/x-www-form-urlencoded", many(3))));
    figure(
      `80 000 campos (${(body.length / 1024).toFixed(0)} KB) a /login: ${last.status}, respuesta ${(last.body.length / 1024).toFixed(1)} KB, ` +
        `CPU del servidor ${cpu.join(", ")} ms por envío (mediana ${median(cpu)} ms; un envío de 3 campos: ${median(small)} ms)`,
    );
    expect(last.status).toBe(413);
    expect(isAppPage(last.text())).toBe(true);
    expect(last.text()).toContain("El formulario tiene demasiados campos");
    expect(last.text()).not.toContain("campo7999");
    expect(last.body.length).toBeLessThan(30_000);
    // /proc counts CPU in 10 ms ticks, so a small send often reads 0: the floor is 25 ticks,
    // far below what parsing 80 000 fields would cost.
    expect(median(cpu)).toBeLessThan(Math.max(250, 5 * median(small)));

    // The largest real form (gastos bulk: 100 rows + filters) is far below the cap; 1 000 passes.
    expect((await send("application/x-www-form-urlencoded", many(1000))).status).toBe(400);
    expect((await send("application/x-www-form-urlencoded", many(1001))).status).toBe(413);
    const mOk = multipart(1000);
    const mBad = multipart(1001);
    expect((await send(mOk.type, mOk.body)).status).toBe(400);
    const r = await send(mBad.type, mBad.body);
    expect(r.status).toBe(413);
    expect(r.text()).toContain("El formulario tiene demasiados campos");
    // Over 1 MiB: refused before it is read, on the same page.
    const huge = await send("application/x-www-form-urlencoded", `intent=iniciar&email=${"a".repeat(1024 * 1024)}`);
    expect(huge.status).toBe(413);
    expect(isAppPage(huge.text())).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------

describe("cuerpos mal formados (agujero 11)", () => {
  it("multipart truncado o sin boundary, JSON, texto, sin Content-Type, chunked, cuerpo más corto que Content-Length: 4xx con la página, nunca 500", async () => {
    const b = "XX";
    const cases: [string, string, number][] = [
      ["multipart sin boundary", post("/login", "multipart/form-data", "intent=iniciar"), 400],
      [
        "multipart truncado",
        post(
          "/login",
          `multipart/form-data; boundary=${b}`,
          `--${b}\r\nContent-Disposition: form-data; name="intent"\r\n\r\niniciar\r\n--${b}\r\nContent-Disp`,
        ),
        400,
      ],
      ["multipart vacío", post("/login", `multipart/form-data; boundary=${b}`, ""), 400],
      [
        "multipart sin cierre",
        post(
          "/login",
          `multipart/form-data; boundary=${b}`,
          `--${b}\r\nContent-Disposition: form-data; name="intent"\r\n\r\niniciar\r\n`,
        ),
        400,
      ],
      ["JSON", post("/login", "application/json", '{"intent":"iniciar"}'), 415],
      ["text/plain", post("/login", "text/plain", "intent=iniciar"), 415],
      ["sin Content-Type", post("/login", null, "intent=iniciar"), 415],
      [
        "multipart a gastos",
        post(
          "/gastos?index",
          `multipart/form-data; boundary=${b}`,
          `--${b}\r\nContent-Disposition: form-data; name="intent"\r\n\r\ncrear`,
        ),
        400,
      ],
      [
        "chunked sin Content-Length",
        `POST /login HTTP/1.1\r\nHost: ${here()}\r\n${ours()}Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\na=b\r\n0\r\n\r\n`,
        411,
      ],
      [
        "urlencoded con % sueltos",
        post("/login", "application/x-www-form-urlencoded", "intent=iniciar&email=%E0%A4%A&password=%&%%%=%ZZ"),
        400,
      ],
    ];
    const wrong: string[] = [];
    for (const [name, text, expected] of cases) {
      const r = await raw(text);
      if (r.status !== expected || !isAppPage(r.body))
        wrong.push(`${name}: ${r.status} (se esperaba ${expected}${isAppPage(r.body) ? "" : ", sin la página"})`);
    }
    // The client stops half-way: nothing to answer to, but never a 500 nor a stuck worker.
    const short = await raw(post("/login", "application/x-www-form-urlencoded", "intent=ini", { length: 100 }), {
      halfClose: true,
    });
    const after = await httpRequest(server.url, "/healthz");
    figure(
      `Cuerpos mal formados: ${cases.length - wrong.length} de ${cases.length} casos con 400/411/415 y la página de la aplicación; cuerpo más corto que Content-Length → ${short.status || "conexión cerrada"}`,
    );
    expect(wrong).toEqual([]);
    expect(short.status).not.toBe(500);
    expect(after.status).toBe(200);
    expect(server.output()).not.toMatch(/TypeError|Failed to parse body/);
  });
});

// ---------------------------------------------------------------------------------------------

describe("Cache-Control (agujero 9)", () => {
  it("private, no-store en cada respuesta de Remix (página, _data, redirección, error); los estáticos conservan la suya", async () => {
    const admin = new Browser(server.url);
    await admin.signIn(org.accounts.admin!.email, PASSWORD);
    const seen: Record<string, string | undefined> = {};
    for (const p of ["/", "/gastos", "/?_data=root", "/gastos?_data=routes%2Fgastos._index", "/no-existe", "/login"])
      seen[p] = (await admin.get(p)).headers["cache-control"];
    seen["anónimo /"] = (await httpRequest(server.url, "/")).headers["cache-control"];
    const css = (await httpRequest(server.url, "/estilos.css")).headers["cache-control"];
    figure(
      `Cache-Control: ${Object.entries(seen)
        .map(([p, v]) => `${p} «${v}»`)
        .join(", ")}; /estilos.css «${css}»`,
    );
    for (const [p, v] of Object.entries(seen)) expect(v, p).toBe("private, no-store");
    expect(css).toMatch(/max-age=3600/);
  });
});

// ---------------------------------------------------------------------------------------------

describe("métodos, rutas y cabeceras raras", () => {
  it("TRACE, PROPFIND, OPTIONS: 405 sin traza; /monitoring y /healthz codificados no llegan a nada que no deban", async () => {
    const methods: Record<string, number> = {};
    for (const m of ["TRACE", "PROPFIND", "OPTIONS", "CONNECT", "TRACK"]) {
      const r = await raw(`${m} /login HTTP/1.1\r\nHost: ${here()}\r\nConnection: close\r\n\r\n`);
      methods[m] = r.status;
      expect(
        LEAKS.some((l) => l.test(r.body)),
        m,
      ).toBe(false);
    }
    // Encoded: Express does not match them (its own routes), Remix's splat answers — never the tunnel.
    const enc = await raw(post("/%6Donitoring", "text/plain", "{}"));
    const encHealth = await raw(get("/%68ealthz", "evil.example"));
    const upper = await raw(post("/MONITORING", "text/plain", "{}"));
    const traversal = await raw(get("/build/%2e%2e/%2e%2e/package.json"));
    const nul = await raw(get("/login%00"));
    // Node's own limits (16 KB of headers): 431 before anything of ours runs.
    const longUrl = await raw(get(`/login?q=${"a".repeat(20_000)}`));
    const bigHeader = await raw(get("/login", here(), `X-Relleno: ${"a".repeat(20_000)}\r\n`));
    const head = await raw(`HEAD /login HTTP/1.1\r\nHost: ${here()}\r\nConnection: close\r\n\r\n`);
    figure(
      `Métodos: ${Object.entries(methods)
        .map(([m, s]) => `${m} ${s}`)
        .join(
          ", ",
        )}; /%6Donitoring → ${enc.status}, /%68ealthz con Host ajeno → ${encHealth.status}, /MONITORING → ${upper.status} (el túnel, sin Sentry), /build/%2e%2e/… → ${traversal.status}`,
    );
    // CONNECT: Node closes the connection itself (no tunnel is offered); TRACK: Node's parser, 400.
    expect(
      Object.entries(methods).filter(
        ([m, s]) => !(s === 405 || (m === "CONNECT" && s === 0) || (m === "TRACK" && s === 400)),
      ),
    ).toEqual([]);
    expect([405, 415]).toContain(enc.status);
    expect(encHealth.status).toBe(400);
    expect(upper.status).toBe(404);
    expect(traversal.body).not.toContain('"name": "oficina"');
    expect(nul.status).not.toBe(500);
    expect([longUrl.status, bigHeader.status]).toEqual([431, 431]);
    expect([head.status, head.body]).toEqual([200, ""]);
    expect(head.head).toMatch(/cache-control: private, no-store/i);
  });
});

// ---------------------------------------------------------------------------------------------

describe("el limitador de Express en /login ya no existe", () => {
  it("30 inicios de sesión correctos seguidos desde una misma dirección: todos entran", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const b = new Browser(server.url, { Host: "oficina.example" });
      const r = await b.post(
        "/login",
        { intent: "iniciar", email: org.accounts.elena!.email, password: PASSWORD, redirectTo: "/" },
        { Origin: APP_URL },
      );
      statuses.push(r.status);
    }
    figure(
      `Inicios de sesión correctos desde una dirección: ${statuses.filter((s) => s === 302).length} de ${statuses.length} entran`,
    );
    expect(statuses.every((s) => s === 302)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------

describe("npm start es producción (agujero 10)", () => {
  const fresh = workDir("borde-npm-start");
  let started: ServerProcess | undefined;
  afterAll(async () => {
    await disposeServer(started, fresh);
  });

  it("sin NODE_ENV ni SESSION_SECRET ni APP_URL: producción, datos de demostración, clave propia 0600 que sobrevive al reinicio, sin trazas; rechaza una clave legible por otros", async () => {
    removeDataDir(fresh);
    const p = await freePort();
    const base = {
      dataDir: fresh,
      port: p,
      nodeEnv: null,
      sessionSecret: null,
      npmStart: true,
      timeoutMs: 600_000,
    } as const;
    started = await startServer(base);
    const log = await logged(started, "Los enlaces de los correos");
    const secretFile = path.join(fresh, "session-secret");
    const mode = statSync(secretFile).mode & 0o777;
    const secret = readFileSync(secretFile, "utf8");
    // Remix's production mode: no stack, no absolute path.
    const nope = await httpRequest(started.url, "/login?_data=routes/nope");
    const page = await httpRequest(started.url, "/login");
    // Demo data (a fresh machine, APP_URL unset): the README's accounts work, over plain http.
    const demo = new Browser(`http://localhost:${p}`);
    const signed = await demo.post("/login", {
      intent: "iniciar",
      email: "administrador@oficina.example",
      password: "demo-oficina-2026",
      redirectTo: "/",
    });
    const cookie = signed.setCookies.find((c) => c.startsWith("oficina_sesion="));
    await stopServer(started);

    started = await startServer(base);
    const again = readFileSync(secretFile, "utf8");
    const stillSignedIn = await demo.get("/");
    const log2 = await logged(started, "Los enlaces de los correos");
    await stopServer(started);

    chmodSync(secretFile, 0o644);
    started = await startServer(base).catch((e: Error) => e as never);
    const refusedOpen = started instanceof Error ? started.message : "arrancó";
    started = undefined;
    chmodSync(secretFile, 0o600);
    writeFileSync(secretFile, "corta\n", { mode: 0o600 });
    started = await startServer(base).catch((e: Error) => e as never);
    const refusedBad = started instanceof Error ? started.message : "arrancó";
    started = undefined;

    figure(
      `npm start: ${/production\)/.test(log) ? "producción" : "NO producción"}; /login?_data=routes/nope → ${nope.status} ${nope.text().slice(0, 60)}; ` +
        `clave de sesión generada en DATA_DIR (modo ${mode.toString(8)}), la misma tras reiniciar: ${secret === again}; sesión válida tras reiniciar: ${stillSignedIn.status === 200}; ` +
        `cookie Secure en http://localhost: ${/;\s*Secure/i.test(cookie ?? "")}; HSTS: ${page.headers["strict-transport-security"] ? "sí" : "no"}`,
    );
    expect(log).toMatch(/procesos?, production\)/);
    expect(log).toContain(
      `Los enlaces de los correos usarán http://localhost:${p}; defina APP_URL en una instalación real`,
    );
    expect(log).toContain("Datos de demostración cargados");
    expect(log2).toContain("Datos de demostración: no se cargan (la base de datos ya tiene usuarios)");
    expect(nope.text()).not.toMatch(/stack|node_modules|\/work\/|at getInternalRouterError/);
    expect(mode).toBe(0o600);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{64}\n$/);
    expect(again).toBe(secret);
    expect(signed.status).toBe(302);
    expect(cookie).not.toMatch(/;\s*Secure/i);
    expect(page.headers["strict-transport-security"]).toBeUndefined();
    expect(page.headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
    expect(stillSignedIn.status).toBe(200);
    expect(refusedOpen).toContain("tiene permisos 0644");
    expect(refusedBad).toContain("no contiene una clave de sesión válida");
  }, 900_000);
});
