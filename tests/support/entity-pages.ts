import { json, request, respond, type RouteModule, type TestApp } from "./app";

/**
 * An entity's pages as a person uses them: the list at `path` (its loader, and the «crear»
 * action of its form) and a record at `path/<id>` (its loader and action). Each call acts with
 * the cookie given, or with `actor()`'s; `actor` is asked for on each call (made in beforeAll).
 */
export function entityPages(
  path: string,
  routes: { index: Required<RouteModule>; record: Required<RouteModule> },
  actor: () => { app: TestApp; cookie: string },
) {
  const context = () => actor().app.context();
  const create = (form: Record<string, string>, cookie = actor().cookie, at = `${path}?index`) =>
    respond(() => routes.index.action({ request: request(at, { cookie, form }), context: context(), params: {} }));
  /** The list's data for a query string (e.g. "?q=…"). */
  const list = (search: string, cookie = actor().cookie) =>
    respond(() =>
      routes.index.loader({ request: request(`${path}${search}`, { cookie }), context: context(), params: {} }),
    ).then(json);
  const load = (id: string, cookie = actor().cookie) =>
    respond(() =>
      routes.record.loader({ request: request(`${path}/${id}`, { cookie }), context: context(), params: { id } }),
    );
  const post = (id: string, form: Record<string, string>, cookie = actor().cookie, search = "") =>
    respond(() =>
      routes.record.action({
        request: request(`${path}/${id}${search}`, { cookie, form }),
        context: context(),
        params: { id },
      }),
    );
  return { create, list, load, post };
}
