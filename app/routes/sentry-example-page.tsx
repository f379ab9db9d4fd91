import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { requireUser } from "~/auth/session.server";
import { pageTitle } from "~/ui/page";

/** A test page for error reporting: one error in the browser, one on the server. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  throw new Error("Error de prueba de Sentry en el servidor");
}

export default function SentryExamplePage() {
  const [fail, setFail] = useState(false);
  if (fail) throw new Error("Error de prueba de Sentry en el navegador");
  return (
    <>
      <h1>Página de prueba de errores</h1>
      <p>
        Sirve para comprobar que los errores llegan al sistema de monitorización y que la pantalla de error muestra su
        código.
      </p>
      <section className="panel" aria-labelledby="navegador">
        <h2 id="navegador">Error en el navegador</h2>
        <p>Necesita JavaScript.</p>
        <button type="button" onClick={() => setFail(true)}>
          Provocar un error en el navegador
        </button>
      </section>
      <section className="panel" aria-labelledby="servidor">
        <h2 id="servidor">Error en el servidor</h2>
        <Form method="post">
          <button type="submit">Provocar un error en el servidor</button>
        </Form>
      </section>
    </>
  );
}

export const meta: MetaFunction = () => pageTitle("Prueba de errores");
