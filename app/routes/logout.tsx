import { redirect, type ActionFunctionArgs } from "@remix-run/node";

export async function action({ request, context }: ActionFunctionArgs) {
  const headers = await context.services.auth.signOut(request);
  headers.append(
    "Set-Cookie",
    await context.services.flash.set(request, { kind: "exito", message: "Ha cerrado la sesión." }),
  );
  return redirect("/login", { headers });
}

export const loader = () => redirect("/");
