import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/session.server";
import { dateTimeFormat } from "~/lib/intl";
import { cargarPanel } from "~/panel/cargar.server";
import { NUEVO_GASTO_HREF } from "~/panel/enlaces";
import {
  Categorias,
  IvaDelTrimestre,
  MisGastos,
  Pendientes,
  Presupuestos,
  Proveedores,
  UltimosGastos,
  UltimosMeses,
} from "~/panel/Secciones";
import { pageTitle, useFormats } from "~/ui/page";
import { datosDePagina } from "~/crud/respuestas.server";

/**
 * `/` — the panel (docs/producto.md «Panel»): for everyone their own expenses by estado, this month and
 * the latest five; for approvers what waits for their approval; for administradores the month's
 * approved total per department against its budget, this quarter's IVA, the last 12 months, and
 * the top categories and suppliers of the last 90 days. One store call (public.panel, under
 * row-level security), and the quarter's IVA from gastos_vista (cargarPanel).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, store } = await requireUser(request, context);
  const [panel, correosSinEntregar] = await Promise.all([
    cargarPanel(store),
    // Mails of avisos the mail server refused for good: a line for administradores until dealt with.
    user.rol === "administrador"
      ? store.rpc<number>("correos_fallidos_pendientes", {}, { reads: true })
      : Promise.resolve(0),
  ]);
  return datosDePagina({ nombre: user.nombre, panel, correosSinEntregar });
}

export default function Panel() {
  const { nombre, panel, correosSinEntregar } = useLoaderData<typeof loader>();
  const formats = useFormats();
  const hoy = dateTimeFormat(formats.locale, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${panel.hoy}T00:00:00Z`));
  return (
    <>
      <div className="titulo-pagina">
        <h1>Panel</h1>
        <a className="boton" href={NUEVO_GASTO_HREF}>
          Nuevo gasto
        </a>
      </div>
      <p className="intro">
        Hola, {nombre}. Su resumen a {hoy}.
      </p>
      {correosSinEntregar > 0 ? (
        <p className="aviso aviso-aviso">
          {correosSinEntregar === 1
            ? "1 correo de avisos no se pudo entregar."
            : `${correosSinEntregar} correos de avisos no se pudieron entregar.`}{" "}
          <Link to="/avisos/preferencias#fallidos">Ver por qué, reintentar o descartar</Link>
        </p>
      ) : null}
      {/* What waits for this person comes first: the oldest pending gasto is a few Tabs from the top. */}
      <Pendientes panel={panel} formats={formats} />
      <div className="panel-rejilla panel-rejilla-propia">
        <MisGastos panel={panel} formats={formats} />
        <UltimosGastos panel={panel} formats={formats} />
      </div>
      <Presupuestos panel={panel} formats={formats} />
      <IvaDelTrimestre panel={panel} formats={formats} />
      <UltimosMeses panel={panel} formats={formats} />
      <div className="panel-rejilla">
        <Categorias panel={panel} formats={formats} />
        <Proveedores panel={panel} formats={formats} />
      </div>
    </>
  );
}

export const meta: MetaFunction = () => pageTitle("Panel");
