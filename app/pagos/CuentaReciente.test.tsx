import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { CuentaReciente } from "./CuentaReciente";
import type { CuentaIndicada } from "./cuenta-indicada";

/** The line under a recently written IBAN, as the server renders it, for each kind of writer. */
async function texto(cuenta: CuentaIndicada) {
  const routes = [{ id: "root", path: "/", Component: () => <CuentaReciente cuenta={cuenta} yo="yo" /> }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://oficina.test/"));
  if (context instanceof Response) throw new Error("respuesta inesperada");
  const html = renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
  return html.replace(/<[^>]+>/g, "").trim();
}

const en = "2026-12-01T09:26:00Z";

it("dice quién escribió la cuenta: usted, otra persona, alguien que ya no está", async () => {
  expect(await texto({ en, por_id: "yo", por: "Ana (ana@oficina.example)" })).toBe(
    "Cuenta indicada el 01/12/2026, 10:26, por usted: compruébela antes de pagar.",
  );
  expect(await texto({ en, por_id: "otra", por: "Ana (ana@oficina.example)" })).toBe(
    "Cuenta indicada el 01/12/2026, 10:26, por Ana (ana@oficina.example): compruébela antes de pagar.",
  );
  expect(await texto({ en, por_id: "otra", por: null })).toBe(
    "Cuenta indicada el 01/12/2026, 10:26, por un usuario que ya no está en Oficina: compruébela antes de pagar.",
  );
});

it("una cuenta escrita sin sesión también se dice, y por dónde pudo llegar", async () => {
  expect(await texto({ en, por_id: null, por: null })).toBe(
    "Cuenta indicada el 01/12/2026, 10:26, sin sesión en Oficina (una carga de datos o el editor SQL): compruébela antes de pagar.",
  );
});
