import { mkdtempSync, rmSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import type { AppLoadContext } from "@remix-run/node";
import { LINK_LIMIT, LIMITS, MAIL_LIMIT, SIGNUP_LIMIT } from "~/auth/throttle.server";
import * as confirmRoute from "~/routes/auth.confirm";
import * as invitacionRoute from "~/routes/auth.invitacion";
import * as recuperarRoute from "~/routes/auth.recuperar";
import * as loginRoute from "~/routes/login";
import * as reenviarRoute from "~/routes/signup-confirmation";
import * as usuarioRoute from "~/routes/usuarios.$id";
import { outbox, sessionCookieOf, signedInUser, tokenOf } from "../support/accounts";
import { connect } from "../support/as-user";
import { createTestDatabase } from "../support/database";
import { createTestApp, json, ORIGIN, PASSWORD, request, respond } from "../support/app";

/**
 * Accounts (docs/producto.md «Cuentas») through the real routes and the local adapter on a real Postgres: the holes
 * found by probing and the reset / change-password journeys. Mails are
 * read from the dev outbox (DATA_DIR/correo), as a person would read them.
 */
const APP_URL = "https://oficina.empresa.es";
const DATA_DIR = mkdtempSync(path.join(tmpdir(), "oficina-cuentas-"));
let app: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  // Open sign-up on purpose (a real APP_URL defaults to «invitacion»): these tests sign people up.
  app = await createTestApp({ APP_URL, DATA_DIR, SIGNUP_MODE: "abierto" });
});
afterAll(async () => {
  await app.close();
  // The dev outbox the mails were read from: nothing of a run stays behind.
  rmSync(DATA_DIR, { recursive: true, force: true });
});

let seq = 0;
const fresh = (p = "p") => `${p}${++seq}-${Math.random().toString(36).slice(2, 8)}@empresa.es`;
/** A different address per test, so the per-address counters of one test never meet another's. */
const ctx = (clientIp = `10.0.${seq % 250}.${++seq % 250}`): AppLoadContext => ({ ...app.context(), clientIp });
const { mails, lastLink } = outbox(DATA_DIR);

const login = (form: Record<string, string>, context = ctx(), path = "/login") =>
  respond(() => loginRoute.action({ request: request(path, { form }), context, params: {} }));
const signUp = (nombre: string, email: string, password: string, context = ctx()) =>
  login({ intent: "crear", nombre, email, password }, context);
const signIn = (email: string, password: string, context = ctx()) =>
  login({ intent: "iniciar", email, password, redirectTo: "/" }, context);
const confirm = (token: string) =>
  respond(() =>
    confirmRoute.action({
      request: request("/auth/confirm", { form: { token, type: "email" } }),
      context: ctx(),
      params: {},
    }),
  );
const signedIn = (cookie: string) => signedInUser(app, cookie);
/** «¿Ha olvidado su contraseña?»: asks for the reset mail. */
const ask = (email: string) =>
  respond(() =>
    recuperarRoute.action({
      request: request("/auth/recuperar", { form: { intent: "pedir", email } }),
      context: ctx(),
      params: {},
    }),
  );

