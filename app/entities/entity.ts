import type { Genero } from "~/lib/articulos";
import type * as Zod from "zod";
import { puede, type Permisos, type Rol } from "~/auth/permissions";
import type { Filter } from "~/data/store";
import type { Option } from "~/lib/opciones";
import { formSchema, type Field, type Z } from "./fields";

/**
 * Everything the generic list and record machinery (app/crud/, app/ui/) needs to serve one kind
 * of record. One file per entity declares it, plain data the browser shares; routes stay a few
 * lines long. Every property is a feature any entity may use: gastos happens to be the one that
 * needs `rowFields`, `searchFunction` and `vistas` today.
 */
/**
 * `iban`: shown in groups of four; the CSV keeps it as stored, without spaces. `datetime`: a local
 * date and time stored without a time zone, shown as it is («20/11/2026 08:00»).
 */
export type ColumnKind = "text" | "money" | "date" | "datetime" | "boolean" | "option" | "count" | "iban";

export type Column = {
  name: string;
  label: string;
  kind?: ColumnKind;
  options?: readonly Option[];
  /** This column links to the record's page. */
  link?: boolean;
  sortable?: boolean;
  /** Shown as a text badge (e.g. a state), styled by value but always readable as text. */
  badge?: boolean;
  /** Shown only to these roles (e.g. who asked for a gasto, pointless to someone who sees only their own). */
  roles?: readonly Rol[];
  /**
   * `kind: "count"`: what is counted, for the cell («2 justificantes», empty when none; `icono`
   * shown instead of the words, which stay for screen readers). The CSV has the number.
   */
  contar?: { singular: string; plural: string; icono?: "clip" }; // icons drawn by app/ui/Icono.tsx
  /** Only in the CSV export: the table stays narrow and its page does not read it. */
  soloEnCsv?: boolean;
};

/**
 * A one-click view of a list («Mis gastos»): `?vista=name` adds these filters, resolved for
 * the person asking. `roles`: who is offered the link (anyone may still use the URL; row-level
 * security decides what it shows).
 */
export type ListView = {
  name: string;
  label: string;
  roles?: readonly Rol[];
  filters: (user: { id: string; rol: Rol }) => Filter[];
};

/**
 * `roles`: offered only to these roles, as a column's `roles`. `genero`: for a label whose first
 * word does not say it, in the messages that name the filter («Elija una sucursal de la lista»).
 */
export type ListFilter = { roles?: readonly Rol[]; genero?: Genero } & (
  | { name: string; label: string; kind: "boolean"; column: string }
  | { name: string; label: string; kind: "select"; column: string; options: readonly Option[] }
  | { name: string; label: string; kind: "ref"; column: string; table: string }
  /** `contains`: case-insensitive substring (e.g. «mad» finds Madrid); default exact match. */
  | { name: string; label: string; kind: "text"; column: string; match?: "exact" | "contains" }
  | { name: string; label: string; kind: "date_from" | "date_to"; column: string }
  /** `centimos`: the column holds the amount in integer cents (an indexable copy); the typed amount is converted. */
  | { name: string; label: string; kind: "money_min" | "money_max"; column: string; centimos?: boolean }
);

/** Who sees other people's requests: an empleado sees only their own, so «Solicitante» is not shown to them. */
const CON_EQUIPO = ["administrador", "aprobador"] as const;

/** «Solicitante», a column and a filter of what people ask for (gastos, viajes). */
export const SOLICITANTE = {
  columna: { name: "solicitante_nombre", label: "Solicitante", sortable: true, roles: CON_EQUIPO },
  filtro: {
    name: "solicitante",
    label: "Solicitante",
    kind: "ref",
    column: "solicitante_id",
    table: "usuarios",
    roles: CON_EQUIPO,
  },
} as const satisfies { columna: Column; filtro: ListFilter };

/**
 * A section of a record page besides its form, actions and history: `personas`, who belongs to
 * the department or branch (`por`: the user's column that points here, without `_id`); `gastos`, how many
 * gastos of this record the person may see and their total (`por`: the gasto's column, without
 * `_id`).
 */
