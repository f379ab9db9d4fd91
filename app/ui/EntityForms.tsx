import type { FieldMetadata, SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData, useFormAction, useLocation, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatValue } from "~/crud/cells";
import type { Options, StoredRow } from "~/crud/crud.server";
import type { Copia } from "~/crud/nuevo.server";
import {
  conGrupos,
  entitySchema,
  nuevo,
  ordenDeCampos,
  writableFields,
  type Entity,
  type FieldGroup,
} from "~/entities/entity";
import { eligio, type Eleccion, type Field } from "~/entities/fields";
import type { Formats } from "~/lib/format";
import { conArticulo } from "~/lib/articulos";
import { describirDesglose, leerDesglose } from "~/lib/iva";
import {
  anchorIds,
  ConformForm,
  FieldControl,
  toFormValues,
  useServerForm,
  type FormValues,
  type Pendiente,
} from "./forms";
import { useAbiertoDesde } from "./plegado";
import { useFormats } from "./page";

/**
 * A record's forms, for any entity: «Nuevo …» and the edit form, their field controls and the
 * option searches they use. Apart from the pages that hold them (EntityPages.tsx), so that a
 * screen with its own layout (/gastos and its panel) loads these and not the generic pages.
 */

type Row = StoredRow;
/** `existente`: the record that already holds a unique value the form sent. */
type Existente = { campo: string; href: string; nombre: string };
export type ActionData =
  | { intent?: string; result?: SubmissionResult<string[]>; current?: Row; deleteError?: string; existente?: Existente }
  | undefined;

/**
 * The control of one field of a record form, given the form's fields: a related record's select
 * gets its options and, when they were cut short (or are being searched), a search step; a
 * duplicate's error links to the record holding it.
 */
function fieldControls(fields: Record<string, FieldMetadata<unknown>>, options: Options, existente?: Existente) {
  return function control(field: Field) {
    const related = field.input.type === "ref" ? options[field.input.table] : undefined;
    const table = field.input.type === "ref" ? field.input.table : "";
    return (
      <FieldControl
        key={field.name}
        field={field}
        meta={fields[field.name]!}
        options={related?.options}
        errorLink={
          existente && existente.campo === field.name
            ? { href: existente.href, text: `Abrir «${existente.nombre}»` }
            : undefined
        }
        search={
          related && (related.truncated || related.busqueda)
            ? {
                form: `buscar-${table}`,
                name: `buscar_${table}`,
                value: related.busqueda,
                shown: related.options.length,
              }
            : undefined
        }
      />
    );
  };
}

/**
 * One GET form per searched table, outside the record forms (forms cannot nest); the search
 * boxes join it with the `form` attribute. It keeps the rest of the URL (list state, volver).
 */
export function OptionSearchForms({ options }: { options: Options }) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const tables = Object.entries(options).filter(([, o]) => o.truncated || o.busqueda);
  return (
    <>
      {tables.map(([table]) => (
        <Form key={table} method="get" id={`buscar-${table}`} preventScrollReset>
          {[...params.entries()]
            .filter(([key]) => key !== `buscar_${table}` && key !== "index")
            .map(([key, value], i) => (
              <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
            ))}
        </Form>
      ))}
    </>
  );
}

type CreateFormProps = Parameters<typeof FormularioNuevo>[0];

/**
 * The «Nuevo …» form. `campos`: only these fields (e.g. no solicitante for non-administradores);
 * `intent`: posted as a hidden field, and only a reply to that intent is shown here (a page with
 * several forms). A new form for each record it copies: the form keeps what it holds across
 * loads, and «Nuevo …» after a copy must start empty.
 */
export function CreateForm(props: CreateFormProps) {
  return <FormularioNuevo key={props.copia?.id ?? ""} {...props} />;
}