describe("alta: las credenciales pendientes son las del enlace (agujero 3)", () => {
  it("un alta sin confirmar no crea cuenta ni perfil: no se queda con «la primera cuenta» (administrador) ni con un nombre", async () => {
    expect(
      Number((await sql<{ n: number }>`select count(*)::int as n from public.usuarios`.execute(app.db)).rows[0]!.n),
    ).toBe(0);
    const intruso = fresh("nadie");
    expect((await signUp("Administrador General", intruso, "contraseña-del-intruso")).status).toBe(302);
    expect(await app.db.selectFrom("auth.users").select("id").where("email", "=", intruso).execute()).toEqual([]);
    expect(await app.db.selectFrom("usuarios").select("id").execute()).toEqual([]);
    // The first CONFIRMED account of the empty system is the administrador.
    const real = fresh("primera");
    await signUp("Primera Persona", real, "contraseña-de-la-primera");
    expect((await confirm(tokenOf(lastLink(real, "/auth/confirm")))).status).toBe(302);
    expect(
      await app.db.selectFrom("usuarios").select(["nombre", "rol"]).where("email", "=", real).executeTakeFirstOrThrow(),
    ).toEqual({ nombre: "Primera Persona", rol: "administrador" });
  });

  it("quien se da de alta antes con el correo de otro no entra: la dueña confirma con SU enlace y valen SU contraseña y SU nombre", async () => {
    const ceo = fresh("ceo");
    await signUp("Intruso", ceo, "contraseña-del-intruso");
    const intruderLink = lastLink(ceo, "/auth/confirm");
    await signUp("Carmen Directora", ceo, "contraseña-de-carmen");
    const ownerLink = lastLink(ceo, "/auth/confirm");
    expect(ownerLink).not.toBe(intruderLink);

    // The earlier sign-up's link died when the new one was sent.
    expect(await json(await confirm(tokenOf(intruderLink)))).toEqual({ reason: "usado" });
    const ok = await confirm(tokenOf(ownerLink));
    expect(ok.status).toBe(302);
    expect(await signedIn(sessionCookieOf(ok))).toMatchObject({
      email: ceo,
      nombre: "Carmen Directora",
      rol: "empleado",
    });

    expect((await signIn(ceo, "contraseña-del-intruso")).status).toBe(400);
    expect((await signIn(ceo, "contraseña-de-carmen")).status).toBe(302);
    // After the account is confirmed, every earlier link says so (and opens nothing).
    for (const link of [intruderLink, ownerLink])
      expect(await json(await confirm(tokenOf(link)))).toEqual({ reason: "ya_confirmada" });
  });

  it("antes de confirmar, la contraseña de SU alta dice «confirme su correo»; otra cualquiera, lo de siempre", async () => {
    const email = fresh("pendiente");
    await signUp("Pendiente", email, "contraseña-pendiente");
    const r = await signIn(email, "contraseña-pendiente");
    expect(r.status).toBe(400);
    expect((await json(r)).result.error[""][0]).toMatch(/^Confirme su correo antes de iniciar sesión/);
    expect((await json(await signIn(email, "otra-contraseña-x"))).result.error[""][0]).toBe(
      "Correo o contraseña incorrectos",
    );
  });

  it("una cuenta sin confirmar de antes (con perfil): el enlace aplica la contraseña y el nombre de su alta", async () => {
    const email = fresh("antigua");
    // As the old code left it: account + profile created at sign-up, with the intruder's password.
    const { id } = await app.db
      .insertInto("auth.users")
      .values({ email, encrypted_password: "scrypt$x", raw_user_meta_data: JSON.stringify({ nombre: "Intruso" }) })
      .returning("id")
      .executeTakeFirstOrThrow();
    await app.db.insertInto("usuarios").values({ id, email, nombre: "Intruso" }).execute();
    await signUp("Dueña", email, "contraseña-de-la-duena");
    expect((await confirm(tokenOf(lastLink(email, "/auth/confirm")))).status).toBe(302);
    expect(
      await app.db.selectFrom("usuarios").select("nombre").where("email", "=", email).executeTakeFirstOrThrow(),
    ).toEqual({ nombre: "Dueña" });
    expect((await signIn(email, "contraseña-de-la-duena")).status).toBe(302);
  });

  it("tokens: solo el hash en la base de datos, 24 h de vida, un solo uso; reenviar mata los anteriores; estados que dicen qué hacer", async () => {
    const email = fresh("tokens");
    await signUp("Tomás", email, "contraseña-de-tomas");
    const first = tokenOf(lastLink(email, "/auth/confirm"));
    const stored = await app.db.selectFrom("auth.local_tokens").selectAll().where("email", "=", email).execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(first);
    const hours = await sql<{
      h: number;
    }>`select extract(epoch from expires_at - created_at) / 3600 as h from auth.local_tokens where email = ${email}`.execute(
      app.db,
    );
    expect(Number(hours.rows[0]!.h)).toBe(24);

    const resend = await respond(() =>
      reenviarRoute.action({
        request: request("/signup-confirmation", { form: { intent: "reenviar", email } }),
        context: ctx(),
        params: {},
      }),
    );
    expect(resend.status).toBe(302);
    const second = tokenOf(lastLink(email, "/auth/confirm"));
    expect(await json(await confirm(first))).toEqual({ reason: "usado" });
    expect(await json(await confirm("no-existe"))).toEqual({ reason: "no_valido" });
    await app.db
      .updateTable("auth.local_tokens")
      .set({ expires_at: sql`now() - interval '1 minute'` })
      .where("email", "=", email)
      .where("used_at", "is", null)
      .execute();
    expect(await json(await confirm(second))).toEqual({ reason: "caducado" });
    // Expired: resend offers a new one, with the same sign-up's credentials.
    await respond(() =>
      reenviarRoute.action({
        request: request("/signup-confirmation", { form: { intent: "reenviar", email } }),
        context: ctx(),
        params: {},
      }),
    );
    expect((await confirm(tokenOf(lastLink(email, "/auth/confirm")))).status).toBe(302);
    expect((await signIn(email, "contraseña-de-tomas")).status).toBe(302);
  });
});

