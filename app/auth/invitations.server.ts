import type { GoTrueAdminApi } from "@supabase/supabase-js";
import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "../data/database";
import { Forbidden, storeErrorFromPostgres, UUID, type Store } from "../data/store";
import { TOKEN_HOURS } from "./forms";
import type { Rol } from "./permissions";
import type { CurrentUser } from "./session.server";

/**
 * Invitations, ADR 0013: `sqlInvitations` for the local backend, `supabaseInvitations`
 * for Supabase with the service-role key. Both write the profile through the same database
 * function, public.invitar, as the inviting administrador.
 *
 * On the local backend: An invited person is an account in
 * auth.users without a confirmed email and without a password, its profile already carrying the
 * rol / departamento / sucursal / aprobador the administrador chose (written by public.invitar:
 * an unconfirmed account gets no profile from the auth.users trigger), plus a row in
 * public.invitaciones (who invited, when the last link left). It is pending while the account is
 * unconfirmed; the mailed link (auth.sendToken("invitacion")) confirms it.
 *
 * Account rows are written as the owner (only the server touches auth.*), with the inviting
 * administrador's id in the JWT claims so the profile's history names them; the profile's
 * fields are written as that administrador, under row-level security and the same triggers as
 * the edit form.
 */
/** The profile the administrador chose: the person's, less what the account brings. */
export type InvitationInput = Omit<CurrentUser, "id" | "activo">;

export type PendingInvitation = {
  id: string;
  email: string;
  nombre_completo: string | null;
  rol: Rol;
  departamento_nombre: string | null;
  sucursal_nombre: string | null;
  invitada_por_nombre: string | null;
  enviada_en: string;
  /** When the live link expires; null when there is none (expired): resend it. */
  caduca_en: string | null;
};

/** Why an email cannot be invited: it has an account, or a pending invitation already. */
export type Taken = "cuenta" | "pendiente";

export type Invitations = {
  /** How long the links this backend sends live (the screens and messages say it). */
  linkHours: number;
  taken(email: string): Promise<Taken | null>;
  create(adminId: string, input: InvitationInput): Promise<{ ok: true; id: string } | { ok: false; reason: Taken }>;
  /** The pending invitations (the newest first; at most `limit`). */
  pending(limit?: number): Promise<PendingInvitation[]>;
  /** A pending invitation's account, or null when it is not pending (accepted, cancelled, unknown). */
  get(id: string): Promise<{ id: string; email: string } | null>;
  /** Records that a link was sent now. */
  sent(id: string): Promise<void>;
  /**
   * Kills the links and removes the pending account; when other records already point to it
   * (chosen as someone's aprobador, a department's responsable…) it is deactivated instead.
   * Null when it was not pending.
   */
  cancel(adminId: string, id: string): Promise<{ email: string; result: "eliminada" | "desactivada" } | null>;
};

/** «7 días», «24 horas»: a link's life as the invitation screens say it. */
export function linkLife(hours: number): string {
  return hours >= 48 && hours % 24 === 0 ? `${hours / 24} días` : hours === 1 ? "1 hora" : `${hours} horas`;
}

/** What public.invitar answers: the new invitation's account, or why the address is taken. */
type Invited = { id?: string; ocupado?: Taken };

/** public.invitar's arguments: the administrador's choice, the same call on both backends. */
function invitarArgs(email: string, input: InvitationInput) {
  return {
    p_email: email,
    p_nombre: input.nombre,
    p_apellidos: input.apellidos,
    p_rol: input.rol,
    p_departamento_id: input.departamento_id,
    p_sucursal_id: input.sucursal_id,
    p_aprobador_id: input.aprobador_id,
  };
}

/** An address as both backends store it and look it up. */
const normal = (email: string) => email.trim().toLowerCase();

type Created = Awaited<ReturnType<Invitations["create"]>>;

/**
 * What both backends read and mark the same way: through the database's functions, with the
 * signed-in administrador's own store (the functions check that they are one). On Supabase these
 * calls go through PostgREST; here, through the SQL adapter, as that administrador.
 */
function enLaBase(store: Store) {
  const comunes = {
    async taken(email: string) {
      return (await store.rpc<Taken | null>("invitacion_estado", { p_email: normal(email) })) ?? null;
    },
    async get(id: string) {
      if (!UUID.test(id)) return null;
      const [row] = await store.rpc<{ id: string; email: string }[]>("invitaciones_pendientes", {
        p_limite: 1,
        p_id: id,
      });
      return row ? { id: String(row.id), email: String(row.email) } : null;
    },
    async sent(id: string) {
      await store.rpc("invitacion_enviada", { p_id: id });
    },
  };
  return {
    comunes,
    pendientes: (limit: number) =>
      store.rpc<Omit<PendingInvitation, "caduca_en">[]>("invitaciones_pendientes", { p_limite: limit }),
    /** `create` as both backends begin it: the address as stored, refused when it is taken; then `invite`. */
    siLibre:
      (invite: (adminId: string, email: string, input: InvitationInput) => Promise<Created>): Invitations["create"] =>
      async (adminId, input) => {
        const email = normal(input.email);
        const before = await comunes.taken(email);
        if (before) return { ok: false, reason: before };
        return invite(adminId, email, input);
      },
  };
}

