import {
  XDIARIO,
  XSUBCTA,
  ancho,
  bytesAnsi,
  documentoCorto,
  posiciones,
  registroDiario,
  registroSubcuenta,
  textoAnsi,
} from "./contaplus";
import type { Apunte } from "./diario";

/**
 * ContaPlus's XDiario and XSubCta records against the layout written in docs/contabilidad.md:
 * where each field starts and ends (1-based, as printed there), and a record read back field by
 * field from those positions, each compared with the literal text it must hold.
 */
const DIARIO_DOC: [string, number, number][] = [
  ["Asien", 1, 6],
  ["Fecha", 7, 14],
  ["SubCta", 15, 26],
  ["Contra", 27, 38],
  ["PtaDebe", 39, 54],
  ["Concepto", 55, 79],
  ["PtaHaber", 80, 95],
  ["Factura", 96, 103],
  ["BaseImpo", 104, 119],
  ["IVA", 120, 124],
  ["RecEquiv", 125, 129],
  ["Documento", 130, 139],
  ["Departa", 140, 142],
  ["Clave", 143, 148],
  ["Estado", 149, 149],
  ["NCasado", 150, 155],
  ["TCasado", 156, 156],
  ["Trans", 157, 162],
  ["Cambio", 163, 178],
  ["DebeME", 179, 194],
  ["HaberME", 195, 210],
  ["Auxiliar", 211, 211],
  ["Serie", 212, 212],
  ["Sucursal", 213, 216],
  ["CodDivisa", 217, 221],
  ["ImpAuxME", 222, 237],
  ["MonedaUso", 238, 238],
  ["EuroDebe", 239, 254],
  ["EuroHaber", 255, 270],
  ["BaseEuro", 271, 286],
  ["NoConv", 287, 287],
  ["NumeroInv", 288, 297],
];

const SUBCTA_DOC: [string, number, number][] = [
  ["Cod", 1, 12],
  ["Titulo", 13, 52],
  ["Nif", 53, 67],
  ["Domicilio", 68, 102],
  ["Poblacion", 103, 127],
  ["Provincia", 128, 147],
  ["CodPostal", 148, 152],
  ["Divisa", 153, 153],
  ["CodDivisa", 154, 158],
  ["Documento", 159, 159],
  ["Ajustame", 160, 160],
  ["TipoIVA", 161, 161],
];

const campos = (registro: string, doc: [string, number, number][]) =>
  Object.fromEntries(doc.map(([nombre, desde, hasta]) => [nombre, registro.slice(desde - 1, hasta)]));

const iva: Apunte = {
  n: 2,
  asiento: 17,
  linea: 2,
  fecha: "2026-03-15",
  cuenta: "472",
  subcuenta: "47200021",
  titulo: "H.P. IVA soportado 21 %",
  concepto: "GAS-2026-00042 Papel y tóner para la oficina",
  debe: "21.00",
  haber: "0.00",
  documento: "GAS-2026-00042",
  contrapartida: "41000003",
  base_imponible: "100.00",
  porcentaje_iva: "21.00",
  nif: "B12345674",
  numero_factura: "F-77",
  total: 3,
  huella: "",
};

