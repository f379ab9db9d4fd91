import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { enBloquePara } from "~/entities/entity";
import { gastos } from "~/entities/gastos";
import { AccionesEnBloque } from "./AccionesEnBloque";

/** The bulk form as the server renders it (without JavaScript), for an administrador's gastos. */
async function render() {
  function Lista() {
    return (
      <AccionesEnBloque
        entity={gastos}
        acciones={enBloquePara(gastos, "administrador")}
        aqui="/gastos"
        todosHref="/gastos?seleccionar=todos"
        defaultValue={{ fecha_pago: "2026-11-24" }}
      />
    );
  }
  const handler = createStaticHandler([{ id: "routes/gastos._index", path: "/gastos", Component: Lista }]);
  const context = await handler.query(new Request("http://oficina.test/gastos"));
  if (context instanceof Response) throw new Error("respuesta inesperada");
  return renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
}

it("las acciones de un `grupo` comparten un fieldset: sus campos una vez, sus botones juntos", async () => {
  const html = await render();
  const grupo = /<fieldset><legend>Aprobar o rechazar<\/legend>(.*?)<\/fieldset>/s.exec(html)?.[1] ?? "";
  expect(grupo.match(/name="motivo"/g)).toHaveLength(1);
  // A textarea: Enter while typing the motivo never posts the group's first button (Aprobar).
  expect(grupo).toMatch(/<textarea[^>]*name="motivo"/);
  // Only rejecting asks for it: not marked as required beside «Aprobar».
  expect(grupo).toContain("Motivo del rechazo (solo para rechazar)</label>");
  expect(grupo).not.toContain("obligatorio");
  expect(grupo).toMatch(/value="aprobar_seleccion"[^>]*>Aprobar seleccionados</);
  expect(grupo).toMatch(/value="rechazar_seleccion" class="peligro"[^>]*>Rechazar seleccionados</);
});

it("una acción con campos propios: su fieldset, sus campos obligatorios y el valor inicial", async () => {
  const html = await render();
  const pago =
    /<legend>Marcar como pagados \(la misma fecha y referencia para todos\)<\/legend>(.*?)<\/fieldset>/s.exec(
      html,
    )?.[1];
  expect(pago).toMatch(/Fecha de pago<span class="obligatorio"> \(obligatorio\)/);
  const fecha = /<input(?=[^>]*name="fecha_pago")[^>]*>/.exec(pago ?? "")?.[0];
  expect(fecha).toContain('type="date"');
  expect(fecha).toContain('value="2026-11-24"');
  expect(pago).toMatch(/Referencia de pago<span class="obligatorio"> \(obligatorio\)/);
  expect(pago).toMatch(/value="pagar_seleccion"[^>]*>Marcar como pagados</);
});
