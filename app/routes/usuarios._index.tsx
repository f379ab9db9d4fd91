import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { requireUser } from "~/auth/session.server";
import { pageTitle } from "~/ui/EntityPages";

// Placeholder until this section lands; it never shows an empty or broken screen.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}
export default function Proximamente() {
  return (
    <>
      <h1>Usuarios</h1>
      <p>Próximamente: esta sección está en preparación.</p>
    </>
  );
}
export const meta: MetaFunction = () => pageTitle("Usuarios");
