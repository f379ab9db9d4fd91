/**
 * The server's side of ui/validacion-en-vivo.ts: a post parsed with its form's schema (a function of
 * zod, so that one schema serves the browser and the server). In a `.server` module on purpose:
 * Remix's browser build keeps a route module's imports even when only its action used them, so a
 * route that imported zod for its action put zod in its page's first load.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import * as z from "zod";
import type { Z } from "~/entities/fields";

export function parseSubmission<S extends z.ZodType>(formData: FormData, schema: (zod: Z) => S) {
  return parseWithZod(formData, { schema: schema(z) });
}
