import type { CurrentUser } from "./session.server";
/**
 * The accounts port. Adapters: local.server.ts (accounts and sessions in our own Postgres) and
 * supabase.server.ts (Supabase Auth). Both answer in the same terms, so routes never branch.
 */
export type AuthSession = {
  userId: string;
  /** The user's JWT where the backend has one (Supabase); the SQL store needs only the id. */
  accessToken?: string;
  /**
   * The user's active profile, where the backend reads it with the session in one statement
   * (local): then nobody reads it again. Without it, it is read as the user, under RLS.
   */
  profile?: CurrentUser;
};

export type SignInResult =
  | { ok: true; session: AuthSession; headers: Headers }
  | { ok: false; reason: "credentials" | "unconfirmed" | "inactive" };

export type SignUpInput = { nombre: string; email: string; password: string };

/** What a mailed token is for, besides confirming a sign-up. */
export type TokenPurpose = "recuperar" | "invitacion";
/** Why a mailed token was refused: each tells the person what to do next. */
export type TokenFailure = "caducado" | "usado" | "no_valido";
export type ConfirmResult = { ok: true; headers: Headers } | { ok: false; reason: TokenFailure | "ya_confirmada" };
export type PasswordResult =
  { ok: true; headers: Headers; email: string } | { ok: false; reason: TokenFailure | "inactivo" };

export interface AuthBackend {
  /** Who is asking; `headers` carries any refreshed cookies and must reach the response. */
  getSession(request: Request): Promise<{ session: AuthSession | null; headers: Headers }>;
  signIn(request: Request, email: string, password: string): Promise<SignInResult>;
  /**
   * Records a pending sign-up with ITS credentials and mails the confirmation link (built from
   * APP_URL). Same outcome, and the same work, for a taken email.
   */
  signUp(request: Request, input: SignUpInput): Promise<void>;
  resendConfirmation(request: Request, email: string): Promise<void>;
  /** Confirms the email behind `token` with the credentials of that token's sign-up and signs the user in. */
  confirm(request: Request, token: string, type?: string): Promise<ConfirmResult>;
  /**
   * Mails a link to choose a password: «recuperar» (1 h) or «invitacion» (7 days) for an existing
   * account. Nothing is said about whether the account exists. Earlier tokens of that purpose die.
   */
  sendToken(purpose: TokenPurpose, email: string): Promise<void>;
  /**
   * Whether a token is still good, without using it up (the landing's GET). Null where the
   * backend cannot tell without using it (Supabase): the POST will say.
   */
  checkToken(token: string, purpose: TokenPurpose): Promise<{ ok: true } | { ok: false; reason: TokenFailure } | null>;
  /**
   * Sets the password through a mailed token (single use; its siblings die), confirms the email
   * (the mail reached its owner), ends every session of the account and opens a new one.
   */
  setPasswordWithToken(
    request: Request,
    token: string,
    purpose: TokenPurpose,
    password: string,
  ): Promise<PasswordResult>;
  /** The signed-in user's new password, given the current one; ends their other sessions. */
  changePassword(
    request: Request,
    current: string,
    next: string,
  ): Promise<{ ok: true; headers: Headers } | { ok: false; reason: "credentials" }>;
  signOut(request: Request): Promise<Headers>;
  /** Ends every session of a user at once (deactivation). */
  endSessionsOf(userId: string): Promise<void>;
}
