import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import type { AppLoadContext } from "@remix-run/node";
import { currentUser } from "~/auth/session.server";
import { MAIL_LIMIT } from "~/auth/throttle.server";
import * as invitacionRoute from "~/routes/auth.invitacion";
import * as loginRoute from "~/routes/login";
import * as usuariosRoute from "~/routes/usuarios._index";
import { outbox, sessionCookieOf, signedInUser, tokenOf } from "../support/accounts";
import { createTestApp, json, request, respond } from "../support/app";
import { insertDepartamento, insertSucursal, tableHashes } from "../support/fixtures";

/**
 * Invitations (ADR 0013) through the real routes and the local adapter on a real
 * Postgres: an administrador invites on /usuarios, the mail reaches the dev outbox, the landing's
 * GET does not use the link up, the POST sets the password and signs the person in with the rol
 * the administrador chose. Resend, cancel, refusals.
 */
const APP_URL = "https://oficina.empresa.es";
const DATA_DIR = mkdtempSync(path.join(tmpdir(), "oficina-invitaciones-"));
let app: Awaited<ReturnType<typeof createTestApp>>;
let admin: { id: string; email: string; cookie: string };
let empleado: { id: string; email: string; cookie: string };
let dep: string;
let suc: string;
let aprobador: { id: string };

beforeAll(async () => {
  // Open sign-up on purpose (a real APP_URL defaults to «invitacion»): these tests sign people up.
  app = await createTestApp({ APP_URL, DATA_DIR, SIGNUP_MODE: "abierto" });
  admin = await app.createUser({ nombre: "Ana Admin", rol: "administrador" });
  empleado = await app.createUser({ nombre: "Eva Empleada", rol: "empleado" });
  aprobador = await app.createUser({ nombre: "Pablo Aprobador", rol: "aprobador" });
  dep = await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" });
  suc = await insertSucursal(app.db);
});
afterAll(async () => {
  await app.close();
  // The dev outbox the mails were read from: nothing of a run stays behind.
  rmSync(DATA_DIR, { recursive: true, force: true });
});

let seq = 0;
const fresh = (p = "inv") => `${p}${++seq}-${Math.random().toString(36).slice(2, 8)}@empresa.es`;
const ctx = (): AppLoadContext => ({ ...app.context(), clientIp: `10.1.${seq % 250}.${++seq % 250}` });
const { mails, lastLink } = outbox(DATA_DIR);
const invitationLink = (email: string) => lastLink(email, "/auth/invitacion");

const post = (cookie: string, form: Record<string, string>) =>
  respond(() =>
    usuariosRoute.action({ request: request("/usuarios?index", { cookie, form }), context: ctx(), params: {} }),
  );
const invite = (form: Record<string, string>, cookie = admin.cookie) =>
  post(cookie, {
    intent: "invitar",
    _envio: crypto.randomUUID(),
    nombre: "Lucía",
    apellidos: "",
    rol: "empleado",
    departamento_id: "",
    sucursal_id: "",
    aprobador_id: "",
    ...form,
  });
const listData = async (cookie = admin.cookie) =>
  json(
    await respond(() =>
      usuariosRoute.loader({ request: request("/usuarios", { cookie }), context: ctx(), params: {} }),
    ),
  );
const landing = async (token: string) =>
  json(
    await respond(() =>
      invitacionRoute.loader({
        request: request(`/auth/invitacion?token=${encodeURIComponent(token)}`),
        context: ctx(),
        params: {},
      }),
    ),
  );
const accept = (token: string, password = "la contraseña de lucía", confirmacion = password) =>
  respond(() =>
    invitacionRoute.action({
      request: request("/auth/invitacion", { form: { intent: "aceptar", token, password, confirmacion } }),
      context: ctx(),
      params: {},
    }),
  );
const signIn = (email: string, password: string) =>
  respond(() =>
    loginRoute.action({
      request: request("/login", { form: { intent: "iniciar", email, password, redirectTo: "/" } }),
      context: ctx(),
      params: {},
    }),
  );
const account = (email: string) =>
  app.db
    .selectFrom("auth.users as u")
    .leftJoin("usuarios as p", "p.id", "u.id")
    .select(["u.id", "u.email_confirmed_at", "u.encrypted_password", "p.rol", "p.activo"])
    .where("u.email", "=", email)
    .executeTakeFirst();