describe("el perfil nace al confirmar (también con Supabase Auth, que crea auth.users al darse de alta)", () => {
  // What GoTrue does: the auth.users row is inserted unconfirmed on sign-up and
  // email_confirmed_at is set when the link is used. On an empty system.
  it("un alta sin confirmar no tiene perfil ni es «la primera cuenta»; al confirmar nace el perfil, administrador solo si es la primera confirmada", async () => {
    const db = await connect(await createTestDatabase());
    try {
      const profiles = async () =>
        (await db.query("select email, nombre, rol from usuarios order by creado_en, email")).rows;
      const intruder = await db.query(
        "insert into auth.users (email, raw_user_meta_data) values ('jefa@empresa.es', '{\"nombre\":\"Intruso\"}') returning id",
      );
      await db.query("insert into auth.users (email) values ('otra@empresa.es')");
      expect(await profiles()).toEqual([]);

      // The real owner of another address confirms first: she is the first account.
      const owner = await db.query(
        "insert into auth.users (email, raw_user_meta_data) values ('duena@empresa.es', '{\"nombre\":\"Dueña\"}') returning id",
      );
      await db.query("update auth.users set email_confirmed_at = now() where id = $1", [owner.rows[0].id]);
      expect(await profiles()).toEqual([{ email: "duena@empresa.es", nombre: "Dueña", rol: "administrador" }]);

      // Confirming the earlier unconfirmed sign-up creates its profile then, as empleado.
      await db.query("update auth.users set email_confirmed_at = now() where id = $1", [intruder.rows[0].id]);
      expect(await profiles()).toEqual([
        { email: "duena@empresa.es", nombre: "Dueña", rol: "administrador" },
        { email: "jefa@empresa.es", nombre: "Intruso", rol: "empleado" },
      ]);
      // Later updates of a confirmed account (a new confirmation date, a deleted profile) create nothing.
      await db.query("delete from usuarios where id = $1", [intruder.rows[0].id]);
      await db.query("update auth.users set email_confirmed_at = now() where id = $1", [intruder.rows[0].id]);
      expect((await profiles()).map((p) => p.email)).toEqual(["duena@empresa.es"]);
      // An account created already confirmed (local backend, Supabase dashboard) has it at once.
      await db.query("insert into auth.users (email, email_confirmed_at) values ('nueva@empresa.es', now())");
      expect((await profiles()).map((p) => p.rol)).toEqual(["administrador", "empleado"]);
    } finally {
      await db.end();
    }
  });

  it("una invitación pendiente (sin confirmar, con el perfil que escribió el administrador) no cuenta como «la primera cuenta»", async () => {
    const db = await connect(await createTestDatabase());
    try {
      const invited = await db.query("insert into auth.users (email) values ('invitada@empresa.es') returning id");
      await db.query(
        "insert into usuarios (id, email, nombre, rol) values ($1, 'invitada@empresa.es', 'Invitada', 'aprobador')",
        [invited.rows[0].id],
      );
      await db.query("insert into auth.users (email, email_confirmed_at) values ('primera@empresa.es', now())");
      // Confirming the invitation keeps the administrador's choice.
      await db.query("update auth.users set email_confirmed_at = now() where id = $1", [invited.rows[0].id]);
      expect((await db.query("select email, rol from usuarios order by email")).rows).toEqual([
        { email: "invitada@empresa.es", rol: "aprobador" },
        { email: "primera@empresa.es", rol: "administrador" },
      ]);
    } finally {
      await db.end();
    }
  });
});

