import type { SerializeFrom } from "@remix-run/node";
import type { HistoryEntry } from "~/crud/crud.server";
import type { Field } from "~/entities/fields";
import { formatDate, isISODate } from "~/lib/dates";
import { formatTimestamp, type Formats } from "~/lib/format";

const ACCIONES: Record<string, string> = { alta: "Alta", modificacion: "Modificación", baja: "Baja" };

/**
 * «Historial de cambios»: who, when, which fields, old and new values (written by database
 * triggers). `show` renders a declared field's value as the record page does (names of related
 * records, formatted amounts, option labels); a timestamp is shown as the rest of the UI shows
 * one whatever its field says, and other columns are read by their shape (see `stored`).
 */
export function History({
  entries,
  fields,
  formats,
  labels = {},
  show = (_field, value) => stored(value, formats),
}: {
  /** As the loader sent them. */
  entries: SerializeFrom<HistoryEntry>[];
  fields: readonly Field[];
  formats: Formats;
  /** Columns no field declares: their label, or null to leave them out. */
  labels?: Record<string, string | null>;
  show?: (field: Field, value: unknown) => string;
}) {
  const fieldOf = (name: string) => fields.find((f) => f.name === name);
  // The why of the change first (`nota`, e.g. «Reasignado: …»), then as the record declares its
  // fields (the database's JSON orders keys by their length), then the undeclared columns.
  const posicion = (name: string) => {
    if (name === "nota") return -1;
    const i = fields.findIndex((f) => f.name === name);
    return i < 0 ? fields.length : i;
  };
  const labelFor = (name: string) => fieldOf(name)?.label ?? labels[name] ?? name;
  const valueOf = (name: string, value: unknown) => {
    const field = fieldOf(name);
    if (value === null || value === undefined || value === "") return "—";
    if (isTimestamp(value)) return formatTimestamp(value, formats);
    return field ? show(field, value) : stored(value, formats);
  };
  return (
    <section aria-labelledby="historial" className="historial">
      <h2 id="historial">Historial de cambios</h2>
      {entries.length === 0 ? (
        <p>Sin cambios registrados.</p>
      ) : (
        <ol>
          {entries.map((e) => (
            <li key={e.id}>
              <p>
                <strong>{ACCIONES[e.accion] ?? e.accion}</strong> · {formatTimestamp(e.creado_en, formats)} ·{" "}
                {e.actor_nombre ?? "Sistema"}
              </p>
              {e.cambios && Object.keys(e.cambios).length > 0 ? (
                <table>
                  <caption className="visually-hidden">Campos cambiados</caption>
                  <thead>
                    <tr>
                      <th scope="col">Campo</th>
                      <th scope="col">Antes</th>
                      <th scope="col">Después</th>
                    </tr>
                  </thead>
                  <tbody>
                    {Object.entries(e.cambios)
                      .filter(([name]) => labels[name] !== null)
                      .sort(([a], [b]) => posicion(a) - posicion(b))
                      .map(([name, change]) => (
                        <tr key={name}>
                          <th scope="row">{labelFor(name)}</th>
                          <td>{valueOf(name, change.antes)}</td>
                          <td>{valueOf(name, change.despues)}</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** A date with a time and a zone, as PostgreSQL writes a timestamptz into the history's JSON. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/;
const isTimestamp = (value: unknown): value is string =>
  typeof value === "string" && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));

/** A column no field declares: dates, timestamps and yes/no as everywhere else; the rest as stored. */
function stored(value: unknown, formats: Formats) {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "Sí" : "No";
  if (isTimestamp(value)) return formatTimestamp(value, formats);
  if (isISODate(value)) return formatDate(value, formats.locale);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
