import { json, type AppLoadContext, type SerializeFrom } from "@remix-run/node";
import { puede, type Accion } from "~/auth/permissions";
import { requireUser, type Signed } from "~/auth/session.server";
import {
  Conflict,
  EXACT_COUNT_LIMIT,
  Forbidden,
  NotFound,
  Referenced,
  UUID,
  versionDe,
  type ListQuery,
  type Row,
  type Store,
} from "~/data/store";
import {
  accionDeRegistro,
  accionEnBloque,
  accionesOfrecidas,
  done,
  entitySchema,
  listColumns,
  recordName,
  reservadosFuera,
  seenBy,
  writableFields,
  type Entity,
} from "~/entities/entity";
import { entityOf } from "~/entities/index";
import type { Option } from "~/lib/opciones";
import type { Formats } from "~/lib/format";
import { parseSubmission } from "~/ui/parse-submission.server";
import { csvResponse, csvToExport } from "./csv.server";
import { datosDeSecciones } from "./secciones.server";
import { motivosDe, recordStep } from "./accion-de-registro.server";
import { seleccionEnBloque } from "./en-bloque.server";
import { valoresDelNuevo } from "./nuevo.server";
import { referencedMessage, storeErrorReply } from "./errores.server";
import {
  alContenido,
  backTo,
  datosDePagina,
  forbidden,
  getOr404,
  intentOf,
  notFound,
  redirectWithFlash,
  type FlashKind,
  type FlashLink,
} from "./respuestas.server";
import { numberFormat } from "~/lib/intl";
import {
  busquedaCorta,
  listQueryFor,
  parseListState,
  SELECCIONAR_TODOS,
  sinControl,
  type ListState,
} from "./list-query";

/**
 * The generic server side of every list and record screen: loaders and actions take an entity
 * declaration and do the rest (permissions, parsing, store calls, typed errors → Spanish messages).
 */
type Args = {
  request: Request;
  context: AppLoadContext;
  params?: Record<string, string | undefined>;
  /** The body, when the caller has already read it to route the post (a body is read once). */
  formData?: FormData;
};

/** The signed-in user, when the entity is for them (`entity.roles`); to anyone else, a 404. */
export async function requireViewer(entity: Entity, request: Request, context: AppLoadContext): Promise<Signed> {
  const signed = await requireUser(request, context);
  if (!seenBy(entity, signed.user.rol)) notFound();
  return signed;
}

export const MAX_OPTIONS = 200;
/**
 * Options of the related-record selects, per related table. `truncated`: there are more than
 * MAX_OPTIONS, so the form offers a search step (`?buscar_<table>=term`, a plain GET); `busqueda`
 * is the term in use.
 */
export type Options = Record<string, { options: Option[]; truncated: boolean; busqueda?: string }>;

/** The option searches in the URL (`buscar_<table>`), for the tables this entity refers to. */
export function optionSearches(entity: Entity, url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const table of refTables(entity)) {
    const term = sinControl(url.searchParams.get(`buscar_${table}`))
      ?.trim()
      .slice(0, 100);
    if (term) out[table] = term;
  }
  return out;
}

/**
 * Which selects a screen shows: its forms' and its filters' (`"forms"`), or only its filters'
 * (`"filters"`, a list with no form open, which then need not carry the forms' options).
 */
export type OptionsFor = "forms" | "filters";

function refTables(entity: Entity, forWhat: OptionsFor = "forms") {
  const tables = new Set<string>();
  if (forWhat === "forms") for (const f of entity.fields) if (f.input.type === "ref") tables.add(f.input.table);
  for (const f of entity.filters) if (f.kind === "ref") tables.add(f.table);
  return tables;
}

export function formats(context: AppLoadContext): Formats {
  return { locale: context.services.config.APP_LOCALE, currency: context.services.config.APP_CURRENCY };
}

/**
 * Everything `entity.acceso` decides for this person, asked once: what they may do (on a record page,
 * for that record), the fields they write (null: every writable one) and why some are held back or it may not go.
 */
