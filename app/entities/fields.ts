import type * as Zod from "zod";
import { conArticulo, conIndefinido, type Concordancia } from "~/lib/articulos";
import type { Option } from "~/lib/opciones";
import { parseDateInput, parseDateTimeInput } from "~/lib/dates";
import { formatIban, ibanError, normalizeIban } from "~/lib/iban";
import { completarLinea, esTipoIva, type LineaParcial } from "~/lib/iva";
import { parseMoney, tieneDemasiadasCifras } from "~/lib/money";

/**
 * A field is declared once: its label, how it is typed in a form, and how the server parses it
 * (a zod schema with Spanish messages that say what to type). Forms, list columns, CSV headers,
 * filters and tests all read these declarations.
 *
 * The schema is a function of the zod namespace rather than a schema: this module does not load
 * zod, so the pages that show fields do not ship it on first load (ADR 0008). The server passes
 * its zod; the browser passes the one it loads after the page works (ui/forms.tsx).
 */
export type Z = typeof Zod.z;
// A form's parsed values are typed by the form that reads them (e.g. the sign-in's email).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Schema = (z: Z) => Zod.ZodType<any>;

/** A choice a form holds: field `campo` with one of `valores` (no value at all reads as ""). */
export type Eleccion = { campo: string; valores: readonly string[] };
/** Whether `values` (a form's, a record's) hold one of the choice's values. */
export const eligio = (o: Eleccion, values: Record<string, unknown> | undefined) =>
  o.valores.includes(String(values?.[o.campo] ?? ""));

export type FieldInput =
  | {
      type: "text" | "email" | "tel" | "url" | "password";
      inputMode?: "numeric";
      autoComplete?: string;
      uppercase?: boolean;
    }
  | { type: "textarea" }
  | { type: "select"; options: readonly Option[] }
  | { type: "ref"; table: string }
  | { type: "checkbox" }
  | { type: "money" }
  | { type: "date" }
  /** A local date and time (`<input type="datetime-local">`), stored without a time zone. */
  | { type: "datetime" }
  /** A quantity that is not money (kilometres): up to `decimales` decimals, typed with a comma. */
  | { type: "decimal"; decimales: number; unidad?: string }
  /**
   * Lines of {tipo, base, cuota} (an IVA breakdown): `lineas` rows, the first always shown;
   * `importe` and `otros`: the fields holding the total it splits and its part without IVA (with
   * JavaScript, the form shows the breakdown it would save as they are typed).
   */
  | {
      type: "desglose";
      lineas: number;
      tipos: readonly Option[];
      importe?: string;
      otros?: string;
      /** The checkbox that says the importe carries no IVA (the cuotas are declared apart). */
      sinIva?: string;
    };

export type Field = {
  name: string;
  label: string;
  required: boolean;
  input: FieldInput;
  schema: Schema;
  hint?: string;
  /** Shown but never written by the form (e.g. email from the account, folio from the database). */
  readOnly?: boolean;
  /**
   * Required, except when field `campo` holds one of `valores`: the form marks it «obligatorio» by
   * the value it opens with (a gasto's importe, which a kilometraje or a dieta does not take).
   */
  salvoSi?: Eleccion;
  /** The other way round: optional, but marked «obligatorio» when `campo` opens with one of `valores`. */
  soloSi?: Eleccion;
  /**
   * In sight only while the form's `campo` holds one of `valores` (CSS `:has()`, so without
   * JavaScript too): a field another choice does not use stays out of the way and of the tab
   * order. The form marks it `data-solo-<campo>`; the rule that reads it is the entity's CSS.
   */
  aplicaSi?: Eleccion;
  /** How a stored value reads, on the record and in its form (e.g. an IBAN in groups of four). */
  display?: (value: string) => string;
};

/**
 * `genero` and `plural`: for a label whose first word does not say them («Sucursal» is
 * feminine); `enMensaje`: the words the messages use when the label is not a noun («Repita la
 * contraseña nueva» → «la contraseña nueva otra vez»).
 */
type Common = Concordancia & { required?: boolean; hint?: string; enMensaje?: string };
/** «la descripción», «el NIF…»: the field as «Escriba …» names it. */
const el = (label: string, o: Common) => o.enMensaje ?? conArticulo(label, o);
/** «una categoría», «un rol»: the field as «Elija …» names it. */
const un = (label: string, o: Common) => o.enMensaje ?? conIndefinido(label, o);

