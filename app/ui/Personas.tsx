import { Link } from "@remix-run/react";
import type { Personas } from "~/crud/personas.server";
import { labelOf, ROLES } from "~/lib/opciones";
import { cuenta, plural } from "~/lib/plural";

/** «Personas»: who belongs to a department or branch, each name linking to their profile. */
export function PersonasSection({
  personas,
  donde,
}: {
  personas: Personas;
  donde: "en este departamento" | "en esta sucursal";
}) {
  const { total, rows, filtro } = personas;
  return (
    <section aria-labelledby="personas" className="panel">
      <h2 id="personas">Personas</h2>
      {total === 0 ? (
        <p>Todavía no hay nadie {donde}. Se asigna en la ficha de cada usuario.</p>
      ) : (
        <>
          <p>
            {cuenta(total, "persona", "personas")} {donde}.
            {total > rows.length ? ` Se muestran las ${rows.length} primeras.` : ""}
          </p>
          <ul className="lista-personas">
            {rows.map((p) => (
              <li key={p.id}>
                <Link to={`/usuarios/${p.id}`}>{p.nombre}</Link>
                {p.puesto ? `, ${p.puesto}` : ""} ({labelOf(ROLES, p.rol)}
                {p.activo ? "" : ", inactivo"})
              </li>
            ))}
          </ul>
          <p>
            <Link to={filtro}>{plural(total, "Ver en la lista de usuarios", "Ver todas en la lista de usuarios")}</Link>
          </p>
        </>
      )}
    </section>
  );
}