export function accesoA(entity: Entity, user: Signed["user"], recordId?: string, record?: Row) {
  const acceso = entity.acceso?.(user, recordId, record);
  const can: Record<Accion, boolean> = {
    crear: puede(entity.permisos, "crear", user),
    editar: puede(entity.permisos, "editar", user),
    eliminar: puede(entity.permisos, "eliminar", user),
  };
  if (recordId !== undefined && acceso) Object.assign(can, { editar: acceso.editar, eliminar: acceso.eliminar });
  // Never a field reserved to other roles: they could not see what they would overwrite (the database refuses it).
  const fuera = reservadosFuera(entity, user.rol);
  const propios = acceso?.campos ? [...acceso.campos] : null;
  const campos = fuera.length
    ? (propios ?? writableFields(entity).map((f) => f.name)).filter((name) => !fuera.includes(name))
    : propios;
  return { can, campos, porQue: acceso?.porQue ?? null, noSeElimina: acceso?.noSeElimina ?? null };
}

/** What the user may do (see `accesoA`). */
export function permissions(entity: Entity, user: Signed["user"], recordId?: string, record?: Row) {
  return accesoA(entity, user, recordId, record).can;
}

/** The fields this user writes on this record, or in the «Nuevo …» form without `recordId` (see `accesoA`). */
export function writableNames(entity: Entity, user: Signed["user"], recordId?: string, record?: Row): string[] | null {
  return accesoA(entity, user, recordId, record).campos;
}

/**
 * Options for every related-record select and filter of the entity (one query per related table),
 * or with `forWhat` "filters" for its filters only (pass `forRole(entity, rol)` to leave out the
 * filters that role is not shown).
 * The ids in `include` (a record's current values, or a list's filter values) are always among them, even past the first
 * MAX_OPTIONS, so saving a record never clears a value its select could not show. `search`
 * narrows a table's options to those whose label contains the term.
 */
export async function loadOptions(
  store: Store,
  entity: Entity,
  include?: Row,
  search: Record<string, string> = {},
  forWhat: OptionsFor = "forms",
): Promise<Options> {
  const out: Options = {};
  await Promise.all(
    [...refTables(entity, forWhat)].map(async (table) => {
      const related = entityOf(table)!;
      const source = related.optionsFrom ?? related.table;
      const label = related.optionLabel ?? related.labelColumn;
      const term = search[table];
      const first = await store.list<Row>(
        source,
        {
          search: term ? { columns: [label], term } : undefined,
          order: [{ column: label, ascending: true }],
          columns: ["id", label],
          limit: MAX_OPTIONS,
          offset: 0,
          count: "exact",
        },
        { keep: true },
      );
      const { total } = first;
      const rows = [...first.rows];
      const names = [
        ...entity.fields.flatMap((f) => (f.input.type === "ref" && f.input.table === table ? [f.name] : [])),
        ...entity.filters.flatMap((f) => (f.kind === "ref" && f.table === table ? [f.name] : [])),
      ];
      const current = names.flatMap((name) =>
        typeof include?.[name] === "string" && UUID.test(include[name] as string) ? [include[name] as string] : [],
      );
      const missing = [...new Set(current)].filter((id) => !rows.some((r) => r.id === id));
      if (missing.length)
        rows.push(
          ...(
            await store.list<Row>(
              source,
              {
                filters: [{ column: "id", op: "in", value: missing }],
                columns: ["id", label],
                limit: missing.length,
                offset: 0,
                count: "none",
              },
              { keep: true },
            )
          ).rows,
        );
      out[table] = {
        options: rows.map((r) => ({ value: String(r.id), label: String(r[label] ?? "") })),
        truncated: total > MAX_OPTIONS,
        ...(term ? { busqueda: term } : {}),
      };
    }),
  );
  return out;
}

/** A stored record as the screens read it: every table has an id and a version. */
export type StoredRow = Row & { id: string; version: number };

