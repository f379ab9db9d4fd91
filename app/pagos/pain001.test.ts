import { readFileSync, writeFileSync } from "node:fs";
import fc from "fast-check";
import { HOY, remesaGrande, remesaPequena } from "../../tests/support/remesas";
import { toCents } from "../lib/money";
import {
  FORMATOS_PAIN001,
  identificadorOrdenante,
  identificadorSepa,
  pain001,
  RemesaNoValida,
  textoSepa,
  type FormatoPain001,
  type Remesa,
} from "./pain001";

/**
 * The pain.001 writer checked on its output text. The schema validation of the same files is in
 * tests/integration/pain001-xsd.test.ts.
 *
 * ACTUALIZAR_GOLDEN=1 rewrites the golden files from the writer instead (read the diff before
 * committing: they are what the bank receives).
 */
const GOLDEN: Record<FormatoPain001, URL> = {
  "pain.001.001.03": new URL("../../tests/fixtures/pain001/remesa-pequena.pain.001.001.03.xml", import.meta.url),
  "pain.001.001.09": new URL("../../tests/fixtures/pain001/remesa-pequena.pain.001.001.09.xml", import.meta.url),
};

const LATIN_SEPA = /^[A-Za-z0-9/\-?:().,'+ ]*$/;
/** The same inputs on every run, as the hostile-input fuzz (docs/fiabilidad.md): FUZZ_SEED=<n> explores others. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261130);

/** Every text of element `tag`, in document order (the elements here have no attributes but InstdAmt). */
function valores(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}(?: [^>]*)?>([^<]*)</${tag}>`, "g"))].map((m) => m[1]!);
}

function bloques(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}>[\\s\\S]*?</${tag}>`, "g"))].map((m) => m[0]);
}

