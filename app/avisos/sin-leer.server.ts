import type { Signed } from "~/auth/session.server";

/**
 * The header's «Avisos (N)»: unread avisos of the signed-in person. The local backend reads the
 * count with the session in one statement; otherwise one count under row-level security.
 */
export async function avisosSinLeer({ user, store }: Signed): Promise<number> {
  if (user.avisos_sin_leer !== undefined) return Number(user.avisos_sin_leer);
  const { total } = await store.list("avisos", {
    filters: [{ column: "leido_en", op: "is_null" }],
    limit: 0,
    offset: 0,
    count: "exact",
  });
  return total;
}
