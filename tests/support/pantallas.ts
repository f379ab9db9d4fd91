import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import * as ficha from "~/routes/$entidad.$id";
import * as lista from "~/routes/$entidad._index";
import * as exportar from "~/routes/$entidad.exportar";

/**
 * The generic screens' route modules (entities/pantallas.ts) as Remix calls them for one entity's
 * path: `$entidad` is that path's first segment, added to whatever params the test gives.
 */
export function pantallasDe(entidad: string) {
  const con = <A extends LoaderFunctionArgs | ActionFunctionArgs>(args: A): A => ({
    ...args,
    params: { ...args.params, entidad },
  });
  return {
    lista: {
      loader: (args: LoaderFunctionArgs) => lista.loader(con(args)),
      action: (args: ActionFunctionArgs) => lista.action(con(args)),
    },
    ficha: {
      loader: (args: LoaderFunctionArgs) => ficha.loader(con(args)),
      action: (args: ActionFunctionArgs) => ficha.action(con(args)),
    },
    exportar: { loader: (args: LoaderFunctionArgs) => exportar.loader(con(args)) },
  };
}