describe("enlaces de los correos solo desde APP_URL (agujero 4)", () => {
  it("con Host: evil.example, los enlaces de alta, «ya tiene cuenta» y recuperación apuntan a APP_URL", async () => {
    const email = fresh("host");
    const evil = (path: string, form: Record<string, string>) =>
      new Request(`http://evil.example${path}`, {
        method: "POST",
        headers: {
          Host: "evil.example",
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: "http://evil.example",
        },
        body: new URLSearchParams(form),
      });
    await loginRoute.action({
      request: evil("/login", { intent: "crear", nombre: "Hugo", email, password: "contraseña-de-hugo" }),
      context: ctx(),
      params: {},
    });
    await confirm(tokenOf(lastLink(email, "/auth/confirm")));
    await loginRoute.action({
      request: evil("/login", { intent: "crear", nombre: "Hugo", email, password: "contraseña-de-hugo" }),
      context: ctx(),
      params: {},
    });
    await recuperarRoute
      .action({ request: evil("/auth/recuperar", { intent: "pedir", email }), context: ctx(), params: {} })
      .catch((r) => r);
    const links = mails(email).flatMap((m) => [...m.text.matchAll(/https?:\/\/\S+/g)].map((x) => x[0]));
    expect(mails(email).map((m) => m.subject)).toEqual([
      "Confirme su cuenta de Oficina",
      "Ya tiene una cuenta en Oficina",
      "Restablezca su contraseña de Oficina",
    ]);
    expect(links.length).toBeGreaterThanOrEqual(3);
    for (const link of links) expect(new URL(link).origin).toBe(APP_URL);
    expect(links.join(" ")).not.toContain("evil.example");
  });
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function timed(run: () => Promise<unknown>) {
  const t = performance.now();
  await run();
  return performance.now() - t;
}

/** 30 confirmed accounts (an administrador first, so none of them is the last one). */
async function manyUsers(nombre: string) {
  await app.createUser({ nombre: "Admin", rol: "administrador" });
  const out = [];
  for (let i = 0; i < 30; i++) out.push(await app.createUser({ nombre: `${nombre} ${i}` }));
  return out;
}

describe("el tiempo de respuesta no dice quién tiene cuenta (agujero 7)", () => {
  it("alta (POST /login, intent crear) con un correo libre y con uno que ya tiene cuenta: medianas de 30 peticiones parecidas", async () => {
    // 30 different taken inboxes: the per-inbox mail limit (3 an hour) must not be what is timed.
    const taken = await manyUsers("Ocupada");
    const free: number[] = [];
    const existing: number[] = [];
    for (let i = 0; i < 30; i++) {
      // Interleaved, so a slow moment of the machine hits both alike.
      free.push(
        await timed(async () =>
          expect((await signUp("Libre", fresh("libre"), "contraseña-larga-libre")).status).toBe(302),
        ),
      );
      existing.push(
        await timed(async () =>
          expect((await signUp("Otra", taken[i]!.email, "contraseña-larga-otra")).status).toBe(302),
        ),
      );
    }
    const [a, b] = [median(free), median(existing)];
    console.info(
      `[tiempos] alta: correo libre ${a.toFixed(1)} ms, correo con cuenta ${b.toFixed(1)} ms (medianas de 30)`,
    );
    expect(Math.max(a, b) / Math.min(a, b)).toBeLessThan(1.5);
  });

  it("recuperación (POST /auth/recuperar, intent pedir) con un correo con cuenta y con uno desconocido: medianas de 30 parecidas", async () => {
    const known = await manyUsers("Conocida");
    const yes: number[] = [];
    const no: number[] = [];
    for (let i = 0; i < 30; i++) {
      yes.push(await timed(async () => expect((await ask(known[i]!.email)).status).toBe(302)));
      no.push(await timed(async () => expect((await ask(fresh("desconocido"))).status).toBe(302)));
    }
    expect(mails(known[0]!.email)).toHaveLength(1);
    const [a, b] = [median(yes), median(no)];
    console.info(`[tiempos] recuperar: con cuenta ${a.toFixed(2)} ms, sin cuenta ${b.toFixed(2)} ms (medianas de 30)`);
    expect(Math.abs(a - b)).toBeLessThan(Math.max(5, 0.5 * Math.max(a, b)));
  });
});

describe("límites (agujero 2)", () => {
  it("200 inicios de sesión correctos desde una dirección: todos entran", async () => {
    const office = ctx("192.0.2.10");
    const u = await app.createUser({ nombre: "Oficina" });
    for (let i = 0; i < 200; i++) expect((await signIn(u.email, PASSWORD, office)).status).toBe(302);
  }, 180_000);

  it("una oficina tras un NAT: 40 fallos de 10 personas (4 cada una) no bloquean a nadie", async () => {
    const office = ctx("192.0.2.20");
    const people = (await manyUsers("Persona")).slice(0, 10);
    for (const p of people)
      for (let i = 0; i < 4; i++) expect((await signIn(p.email, "equivocada", office)).status).toBe(400);
    for (const p of people) expect((await signIn(p.email, PASSWORD, office)).status).toBe(302);
    expect(LIMITS.direccion).toBeGreaterThanOrEqual(300);
  }, 60_000);

  it("seis contraseñas equivocadas bloquean esa cuenta (429, Retry-After, qué hacer) y solo esa; restablecer la contraseña la desbloquea", async () => {
    const office = ctx("192.0.2.30");
    const victim = await app.createUser({ nombre: "Víctima" });
    const colleague = await app.createUser({ nombre: "Colega" });
    for (let i = 0; i < 5; i++) expect((await signIn(victim.email, "equivocada", office)).status).toBe(400);
    const locked = await signIn(victim.email, "equivocada", office);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(14 * 60);
    expect((await json(locked)).result.error[""][0]).toMatch(
      /Demasiados intentos fallidos con este correo\. Espere 15 minutos o elija una contraseña nueva con «¿Ha olvidado su contraseña\?»/,
    );
    // Even the right password waits; a colleague at the same address signs in.
    expect((await signIn(victim.email, PASSWORD, office)).status).toBe(429);
    expect((await signIn(colleague.email, PASSWORD, office)).status).toBe(302);
    // The same limits whatever path reached the action (the router decoded `/%6Cogin`).
    expect(
      (await login({ intent: "iniciar", email: victim.email, password: PASSWORD, redirectTo: "/" }, office, "/%6Cogin"))
        .status,
    ).toBe(429);

    await recuperarRoute
      .action({
        request: request("/auth/recuperar", { form: { intent: "pedir", email: victim.email } }),
        context: ctx(),
        params: {},
      })
      .catch((r) => r);
    const reset = await respond(() =>
      recuperarRoute.action({
        request: request("/auth/recuperar", {
          form: {
            intent: "cambiar",
            token: tokenOf(lastLink(victim.email, "/auth/recuperar")),
            password: "una contraseña nueva",
            confirmacion: "una contraseña nueva",
          },
        }),
        context: ctx(),
        params: {},
      }),
    );
    expect(reset.status).toBe(302);
    expect((await signIn(victim.email, "una contraseña nueva", office)).status).toBe(302);
  });

  it("el cuarto correo a un mismo buzón en la hora no se envía y se dice (alta, reenvío y recuperación)", async () => {
    const inbox = fresh("buzon");
    for (let i = 0; i < MAIL_LIMIT.limit; i++)
      expect((await signUp("Buzón", inbox, "contraseña-del-buzon", ctx())).status).toBe(302);
    expect(mails(inbox)).toHaveLength(3);
    const fourth = await signUp("Buzón", inbox, "contraseña-del-buzon", ctx());
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await json(fourth)).result.error[""][0]).toMatch(
      /^Ha pedido demasiados correos para esta dirección: no hemos enviado otro\. Espere \d+ minutos/,
    );
    const resend = await respond(() =>
      reenviarRoute.action({
        request: request("/signup-confirmation", { form: { intent: "reenviar", email: inbox } }),
        context: ctx(),
        params: {},
      }),
    );
    expect(resend.status).toBe(429);
    expect(mails(inbox)).toHaveLength(3);

    const known = (await app.createUser({ nombre: "Reset" })).email;
    const ask = () =>
      respond(() =>
        recuperarRoute.action({
          request: request("/auth/recuperar", { form: { intent: "pedir", email: known } }),
          context: ctx(),
          params: {},
        }),
      );
    for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(302);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(mails(known)).toHaveLength(3);
  });

  it("como mucho SIGNUP_LIMIT altas por hora desde una dirección", async () => {
    const address = ctx("192.0.2.40");
    for (let i = 0; i < SIGNUP_LIMIT.limit; i++)
      expect((await signUp("Alta", fresh("cupo"), "contraseña-de-alta-1", address)).status).toBe(302);
    const over = await signUp("Alta", fresh("cupo"), "contraseña-de-alta-1", address);
    expect(over.status).toBe(429);
    expect((await json(over)).result.error[""][0]).toMatch(/Se han creado demasiadas cuentas desde su red/);
    expect((await signUp("Alta", fresh("cupo"), "contraseña-de-alta-1", ctx("192.0.2.41"))).status).toBe(302);
  });
});

