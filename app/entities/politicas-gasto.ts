import type { Permisos } from "~/auth/permissions";
import { CATEGORIAS_GASTO } from "~/lib/opciones";
import type { Entity } from "./entity";
import { integer, money, ref, select } from "./fields";

/** Administradores write them; everybody else reads them, so nobody learns a limit only when a gasto breaks it. */
const PERMISOS: Permisos = { crear: ["administrador"], editar: ["administrador"], eliminar: ["administrador"] };
const LIMITES = ["maximo_por_gasto", "maximo_por_dia", "maximo_por_mes", "justificante_desde", "antiguedad_maxima"];

export const politicasGasto: Entity = {
  table: "politicas_gasto",
  view: "politicas_gasto_vista",
  path: "/politicas-gasto",
  title: "Políticas de gasto",
  singular: "política de gasto",
  plural: "políticas de gasto",
  gender: "f",
  intro:
    "Los límites de cada categoría de gasto. Un gasto que se sale de su política se puede enviar igualmente, con un motivo: quien lo aprueba ve el límite superado y el motivo antes de aprobarlo. La política de un departamento sustituye, para sus gastos, a la general de la categoría.",
  fields: [
    select("categoria", "Categoría", CATEGORIAS_GASTO, { required: true }),
    ref("departamento_id", "Departamento", "departamentos", {
      hint: "Vacío: la política general de la categoría, para todos los departamentos que no tengan la suya.",
    }),
    money("maximo_por_gasto", "Máximo por gasto", { positive: true, genero: "m" }),
    money("maximo_por_dia", "Máximo por día", {
      positive: true,
      genero: "m",
      hint: "Lo que suman los gastos de una persona en esta categoría con la misma fecha.",
    }),
    money("maximo_por_mes", "Máximo por mes", {
      positive: true,
      genero: "m",
      hint: "Lo que suman los gastos de una persona en esta categoría en un mes natural.",
    }),
    money("justificante_desde", "Con justificante desde", {
      genero: "m",
      enMensaje: "el importe desde el que se pide justificante",
      hint: "Los gastos de este importe o más se envían con su ticket o factura, o con un motivo.",
    }),
    integer("antiguedad_maxima", "Antigüedad máxima (días)", {
      min: 1,
      max: 3650,
      genero: "f",
      enMensaje: "la antigüedad máxima en días",
      hint: "Cuántos días después de la fecha del gasto se puede enviar a aprobación.",
    }),
  ],
  columns: [
    { name: "categoria", label: "Categoría", kind: "option", options: CATEGORIAS_GASTO, link: true, sortable: true },
    { name: "departamento_nombre", label: "Departamento", sortable: true },
    { name: "maximo_por_gasto", label: "Máximo por gasto", kind: "money" },
    { name: "maximo_por_dia", label: "Máximo por día", kind: "money" },
    { name: "maximo_por_mes", label: "Máximo por mes", kind: "money" },
    { name: "justificante_desde", label: "Con justificante desde", kind: "money", soloEnCsv: true },
    { name: "antiguedad_maxima", label: "Antigüedad máxima (días)", soloEnCsv: true },
  ],
  search: ["categoria", "departamento_nombre"],
  filters: [
    { name: "categoria", label: "Categoría", kind: "select", column: "categoria", options: CATEGORIAS_GASTO },
    { name: "departamento", label: "Departamento", kind: "ref", column: "departamento_id", table: "departamentos" },
  ],
  defaultOrder: { column: "categoria", ascending: true },
  labelColumn: "categoria",
  // A department's own version of a policy starts from the general one (or another department's).
  copia: {
    sinCopiar: ["departamento_id"],
    aviso:
      "Elija el departamento, o cambie la categoría: cada categoría tiene una política general y una por departamento.",
  },
  permisos: PERMISOS,
  refine: (values, ctx) => {
    if (LIMITES.every((c) => values[c] === null || values[c] === undefined || values[c] === ""))
      ctx.addIssue({
        code: "custom",
        path: ["maximo_por_gasto"],
        message:
          "Escriba al menos un límite: un máximo, el importe desde el que se pide justificante o la antigüedad máxima",
      });
    const { maximo_por_dia: dia, maximo_por_mes: mes } = values;
    if (typeof dia === "string" && typeof mes === "string" && Number(dia) > Number(mes))
      ctx.addIssue({
        code: "custom",
        path: ["maximo_por_dia"],
        message: "Máximo por día: no puede ser mayor que el máximo por mes",
      });
  },
};
