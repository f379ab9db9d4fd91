import { categoriasFiscales } from "./categorias-fiscales";
import { cuentasEmpresa } from "./cuentas-empresa";
import { departamentos } from "./departamentos";
import type { Entity } from "./entity";
import { limitesExentosIrpf } from "./limites-exentos-irpf";
import { politicasGasto } from "./politicas-gasto";
import { proveedores } from "./proveedores";
import { sucursales } from "./sucursales";
import { tiposIva } from "./tipos-iva";

/**
 * The entities whose screens are the generic ones, found by their path's first segment: the
 * list with its «Nuevo …» form (app/routes/$entidad._index.tsx), the record
 * ($entidad.$id.tsx) and the CSV ($entidad.exportar.tsx). Their declaration is their screen.
 * An entity that needs more (the people of a department) adds a route file named by its path,
 * `departamentos.$id.tsx`, which Remix prefers to `$entidad.$id`. The browser renders these
 * screens, so it loads this list: only these entities, not every one (index.ts).
 */
const CON_PANTALLAS_GENERICAS: readonly Entity[] = [
  departamentos,
  proveedores,
  sucursales,
  tiposIva,
  categoriasFiscales,
  politicasGasto,
  limitesExentosIrpf,
  cuentasEmpresa,
];

/** The entity a generic screen's `$entidad` names, if it is one of them. */
export function entidadDeLaRuta(segmento: string | undefined): Entity | undefined {
  return CON_PANTALLAS_GENERICAS.find((e) => e.path === `/${segmento}`);
}