describe("«¿Ha olvidado su contraseña?»", () => {
  const change = (token: string, password: string, confirmacion = password) =>
    respond(() =>
      recuperarRoute.action({
        request: request("/auth/recuperar", { form: { intent: "cambiar", token, password, confirmacion } }),
        context: ctx(),
        params: {},
      }),
    );
  const state = async (token: string) =>
    json(
      await respond(() =>
        recuperarRoute.loader({ request: request(`/auth/recuperar?token=${token}`), context: ctx(), params: {} }),
      ),
    );

  it("la misma respuesta con o sin cuenta; enlace de 1 h y un solo uso; contraseña dos veces; entra y las demás sesiones se cierran", async () => {
    const u = await app.createUser({ nombre: "Rita" });
    const other = await signIn(u.email, PASSWORD);
    const otherCookie = sessionCookieOf(other);
    expect(await signedIn(otherCookie)).not.toBeNull();

    const unknown = fresh("nadie");
    const [a, b] = [await ask(u.email), await ask(unknown)];
    expect([a.status, b.status]).toEqual([302, 302]);
    expect(a.headers.get("Location")).toBe(b.headers.get("Location"));
    expect(mails(unknown)).toEqual([]);
    const first = tokenOf(lastLink(u.email, "/auth/recuperar"));
    expect(
      Number(
        (
          await sql<{
            h: number;
          }>`select extract(epoch from expires_at - created_at) / 3600 as h from auth.local_tokens where kind = 'recuperar' and user_id = ${u.id} and used_at is null`.execute(
            app.db,
          )
        ).rows[0]!.h,
      ),
    ).toBe(1);
    expect(await state(first)).toEqual({ token: first, state: null });

    await ask(u.email);
    const second = tokenOf(lastLink(u.email, "/auth/recuperar"));
    expect(await state(first)).toMatchObject({ state: "usado" }); // the earlier reset link died

    const short = await change(second, "corta", "corta");
    expect(short.status).toBe(400);
    expect((await json(short)).result.error.password[0]).toMatch(/al menos 12 caracteres/);
    const mismatch = await change(second, "una contraseña nueva", "otra contraseña nueva");
    expect(mismatch.status).toBe(400);
    expect((await json(mismatch)).result.error.confirmacion[0]).toMatch(/no coinciden/);

    const ok = await change(second, "una contraseña nueva");
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/");
    expect(await signedIn(sessionCookieOf(ok))).toMatchObject({ id: u.id });
    expect(await signedIn(otherCookie)).toBeNull();
    expect(await signedIn(u.cookie)).toBeNull();
    expect(await json(await change(second, "otra contraseña más"))).toMatchObject({ reason: "usado" });
    expect((await signIn(u.email, PASSWORD)).status).toBe(400);
    expect((await signIn(u.email, "una contraseña nueva")).status).toBe(302);

    await ask(u.email);
    const late = tokenOf(lastLink(u.email, "/auth/recuperar"));
    await app.db
      .updateTable("auth.local_tokens")
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where("user_id", "=", u.id)
      .where("used_at", "is", null)
      .execute();
    expect(await state(late)).toMatchObject({ state: "caducado" });
    expect(await state("inventado")).toMatchObject({ state: "no_valido" });
  });
});

describe("cambiar mi contraseña en mi ficha", () => {
  const post = (id: string, cookie: string, form: Record<string, string>) =>
    respond(() =>
      usuarioRoute.action({
        request: request(`/usuarios/${id}`, { cookie, form: { intent: "cambiar_contrasena", ...form } }),
        context: ctx(),
        params: { id },
      }),
    );

  it("pide la actual; la nueva dos veces; cierra las demás sesiones y mantiene esta", async () => {
    const u = await app.createUser({ nombre: "Marta" });
    const elsewhere = sessionCookieOf(await signIn(u.email, PASSWORD));
    const wrong = await post(u.id, u.cookie, {
      actual: "no-es-esta",
      password: "contraseña nueva de marta",
      confirmacion: "contraseña nueva de marta",
    });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).contrasena.error.actual[0]).toBe("La contraseña actual no es correcta");
    const mismatch = await post(u.id, u.cookie, {
      actual: PASSWORD,
      password: "contraseña nueva de marta",
      confirmacion: "otra cosa distinta",
    });
    expect((await json(mismatch)).contrasena.error.confirmacion[0]).toMatch(/no coinciden/);
    expect((await signIn(u.email, PASSWORD)).status).toBe(302);

    const ok = await post(u.id, u.cookie, {
      actual: PASSWORD,
      password: "contraseña nueva de marta",
      confirmacion: "contraseña nueva de marta",
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe(`/usuarios/${u.id}#contenido`);
    expect(await signedIn(u.cookie)).toMatchObject({ id: u.id });
    expect(await signedIn(elsewhere)).toBeNull();
    expect((await signIn(u.email, PASSWORD)).status).toBe(400);
    expect((await signIn(u.email, "contraseña nueva de marta")).status).toBe(302);

    const other = await app.createUser({ nombre: "Otro" });
    expect(
      (
        await post(other.id, u.cookie, {
          actual: "contraseña nueva de marta",
          password: "x".repeat(12),
          confirmacion: "x".repeat(12),
        })
      ).status,
    ).toBe(403);
  });
});

