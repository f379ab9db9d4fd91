import { categoriasFiscales } from "./categorias-fiscales";
import { cuentasEmpresa } from "./cuentas-empresa";
import { departamentos } from "./departamentos";
import { empresa } from "./empresa";
import type { Entity } from "./entity";
import { gastos } from "./gastos";
import { politicasGasto } from "./politicas-gasto";
import { limitesExentosIrpf } from "./limites-exentos-irpf";
import { proveedores } from "./proveedores";
import { sucursales } from "./sucursales";
import { tiposIva } from "./tipos-iva";
import { usuarios } from "./usuarios";
import { viajes } from "./viajes";

/**
 * Every entity, in the order of the navigation. The machinery finds here what it says of another
 * table: where a related-record select reads its options, and how a related record is named
 * («3 sucursales asociadas»). Server side only: the browser loads just the entity of its page.
 */
export const ENTITIES: readonly Entity[] = [
  gastos,
  viajes,
  departamentos,
  proveedores,
  sucursales,
  usuarios,
  tiposIva,
  categoriasFiscales,
  politicasGasto,
  limitesExentosIrpf,
  empresa,
  cuentasEmpresa,
];

export function entityOf(table: string): Entity | undefined {
  return ENTITIES.find((e) => e.table === table);
}
