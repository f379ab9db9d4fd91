import { parseSubmission } from "~/ui/parse-submission.server";
import { json, redirect, type AppLoadContext } from "@remix-run/node";
import { minutos, newPasswordSchema } from "./forms";
import { LINK_LIMIT, linkKey, tooMany } from "./throttle.server";
import type { TokenFailure, TokenPurpose } from "./port";

/**
 * The pages a mailed link opens (confirmation, reset, invitation). The GET never uses the token
 * up (mail scanners follow links): it only says whether it still works; the POST uses it.
 */

/** Longer than any token either backend mails: refused without asking the backend. */
const MAX_TOKEN = 200;
export const plausibleToken = (token: string) => token !== "" && token.length <= MAX_TOKEN;

/** The link's token: `token` (local) or `token_hash` (Supabase); "" when there is none. */
export function linkToken(request: Request) {
  const url = new URL(request.url);
  return url.searchParams.get("token") ?? url.searchParams.get("token_hash") ?? "";
}

/** Why the token no longer works, or null while it does (or when only the POST can tell). */
export async function linkFailure(
  context: AppLoadContext,
  token: string,
  purpose: TokenPurpose,
): Promise<TokenFailure | null> {
  if (!plausibleToken(token)) return "no_valido";
  const state = await context.services.auth.checkToken(token, purpose);
  return state && !state.ok ? state.reason : null;
}

/**
 * The POST of a link that chooses a password: the new password twice → saved, the account's
 * sign-in lock cleared, signed in and sent home with `welcome`. Otherwise status 400
 * with the form's verdict, why the link failed if it did, and `echo` (the intent, where a page
 * has two forms).
 */
export async function choosePassword<Echo extends object>(
  request: Request,
  context: AppLoadContext,
  formData: FormData,
  purpose: TokenPurpose,
  welcome: string,
  echo: Echo,
) {
  const { auth, flash, throttle } = context.services;
  const token = String(formData.get("token") ?? "");
  const submission = parseSubmission(formData, newPasswordSchema);
  const hidden = { hideFields: ["password", "confirmacion"] };
  // Per address, before any work: anyone may post here, and each post may cost a scrypt.
  const refused = await throttle.take(linkKey(context.clientIp), LINK_LIMIT.limit, LINK_LIMIT.windowMs);
  if (refused)
    return tooMany(refused.retryAfter, {
      ...echo,
      result: submission.reply({
        ...hidden,
        formErrors: [
          `Demasiados intentos desde su red. Espere ${minutos(refused.retryAfter)} y vuelva a abrir el enlace del correo.`,
        ],
      }),
      reason: null,
    });
  if (submission.status !== "success")
    return json({ ...echo, result: submission.reply(hidden), reason: null }, { status: 400 });
  const result = plausibleToken(token)
    ? await auth.setPasswordWithToken(request, token, purpose, submission.value.password)
    : { ok: false as const, reason: "no_valido" as const };
  if (!result.ok) return json({ ...echo, result: submission.reply(hidden), reason: result.reason }, { status: 400 });
  await throttle.clearFailures(result.email);
  const headers = new Headers(result.headers);
  headers.append("Set-Cookie", await flash.set(request, { kind: "exito", message: welcome }));
  return redirect("/", { headers });
}
