import { createRequire } from "node:module";
import { describe, expect, it, vi } from "vitest";
import {
  callLoadersAsIs,
  callLoadersWithTheirRequest,
  mayCarryRemixParams,
  type CallRouteLoader,
} from "./loader-calls.server";

const require = createRequire(import.meta.url);
const responses = require("@remix-run/server-runtime/dist/responses.js");
const data = require("@remix-run/server-runtime/dist/data.js") as { callRouteLoader: CallRouteLoader };
const remixOwn = data.callRouteLoader;

const args = (url: string, loader: (a: { request: Request }) => unknown) => ({
  loadContext: { quien: "contexto" },
  loader,
  params: { id: "1" },
  request: new Request(url, { headers: { Cookie: "a=b" } }),
  routeId: "routes/gastos._index",
});

describe("mayCarryRemixParams", () => {
  it("says yes for any search that mentions index or _data, no otherwise", () => {
    expect(mayCarryRemixParams("http://x/gastos")).toBe(false);
    expect(mayCarryRemixParams("http://x/gastos?estado=pagado&orden=importe")).toBe(false);
    expect(mayCarryRemixParams("http://x/index/gastos?q=1")).toBe(false);
    expect(mayCarryRemixParams("http://x/gastos?index")).toBe(true);
    expect(mayCarryRemixParams("http://x/gastos?a=1&_data=routes%2Fgastos")).toBe(true);
    expect(mayCarryRemixParams("http://x/gastos?q=reindexar")).toBe(true);
  });
});

describe("callLoadersAsIs", () => {
  const call = callLoadersAsIs(remixOwn, responses);

  it("gives the loader the request itself, its context and params, when there is nothing to strip", async () => {
    const loader = vi.fn(() => responses.json({ ok: true }));
    const a = args("http://x/gastos?estado=pagado&q=caf%C3%A9%20con+leche", loader);
    const result = (await call(a)) as Response;
    expect(loader).toHaveBeenCalledWith({ request: a.request, context: a.loadContext, params: a.params });
    expect(await result.json()).toEqual({ ok: true });
  });

  it("answers what Remix's own answers: a naked value as JSON, a Response as it is", async () => {
    for (const value of [{ a: 1, b: "ñ" }, null, [1, 2], "texto"]) {
      const ours = (await call(args("http://x/gastos?q=1", () => value))) as Response;
      const theirs = (await remixOwn(args("http://x/gastos?q=1", () => value))) as Response;
      expect(ours.headers.get("Content-Type")).toBe(theirs.headers.get("Content-Type"));
      expect(await ours.text()).toBe(await theirs.text());
    }
    const redirect = responses.redirect("/login");
    expect(await call(args("http://x/gastos", () => redirect))).toBe(redirect);
  });

  it("refuses a loader that returns nothing, as Remix does", async () => {
    await expect(call(args("http://x/gastos", () => undefined))).rejects.toThrow(
      'You defined a loader for route "routes/gastos._index" but didn\'t return anything',
    );
  });

  it("turns deferred data with a redirect status into a redirect, as Remix does", async () => {
    const deferred = responses.defer({ a: Promise.resolve(1) }, { status: 302, headers: { Location: "/login" } });
    const result = (await call(args("http://x/gastos", () => deferred))) as Response;
    expect(result.status).toBe(302);
    expect(result.headers.get("Location")).toBe("/login");
  });

  it("leaves a request with index or _data to Remix, which strips them", async () => {
    for (const url of ["http://x/gastos?index&q=1", "http://x/gastos?q=1&_data=routes%2Fgastos._index"]) {
      let seen: Request | undefined;
      await call(args(url, ({ request }) => ((seen = request), null)));
      expect(seen).toBeDefined();
      expect(new URL(seen!.url).search).toBe("?q=1");
      expect(seen!.headers.get("Cookie")).toBe("a=b");
    }
  });
});

describe("callLoadersWithTheirRequest", () => {
  it("replaces the server runtime's callRouteLoader once", () => {
    callLoadersWithTheirRequest();
    const installed = data.callRouteLoader;
    expect(installed).not.toBe(remixOwn);
    callLoadersWithTheirRequest();
    expect(data.callRouteLoader).toBe(installed);
  });
});
