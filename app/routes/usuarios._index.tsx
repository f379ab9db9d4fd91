import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { listLoader } from "~/entities/crud.server";
import { usuarios } from "~/entities/usuarios";
import { EntityListPage, pageTitle } from "~/ui/EntityPages";

// No action: profiles are born with their accounts (sign-up), never created here.
export const loader = (args: LoaderFunctionArgs) => listLoader(usuarios, args);
export default function Usuarios() {
  return <EntityListPage entity={usuarios} />;
}
export const meta: MetaFunction = () => pageTitle(usuarios.title);