/** An instant as the screens read it (ISO 8601): when a link left, when it expires. */
const instante = (valor: string | number | Date) => new Date(valor).toISOString();

/**
 * The local backend: the account rows and its own links are the server's (auth.*, as the owner);
 * everything else goes through the database's functions as the administrador (`store`).
 */
export function sqlInvitations(db: Kysely<Database>, store: Store): Invitations {
  async function invite(trx: Transaction<Database>, email: string, input: InvitationInput): Promise<Invited> {
    const a = invitarArgs(email, input);
    const { rows } = await sql<{ r: Invited }>`
      select public.invitar(${a.p_email}, ${a.p_nombre}, ${a.p_apellidos}, ${a.p_rol},
        ${a.p_departamento_id}::uuid, ${a.p_sucursal_id}::uuid, ${a.p_aprobador_id}::uuid) as r`.execute(trx);
    return rows[0]!.r;
  }

  /** In a transaction: auth.uid() is the administrador for the history triggers; the role stays the owner's. */
  const actAs = (trx: Transaction<Database>, adminId: string) =>
    sql`select set_config('request.jwt.claims', ${JSON.stringify({ sub: adminId, role: "authenticated", aud: "authenticated" })}, true)`.execute(
      trx,
    );

  const { comunes, pendientes, siLibre } = enLaBase(store);
  const invitations: Invitations = {
    ...comunes,
    // The local backend's own links (auth/local.server.ts).
    linkHours: TOKEN_HOURS.invitacion,

    create: siLibre(async (adminId, email, input) => {
      try {
        const result = await db.transaction().execute(async (trx) => {
          await actAs(trx, adminId);
          // Unconfirmed: no profile yet (interno.crear_perfil_usuario waits for the confirmation).
          await trx
            .insertInto("auth.users")
            .values({ email, raw_user_meta_data: JSON.stringify({ nombre: input.nombre }) })
            .execute();
          // From here on, as the administrador: public.invitar writes the profile and the
          // invitation, and RLS, column privileges and the profile's triggers (separation of
          // duties, own aprobador…) judge the choice as in the edit form. Same as on Supabase.
          await sql`select set_config('role', 'authenticated', true)`.execute(trx);
          return invite(trx, email, input);
        });
        if (result.ocupado) return { ok: false, reason: result.ocupado };
        const id = result.id!;
        return { ok: true, id };
      } catch (error) {
        if (error instanceof Forbidden) throw error;
        const e = error as { code?: string; constraint?: string };
        // Two administradores inviting the same address at once: the other one won.
        if (e.code === "23505" && /users_email/.test(e.constraint ?? ""))
          return { ok: false, reason: (await invitations.taken(email)) ?? "cuenta" };
        throw storeErrorFromPostgres(error as never) ?? error;
      }
    }),

    async pending(limit = 200) {
      const filas = await pendientes(limit);
      // When each live link expires: the local links are this server's own (auth.local_tokens).
      const vivos = filas.length
        ? await db
            .selectFrom("auth.local_tokens")
            .select(["user_id", (eb) => eb.fn.max("expires_at").as("caduca_en")])
            .where(
              "user_id",
              "in",
              filas.map((f) => f.id),
            )
            .where("kind", "=", "invitacion")
            .where("used_at", "is", null)
            .where("expires_at", ">", sql<string>`now()`)
            .groupBy("user_id")
            .execute()
        : [];
      const caduca = new Map(vivos.map((v) => [v.user_id, v.caduca_en]));
      return filas.map((r) => {
        const hasta = caduca.get(r.id);
        return { ...r, enviada_en: instante(r.enviada_en), caduca_en: hasta ? instante(hasta) : null };
      });
    },

    async cancel(adminId, id) {
      if (!UUID.test(id)) return null;
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom("public.invitaciones as i")
          .innerJoin("auth.users as u", "u.id", "i.usuario_id")
          .select(["u.id", "u.email", "u.email_confirmed_at", "u.last_sign_in_at"])
          .where("i.usuario_id", "=", id)
          .forUpdate()
          .executeTakeFirst();
        // Accepted in the meantime (or never signed in but confirmed): no longer an invitation.
        if (!row || row.email_confirmed_at || row.last_sign_in_at) return null;
        await actAs(trx, adminId);
        // Every link of the account dies first, whatever happens to the account.
        await trx
          .updateTable("auth.local_tokens")
          .set({ used_at: sql`now()` })
          .where("user_id", "=", id)
          .where("used_at", "is", null)
          .execute();
        await trx.deleteFrom("public.invitaciones").where("usuario_id", "=", id).execute();
        await sql`savepoint cancelar`.execute(trx);
        try {
          // The profile, its sessions and tokens go with the account (on delete cascade).
          await trx.deleteFrom("auth.users").where("id", "=", id).execute();
          return { email: String(row.email), result: "eliminada" as const };
        } catch (error) {
          if ((error as { code?: string }).code !== "23503") throw error;
          await sql`rollback to savepoint cancelar`.execute(trx);
          await trx.updateTable("public.usuarios").set({ activo: false }).where("id", "=", id).execute();
          await trx.deleteFrom("auth.local_sessions").where("user_id", "=", id).execute();
          return { email: String(row.email), result: "desactivada" as const };
        }
      });
    },
  };
  return invitations;
}

