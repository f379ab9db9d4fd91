import { redirect, type AppLoadContext, type TypedResponse } from "@remix-run/node";
import type { Signed } from "~/auth/session.server";
import type { ListQuery, Row, Store } from "~/data/store";
import { forRole, type Entity } from "~/entities/entity";
import { CSV_BOM, csvLine } from "~/lib/csv";
import { conPlazo } from "~/lib/descarga.server";
import { todayISO } from "~/lib/dates";
import type { Formats } from "~/lib/format";
import { csvValue } from "./cells";

/** A list's CSV export: the whole filtered list, streamed, and the resource route that serves it. */

type Args = { request: Request; context: AppLoadContext; params?: Record<string, string | undefined> };

/** A screen's loader cannot answer a browser's page request with a file: `?formato=csv` goes to /exportar. */
export function csvToExport(entity: Entity, url: URL) {
  if (url.searchParams.get("formato") === "csv" && url.pathname === entity.path)
    throw redirect(`${entity.path}/exportar${url.search}`);
}

/**
 * The whole filtered list (`query`, its page ignored) as CSV for Excel, streamed (no row cap):
 * with the store's `stream` (one cursor, one snapshot) when it has one, else page by page. The
 * client's pace drives the reading (a page is read when the previous one has been taken), and a
 * closed download stops it. Typed as a response with no page data (`never`), so a loader that
 * answers either with CSV or with JSON still has its data inferred (`useLoaderData<typeof loader>`).
 * The columns are the list's for this role (`roles` on a column, as the table shows them).
 */
export function csvResponse(
  entity: Entity,
  store: Pick<Store, "list" | "stream">,
  query: ListQuery,
  f: Formats,
  rol: Signed["user"]["rol"],
): TypedResponse<never> {
  const columns = forRole(entity, rol).columns;
  const encoder = new TextEncoder();
  const PAGE = 1000;
  const lines = (rows: Row[]) =>
    encoder.encode(rows.map((row) => csvLine(columns.map((c) => csvValue(c, row[c.name], f)))).join(""));
  let offset = 0;
  let wake: (() => void) | null = null;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(CSV_BOM + csvLine(columns.map((c) => c.label))));
        if (!store.stream) return;
        store
          .stream<Row>(entity.view, query, async (rows) => {
            if (cancelled) throw new Error("Descarga cancelada");
            controller.enqueue(lines(rows));
            // A client that takes nothing for too long releases the cursor (conPlazo).
            while (!cancelled && (controller.desiredSize ?? 1) <= 0)
              await conPlazo(new Promise<void>((resolve) => (wake = resolve)));
          })
          .then(
            () => !cancelled && controller.close(),
            (error) => !cancelled && controller.error(error),
          );
      },
      async pull(controller) {
        if (store.stream) {
          wake?.();
          wake = null;
          return;
        }
        const { rows } = await store.list<Row>(entity.view, { ...query, limit: PAGE, offset, count: "none" });
        if (rows.length) controller.enqueue(lines(rows));
        offset += PAGE;
        if (rows.length < PAGE) controller.close();
      },
      cancel() {
        cancelled = true;
        wake?.();
      },
    },
    { highWaterMark: 4 },
  );
  // Named as its address (`/tipos-iva` → tipos-iva-AAAA-MM-DD.csv): plain ASCII without spaces,
  // which every browser keeps as it is; a plural like «límites exentos» would not be.
  const nombre = `${entity.path.slice(1)}-${todayISO()}.csv`;
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${nombre}"`,
      "Cache-Control": "private, no-store",
    },
  }) as TypedResponse<never>;
}

/**
 * `/{sección}/exportar`: the list's CSV, as a resource route (a route without a component). A
 * screen's loader cannot do it: on a browser's page request Remix renders the page with the
 * loader's Response body as its data, so `?formato=csv` on the list itself gave a 500.
 * `list` is the section's list loader; it gets the same URL plus `formato=csv`.
 */
export async function csvExport<A extends Args>(args: A, list: (args: A) => Promise<unknown>): Promise<Response> {
  const url = new URL(args.request.url);
  url.searchParams.set("formato", "csv");
  // Asked for `formato=csv`, a list's loader answers with the file.
  const file = await list({ ...args, request: new Request(url, args.request) });
  if (file instanceof Response) return file;
  throw new Error("La lista no ha respondido con su CSV");
}
