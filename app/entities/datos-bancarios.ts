import { normalizeNif, validateNif } from "~/lib/nif";
import { formSchema, iban, text, type Field, type Z } from "./fields";

/**
 * A person's bank account, where their reimbursements are paid (public.datos_bancarios, one row
 * per person): the form of «Datos bancarios» on their profile. Browser-safe.
 */
export const DATOS_BANCARIOS_CAMPOS: readonly Field[] = [
  iban("iban", "IBAN", {
    required: true,
    hint: "Por ejemplo ES91 2100 0418 4502 0005 1332, con espacios o sin ellos.",
  }),
  text("titular", "Titular", {
    min: 2,
    max: 70,
    hint: "Opcional: solo si la cuenta no está a nombre de esta persona.",
  }),
  text("nif", "NIF", {
    max: 20,
    hint: "El DNI o NIE, con su letra, por ejemplo 12345678Z: lo lleva el informe de IRPF de dietas y kilometraje (modelo 190).",
  }),
];

export const datosBancariosSchema = (z: Z) =>
  formSchema(z, DATOS_BANCARIOS_CAMPOS, (values, ctx) => {
    if (typeof values.nif !== "string" || values.nif === "") return;
    const problema = validateNif(values.nif, "ES");
    if (problema) ctx.addIssue({ code: "custom", path: ["nif"], message: problema });
    // A person's: a DNI or a NIE (a company's CIF is not).
    else if (!/^(\d|[XYZ])/.test(normalizeNif(values.nif, "ES")))
      ctx.addIssue({ code: "custom", path: ["nif"], message: "Escriba un DNI o un NIE, por ejemplo 12345678Z." });
  });

/** The stored row, as the profile reads it. */
export type DatosBancarios = { id: string; version: number; iban: string; titular: string | null; nif: string | null };