describe("XDiario", () => {
  it("cada campo empieza y acaba donde dice el diseño: 297 caracteres", () => {
    expect(posiciones(XDIARIO).map((p) => [p.nombre, p.desde, p.hasta])).toEqual(DIARIO_DOC);
    expect(ancho(XDIARIO)).toBe(297);
  });

  it("un apunte de IVA, campo a campo", () => {
    const r = registroDiario(iva);
    expect(r).toHaveLength(297);
    expect(campos(r, DIARIO_DOC)).toEqual({
      Asien: "    17",
      Fecha: "20260315",
      SubCta: "47200021    ",
      Contra: "41000003    ",
      PtaDebe: "            0.00",
      Concepto: "GAS-2026-00042 Papel y tó",
      PtaHaber: "            0.00",
      Factura: "       0",
      BaseImpo: "            0.00",
      IVA: "21.00",
      RecEquiv: " 0.00",
      Documento: "G260000042",
      Departa: "   ",
      Clave: "      ",
      Estado: " ",
      NCasado: "     0",
      TCasado: "0",
      Trans: "     0",
      Cambio: "        0.000000",
      DebeME: "            0.00",
      HaberME: "            0.00",
      Auxiliar: " ",
      Serie: " ",
      Sucursal: "    ",
      CodDivisa: "     ",
      ImpAuxME: "            0.00",
      MonedaUso: "2",
      EuroDebe: "           21.00",
      EuroHaber: "            0.00",
      BaseEuro: "          100.00",
      NoConv: "F",
      NumeroInv: "          ",
    });
  });

  it("el haber y un apunte sin IVA: base y tipo a cero, sin contrapartida si no la tiene", () => {
    const r = registroDiario({
      ...iva,
      linea: 3,
      subcuenta: "46500012",
      contrapartida: null,
      debe: "0.00",
      haber: "1234567.89",
      base_imponible: null,
      porcentaje_iva: null,
      documento: "REM-2026-0003",
    });
    const c = campos(r, DIARIO_DOC);
    expect([c.SubCta, c.Contra, c.EuroDebe, c.EuroHaber, c.IVA, c.BaseEuro, c.Documento]).toEqual([
      "46500012    ",
      "            ",
      "            0.00",
      "      1234567.89",
      " 0.00",
      "            0.00",
      "R260000003",
    ]);
  });

  it("en la página de códigos de Windows (1252): un byte por carácter; lo que no cabe pierde el acento o es «?»", () => {
    expect(textoAnsi("Peña €, «ok»\nŐrs 中")).toBe("Peña €, «ok» Ors ?");
    expect([...bytesAnsi("ñ€")]).toEqual([0xf1, 0x80]);
    const r = registroDiario({ ...iva, concepto: "Cena con Győző — Ñandú" });
    expect(bytesAnsi(r)).toHaveLength(297);
    expect(campos(r, DIARIO_DOC).Concepto).toBe("Cena con Gyozo — Ñandú   ");
  });

  it("un acento que no se une a su letra se pierde, no es un «?»; una ligadura se escribe con sus letras", () => {
    // «x» with a combining acute has no precomposed form: NFC leaves the mark on its own.
    expect(textoAnsi("Proyecto x\u0301 y q\u0323")).toBe("Proyecto x y q");
    expect(textoAnsi("Oﬁcina ﬂores")).toBe("Oficina flores");
    expect(textoAnsi("Grupo\u3000Ⅳ ①")).toBe("Grupo IV 1");
    const r = registroDiario({ ...iva, concepto: "ﬁ".repeat(30) });
    expect(bytesAnsi(r)).toHaveLength(297);
    expect(campos(r, DIARIO_DOC).Concepto).toBe("fi".repeat(12) + "f");
  });

  it("Documento: el folio en 10 caracteres", () => {
    expect(documentoCorto("GAS-2026-00042")).toBe("G260000042");
    expect(documentoCorto("GAS-2027-1234567")).toBe("G271234567");
    expect(documentoCorto("REM-2026-0001")).toBe("R260000001");
  });
});

describe("XSubCta", () => {
  it("cada campo empieza y acaba donde dice el diseño: 161 caracteres", () => {
    expect(posiciones(XSUBCTA).map((p) => [p.nombre, p.desde, p.hasta])).toEqual(SUBCTA_DOC);
  });

  it("una subcuenta de acreedor, campo a campo", () => {
    const r = registroSubcuenta({ subcuenta: "41000003", titulo: "Papelería Núñez SL", nif: "B12345674" });
    expect(r).toHaveLength(161);
    expect(campos(r, SUBCTA_DOC)).toEqual({
      Cod: "41000003    ",
      Titulo: "Papelería Núñez SL".padEnd(40),
      Nif: "B12345674      ",
      Domicilio: " ".repeat(35),
      Poblacion: " ".repeat(25),
      Provincia: " ".repeat(20),
      CodPostal: "     ",
      Divisa: "F",
      CodDivisa: "     ",
      Documento: "F",
      Ajustame: "F",
      TipoIVA: " ",
    });
  });
});
