import type { Permisos } from "~/auth/permissions";
import type { Entity } from "./entity";
import { checkbox, iban, select, text } from "./fields";

/** Deleting is not offered: authenticated has no delete grant on the table, and remesas point to its rows. */
const PERMISOS: Permisos = { crear: ["administrador"], editar: ["administrador"], eliminar: [] };

/** The pain.001 versions a bank accepts: what the remesa file is written in. */
export const FORMATOS_SEPA = [
  { value: "pain.001.001.09", label: "pain.001.001.09 (EPC, direcciones estructuradas)" },
  { value: "pain.001.001.03", label: "pain.001.001.03 (guía AEB)" },
] as const;

export const cuentasEmpresa: Entity = {
  table: "cuentas_empresa",
  view: "cuentas_empresa",
  path: "/cuentas-empresa",
  title: "Cuentas de la empresa",
  singular: "cuenta de la empresa",
  plural: "cuentas de la empresa",
  gender: "f",
  intro:
    "Las cuentas bancarias desde las que la empresa paga los gastos por transferencia: cada remesa sale de una de las activas, en el formato que acepta su banco.",
  fields: [
    text("nombre", "Nombre", {
      required: true,
      min: 2,
      max: 80,
      hint: "Cómo se reconoce la cuenta, por ejemplo Cuenta principal o Banco Sabadell pagos.",
    }),
    iban("iban", "IBAN", {
      required: true,
      hint: "Por ejemplo ES91 2100 0418 4502 0005 1332, con espacios o sin ellos.",
    }),
    text("bic", "BIC", {
      max: 11,
      uppercase: true,
      pattern: /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/,
      patternMessage: "BIC: 8 u 11 letras y cifras, por ejemplo CAIXESBBXXX",
      hint: "Opcional. 8 u 11 caracteres, por ejemplo CAIXESBBXXX.",
    }),
    text("sufijo", "Sufijo", {
      required: true,
      min: 1,
      max: 3,
      uppercase: true,
      pattern: /^[A-Z0-9]{3}$/,
      patternMessage: "Sufijo: tres letras o cifras, por ejemplo 000",
      hint: "El sufijo que su banco asignó a la empresa como ordenante, normalmente 000.",
    }),
    select("formato", "Formato", FORMATOS_SEPA, {
      required: true,
      enMensaje: "el formato del fichero",
      hint: "El formato de los ficheros de transferencias que acepta su banco.",
    }),
    checkbox("activa", "Activa", { hint: "Solo desde las cuentas activas se generan remesas." }),
  ],
  columns: [
    { name: "nombre", label: "Nombre", link: true, sortable: true },
    { name: "iban", label: "IBAN", kind: "iban" },
    { name: "formato", label: "Formato", kind: "option", options: FORMATOS_SEPA },
    { name: "activa", label: "Activa", kind: "boolean", sortable: true },
  ],
  search: ["nombre", "iban"],
  filters: [{ name: "activa", label: "Activa", kind: "boolean", column: "activa" }],
  defaultOrder: { column: "nombre", ascending: true },
  labelColumn: "nombre",
  // An IBAN already written: its account is linked beside the message (to edit or reactivate it).
  duplicados: { iban: ["iban"] },
  permisos: PERMISOS,
  roles: ["administrador"],
  defaults: () => ({ sufijo: "000", formato: "pain.001.001.09", activa: "on" }),
};
