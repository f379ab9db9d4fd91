import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { MotivoDuplicado } from "./MotivoDuplicado";

/**
 * The send form's «Motivo del duplicado» as the server renders it (without JavaScript): only
 * when the panel marks a duplicate, or after the database refused the send for that reason.
 */
async function render(o: { duplicado: boolean; enviado?: unknown }) {
  const routes = [
    {
      id: "routes/gastos._index",
      path: "/gastos",
      loader: () => ({
        panel: { justificantes: [{ id: "j", nombre: "taxi.png", duplicado: o.duplicado ? { folio: "GAS-1" } : null }] },
      }),
      action: () => o.enviado ?? null,
      Component: MotivoDuplicado,
    },
  ];
  const handler = createStaticHandler(routes);
  const request = new Request("http://oficina.test/gastos", o.enviado ? { method: "POST", body: new FormData() } : {});
  const context = await handler.query(request);
  if (context instanceof Response) throw new Error("respuesta inesperada");
  return renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
}

it("sin duplicado no hay campo", async () => {
  expect(await render({ duplicado: false })).not.toContain("motivo_duplicado");
});

it("con duplicado: un campo obligatorio con su etiqueta y su ayuda", async () => {
  const html = await render({ duplicado: true });
  expect(html).toContain('<label for="enviar-gasto-motivo_duplicado">Motivo del duplicado');
  expect(html).toMatch(/<textarea id="enviar-gasto-motivo_duplicado" name="motivo_duplicado" required=""/);
  expect(html).toContain('aria-describedby="enviar-gasto-motivo_duplicado-ayuda"');
});

it("tras el rechazo de la base de datos (aunque el otro gasto no se vea): el error junto al campo y lo escrito", async () => {
  const html = await render({
    duplicado: false,
    enviado: {
      intent: "enviar",
      result: {
        status: "error",
        initialValue: { motivo_duplicado: "x" },
        error: { motivo_duplicado: ["Un justificante de este gasto ya está adjunto a otro gasto: indique el motivo."] },
      },
    },
  });
  expect(html).toContain('aria-invalid="true"');
  expect(html).toContain("Un justificante de este gasto ya está adjunto a otro gasto: indique el motivo.");
  expect(html).toMatch(/<textarea[^>]*>x<\/textarea>/);
});
