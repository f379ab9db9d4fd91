import { getFormProps, useForm, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
  type ReactNode,
} from "react";
import type { Field, Schema } from "~/entities/fields";
import { parseDateTimeInput } from "~/lib/dates";
import { cuenta } from "~/lib/plural";
import { DesgloseControl } from "./DesgloseControl";
import { ErrorDeCampo } from "./ErrorDeCampo";
import { ResumenDeErrores } from "./ResumenDeErrores";
import type * as ValidacionModule from "./validacion-en-vivo";

/**
 * Forms are native HTML posted to the route's action; conform adds validation as you type when
 * JavaScript is there, and `lastResult` shows the server's verdict (errors and typed values) when
 * it is not. Errors the GOV.UK way: a summary first, then the same words next to each field.
 */
export function useServerForm(options: {
  id: string;
  /** Built with the browser's zod once it has loaded (validation as you type starts then). */
  schema: Schema;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Record<string, string | Record<string, string>[] | undefined>;
}) {
  const validacion = useValidacion();
  return useForm<Record<string, unknown>>({
    id: options.id,
    lastResult: options.lastResult,
    // Conform takes nested values (a breakdown's lines) as they are; its type for an
    // `unknown` schema only names flat ones.
    defaultValue: options.defaultValue as Record<string, string | undefined> | undefined,
    // First verdict on submit, not on blur: errors appearing on blur push the submit button down
    // between mousedown and click, so the click that should submit was lost. After a submit,
    // the errors follow what is typed — once the browser can check them: until the validation
    // has loaded, Conform would send each keystroke to the server to be checked.
    shouldValidate: "onSubmit",
    shouldRevalidate: validacion ? "onInput" : "onSubmit",
    onValidate: validacion
      ? ({ formData }) => validacion.parseWithZod(formData, { schema: options.schema(validacion.z) })
      : undefined,
  });
}

type Validacion = typeof ValidacionModule;
let validacionCargando: Promise<Validacion> | undefined;

/** ui/validacion-en-vivo.ts, loaded once per page after hydration; null until it arrives. */
function useValidacion(): Validacion | null {
  const [validacion, setValidacion] = useState<Validacion | null>(null);
  useEffect(() => {
    let montado = true;
    (validacionCargando ??= import("./validacion-en-vivo")).then(
      (m) => montado && setValidacion(m),
      () => (validacionCargando = undefined), // offline for a moment: the server still validates
    );
    return () => {
      montado = false;
    };
  }, []);
  return validacion;
}

export function ConformForm({
  form,
  children,
  method = "post",
  action,
  className,
  summaryId,
  encType,
  orden,
  sinJavaScript,
}: {
  form: FormMetadata<Record<string, unknown>>;
  children: ReactNode;
  /** The fields in the order the form shows them, when it is not the order they post in. */
  orden?: readonly string[];
  /** What only a page rendered again must say too (a file to choose again), linked to its control. */
  sinJavaScript?: readonly Pendiente[];
  method?: "post";
  action?: string;
  /** `multipart/form-data` for a form with a file input (its route must read the body as a stream). */
  encType?: "multipart/form-data";
  className?: string;
  /** The error summary's id while it shows (see `anchorIds`). */
  summaryId?: string;
}) {
  const { onSubmit, ...formProps } = getFormProps(form);
  const takeover = useSubmitTakeover(onSubmit);
  // Says when errors start following what is typed (the validation has loaded).
  const enVivo = useValidacion() !== null;
  return (
    <Form
      data-validacion={enVivo ? "en-vivo" : undefined}
      method={method}
      action={action}
      encType={encType}
      {...formProps}
      onSubmit={takeover.onSubmit}
      noValidate
      className={className ?? "formulario"}
    >
      <SubmitTakeover value={takeover.register}>
        <ErrorSummary form={form} id={summaryId} orden={orden} sinJavaScript={sinJavaScript} />
        {children}
      </SubmitTakeover>
    </Form>
  );
}