/** A list screen: its data (`listData`), or with `?formato=csv` the whole filter as CSV (see csvExport). */
export async function listLoader(entity: Entity, args: Args) {
  const signed = await requireViewer(entity, args.request, args.context);
  const url = new URL(args.request.url);
  if (url.searchParams.get("formato") !== "csv") return datosDePagina(await listData(entity, signed, args));
  csvToExport(entity, url);
  const query = listQueryFor(entity, parseListState(entity, url.searchParams), signed.user);
  return csvResponse(entity, signed.store, query, formats(args.context), signed.user.rol);
}

/**
 * The list's state from the URL, in an order the list can give: on an `escala` list, sorting by
 * an `ordenSoloContado` column over a filter too large to count falls back to the default order,
 * and `avisoOrden` says why.
 */
export async function estadoDeLista(entity: Entity, { user, store }: Signed, url: URL, locale: string) {
  const state = parseListState(entity, url.searchParams);
  if (!entity.escala?.ordenSoloContado.includes(state.orden)) return { state, avisoOrden: null };
  const probe = await store.list(entity.view, {
    ...listQueryFor(entity, state, user),
    limit: 0,
    offset: 0,
    count: "estimated",
  });
  if (!probe.estimated) return { state, avisoOrden: null };
  const nombre = (column: string) => entity.columns.find((c) => c.name === column)?.label.toLowerCase();
  const { column, ascending } = entity.defaultOrder;
  return {
    state: { ...state, orden: column, dir: ascending ? "asc" : "desc" } satisfies ListState,
    avisoOrden: `Para ordenar por ${nombre(state.orden)}, filtre hasta ${numberFormat(locale).format(EXACT_COUNT_LIMIT)} ${entity.plural} o menos; mientras, se ordenan por ${nombre(column)}.`,
  };
}

/**
 * What the list reads for its page: the query for this person and the row's columns, counted
 * (and summed) as its entity declares (`escala`: estimated above EXACT_COUNT_LIMIT).
 */
export function lecturaDeLista(entity: Entity, state: ListState, user: Signed["user"]): ListQuery {
  return {
    ...listQueryFor(entity, state, user),
    columns: listColumns(entity),
    ...(entity.escala ? { count: "estimated", sum: [...entity.escala.sumas], base: entity.table } : {}),
  };
}

/** What a list screen shows. */
export async function listData(entity: Entity, signed: Signed, { request, context }: Args) {
  const { user, store } = signed;
  if (!seenBy(entity, user.rol)) notFound();
  const url = new URL(request.url);
  const { state, avisoOrden } = await estadoDeLista(entity, signed, url, formats(context).locale);
  const can = permissions(entity, user);
  const campos = writableNames(entity, user);
  // A copy is read first: the options must hold the records it names.
  const valores = can.crear
    ? valoresDelNuevo(store, entity, url, { userId: user.id, country: context.services.config.APP_COUNTRY, campos })
    : Promise.resolve({ defaults: {}, copia: null });
  const [result, options, nuevo] = await Promise.all([
    store.list<StoredRow>(entity.view, lecturaDeLista(entity, state, user)),
    valores.then((v) =>
      loadOptions(store, entity, { ...state.filtros, ...(v.copia ? v.defaults : {}) }, optionSearches(entity, url)),
    ),
    valores,
  ]);
  return {
    state,
    avisoOrden,
    busquedaCorta: busquedaCorta(entity, state),
    result,
    options,
    can,
    // The «Nuevo …» form: its fields for this person, its first values, its one-time token.
    nuevo: { campos, envio: crypto.randomUUID(), ...nuevo },
  };
}

export type ListData = SerializeFrom<typeof listLoader>;

/** What a create may adjust (all optional; without them the generic behaviour). */
export type CreateOptions = {
  /** Completes the parsed values before the insert (defaults from the user); field errors refuse it. */
  prepare?: (values: Row, signed: Signed) => Promise<{ values: Row } | { fieldErrors: Record<string, string[]> }>;
  /**
   * When the form's schema refuses the post: more field errors to show with the schema's (what
   * `prepare` would refuse of the fields that did parse), so the person fixes everything at once.
   */
  alsoRefused?: (formData: FormData, signed: Signed) => Promise<Record<string, string[]>>;
  /** Where to go and what to say after the insert (default: the new record, «… creado», with the list to go back to). */
  done?: (
    row: Row,
    signed: Signed,
    url: URL,
  ) => Promise<{ to?: string; message?: string; kind?: FlashKind; enlace?: FlashLink }>;
};

