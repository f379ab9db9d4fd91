import { formatTimestamp, type Formats } from "~/lib/format";
import type { Field } from "~/entities/fields";

type Entry = { id: number; accion: string; actor_nombre: string | null; creado_en: string; cambios: Record<string, { antes: unknown; despues: unknown }> | null };

const ACCIONES: Record<string, string> = { alta: "Alta", modificacion: "Modificación", baja: "Baja" };

/** «Historial de cambios»: who, when, which fields, old and new values (written by database triggers). */
export function History({ entries, fields, formats, labels = {} }: { entries: Entry[]; fields: readonly Field[]; formats: Formats; labels?: Record<string, string> }) {
  const labelOf = (name: string) => fields.find((f) => f.name === name)?.label ?? labels[name] ?? name;
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
                <strong>{ACCIONES[e.accion] ?? e.accion}</strong> · {formatTimestamp(e.creado_en, formats)} · {e.actor_nombre ?? "Sistema"}
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
                    {Object.entries(e.cambios).map(([name, change]) => (
                      <tr key={name}>
                        <th scope="row">{labelOf(name)}</th>
                        <td>{show(change.antes)}</td>
                        <td>{show(change.despues)}</td>
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

function show(value: unknown) {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "Sí" : "No";
  return String(value);
}
