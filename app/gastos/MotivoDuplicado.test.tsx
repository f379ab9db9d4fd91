import type { SubmissionResult } from "@conform-to/react";
import { useActionData } from "@remix-run/react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { accionDeRegistro } from "~/entities/entity";
import { gastos } from "~/entities/gastos";
import { AccionDelGasto } from "./FichaGasto";

/**
 * «Enviar a aprobación» as the server renders it (without JavaScript): «Motivo del duplicado»
 * only when the panel marks a duplicate, or after the database refused the send for that reason.
 */
async function render(o: { duplicado: boolean; enviado?: unknown }) {
  function Enviar() {
    const data = useActionData<{ result?: SubmissionResult<string[]> } | null>();
    return (
      <AccionDelGasto
        accion={accionDeRegistro(gastos, "enviar")!}
        record={{ id: "g", version: 1, fecha_gasto: "2026-11-02" }}
        lastResult={data?.result}
        hoy="2026-11-24"
        duplicado={o.duplicado}
        fueraDePolitica={[]}
        antesDeEnviar={[]}
      />
    );
  }
  const routes = [{ id: "routes/gastos._index", path: "/gastos", action: () => o.enviado ?? null, Component: Enviar }];
  const handler = createStaticHandler(routes);
  const request = new Request("http://oficina.test/gastos", o.enviado ? { method: "POST", body: new FormData() } : {});
  const context = await handler.query(request);
  if (context instanceof Response) throw new Error("respuesta inesperada");
  return renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
}

it("sin duplicado no hay campo", async () => {
  const html = await render({ duplicado: false });
  expect(html).toContain("Enviar a aprobación");
  expect(html).not.toContain("motivo_duplicado");
});

it("con duplicado: un campo obligatorio con su etiqueta y su ayuda", async () => {
  const html = await render({ duplicado: true });
  expect(html).toContain(
    '<label for="enviar-gasto-motivo_duplicado">Motivo del duplicado<span class="obligatorio"> (obligatorio)</span>',
  );
  expect(html).toMatch(/<textarea id="enviar-gasto-motivo_duplicado" name="motivo_duplicado"/);
  // The browser cuts nothing typed or pasted: the server says what is too long, and keeps it.
  expect(html).not.toMatch(/maxLength/i);
  expect(html).toContain('aria-describedby="enviar-gasto-motivo_duplicado-ayuda"');
  expect(html).toContain("Un justificante de este gasto ya está adjunto a otro gasto.");
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
  expect(html).toContain('aria-describedby="enviar-gasto-motivo_duplicado-ayuda enviar-gasto-motivo_duplicado-error"');
  expect(html).toContain("Un justificante de este gasto ya está adjunto a otro gasto: indique el motivo.");
  expect(html).toMatch(/<textarea[^>]*>x<\/textarea>/);
});