export type SeccionDeFicha =
  | { tipo: "personas"; por: "departamento" | "sucursal"; donde: "en este departamento" | "en esta sucursal" }
  | { tipo: "gastos"; por: "proveedor" };

export type Entity = {
  table: string;
  /** The security-invoker view the list and record screens read (adds names of related records). */
  view: string;
  path: string;
  /** «Departamentos»: headings, title, nav. */
  title: string;
  singular: string;
  plural: string;
  /** Grammatical gender for «guardado/guardada». */
  gender: "m" | "f";
  fields: readonly Field[];
  columns: readonly Column[];
  /** What a list row needs besides `id` and its columns (e.g. a gasto's version, for bulk approval). */
  rowFields?: readonly string[];
  /** Columns searched by `q` (case-insensitive substring). */
  search: readonly string[];
  /** A database function doing the same search through indexes (see ListQuery.search.fn). */
  searchFunction?: string;
  filters: readonly ListFilter[];
  /** One-click views offered above the filters (`?vista=`). */
  vistas?: readonly ListView[];
  defaultOrder: { column: string; ascending: boolean };
  /**
   * A list that grows past what can be counted on every page (ADR 0006): counted exactly up to
   * EXACT_COUNT_LIMIT matches and estimated above, the `sumas` columns added up over the whole
   * filter while it is counted exactly. Sorting by an `ordenSoloContado` column (a related
   * record's name: the whole filter is read and sorted) only then; meanwhile the list is in its
   * default order and says why. Search terms shorter than `busquedaMinima` cannot use the
   * trigram indexes: they are not searched, and the page says so.
   */
  escala?: { sumas: readonly string[]; ordenSoloContado: readonly string[]; busquedaMinima: number };
  /**
   * Keys a list sorted by a column sorts by next, in the same direction, before `id` (gastos of
   * one date: the newest first). Its indexes and search function sort the same way.
   */
  thenBy?: Readonly<Record<string, readonly string[]>>;
  /** How a record is named in headings and in other records' selects. */
  labelColumn: string;
  /** What other records' selects of this entity read `labelColumn` from, when not the table (e.g. a view). */
  optionsFrom?: string;
  /** The column of `optionsFrom` that names a record in other records' selects and filters, when not `labelColumn`. */
  optionLabel?: string;
  permisos: Permisos;
  /**
   * Who sees this entity at all: its screens, its CSV and its link in the navigation (e.g. the
   * company's fiscal data, for administradores). Anyone else signed in gets the 404 of a page
   * that does not exist, for reading and writing alike, as other administrador-only pages do.
   * Without it, every signed-in person. Row-level security still decides what the database gives.
   */
  roles?: readonly Rol[];
  /**
   * One record only, served at `path` itself (e.g. the company's data): no list, no «Nuevo …»,
   * no delete (leave `permisos.crear` and `permisos.eliminar` empty) and no «Volver» link; the
   * page's heading is `title`. Its one route file, `<path>.tsx`, uses recordLoader and
   * recordAction, which find the record themselves (no `$id` in the path).
   */
  single?: boolean;
  /**
   * Rules across fields (e.g. the NIF format depends on the country); add issues with `path: [field]`.
   * Runs even when other fields failed (so the error summary lists everything at once): `values`
   * may lack a field or hold it unparsed, check before use. `record.id` is set when editing.
   */
  refine?: (values: Record<string, unknown>, ctx: Zod.RefinementCtx, record: { id?: string }) => void;
  /** Last touch on the parsed values before they are written (e.g. the NIF normalised by country). */
  normalize?: (values: Record<string, unknown>) => Record<string, unknown>;
  /** Initial values of the «Nuevo …» form (a checkbox: "on" starts it ticked). */
  defaults?: (ctx: { country: string; userId: string }) => Record<string, string>;
  /**
   * «… como este» on a record (`?nuevo=1&como={id}`): the «Nuevo …» form starts with the record's
   * values, but for `sinCopiar` (what belongs to that one document: its date, its number); `aviso`
   * says what else is not carried over. `delDueno`: fields that go with whose the record is (the
   * column `columna`): copied only when the new record is the same person's (a gasto's department,
   * branch and trip are its solicitante's); otherwise they start as for a new one.
   */
  copia?: {
    sinCopiar: readonly string[];
    aviso?: string;
    delDueno?: { columna: string; campos: readonly string[] };
  };
  /** A sentence under the list's heading (e.g. where the records come from). */
  intro?: string;
  /**
   * Permissions that depend on who asks (a user edits their own profile). On a record page
   * (`recordId`) `editar`/`eliminar` replace `permisos.editar/eliminar`. `campos` limits the
   * fields this user writes, in the «Nuevo …» form (no `recordId`) and on a record: the others
   * are shown, not posted, and dropped if posted anyway. The only source of who writes what.
   * `record`: the record as its view reads it, for a function that declares it (e.g. only the
   * solicitante edits a viaje another person may see); the record action then reads it first.
   * `porQue`: the sentence the edit form shows when the record holds back some of `campos`; a
   * post that still carries them (a page from before) is refused with it. `noSeElimina`: why a
   * record its owner sees may not be deleted, for a «Eliminar» posted from a page from before.
   */
  acceso?: (
    user: { id: string; rol: Rol },
    recordId?: string,
    record?: Record<string, unknown>,
  ) => { editar: boolean; eliminar: boolean; campos?: readonly string[]; porQue?: string; noSeElimina?: string };
  /**
   * Unique fields whose duplicate links to the existing record: field → the columns that find it
   * (e.g. `{ nif: ["pais", "nif"] }`).
   */
  duplicados?: Record<string, readonly string[]>;
  /**
   * Fields the forms show together under a title (e.g. a gasto's «Datos fiscales»), where the
   * first of them is declared. `plegado`: inside a closed `<details>` (one key to open it, none to
   * pass it), open when one of its fields has an error.
   */
  grupos?: readonly FieldGroup[];
  /** Workflow steps on a record, each a database function (see RecordAction). */
  acciones?: readonly RecordAction[];
  /**
   * A database function (`p_id`) that says, for each of `acciones`, why this person may not take
   * it on this record now (Motivos), in the words of the refusal they would get: only actions
   * without a reason are offered, and a post of one with a reason is refused with it (403) before
   * its form is read. Null: the record is not visible.
   */
  motivos?: string;
  /** Actions on many rows of the list at once (BulkAction). */
  enBloque?: readonly BulkAction[];
  /**
   * What the record page shows after its actions, read with the record as the same person
   * (SeccionDeFicha: each kind's reading is in crud/secciones.server.ts, its view in
   * ui/SeccionesDeFicha.tsx).
   */
  secciones?: readonly SeccionDeFicha[];
  /**
   * Fields only these roles read: field → roles. The database keeps them in a table of their own
   * whose row-level security gives anyone else nothing (e.g. a supplier's IBAN, in
   * proveedores_pago), so for anyone else the forms, the record page and the fields written
   * leave them out (`forRole`, and crud's `writableNames`). Who may read each record is still the
   * database's call (a department's budget: only the aprobadores in charge of it).
   */
  reservados?: Record<string, readonly Rol[]>;
  /**
   * Other tables whose history is this record's too (the same id): the tables of `reservados`.
   * Row-level security shows each entry to whoever may read its data.
   */
  historialAparte?: readonly string[];
  /**
   * Columns the history records that no field declares (written by the database or by a rule):
   * their label there; null leaves a purely technical column out. Otherwise the history would
   * show the column's name.
   */
  etiquetasHistorial?: Record<string, string | null>;
};

