import type { z } from "zod";
import type { Permisos } from "~/auth/permissions";
import type { Field, Option } from "./fields";

/**
 * Everything the generic list and record machinery needs to serve one kind of record.
 * One file per entity declares it; routes stay a few lines long.
 */
export type ColumnKind = "text" | "money" | "date" | "boolean" | "option";

export type Column = {
  name: string;
  label: string;
  kind?: ColumnKind;
  options?: readonly Option[];
  /** This column links to the record's page. */
  link?: boolean;
  sortable?: boolean;
};

export type ListFilter =
  | { name: string; label: string; kind: "boolean"; column: string }
  | { name: string; label: string; kind: "select"; column: string; options: readonly Option[] }
  | { name: string; label: string; kind: "ref"; column: string; table: string }
  | { name: string; label: string; kind: "text"; column: string }
  | { name: string; label: string; kind: "date_from" | "date_to" | "money_min" | "money_max"; column: string };

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
  /** Columns searched by `q` (case-insensitive substring). */
  search: readonly string[];
  filters: readonly ListFilter[];
  defaultOrder: { column: string; ascending: boolean };
  /** How a record is named in headings and in other records' selects. */
  labelColumn: string;
  permisos: Permisos;
  /** Rules across fields (e.g. the NIF format depends on the country); add issues with `path: [field]`. */
  refine?: (values: Record<string, any>, ctx: z.RefinementCtx) => void;
  /** Initial values of the «Nuevo …» form. */
  defaults?: (ctx: { country: string; userId: string }) => Record<string, string>;
};

export function capitalize(s: string) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** «Departamento guardado», «Sucursal eliminada». */
export function done(entity: Entity, participle: "guardad" | "cread" | "eliminad") {
  return `${capitalize(entity.singular)} ${participle}${entity.gender === "f" ? "a" : "o"}`;
}