describe("un cambio de contraseña acaba con los demás enlaces de la cuenta", () => {
  // The first account of an empty system is its administrador (and stays one): run alone, the
  // accounts below are then ordinary ones.
  beforeAll(() => app.createUser({ nombre: "Administradora", rol: "administrador" }));

  const reset = (token: string, password: string, context = ctx()) =>
    respond(() =>
      recuperarRoute.action({
        request: request("/auth/recuperar", { form: { intent: "cambiar", token, password, confirmacion: password } }),
        context,
        params: {},
      }),
    );
  const accept = (token: string, password: string) =>
    respond(() =>
      invitacionRoute.action({
        request: request("/auth/invitacion", { form: { intent: "aceptar", token, password, confirmacion: password } }),
        context: ctx(),
        params: {},
      }),
    );
  const change = (u: { id: string; cookie: string }, actual: string, password: string) =>
    respond(() =>
      usuarioRoute.action({
        request: request(`/usuarios/${u.id}`, {
          cookie: u.cookie,
          form: { intent: "cambiar_contrasena", actual, password, confirmacion: password },
        }),
        context: ctx(),
        params: { id: u.id },
      }),
    );
  /** An invited account as public.invitar leaves it: unconfirmed, no password, its profile. */
  async function invited() {
    const email = fresh("invitada");
    const { id } = await app.db
      .insertInto("auth.users")
      .values({ email, raw_user_meta_data: JSON.stringify({ nombre: "Invitada" }) })
      .returning("id")
      .executeTakeFirstOrThrow();
    await app.db.insertInto("usuarios").values({ id, email, nombre: "Invitada" }).execute();
    await app.services.auth.sendToken("invitacion", email);
    return { id, email, invitation: tokenOf(lastLink(email, "/auth/invitacion")) };
  }

  it("un enlace de recuperación pedido antes de cambiar la contraseña en la ficha ya no sirve", async () => {
    const u = await app.createUser({ nombre: "Lara" });
    await ask(u.email);
    const link = tokenOf(lastLink(u.email, "/auth/recuperar"));
    expect((await change(u, PASSWORD, "la nueva de lara, larga")).status).toBe(302);
    const late = await reset(link, "la del intruso, larga");
    expect(late.status).toBe(400);
    expect(await json(late)).toMatchObject({ reason: "usado" });
    expect((await signIn(u.email, "la del intruso, larga")).status).toBe(400);
    expect((await signIn(u.email, "la nueva de lara, larga")).status).toBe(302);
  });

  it("aceptar la invitación acaba con un enlace de recuperación pendiente; recuperar acaba con la invitación", async () => {
    const a = await invited();
    await ask(a.email);
    const resetLink = tokenOf(lastLink(a.email, "/auth/recuperar"));
    expect((await accept(a.invitation, "la de la invitada, larga")).status).toBe(302);
    expect(await json(await reset(resetLink, "otra contraseña, larga"))).toMatchObject({ reason: "usado" });
    expect((await signIn(a.email, "la de la invitada, larga")).status).toBe(302);

    const b = await invited();
    await ask(b.email);
    expect((await reset(tokenOf(lastLink(b.email, "/auth/recuperar")), "la elegida al recuperar")).status).toBe(302);
    expect(await json(await accept(b.invitation, "la de la invitación, larga"))).toMatchObject({ reason: "usado" });
    expect((await signIn(b.email, "la elegida al recuperar")).status).toBe(302);
  });

  it("una invitación no sirve después de que la cuenta se activara de otro modo (su dueña se dio de alta y confirmó)", async () => {
    const a = await invited();
    await signUp("Invitada", a.email, "la de su propia alta");
    expect((await confirm(tokenOf(lastLink(a.email, "/auth/confirm")))).status).toBe(302);
    expect(await app.services.auth.checkToken(a.invitation, "invitacion")).toEqual({ ok: false, reason: "usado" });
    expect(await json(await accept(a.invitation, "la de la invitación, larga"))).toMatchObject({ reason: "usado" });
    expect((await signIn(a.email, "la de su propia alta")).status).toBe(302);
  });
});

