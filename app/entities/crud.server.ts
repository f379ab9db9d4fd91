import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { puede, type Accion } from "~/auth/permissions";
import { requireUser, type Signed } from "~/auth/session.server";
import { Conflict, Forbidden, Invalid, NotFound, Referenced, type Row, type Store } from "~/data/store";
import { CSV_BOM, csvLine } from "~/lib/csv";
import { formatValue, type Formats } from "~/lib/format";
import { parseListState, toListQuery, type ListState } from "~/lib/list-query";
import { once } from "~/lib/once.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { capitalize, done, type Entity } from "./entity";
import { formSchema, type Option } from "./fields";
import { OPTION_SOURCES } from "./index";

/**
 * The generic server side of every list and record screen: loaders and actions take an entity
 * declaration and do the rest (permissions, parsing, store calls, typed errors → Spanish messages).
 */
type Args = { request: Request; context: AppLoadContext; params?: Record<string, string | undefined> };

export const MAX_OPTIONS = 200;
export type Options = Record<string, { options: Option[]; truncated: boolean }>;

export function forbidden(message = "No tiene permiso para ver esta página o hacer esta acción."): never {
  throw json({ message }, { status: 403 });
}
export function notFound(message = "La página o el registro que busca no existe."): never {
  throw json({ message }, { status: 404 });
}

export function formats(context: AppLoadContext): Formats {
  return { locale: context.services.config.APP_LOCALE, currency: context.services.config.APP_CURRENCY };
}

export function permissions(entity: Entity, user: Signed["user"]): Record<Accion, boolean> {
  return { crear: puede(entity.permisos, "crear", user), editar: puede(entity.permisos, "editar", user), eliminar: puede(entity.permisos, "eliminar", user) };
}

/** Options for every related-record select and filter of the entity (one query per related table). */
export async function loadOptions(store: Store, entity: Entity): Promise<Options> {
  const tables = new Set<string>();
  for (const f of entity.fields) if (f.input.type === "ref") tables.add(f.input.table);
  for (const f of entity.filters) if (f.kind === "ref") tables.add(f.table);
  const out: Options = {};
  await Promise.all(
    [...tables].map(async (table) => {
      const { source, label } = OPTION_SOURCES[table]!;
      const { rows, total } = await store.list<Row>(source, {
        order: [{ column: label, ascending: true }],
        limit: MAX_OPTIONS,
        offset: 0,
        count: "exact",
      });
      out[table] = { options: rows.map((r) => ({ value: String(r.id), label: String(r[label] ?? "") })), truncated: total > MAX_OPTIONS };
    }),
  );
  return out;
}

export async function listLoader(entity: Entity, { request, context }: Args) {
  const { user, store } = await requireUser(request, context);
  const url = new URL(request.url);
  const state = parseListState(entity, url.searchParams);
  if (url.searchParams.get("formato") === "csv") return csvResponse(entity, store, state, formats(context));
  const [result, options] = await Promise.all([store.list(entity.view, toListQuery(entity, state)), loadOptions(store, entity)]);
  return json({
    state,
    result,
    options,
    can: permissions(entity, user),
    envio: crypto.randomUUID(),
    defaults: { activo: "on", ...entity.defaults?.({ country: context.services.config.APP_COUNTRY, userId: user.id }) },
  });
}

