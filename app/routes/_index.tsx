import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/session.server";
import { pageTitle } from "~/ui/EntityPages";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(request, context);
  return { nombre: user.nombre, rol: user.rol };
}

export default function Panel() {
  const { nombre } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Panel</h1>
      <p>Hola, {nombre}.</p>
      <ul className="accesos">
        <li>
          <Link to="/gastos">Gastos</Link>
        </li>
        <li>
          <Link to="/departamentos">Departamentos</Link>
        </li>
      </ul>
    </>
  );
}

export const meta: MetaFunction = () => pageTitle("Panel");
