import type { FieldMetadata } from "@conform-to/react";
import { useEffect, useState } from "react";
import type { Field } from "~/entities/fields";
import { completarLinea, completarLineas, describirDesglose, enImporte, esTipoIva, type LineaParcial } from "~/lib/iva";
import { formatMoney, fromCents, parseMoney, toCents } from "~/lib/money";
import { useAbiertoDesde } from "./plegado";

/**
 * An IVA breakdown's lines: one row of tipo, base and cuota each, named as Conform nests them
 * (`desglose_iva[0].base`, the ids its error summary links to). The first row always shows; the
 * others fold under «Más tipos de IVA», open when one holds something.
 */
export function DesgloseControl({
  field,
  input,
  meta,
  hintId,
  disabled,
}: {
  field: Field;
  input: Extract<Field["input"], { type: "desglose" }>;
  meta: FieldMetadata<unknown>;
  hintId?: string;
  disabled?: boolean;
}) {
  const { id, name, key } = meta;
  const allErrors = meta.allErrors;
  const initial = Array.isArray(meta.initialValue) ? (meta.initialValue as Record<string, unknown>[]) : [];
  const errores = Object.entries(allErrors).flatMap(([, messages]) => messages);
  const filas = Array.from({ length: input.lineas }, (_, i) => {
    const linea = initial[i] ?? {};
    const campo = (que: "tipo" | "base" | "cuota") => {
      const path = `${name}[${i}].${que}`;
      const error = allErrors[path]?.[0];
      return {
        id: `${id}[${i}].${que}`,
        name: path,
        value: typeof linea[que] === "string" ? (linea[que] as string) : "",
        error,
        "aria-invalid": error ? true : undefined,
      };
    };
    return { i, tipo: campo("tipo"), base: campo("base"), cuota: campo("cuota") };
  });
  const fila = (f: (typeof filas)[number]) => (
    <div className="fila-iva" key={`${key}-${f.i}`}>
      <div className="campo">
        <label htmlFor={f.tipo.id}>Tipo, línea {f.i + 1}</label>
        <select
          id={f.tipo.id}
          name={f.tipo.name}
          defaultValue={f.tipo.value}
          aria-invalid={f.tipo["aria-invalid"]}
          disabled={disabled}
        >
          <option value="">—</option>
          {input.tipos.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </div>
      {(["base", "cuota"] as const).map((que) => (
        <div className="campo" key={que}>
          <label htmlFor={f[que].id}>
            {que === "base" ? "Base" : "Cuota"}, línea {f.i + 1}
          </label>
          <input
            type="text"
            inputMode="decimal"
            autoComplete="off"
            className="importe"
            id={f[que].id}
            name={f[que].name}
            defaultValue={f[que].value}
            aria-invalid={f[que]["aria-invalid"]}
            disabled={disabled}
          />
        </div>
      ))}
    </div>
  );
  const previa = useDesglosePrevio(meta.formId, name, input);
  const [primera, ...resto] = filas;
  const restoAbierto = useAbiertoDesde(
    resto.some((f) => f.tipo.value || f.base.value || f.cuota.value || f.tipo.error),
  );
  return (
    <fieldset
      className={`campo campo-desglose${errores.length ? " campo-con-error" : ""}`}
      aria-describedby={[hintId, errores.length ? `${id}-error` : undefined].filter(Boolean).join(" ") || undefined}
    >
      <legend>{field.label}</legend>
      {field.hint ? (
        <p className="ayuda" id={hintId}>
          {field.hint}
        </p>
      ) : null}
      {errores.length ? (
        <ul className="error-campo" id={`${id}-error`}>
          {errores.map((message) => (
            <li key={message}>
              <span className="visually-hidden">Error: </span>
              {message}
            </li>
          ))}
        </ul>
      ) : null}
      {primera ? fila(primera) : null}
      {resto.length ? (
        <details open={restoAbierto}>
          <summary>Más tipos de IVA</summary>
          {resto.map(fila)}
        </details>
      ) : null}
      {previa !== null ? (
        // A live region (not a status role: the page's flash is the status), there from
        // hydration on so that what changes in it is read out.
        <p className="ayuda" aria-live="polite">
          {previa}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * With JavaScript: what the breakdown will be once saved, as the importe and the lines are typed
 * (the same arithmetic as the server's, app/lib/iva.ts). Null before hydration and without an
 * `importe` field (the server says what it computed after saving); "" while there is nothing to say.
 */
function useDesglosePrevio(
  formId: string,
  name: string,
  input: Extract<Field["input"], { type: "desglose" }>,
): string | null {
  const [texto, setTexto] = useState<string | null>(null);
  const { importe: campoImporte, otros: campoOtros, sinIva: campoSinIva, lineas: filas } = input;
  useEffect(() => {
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement) || !campoImporte) return;
    const leer = () => setTexto(previa(new FormData(form), name, filas, campoImporte, campoOtros, campoSinIva));
    leer();
    form.addEventListener("input", leer);
    form.addEventListener("change", leer);
    return () => {
      form.removeEventListener("input", leer);
      form.removeEventListener("change", leer);
    };
  }, [formId, name, filas, campoImporte, campoOtros, campoSinIva]);
  return texto;
}

/** The sentence of `useDesglosePrevio` for what the form holds now ("" when there is nothing to say yet). */
function previa(
  datos: FormData,
  name: string,
  filas: number,
  campoImporte: string,
  campoOtros?: string,
  campoSinIva?: string,
): string {
  const importe = parseMoney(String(datos.get(campoImporte) ?? ""));
  const sinIva = campoSinIva !== undefined && datos.get(campoSinIva) === "on";
  const otros = campoOtros ? (parseMoney(String(datos.get(campoOtros) ?? "")) ?? "0.00") : "0.00";
  if (!importe || importe.startsWith("-") || otros.startsWith("-")) return "";
  const lineas: LineaParcial[] = [];
  for (let i = 0; i < filas; i++) {
    const tipo = datos.get(`${name}[${i}].tipo`);
    if (!esTipoIva(tipo)) continue;
    const base = String(datos.get(`${name}[${i}].base`) ?? "").trim();
    const cuota = String(datos.get(`${name}[${i}].cuota`) ?? "").trim();
    const b = base ? parseMoney(base) : "";
    const c = cuota ? parseMoney(cuota) : "";
    const linea = b === null || c === null ? null : completarLinea(tipo, b, c);
    if (!linea) return "";
    lineas.push(linea);
  }
  if (!lineas.length) return "Sin líneas: al guardar, una al tipo habitual de la categoría.";
  if (lineas.filter((l) => l.base === "").length > 1) return "";
  const completas = completarLineas(lineas, importe, otros, sinIva);
  const suma = completas.reduce((acc, l) => acc + enImporte(l, sinIva), toCents(otros));
  if (suma !== toCents(importe) || completas.some((l) => toCents(l.base) < 0n))
    return `Las líneas suman ${formatMoney(fromCents(suma))} y el importe es ${formatMoney(importe)}.`;
  const cuotas = fromCents(completas.reduce((acc, l) => acc + toCents(l.cuota), 0n));
  return `Se guardará: ${describirDesglose(completas)}. IVA: ${formatMoney(cuotas)}${sinIva ? ", que declara la empresa" : ""}.`;
}
