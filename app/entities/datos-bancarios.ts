import { normalizeNif, validateNif } from "~/lib/nif";
import { formSchema, iban, text, type Field, type Z } from "./fields";

/**
 * A person's bank account, where their reimbursements are paid, and their NIF (public.datos_bancarios,
 * one row per person): the form of «Datos bancarios» on their profile. Either may go alone: whoever
 * is paid in cash still needs their NIF in the IRPF report. Browser-safe.
 */
export const DATOS_BANCARIOS_CAMPOS: readonly Field[] = [
  iban("iban", "IBAN", {
    hint: "Donde se le reembolsan los gastos por transferencia. Por ejemplo ES91 2100 0418 4502 0005 1332, con espacios o sin ellos.",
  }),
  text("titular", "Titular", {
    min: 2,
    max: 70,
    hint: "Opcional: solo si la cuenta no está a nombre de esta persona.",
  }),
  nifDePersona(
    text("nif", "NIF", {
      max: 20,
      uppercase: true,
      hint: "El DNI o NIE, con su letra, por ejemplo 12345678Z: lo lleva el informe de IRPF de dietas y kilometraje (modelo 190).",
    }),
  ),
];

/**
 * A person's NIF, not a company's CIF: a DNI, a NIE, or the K, L and M NIFs of those without one.
 * Checked on the field itself, so a wrong IBAN and a wrong NIF are both said at once.
 */
function nifDePersona(field: Field): Field {
  return {
    ...field,
    schema: (z) =>
      field.schema(z).superRefine((value, ctx) => {
        if (typeof value !== "string" || value === "") return;
        const problema = /^(\d{8}|[XYZKLM]\d{7})[A-Z]$/.test(normalizeNif(value, "ES"))
          ? validateNif(value, "ES")
          : "Escriba un NIF de persona: DNI, NIE o NIF K, L o M, por ejemplo 12345678Z.";
        if (problema) ctx.addIssue({ code: "custom", message: problema });
      }),
  };
}

export const datosBancariosSchema = (z: Z) =>
  formSchema(z, DATOS_BANCARIOS_CAMPOS, (values, ctx) => {
    // Both empty is for the server to judge: it removes what was saved, or asks for one of them.
    if (!values.iban) {
      if (values.titular)
        ctx.addIssue({
          code: "custom",
          path: ["titular"],
          message: "El titular es el de la cuenta: escriba también su IBAN",
        });
    }
  });

/** The stored row, as the profile reads it. */
export type DatosBancarios = {
  id: string;
  version: number;
  iban: string | null;
  titular: string | null;
  nif: string | null;
};