/** A submit button for each intent a form answers; `etiqueta` names what each one acts on. */
export function BotonesDeIntent<B extends { intent: string; texto: string; className?: string }>({
  botones,
  etiqueta,
}: {
  botones: readonly B[];
  etiqueta?: (boton: B) => string;
}) {
  return botones.map((b) => (
    <button
      key={b.intent}
      type="submit"
      name="intent"
      value={b.intent}
      className={b.className}
      aria-label={etiqueta?.(b)}
    >
      {b.texto}
    </button>
  ));
}

/** A form's row of actions when it has one submit button, posted as `intent`. */
export function SubmitIntent({ intent, children }: { intent: string; children: ReactNode }) {
  return (
    <div className="acciones">
      <button type="submit" name="intent" value={intent}>
        {children}
      </button>
    </div>
  );
}

/**
 * A form reached by a fragment (`#nuevo`, the form's action ends with it so a refused post
 * without JavaScript lands there): the fragment names the heading, or the error summary while
 * there are errors, so the browser itself scrolls to the summary and focuses it (GOV.UK pattern,
 * no script needed). `heading` is the heading's id, for `aria-labelledby`.
 */
export function anchorIds(form: FormMetadata<Record<string, unknown>>, anchor: string) {
  const errors = Object.keys(form.allErrors).length > 0 || (form.errors?.length ?? 0) > 0;
  return errors ? { heading: `${anchor}-titulo`, summary: anchor } : { heading: anchor, summary: undefined };
}

/** Nothing to subscribe to: `useSyncExternalStore` only tells the server's render from the browser's. */
const sinCambios = () => () => {};

/** A line of the error summary that is no field's error: its words and the control it leads to. */
export type Pendiente = { mensaje: string; control: string };