describe("la contraseña actual de la ficha cuenta como un inicio de sesión", () => {
  // The first account of an empty system is its administrador (and stays one): run alone, the
  // accounts below are then ordinary ones.
  beforeAll(() => app.createUser({ nombre: "Administradora", rol: "administrador" }));

  const change = (u: { id: string; cookie: string }, actual: string, password = "una contraseña nueva, larga") =>
    respond(() =>
      usuarioRoute.action({
        request: request(`/usuarios/${u.id}`, {
          cookie: u.cookie,
          form: { intent: "cambiar_contrasena", actual, password, confirmacion: password },
        }),
        context: ctx(),
        params: { id: u.id },
      }),
    );

  it("sus fallos cuentan con los del inicio de sesión: tras 5, la ficha y el acceso se niegan (429), también con la buena", async () => {
    const u = await app.createUser({ nombre: "Adivina" });
    for (let i = 0; i < LIMITS.cuenta; i++) expect((await change(u, `intento-${i}`)).status).toBe(400);
    const locked = await change(u, PASSWORD);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await json(locked)).contrasena.error[""][0]).toMatch(/^Demasiados intentos fallidos/);
    expect((await signIn(u.email, PASSWORD)).status).toBe(429);
    // Nothing changed: the password is still the old one once the lock ends.
    await app.services.throttle.clearFailures(u.email);
    expect((await signIn(u.email, PASSWORD)).status).toBe(302);
  });

  it("con el acceso bloqueado por fallos al iniciar sesión, la ficha tampoco acepta la contraseña actual", async () => {
    const u = await app.createUser({ nombre: "Bloqueada" });
    for (let i = 0; i < LIMITS.cuenta; i++) expect((await signIn(u.email, "equivocada")).status).toBe(400);
    expect((await change(u, PASSWORD)).status).toBe(429);
    await app.services.throttle.clearFailures(u.email);
    expect((await signIn(u.email, PASSWORD)).status).toBe(302);
  });
});

