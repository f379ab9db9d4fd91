import { Link } from "@remix-run/react";
import type { DatosDeSecciones, GastosDeLaFicha, Personas } from "~/crud/secciones.server";
import { capitalize, type Entity } from "~/entities/entity";
import { formatMoney } from "~/lib/money";
import { labelOf, ROLES } from "~/lib/opciones";
import { cuenta, plural } from "~/lib/plural";
import { useFormats } from "./page";

/** The record page's declared sections (Entity.secciones), in their order, each with what its loader read. */
export function SeccionesDeFicha({ entity, datos }: { entity: Entity; datos: DatosDeSecciones }) {
  return (entity.secciones ?? []).map((s) =>
    s.tipo === "personas" ? (
      datos.personas ? (
        <PersonasSection key={s.tipo} personas={datos.personas} donde={s.donde} />
      ) : null
    ) : datos.gastos ? (
      <GastosSection key={s.tipo} entity={entity} id={`gastos-${s.por}`} gastos={datos.gastos} />
    ) : null,
  );
}

/** «Gastos»: how many of this record's gastos the person may see, their total, and the link to them. */
function GastosSection({ entity, id, gastos }: { entity: Entity; id: string; gastos: GastosDeLaFicha }) {
  const formats = useFormats();
  const este = `${entity.gender === "f" ? "esta" : "este"} ${entity.singular}`;
  return (
    <section aria-labelledby={id} className="panel">
      <h2 id={id}>Gastos</h2>
      <p>
        {gastos.total === 0
          ? `${capitalize(este)} no tiene gastos`
          : `${cuenta(gastos.total, "gasto", "gastos", formats.locale)} por un total de ${formatMoney(gastos.importe, formats.locale, formats.currency)}`}
        {gastos.todos ? "." : " que usted pueda ver."}
      </p>
      {gastos.total > 0 ? (
        <p>
          <Link to={gastos.filtro}>Ver los gastos de {este}</Link>
        </p>
      ) : null}
    </section>
  );
}

/** «Personas»: who belongs to a department or branch, each name linking to their profile. */
function PersonasSection({
  personas,
  donde,
}: {
  personas: Personas;
  donde: "en este departamento" | "en esta sucursal";
}) {
  const { total, rows, filtro, fichas } = personas;
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
                <Link to={`${fichas}/${p.id}`}>{p.nombre}</Link>
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
