import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import type { ListState } from "~/crud/list-query";
import { viajes } from "~/entities/viajes";
import { ListaVacia, ResumenLista } from "./ResumenLista";

/** What the server renders (links need a router). */
async function html(node: ReactNode) {
  const handler = createStaticHandler([{ id: "lista", path: "/viajes", Component: () => node }]);
  const context = await handler.query(new Request("http://oficina.test/viajes"));
  if (context instanceof Response) throw new Error("respuesta inesperada");
  return renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
}

const formats = { locale: "es-ES", currency: "EUR" };
const estado = (parte: Partial<ListState>): ListState => ({
  q: "",
  orden: "salida",
  dir: "desc",
  pagina: 1,
  porPagina: 25,
  filtros: {},
  errores: {},
  ...parte,
});

/** The summary above an empty list of trips. */
const resumenDe = (state: ListState) =>
  html(
    <ResumenLista entity={viajes} state={state} result={{ total: 0, estimated: false, sums: {} }} formats={formats} />,
  );

describe("una lista estrechada por una vista se dice filtrada, como por una búsqueda o un filtro", () => {
  it.each([
    ["una vista", { vista: viajes.vistas![0]!.name }],
    ["una búsqueda", { q: "Lisboa" }],
    ["un filtro", { filtros: { pais: "PT" } }],
  ])("%s: «con estos filtros», y sin filas «No hay … que coincidan»", async (_caso, parte) => {
    const state = estado(parte);
    const resumen = await resumenDe(state);
    expect(resumen).toContain("<strong>0 viajes</strong> con estos filtros");
    const vacia = await html(<ListaVacia entity={viajes} state={state} total={0} primero="Cree el primero." />);
    expect(vacia).toContain("No hay viajes que coincidan con la búsqueda.");
    expect(vacia).not.toContain("Todavía no hay viajes");
  });

  it("sin nada de eso: el total a secas, y sin filas «Todavía no hay …» con cómo crear el primero", async () => {
    const state = estado({});
    const resumen = await resumenDe(state);
    expect(resumen).toContain("<strong>0 viajes</strong></p>");
    expect(await html(<ListaVacia entity={viajes} state={state} total={0} primero="Cree el primero." />)).toContain(
      "Todavía no hay viajes. Cree el primero.",
    );
  });
});