function FormularioNuevo({
  entity,
  options,
  envio,
  defaults,
  copia,
  campos,
  intent,
  action,
  archivos,
  sinJavaScript,
}: {
  entity: Entity;
  options: Options;
  envio: string;
  defaults: FormValues;
  /** The record it starts as a copy of (entity.copia), said under the heading with what was left out. */
  copia?: Copia | null;
  campos?: readonly string[] | null;
  intent?: string;
  /** A file field after the entity's fields; the form is then sent as `multipart/form-data`. */
  archivos?: ReactNode;
  /** What the error summary says too when the page was rendered again (see ConformForm). */
  sinJavaScript?: readonly Pendiente[];
  /** Where the form posts; it should end with `#nuevo`, so a refused post without JavaScript lands on the error summary (default: this page's action, `#nuevo`). */
  action?: string;
}) {
  const data = useActionData<ActionData & { intent?: string }>();
  // Only its own reply: one with another intent is another form's of the page (a bulk action's).
  const actionData = data?.intent === intent ? data : undefined;
  const navigation = useNavigation();
  const [form, fields] = useServerForm({
    id: `nuevo-${entity.table}`,
    schema: (z) => entitySchema(z, entity, { campos }),
    lastResult: actionData?.result,
    defaultValue: defaults,
  });
  const busy = navigation.state === "submitting" && navigation.formData?.get("_envio") === envio;
  const here = useFormAction();
  const ids = anchorIds(form, "nuevo");
  // The values the link that opened the form set (`?nuevo.<campo>=`, as the loader took them):
  // their folded group starts open, as the link is about them (a viaje's «Añadir kilometraje»).
  const params = new URLSearchParams(useLocation().search);
  const preset = Object.keys(defaults).filter((name) => params.has(`nuevo.${name}`));
  return (
    <section aria-labelledby={ids.heading} className="panel">
      <h2 id={ids.heading} tabIndex={-1}>
        {nuevo(entity)}
      </h2>
      {copia && entity.copia ? <p>{copiaAviso(entity, copia)}</p> : null}
      <ConformForm
        form={form}
        action={action ?? `${here}#nuevo`}
        summaryId={ids.summary}
        encType={archivos ? "multipart/form-data" : undefined}
        orden={ordenDeCampos(entity, writableFields(entity, campos), preset)}
        sinJavaScript={sinJavaScript}
      >
        <input type="hidden" name="_envio" value={envio} />
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        <Grupos
          entity={entity}
          fields={writableFields(entity, campos)}
          render={fieldControls(fields, options, actionData?.existente)}
          errores={form.allErrors}
          valores={form.initialValue}
          preset={preset}
        />
        {archivos}
        <div className="acciones">
          <button type="submit" disabled={busy}>
            {busy ? "Creando…" : `Crear ${entity.singular}`}
          </button>
        </div>
      </ConformForm>
    </section>
  );
}

/** «Con los datos de GAS-2026-00012, salvo la fecha, el nº de factura / ticket y la fecha de expedición. Los justificantes…» */
function copiaAviso(entity: Entity, { de, notas }: Copia) {
  const salvo = entity.copia!.sinCopiar.map((name) => {
    const field = entity.fields.find((f) => f.name === name);
    return field ? conArticulo(field.label) : name;
  });
  return [
    `Con los datos de ${de}${salvo.length ? `, salvo ${new Intl.ListFormat("es", { type: "conjunction" }).format(salvo)}` : ""}.`,
    ...notas,
    entity.copia!.aviso,
  ]
    .filter(Boolean)
    .join(" ");
}

export const EDITAR_ERRORES = "editar-errores";

/** The edit form of a record page (also usable on its own, e.g. in a panel beside a list). */
export function EditForm({
  entity,
  record,
  options,
  actionData,
  volver,
  campos,
  porQue,
  action,
}: {
  entity: Entity;
  record: Row;
  options: Options;
  actionData: ActionData;
  volver: string;
  /** The fields this user writes here (null: all); the others are shown as text. */
  campos?: string[] | null;
  /** Why some fields are shown as text on this record (e.g. a trip whose gastos were sent). */
  porQue?: string | null;
  /** Where the form posts (default: this page, at the error summary). */
  action?: string;
}) {
  const navigation = useNavigation();
  const formats = useFormats();
  const writable = new Set(writableFields(entity, campos).map((f) => f.name));
  const [form, fields] = useServerForm({
    id: `editar-${entity.table}`,
    schema: (z) => entitySchema(z, entity, { campos, id: record.id }),
    lastResult: actionData?.result,
    defaultValue: toFormValues(entity.fields, record),
  });
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "guardar";
  const control = fieldControls(fields, options, actionData?.existente);
  // A refused save lands on its error summary, focused, even without JavaScript.
  const here = useFormAction();
  return (
    // Why some fields are text is the section's description: said on entering it, not only in reading order.
    <section aria-labelledby="editar" aria-describedby={porQue ? "editar-por-que" : undefined} className="panel">
      <h2 id="editar">Datos</h2>
      {porQue ? (
        <p className="ayuda" id="editar-por-que">
          {porQue}
        </p>
      ) : null}
      {actionData?.current ? <CurrentValues entity={entity} current={actionData.current} options={options} /> : null}
      <ConformForm
        form={form}
        action={action ?? `${here}#${EDITAR_ERRORES}`}
        summaryId={EDITAR_ERRORES}
        orden={ordenDeCampos(entity, entity.fields)}
      >
        <input type="hidden" name="version" value={record.version} key={record.version} />
        <Grupos
          entity={entity}
          fields={entity.fields}
          errores={form.allErrors}
          valores={form.initialValue}
          render={(field) =>
            !writable.has(field.name) ? (
              <p key={field.name} className="campo">
                <span className="etiqueta">{field.label}</span>{" "}
                {displayField(field, record[field.name], formats, options)}
              </p>
            ) : (
              control(field)
            )
          }
        />
        <div className="acciones">
          <button type="submit" name="intent" value="guardar" disabled={busy}>
            {busy ? "Guardando…" : "Guardar cambios"}
          </button>
          <Link to={volver}>Cancelar</Link>
        </div>
      </ConformForm>
    </section>
  );
}