/**
 * Invitations on Supabase (ADR 0007, 0013), only where SUPABASE_SERVICE_ROLE_KEY is configured.
 * The service-role key is used for Supabase Auth's admin endpoints only (`admin`): creating the
 * unconfirmed account (POST /admin/users, no mail: auth.sendToken("invitacion") sends the
 * invitation, as on the local backend) and deleting it when an invitation is cancelled. Every
 * read and write of the profile and of public.invitaciones goes through PostgREST with the
 * administrador's own JWT (`store`): public.invitar and its siblings, under RLS and the
 * profile's triggers, exactly as on the local backend.
 */
export function supabaseInvitations(o: {
  admin: GoTrueAdminApi;
  /** The signed-in administrador's store. */
  store: Store;
  /** How long Supabase Auth's invitation links live (the project's «Email OTP Expiration»). */
  linkHours: number;
}): Invitations {
  const { admin, store } = o;

  /** Deletes an account Oficina created a moment ago and could not complete. */
  async function undo(userId: string) {
    const { error } = await admin.deleteUser(userId);
    if (error) console.warn(`Supabase Auth no eliminó una cuenta invitada a medias: ${error.code ?? error.status}`);
  }

  const { comunes, pendientes, siLibre } = enLaBase(store);
  const invitations: Invitations = {
    ...comunes,
    linkHours: o.linkHours,

    create: siLibre(async (_adminId, email, input) => {
      const { data, error } = await admin.createUser({
        email,
        email_confirm: false,
        user_metadata: { nombre: input.nombre },
      });
      // email_exists: an unconfirmed sign-up of that address (taken() let it through): the
      // invitation takes that account over; the link the person uses decides its password.
      if (error && error.code !== "email_exists")
        throw new Error(`Supabase Auth no creó la cuenta invitada: ${error.code ?? error.status ?? "sin código"}`);
      const created = error ? null : (data.user?.id ?? null);
      let result: Invited;
      try {
        result = await store.rpc<Invited>("invitar", invitarArgs(email, input));
      } catch (failure) {
        if (created) await undo(created);
        throw failure;
      }
      if (result.ocupado) {
        if (created) await undo(created);
        return { ok: false, reason: result.ocupado };
      }
      return { ok: true, id: String(result.id) };
    }),

    async pending(limit = 200) {
      return (await pendientes(limit)).map((r) => {
        // Supabase Auth does not say when a link expires: the last one left at enviada_en.
        const expires = new Date(r.enviada_en).getTime() + o.linkHours * 3_600_000;
        return {
          ...r,
          enviada_en: instante(r.enviada_en),
          caduca_en: expires > Date.now() ? instante(expires) : null,
        };
      });
    },

    async cancel(_adminId, id) {
      if (!UUID.test(id)) return null;
      const answer = await store.rpc<{ email: string; resultado: "eliminar" | "desactivada" } | null>(
        "cancelar_invitacion",
        { p_id: id },
      );
      if (!answer) return null;
      if (answer.resultado === "desactivada") return { email: answer.email, result: "desactivada" };
      // Deleting the account kills its link; the profile and the invitation go with it (cascade).
      const { error } = await admin.deleteUser(id);
      if (error)
        throw new Error(`Supabase Auth no eliminó la cuenta invitada: ${error.code ?? error.status ?? "sin código"}`);
      return { email: answer.email, result: "eliminada" };
    },
  };
  return invitations;
}
