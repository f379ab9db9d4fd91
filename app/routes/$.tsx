import type { LoaderFunctionArgs } from "@remix-run/node";
import { noExiste } from "~/crud/respuestas.server";

/** Any other path: the 404 screen. */
export const loader = (args: LoaderFunctionArgs) => noExiste(args);
export default function NotFound() {
  return null;
}