/** Optional fields store NULL when left empty, so clearing a field really clears it. */
function optional<T extends Zod.ZodType>(schema: T) {
  return schema.optional().transform((v) => v ?? null);
}

/** The field's schema as given when required, else optional (empty → NULL). */
function required(o: Common, schema: (z: Z) => Zod.ZodType): Schema {
  return (z) => (o.required ? schema(z) : optional(schema(z)));
}

/** PostgreSQL cannot store the NUL character: it is refused here, with a message, not by the database with a 500. */
const sinNul = (v: string) => !v.includes("\u0000");
const nulMessage = (label: string) =>
  `${label}: tiene un carácter no válido (quizá al pegar el texto); escríbalo de nuevo`;

/**
 * What a one-line field must not hold: line breaks and other control characters (C0, DEL, C1),
 * the Unicode line and paragraph separators, and the bidirectional overrides and isolates that
 * make text read in another order than it is stored. A name or a descripción with these could
 * pose as a line of its own in a mail or a CSV, or hide what it says.
 */
// eslint-disable-next-line no-control-regex
export const CONTROL = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
const unaLinea = (v: string) => !CONTROL.test(v);
/**
 * Whether the text shows a letter or a digit. Some code points are letters that draw nothing (the
 * Hangul fillers, U+3164): Unicode marks them default-ignorable, and they do not count.
 */
const dice = (v: string) => /[\p{L}\p{N}]/u.test(v.replace(/\p{Default_Ignorable_Code_Point}/gu, ""));
const controlMessage = (label: string) =>
  `${label}: escríbalo en una sola línea, sin saltos de línea, tabuladores ni otros caracteres de control (quizá vinieron al pegar el texto)`;

/** The field as `o` declares it: whether it is required, and its hint. */
function campo(name: string, label: string, o: Common, input: Field["input"], schema: Schema, extra?: Partial<Field>) {
  return { name, label, required: Boolean(o.required), hint: o.hint, input, schema, ...extra } satisfies Field;
}

/** Inside a transform: the value is refused with `message` (what it returns stands for no value). */
function rechazo(z: Z, ctx: Zod.RefinementCtx, message: string): never {
  ctx.addIssue({ code: "custom", message });
  return z.NEVER;
}

export function text(
  name: string,
  label: string,
  o: Common & {
    min?: number;
    max: number;
    pattern?: RegExp;
    patternMessage?: string;
    uppercase?: boolean;
    type?: "text" | "email" | "tel" | "url" | "password";
    autoComplete?: string;
  },
): Field {
  const what = el(label, o);
  const schema = required(o, (z) => {
    // Passwords are taken exactly as typed; everything else loses stray spaces at the ends.
    const base = z.string({ error: `Escriba ${what}` });
    let s = (o.type === "password" ? base : base.trim()).max(o.max, {
      error: `${label}: como máximo ${o.max} caracteres`,
    });
    // A password is a secret typed as it is, never shown or mailed. Anything else is read by
    // someone (or a bank's file): it says something visible, not only marks or invisible characters.
    // One message for one fault: the control characters include NUL (`abort`: no further checks).
    s =
      o.type === "password"
        ? s.refine(sinNul, { error: nulMessage(label) })
        : s.refine(unaLinea, { error: controlMessage(label), abort: true }).refine((v) => v === "" || dice(v), {
            error: `${label}: escriba letras o cifras, no solo signos o caracteres invisibles`,
          });
    if (o.min && o.min > 1) s = s.min(o.min, { error: `${label}: al menos ${o.min} caracteres` });
    if (o.min) s = s.min(1, { error: `Escriba ${what}` });
    let out: Zod.ZodType = o.uppercase ? s.transform((v) => v.toUpperCase()) : s;
    if (o.pattern) out = out.pipe(z.string().regex(o.pattern, { error: o.patternMessage ?? `Revise ${what}` }));
    return out;
  });
  return campo(
    name,
    label,
    o,
    { type: o.type ?? "text", autoComplete: o.autoComplete, uppercase: o.uppercase },
    schema,
  );
}

/**
 * An IBAN: spaces and a leading «IBAN» dropped, upper case, ISO 13616 mod-97 check (the
 * database checks the same, interno.iban_valido); shown in groups of four.
 */
