import { createCookie } from "@remix-run/node";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Database } from "../data/database";
import { sweeper } from "../data/sweep.server";
import type { Mailer } from "./mail.server";
import { TOKEN_HOURS } from "./forms";
import { hashPassword, verifyPassword } from "./password.server";
import type { AuthBackend, AuthSession, TokenFailure } from "./port";
import type { CurrentUser } from "./session.server";

/** The profile's columns a request needs (session.server.ts CurrentUser). */
const PROFILE = [
  "id",
  "nombre",
  "apellidos",
  "email",
  "rol",
  "departamento_id",
  "sucursal_id",
  "aprobador_id",
  "activo",
  "alta_propia",
] as const satisfies readonly (keyof CurrentUser)[];

const SESSION_DAYS = 7;
type Kind = keyof typeof TOKEN_HOURS;
const LANDING: Record<Kind, string> = {
  confirm: "/auth/confirm",
  recuperar: "/auth/recuperar",
  invitacion: "/auth/invitacion",
};

/**
 * Accounts in our own Postgres: `auth.users` (the compat table shaped like Supabase's), sessions
 * in `auth.local_sessions` and mailed tokens in `auth.local_tokens`. Only SHA-256 hashes of
 * tokens are stored, so a database leak does not hand out sessions or links.
 *
 * A sign-up is only a pending token carrying its own credentials until its link is used: no
 * account, no profile (so no «first account», no name) exists before someone proves the inbox.
 */
