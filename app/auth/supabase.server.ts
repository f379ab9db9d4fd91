import { createServerClient, parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import {
  createClient,
  isAuthApiError,
  isAuthRetryableFetchError,
  type GoTrueAdminApi,
  type SupabaseClient,
} from "@supabase/supabase-js";
import { NoRealtime, toStoreError, userClient, type SupabaseConnection } from "../data/supabase.server";
import type { AuthBackend, AuthSession, TokenFailure } from "./port";

/**
 * Accounts through Supabase Auth (GoTrue), with the session in cookies written by @supabase/ssr
 * (`createServerClient` with `getAll`/`setAll`, as in Supabase's server-side auth guide).
 *
 * - Who is asking is always decided by `auth.getUser()`, which asks Supabase Auth to validate the
 *   JWT; `getSession()` (cookie contents, unverified) is only read afterwards, for the token.
 * - Every cookie @supabase/ssr writes (sign-in, refreshed tokens, sign-out) is collected as a
 *   `Set-Cookie` header in the `headers` this adapter returns, so it reaches the browser.
 * - Cookies are HttpOnly, SameSite=Lax, Secure in production: no browser code reads them.
 * - The service-role key is used only where SUPABASE_SERVICE_ROLE_KEY is configured, and only
 *   for Supabase Auth's admin endpoints (`supabaseAdmin`): sending invitations. Nothing else in
 *   the port needs it (see endSessionsOf).
 */
export const AUTH_COOKIE = "sb-oficina-auth-token";

export type SupabaseAuthOptions = SupabaseConnection & {
  secure: boolean;
  /** Public origin (APP_URL): every link Supabase mails points here, never to the request's Host. */
  siteUrl: string;
  /** Supabase Auth's admin API (service-role key), where configured: invitations need it. */
  admin?: GoTrueAdminApi;
};

/**
 * Supabase Auth's admin API with the service-role key. Server-only: the key goes as `apikey` and
 * bearer to /auth/v1/admin/* and /auth/v1/invite and nowhere else (never to PostgREST, never to
 * a browser or a log).
 */
export function supabaseAdmin(conn: SupabaseConnection, serviceRoleKey: string): GoTrueAdminApi {
  return createClient(conn.url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as never },
    global: conn.fetch ? { fetch: conn.fetch } : {},
  }).auth.admin;
}

/** The email OTP types a confirmation link may carry (`type=` in the link). */
const CONFIRM_TYPES = new Set(["email", "signup"]);
const MAX_REMEMBERED = 10_000;