function desescapar(s: string): string {
  return s
    .replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function generar(remesa: Remesa, formato: FormatoPain001 = "pain.001.001.09"): string {
  return pain001(remesa, formato, { hoy: HOY });
}

function error(remesa: Remesa, formato: FormatoPain001 = "pain.001.001.09", hoy = HOY): RemesaNoValida {
  try {
    pain001(remesa, formato, { hoy });
  } catch (e) {
    expect(e).toBeInstanceOf(RemesaNoValida);
    return e as RemesaNoValida;
  }
  throw new Error("pain001 aceptó una remesa que debía rechazar");
}

describe.each(FORMATOS_PAIN001)("%s", (formato) => {
  it("una remesa pequeña da, byte a byte, el fichero de referencia", () => {
    const actual = generar(remesaPequena(), formato);
    if (process.env.ACTUALIZAR_GOLDEN === "1") writeFileSync(GOLDEN[formato], actual);
    expect(actual).toBe(readFileSync(GOLDEN[formato], "utf8"));
  });

  it("es determinista y no toca la remesa", () => {
    const remesa = remesaGrande(30);
    const copia = structuredClone(remesa);
    const a = generar(remesa, formato);
    expect(generar(remesa, formato)).toBe(a);
    expect(generar(structuredClone(copia), formato)).toBe(a);
    expect(remesa).toEqual(copia);
  });

  it("NbOfTxs y CtrlSum, en la cabecera y en el bloque de pago, son exactos (en céntimos, sin coma flotante)", () => {
    const xml = generar(remesaGrande(250), formato);
    // 1 + 2 + … + 250 céntimos
    expect(valores(xml, "NbOfTxs")).toEqual(["250", "250"]);
    expect(valores(xml, "CtrlSum")).toEqual(["313.75", "313.75"]);
    expect(valores(xml, "InstdAmt")).toHaveLength(250);
    expect(valores(xml, "InstdAmt")[0]).toBe("0.01");
    expect(valores(xml, "InstdAmt")[249]).toBe("2.50");

    const tres = remesaPequena();
    tres.transferencias = [0, 1, 2].map((i) => ({ ...tres.transferencias[0]!, endToEndId: `E-${i}` }));
    tres.transferencias[0]!.importe = "0.1";
    tres.transferencias[1]!.importe = "0.2";
    tres.transferencias[2]!.importe = "999999999.99";
    const x = generar(tres, formato);
    expect(valores(x, "InstdAmt")).toEqual(["0.10", "0.20", "999999999.99"]);
    expect(valores(x, "CtrlSum")).toEqual(["1000000000.29", "1000000000.29"]);
  });

  it("cualquier remesa: CtrlSum es la suma de los importes y todo texto queda en el juego latino SEPA", () => {
    const texto = fc.string({ unit: "binary", maxLength: 90 });
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ centimos: fc.bigInt({ min: 1n, max: 99_999_999_999n }), nombre: texto, concepto: texto }),
          { minLength: 1, maxLength: 12 },
        ),
        texto,
        (filas, nombreOrdenante) => {
          const remesa = remesaPequena();
          remesa.ordenante.nombre = `X${nombreOrdenante}`;
          remesa.transferencias = filas.map((f, i) => ({
            endToEndId: `E-${i}`,
            beneficiario: { nombre: `B${f.nombre}`, iban: "ES7921000813610123456789" },
            importe: `${f.centimos / 100n}.${String(f.centimos % 100n).padStart(2, "0")}`,
            concepto: f.concepto,
          }));
          const xml = generar(remesa, formato);
          const suma = filas.reduce((s, f) => s + f.centimos, 0n);
          expect(valores(xml, "CtrlSum").map(toCents)).toEqual([suma, suma]);
          expect(valores(xml, "NbOfTxs")).toEqual([String(filas.length), String(filas.length)]);
          // Only the five escapes, never a raw «&» or «<» inside a text.
          for (const m of xml.matchAll(/>([^<>]*)</g)) {
            expect(m[1]).not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/);
            expect(desescapar(m[1]!).trim()).toMatch(LATIN_SEPA);
          }
          for (const nm of valores(xml, "Nm")) expect(desescapar(nm).length).toBeLessThanOrEqual(70);
          for (const u of valores(xml, "Ustrd")) expect(desescapar(u).length).toBeLessThanOrEqual(140);
        },
      ),
      { numRuns: 150, seed: SEED },
    );
  });

  it("identifica al ordenante con NIF + sufijo (12 caracteres), como piden los bancos españoles", () => {
    const remesa = remesaPequena();
    remesa.ordenante.nif = "b-12345674";
    remesa.ordenante.sufijo = "a01";
    const initgPty = bloques(generar(remesa, formato), "InitgPty")[0]!;
    expect(initgPty).toContain("<Nm>Pena + Cia, S.L.</Nm>");
    expect(valores(initgPty, "Id")).toEqual(["B12345674A01"]);
    expect(initgPty).toMatch(/<Id>\s*<OrgId>\s*<Othr>\s*<Id>B12345674A01<\/Id>/);
  });

  it("el bloque de pago: TRF, SEPA, SLEV, cuenta y fecha; un CdtTrfTxInf por transferencia con su EndToEndId", () => {
    const xml = generar(remesaPequena(), formato);
    expect(valores(xml, "MsgId")).toEqual(["REM-2026-0042"]);
    expect(valores(xml, "PmtInfId")).toEqual(["REM-2026-0042"]);
    // Madrid's time, as the AEB guide writes it (AAAA-MM-DDThh:mm:ss), winter and summer.
    expect(valores(xml, "CreDtTm")).toEqual(["2026-11-30T10:15:00"]);
    const verano = remesaPequena();
    verano.creadaEn = new Date("2026-07-01T22:30:59.999Z");
    expect(valores(generar(verano, formato), "CreDtTm")).toEqual(["2026-07-02T00:30:59"]);
    expect(valores(xml, "PmtMtd")).toEqual(["TRF"]);
    expect(valores(xml, "Cd")).toEqual(["SEPA"]);
    expect(valores(xml, "ChrgBr")).toEqual(["SLEV"]);
    expect(valores(xml, "IBAN")).toEqual([
      "ES9121000418450200051332",
      "ES7921000813610123456789",
      "DE89370400440532013000",
    ]);
    const tx = bloques(xml, "CdtTrfTxInf");
    expect(tx).toHaveLength(2);
    expect(valores(tx[0]!, "EndToEndId")).toEqual(["REM-2026-0042-0001"]);
    expect(tx[0]).toContain('<InstdAmt Ccy="EUR">123.45</InstdAmt>');
    expect(valores(tx[0]!, "Nm")).toEqual(["Maria Jose Nunez O&apos;Connor"]);
    expect(valores(tx[0]!, "Ustrd")).toEqual(["Gastos GAS-2026-0101, GAS-2026-0107"]);
    expect(tx[0]).not.toContain("<CdtrAgt>"); // no BIC: the bank finds it from the IBAN
    expect(valores(tx[1]!, "EndToEndId")).toEqual(["REM-2026-0042-0002"]);
    expect(valores(tx[1]!, "Nm")).toEqual(["Jurgen Gross"]);
  });

  it("sin BIC del ordenante, DbtrAgt dice NOTPROVIDED", () => {
    const remesa = remesaPequena();
    delete remesa.ordenante.bic;
    const dbtrAgt = bloques(generar(remesa, formato), "DbtrAgt")[0]!;
    expect(dbtrAgt).toMatch(/<FinInstnId>\s*<Othr>\s*<Id>NOTPROVIDED<\/Id>\s*<\/Othr>\s*<\/FinInstnId>/);
  });

  it("recorta nombres a 70, referencias a 35 y el concepto a 140", () => {
    const remesa = remesaPequena();
    remesa.mensajeId = `REM-${"9".repeat(60)}`;
    remesa.ordenante.nombre = "Á".repeat(100);
    remesa.transferencias[0]!.beneficiario.nombre = `${"b".repeat(69)} &&&`;
    remesa.transferencias[0]!.endToEndId = "E".repeat(50);
    remesa.transferencias[0]!.concepto = "GAS-2026-0001 ".repeat(20);
    const xml = generar(remesa, formato);
    expect(valores(xml, "MsgId")[0]).toBe(`REM-${"9".repeat(31)}`);
    expect(valores(xml, "Nm")[0]).toBe("A".repeat(70));
    expect(valores(xml, "Nm")[2]).toBe(`${"b".repeat(69)}`); // the cut leaves a space, trimmed
    expect(valores(xml, "EndToEndId")[0]).toBe("E".repeat(35));
    expect(valores(xml, "Ustrd")[0]).toHaveLength(139); // 140, less the trailing space
  });
});

