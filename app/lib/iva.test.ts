import { toCents } from "./money";
import {
  completarLinea,
  completarLineas,
  enImporte,
  baseDe,
  cuotaCuadra,
  cuotaDe,
  describirDesglose,
  leerDesglose,
  lineaDeImporte,
} from "./iva";

describe("IVA en céntimos exactos", () => {
  it("la cuota de una base, redondeada al céntimo (mitad hacia arriba)", () => {
    expect(cuotaDe("10.00", "21")).toBe("2.10");
    expect(cuotaDe("0.05", "10")).toBe("0.01"); // 0,005 → 0,01
    expect(cuotaDe("0.04", "10")).toBe("0.00");
    expect(cuotaDe("123.45", "exento")).toBe("0.00");
    expect(cuotaDe("999999999999.99", "21")).toBe("210000000000.00");
  });

  it("la base de una cuota; a 0 % o exento no hay una", () => {
    expect(baseDe("2.10", "21")).toBe("10.00");
    expect(baseDe("1.00", "0")).toBeNull();
    expect(baseDe("1.00", "exento")).toBeNull();
  });

  it("un importe con IVA incluido se parte en base y cuota que suman exactamente el importe", () => {
    expect(lineaDeImporte("12.10", "10")).toEqual({ tipo: "10", base: "11.00", cuota: "1.10" });
    expect(lineaDeImporte("0.01", "21")).toEqual({ tipo: "21", base: "0.01", cuota: "0.00" });
    for (const importe of ["0.99", "1.00", "19.99", "54.18", "1000000.00"])
      for (const tipo of ["21", "10", "4", "exento"] as const) {
        const l = lineaDeImporte(importe, tipo);
        expect(toCents(l.base) + toCents(l.cuota)).toBe(toCents(importe));
        expect(cuotaCuadra(l), `${importe} al ${tipo}`).toBe(true);
      }
  });

  it("una cuota a un céntimo de la calculada cuadra; a dos, no; exenta o al 0 %, solo 0,00", () => {
    expect(cuotaCuadra({ tipo: "10", base: "10.90", cuota: "1.10" })).toBe(true);
    expect(cuotaCuadra({ tipo: "10", base: "10.90", cuota: "1.11" })).toBe(false);
    expect(cuotaCuadra({ tipo: "exento", base: "50.00", cuota: "0.01" })).toBe(false);
    expect(cuotaCuadra({ tipo: "0", base: "50.00", cuota: "0.00" })).toBe(true);
  });

  it("un desglose guardado se lee y se describe; lo que no lo es, no", () => {
    const lineas = leerDesglose([{ tipo: "10", base: "45.45", cuota: "4.55" }]);
    expect(describirDesglose(lineas!).replace(/\s/g, " ")).toBe("10 %: base 45,45 €, cuota 4,55 €");
    expect(leerDesglose([{ tipo: "7", base: "1.00", cuota: "0.07" }])).toBeNull();
    expect(leerDesglose("[]")).toBeNull();
  });
});

describe("completar lo que se escribió", () => {
  it("una línea con solo la base o solo la cuota recibe la otra", () => {
    expect(completarLinea("21", "10.00", "")).toEqual({ tipo: "21", base: "10.00", cuota: "2.10" });
    expect(completarLinea("10", "", "1.10")).toEqual({ tipo: "10", base: "11.00", cuota: "1.10" });
    expect(completarLinea("exento", "", "1.00")).toBeNull();
  });

  it("la línea con solo el tipo toma el resto; una sola línea sigue al importe si no cuadra", () => {
    expect(
      completarLineas(
        [
          { tipo: "21", base: "10.00", cuota: "2.10" },
          { tipo: "10", base: "", cuota: "" },
        ],
        "24.20",
        "0.00",
      ),
    ).toEqual([
      { tipo: "21", base: "10.00", cuota: "2.10" },
      { tipo: "10", base: "11.00", cuota: "1.10" },
    ]);
    expect(completarLineas([{ tipo: "21", base: "5.00", cuota: "1.05" }], "12.10", "0.00")).toEqual([
      { tipo: "21", base: "10.00", cuota: "2.10" },
    ]);
    expect(completarLineas([{ tipo: "10", base: "10.90", cuota: "1.10" }], "13.00", "1.00")).toEqual([
      { tipo: "10", base: "10.90", cuota: "1.10" },
    ]);
  });

  it("sin IVA en el importe (inversión del sujeto pasivo): las bases suman el importe y la cuota va aparte", () => {
    expect(enImporte({ tipo: "21", base: "100.00", cuota: "21.00" })).toBe(12100n);
    expect(enImporte({ tipo: "21", base: "100.00", cuota: "21.00" }, true)).toBe(10000n);
    expect(
      completarLineas(
        [
          { tipo: "21", base: "100.00", cuota: "21.00" },
          { tipo: "10", base: "", cuota: "" },
        ],
        "150.00",
        "0.00",
        true,
      ),
    ).toEqual([
      { tipo: "21", base: "100.00", cuota: "21.00" },
      { tipo: "10", base: "50.00", cuota: "5.00" },
    ]);
    // A single line written as if the IVA were in the importe: recomputed on the importe as base.
    expect(completarLineas([{ tipo: "21", base: "82.64", cuota: "17.36" }], "100.00", "0.00", true)).toEqual([
      { tipo: "21", base: "100.00", cuota: "21.00" },
    ]);
    expect(completarLineas([{ tipo: "21", base: "99.00", cuota: "20.79" }], "100.00", "1.00", true)).toEqual([
      { tipo: "21", base: "99.00", cuota: "20.79" },
    ]);
  });
});
