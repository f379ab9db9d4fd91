import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import {
  Link,
  useActionData,
  useFormAction,
  useLoaderData,
  useSearchParams,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { enBloqueDeLaPagina } from "~/entities/entity";
import { gastos } from "~/entities/gastos";
import { gastosAction } from "~/gastos/acciones.server";
import { useAyudaSolicitante } from "~/gastos/AyudaSolicitante";
import { BarraSeleccion, BulkActions, ConfirmMasivo } from "~/gastos/BulkActions";
import { gastosLoader } from "~/gastos/lista.server";
import { FichaGasto, sinInactivos } from "~/gastos/FichaGasto";
import { CampoArchivos, elegirOtraVez } from "~/justificantes/Justificantes";
import { listHref, SELECCIONAR_TODOS } from "~/crud/list-query";
import { toCents } from "~/lib/money";
import { CreateForm, OptionSearchForms } from "~/ui/EntityForms";
import { EN_BLOQUE_FORM, EN_BLOQUE_RESPUESTA, useColumnaSeleccion } from "~/ui/AccionesEnBloque";
import { pageTitle, useFormats } from "~/ui/page";
import { backToRow, DataTable, FilterForm, ListViews, Pagination } from "~/ui/lists";
import { AvisosDeLista, creeElPrimero, ListaVacia, ResumenLista, resumenDeLista } from "~/ui/ResumenLista";

/**
 * `/gastos` (docs/producto.md «El gasto»): the list with its filters, views, count and sum; bulk
 * approve/reject and pay, and «Crear remesa» (to `/remesas` with the rows); and beside the list,
 * with `?gasto={id}`, the expense's panel (there is no `/gastos/{id}`), or with `?nuevo=1` the
 * «Nuevo gasto» form in that panel's place, a few keys from the top of the page. Creating happens
 * only there: the plain list carries no form (nor the form's option lists in its data). The
 * workflow's buttons and bulk actions are the entity's (app/entities/gastos-flujo.ts); server
 * side in app/gastos/: lista.server.ts (loader), acciones.server.ts (every POST, by `intent`),
 * workflow.server.ts (the bulk confirm step, «todos los que coinciden», «Crear remesa»).
 */
export const loader = (args: LoaderFunctionArgs) => gastosLoader(args);
/** With a gasto open, the page's confirmation shows in its panel (where the redirect lands), not above the list. */
export const handle = { flashEnPanel: (data: unknown) => Boolean((data as { panel?: unknown } | undefined)?.panel) };
export const action = (args: ActionFunctionArgs) => gastosAction(args);

/**
 * A refused «Nuevo gasto» (400) changed nothing. Loading the page again would only give its form
 * a new `envio`, and so an empty file field: with JavaScript the chosen files stay chosen.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, formData, defaultShouldRevalidate }) =>
  actionStatus === 400 && formData?.get("intent") === "crear" ? false : defaultShouldRevalidate;

type Data = SerializeFrom<typeof loader>;

export default function Gastos() {
  const data = useLoaderData<typeof loader>();
  // A refused «Nuevo gasto» names the files it brought (acciones.server.ts): they are not kept.
  const respuesta = useActionData<{ archivosSinGuardar?: string[] }>();
  const { state, result, options, panel, masivo, user } = data;
  const formats = useFormats();
  const { nuevo } = data;
  const ayuda = useAyudaSolicitante(gastos, nuevo?.perfiles ?? {}, user);
  // Each form posts to this page with the anchor of its section: without JavaScript, a refused
  // post shows the page at the form and its errors, not at the top.
  const accion = useFormAction();
  const [searchParams] = useSearchParams();
  const lista = listHref(gastos.path, state, {});
  const aqui = panel ? listHref(gastos.path, state, { gasto: panel.record.id }) : lista;
  const nuevoHref = `${listHref(gastos.path, state, { nuevo: 1 })}#nuevo`;
  const resumen = resumenDeLista(gastos, result, formats);
  // The bulk actions offered on this page, as the entity declares them: approve and reject where
  // the database would let this person approve a row (gastos_vista.puede_aprobar), mark as paid
  // where an administrador sees an approved one; and the rows that get a box.
  type Fila = Data["result"]["rows"][number];
  const { acciones: enBloque, seleccionable } = enBloqueDeLaPagina(gastos, user, result.rows);
  const pendientes = enBloque.some((a) => a.intent === "aprobar_seleccion");
  const conCasillas = enBloque.length > 0;
  // «Seleccionar todos los de esta página» without JavaScript: the same page, every box checked.
  const todos = searchParams.get(SELECCIONAR_TODOS) === "todos";
  const todosHref = `${listHref(gastos.path, state, { ...(panel ? { gasto: panel.record.id } : {}), [SELECCIONAR_TODOS]: "todos" })}#${EN_BLOQUE_FORM}-titulo`;
  const columna = useColumnaSeleccion<Fila>({
    entity: gastos,
    seleccionable,
    nombre: (row) => String(row.folio),
    todos,
    // What the selection bar sums.
    datos: (row) => ({ "data-centimos": String(toCents(String(row.importe))) }),
  });
  // «Aprobar todos los que coinciden» only where the filter and the view can hold pendientes.
  const estadoDeLaVista = gastos.vistas
    ?.find((v) => v.name === state.vista)
    ?.filters(user)
    .find((f) => f.column === "estado")?.value;
  const admite = (estado: string) =>
    [state.filtros.estado, estadoDeLaVista].every((e) => !e || String(e).split(",").includes(estado));
  const masivos = data.aprueba && result.total > 0 && admite("pendiente");
  // «Crear remesa con todos los que coinciden» where the filter can hold approved gastos.
  const remesaTodos =
    user.rol === "administrador" && result.total > 0 && admite("aprobado")
      ? `/remesas?${new URLSearchParams({ lista: lista.split("?")[1] ?? "", coinciden: "1" }).toString()}#nueva-remesa`
      : null;
  return (
    <>
      <div className="titulo-pagina">
        <h1>Gastos</h1>
        {data.can.crear ? (
          // Without the form open, this link is also what an old `/gastos#nuevo` lands on.
          <Link className="boton" to={nuevoHref} id={nuevo ? undefined : "nuevo"}>
            Nuevo gasto
          </Link>
        ) : null}
      </div>
      <ListViews
        entity={gastos}
        state={state}
        rol={user.rol}
        todos={
          user.rol === "administrador" ? "Todos" : user.rol === "aprobador" ? "Todos los que puedo ver" : undefined
        }
      />
      <FilterForm entity={gastos} state={state} options={options} plegable resumenId="resumen-resultados" />
      <AvisosDeLista entity={gastos} state={state} busquedaCorta={data.busquedaCorta} avisoOrden={data.avisoOrden} />
      {masivo ? (
        <ConfirmMasivo masivo={masivo} cancelar={lista} locale={formats.locale} action={`${accion}#masivo-confirmar`} />
      ) : null}
      <div className={panel || nuevo ? "gastos-con-panel" : "gastos-sin-panel"}>
        <div className="gastos-lista">
          <ResumenLista entity={gastos} state={state} result={result} formats={formats} id="resumen-resultados" />
          {result.rows.length > 0 ? (
            <>
              <div id="tabla-gastos">
                <DataTable
                  entity={gastos}
                  rows={result.rows}
                  state={state}
                  formats={formats}
                  caption={`Gastos: ${resumen.cuenta}`}
                  recordHref={(row) => `${lista}${lista.includes("?") ? "&" : "?"}gasto=${row.id}#gasto`}
                  selectedId={panel?.record.id}
                  leading={conCasillas ? columna : undefined}
                  estimated={result.estimated}
                />
              </div>
              {conCasillas ? <BarraSeleccion aprobar={pendientes} locale={formats.locale} /> : null}
              <Pagination path={gastos.path} state={state} total={result.total} estimated={result.estimated} />
            </>
          ) : (
            <ListaVacia
              entity={gastos}
              state={state}
              total={result.total}
              primero={data.can.crear ? creeElPrimero(gastos, nuevoHref) : null}
            />
          )}
          {/* Who approves has the section even with nothing to approve here (it says so); anyone else, when a row may be sent. */}
          {data.aprueba || enBloque.length > 0 ? (
            <BulkActions
              acciones={enBloque}
              aqui={lista}
              todosHref={todosHref}
              masivos={masivos}
              remesaTodos={remesaTodos}
              hoy={data.hoy}
              locale={formats.locale}
              action={`${accion}#${EN_BLOQUE_RESPUESTA}`}
            />
          ) : null}
        </div>
        {panel ? (
          <FichaGasto
            panel={panel}
            options={options}
            inactivos={data.proveedoresInactivos}
            formats={formats}
            // Back at the row's link, with or without JavaScript (the fragment is the row's anchor).
            cerrar={backToRow(lista, panel.record.id)}
            aqui={aqui}
            // Without the list's filters: the new borrador may not be among them (a view of approved ones).
            copiar={data.can.crear ? `${gastos.path}?nuevo=1&como=${panel.record.id}#nuevo` : null}
            action={`${accion}#gasto`}
          />
        ) : null}
        {nuevo ? (
          <div className="panel-nuevo-gasto">
            {/* The solicitante's select changes the hints of department and branch (useAyudaSolicitante). */}
            <div onChange={ayuda.onChange}>
              <CreateForm
                entity={ayuda.entity}
                options={sinInactivos(options, data.proveedoresInactivos)}
                envio={nuevo.envio}
                defaults={nuevo.defaults}
                copia={nuevo.copia}
                campos={nuevo.campos}
                intent="crear"
                // This page's URL (`?nuevo=1` included): a refused post re-renders this panel.
                action={`${accion}#nuevo`}
                // Rendered again without JavaScript, the file field is empty: said in the summary too.
                sinJavaScript={
                  respuesta?.archivosSinGuardar?.length
                    ? [{ mensaje: elegirOtraVez(respuesta.archivosSinGuardar), control: "nuevo-justificantes" }]
                    : undefined
                }
                // Keyed by the form's load: a new gasto's form starts with no files chosen.
                archivos={
                  // A ticket or an invoice is an ordinario's: kilometraje and dietas ask for none
                  // (out of sight while one is chosen, as the class's other fields: gastos.css).
                  <div data-solo-clase="ordinario">
                    <CampoArchivos
                      key={nuevo.envio}
                      id="nuevo-justificantes"
                      etiqueta="Justificantes"
                      sinGuardar={respuesta?.archivosSinGuardar}
                    />
                  </div>
                }
              />
            </div>
            <p className="cerrar-panel">
              <Link to={lista}>Cerrar sin crear y volver a la lista</Link>
            </p>
          </div>
        ) : null}
      </div>
      {/* The search steps of selects with more than 200 options (GET forms outside the forms above). */}
      <OptionSearchForms options={options} />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageTitle(data?.panel ? String(data.panel.record.folio) : undefined, gastos.title);
