import { SOLO_EDITA_ADMIN } from "~/auth/permissions";
import { PAISES } from "~/lib/opciones";
import { normalizeNif, validateNif } from "~/lib/nif";
import type { Entity } from "./entity";
import { money, select, text } from "./fields";

export const empresa: Entity = {
  table: "empresa",
  view: "empresa",
  path: "/empresa",
  title: "Empresa",
  singular: "empresa",
  plural: "empresas",
  gender: "f",
  single: true,
  intro:
    "Los datos fiscales de la empresa: las facturas de los gastos deben ir a su nombre y con su NIF para que el IVA se pueda deducir. También lo que paga por km y por día de viaje: cada kilometraje y cada dieta se calcula con ello.",
  fields: [
    text("razon_social", "Razón social", {
      required: true,
      min: 2,
      max: 200,
      autoComplete: "organization",
      hint: "Como figura en el registro, por ejemplo Papelería Ejemplo, S.L.",
    }),
    text("nif", "NIF", {
      required: true,
      min: 1,
      max: 20,
      hint: "El CIF de la sociedad (o el NIF de la persona), con su letra o dígito de control, por ejemplo B12345674. Se guarda en mayúsculas, sin espacios, puntos ni guiones.",
    }),
    text("direccion", "Dirección", { required: true, min: 1, max: 200, autoComplete: "street-address" }),
    text("codigo_postal", "Código postal", { required: true, min: 1, max: 10, autoComplete: "postal-code" }),
    text("ciudad", "Ciudad", { required: true, min: 1, max: 80 }),
    text("provincia", "Provincia", { max: 80 }),
    select("pais", "País", PAISES, { required: true }),
    money("tarifa_km", "Tarifa por km", {
      required: true,
      positive: true,
      max: 10,
      hint: "Lo que la empresa paga por km en vehículo propio, por ejemplo 0,26. Lo que pase del límite exento tributa como salario.",
    }),
    money("dieta_espana_sin_pernocta", "Dieta en España sin pernocta", { required: true, positive: true, max: 10_000 }),
    money("dieta_espana_con_pernocta", "Dieta en España con pernocta", { required: true, positive: true, max: 10_000 }),
    money("dieta_extranjero_sin_pernocta", "Dieta en el extranjero sin pernocta", {
      required: true,
      positive: true,
      max: 10_000,
    }),
    money("dieta_extranjero_con_pernocta", "Dieta en el extranjero con pernocta", {
      required: true,
      positive: true,
      max: 10_000,
    }),
  ],
  grupos: [
    {
      titulo: "Kilometraje y dietas",
      campos: [
        "tarifa_km",
        "dieta_espana_sin_pernocta",
        "dieta_espana_con_pernocta",
        "dieta_extranjero_sin_pernocta",
        "dieta_extranjero_con_pernocta",
      ],
    },
  ],
  columns: [],
  search: [],
  filters: [],
  defaultOrder: { column: "razon_social", ascending: true },
  labelColumn: "razon_social",
  // The one row exists from the start (the migration makes it).
  permisos: SOLO_EDITA_ADMIN,
  roles: ["administrador"],
  refine: (values, ctx) => {
    // A Spanish NIF whatever the address's country: the database keeps nine letters and digits.
    if (typeof values.nif === "string" && values.nif !== "") {
      const problem = validateNif(values.nif, "ES");
      if (problem) ctx.addIssue({ code: "custom", path: ["nif"], message: problem });
    }
    const cp = values.codigo_postal;
    if (values.pais === "ES" && typeof cp === "string" && cp.trim() !== "" && !/^\d{5}$/.test(cp.trim()))
      ctx.addIssue({ code: "custom", path: ["codigo_postal"], message: "Código postal: 5 cifras, por ejemplo 28009" });
  },
  normalize: (values) => ({ ...values, nif: normalizeNif(String(values.nif), "ES") }),
  // The key that keeps the table to one row: nothing anyone changed.
  etiquetasHistorial: { unica: null },
};