export type FieldGroup = {
  titulo: string;
  campos: readonly string[];
  plegado?: boolean;
  /**
   * A field of the group whose value the link that opened the form chose (`?nuevo.<campo>=…`):
   * then the group comes first, open (e.g. «Añadir kilometraje» starts at the trip's fields).
   */
  alFrente?: string;
};

/**
 * A workflow step on a record done by a database function (e.g. «Enviar el viaje a aprobación»):
 * a button of its own on the record page, with the fields it asks for (a rejection's motivo).
 * The generic record action calls `funcion` with `p_id`, `p_version` (the version the person
 * saw) and `p_<campo>` for each field (or what `argumentos` makes of them); the function decides
 * and refuses with its reason, said in the flash (or beside its field). `roles`: who may post it
 * at all (anyone else gets a 403); `disponible`: whether the button is offered for this record to
 * this person (with the entity's `motivos`, also only when the database gives no reason against);
 * `hecho`: the flash after it, from what the function returned. Warnings the function returns
 * (`avisos`, a list, or `aviso`) are said after it, as after a bulk action.
 */
export type RecordAction = {
  intent: string;
  label: string;
  funcion: string;
  campos?: readonly Field[];
  /** The fields' schema when it depends on the record (a payment no earlier than the gasto's date). */
  esquema?: (z: Z, record: Record<string, unknown>) => Zod.ZodType;
  argumentos?: (values: Record<string, unknown>) => Record<string, unknown>;
  roles?: readonly Rol[];
  peligro?: boolean;
  /** A sentence above the button (what it does). */
  ayuda?: string;
  disponible: (record: Record<string, unknown>, user: { id: string; rol: Rol }) => boolean;
  hecho: (resultado: Record<string, unknown>, record: Record<string, unknown>) => string;
  /**
   * A refusal about something the form does not ask for, by the column the database names: the
   * section of the record page where it is put right (`#ancla`), linked from the message.
   */
  remedios?: Record<string, FlashLinkTo>;
};