export function iban(name: string, label: string, o: Common = {}): Field {
  const what = el(label, o);
  const schema = required(o, (z) =>
    z.string({ error: `Escriba ${what}` }).transform((v, ctx) => {
      const value = normalizeIban(v);
      if (value === "") {
        if (!o.required) return null;
        return rechazo(z, ctx, `Escriba ${what}`);
      }
      const problem = ibanError(value);
      if (problem) {
        return rechazo(z, ctx, problem);
      }
      return value;
    }),
  );
  return campo(name, label, o, { type: "text", autoComplete: "off", uppercase: true }, schema, { display: formatIban });
}

export function textarea(name: string, label: string, o: Common & { max: number }): Field {
  const schema = (z: Z) =>
    optional(
      z
        .string()
        .trim()
        .max(o.max, { error: `${label}: como máximo ${o.max} caracteres` })
        .refine(sinNul, { error: nulMessage(label) }),
    );
  return { name, label, required: false, hint: o.hint, input: { type: "textarea" }, schema };
}

export function code(name: string, label: string, o: Common = {}): Field {
  return text(name, label, {
    required: true,
    min: 2,
    max: 10,
    uppercase: true,
    pattern: /^[A-Z0-9-]{2,10}$/,
    patternMessage: `${label}: de 2 a 10 letras sin tilde, números o guiones, por ejemplo ADM-01`,
    hint: o.hint ?? "De 2 a 10 letras, números o guiones. Se guarda en mayúsculas.",
  });
}

export function email(name: string, label: string, o: Common = {}): Field {
  const schema = required(o, (z) =>
    z
      .string({ error: `Escriba ${el(label, o)}` })
      .trim()
      .toLowerCase()
      .max(254, { error: `${label}: como máximo 254 caracteres` })
      .pipe(z.email({ error: `Escriba un correo válido, por ejemplo nombre@empresa.es` })),
  );
  return campo(name, label, o, { type: "email", autoComplete: "email" }, schema);
}

export function phone(name: string, label: string, o: Common = {}): Field {
  return text(name, label, {
    ...o,
    max: 20,
    type: "tel",
    pattern: /^\+?[0-9 ]{6,20}$/,
    patternMessage: `${label}: de 6 a 20 cifras, con «+» y espacios si quiere, por ejemplo +34 912 345 678`,
  });
}

/** A web address: «www.empresa.es» is kept as «https://www.empresa.es»; only http and https. */
export function url(name: string, label: string, o: Common = {}): Field {
  const message = `${label}: escriba una dirección web, por ejemplo https://www.empresa.es`;
  const schema = required(o, (z) =>
    z
      .string({ error: `Escriba ${el(label, o)}` })
      .trim()
      .transform((v, ctx) => {
        const full = /^[a-z][a-z0-9+.-]*:/i.test(v) ? v : `https://${v}`;
        let parsed: URL | null = null;
        try {
          parsed = new URL(full);
        } catch {
          parsed = null;
        }
        if (!parsed || !/^https?:$/.test(parsed.protocol) || !parsed.hostname.includes(".") || /\s/.test(v)) {
          return rechazo(z, ctx, message);
        }
        if (full.length > 200) {
          return rechazo(z, ctx, `${label}: como máximo 200 caracteres`);
        }
        return full;
      }),
  );
  return campo(name, label, o, { type: "url", autoComplete: "url" }, schema);
}

export function select(name: string, label: string, options: readonly Option[], o: Common = {}): Field {
  const values = options.map((x) => x.value) as [string, ...string[]];
  const schema = required(o, (z) => z.enum(values, { error: `Elija ${un(label, o)}` }));
  return campo(name, label, o, { type: "select", options }, schema);
}

/** A foreign key: the form sends the related record's id. */
export function ref(name: string, label: string, table: string, o: Common = {}): Field {
  const schema = required(o, (z) => z.uuid({ error: `Elija ${un(label, o)}` }));
  return campo(name, label, o, { type: "ref", table }, schema);
}

export function checkbox(name: string, label: string, o: Common = {}): Field {
  // An unchecked box sends nothing: that means false.
  const schema = (z: Z) =>
    z
      .boolean()
      .optional()
      .transform((v) => v ?? false);
  return { name, label, required: false, hint: o.hint, input: { type: "checkbox" }, schema };
}

