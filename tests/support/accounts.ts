import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { currentUser } from "~/auth/session.server";
import { request, type TestApp } from "./app";

/**
 * Account journeys as a person goes through them: the mails the local adapter leaves in the dev
 * outbox (DATA_DIR/correo/<address>.txt), the links in them, and the session a response opens.
 */
export function outbox(dataDir: string) {
  function mails(email: string): { subject: string; text: string }[] {
    const file = path.join(dataDir, "correo", `${email.toLowerCase()}.txt`);
    if (!existsSync(file)) return [];
    return readFileSync(file, "utf8")
      .split("\n---\n")
      .filter((m) => m.trim())
      .map((m) => ({ subject: m.split("\n")[0]!.replace(/^Asunto: /, ""), text: m }));
  }
  /** The newest link to a path under `pathPrefix` mailed to `email` (none fails the test). */
  function lastLink(email: string, pathPrefix: string) {
    const all = mails(email).flatMap((m) => [...m.text.matchAll(/https?:\/\/\S+/g)].map((x) => x[0]));
    const link = all.filter((l) => new URL(l).pathname.startsWith(pathPrefix)).at(-1);
    if (!link) throw new Error(`No hay enlace ${pathPrefix} en el correo de ${email}`);
    return link;
  }
  return { mails, lastLink };
}

export const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

/** The session cookie a response sets, as the browser would send it back. */
export const sessionCookieOf = (r: Response) =>
  r.headers
    .getSetCookie()
    .find((c) => c.startsWith("oficina_sesion="))!
    .split(";")[0]!;

/** Who a session cookie signs in now (null: nobody). */
export const signedInUser = async (app: TestApp, cookie: string) =>
  (await currentUser(request("/", { cookie }), app.context()))?.user ?? null;