/** A link from a refusal to the section of the record page that puts it right. */
export type FlashLinkTo = { ancla: string; texto: string };

/** The declared record action posted as `intent`, if any. */
export function accionDeRegistro(entity: Pick<Entity, "acciones">, intent: unknown): RecordAction | undefined {
  return typeof intent === "string" ? entity.acciones?.find((a) => a.intent === intent) : undefined;
}

/**
 * The record actions to offer on `record` to this person: their role may post them, `disponible`
 * says so, and the database gives no reason against (`motivos`: the entity's, when it declares it).
 */
export function accionesOfrecidas(
  entity: Pick<Entity, "acciones">,
  record: Record<string, unknown>,
  user: { id: string; rol: Rol },
  motivos?: Motivos | null,
): string[] {
  return (entity.acciones ?? [])
    .filter((a) => (!a.roles || a.roles.includes(user.rol)) && a.disponible(record, user))
    .filter((a) => motivos === undefined || (motivos !== null && !motivos[a.intent]))
    .map((a) => a.intent);
}

/** Per record action's intent, why this person may not take it now, or null when they may. */
export type Motivos = Record<string, string | null>;

/**
 * An action on many rows of the list at once (the checked ones, or every one its filter matches),
 * run by app/crud/en-bloque.server.ts: `funcion` once per row, each in its own transaction, with
 * `p_id`, `p_version` (the version the person saw) and its fields' values, the same for every row
 * (`p_<campo>`, or what `argumentos` makes of them). The database decides each row; a refusal is
 * that row's line in the summary. `roles`: who may post it (anyone else gets a 403);
 * `aplicable`: whether a row is offered for it (the function still decides); `verbo`: how the
 * summary says it («aprobar»; «Aprobado», «Aprobados»; «Se ha aprobado», «Se han aprobado»).
 * Warnings a call returns (`avisos` or `aviso`) follow the summary, a later one on the same
 * subject (the words before «:») replacing an earlier one.
 */