export function localAuth(options: {
  db: Kysely<Database>;
  mail: Mailer;
  secrets: string[];
  secure: boolean;
  /** The public origin every mailed link is built from (never the request's Host). */
  appUrl: string;
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
  const link = (path: string, token: string) => {
    const url = new URL(path, options.appUrl);
    url.searchParams.set("token", token);
    return url.toString();
  };
  /**
   * Mails leave without the answer waiting for them: how long an SMTP server takes must not tell
   * whether a mail was sent (the account exists) or not. The dev outbox writes synchronously.
   */
  const send = (m: Parameters<Mailer>[0]) => {
    mail(m).catch((error) =>
      console.error(`[correo] No se pudo enviar «${m.subject}» a ${m.to}: ${(error as Error).message}`),
    );
  };

  async function startSession(userId: string, conn: Kysely<Database> = db): Promise<Headers> {
    const token = randomBytes(32).toString("base64url");
    await conn
      .insertInto("auth.local_sessions")
      .values({
        token_hash: sha256(token),
        user_id: userId,
        expires_at: sql`now() + make_interval(days => ${SESSION_DAYS})`,
      })
      .execute();
    await conn
      .updateTable("auth.users")
      .set({ last_sign_in_at: sql`now()` })
      .where("id", "=", userId)
      .execute();
    return new Headers({ "Set-Cookie": await cookie.serialize(token) });
  }

  // Dead tokens are kept a week (to tell «ya se usó» from «no válido»), then go.
  const sweepTokens = sweeper(
    db,
    sql`delete from auth.local_tokens where coalesce(used_at, expires_at) < now() - interval '7 days'`,
  );

  /** Kills the live tokens of `kind` sent to `email` or to the account `userId`. */
  function killLive(conn: typeof db, kind: Kind, owner: { email?: string | null; userId?: string | null }) {
    return conn
      .updateTable("auth.local_tokens")
      .set({ used_at: sql`now()` })
      .where("kind", "=", kind)
      .where("used_at", "is", null)
      .where((eb) =>
        eb.or([
          ...(owner.email ? [eb(sql`lower(email)`, "=", owner.email.toLowerCase())] : []),
          ...(owner.userId ? [eb("user_id", "=", owner.userId)] : []),
        ]),
      );
  }

  /**
   * Kills every live mailed link that could still set this account's password (reset,
   * invitation, and a pending sign-up's confirmation). Every path that sets a password calls it:
   * a link mailed before the change must not undo it.
   */
  function killPasswordLinks(conn: typeof db, owner: { userId: string; email?: string | null }) {
    return conn
      .updateTable("auth.local_tokens")
      .set({ used_at: sql`now()` })
      .where("used_at", "is", null)
      .where((eb) =>
        eb.or([
          eb("user_id", "=", owner.userId),
          ...(owner.email ? [eb(sql`lower(email)`, "=", owner.email.toLowerCase())] : []),
        ]),
      )
      .execute();
  }

  /**
   * A new token of `kind`; every earlier live one of the same kind for that account (or pending
   * sign-up's email) dies in the same transaction.
   */
  async function issue(
    kind: Kind,
    target: { userId?: string | null; email: string; passwordHash?: string | null; nombre?: string | null },
  ) {
    await sweepTokens();
    const token = randomBytes(32).toString("base64url");
    const email = target.email.trim().toLowerCase();
    await db.transaction().execute(async (trx) => {
      await killLive(trx, kind, { email, userId: target.userId }).execute();
      await trx
        .insertInto("auth.local_tokens")
        .values({
          token_hash: sha256(token),
          user_id: target.userId ?? null,
          email,
          password_hash: target.passwordHash ?? null,
          nombre: target.nombre ?? null,
          kind,
          expires_at: sql`now() + make_interval(hours => ${TOKEN_HOURS[kind]})`,
        })
        .execute();
    });
    return token;
  }

  /**
   * What `issue` costs, without a token: the same sibling update in a transaction that commits
   * like a write (txid_current() gives it an id, so its commit is flushed too). The path where no
   * mail goes out then takes as long as the path where one does.
   */
  async function decoy(kind: Kind, email: string) {
    await db.transaction().execute(async (trx) => {
      await killLive(trx, kind, { email: email.trim() })
        .where(sql<boolean>`false`)
        .execute();
      await sql`select txid_current()`.execute(trx);
    });
  }

  // No text typed by whoever asked goes into the mail (a sign-up's name would let anyone write
  // to any inbox in our name).
  function mailFor(kind: Kind, email: string, token: string) {
    const url = link(LANDING[kind], token);
    const hours = TOKEN_HOURS[kind];
    const lasts =
      hours === 1
        ? "1 hora"
        : hours % 24 === 0
          ? `${hours / 24 === 1 ? "24 horas" : `${hours / 24} días`}`
          : `${hours} horas`;
    const texts: Record<Kind, { subject: string; text: string }> = {
      confirm: {
        subject: "Confirme su cuenta de Oficina",
        text: `Hola:\n\nAlguien ha pedido una cuenta de Oficina para este correo. Si ha sido usted, abra este enlace y pulse «Confirmar mi cuenta»; entrará con la contraseña que eligió en ese alta:\n${url}\n\nEl enlace caduca en ${lasts} y solo sirve una vez; si pide otro, este deja de servir. Si no ha creado una cuenta, ignore este mensaje.`,
      },
      recuperar: {
        subject: "Restablezca su contraseña de Oficina",
        text: `Hola:\n\nPara elegir una contraseña nueva abra este enlace:\n${url}\n\nEl enlace caduca en ${lasts} y solo sirve una vez. Si no lo ha pedido usted, ignore este mensaje: su contraseña no cambia.`,
      },
      invitacion: {
        subject: "Le han invitado a Oficina",
        text: `Hola:\n\nUn administrador le ha invitado a Oficina. Para elegir su contraseña y entrar abra este enlace:\n${url}\n\nEl enlace caduca en ${lasts} y solo sirve una vez.`,
      },
    };
    send({ to: email, ...texts[kind] });
  }

  async function userByEmail(email: string) {
    return db
      .selectFrom("auth.users as u")
      .leftJoin("public.usuarios as p", "p.id", "u.id")
      .select(["u.id", "u.email", "u.encrypted_password", "u.email_confirmed_at", "p.activo"])
      .where("u.email", "=", email.trim().toLowerCase())
      .$narrowType<{ email: string }>() // it was found by its email
      .executeTakeFirst();
  }

  /**
   * A token row as it is, to tell why it cannot be used. Looked up by the SHA-256 of the token
   * (nobody chooses what that index compares), then the hash compared in constant time.
   */
  async function tokenRow(token: string, kind: Kind) {
    const hash = sha256(token);
    const row = await db
      .selectFrom("auth.local_tokens")
      .select([
        "token_hash",
        "user_id",
        "email",
        "password_hash",
        "nombre",
        "used_at",
        sql<boolean>`expires_at <= now()`.as("expired"),
      ])
      .where("token_hash", "=", hash)
      .where("kind", "=", kind)
      .executeTakeFirst();
    if (!row || !timingSafeEqual(Buffer.from(row.token_hash, "hex"), Buffer.from(hash, "hex"))) return undefined;
    return row;
  }
  const failure = (row: { used_at: unknown; expired: boolean } | undefined): TokenFailure =>
    !row ? "no_valido" : row.used_at ? "usado" : row.expired ? "caducado" : "no_valido";

  /** Uses a live token up (once, even under concurrent requests) and kills its siblings. */
  async function consume(trx: Kysely<Database>, token: string, kind: Kind) {
    const row = await trx
      .updateTable("auth.local_tokens")
      .set({ used_at: sql`now()` })
      .where("token_hash", "=", sha256(token))
      .where("kind", "=", kind)
      .where("used_at", "is", null)
      .where("expires_at", ">", sql<string>`now()`)
      .returning(["user_id", "email", "password_hash", "nombre"])
      .executeTakeFirst();
    if (!row) return undefined;
    await killLive(trx, kind, { email: row.email, userId: row.user_id }).execute();
    return row as { user_id: string | null; email: string | null; password_hash: string | null; nombre: string | null };
  }

  async function sessionUser(request: Request) {
    const token = await cookie.parse(request.headers.get("Cookie"));
    if (typeof token !== "string") return null;
    const row = await db
      .selectFrom("auth.local_sessions as s")
      .innerJoin("auth.users as u", "u.id", "s.user_id")
      .select(["u.id", "u.email", "u.encrypted_password", "s.token_hash"])
      .where("s.token_hash", "=", sha256(token))
      .where("s.expires_at", ">", sql<string>`now()`)
      .executeTakeFirst();
    return row ?? null;
  }

  return {
    async getSession(request) {
      const token = await cookie.parse(request.headers.get("Cookie"));
      const headers = new Headers();
      if (typeof token !== "string") return { session: null, headers };
      // The session and its active profile in one statement (as the owner: the same row the
      // user sees of themself under RLS while active), with the header's unread avisos count;
      // an inactive or missing profile is left to currentUser, which ends the sessions. Prepared
      // on each connection (statements.server.ts).
      const { rows } = await sql<{ user_id: string; profile: CurrentUser | null }>`select s.user_id,
          case when u.id is not null then jsonb_build_object(${sql.raw(PROFILE.map((c) => `'${c}', u.${c}`).join(", "))},
            'avisos_sin_leer', (select count(*) from public.avisos a where a.destinatario_id = u.id and a.leido_en is null)) end as profile
           from auth.local_sessions s left join public.usuarios u on u.id = s.user_id and u.activo
          where s.token_hash = ${sha256(token)} and s.expires_at > now()`.execute(db);
      const row = rows[0];
      if (!row) headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
      const session: AuthSession | null = row
        ? { userId: row.user_id, ...(row.profile ? { profile: row.profile } : {}) }
        : null;
      return { session, headers };
    },

    async signIn(_request, email, password) {
      const user = await userByEmail(email);
      if (!user) {
        // A pending sign-up: its own password says «confirm your email first»; one scrypt
        // either way (against the dummy hash when there is nothing), so timing tells nothing.
        const pending = await db
          .selectFrom("auth.local_tokens")
          .select("password_hash")
          .where("kind", "=", "confirm")
          .where("used_at", "is", null)
          .where("expires_at", ">", sql<string>`now()`)
          .where(sql`lower(email)`, "=", email.trim().toLowerCase())
          .orderBy("created_at", "desc")
          .limit(1)
          .executeTakeFirst();
        const matches = await verifyPassword(password, pending?.password_hash);
        return { ok: false, reason: matches ? "unconfirmed" : "credentials" };
      }
      const valid = await verifyPassword(password, user.encrypted_password);
      if (!valid) return { ok: false, reason: "credentials" };
      if (!user.email_confirmed_at) return { ok: false, reason: "unconfirmed" };
      // No profile (deleted) counts as inactive: the account alone grants nothing.
      if (user.activo !== true) return { ok: false, reason: "inactive" };
      return { ok: true, session: { userId: user.id }, headers: await startSession(user.id) };
    },

    async signUp(_request, input) {
      const email = input.email.trim().toLowerCase();
      // Hashed on every path: the time taken must not tell a taken email from a free one.
      const passwordHash = await hashPassword(input.password);
      const existing = await userByEmail(email);
      if (existing?.email_confirmed_at) {
        // Same outcome (and the same database work) as a new sign-up, without touching the account.
        await decoy("confirm", email);
        send({
          to: email,
          subject: "Ya tiene una cuenta en Oficina",
          text: `Alguien intentó crear una cuenta con este correo, pero ya existe. Inicie sesión en ${new URL("/login", options.appUrl)}. Si no recuerda la contraseña, pulse allí «¿Ha olvidado su contraseña?».`,
        });
        return;
      }
      // A pending sign-up (or an unconfirmed account from before): this one replaces it. Its
      // credentials travel with its token and reach auth.users only when its link is used.
      const token = await issue("confirm", { userId: existing?.id ?? null, email, passwordHash, nombre: input.nombre });
      mailFor("confirm", email, token);
    },

    async resendConfirmation(_request, email) {
      const normal = email.trim().toLowerCase();
      const [user, pending] = await Promise.all([
        userByEmail(normal),
        db
          .selectFrom("auth.local_tokens")
          .select(["user_id", "password_hash", "nombre"])
          .where("kind", "=", "confirm")
          .where(sql`lower(email)`, "=", normal)
          .orderBy("created_at", "desc")
          .limit(1)
          .executeTakeFirst(),
      ]);
      if (user?.email_confirmed_at || (!user && !pending?.password_hash)) return decoy("confirm", normal);
      // The latest sign-up's credentials again (a resend is not a new sign-up).
      const token = await issue("confirm", {
        userId: user?.id ?? pending?.user_id ?? null,
        email: normal,
        passwordHash: pending?.password_hash ?? null,
        nombre: pending?.nombre ?? null,
      });
      mailFor("confirm", normal, token);
    },

    async confirm(_request, token) {
      const row = await tokenRow(token, "confirm");
      if (!row) return { ok: false, reason: "no_valido" };
      const email =
        row.email ??
        (row.user_id
          ? (await db.selectFrom("auth.users").select("email").where("id", "=", row.user_id).executeTakeFirst())?.email
          : null);
      const account = email ? await userByEmail(email) : undefined;
      if (account?.email_confirmed_at) return { ok: false, reason: "ya_confirmada" };
      if (row.used_at || row.expired) return { ok: false, reason: failure(row) };
      try {
        const userId = await db.transaction().execute(async (trx) => {
          const used = await consume(trx, token, "confirm");
          if (!used) return null;
          const nombre = used.nombre?.trim() || null;
          const existing = await trx
            .selectFrom("auth.users")
            .select(["id", "email_confirmed_at"])
            .where("email", "=", email!)
            .forUpdate()
            .executeTakeFirst();
          if (existing?.email_confirmed_at) return "ya_confirmada" as const;
          if (existing) {
            // An unconfirmed account (an invitation, or from before pending sign-ups): the
            // credentials of THIS link's sign-up win; its owner has just proved the inbox.
            await trx
              .updateTable("auth.users")
              .set({
                email_confirmed_at: sql`now()`,
                ...(used.password_hash ? { encrypted_password: used.password_hash } : {}),
                ...(nombre
                  ? {
                      raw_user_meta_data: sql`coalesce(raw_user_meta_data, '{}'::jsonb) || jsonb_build_object('nombre', ${nombre}::text)`,
                    }
                  : {}),
              })
              .where("id", "=", existing.id)
              .execute();
            // An invitation (or reset) link of this account must not set another password now.
            await killPasswordLinks(trx, { userId: existing.id, email });
            if (nombre)
              await trx
                .updateTable("public.usuarios")
                .set({ nombre: nombre.slice(0, 80) })
                .where("id", "=", existing.id)
                .execute();
            await trx.deleteFrom("auth.local_sessions").where("user_id", "=", existing.id).execute();
            return existing.id as string;
          }
          // The account (and, by its trigger, the profile) is born confirmed.
          const created = await trx
            .insertInto("auth.users")
            .values({
              email,
              encrypted_password: used.password_hash,
              email_confirmed_at: sql`now()`,
              raw_user_meta_data: JSON.stringify({ nombre: nombre ?? "" }),
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          return created.id as string;
        });
        if (userId === "ya_confirmada") return { ok: false, reason: "ya_confirmada" };
        if (!userId) return { ok: false, reason: failure(await tokenRow(token, "confirm")) };
        return { ok: true, headers: await startSession(userId) };
      } catch (error) {
        // Two links of one address used at the same instant: the other one created the account.
        if ((error as { code?: string }).code === "23505") return { ok: false, reason: "ya_confirmada" };
        throw error;
      }
    },

    async sendToken(purpose, email) {
      const user = await userByEmail(email);
      // A deactivated account gets nothing: its password would open nothing.
      const eligible = user && user.activo === true && (purpose === "recuperar" || !user.email_confirmed_at);
      if (!eligible) {
        await decoy(purpose, email);
        return;
      }
      const token = await issue(purpose, { userId: user.id, email: user.email });
      mailFor(purpose, user.email, token);
    },

    async checkToken(token, purpose) {
      const row = await tokenRow(token, purpose);
      return row && !row.used_at && !row.expired ? { ok: true } : { ok: false, reason: failure(row) };
    },

    async setPasswordWithToken(_request, token, purpose, password) {
      // The token first: a link that cannot work costs a lookup, not a scrypt (anyone may post).
      const found = await tokenRow(token, purpose);
      if (!found?.user_id || found.used_at || found.expired) return { ok: false, reason: failure(found) };
      const passwordHash = await hashPassword(password);
      const result = await db.transaction().execute(async (trx) => {
        const used = await consume(trx, token, purpose);
        if (!used?.user_id) return null;
        await killPasswordLinks(trx, { userId: used.user_id, email: used.email });
        const user = await trx
          .updateTable("auth.users")
          .set({ encrypted_password: passwordHash, email_confirmed_at: sql`coalesce(email_confirmed_at, now())` })
          .where("id", "=", used.user_id)
          .returning(["id", "email"])
          .executeTakeFirst();
        if (!user) return null;
        // A new password ends every session of the account (one may be the intruder's).
        await trx.deleteFrom("auth.local_sessions").where("user_id", "=", user.id).execute();
        const profile = await trx
          .selectFrom("public.usuarios")
          .select("activo")
          .where("id", "=", user.id)
          .executeTakeFirst();
        return { id: user.id as string, email: user.email as string, active: profile?.activo === true };
      });
      if (!result) return { ok: false, reason: failure(await tokenRow(token, purpose)) };
      if (!result.active) return { ok: false, reason: "inactivo" };
      return { ok: true, email: result.email, headers: await startSession(result.id) };
    },

    async changePassword(request, current, next) {
      const user = await sessionUser(request);
      const valid = await verifyPassword(current, user?.encrypted_password);
      if (!user || !valid) return { ok: false, reason: "credentials" };
      const passwordHash = await hashPassword(next);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("auth.users")
          .set({ encrypted_password: passwordHash })
          .where("id", "=", user.id)
          .execute();
        await killPasswordLinks(trx, { userId: user.id, email: user.email });
        // Every other session ends; this one stays.
        await trx
          .deleteFrom("auth.local_sessions")
          .where("user_id", "=", user.id)
          .where("token_hash", "<>", user.token_hash)
          .execute();
      });
      return { ok: true, headers: new Headers() };
    },

    async signOut(request) {
      const token = await cookie.parse(request.headers.get("Cookie"));
      if (typeof token === "string")
        await db.deleteFrom("auth.local_sessions").where("token_hash", "=", sha256(token)).execute();
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