describe("diferencias entre versiones", () => {
  it(".03: BIC, ReqdExctnDt con la fecha, dirección en país + dos líneas (guía AEB)", () => {
    const xml = generar(remesaPequena(), "pain.001.001.03");
    expect(xml).toContain('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03">');
    expect(valores(xml, "BIC")).toEqual(["CAIXESBBXXX", "COBADEFFXXX"]);
    expect(xml).not.toContain("<BICFI>");
    expect(valores(xml, "ReqdExctnDt")).toEqual(["2026-12-02"]);
    const dir = bloques(xml, "PstlAdr");
    expect(valores(dir[0]!, "Ctry")).toEqual(["ES"]);
    expect(valores(dir[0]!, "AdrLine")).toEqual(["C/ Alcala, 27, 3o", "28014 Madrid"]);
    expect(valores(dir[1]!, "AdrLine")).toEqual(["Hauptstrasse 5", "10115 Berlin"]);
  });

  it(".09: BICFI, ReqdExctnDt/Dt, dirección estructurada y nunca AdrLine", () => {
    const xml = generar(remesaPequena(), "pain.001.001.09");
    expect(xml).toContain('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09">');
    expect(valores(xml, "BICFI")).toEqual(["CAIXESBBXXX", "COBADEFFXXX"]);
    expect(valores(xml, "BIC")).toEqual([]);
    expect(valores(xml, "Dt")).toEqual(["2026-12-02"]);
    expect(xml).not.toContain("AdrLine");
    const dir = bloques(xml, "PstlAdr");
    expect(valores(dir[0]!, "StrtNm")).toEqual(["C/ Alcala, 27, 3o"]);
    expect(valores(dir[0]!, "PstCd")).toEqual(["28014"]);
    expect(valores(dir[0]!, "TwnNm")).toEqual(["Madrid"]);
    expect(valores(dir[0]!, "Ctry")).toEqual(["ES"]);
    expect(valores(dir[1]!, "TwnNm")).toEqual(["Berlin"]);
  });

  it(".09 sin calle ni código postal: población y país bastan", () => {
    const remesa = remesaPequena();
    remesa.ordenante.direccion = { calle: " ", codigoPostal: "", ciudad: "Sevilla", pais: "es" };
    const dir = bloques(generar(remesa), "PstlAdr")[0]!;
    expect(dir).not.toContain("StrtNm");
    expect(dir).not.toContain("PstCd");
    expect(valores(dir, "TwnNm")).toEqual(["Sevilla"]);
    expect(valores(dir, "Ctry")).toEqual(["ES"]);
  });
});

