import { createCookie } from "@remix-run/node";
import { createHash, randomBytes } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Mailer } from "./mail.server";
import { hashPassword, verifyPassword } from "./password.server";
import type { AuthBackend, AuthSession } from "./port";
import type { CurrentUser } from "./session.server";

/** The profile's columns a request needs (session.server.ts CurrentUser). */
const PROFILE = ["id", "nombre", "apellidos", "email", "rol", "departamento_id", "sucursal_id", "aprobador_id", "activo"] as const satisfies readonly (keyof CurrentUser)[];

const SESSION_DAYS = 7;
const CONFIRM_HOURS = 48;

/**
 * Accounts in our own Postgres: `auth.users` (the compat table shaped like Supabase's), sessions
 * in `auth.local_sessions` and confirmation tokens in `auth.local_tokens`. Only SHA-256 hashes of
 * tokens are stored, so a database leak does not hand out sessions.
 */
export function localAuth(options: {
  db: Kysely<any>;
  mail: Mailer;
  secrets: string[];
  secure: boolean;
}): AuthBackend {
  const { db, mail } = options;
  const cookie = createCookie("oficina_sesion", {
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure,
    path: "/",
    secrets: options.secrets,
    maxAge: SESSION_DAYS * 24 * 3600,
  });

  async function startSession(userId: string): Promise<Headers> {
    const token = randomBytes(32).toString("base64url");
    await db
      .insertInto("auth.local_sessions")
      .values({ token_hash: sha256(token), user_id: userId, expires_at: sql`now() + make_interval(days => ${SESSION_DAYS})` })
      .execute();
    await db.updateTable("auth.users").set({ last_sign_in_at: sql`now()` }).where("id", "=", userId).execute();
    return new Headers({ "Set-Cookie": await cookie.serialize(token) });
  }

  async function sendConfirmation(request: Request, userId: string, email: string) {
    const token = randomBytes(32).toString("base64url");
    await db
      .insertInto("auth.local_tokens")
      .values({ token_hash: sha256(token), user_id: userId, kind: "confirm", expires_at: sql`now() + make_interval(hours => ${CONFIRM_HOURS})` })
      .execute();
    const link = new URL(`/auth/confirm?token=${token}`, request.url).toString();
    await mail({
      to: email,
      subject: "Confirme su cuenta de Oficina",
      text: `Hola:\n\nPara activar su cuenta de Oficina abra este enlace y pulse «Confirmar mi cuenta»:\n${link}\n\nEl enlace caduca en ${CONFIRM_HOURS} horas. Si no ha creado una cuenta, ignore este mensaje.`,
    });
  }

  async function userByEmail(email: string) {
    return db
      .selectFrom("auth.users as u")
      .leftJoin("public.usuarios as p", "p.id", "u.id")
      .select(["u.id", "u.email", "u.encrypted_password", "u.email_confirmed_at", "p.activo"])
      .where("u.email", "=", email.trim().toLowerCase())
      .executeTakeFirst();
  }

  return {
    async getSession(request) {
      const token = await cookie.parse(request.headers.get("Cookie"));
      const headers = new Headers();
      if (typeof token !== "string") return { session: null, headers };
      // The session and its active profile in one statement (as the owner: the same row the
      // user sees of themself under RLS while active); an inactive or missing profile is left
      // to currentUser, which ends the sessions.
      const row = await db
        .selectFrom("auth.local_sessions as s")
        .leftJoin("public.usuarios as u", (join) => join.onRef("u.id", "=", "s.user_id").on("u.activo", "=", true))
        .select(["s.user_id", sql<CurrentUser | null>`case when u.id is not null then jsonb_build_object(${sql.raw(PROFILE.map((c) => `'${c}', u.${c}`).join(", "))}) end`.as("profile")])
        .where("s.token_hash", "=", sha256(token))
        .where("s.expires_at", ">", sql<Date>`now()`)
        .executeTakeFirst();
      if (!row) headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
      const session: AuthSession | null = row ? { userId: row.user_id, ...(row.profile ? { profile: row.profile } : {}) } : null;
      return { session, headers };
    },

    async signIn(_request, email, password) {
      const user = await userByEmail(email);
      const valid = await verifyPassword(password, user?.encrypted_password);
      if (!user || !valid) return { ok: false, reason: "credentials" };
      if (!user.email_confirmed_at) return { ok: false, reason: "unconfirmed" };
      // No profile (deleted) counts as inactive: the account alone grants nothing.
      if (user.activo !== true) return { ok: false, reason: "inactive" };
      return { ok: true, session: { userId: user.id }, headers: await startSession(user.id) };
    },

    async signUp(request, input) {
      const email = input.email.trim().toLowerCase();
      const existing = await userByEmail(email);
      if (existing) {
        // Same outcome as a new account, so sign-up cannot be used to learn who has one.
        if (!existing.email_confirmed_at) await sendConfirmation(request, existing.id, email);
        else
          await mail({
            to: email,
            subject: "Ya tiene una cuenta en Oficina",
            text: `Alguien intentó crear una cuenta con este correo, pero ya existe. Inicie sesión en ${new URL("/login", request.url)}.`,
          });
        return;
      }
      const user = await db
        .insertInto("auth.users")
        .values({
          email,
          encrypted_password: await hashPassword(input.password),
          raw_user_meta_data: JSON.stringify({ nombre: input.nombre }),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await sendConfirmation(request, user.id, email);
    },

    async resendConfirmation(request, email) {
      const user = await userByEmail(email);
      if (user && !user.email_confirmed_at) await sendConfirmation(request, user.id, user.email);
    },

    async confirm(_request, token) {
      const row = await db
        .updateTable("auth.local_tokens")
        .set({ used_at: sql`now()` })
        .where("token_hash", "=", sha256(token))
        .where("kind", "=", "confirm")
        .where("used_at", "is", null)
        .where("expires_at", ">", sql<Date>`now()`)
        .returning("user_id")
        .executeTakeFirst();
      if (!row) return { ok: false };
      await db
        .updateTable("auth.users")
        .set({ email_confirmed_at: sql`coalesce(email_confirmed_at, now())` })
        .where("id", "=", row.user_id)
        .execute();
      return { ok: true, headers: await startSession(row.user_id) };
    },

    async signOut(request) {
      const token = await cookie.parse(request.headers.get("Cookie"));
      if (typeof token === "string") await db.deleteFrom("auth.local_sessions").where("token_hash", "=", sha256(token)).execute();
      return new Headers({ "Set-Cookie": await cookie.serialize("", { maxAge: 0 }) });
    },

    async endSessionsOf(userId) {
      await db.deleteFrom("auth.local_sessions").where("user_id", "=", userId).execute();
    },
  };
}

function sha256(value: string) {
  return createHash("sha256").update(value).digest("hex");
}