/** The schema's refusal, with what `alsoRefused` adds on the fields the schema let through. */
async function refusal(
  submission: {
    reply: (o?: { fieldErrors?: Record<string, string[]> }) => unknown;
    error?: Record<string, string[] | null> | null;
  },
  formData: FormData,
  signed: Signed,
  alsoRefused?: CreateOptions["alsoRefused"],
) {
  if (!alsoRefused) return submission.reply();
  const extra = await alsoRefused(formData, signed);
  const fieldErrors = Object.fromEntries(Object.entries(extra).filter(([name]) => !submission.error?.[name]?.length));
  return submission.reply({ fieldErrors });
}

/**
 * POST on the list page: the «Nuevo …» form. Redirects to the new record (its «Volver» goes back
 * to the same list, filters kept), with a flash: on the list the new row may be on another page.
 * A refused form's reply carries the posted `intent`, if any, so a page with several forms
 * shows the errors on the right one.
 */
export async function createAction(entity: Entity, { request, context, ...args }: Args, o: CreateOptions = {}) {
  const signed = await requireViewer(entity, request, context);
  const { user, store } = signed;
  if (!puede(entity.permisos, "crear", user)) forbidden();
  const formData = args.formData ?? (await request.formData());
  const intent = intentOf(formData);
  return context.services.once(user.id, formData.get("_envio"), async () => {
    const campos = writableNames(entity, user);
    const submission = parseSubmission(formData, (zod) => entitySchema(zod, entity, { campos }));
    if (submission.status !== "success")
      return json({ ...intent, result: await refusal(submission, formData, signed, o.alsoRefused) }, { status: 400 });
    let values = submission.value as Row;
    if (o.prepare) {
      const prepared = await o.prepare(values, signed);
      if ("fieldErrors" in prepared)
        return json({ ...intent, result: submission.reply({ fieldErrors: prepared.fieldErrors }) }, { status: 400 });
      values = prepared.values;
    }
    try {
      const row = await store.insert<Row>(entity.table, values);
      const url = new URL(request.url);
      url.searchParams.delete("index");
      // Back to the list as it was, not with the form open again (`?nuevo=1`, its prefills).
      for (const key of [...url.searchParams.keys()])
        if (key === "nuevo" || key.startsWith("nuevo.")) url.searchParams.delete(key);
      const next = (await o.done?.(row, signed, url)) ?? {};
      return redirectWithFlash(
        context,
        request,
        next.to ??
          alContenido(`${entity.path}/${String(row.id)}?volver=${encodeURIComponent(url.pathname + url.search)}`),
        next.message ?? `${done(entity, "cread")}: ${recordName(entity, row)}`,
        next.kind,
        { enlace: next.enlace },
      );
    } catch (error) {
      return storeErrorReply(entity, store, submission, error, formData);
    }
  });
}

/**
 * A list screen's POST: one of the entity's bulk actions (by its `intent`, back to the same page
 * with the summary), or the «Nuevo …» form (createAction).
 */
export async function listAction(entity: Entity, args: Args, o: CreateOptions = {}) {
  if (!entity.enBloque?.length) return createAction(entity, args, o);
  const formData = args.formData ?? (await args.request.formData());
  const accion = accionEnBloque(entity, formData.get("intent"));
  if (!accion) return createAction(entity, { ...args, formData }, o);
  const signed = await requireViewer(entity, args.request, args.context);
  const url = new URL(args.request.url);
  for (const key of ["index", SELECCIONAR_TODOS]) url.searchParams.delete(key);
  return seleccionEnBloque(entity, accion, { ...args, signed, formData, volver: `${url.pathname}${url.search}` });
}