export function supabaseAuth(options: SupabaseAuthOptions): AuthBackend {
  const conn: SupabaseConnection = { url: options.url, anonKey: options.anonKey, fetch: options.fetch };
  /** A client without a session of its own: only for POST /logout with a given user's JWT. */
  const plain: SupabaseClient = createClient(options.url, options.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as never },
    global: options.fetch ? { fetch: options.fetch } : {},
  });

  /**
   * The last valid access token seen for each user, until it expires: ending a user's sessions
   * in Supabase Auth needs a JWT of theirs (POST /logout?scope=global), there is no endpoint to
   * do it by user id, not even with the service-role key.
   */
  const recent = new Map<string, { token: string; expiresAt: number }>();
  function remember(userId: string, token: string, expiresAt?: number) {
    recent.delete(userId);
    recent.set(userId, { token, expiresAt: (expiresAt ?? Date.now() / 1000 + 300) * 1000 });
    if (recent.size > MAX_REMEMBERED) recent.delete(recent.keys().next().value!);
  }

  function serverClient(request: Request, headers: Headers): SupabaseClient {
    return createServerClient(options.url, options.anonKey, {
      cookies: {
        getAll: () =>
          parseCookieHeader(request.headers.get("Cookie") ?? "").map(({ name, value }) => ({
            name,
            value: value ?? "",
          })),
        setAll: (cookies, cacheHeaders) => {
          for (const { name, value, options: o } of cookies) {
            // The library may write the same removal once per auth event: send each line once.
            const line = serializeCookieHeader(name, value, o);
            if (!headers.getSetCookie().includes(line)) headers.append("Set-Cookie", line);
          }
          // Cache-Control: private, no-store… so no shared cache keeps a response that sets a session.
          for (const [key, value] of Object.entries(cacheHeaders ?? {})) headers.set(key, value);
        },
      },
      cookieOptions: { name: AUTH_COOKIE, httpOnly: true, sameSite: "lax", secure: options.secure, path: "/" },
      realtime: { transport: NoRealtime as never },
      global: options.fetch ? { fetch: options.fetch } : {},
    });
  }

  function confirmUrl(_request?: Request) {
    return new URL("/auth/confirm", options.siteUrl).toString();
  }

  /** GoTrue's answer to a used or expired link, in the port's terms. */
  function tokenFailure(error: { code?: string; status?: number } | null): TokenFailure {
    return error?.code === "otp_expired" ? "caducado" : "no_valido";
  }

  /** The profile must be active; read under the user's own JWT (an inactive user sees no rows). */
  async function profileActive(accessToken: string, userId: string): Promise<boolean> {
    const { data, error, status } = await userClient(conn, accessToken)
      .from("usuarios")
      .select("id,activo")
      .eq("id", userId)
      .maybeSingle();
    if (error) throw toStoreError(error, status);
    return (data as { activo?: boolean } | null)?.activo === true;
  }

  /** Refuses to go on when Supabase Auth cannot be reached: that is an outage, not a wrong password. */
  function unreachable(error: unknown): never {
    throw new Error(`Supabase Auth no responde: ${(error as Error).message ?? "error de red"}`);
  }

  /**
   * POST /logout?scope=others: revokes every refresh token of the user but this session's. Access
   * tokens already issued stay valid until they expire (GoTrue cannot recall a JWT).
   */
  async function endOthers(supabase: SupabaseClient) {
    const { error } = await supabase.auth.signOut({ scope: "others" });
    if (error && !isAuthApiError(error)) console.warn(`Supabase Auth no cerró las otras sesiones: ${error.message}`);
  }

  /**
   * POST /invite (service-role key) for an account that exists and is unconfirmed: Supabase Auth
   * mails a new link (the previous one dies) to /auth/invitacion. The account and its profile are
   * created beforehand (invitations.server.ts), as on the local backend.
   */
  async function invite(email: string) {
    if (!options.admin)
      // Inviting someone needs the service-role key; without it the Supabase dashboard does it.
      throw new Error(
        "Con Supabase, las invitaciones se envían desde el panel de Supabase si el servidor no tiene la clave service-role",
      );
    const { error } = await options.admin.inviteUserByEmail(email, {
      redirectTo: new URL("/auth/invitacion", options.siteUrl).toString(),
    });
    if (isAuthRetryableFetchError(error)) unreachable(error);
    // Accepted in the meantime (or signed up and confirmed): nothing to send, as on the local backend.
    if (error?.code === "email_exists") return;
    // An administrador is waiting for this mail: a refusal (e.g. the project's mail rate limit) is an error.
    if (error) throw new Error(`Supabase Auth no envió la invitación: ${error.code ?? error.status ?? "sin código"}`);
  }

  return {
    async getSession(request) {
      const headers = new Headers();
      if (!authCookieNames(request).length) return { session: null, headers };
      const supabase = serverClient(request, headers);
      const { data, error } = await supabase.auth.getUser();
      if (error || !data.user) {
        if (isAuthRetryableFetchError(error)) unreachable(error);
        clearAuthCookies(request, headers, options.secure);
        return { session: null, headers };
      }
      // After getUser() validated it (and refreshed it if it had expired): the token to send on.
      const { data: current } = await supabase.auth.getSession();
      const token = current.session?.access_token;
      if (!token) return { session: null, headers };
      remember(data.user.id, token, current.session?.expires_at);
      const session: AuthSession = { userId: data.user.id, accessToken: token };
      return { session, headers };
    },

    async signIn(request, email, password) {
      const headers = new Headers();
      const supabase = serverClient(request, headers);
      const { data, error } = await supabase.auth.signInWithPassword({ email: email.trim().toLowerCase(), password });
      if (error || !data.session || !data.user) {
        if (isAuthRetryableFetchError(error)) unreachable(error);
        if (error?.code === "email_not_confirmed") return { ok: false, reason: "unconfirmed" };
        return { ok: false, reason: "credentials" };
      }
      const { access_token: token, expires_at: expiresAt } = data.session;
      if (!(await profileActive(token, data.user.id))) {
        // End the session just opened; its cookies (in `headers`) never leave this function.
        await supabase.auth.signOut({ scope: "local" });
        return { ok: false, reason: "inactive" };
      }
      remember(data.user.id, token, expiresAt);
      return { ok: true, session: { userId: data.user.id, accessToken: token }, headers };
    },

    async signUp(request, input) {
      const supabase = serverClient(request, new Headers());
      const { error } = await supabase.auth.signUp({
        email: input.email.trim().toLowerCase(),
        password: input.password,
        options: { emailRedirectTo: confirmUrl(request), data: { nombre: input.nombre } },
      });
      if (isAuthRetryableFetchError(error)) unreachable(error);
      // Same outcome whatever happened (a taken email must not show): the reason goes to the log.
      if (error) console.warn(`Supabase Auth rechazó un alta: ${error.code ?? error.status ?? "sin código"}`);
    },

    async resendConfirmation(request, email) {
      const supabase = serverClient(request, new Headers());
      const { error } = await supabase.auth.resend({
        type: "signup",
        email: email.trim().toLowerCase(),
        options: { emailRedirectTo: confirmUrl(request) },
      });
      if (isAuthRetryableFetchError(error)) unreachable(error);
      if (error)
        console.warn(`Supabase Auth no reenvió la confirmación: ${error.code ?? error.status ?? "sin código"}`);
    },

    async confirm(request, token, type = "email") {
      if (!CONFIRM_TYPES.has(type)) return { ok: false, reason: "no_valido" };
      const headers = new Headers();
      const supabase = serverClient(request, headers);
      const { data, error } = await supabase.auth.verifyOtp({ token_hash: token, type: type as "email" | "signup" });
      if (error || !data.session || !data.user) {
        if (isAuthRetryableFetchError(error)) unreachable(error);
        // GoTrue does not tell a used link from one that never existed: both are «no válido».
        return { ok: false, reason: tokenFailure(error) };
      }
      if (!(await profileActive(data.session.access_token, data.user.id))) {
        await supabase.auth.signOut({ scope: "local" });
        return { ok: false, reason: "no_valido" };
      }
      remember(data.user.id, data.session.access_token, data.session.expires_at);
      return { ok: true, headers };
    },

    async sendToken(purpose, email) {
      if (purpose === "invitacion") return invite(email.trim().toLowerCase());
      const { error } = await plain.auth.resetPasswordForEmail(email.trim().toLowerCase(), {
        redirectTo: new URL("/auth/recuperar", options.siteUrl).toString(),
      });
      if (isAuthRetryableFetchError(error)) unreachable(error);
      // Same outcome whatever happened (an unknown email must not show): the reason goes to the log.
      if (error)
        console.warn(`Supabase Auth no envió el correo de recuperación: ${error.code ?? error.status ?? "sin código"}`);
    },

    async checkToken() {
      // verifyOtp is the only check GoTrue offers, and it uses the token up.
      return null;
    },

    async setPasswordWithToken(request, token, purpose, password) {
      const headers = new Headers();
      const supabase = serverClient(request, headers);
      const { data, error } = await supabase.auth.verifyOtp({
        token_hash: token,
        type: purpose === "recuperar" ? "recovery" : "invite",
      });
      if (error || !data.session || !data.user) {
        if (isAuthRetryableFetchError(error)) unreachable(error);
        return { ok: false, reason: tokenFailure(error) };
      }
      const updated = await supabase.auth.updateUser({ password });
      if (updated.error) {
        if (isAuthRetryableFetchError(updated.error)) unreachable(updated.error);
        await supabase.auth.signOut({ scope: "local" });
        throw new Error(
          `Supabase Auth no cambió la contraseña: ${updated.error.code ?? updated.error.status ?? "sin código"}`,
        );
      }
      // Every other session of the account ends (their refresh tokens are revoked).
      await endOthers(supabase);
      if (!(await profileActive(data.session.access_token, data.user.id))) {
        await supabase.auth.signOut({ scope: "local" });
        return { ok: false, reason: "inactivo" };
      }
      remember(data.user.id, data.session.access_token, data.session.expires_at);
      return { ok: true, headers, email: data.user.email ?? "" };
    },

    async changePassword(request, current, next) {
      const headers = new Headers();
      const supabase = serverClient(request, headers);
      const { data: who, error: whoError } = await supabase.auth.getUser();
      if (whoError || !who.user?.email) {
        if (isAuthRetryableFetchError(whoError)) unreachable(whoError);
        return { ok: false, reason: "credentials" };
      }
      // GoTrue's updateUser does not ask for the current password: re-authenticate first.
      const check = await supabase.auth.signInWithPassword({ email: who.user.email, password: current });
      if (check.error || !check.data.session) {
        if (isAuthRetryableFetchError(check.error)) unreachable(check.error);
        return { ok: false, reason: "credentials" };
      }
      const updated = await supabase.auth.updateUser({ password: next });
      if (updated.error) {
        if (isAuthRetryableFetchError(updated.error)) unreachable(updated.error);
        throw new Error(
          `Supabase Auth no cambió la contraseña: ${updated.error.code ?? updated.error.status ?? "sin código"}`,
        );
      }
      await endOthers(supabase);
      remember(who.user.id, check.data.session.access_token, check.data.session.expires_at);
      return { ok: true, headers };
    },

    async signOut(request) {
      const headers = new Headers();
      if (!authCookieNames(request).length) return headers;
      const supabase = serverClient(request, headers);
      // scope local: this browser's session ends in Supabase Auth (its refresh token is revoked).
      const { error } = await supabase.auth.signOut({ scope: "local" });
      if (error && !isAuthApiError(error)) console.warn(`Supabase Auth no cerró la sesión: ${error.message}`);
      clearAuthCookies(request, headers, options.secure);
      return headers;
    },

    async endSessionsOf(userId) {
      const known = recent.get(userId);
      recent.delete(userId);
      if (!known || known.expiresAt <= Date.now()) {
        // Nothing to do it with (see `recent`). The user's JWT still opens nothing: row-level
        // security hides every row from an inactive profile, and their next request ends here.
        return;
      }
      const { error } = await plain.auth.admin.signOut(known.token, "global");
      if (error && !(isAuthApiError(error) && [401, 403, 404].includes(error.status))) {
        if (isAuthRetryableFetchError(error)) unreachable(error);
        console.warn(`Supabase Auth no cerró las sesiones de un usuario: ${error.message}`);
      }
    },
  };
}

/** Names of our auth cookies in the request (the token may be split into `.0`, `.1`… chunks). */
function authCookieNames(request: Request): string[] {
  return parseCookieHeader(request.headers.get("Cookie") ?? "")
    .map((c) => c.name)
    .filter(
      (name) => name === AUTH_COOKIE || name.startsWith(`${AUTH_COOKIE}.`) || name === `${AUTH_COOKIE}-code-verifier`,
    );
}

/** Expires every auth cookie the request carried that the library has not expired already. */
function clearAuthCookies(request: Request, headers: Headers, secure: boolean) {
  const expired = new Set(
    headers
      .getSetCookie()
      .filter((c) => /;\s*max-age=0(;|$)/i.test(c))
      .map((c) => c.slice(0, c.indexOf("="))),
  );
  for (const name of authCookieNames(request))
    if (!expired.has(name))
      headers.append(
        "Set-Cookie",
        serializeCookieHeader(name, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure }),
      );
}