export type BulkAction = {
  intent: string;
  label: string;
  funcion: string;
  campos?: readonly Field[];
  /** The fields' schema when it is more than each field's rules (rules across fields). */
  esquema?: (z: Z) => Zod.ZodType;
  argumentos?: (values: Record<string, unknown>) => Record<string, unknown>;
  roles?: readonly Rol[];
  peligro?: boolean;
  /** Shown with the other actions of the same `grupo`: one fieldset with this legend, their fields once. */
  grupo?: string;
  aplicable: (row: Record<string, unknown>, user: { id: string; rol: Rol }) => boolean;
  verbo: {
    infinitivo: string;
    participio: readonly [singular: string, plural: string];
    perfecto: readonly [singular: string, plural: string];
  };
};

/** The declared bulk action posted as `intent`, if any. */
export function accionEnBloque(entity: Pick<Entity, "enBloque">, intent: unknown): BulkAction | undefined {
  return typeof intent === "string" ? entity.enBloque?.find((a) => a.intent === intent) : undefined;
}

/** The bulk actions someone of role `rol` may post. */
export function enBloquePara(entity: Pick<Entity, "enBloque">, rol: Rol | undefined): readonly BulkAction[] {
  return (entity.enBloque ?? []).filter((a) => !a.roles || (rol !== undefined && a.roles.includes(rol)));
}

/**
 * What a list page offers in bulk to `user`: the actions they may post that apply to at least
 * one of its `rows`, and whether a row gets a «Seleccionar» box (an offered action applies to it).
 */
export function enBloqueDeLaPagina<R extends Record<string, unknown>>(
  entity: Pick<Entity, "enBloque">,
  user: { id: string; rol: Rol } | undefined,
  rows: readonly R[],
): { acciones: readonly BulkAction[]; seleccionable: (row: R) => boolean } {
  if (!user) return { acciones: [], seleccionable: () => false };
  const acciones = enBloquePara(entity, user.rol).filter((a) => rows.some((row) => a.aplicable(row, user)));
  return { acciones, seleccionable: (row) => acciones.some((a) => a.aplicable(row, user)) };
}

/**
 * The fields in form order, with each group's fields gathered where its first field is; a group
 * whose `alFrente` field the opening link chose (`preset`) comes first.
 */
export function conGrupos(
  entity: Entity,
  fields: readonly Field[],
  preset: readonly string[] = [],
): (Field | { grupo: FieldGroup; fields: Field[] })[] {
  const out: (Field | { grupo: FieldGroup; fields: Field[] })[] = [];
  const vistos = new Set<FieldGroup>();
  for (const field of fields) {
    const grupo = entity.grupos?.find((g) => g.campos.includes(field.name));
    if (!grupo) out.push(field);
    else if (!vistos.has(grupo)) {
      vistos.add(grupo);
      out.push({ grupo, fields: fields.filter((f) => grupo.campos.includes(f.name)) });
    }
  }
  const alFrente = (item: (typeof out)[number]) =>
    "grupo" in item && item.grupo.alFrente !== undefined && preset.includes(item.grupo.alFrente);
  return [...out.filter(alFrente), ...out.filter((item) => !alFrente(item))];
}

/** The names of `fields` in the order the form shows them (its error summary follows it). */
export const ordenDeCampos = (entity: Entity, fields: readonly Field[], preset: readonly string[] = []) =>
  conGrupos(entity, fields, preset).flatMap((item) => ("grupo" in item ? item.fields : [item]).map((f) => f.name));

/**
 * Reference rows gastos keep pointing to (a rate, a limit): administradores add them and correct
 * them; nobody deletes one, and a saved row changes only in `editables` (the column grants).
 */
export function soloAltasDeAdministrador(editables: readonly string[]): Pick<Entity, "permisos" | "roles" | "acceso"> {
  const permisos: Permisos = { crear: ["administrador"], editar: ["administrador"], eliminar: [] };
  return {
    permisos,
    roles: ["administrador"],
    acceso: (user, recordId) => ({
      editar: puede(permisos, "editar", user),
      eliminar: false,
      ...(recordId ? { campos: editables } : {}),
    }),
  };
}