/**
 * A record page's data, with its declared sections' (Entity.secciones). `extra` adds what a
 * route of its own shows besides (a trip's gastos), read with the same store, as the same user.
 */
export async function recordLoader<X extends object = object>(
  entity: Entity,
  { request, context, params }: Args,
  o: { extra?: (ctx: Signed & { id: string; record: StoredRow }) => Promise<X> } = {},
) {
  const { user, store } = await requireViewer(entity, request, context);
  const id = entity.single ? await singleId(store, entity) : (params?.id ?? "");
  const record = await getOr404<StoredRow>(store, entity.view, id);
  const url = new URL(request.url);
  const [history, options, extra, motivos, secciones] = await Promise.all([
    loadHistory(store, entity.historialAparte?.length ? [entity.table, ...entity.historialAparte] : entity.table, id),
    loadOptions(store, entity, record, optionSearches(entity, url)),
    o.extra ? o.extra({ user, store, id, record }) : ({} as X),
    motivosDe(store, entity, id),
    datosDeSecciones(entity, { user, store }, id),
  ]);
  const { can, campos, porQue } = accesoA(entity, user, id, record);
  return datosDePagina({
    ...extra,
    secciones,
    record,
    history,
    options,
    can,
    campos,
    /** Why this record shows some fields as text (`acceso`'s `porQue`). */
    camposPorQue: porQue,
    /** The intents of the entity's `acciones` offered on this record to this person. */
    acciones: accionesOfrecidas(entity, record, user, motivos),
    volver: backTo(entity, url),
    confirmDelete: url.searchParams.has("eliminar"),
  });
}
/** The id of a `single` entity's one record (a 404 when there is none to see). */
async function singleId(store: Store, entity: Entity): Promise<string> {
  const { rows } = await store.list<Row>(entity.view, { columns: ["id"], limit: 1, offset: 0, count: "none" });
  if (!rows[0]) notFound();
  return String(rows[0].id);
}

/** What every record page shows (EntityRecordPage reads it; a route's `extra` adds to it). */
export type RecordData = SerializeFrom<typeof recordLoader<object>>;

/** One change in a record's history, written by the database's triggers. */
export type HistoryEntry = {
  id: number;
  accion: string;
  actor_nombre: string | null;
  creado_en: string;
  cambios: Record<string, { antes: unknown; despues: unknown }> | null;
};

/** The history of record `id` of `table` (or of any of `table`, the same id: a record and its data kept apart). */
export async function loadHistory(store: Store, table: string | string[], id: string) {
  const { rows } = await store.list("historial_vista", {
    columns: ["id", "accion", "actor_nombre", "creado_en", "cambios"],
    filters: [
      typeof table === "string"
        ? { column: "tabla", op: "eq", value: table }
        : { column: "tabla", op: "in", value: table },
      { column: "registro_id", op: "eq", value: id },
    ],
    order: [{ column: "creado_en", ascending: false }],
    limit: 100,
    offset: 0,
    count: "none",
  });
  // The view's columns are nullable by type; the history table's are not.
  return rows.map((r): HistoryEntry => ({
    id: Number(r.id),
    accion: String(r.accion),
    actor_nombre: r.actor_nombre,
    creado_en: String(r.creado_en),
    cambios: r.cambios as HistoryEntry["cambios"],
  }));
}

/**
 * POST on a record page: `intent` is `guardar` or `eliminar`; anything else is a 400.
 * `afterSave` runs after a successful save, before the redirect (e.g. end a deactivated user's sessions).
 */
