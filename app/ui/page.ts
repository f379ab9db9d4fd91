import { useRouteLoaderData } from "@remix-run/react";
import type { Formats } from "~/lib/format";
import type { RootData } from "~/root";

/** What every page uses: its title and the formats of the signed-in office (root loader). */

export function useFormats(): Formats {
  return useRouteLoaderData<RootData>("root")?.formats ?? { locale: "es-ES", currency: "EUR" };
}

export function pageTitle(...parts: (string | undefined)[]) {
  return [{ title: [...parts.filter(Boolean), "Oficina"].join(" — ") }];
}
