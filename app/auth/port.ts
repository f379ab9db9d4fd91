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

export interface AuthBackend {
  /** Who is asking; `headers` carries any refreshed cookies and must reach the response. */
  getSession(request: Request): Promise<{ session: AuthSession | null; headers: Headers }>;
  signIn(request: Request, email: string, password: string): Promise<SignInResult>;
  /** Creates the account (unconfirmed) and sends the confirmation mail. Same outcome for a taken email. */
  signUp(request: Request, input: SignUpInput): Promise<void>;
  resendConfirmation(request: Request, email: string): Promise<void>;
  /** Confirms the email behind `token` and signs the user in. */
  confirm(request: Request, token: string, type?: string): Promise<{ ok: true; headers: Headers } | { ok: false }>;
  signOut(request: Request): Promise<Headers>;
  /** Ends every session of a user at once (deactivation). */
  endSessionsOf(userId: string): Promise<void>;
}
