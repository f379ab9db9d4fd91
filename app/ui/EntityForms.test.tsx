import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { gastos } from "~/entities/gastos";
import { CreateForm, displayField } from "./EntityForms";

/** The «Nuevo gasto» form as the server renders it, opened with these defaults. */
async function render(defaults: Record<string, string>) {
  function Nuevo() {
    return <CreateForm entity={gastos} options={{}} envio="nuevo" defaults={defaults} />;
  }
  const handler = createStaticHandler([{ id: "routes/gastos._index", path: "/gastos", Component: Nuevo }]);
  const context = await handler.query(new Request("http://oficina.test/gastos?nuevo=1"));
  if (context instanceof Response) throw new Error("respuesta inesperada");
  return renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
}

const IMPORTE = /<label for="[^"]*">Importe(<span class="obligatorio"> \(obligatorio\)<\/span>)?<\/label>/;

it("el importe es obligatorio en un gasto ordinario, no en el kilometraje ni en la dieta; lo suyo, en los suyos", async () => {
  expect(IMPORTE.exec(await render({}))?.[1]).toBeDefined();
  expect(IMPORTE.exec(await render({ clase: "ordinario" }))?.[1]).toBeDefined();
  for (const clase of ["kilometraje", "dieta"]) {
    const html = await render({ clase });
    expect(IMPORTE.exec(html)).not.toBeNull();
    expect(IMPORTE.exec(html)?.[1]).toBeUndefined();
    // The other required fields keep their mark.
    expect(html).toContain('Descripción<span class="obligatorio"> (obligatorio)</span>');
  }
  // What a kilometraje needs instead is marked on its form, and only there.
  const marcado = (html: string, label: string) =>
    html.includes(`${label}<span class="obligatorio"> (obligatorio)</span>`);
  const km = await render({ clase: "kilometraje" });
  for (const label of ["Origen", "Destino", "Kilómetros"]) {
    expect(marcado(km, label), label).toBe(true);
    expect(marcado(await render({}), label), label).toBe(false);
  }
  expect(marcado(await render({ clase: "dieta" }), "Viaje")).toBe(true);
  expect(marcado(km, "Viaje")).toBe(false);
});

it("los kilómetros se leen como en los textos de la base: sin decimal de más", () => {
  const km = gastos.fields.find((f) => f.name === "km")!;
  const ver = (v: string) => displayField(km, v, { locale: "es-ES", currency: "EUR" }, {});
  expect([ver("1150.0"), ver("72.5"), ver("230")]).toEqual(["1150 km", "72,5 km", "230 km"]);
});
