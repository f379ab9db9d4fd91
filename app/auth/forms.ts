import type { HeadersFunction } from "@remix-run/node";
import { email, text, type Z } from "~/entities/fields";

/**
 * Fields shared by the account screens (login, reset, invitation landing, own profile), so the
 * rules (≥ 12 characters, typed twice) are the same everywhere. Browser-safe: no server imports.
 */
/** How long each mailed token lives (hours). */
export const TOKEN_HOURS = { confirm: 24, recuperar: 1, invitacion: 7 * 24 } as const;

export const correoField = email("email", "Correo electrónico", { required: true });
const PASSWORD_HINT = "Al menos 12 caracteres. Una frase fácil de recordar es una buena contraseña.";

/** A password being chosen: the account rules, said under the field. */
export const chosenPasswordField = (label: string) =>
  text("password", label, {
    required: true,
    min: 12,
    max: 200,
    type: "password",
    autoComplete: "new-password",
    hint: PASSWORD_HINT,
  });
/** A password typed to prove who one is: any length the account may have. */
export const knownPasswordField = (name: string, label: string) =>
  text(name, label, { required: true, min: 1, max: 200, type: "password", autoComplete: "current-password" });

export const nuevaField = chosenPasswordField("Contraseña nueva");
export const repetirField = text("confirmacion", "Repita la contraseña nueva", {
  enMensaje: "la contraseña nueva otra vez",
  required: true,
  min: 1,
  max: 200,
  type: "password",
  autoComplete: "new-password",
});
export const actualField = knownPasswordField("actual", "Contraseña actual");

/** The forms that only ask for an email (a reset link, the confirmation mail again). */
export const emailSchema = (z: Z) => z.object({ email: correoField.schema(z) });

export const INVITATION_ONLY = "Para entrar en Oficina necesita una invitación de un administrador.";

const NO_COINCIDEN = "Las dos contraseñas no coinciden: escriba la misma en los dos campos";

/** New password typed twice; the second must match. */
export const newPasswordSchema = (z: Z) =>
  z
    .object({ password: nuevaField.schema(z), confirmacion: repetirField.schema(z) })
    .refine((v) => v.password === v.confirmacion, { path: ["confirmacion"], error: NO_COINCIDEN });

export const changePasswordSchema = (z: Z) =>
  z
    .object({ actual: actualField.schema(z), password: nuevaField.schema(z), confirmacion: repetirField.schema(z) })
    .refine((v) => v.password === v.confirmacion, { path: ["confirmacion"], error: NO_COINCIDEN });

/**
 * A refusal for too many attempts is the normal page with status 429 and `Retry-After`: the
 * route's headers function carries the action's header onto the document response.
 */
export const retryAfterHeaders: HeadersFunction = ({ actionHeaders, errorHeaders }) => {
  const headers = new Headers();
  const retry = actionHeaders.get("Retry-After") ?? errorHeaders?.get("Retry-After");
  if (retry) headers.set("Retry-After", retry);
  return headers;
};

/** «Espere N minutos»: the wait, in words. */
export function minutos(seconds: number) {
  const n = Math.max(1, Math.ceil(seconds / 60));
  return n === 1 ? "1 minuto" : `${n} minutos`;
}
