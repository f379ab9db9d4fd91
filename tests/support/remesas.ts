import type { Remesa, Transferencia } from "../../app/pagos/pain001";
import { generateValidEsIban } from "../../app/lib/iban";

/** The day the example remesas are checked against (their execution dates come after it). */
export const HOY = "2026-11-30";

/** A remesa of two reimbursements: one in Spain without BIC, one abroad with BIC and address. */
export function remesaPequena(): Remesa {
  return {
    mensajeId: "REM-2026-0042",
    creadaEn: new Date("2026-11-30T09:15:00.000Z"),
    fechaEjecucion: "2026-12-02",
    ordenante: {
      nombre: "Peña & Cía, S.L.",
      nif: "B12345674",
      sufijo: "000",
      direccion: { calle: "C/ Alcalá, 27, 3º", codigoPostal: "28014", ciudad: "Madrid", pais: "ES" },
      iban: "ES91 2100 0418 4502 0005 1332",
      bic: "CAIXESBBXXX",
    },
    transferencias: [
      {
        endToEndId: "REM-2026-0042-0001",
        beneficiario: { nombre: "María José Núñez O'Connor", iban: "ES7921000813610123456789" },
        importe: "123.45",
        concepto: "Gastos GAS-2026-0101, GAS-2026-0107",
      },
      {
        endToEndId: "REM-2026-0042-0002",
        beneficiario: {
          nombre: "Jürgen Groß",
          iban: "DE89370400440532013000",
          bic: "COBADEFFXXX",
          direccion: { calle: "Hauptstraße 5", codigoPostal: "10115", ciudad: "Berlin", pais: "DE" },
        },
        importe: "0.10",
        concepto: "Gasto GAS-2026-0110",
      },
    ],
  };
}

/** `n` transfers to Spanish accounts, amounts in cents 1, 2, … n (their sum is n(n+1)/2 cents). */
export function remesaGrande(n: number): Remesa {
  const base = remesaPequena();
  const transferencias: Transferencia[] = Array.from({ length: n }, (_, i) => ({
    endToEndId: `REM-2026-0043-${String(i + 1).padStart(4, "0")}`,
    beneficiario: { nombre: `Empleado ${i + 1}`, iban: generateValidEsIban(i + 1) },
    importe: `${Math.floor((i + 1) / 100)}.${String((i + 1) % 100).padStart(2, "0")}`,
    concepto: `GAS-2026-${String(i + 1).padStart(4, "0")}`,
  }));
  return { ...base, mensajeId: "REM-2026-0043", transferencias };
}