/** The whole filtered list as CSV for Excel, fetched and written page by page (no row cap). */
function csvResponse(entity: Entity, store: Store, state: ListState, f: Formats) {
  const query = toListQuery(entity, state);
  const columns = entity.columns;
  const encoder = new TextEncoder();
  const PAGE = 1000;
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM + csvLine(columns.map((c) => c.label))));
    },
    async pull(controller) {
      const { rows } = await store.list<Row>(entity.view, { ...query, limit: PAGE, offset, count: "none" });
      for (const row of rows)
        controller.enqueue(
          encoder.encode(csvLine(columns.map((c) => (c.kind === "money" && row[c.name] != null ? String(row[c.name]).replace(".", ",") : formatValue(c, row[c.name], f))))),
        );
      offset += PAGE;
      if (rows.length < PAGE) controller.close();
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${entity.plural}-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

/** POST on the list page: the «Nuevo …» form. Redirects back to the same list with a flash. */
export async function createAction(entity: Entity, { request, context }: Args) {
  const { user, store } = await requireUser(request, context);
  if (!puede(entity.permisos, "crear", user)) forbidden();
  const formData = await request.formData();
  return once(formData.get("_envio"), async () => {
    const submission = parseWithZod(formData, { schema: formSchema(entity.fields, entity.refine) });
    if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
    try {
      const row = await store.insert<Row>(entity.table, submission.value);
      const url = new URL(request.url);
      return redirectWithFlash(context, request, url.pathname + url.search, `${done(entity, "cread")}: ${row[entity.labelColumn]}`);
    } catch (error) {
      return storeErrorReply(entity, submission, error, formData);
    }
  });
}

export async function recordLoader(entity: Entity, { request, context, params }: Args) {
  const { user, store } = await requireUser(request, context);
  const id = params?.id ?? "";
  const record = await getOr404<Row>(store, entity.view, id);
  const [history, options] = await Promise.all([loadHistory(store, entity.table, id), loadOptions(store, entity)]);
  const url = new URL(request.url);
  return json({
    record,
    history,
    options,
    can: permissions(entity, user),
    volver: backTo(entity, url),
    confirmDelete: url.searchParams.has("eliminar"),
  });
}

export async function loadHistory(store: Store, table: string, id: string) {
  const { rows } = await store.list<Row>("historial_vista", {
    filters: [
      { column: "tabla", op: "eq", value: table },
      { column: "registro_id", op: "eq", value: id },
    ],
    order: [{ column: "creado_en", ascending: false }],
    limit: 100,
    offset: 0,
    count: "none",
  });
  return rows;
}

/** POST on a record page: `intent` is `guardar` or `eliminar`; anything else is a 400. */
export async function recordAction(entity: Entity, { request, context, params }: Args) {
  const { user, store } = await requireUser(request, context);
  const id = params?.id ?? "";
  const formData = await request.formData();
  const intent = formData.get("intent");
  const url = new URL(request.url);
  const volver = backTo(entity, url);
  const version = z.coerce.number().int().positive().safeParse(formData.get("version"));

  if (intent === "eliminar") {
    if (!puede(entity.permisos, "eliminar", user)) forbidden();
    try {
      await store.remove(entity.table, id, version.success ? version.data : undefined);
      return redirectWithFlash(context, request, volver, done(entity, "eliminad"));
    } catch (error) {
      if (error instanceof Referenced) return json({ deleteError: await referencedMessage(store, entity, id) }, { status: 409 });
      if (error instanceof Conflict)
        return json({ deleteError: "Otra persona modificó este registro mientras lo miraba. Revise los datos actuales antes de eliminarlo." }, { status: 409 });
      if (error instanceof NotFound) notFound();
      if (error instanceof Forbidden) forbidden();
      throw error;
    }
  }

  if (intent !== "guardar") throw json({ message: "Acción desconocida." }, { status: 400 });
  if (!puede(entity.permisos, "editar", user)) forbidden();
  const submission = parseWithZod(formData, { schema: formSchema(entity.fields, entity.refine) });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  if (!version.success) return json({ result: submission.reply({ formErrors: ["Falta la versión del registro: recargue la página."] }) }, { status: 400 });
  try {
    await store.update(entity.table, id, version.data, submission.value);
    return redirectWithFlash(context, request, volver, done(entity, "guardad"));
  } catch (error) {
    if (error instanceof Conflict) {
      const current = await getOr404<Row>(store, entity.view, id);
      return json(
        { result: submission.reply({ formErrors: ["Otra persona modificó este registro mientras lo editaba. Compare sus cambios con los valores actuales y vuelva a guardar."] }), current },
        { status: 409 },
      );
    }
    return storeErrorReply(entity, submission, error, formData);
  }
}

/** A store refusal as a form reply: field errors where the column is known, else a form error. */
function storeErrorReply(entity: Entity, submission: { reply: (o?: any) => unknown }, error: unknown, formData: FormData) {
  if (error instanceof NotFound) notFound();
  if (error instanceof Forbidden) forbidden(error.message);
  if (error instanceof Invalid || error instanceof Conflict) {
    const field = error instanceof Invalid ? entity.fields.find((f) => f.name === error.field) : undefined;
    const message =
      field && error.message === "Ya existe un registro con este valor"
        ? `Ya existe ${entity.gender === "f" ? "una" : "un"} ${entity.singular} con ${field.label.toLowerCase()} «${String(formData.get(field.name) ?? "").trim()}»`
        : error.message === "Valor no válido" && field
          ? `Revise ${field.label.toLowerCase()}`
          : error.message;
    const reply = field ? submission.reply({ fieldErrors: { [field.name]: [message] } }) : submission.reply({ formErrors: [message] });
    return json({ result: reply }, { status: error instanceof Conflict ? 409 : 400 });
  }
  throw error;
}

async function referencedMessage(store: Store, entity: Entity, id: string) {
  const rows = await store.rpc<{ tabla: string; total: number }[] | null>("referencias", { p_tabla: entity.table, p_id: id }).catch(() => null);
  const parts = (rows ?? []).filter((r) => Number(r.total) > 0).map((r) => `${r.total} ${Number(r.total) === 1 ? singularOf(r.tabla) : r.tabla} asociad${r.tabla === "sucursales" ? "a" : "o"}${Number(r.total) === 1 ? "" : "s"}`);
  const what = parts.length ? parts.join(", ") : "registros asociados";
  return `No se puede eliminar: tiene ${what}. ${entity.fields.some((f) => f.name === "activo") ? `Desactív${entity.gender === "f" ? "ela" : "elo"} en su lugar.` : ""}`.trim();
}

function singularOf(table: string) {
  return { gastos: "gasto", usuarios: "usuario", departamentos: "departamento", sucursales: "sucursal", proveedores: "proveedor" }[table] ?? table;
}

export async function getOr404<T>(store: Store, source: string, id: string): Promise<T> {
  try {
    return await store.get<T>(source, id);
  } catch (error) {
    if (error instanceof NotFound) notFound(`${capitalize("el registro")} no existe o no tiene acceso a él.`);
    throw error;
  }
}

/** The filtered list to go back to (`volver`), only ever a path of this entity's list. */
export function backTo(entity: Entity, url: URL) {
  const target = safeRedirect(url.searchParams.get("volver"), entity.path);
  return target === entity.path || target.startsWith(`${entity.path}?`) ? target : entity.path;
}

export async function redirectWithFlash(context: AppLoadContext, request: Request, to: string, message: string, kind: "exito" | "aviso" | "error" = "exito") {
  return redirect(to, { headers: { "Set-Cookie": await context.services.flash.set(request, { message, kind }) } });
}