const snapshot = () =>
  tableHashes(app.db, {
    cuentas: ["auth.users", "id"],
    usuarios: ["public.usuarios", "id"],
    invitaciones: ["public.invitaciones", "usuario_id"],
    tokens: ["auth.local_tokens", "token_hash"],
  });

describe("invitar: del formulario de /usuarios a la sesión de la persona invitada", () => {
  it("el administrador invita; llega el correo; el GET del enlace no lo gasta; el POST fija la contraseña y entra con el rol, departamento, sucursal y aprobador elegidos", async () => {
    const email = fresh("lucia");
    const r = await invite({
      nombre: "Lucía",
      apellidos: "Pérez Gil",
      email,
      rol: "aprobador",
      departamento_id: dep,
      sucursal_id: suc,
      aprobador_id: aprobador.id,
    });
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/usuarios");

    // Pending: an unconfirmed account without password, the profile as chosen, listed.
    const pending = await account(email);
    expect(pending).toMatchObject({
      email_confirmed_at: null,
      encrypted_password: null,
      rol: "aprobador",
      activo: true,
    });
    const profile = await app.db
      .selectFrom("usuarios")
      .selectAll()
      .where("id", "=", pending!.id)
      .executeTakeFirstOrThrow();
    expect(profile).toMatchObject({
      nombre: "Lucía",
      apellidos: "Pérez Gil",
      departamento_id: dep,
      sucursal_id: suc,
      aprobador_id: aprobador.id,
    });
    // The history names the administrador, on the creation and on the choice of rol.
    const history = await app.db
      .selectFrom("historial")
      .select(["accion", "actor_id"])
      .where("registro_id", "=", pending!.id)
      .orderBy("id")
      .execute();
    expect(history.length).toBeGreaterThan(0);
    expect(history.every((h) => h.actor_id === admin.id)).toBe(true);
    const listed = (await listData()).invitar;
    expect(listed.disponible).toBe(true);
    expect(listed.pendientes.map((p: { email: string }) => p.email)).toContain(email);
    expect(listed.pendientes.find((p: { email: string }) => p.email === email)).toMatchObject({
      nombre_completo: "Lucía Pérez Gil",
      rol: "aprobador",
      departamento_nombre: "Ventas",
      invitada_por_nombre: "Ana Admin",
    });
    // Its live link's expiry, read from this server's own links: 7 days after it left.
    const { enviada_en, caduca_en } = listed.pendientes.find((p: { email: string }) => p.email === email);
    expect(Date.parse(caduca_en) - Date.parse(enviada_en)).toBeGreaterThan(7 * 24 * 3_600_000 - 60_000);
    expect(Date.parse(caduca_en) - Date.parse(enviada_en)).toBeLessThanOrEqual(7 * 24 * 3_600_000 + 60_000);

    // The mail: from APP_URL, to /auth/invitacion, 7 days.
    const [mail] = mails(email);
    expect(mail!.subject).toBe("Le han invitado a Oficina");
    expect(mail!.text).toContain("caduca en 7 días");
    const link = invitationLink(email);
    expect(new URL(link).origin).toBe(APP_URL);
    const token = tokenOf(link);
    // The stored token is a hash, not the token.
    expect(
      await app.db
        .selectFrom("auth.local_tokens")
        .select("token_hash")
        .where("token_hash", "=", token)
        .executeTakeFirst(),
    ).toBeUndefined();

    // A mail scanner (or the person) opening the link twice uses nothing up.
    expect(await landing(token)).toEqual({ token, state: null });
    expect(await landing(token)).toEqual({ token, state: null });
    // The account cannot sign in yet (no password).
    expect((await signIn(email, "la contraseña de lucía")).status).toBe(400);

    // Passwords must be ≥ 12 and match: nothing is used up.
    expect((await accept(token, "corta", "corta")).status).toBe(400);
    expect((await accept(token, "la contraseña de lucía", "otra contraseña distinta")).status).toBe(400);
    expect(await landing(token)).toEqual({ token, state: null });

    const done = await accept(token);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/");
    const me = await signedInUser(app, sessionCookieOf(done));
    expect(me).toMatchObject({
      email,
      rol: "aprobador",
      departamento_id: dep,
      sucursal_id: suc,
      aprobador_id: aprobador.id,
      nombre: "Lucía",
    });
    expect((await account(email))!.email_confirmed_at).not.toBeNull();

    // Single use; no longer pending; the password works.
    expect(await landing(token)).toEqual({ token, state: "usado" });
    const again = await accept(token, "otra contraseña más larga");
    expect(again.status).toBe(400);
    expect((await json(again)).reason).toBe("usado");
    expect((await listData()).invitar.pendientes.map((p: { email: string }) => p.email)).not.toContain(email);
    expect((await signIn(email, "la contraseña de lucía")).status).toBe(302);
  });

  it("enlaces que no sirven: no válido, sin token, caducado; cada uno dice qué hacer", async () => {
    expect(await landing("no-es-un-codigo")).toEqual({ token: "no-es-un-codigo", state: "no_valido" });
    expect(
      await json(
        await respond(() =>
          invitacionRoute.loader({ request: request("/auth/invitacion"), context: ctx(), params: {} }),
        ),
      ),
    ).toMatchObject({ state: "no_valido" });
    const email = fresh("caduca");
    expect((await invite({ email })).status).toBe(302);
    const token = tokenOf(invitationLink(email));
    await app.db
      .updateTable("auth.local_tokens")
      .set({ expires_at: sql`now() - interval '1 minute'` })
      .where("kind", "=", "invitacion")
      .where("email", "=", email)
      .execute();
    expect(await landing(token)).toEqual({ token, state: "caducado" });
    const r = await accept(token);
    expect(r.status).toBe(400);
    expect((await json(r)).reason).toBe("caducado");
    expect((await account(email))!.email_confirmed_at).toBeNull();
    // The pending list says so.
    expect((await listData()).invitar.pendientes.find((p: { email: string }) => p.email === email)).toMatchObject({
      caduca_en: null,
    });
  });
});