describe("textoSepa", () => {
  it.each([
    ["Peña & Cía", "Pena + Cia"],
    ["ÁÉÍÓÚÜÑÇ áéíóúüñç", "AEIOUUNC aeiouunc"],
    ["Jürgen Groß", "Jurgen Gross"],
    ["C/ Mayor nº 3, 2ª", "C/ Mayor no 3, 2a"],
    ['"Comillas" y «latinas» ‘simples’', "'Comillas' y 'latinas' 'simples'"],
    ["<script>alert(1)</script>", "(script)alert(1)(/script)"],
    ["¿Qué? ¡Sí!", "Que? Si."],
    ["100 € al 50%", "100 EUR al 50."],
    ["línea\nnueva\ttab  doble", "linea nueva tab doble"],
    ["correo@empresa.es", "correo(at)empresa.es"],
    // Other scripts, transliterated: a bank that checks the payee's name sees a name, not dots.
    ["Дмитрий Иванов", "Dmitriy Ivanov"],
    ["Ελένη Παπαδοπούλου", "Eleni Papadopoyloy"],
    ["Şükrü Çağlar", "Sukru Caglar"],
    ["Nguyễn Văn Anh", "Nguyen Van Anh"],
    ["Søren Łukasz Þór", "Soren Lukasz Thor"],
    ["中文", "ZhongWen"],
    ["1.° «A» – 2", "1.o 'A' - 2"],
    // Emoji are dropped, not spelt out as «:grinning:» (nor their skin tones and joiners).
    ["Ana 😀 Ruiz 👍🏽 👩‍💻", "Ana Ruiz"],
    ["  ", ""],
  ])("%j → %j", (entrada, salida) => {
    expect(textoSepa(entrada)).toBe(salida);
  });

  it("nunca deja un carácter fuera del juego latino", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(textoSepa(s)).toMatch(LATIN_SEPA);
      }),
      { seed: SEED },
    );
  });
});

describe("identificadores", () => {
  it("NIF + sufijo", () => {
    expect(identificadorOrdenante("B12345674", "000")).toBe("B12345674000");
    expect(identificadorOrdenante("es-b12345674", "x1z")).toBe("B12345674X1Z");
  });

  it.each([
    ["REM-2026-0001", "REM-2026-0001"],
    ["/REM//2026/", "REM/2026"],
    [`${"A".repeat(34)}/B`, "A".repeat(34)],
    ["Peña/01", "Pena/01"],
  ])("identificadorSepa(%j) = %j", (entrada, salida) => {
    expect(identificadorSepa(entrada)).toBe(salida);
  });
});