/** Whether a person with `rol` sees the entity (its `roles`), for its screens and its navigation link. */
export function seenBy(entity: Pick<Entity, "roles">, rol: Rol | undefined): boolean {
  return !entity.roles || (rol !== undefined && entity.roles.includes(rol));
}

/**
 * How a record is named in headings, titles and messages: its `labelColumn`, read through the
 * options of the field of that name when it has them (a fixed list's slug shows as its label).
 */
export function recordName(entity: Entity, record: Record<string, unknown>): string {
  const value = record[entity.labelColumn];
  if (value === null || value === undefined) return "";
  const input = entity.fields.find((f) => f.name === entity.labelColumn)?.input;
  const options = input?.type === "select" ? input.options : undefined;
  return options?.find((o) => o.value === value)?.label ?? String(value);
}

/** The columns a list page reads: only what its rows show and need, not the whole record. */
export function listColumns(entity: Entity): string[] {
  // A list with bulk actions: each row's box carries the version the person saw and is named
  // after its record.
  const casilla = entity.enBloque?.length ? ["version", entity.labelColumn] : [];
  return [...new Set(["id", ...enLaTabla(entity).map((c) => c.name), ...(entity.rowFields ?? []), ...casilla])];
}

/** The columns the list's table shows (the CSV has them all). */
export function enLaTabla(entity: Entity): readonly Column[] {
  return entity.columns.filter((c) => !c.soloEnCsv);
}

/**
 * The entity as `rol` sees it: without the columns and filters meant for other roles, nor the
 * fields reserved to other roles (`reservados`).
 */
export function forRole(entity: Entity, rol: Rol | undefined): Entity {
  const shown = (item: { roles?: readonly Rol[] }) => !item.roles || (rol !== undefined && item.roles.includes(rol));
  const hidden = reservadosFuera(entity, rol);
  if (![...entity.columns, ...entity.filters].some((item) => item.roles) && !hidden.length) return entity;
  return {
    ...entity,
    fields: entity.fields.filter((f) => !hidden.includes(f.name)),
    columns: entity.columns.filter(shown),
    filters: entity.filters.filter(shown),
  };
}

/** The fields of `reservados` that `rol` does not read. */
export function reservadosFuera(entity: Entity, rol: Rol | undefined): string[] {
  return Object.entries(entity.reservados ?? {})
    .filter(([, roles]) => rol === undefined || !roles.includes(rol))
    .map(([name]) => name);
}

/** The fields a form writes: never read-only ones; only `campos` when given. */
export function writableFields(entity: Entity, campos?: readonly string[] | null) {
  return entity.fields.filter((f) => !f.readOnly && (!campos || campos.includes(f.name)));
}

/** The form schema of an entity (server and browser alike): its writable fields, cross-field rules, normalisation. */
export function entitySchema(z: Z, entity: Entity, o: { campos?: readonly string[] | null; id?: string } = {}) {
  const { refine, normalize } = entity;
  const schema = formSchema(
    z,
    writableFields(entity, o.campos),
    refine && ((values, ctx) => refine(values, ctx, { id: o.id })),
    { always: true },
  );
  return normalize ? schema.transform((values) => normalize(values)) : schema;
}

export function capitalize(s: string) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** «Nuevo departamento», «Nueva sucursal». */
export function nuevo(entity: Entity) {
  return `${entity.gender === "f" ? "Nueva" : "Nuevo"} ${entity.singular}`;
}

/** «Nuevo gasto como este»: the link that opens «Nuevo …» with a record's values (`copia`). */
export function nuevoComoEste(entity: Entity) {
  return `${nuevo(entity)} como ${entity.gender === "f" ? "esta" : "este"}`;
}

/** «Departamento guardado», «Sucursal eliminada». */
export function done(entity: Entity, participle: "guardad" | "cread" | "eliminad") {
  return `${capitalize(entity.singular)} ${participle}${entity.gender === "f" ? "a" : "o"}`;
}
