import { SOLO_EDITA_ADMIN } from "~/auth/permissions";
import { CATEGORIAS_GASTO, DEDUCIBILIDADES, TIPOS_IVA } from "~/lib/opciones";
import type { Entity } from "./entity";
import { select, text } from "./fields";

export const categoriasFiscales: Entity = {
  table: "categorias_fiscales",
  view: "categorias_fiscales",
  path: "/categorias-fiscales",
  title: "IVA por categoría",
  singular: "categoría",
  plural: "categorías",
  gender: "f",
  intro:
    "El tipo de IVA habitual de cada categoría de gasto (el que se aplica cuando solo se escribe el importe), si su IVA se puede deducir y la cuenta de gasto del Plan General Contable con la que va al libro diario. Las categorías son las de los gastos: no se crean ni se eliminan aquí.",
  fields: [
    { ...select("categoria", "Categoría", CATEGORIAS_GASTO, { required: true }), readOnly: true },
    select("tipo_iva", "Tipo de IVA habitual", TIPOS_IVA, { required: true, enMensaje: "un tipo de IVA" }),
    select("deducibilidad", "IVA deducible", DEDUCIBILIDADES, {
      required: true,
      enMensaje: "si el IVA es deducible",
      hint: "Las atenciones a clientes, empleados o terceros no dan derecho a deducir el IVA; las demás categorías, con una factura a nombre de la empresa. El combustible, los peajes o el aparcamiento de un turismo que también se usa fuera del trabajo se deducen al 50 %. Un cambio vale para los gastos que se aprueben desde entonces: los ya aprobados conservan la de su aprobación en el libro de IVA y en el diario.",
    }),
    text("cuenta_gasto", "Cuenta de gasto", {
      genero: "f",
      required: true,
      min: 1,
      max: 8,
      pattern: /^6[0-9]{2,7}$/,
      patternMessage:
        "Cuenta de gasto: de 3 a 8 cifras del grupo 6 del Plan General Contable, por ejemplo 629 o 62900001",
      hint: "La cuenta del grupo 6 del Plan General Contable a la que va el gasto en el libro diario, por ejemplo 629 (otros servicios), 628 (suministros) o 623 (servicios de profesionales independientes). Con menos de 8 cifras, el diario la completa con ceros. Un cambio vale para los gastos que se aprueben desde entonces.",
    }),
  ],
  columns: [
    { name: "categoria", label: "Categoría", kind: "option", options: CATEGORIAS_GASTO, link: true, sortable: true },
    { name: "tipo_iva", label: "Tipo de IVA habitual", kind: "option", options: TIPOS_IVA },
    { name: "deducibilidad", label: "IVA deducible", kind: "option", options: DEDUCIBILIDADES, sortable: true },
    { name: "cuenta_gasto", label: "Cuenta de gasto", sortable: true },
  ],
  // The category's slug is its name without accents or capitals, as the search words are.
  search: ["categoria"],
  filters: [
    { name: "tipo_iva", label: "Tipo de IVA habitual", kind: "select", column: "tipo_iva", options: TIPOS_IVA },
    {
      name: "deducibilidad",
      label: "IVA deducible",
      kind: "select",
      column: "deducibilidad",
      options: DEDUCIBILIDADES,
    },
  ],
  defaultOrder: { column: "categoria", ascending: true },
  labelColumn: "categoria",
  // The categories are a fixed list: one row each, always.
  permisos: SOLO_EDITA_ADMIN,
  roles: ["administrador"],
};
