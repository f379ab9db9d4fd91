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
];

export const datosBancariosSchema = (z: Z) => formSchema(z, DATOS_BANCARIOS_CAMPOS);

/** The stored row, as the profile reads it. */
export type DatosBancarios = { id: string; version: number; iban: string; titular: string | null };
