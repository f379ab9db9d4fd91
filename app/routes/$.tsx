import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/session.server";
import { notFound } from "~/crud/respuestas.server";

/** Any other path: the 404 screen (after sign-in, so the site's map is not public). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  notFound();
}
export default function NotFound() {
  return null;
}
