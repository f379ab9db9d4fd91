import { action, loader } from "~/routes/gastos._index";
import { json, ORIGIN, request, respond, type TestApp } from "./app";

/** A stored gasto (what the tests read of it is typed; the rest is there as stored). */
export type Gasto = Record<string, unknown> & { id: string; version: number; folio: string; fecha_gasto: string };
/** A row of the /gastos list as the loader sends it (what the tests read of it). */
export type FilaLista = { id: string; importe: string; puede_aprobar?: boolean };

/**
 * /gastos as a person uses it: the list's loader and the action behind every form on the page,
 * with the session cookie of whoever acts. `app` is asked for on each call (made in beforeAll).
 */
export function gastosPage(app: () => TestApp) {
  const post = (form: Record<string, string | string[]>, cookie: string, path = "/gastos?index") =>
    respond(() => action({ request: request(path, { cookie, form }), context: app().context(), params: {} }));
  const load = (search: string, cookie: string) =>
    respond(() => loader({ request: request(`/gastos${search}`, { cookie }), context: app().context(), params: {} }));
  /** The list's data; anything but 200 fails the test. */
  const list = async (search: string, cookie: string) => {
    const r = await load(search, cookie);
    if (r.status !== 200) throw new Error(`Esperaba 200, llegó ${r.status}: ${await r.text()}`);
    return json(r);
  };
  const row = (id: string) =>
    app().db.selectFrom("gastos").selectAll().where("id", "=", id).executeTakeFirstOrThrow() as Promise<Gasto>;
  /** The gasto a «crear» answer redirects to (anything but a redirect fails the test). */
  async function created(r: Response) {
    if (r.status !== 302) throw new Error(`Esperaba 302, llegó ${r.status}: ${await r.text()}`);
    return row(new URL(r.headers.get("Location")!, ORIGIN).searchParams.get("gasto")!);
  }
  return { post, load, list, row, created };
}
