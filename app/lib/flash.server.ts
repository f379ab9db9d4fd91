import { createCookieSessionStorage } from "@remix-run/node";

/** One-shot messages («Departamento guardado») carried across the post/redirect/get. */
export type Flash = {
  message: string;
  kind: "exito" | "error" | "aviso";
  /** A link after the message (e.g. to the other gasto a new one duplicates); a same-site path. */
  enlace?: { href: string; texto: string };
  /** Lines under the message (e.g. which rows of a bulk action were refused and why). */
  detalles?: string[];
  /** About the list, not the record open beside it (a bulk action): shown above the list. */
  deLaLista?: boolean;
};

export type FlashStore = {
  /** Returns the Set-Cookie value that carries the message to the next page. */
  set(request: Request, flash: Flash): Promise<string>;
  take(request: Request): Promise<{ flash: Flash | null; setCookie: string | null }>;
};

export function createFlash(secret: string, secure: boolean): FlashStore {
  const storage = createCookieSessionStorage({
    cookie: { name: "oficina_aviso", httpOnly: true, sameSite: "lax", secure, path: "/", secrets: [secret] },
  });
  return {
    async set(request, flash) {
      const session = await storage.getSession(request.headers.get("Cookie"));
      session.flash("flash", flash);
      return storage.commitSession(session);
    },
    async take(request) {
      const session = await storage.getSession(request.headers.get("Cookie"));
      const flash = (session.get("flash") as Flash | undefined) ?? null;
      return { flash, setCookie: flash ? await storage.commitSession(session) : null };
    },
  };
}
