import { TIPOS_LIMITE_IRPF } from "~/lib/opciones";
import { soloAltasDeAdministrador, type Entity } from "./entity";
import { date, money, select } from "./fields";

/**
 * The IRPF exempt limits with the date each takes effect (docs/producto.md «Viajes, kilometraje y
 * dietas»): a change of the regulation is a new row; a gasto applies the latest one in force on
 * its date. Administradores add and correct them; nobody deletes one, gastos keep using it.
 */
const EDITABLES = ["vigente_desde", "importe"] as const;

export const limitesExentosIrpf: Entity = {
  table: "limites_exentos_irpf",
  view: "limites_exentos_irpf",
  path: "/limites-irpf",
  title: "Límites exentos de IRPF",
  singular: "límite exento",
  plural: "límites exentos",
  gender: "m",
  intro:
    "Lo que cada kilometraje y cada dieta puede pagar sin tributar (Reglamento del IRPF, art. 9). Un cambio de la norma es un límite nuevo con su fecha «En vigor desde»: cada gasto aplica el último en vigor en su fecha, y uno ya aprobado conserva el de su aprobación.",
  fields: [
    select("tipo", "Tipo", TIPOS_LIMITE_IRPF, {
      required: true,
      hint: "No se cambia después de crearlo: para otro tipo, cree otro límite.",
    }),
    date("vigente_desde", "En vigor desde", { required: true, enMensaje: "la fecha de entrada en vigor" }),
    money("importe", "Importe exento", {
      required: true,
      max: 10_000,
      hint: "En euros: por km en el kilometraje (por ejemplo 0,26), por día en las dietas (por ejemplo 53,34).",
    }),
  ],
  columns: [
    { name: "tipo", label: "Tipo", kind: "option", options: TIPOS_LIMITE_IRPF, link: true, sortable: true },
    { name: "vigente_desde", label: "En vigor desde", kind: "date", sortable: true },
    { name: "importe", label: "Importe exento", kind: "money", sortable: true },
  ],
  search: [],
  filters: [{ name: "tipo", label: "Tipo", kind: "select", column: "tipo", options: TIPOS_LIMITE_IRPF }],
  defaultOrder: { column: "vigente_desde", ascending: false },
  labelColumn: "tipo",
  ...soloAltasDeAdministrador(EDITABLES),
  defaults: () => ({ tipo: "km" }),
};