describe("enlaces falsos: ni scrypt ni barra libre", () => {
  // The first account of an empty system is its administrador (and stays one): run alone, the
  // accounts below are then ordinary ones.
  beforeAll(() => app.createUser({ nombre: "Administradora", rol: "administrador" }));

  const post = (route: "recuperar" | "invitacion", token: string, context: AppLoadContext) => {
    const form = { token, password: "una contraseña cualquiera", confirmacion: "una contraseña cualquiera" };
    return respond(() =>
      route === "recuperar"
        ? recuperarRoute.action({
            request: request("/auth/recuperar", { form: { intent: "cambiar", ...form } }),
            context,
            params: {},
          })
        : invitacionRoute.action({
            request: request("/auth/invitacion", { form: { intent: "aceptar", ...form } }),
            context,
            params: {},
          }),
    );
  };

  it("un token que no existe se rechaza sin calcular la contraseña: cada envío cuesta menos CPU que medio scrypt", async () => {
    const { hashPassword } = await import("~/auth/password.server");
    // CPU of this process (the route and scrypt's thread pool run here; the database does not):
    // steadier than wall time on a busy machine.
    const cpuOf = async (n: number, fn: (i: number) => Promise<unknown>) => {
      const start = process.cpuUsage();
      for (let i = 0; i < n; i++) await fn(i);
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000 / n;
    };
    const scrypt = await cpuOf(5, () => hashPassword("una contraseña cualquiera"));
    const bogus = await cpuOf(10, async (i) => {
      const r = await post(i % 2 ? "invitacion" : "recuperar", "x".repeat(43), ctx());
      expect(await json(r)).toMatchObject({ reason: "no_valido" });
    });
    expect(bogus).toBeLessThan(scrypt / 2);
  });

  it(`como mucho ${LINK_LIMIT.limit} contraseñas por enlace desde una dirección cada ${LINK_LIMIT.windowMs / 60_000} minutos (recuperar e invitación juntas): 429 y Retry-After`, async () => {
    const address = ctx("198.51.100.77");
    for (let i = 0; i < LINK_LIMIT.limit; i++)
      expect((await post(i % 2 ? "invitacion" : "recuperar", `falso-${i}`, address)).status).toBe(400);
    for (const route of ["recuperar", "invitacion"] as const) {
      const r = await post(route, "falso-otra-vez", address);
      expect(r.status).toBe(429);
      expect(Number(r.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(JSON.stringify(await json(r))).toMatch(/Demasiados intentos desde su red/);
    }
    // Another address is not affected, and a real link still works from it.
    const u = await app.createUser({ nombre: "Otra red" });
    await ask(u.email);
    const ok = await respond(() =>
      recuperarRoute.action({
        request: request("/auth/recuperar", {
          form: {
            intent: "cambiar",
            token: tokenOf(lastLink(u.email, "/auth/recuperar")),
            password: "la contraseña buena",
            confirmacion: "la contraseña buena",
          },
        }),
        context: ctx("198.51.100.78"),
        params: {},
      }),
    );
    expect(ok.status).toBe(302);
  });
});

describe("el buzón de desarrollo es privado", () => {
  // The first account of an empty system is its administrador (and stays one): run alone, the
  // accounts below are then ordinary ones.
  beforeAll(() => app.createUser({ nombre: "Administradora", rol: "administrador" }));

  it("data/correo y sus carpetas 0700, cada correo 0600: guardan enlaces vivos", async () => {
    const u = await app.createUser({ nombre: "Privada" });
    await ask(u.email);
    const dir = path.join(DATA_DIR, "correo");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" });
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const st = statSync(path.join(dir, f));
      expect([f, st.mode & 0o777]).toEqual([f, st.isDirectory() ? 0o700 : 0o600]);
    }
  });
});

describe("invitaciones: la primitiva para la pantalla de invitaciones", () => {
  it("sendToken('invitacion') a una cuenta sin confirmar: enlace de 7 días a /auth/invitacion; setPasswordWithToken confirma y abre sesión", async () => {
    const email = fresh("invitada");
    const { id } = await app.db
      .insertInto("auth.users")
      .values({ email, raw_user_meta_data: JSON.stringify({ nombre: "Invitada" }) })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Unconfirmed: the profile is the one an invitation writes (public.invitar), not the trigger's.
    await app.db.insertInto("usuarios").values({ id, email, nombre: "Invitada" }).execute();
    await app.services.auth.sendToken("invitacion", email);
    const link = lastLink(email, "/auth/invitacion");
    expect(new URL(link).origin).toBe(APP_URL);
    expect(await app.services.auth.checkToken(tokenOf(link), "invitacion")).toEqual({ ok: true });
    expect(await app.services.auth.checkToken(tokenOf(link), "recuperar")).toEqual({ ok: false, reason: "no_valido" });
    const result = await app.services.auth.setPasswordWithToken(
      request("/auth/invitacion"),
      tokenOf(link),
      "invitacion",
      "la contraseña de la invitada",
    );
    expect(result).toMatchObject({ ok: true, email });
    expect((await signIn(email, "la contraseña de la invitada")).status).toBe(302);
    expect(
      await app.services.auth.setPasswordWithToken(
        request("/auth/invitacion"),
        tokenOf(link),
        "invitacion",
        "otra más larga aún",
      ),
    ).toEqual({ ok: false, reason: "usado" });
    expect(
      await app.db
        .selectFrom("auth.users")
        .select(sql<boolean>`email_confirmed_at is not null`.as("c"))
        .where("id", "=", id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ c: true });
  });
});

describe("SIGNUP_MODE", () => {
  it("invitacion: «Crear cuenta» no se ofrece y la acción lo rechaza (403) sin crear nada ni enviar correo", async () => {
    const closed = await createTestApp({ APP_URL, DATA_DIR, SIGNUP_MODE: "invitacion" });
    try {
      // An installation with an account (an empty one lets its first account sign up).
      await closed.createUser({ nombre: "Jefa", rol: "administrador" });
      const context = { ...closed.context(), clientIp: "198.51.100.1" };
      expect(
        await json(await respond(() => loginRoute.loader({ request: request("/login"), context, params: {} }))),
      ).toEqual({ signupOpen: false });
      const email = fresh("cerrado");
      const r = await respond(() =>
        loginRoute.action({
          request: request("/login", { form: { intent: "crear", nombre: "X", email, password: "contraseña-larga-x" } }),
          context,
          params: {},
        }),
      );
      expect(r.status).toBe(403);
      expect(JSON.stringify(await json(r))).toContain(
        "Para entrar en Oficina necesita una invitación de un administrador",
      );
      expect(await closed.db.selectFrom("auth.local_tokens").select("email").execute()).toEqual([]);
      expect(mails(email)).toEqual([]);
    } finally {
      await closed.close();
    }
  });

  it("sin SIGNUP_MODE, una instalación real (APP_URL que no es esta máquina) es «invitacion»; vacía, deja entrar a su primera cuenta, que es administrador", async () => {
    const real = await createTestApp({ APP_URL, DATA_DIR });
    try {
      expect(real.config).toMatchObject({
        SIGNUP_MODE: "invitacion",
        SIGNUP_MODE_MOTIVO: expect.stringMatching(/real/),
      });
      const context = () => ({ ...real.context(), clientIp: `198.51.100.${++seq % 250}` });
      const offered = async () =>
        json(await respond(() => loginRoute.loader({ request: request("/login"), context: context(), params: {} })));
      const signUpHere = (email: string) =>
        respond(() =>
          loginRoute.action({
            request: request("/login", {
              form: { intent: "crear", nombre: "Primera", email, password: "contraseña-de-la-primera" },
            }),
            context: context(),
            params: {},
          }),
        );
      expect(await offered()).toEqual({ signupOpen: true });
      const first = fresh("primera");
      expect((await signUpHere(first)).status).toBe(302);
      const link = tokenOf(lastLink(first, "/auth/confirm"));
      expect(
        (
          await respond(() =>
            confirmRoute.action({
              request: request("/auth/confirm", { form: { token: link, type: "email" } }),
              context: context(),
              params: {},
            }),
          )
        ).status,
      ).toBe(302);
      expect(await real.db.selectFrom("usuarios").select(["email", "rol"]).execute()).toEqual([
        { email: first, rol: "administrador" },
      ]);
      // From then on, only by invitation.
      expect(await offered()).toEqual({ signupOpen: false });
      const second = fresh("segunda");
      expect((await signUpHere(second)).status).toBe(403);
      expect(mails(second)).toEqual([]);
    } finally {
      await real.close();
    }
  });

  it("abierto: el loader ofrece «Crear cuenta»", async () => {
    expect(
      await json(await respond(() => loginRoute.loader({ request: request("/login"), context: ctx(), params: {} }))),
    ).toEqual({ signupOpen: true });
  });
});

void ORIGIN;