export async function recordAction(
  entity: Entity,
  { request, context, params, ...args }: Args,
  o: {
    afterSave?: (saved: Row) => Promise<void>;
    /** Where to return instead of `volver` (e.g. the same list with the record's panel open), after a save and after a delete. */
    volver?: { guardado?: string; eliminado?: string };
    /** As in createAction: completes the parsed values before the update; field errors refuse it. */
    prepare?: CreateOptions["prepare"];
    /** As in createAction: more field errors when the schema refuses the post. */
    alsoRefused?: CreateOptions["alsoRefused"];
    /** The record as its view reads it, when the caller has just read it (for `entity.acceso`). */
    record?: Row;
  } = {},
) {
  const { user, store } = await requireViewer(entity, request, context);
  const id = entity.single ? await singleId(store, entity) : (params?.id ?? "");
  const formData = args.formData ?? (await request.formData());
  const intent = formData.get("intent");
  const url = new URL(request.url);
  const volver = backTo(entity, url);
  const version = versionDe(formData.get("version"));

  // An entity whose permissions depend on the record (its `acceso` reads it) reads it first.
  const record =
    o.record ?? (entity.acceso && entity.acceso.length > 2 ? await getOr404<Row>(store, entity.view, id) : undefined);
  // A page opened before the record held back fields or could no longer go is told why.
  const { can, campos, porQue, noSeElimina } = accesoA(entity, user, id, record);
  if (intent === "eliminar") {
    if (!can.eliminar) return noSeElimina ? json({ deleteError: noSeElimina }, { status: 409 }) : forbidden();
    try {
      // A version no record can have (a forged post) is a stale one: 0 never matches.
      await store.remove(entity.table, id, version ?? (formData.has("version") ? 0 : undefined));
      return redirectWithFlash(context, request, o.volver?.eliminado ?? volver, `${done(entity, "eliminad")}.`);
    } catch (error) {
      if (error instanceof Referenced)
        return json({ deleteError: await referencedMessage(store, entity, id) }, { status: 409 });
      if (error instanceof Conflict)
        return json(
          {
            deleteError:
              "Otra persona modificó este registro mientras lo miraba. Revise los datos actuales antes de eliminarlo.",
          },
          { status: 409 },
        );
      if (error instanceof NotFound) notFound();
      if (error instanceof Forbidden) forbidden();
      throw error;
    }
  }

  const accion = accionDeRegistro(entity, intent);
  if (accion) {
    url.searchParams.delete("index");
    // Its form posts to its own error summary: what it did (or why not) is said on the page's content.
    const aqui = alContenido(`${url.pathname}${url.search}`);
    return recordStep(entity, accion, { request, context }, { user, store }, { id, formData, volver: aqui, record });
  }

  if (intent !== "guardar") throw json({ message: "Acción desconocida." }, { status: 400 });
  if (!can.editar) forbidden();
  if (porQue && campos && writableFields(entity).some((f) => !campos.includes(f.name) && formData.has(f.name)))
    return json(
      {
        intent,
        result: parseSubmission(formData, (zod) => zod.object({})).reply({ formErrors: [porQue] }),
      },
      { status: 409 },
    );
  const submission = parseSubmission(formData, (zod) => entitySchema(zod, entity, { campos, id }));
  if (submission.status !== "success")
    return json(
      { intent, result: await refusal(submission, formData, { user, store }, o.alsoRefused) },
      { status: 400 },
    );
  if (version === null)
    return json(
      { intent, result: submission.reply({ formErrors: ["Falta la versión del registro: recargue la página."] }) },
      { status: 400 },
    );
  let values = submission.value as Row;
  if (o.prepare) {
    const prepared = await o.prepare(values, { user, store });
    if ("fieldErrors" in prepared)
      return json({ intent, result: submission.reply({ fieldErrors: prepared.fieldErrors }) }, { status: 400 });
    values = prepared.values;
  }
  try {
    const saved = await store.update<Row>(entity.table, id, version, values);
    await o.afterSave?.(saved);
    return redirectWithFlash(
      context,
      request,
      alContenido(o.volver?.guardado ?? volver),
      `${done(entity, "guardad")}.`,
    );
  } catch (error) {
    if (error instanceof Conflict) {
      const current = await getOr404<Row>(store, entity.view, id);
      return json(
        {
          intent,
          result: submission.reply({
            formErrors: [
              "Otra persona modificó este registro mientras lo editaba. Compare sus cambios con los valores actuales y vuelva a guardar.",
            ],
          }),
          current,
        },
        { status: 409 },
      );
    }
    return storeErrorReply(entity, store, submission, error, formData, id);
  }
}