/** A form's fields in order, each declared group (`entity.grupos`) in its fieldset or fold. */
function Grupos({
  entity,
  fields,
  render,
  errores,
  valores,
  preset = [],
}: {
  entity: Entity;
  fields: readonly Field[];
  render: (field: Field) => ReactNode;
  errores: Record<string, string[]>;
  /** The values the form opens with (a refused post's, else the record's or the defaults). */
  valores: Record<string, unknown> | undefined;
  /** Fields given a value by the link that opened the form: their fold starts open. */
  preset?: readonly string[];
}) {
  // A fold the opening link chose (`alFrente`) comes first: it is what the form was opened for.
  const items = conGrupos(
    entity,
    fields.map((f) => {
      const tiene = (o?: Eleccion) => o !== undefined && eligio(o, valores);
      return tiene(f.salvoSi) ? { ...f, required: false } : tiene(f.soloSi) ? { ...f, required: true } : f;
    }),
    preset,
  );
  // A field for some choices only carries them; the entity's CSS hides it while another is chosen.
  const campo = (f: Field) =>
    f.aplicaSi ? (
      <div key={f.name} {...soloSi(f.aplicaSi)}>
        {render(f)}
      </div>
    ) : (
      render(f)
    );
  return (
    <>
      {items.map((item) =>
        "grupo" in item ? (
          <Grupo
            key={item.grupo.titulo}
            grupo={item.grupo}
            errores={errores}
            preset={preset}
            solo={soloSi(aplicaATodos(item.fields))}
          >
            {item.fields.map(campo)}
          </Grupo>
        ) : (
          campo(item)
        ),
      )}
    </>
  );
}

/** The attribute the entity's CSS reads (`data-solo-clase="ordinario"`). */
const soloSi = (a: Eleccion | undefined) => (a ? { [`data-solo-${a.campo}`]: a.valores.join(" ") } : {});
/** The choice every field of a group is for, if one: then the group too is out of sight with another. */
function aplicaATodos(fields: readonly Field[]): Eleccion | undefined {
  const [primero, ...resto] = fields.map((f) => f.aplicaSi);
  const igual = (a: Eleccion | undefined) =>
    a !== undefined && a.campo === primero?.campo && a.valores.join(" ") === primero.valores.join(" ");
  return primero && resto.every(igual) ? primero : undefined;
}

function Grupo({
  grupo,
  errores,
  preset,
  solo,
  children,
}: {
  grupo: FieldGroup;
  errores: Record<string, string[]>;
  preset: readonly string[];
  /** `soloSi` of the choice all its fields are for. */
  solo: Record<string, string>;
  children: ReactNode;
}) {
  const abierto = useAbiertoDesde(
    [...Object.keys(errores), ...preset].some((name) => grupo.campos.includes(name.replace(/\[.*$/, ""))),
  );
  if (!grupo.plegado)
    return (
      <fieldset className="grupo-campos" {...solo}>
        <legend>{grupo.titulo}</legend>
        {children}
      </fieldset>
    );
  return (
    <details className="grupo-campos" open={abierto} {...solo}>
      <summary>{grupo.titulo}</summary>
      {children}
    </details>
  );
}

/** After a refused stale save: what the record holds now, so nothing is overwritten unseen. */
function CurrentValues({ entity, current, options }: { entity: Entity; current: Row; options: Options }) {
  const formats = useFormats();
  return (
    <div className="valores-actuales" role="region" aria-labelledby="valores-actuales">
      <h3 id="valores-actuales">Valores actuales guardados por la otra persona</h3>
      <ValoresDelRegistro entity={entity} record={current} formats={formats} options={options} />
      <p>Si guarda ahora, sus valores del formulario sustituirán a estos.</p>
    </div>
  );
}

/** Every field of a record, its label and its value as shown (the record's page, a stale save's current values). */
export function ValoresDelRegistro({
  entity,
  record,
  formats,
  options,
  className,
}: {
  entity: Entity;
  record: Row;
  formats: Formats;
  options: Options;
  className?: string;
}) {
  return (
    <dl className={className}>
      {entity.fields.map((f) => (
        <div key={f.name}>
          <dt>{f.label}</dt>
          <dd>{displayField(f, record[f.name], formats, options)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function displayField(field: Field, value: unknown, formats: Formats, options: Options) {
  if (field.display && typeof value === "string" && value !== "") return field.display(value);
  const input = field.input;
  if (input.type === "desglose") return describirDesglose(leerDesglose(value) ?? [], formats.locale) || "—";
  // As the database writes it in its texts (interno.cantidad): «1150 km», «72,5 km», no «1150,0».
  if (input.type === "decimal" && value !== null && value !== undefined && value !== "")
    return `${String(Number(value)).replace(".", ",")}${input.unidad ? ` ${input.unidad}` : ""}`;
  const kind =
    input.type === "money"
      ? "money"
      : input.type === "date"
        ? "date"
        : input.type === "datetime"
          ? "datetime"
          : input.type === "checkbox"
            ? "boolean"
            : input.type === "select"
              ? "option"
              : "text";
  const opts =
    input.type === "select" ? input.options : input.type === "ref" ? options[input.table]?.options : undefined;
  const shown = formatValue({ kind: input.type === "ref" ? "option" : kind, options: opts }, value, formats);
  return shown || "—";
}