/** «Hay N errores»: one link per error to its field; takes focus when it appears. */
export function ErrorSummary({
  form,
  id,
  orden: declarado,
  sinJavaScript = [],
}: {
  form: FormMetadata<Record<string, unknown>>;
  id?: string;
  orden?: readonly string[];
  sinJavaScript?: readonly Pendiente[];
}) {
  // Once the page's script runs, a refused form was never rendered again: what only a new page
  // must say (its file inputs came back empty) no longer applies.
  const hidratado = useSyncExternalStore(
    sinCambios,
    () => true,
    () => false,
  );
  const pendientes = hidratado ? [] : sinJavaScript;
  // In the form's order (as declared, else as its values come, the order it posts them): a rule
  // over several fields (the entity's refine) reports after each field's own, yet its field may
  // come first.
  const orden = declarado ?? Object.keys((form.value ?? form.initialValue ?? {}) as object);
  const posicion = (name: string) => {
    const i = orden.indexOf(name.split(/[.[]/)[0]!);
    return i < 0 ? orden.length : i;
  };
  const fieldErrors = Object.entries(form.allErrors)
    .filter(([name]) => name !== form.id && name !== "")
    .sort(([a], [b]) => posicion(a) - posicion(b));
  const formErrors = form.errors ?? [];
  const count = fieldErrors.length + formErrors.length + pendientes.length;
  if (count === 0) return null;
  return (
    <ResumenDeErrores
      id={id}
      tituloId={`${form.id}-resumen`}
      titulo={<>Hay {cuenta(count, "error", "errores")}</>}
      // Focus on a new verdict, not on every keystroke.
      firma={JSON.stringify([form.status, form.allErrors])}
      enfocar={form.status === "error"}
    >
      <ul>
        {formErrors.map((message) => (
          <li key={message}>{message}</li>
        ))}
        {fieldErrors.map(([name, messages]) => (
          <li key={name}>
            <a href={`#${form.id}-${name}`}>{messages[0]}</a>
          </li>
        ))}
        {pendientes.map((p) => (
          <li key={p.control}>
            <a href={`#${p.control}`}>{p.mensaje}</a>
          </li>
        ))}
      </ul>
    </ResumenDeErrores>
  );
}

/** One form control for a declared field, with its label, hint and error tied by aria attributes. */
export function FieldControl({
  field,
  meta,
  options,
  disabled,
  errorLink,
  search,
}: {
  field: Field;
  meta: FieldMetadata<unknown>;
  options?: { value: string; label: string }[];
  disabled?: boolean;
  /** A link shown with the field's error (e.g. to the record that already has this value). */
  errorLink?: { href: string; text: string };
  /**
   * A related-record select with too many options: a search box that belongs to the GET form
   * `search.form` (outside this form, via the `form` attribute), so it works without JavaScript.
   */
  search?: { form: string; name: string; value?: string; shown: number };
}) {
  // Read once: every read of a Conform metadata property builds its metadata afresh.
  const { id, name, errors, initialValue, key } = meta;
  const hintId = field.hint ? `${id}-ayuda` : undefined;
  const errorId = errors?.length ? meta.errorId : undefined;
  const common = {
    id,
    name,
    "aria-invalid": errorId ? true : undefined,
    "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
    disabled,
  } as const;
  const value = typeof initialValue === "string" ? initialValue : undefined;
  const label = (
    <label htmlFor={id}>
      {field.label}
      {field.required ? <span className="obligatorio"> (obligatorio)</span> : null}
    </label>
  );
  const extra = (
    <>
      {field.hint ? (
        <p className="ayuda" id={hintId}>
          {field.hint}
        </p>
      ) : null}
      {errorId ? (
        <ErrorDeCampo id={errorId}>
          {errors![0]}
          {errorLink ? (
            <>
              {". "}
              <Link to={errorLink.href}>{errorLink.text}</Link>
            </>
          ) : null}
        </ErrorDeCampo>
      ) : null}
    </>
  );
  const input = field.input;

  if (input.type === "desglose") {
    return <DesgloseControl field={field} input={input} meta={meta} hintId={hintId} disabled={disabled} />;
  }

  if (input.type === "checkbox") {
    return (
      <div className={`campo campo-casilla${errorId ? " campo-con-error" : ""}`}>
        <input type="checkbox" {...common} defaultChecked={initialValue === "on"} key={`${key}`} />
        {label}
        {extra}
      </div>
    );
  }

  let control: ReactNode;
  if (input.type === "textarea") {
    control = <textarea {...common} defaultValue={value} rows={4} key={key} />;
  } else if (input.type === "select" || input.type === "ref") {
    const list = input.type === "select" ? input.options : (options ?? []);
    control = (
      <select {...common} defaultValue={value ?? ""} key={key}>
        <option value="">{field.required ? "Elija una opción" : "— Ninguno —"}</option>
        {list.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
    if (search) {
      const searchId = `${id}-buscar`;
      control = (
        <>
          {control}
          <div className="buscar-opciones">
            <p className="ayuda" id={`${searchId}-ayuda`}>
              {search.value
                ? `${search.shown === 0 ? "Ninguna opción contiene" : search.shown === 1 ? "Se muestra la opción que contiene" : `Se muestran las ${search.shown} opciones que contienen`} «${search.value}». Deje la búsqueda vacía para ver las primeras.`
                : `Hay demasiadas opciones: se muestran las ${search.shown} primeras. Busque para ver otras.`}{" "}
              La búsqueda recarga la página: hágala antes de rellenar el resto.
            </p>
            <label htmlFor={searchId}>Buscar {field.label.toLowerCase()}</label>
            <input
              type="search"
              id={searchId}
              name={search.name}
              form={search.form}
              defaultValue={search.value}
              maxLength={100}
              aria-describedby={`${searchId}-ayuda`}
            />
            <button type="submit" form={search.form} className="secundario">
              Buscar
            </button>
          </div>
        </>
      );
    }
  } else if (input.type === "money") {
    control = (
      <input
        type="text"
        inputMode="decimal"
        autoComplete="off"
        {...common}
        defaultValue={value}
        key={key}
        className="importe"
      />
    );
  } else if (input.type === "date") {
    control = <input type="date" {...common} defaultValue={value} key={key} />;
  } else if (input.type === "datetime") {
    control = <input type="datetime-local" {...common} defaultValue={value} key={key} />;
  } else if (input.type === "decimal") {
    control = <input type="text" inputMode="decimal" autoComplete="off" {...common} defaultValue={value} key={key} />;
  } else {
    control = (
      <input
        type={input.type}
        {...common}
        defaultValue={value}
        inputMode={input.inputMode}
        autoComplete={input.autoComplete ?? "off"}
        className={input.uppercase ? "mayusculas" : undefined}
        // A code (NIF, BIC, IBAN…) is not a word: no spelling marks under it.
        spellCheck={input.uppercase ? false : undefined}
        key={key}
      />
    );
  }
  return (
    <div className={`campo${errorId ? " campo-con-error" : ""}`}>
      {label}
      {extra}
      {control}
    </div>
  );
}

/**
 * A record's values as the form shows them: money with a decimal comma, booleans as "on", a
 * breakdown's lines as rows of strings.
 */
export type FormValues = Record<string, string | Record<string, string>[]>;
export function toFormValues(fields: readonly Field[], record: Record<string, unknown> | null | undefined) {
  const out: FormValues = {};
  for (const f of fields) {
    const v = record?.[f.name];
    if (v === null || v === undefined) continue;
    if (f.input.type === "desglose") {
      if (Array.isArray(v))
        out[f.name] = v.map((l: Record<string, unknown>) => ({
          tipo: String(l.tipo ?? ""),
          base: String(l.base ?? "").replace(".", ","),
          cuota: String(l.cuota ?? "").replace(".", ","),
        }));
    } else if (f.input.type === "checkbox") {
      if (v) out[f.name] = "on";
    } else if (f.input.type === "money" || f.input.type === "decimal") out[f.name] = String(v).replace(".", ",");
    else if (f.input.type === "datetime") out[f.name] = parseDateTimeInput(String(v)) ?? String(v);
    else out[f.name] = f.display ? f.display(String(v)) : String(v);
  }
  return out;
}

type Takeover = (event: FormEvent<HTMLFormElement>) => void;
/** Registers a field's handler with its form; returns how to unregister it. */
type RegisterTakeover = (handler: Takeover) => () => void;
const TakeoverContext = createContext<RegisterTakeover | null>(null);
/** Around a form's fields: lets one of them take over the submission (see `useSubmitTakeover`). */
export const SubmitTakeover = TakeoverContext.Provider;

/**
 * A field may send its form itself instead of Remix (the receipts' field: large files go with
 * upload progress). The form keeps its own checks: the field is asked only once `before`
 * (Conform's validation) has let the submission through, and calls `preventDefault` to take it.
 * Returns the form's `onSubmit` and `register`, the value of its `SubmitTakeover`.
 */
export function useSubmitTakeover(before?: (event: FormEvent<HTMLFormElement>) => void) {
  const fieldRef = useRef<Takeover | null>(null);
  const [register] = useState<RegisterTakeover>(() => (handler: Takeover) => {
    fieldRef.current = handler;
    return () => {
      if (fieldRef.current === handler) fieldRef.current = null;
    };
  });
  return {
    register,
    onSubmit(event: FormEvent<HTMLFormElement>) {
      before?.(event);
      if (!event.defaultPrevented) fieldRef.current?.(event);
    },
  };
}

/** For a field inside `SubmitTakeover`: `handler` is asked on each submission of its form. */
export function useTakeOverSubmit(handler: Takeover) {
  const register = useContext(TakeoverContext);
  const latestRef = useRef(handler);
  useEffect(() => {
    latestRef.current = handler;
  });
  useEffect(() => register?.((event) => latestRef.current(event)), [register]);
}