export function money(name: string, label: string, o: Common & { positive?: boolean; max?: number }): Field {
  const max = o.max ?? 999_999_999_999.99;
  const schema = required(o, (z) =>
    z.string({ error: `Escriba ${el(label, o)}, por ejemplo 125,50` }).transform((v, ctx) => {
      const parsed = parseMoney(v);
      if (parsed === null) {
        // Written as an amount, with more digits than any: what is wrong is its size, not its form.
        if (tieneDemasiadasCifras(v)) return rechazo(z, ctx, `${label}: como máximo ${max.toLocaleString("es-ES")}`);
        return rechazo(z, ctx, `${label}: escriba un importe con hasta 2 decimales, por ejemplo 1.234,56`);
      }
      const n = Number(parsed);
      if (o.positive ? n <= 0 : n < 0) {
        return rechazo(z, ctx, `${label}: debe ser ${o.positive ? "mayor que 0" : "0 o más"}`);
      }
      if (n > max) {
        return rechazo(z, ctx, `${label}: como máximo ${max.toLocaleString("es-ES")}`);
      }
      return parsed;
    }),
  );
  return campo(name, label, o, { type: "money" }, schema);
}

/** A whole number between `min` and `max` (e.g. a number of days), typed as text with a numeric keyboard. */
export function integer(name: string, label: string, o: Common & { min: number; max: number }): Field {
  const schema = required(o, (z) =>
    z
      .string({ error: `Escriba ${el(label, o)}, por ejemplo ${o.max < 100 ? o.max : 90}` })
      .trim()
      .transform((v, ctx) => {
        const n = /^\d{1,9}$/.test(v) ? Number(v) : NaN;
        if (!(n >= o.min && n <= o.max)) {
          return rechazo(z, ctx, `${label}: escriba un número entero entre ${o.min} y ${o.max}`);
        }
        return String(n);
      }),
  );
  return campo(name, label, o, { type: "text", inputMode: "numeric" }, schema);
}

export function date(name: string, label: string, o: Common = {}): Field {
  const schema = required(o, (z) =>
    z.string({ error: `Escriba ${el(label, o)}, por ejemplo 31/01/2026` }).transform((v, ctx) => {
      const iso = parseDateInput(v);
      if (!iso) {
        return rechazo(z, ctx, `${label}: escriba una fecha válida, por ejemplo 31/01/2026`);
      }
      return iso;
    }),
  );
  return campo(name, label, o, { type: "date" }, schema);
}

/** A local date and time (a trip's departure): `YYYY-MM-DDTHH:MM`, no time zone. */
export function dateTime(name: string, label: string, o: Common = {}): Field {
  const schema = required(o, (z) =>
    z.string({ error: `Escriba ${el(label, o)}, por ejemplo 31/01/2026 08:30` }).transform((v, ctx) => {
      const iso = parseDateTimeInput(v);
      if (!iso) {
        return rechazo(z, ctx, `${label}: escriba una fecha y una hora válidas, por ejemplo 31/01/2026 08:30`);
      }
      return iso;
    }),
  );
  return campo(name, label, o, { type: "datetime" }, schema);
}

/**
 * A quantity that is not money (kilometres): a comma or a point for the decimals, at most
 * `decimales` of them, greater than 0 and at most `max`. Stored as a decimal string ("230.5").
 */
export function decimal(
  name: string,
  label: string,
  o: Common & { decimales: number; max: number; unidad?: string; ejemplo?: string },
): Field {
  const ejemplo = o.ejemplo ?? "230";
  const schema = required(o, (z) =>
    z.string({ error: `Escriba ${el(label, o)}, por ejemplo ${ejemplo}` }).transform((v, ctx) => {
      const escrito = v.trim().replace(/\s/g, "");
      // Thousands as amounts take them (app/lib/money.ts): a dot before each group of three digits.
      const t = o.decimales < 3 && /^\d{1,3}(\.\d{3})+(,\d+)?$/.test(escrito) ? escrito.replace(/\./g, "") : escrito;
      // Any number of digits: one too large is told its maximum, not that it is not a number.
      const m = new RegExp(`^(\\d+)(?:[.,](\\d{1,${o.decimales}}))?$`).exec(t);
      if (!m) {
        return rechazo(
          z,
          ctx,
          `${label}: escriba un número${o.decimales ? ` con hasta ${o.decimales} decimal${o.decimales === 1 ? "" : "es"}` : ""}, por ejemplo ${ejemplo}`,
        );
      }
      const value = m[2] ? `${Number(m[1])}.${m[2]}` : String(Number(m[1]));
      const n = Number(value);
      if (n <= 0 || n > o.max) {
        return rechazo(z, ctx, `${label}: debe ser mayor que 0 y como máximo ${o.max.toLocaleString("es-ES")}`);
      }
      return value;
    }),
  );
  return campo(name, label, o, { type: "decimal", decimales: o.decimales, unidad: o.unidad }, schema);
}