describe("reenviar y cancelar", () => {
  it("reenviar mata el enlace anterior; el nuevo sirve", async () => {
    const email = fresh("reenvio");
    await invite({ email });
    const first = tokenOf(invitationLink(email));
    const { id } = (await account(email))!;
    const r = await post(admin.cookie, { intent: "reenviar", id: String(id) });
    expect(r.status).toBe(302);
    expect(mails(email)).toHaveLength(2);
    const second = tokenOf(invitationLink(email));
    expect(second).not.toBe(first);
    expect(await landing(first)).toEqual({ token: first, state: "usado" });
    expect((await accept(first)).status).toBe(400);
    expect((await accept(second)).status).toBe(302);
  });

  it("los reenvíos a un buzón están limitados (el mismo límite de correos): el siguiente se niega con 429 y no se envía", async () => {
    const email = fresh("limite");
    await invite({ email }); // 1
    const { id } = (await account(email))!;
    for (let i = 1; i < MAIL_LIMIT.limit; i++)
      expect((await post(admin.cookie, { intent: "reenviar", id: String(id) })).status).toBe(302);
    const sent = mails(email).length;
    expect(sent).toBe(MAIL_LIMIT.limit);
    const refused = await post(admin.cookie, { intent: "reenviar", id: String(id) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await json(refused)).error).toMatch(
      /^Se han enviado demasiados correos a .*: no hemos enviado otro\. Espere \d+ minutos/,
    );
    expect(mails(email)).toHaveLength(sent);
  });

  it("cancelar deja el enlace inútil y elimina la cuenta pendiente (y su perfil)", async () => {
    const email = fresh("cancelada");
    await invite({ email, rol: "administrador" });
    const token = tokenOf(invitationLink(email));
    const { id } = (await account(email))!;
    const r = await post(admin.cookie, { intent: "cancelar", id: String(id) });
    expect(r.status).toBe(302);
    expect(await account(email)).toBeUndefined();
    expect(await app.db.selectFrom("usuarios").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
    expect(await landing(token)).toMatchObject({ state: expect.stringMatching(/usado|no_valido/) });
    expect((await accept(token)).status).toBe(400);
    expect(await account(email)).toBeUndefined();
    expect((await listData()).invitar.pendientes.map((p: { email: string }) => p.email)).not.toContain(email);
    // The address can be invited again.
    expect((await invite({ email })).status).toBe(302);
  });

  it("cancelar una invitación cuya cuenta ya mencionan otros registros la desactiva en su lugar; el enlace tampoco sirve", async () => {
    const email = fresh("mencionada");
    await invite({ email, rol: "aprobador" });
    const token = tokenOf(invitationLink(email));
    const { id } = (await account(email))!;
    await app.db.updateTable("usuarios").set({ aprobador_id: id }).where("id", "=", empleado.id).execute();
    try {
      expect((await post(admin.cookie, { intent: "cancelar", id: String(id) })).status).toBe(302);
      expect(await account(email)).toMatchObject({ activo: false, email_confirmed_at: null });
      expect((await accept(token)).status).toBe(400);
      expect((await account(email))!.email_confirmed_at).toBeNull();
      expect((await listData()).invitar.pendientes.map((p: { email: string }) => p.email)).not.toContain(email);
    } finally {
      await app.db.updateTable("usuarios").set({ aprobador_id: null }).where("id", "=", empleado.id).execute();
    }
  });

  it("reenviar o cancelar una invitación ya aceptada no hace nada (aviso)", async () => {
    const email = fresh("aceptada");
    await invite({ email });
    expect((await accept(tokenOf(invitationLink(email)))).status).toBe(302);
    const { id } = (await account(email))!;
    const before = await snapshot();
    for (const intent of ["reenviar", "cancelar"])
      expect((await post(admin.cookie, { intent, id: String(id) })).status).toBe(302);
    expect(await snapshot()).toEqual(before);
    expect(await account(email)).toMatchObject({ activo: true });
  });
});

describe("negativas: nada cambia", () => {
  it("quien no es administrador: ni formulario ni lista, 403 al forzar cada acción, nada escrito ni enviado", async () => {
    expect((await listData(empleado.cookie)).invitar).toBeNull();
    const email = fresh("forzada");
    await invite({ email });
    const { id } = (await account(email))!;
    const other = fresh("forzada2");
    const before = await snapshot();
    for (const form of <Record<string, string>[]>[
      { intent: "invitar", _envio: crypto.randomUUID(), nombre: "X", email: other, rol: "administrador" },
      { intent: "reenviar", id: String(id) },
      { intent: "cancelar", id: String(id) },
    ]) {
      expect((await post(empleado.cookie, form)).status, form.intent).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
    expect(mails(other)).toEqual([]);
    expect(mails(email)).toHaveLength(1);
    // Signed out: to the sign-in page.
    const anon = await post("", { intent: "invitar", nombre: "X", email: other, rol: "empleado" });
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toMatch(/^\/login/);
  });

  it("la base de datos es la segunda valla: el perfil se escribe como quien invita, y un no administrador no crea nada", async () => {
    const before = await snapshot();
    const email = fresh("valla");
    await expect(
      app.services.invitations!(app.services.storeFor({ userId: empleado.id })).create(empleado.id, {
        nombre: "X",
        apellidos: null,
        email,
        rol: "administrador",
        departamento_id: null,
        sucursal_id: null,
        aprobador_id: null,
      }),
    ).rejects.toThrow(/Solo un administrador/);
    expect(await snapshot()).toEqual(before);
    expect(await account(email)).toBeUndefined();
  });

  it("un correo con cuenta activa (o con invitación pendiente) se rechaza con un error en el campo", async () => {
    const before = await snapshot();
    const r = await invite({ email: empleado.email.toUpperCase() });
    expect(r.status).toBe(400);
    expect((await json(r)).result.error.email[0]).toMatch(/^Ya hay una cuenta con /);
    expect(await snapshot()).toEqual(before);
    expect(mails(empleado.email)).toEqual([]);

    const email = fresh("doble");
    await invite({ email });
    const after = await snapshot();
    const twice = await invite({ email });
    expect(twice.status).toBe(400);
    expect((await json(twice)).result.error.email[0]).toMatch(
      /^Ya hay una invitación pendiente para .*: reenvíela desde «Invitaciones pendientes»/,
    );
    expect(await snapshot()).toEqual(after);
    expect(mails(email)).toHaveLength(1);
  });

  it("datos no válidos: mensajes en español, nada creado, nada enviado, nunca un 500", async () => {
    const before = await snapshot();
    const cases: Record<string, string>[] = [
      { email: "no-es-un-correo" },
      { email: fresh("sin-nombre"), nombre: "" },
      { email: fresh("rol"), rol: "superusuario" },
      { email: fresh("dep"), departamento_id: "no-es-un-id" },
      { email: fresh("dep2"), departamento_id: crypto.randomUUID() },
      { email: fresh("nul"), nombre: "Ana\u0000" },
    ];
    for (const form of cases) {
      const r = await invite(form);
      expect(r.status, JSON.stringify(form)).toBe(400);
      expect(JSON.stringify(await json(r))).not.toMatch(/violates|constraint|syntax/i);
      expect(mails(form.email!)).toEqual([]);
    }
    expect(await snapshot()).toEqual(before);
    // Unknown intent: 400, nothing changed.
    expect((await post(admin.cookie, { intent: "otra" })).status).toBe(400);
    expect((await post(admin.cookie, { intent: "cancelar", id: "no-es-un-id" })).status).toBe(302);
    expect(await snapshot()).toEqual(before);
  });
});

describe("SIGNUP_MODE=invitacion", () => {
  it("es la única forma de entrar: «Crear cuenta» está cerrado y la invitación funciona", async () => {
    const closed = await createTestApp({ APP_URL, DATA_DIR, SIGNUP_MODE: "invitacion" });
    try {
      const boss = await closed.createUser({ nombre: "Jefa", rol: "administrador" });
      const context = { ...closed.context(), clientIp: "198.51.100.9" };
      const email = fresh("cerrada");
      const r = await respond(() =>
        usuariosRoute.action({
          request: request("/usuarios?index", {
            cookie: boss.cookie,
            form: { intent: "invitar", _envio: crypto.randomUUID(), nombre: "Nueva", email, rol: "empleado" },
          }),
          context,
          params: {},
        }),
      );
      expect(r.status).toBe(302);
      const token = tokenOf(invitationLink(email));
      const done = await respond(() =>
        invitacionRoute.action({
          request: request("/auth/invitacion", {
            form: {
              intent: "aceptar",
              token,
              password: "contraseña de la nueva",
              confirmacion: "contraseña de la nueva",
            },
          }),
          context,
          params: {},
        }),
      );
      expect(done.status).toBe(302);
      // A fresh context: the one above remembers the administrador who posted the invitation.
      expect(
        (await currentUser(request("/", { cookie: sessionCookieOf(done) }), closed.context()))?.user,
      ).toMatchObject({
        email,
        rol: "empleado",
      });
    } finally {
      await closed.close();
    }
  });
});

describe("las funciones de invitaciones que usa el backend de Supabase (por PostgREST, con el JWT del administrador)", () => {
  // The same database functions supabaseInvitations calls through PostgREST, called here through
  // the SQL adapter's rpc (role authenticated and the user's claims, as PostgREST does).
  const as = (id: string) => app.services.storeFor({ userId: id });

  it("estado, invitar (también sobre un alta sin confirmar sin perfil), pendientes, enviada; quien no es administrador no puede", async () => {
    const email = fresh("supa");
    expect(await as(admin.id).rpc("invitacion_estado", { p_email: empleado.email.toUpperCase() })).toBe("cuenta");
    expect(await as(admin.id).rpc("invitacion_estado", { p_email: email })).toBeNull();
    // What Supabase Auth leaves after a sign-up nobody confirmed: an account without a profile.
    const { id } = await app.db.insertInto("auth.users").values({ email }).returning("id").executeTakeFirstOrThrow();
    expect(await as(admin.id).rpc("invitacion_estado", { p_email: email })).toBeNull();
    const args = {
      p_email: email,
      p_nombre: "Sara",
      p_apellidos: "Gil",
      p_rol: "aprobador",
      p_departamento_id: dep,
      p_sucursal_id: null,
      p_aprobador_id: aprobador.id,
    };
    await expect(as(empleado.id).rpc("invitar", args)).rejects.toThrow(/Solo un administrador/);
    expect(await as(admin.id).rpc("invitar", args)).toEqual({ id });
    expect(await account(email)).toMatchObject({ rol: "aprobador", activo: true, email_confirmed_at: null });
    expect(await as(admin.id).rpc("invitar", args)).toEqual({ ocupado: "pendiente" });
    expect(await as(admin.id).rpc("invitacion_estado", { p_email: email })).toBe("pendiente");

    const list = await as(admin.id).rpc<{ id: string; email: string }[]>("invitaciones_pendientes", { p_limite: 200 });
    expect(list.find((p) => p.email === email)).toMatchObject({
      id,
      nombre_completo: "Sara Gil",
      rol: "aprobador",
      departamento_nombre: "Ventas",
      invitada_por_nombre: "Ana Admin",
    });
    expect(await as(admin.id).rpc("invitaciones_pendientes", { p_limite: 1, p_id: id })).toEqual([
      expect.objectContaining({ id, email }),
    ]);
    const sentBefore = await app.db
      .selectFrom("invitaciones")
      .select("enviada_en")
      .where("usuario_id", "=", id)
      .executeTakeFirstOrThrow();
    await as(admin.id).rpc("invitacion_enviada", { p_id: id });
    const sentAfter = await app.db
      .selectFrom("invitaciones")
      .select("enviada_en")
      .where("usuario_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(new Date(sentAfter.enviada_en).getTime()).toBeGreaterThan(new Date(sentBefore.enviada_en).getTime());

    for (const [fn, a] of [
      ["invitacion_estado", { p_email: email }],
      ["invitaciones_pendientes", { p_limite: 10 }],
      ["invitacion_enviada", { p_id: id }],
      ["cancelar_invitacion", { p_id: id }],
    ] as const)
      await expect(as(empleado.id).rpc(fn, a), fn).rejects.toThrow(/Solo un administrador/);
    // Confirming keeps the administrador's choice (the trigger does not touch an existing profile).
    await app.db
      .updateTable("auth.users")
      .set({ email_confirmed_at: sql`now()` })
      .where("id", "=", id)
      .execute();
    expect(await account(email)).toMatchObject({ rol: "aprobador" });
    expect(await as(admin.id).rpc("invitaciones_pendientes", { p_limite: 1, p_id: id })).toEqual([]);
    expect(await as(admin.id).rpc("cancelar_invitacion", { p_id: id })).toBeNull();
  });

  it("cancelar_invitacion: «eliminar» sin cambiar nada (la cuenta la borra Supabase Auth); si otros la mencionan, la desactiva", async () => {
    const email = fresh("supa-cancelar");
    await invite({ email });
    const { id } = (await account(email))!;
    const before = await snapshot();
    expect(await as(admin.id).rpc("cancelar_invitacion", { p_id: id })).toEqual({ email, resultado: "eliminar" });
    expect(await snapshot()).toEqual(before);

    await app.db.updateTable("usuarios").set({ aprobador_id: id }).where("id", "=", empleado.id).execute();
    try {
      expect(await as(admin.id).rpc("cancelar_invitacion", { p_id: id })).toEqual({ email, resultado: "desactivada" });
      expect(await account(email)).toMatchObject({ activo: false });
      expect(
        await app.db.selectFrom("invitaciones").select("usuario_id").where("usuario_id", "=", id).execute(),
      ).toEqual([]);
    } finally {
      await app.db.updateTable("usuarios").set({ aprobador_id: null }).where("id", "=", empleado.id).execute();
    }
  });
});

describe("Supabase (sin clave de servicio)", () => {
  it("sin servicio de invitaciones la pantalla lo explica y un POST forzado recibe 400 con la misma explicación, sin escribir nada", async () => {
    const context = { ...ctx(), services: { ...app.services, invitations: undefined } };
    const data = await json(
      await respond(() =>
        usuariosRoute.loader({ request: request("/usuarios", { cookie: admin.cookie }), context, params: {} }),
      ),
    );
    expect(data.invitar).toEqual({ disponible: false, pendientes: [] });
    const before = await snapshot();
    const email = fresh("supabase");
    const r = await respond(() =>
      usuariosRoute.action({
        request: request("/usuarios?index", {
          cookie: admin.cookie,
          form: { intent: "invitar", _envio: crypto.randomUUID(), nombre: "X", email, rol: "empleado" },
        }),
        context: { ...context, signed: undefined },
        params: {},
      }),
    );
    expect(r.status).toBe(400);
    expect((await json(r)).message).toMatch(
      /^En esta instalación las invitaciones se envían desde el panel de Supabase/,
    );
    expect(await snapshot()).toEqual(before);
    expect(mails(email)).toEqual([]);
  });
});
