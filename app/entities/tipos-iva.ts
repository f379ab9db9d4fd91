import { isValueOf, TIPOS_IVA } from "~/lib/opciones";
import { soloAltasDeAdministrador, type Entity } from "./entity";
import { date, select, text } from "./fields";

/** What a saved rate may still change: its rate is what gastos applied (column grants, migration 20261212000001). */
const EDITABLES = ["nombre", "desde", "hasta"] as const;
const ISO = /^\d{4}-\d{2}-\d{2}$/;

export const tiposIva: Entity = {
  table: "tipos_iva",
  view: "tipos_iva",
  path: "/tipos-iva",
  title: "Tipos de IVA",
  singular: "tipo de IVA",
  plural: "tipos de IVA",
  gender: "m",
  intro:
    "Cada tipo de IVA con sus fechas de vigencia: cada gasto aplica el que estaba en vigor en su fecha de expedición. Un cambio de ley es un tipo nuevo con su fecha «En vigor desde» (y, en el anterior, la fecha «En vigor hasta»).",
  fields: [
    select("clave", "Tipo", TIPOS_IVA, {
      required: true,
      hint: "No se cambia después de crearlo: para otro porcentaje, cree otro tipo de IVA.",
    }),
    text("nombre", "Nombre", {
      required: true,
      min: 2,
      max: 80,
      hint: "Por ejemplo General, Reducido o Superreducido.",
    }),
    date("desde", "En vigor desde", { required: true, enMensaje: "la fecha de entrada en vigor" }),
    date("hasta", "En vigor hasta", { hint: "Vacía si sigue en vigor." }),
  ],
  columns: [
    { name: "nombre", label: "Nombre", link: true, sortable: true },
    { name: "clave", label: "Tipo", kind: "option", options: TIPOS_IVA },
    { name: "desde", label: "En vigor desde", kind: "date", sortable: true },
    { name: "hasta", label: "En vigor hasta", kind: "date", sortable: true },
  ],
  search: ["nombre"],
  filters: [{ name: "clave", label: "Tipo", kind: "select", column: "clave", options: TIPOS_IVA }],
  defaultOrder: { column: "porcentaje", ascending: false },
  labelColumn: "nombre",
  ...soloAltasDeAdministrador(EDITABLES),
  refine: (values, ctx) => {
    const { desde, hasta } = values;
    if (typeof desde === "string" && typeof hasta === "string" && ISO.test(desde) && ISO.test(hasta) && hasta < desde)
      ctx.addIssue({
        code: "custom",
        path: ["hasta"],
        message: "En vigor hasta: no puede ser anterior a la fecha «En vigor desde»",
      });
  },
  // The percentage is the key's (the database checks it): the form never asks for it.
  normalize: (values) =>
    isValueOf(TIPOS_IVA, values.clave)
      ? { ...values, porcentaje: values.clave === "exento" ? "0" : values.clave }
      : values,
  defaults: () => ({ clave: "21" }),
  etiquetasHistorial: { porcentaje: "Porcentaje" },
};
