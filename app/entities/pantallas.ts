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
 * ($entidad.$id.tsx, with the sections it declares: `secciones`) and the CSV
 * ($entidad.exportar.tsx). Their declaration is their screen. An entity that needs a screen of
 * its own (gastos, viajes, usuarios) is not listed: its route files are named by its path. The
 * browser renders these screens, so it loads this list: only these entities, not every one.
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

/** The entity a generic screen's `$entidad` names, if it is one of them (in any case, as Remix matches paths). */
export function entidadDeLaRuta(segmento: string | undefined): Entity | undefined {
  const path = `/${segmento?.toLowerCase()}`;
  return CON_PANTALLAS_GENERICAS.find((e) => e.path === path);
}