describe("remesas que el banco rechazaría: RemesaNoValida con el campo y un mensaje en español", () => {
  it("sin transferencias", () => {
    const remesa = remesaPequena();
    remesa.transferencias = [];
    const e = error(remesa);
    expect(e.campo).toBe("transferencias");
    expect(e.message).toBe("La remesa no tiene transferencias.");
    expect(e.name).toBe("RemesaNoValida");
  });

  it.each([
    ["0.00", "debe ser mayor que cero"],
    ["0", "debe ser mayor que cero"],
    ["-5.00", "debe ser mayor que cero"],
    ["1000000000.00", "supera el máximo de una transferencia SEPA (999.999.999,99\u00a0€)"],
    ["12,50", "no es un importe válido"],
    ["12.345", "no es un importe válido"],
    ["", "no es un importe válido"],
  ])("importe %j", (importe, mensaje) => {
    const remesa = remesaPequena();
    remesa.transferencias[1]!.importe = importe;
    const e = error(remesa);
    expect(e.campo).toBe("transferencias[1].importe");
    expect(e.message).toContain("El importe de la transferencia 2 (Jurgen Gross)");
    expect(e.message).toContain(mensaje);
  });

  it("el importe máximo se acepta", () => {
    const remesa = remesaPequena();
    remesa.transferencias[1]!.importe = "999999999.99";
    expect(() => generar(remesa)).not.toThrow();
  });

  it("IBAN del beneficiario o del ordenante no válido", () => {
    const remesa = remesaPequena();
    remesa.transferencias[0]!.beneficiario.iban = "ES7921000813610123456788";
    let e = error(remesa);
    expect(e.campo).toBe("transferencias[0].beneficiario.iban");
    expect(e.message).toMatch(
      /^El IBAN del beneficiario de la transferencia 1 .* no es válido\. Los dígitos de control/,
    );

    const otra = remesaPequena();
    otra.ordenante.iban = "";
    e = error(otra);
    expect(e.campo).toBe("ordenante.iban");
    expect(e.message).toBe("El IBAN del ordenante no es válido. Falta.");
  });

  it("fecha de ejecución pasada o mal escrita; hoy vale", () => {
    const remesa = remesaPequena();
    remesa.fechaEjecucion = "2026-11-29";
    const e = error(remesa);
    expect(e.campo).toBe("fechaEjecucion");
    expect(e.message).toBe("La fecha de ejecución (29/11/2026) ya ha pasado: elija hoy o un día posterior.");
    remesa.fechaEjecucion = HOY;
    expect(() => generar(remesa)).not.toThrow();
    remesa.fechaEjecucion = "2026-02-30";
    expect(error(remesa).message).toContain("no es una fecha válida");
  });

  it("sin `hoy`, la fecha se compara con el día de hoy en Madrid", () => {
    const remesa = remesaPequena();
    remesa.fechaEjecucion = "2020-01-01";
    expect(() => pain001(remesa, "pain.001.001.03")).toThrow(RemesaNoValida);
    remesa.fechaEjecucion = "2999-12-31";
    expect(() => pain001(remesa, "pain.001.001.03")).not.toThrow();
  });

  it.each<[string, (r: Remesa) => void, string, RegExp]>([
    ["NIF", (r) => (r.ordenante.nif = "B12345675"), "ordenante.nif", /^El NIF del ordenante no es válido/],
    ["sufijo", (r) => (r.ordenante.sufijo = "0000"), "ordenante.sufijo", /3 letras o cifras/],
    ["BIC", (r) => (r.ordenante.bic = "CAIXES"), "ordenante.bic", /^El BIC del ordenante no es válido/],
    [
      "BIC del beneficiario",
      (r) => (r.transferencias[1]!.beneficiario.bic = "COBA-DE-FF"),
      "transferencias[1].beneficiario.bic",
      /^El BIC del beneficiario de la transferencia 2/,
    ],
    [
      "nombre vacío",
      (r) => (r.transferencias[0]!.beneficiario.nombre = " ¡¿ "),
      "transferencias[0].beneficiario.nombre",
      /^Falta el nombre del beneficiario de la transferencia 1\.$/,
    ],
    [
      "referencia repetida",
      (r) => (r.transferencias[1]!.endToEndId = r.transferencias[0]!.endToEndId),
      "transferencias[1].endToEndId",
      /está repetida/,
    ],
    [
      "referencia vacía",
      (r) => (r.transferencias[0]!.endToEndId = "//"),
      "transferencias[0].endToEndId",
      /^Falta la referencia/,
    ],
    [
      "país de la dirección",
      (r) => (r.ordenante.direccion!.pais = "España"),
      "ordenante.direccion.pais",
      /código de dos letras/,
    ],
    [
      "población de la dirección",
      (r) => (r.transferencias[1]!.beneficiario.direccion!.ciudad = ""),
      "transferencias[1].beneficiario.direccion.ciudad",
      /^Falta la población/,
    ],
    ["folio", (r) => (r.mensajeId = " "), "mensajeId", /^Falta el folio/],
    ["creación", (r) => (r.creadaEn = new Date("x")), "creadaEn", /no es válida/],
  ])("%s", (_, cambio, campo, mensaje) => {
    const remesa = remesaPequena();
    cambio(remesa);
    for (const formato of FORMATOS_PAIN001) {
      const e = error(remesa, formato);
      expect(e.campo).toBe(campo);
      expect(e.message).toMatch(mensaje);
    }
  });

  it("a un banco de fuera del EEE (Suiza, Reino Unido…), la dirección del ordenante es obligatoria", () => {
    const remesa = remesaPequena();
    remesa.transferencias[1]!.beneficiario.iban = "CH9300762011623852957";
    expect(() => generar(remesa)).not.toThrow();
    delete remesa.ordenante.direccion;
    const e = error(remesa);
    expect(e.campo).toBe("ordenante.direccion");
    expect(e.message).toBe(
      "La transferencia 2 (Jurgen Gross) va a un banco de CH, fuera del Espacio Económico Europeo: indique la dirección del ordenante.",
    );
    remesa.transferencias[1]!.beneficiario.iban = "DE89370400440532013000";
    expect(() => generar(remesa)).not.toThrow();
  });

  it("a un banco de fuera de la zona SEPA (Turquía, Brasil), nada: su IBAN es válido, pero no para SEPA", () => {
    for (const [pais, iban] of [
      ["TR", "TR330006100519786457841326"],
      ["BR", "BR1800360305000010009795493C1"],
    ]) {
      const remesa = remesaPequena();
      remesa.transferencias[1]!.beneficiario.iban = iban!;
      const e = error(remesa);
      expect(e.campo).toBe("transferencias[1].beneficiario.iban");
      expect(e.message).toBe(
        `La transferencia 2 (Jurgen Gross) va a un banco de ${pais}, fuera de la zona SEPA: no puede ir en el fichero.`,
      );
    }
    // Gibraltar is in SEPA (outside the EEA: with the payer's address, which this remesa has).
    const gibraltar = remesaPequena();
    gibraltar.transferencias[1]!.beneficiario.iban = "GI75NWBK000000007099453";
    expect(() => generar(gibraltar)).not.toThrow();
  });

  it("formato desconocido", () => {
    expect(error(remesaPequena(), "pain.001.001.10" as FormatoPain001).campo).toBe("formato");
  });
});
