import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { requireUser } from "~/auth/session.server";
import { notFound } from "~/crud/respuestas.server";
import { pageTitle } from "~/ui/page";

/**
 * A test page for error reporting: one error in the browser, one on the server. Only
 * for administradores, who look after the installation: to anyone else it does not exist (a
 * 404, never the test error's 500 in the monitoring).
 */
async function requireAdmin(request: Request, context: LoaderFunctionArgs["context"]) {
  const { user } = await requireUser(request, context);
  if (user.rol !== "administrador") notFound();
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAdmin(request, context);
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