/**
 * An IVA breakdown: up to `lineas` lines of tipo, base and cuota (`name[0].tipo`, `name[0].base`…).
 * Empty lines are dropped; a line with its tipo and only the base or only the cuota gets the other
 * computed. A line with only its tipo keeps empty amounts (`base: ""`): the entity fills it from
 * the importe (the rest once the other lines are subtracted). Whether the lines add up to the
 * importe is the entity's rule (`refine`), as it involves other fields.
 */

export function desglose(
  name: string,
  label: string,
  tipos: readonly Option[],
  o: Common & { lineas: number; importe?: string; otros?: string; sinIva?: string },
): Field {
  const schema = (z: Z) =>
    z
      .array(z.any())
      .optional()
      .transform((raw, ctx): LineaParcial[] => {
        const lineas: LineaParcial[] = [];
        const items: unknown[] = Array.isArray(raw) ? raw.slice(0, o.lineas) : [];
        items.forEach((item, i) => {
          const { tipo, base, cuota } = (item && typeof item === "object" ? item : {}) as Record<string, unknown>;
          const texto = (v: unknown) => (typeof v === "string" ? v.trim() : "");
          if (!texto(tipo) && !texto(base) && !texto(cuota)) return;
          const n = i + 1;
          if (!esTipoIva(tipo)) {
            ctx.addIssue({ code: "custom", path: [i, "tipo"], message: `${label}, línea ${n}: elija el tipo de IVA` });
            return;
          }
          const importe = (v: unknown, que: string) => {
            if (!texto(v)) return "";
            const parsed = parseMoney(texto(v));
            if (parsed === null || parsed.startsWith("-")) {
              ctx.addIssue({
                code: "custom",
                path: [i, que],
                message: `${label}, línea ${n}: escriba la ${que} en euros con hasta 2 decimales, por ejemplo 12,40`,
              });
              return null;
            }
            return parsed;
          };
          const b = importe(base, "base");
          const c = importe(cuota, "cuota");
          if (b === null || c === null) return;
          const linea = completarLinea(tipo, b, c);
          if (!linea) {
            ctx.addIssue({
              code: "custom",
              path: [i, "base"],
              message: `${label}, línea ${n}: escriba la base (con este tipo la cuota es 0)`,
            });
            return;
          }
          if (lineas.some((l) => l.tipo === tipo)) {
            ctx.addIssue({
              code: "custom",
              path: [i, "tipo"],
              message: `${label}, línea ${n}: este tipo ya está en otra línea; sume las dos en una`,
            });
            return;
          }
          lineas.push(linea);
        });
        return lineas;
      });
  return {
    name,
    label,
    required: false,
    hint: o.hint,
    input: { type: "desglose", lineas: o.lineas, tipos, importe: o.importe, otros: o.otros, sinIva: o.sinIva },
    schema,
  };
}

/** `input` without the fields whose `aplicaSi` choice holds another value. */
function sinLosQueNoAplican(fields: readonly Field[], input: unknown) {
  if (typeof input !== "object" || input === null) return input;
  const values = { ...(input as Record<string, unknown>) };
  for (const { name, aplicaSi } of fields) if (aplicaSi && !eligio(aplicaSi, values)) delete values[name];
  return values;
}

/**
 * The zod object for a form made of `fields` (read-only fields are never accepted from the form;
 * unknown ones such as `rol` smuggled into a profile form are dropped), plus cross-field rules.
 */
export function formSchema(
  z: Z,
  fields: readonly Field[],
  refine?: (values: Record<string, unknown>, ctx: Zod.RefinementCtx) => void,
  o: { always?: boolean } = {},
) {
  const object = z.object(Object.fromEntries(fields.filter((f) => !f.readOnly).map((f) => [f.name, f.schema(z)])));
  // A field for other choices (`aplicaSi`, hidden while another is chosen) is neither checked nor
  // kept: what was typed there before changing one's mind cannot block a save nobody can see.
  // Only when the form writes that choice, as its CSS hides them only then.
  const segun = fields.filter((f) => f.aplicaSi && fields.some((g) => g.name === f.aplicaSi!.campo));
  const schema = segun.length ? z.preprocess((input) => sinLosQueNoAplican(segun, input), object) : object;
  // `always`: run the rules even when a field already failed, so every error shows at once.
  return refine ? schema.superRefine(refine, o.always ? { when: () => true } : undefined) : schema;
}
