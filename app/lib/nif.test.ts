import {
  cifControl,
  dniLetter,
  generateValidCif,
  generateValidDni,
  generateValidNie,
  normalizeNif,
  validateNif,
} from "./nif";

describe("normalizeNif", () => {
  it.each([
    ["12345678z", "ES", "12345678Z"],
    [" 12.345.678-Z ", "ES", "12345678Z"],
    ["ES12345678Z", "ES", "12345678Z"],
    ["es-b12345674", "ES", "B12345674"],
    ["x-1234567-l", "ES", "X1234567L"],
    ["12 345 678\u00a0z", "ES", "12345678Z"],
    ["ESX1234567L", "ES", "X1234567L"],
    ["ES12345678Z", "FR", "ES12345678Z"], // only Spain drops the prefix
    ["gode-561231-gr8", "MX", "GODE561231GR8"],
    ["ñoño561231ab1", "MX", "ÑOÑO561231AB1"],
    ["fr 40 303 265 045", "FR", "FR40303265045"],
  ])("%j (%s) → %j", (raw, pais, expected) => {
    expect(normalizeNif(raw, pais)).toBe(expected);
  });
});

describe("validateNif ES", () => {
  it.each([
    "12345678Z", // DNI
    "00000000T",
    "99999999R",
    "00000023T",
    "X1234567L", // NIE
    "Y1234567X",
    "Z1234567R",
    "X0000000T",
    "K1234567L", // NIF K/L/M: DNI letter over the 7 digits
    "L1234567L",
    "M1234567L",
    "A28015865", // Telefónica, S.A.
    "A48010615", // Iberdrola, S.A.
    "A46103834", // Mercadona, S.A.
    "A13585625",
    "J99216582",
    "B12345674",
    "G12345674", // G takes either
    "G1234567D",
    "P2807900B", // Ayuntamiento de Madrid: P ends in a letter
    "Q2818014I", // Universidad Complutense
    "S2800568D",
    "N0012345E", // foreign entity
    "W0012345E",
    "B0012345E", // non-resident "00…" ends in a letter
    "12345678z",
    "ES 12.345.678-Z",
    "es-a28015865",
  ])("accepts %j", (nif) => {
    expect(validateNif(nif, "ES")).toBeNull();
  });

  it.each([
    ["12345678A", /DNI.*12345678.*Z/],
    ["00000000R", /DNI.*T/],
    ["X1234567A", /NIE.*X1234567.*L/],
    ["Y1234567L", /NIE.*X/],
    ["Z1234567L", /NIE.*R/],
    ["K1234567A", /NIF.*L/],
    ["A28015866", /CIF.*A2801586.*5/],
    ["A2801586E", /CIF.*5/], // A must end in a digit
    ["B1234567D", /CIF.*4/], // B must end in a digit
    ["P2807900A", /CIF.*B/],
    ["P28079002", /CIF.*B/], // P must end in a letter
    ["Q28180149", /CIF.*I/],
    ["J99216583", /CIF.*2 o B/],
    ["B00123455", /CIF.*E/], // the digit would be right, but "00…" must end in a letter
    ["N00123455", /CIF.*E/],
  ])("rejects %j with a message saying what is expected", (nif, message) => {
    const result = validateNif(nif, "ES");
    expect(result).not.toBeNull();
    expect(result).toMatch(message);
  });

  it.each([
    "1234567Z", // 7 digits
    "123456789Z",
    "123456789",
    "12345678",
    "ABCDEFGHI",
    "X12345678L",
    "X123456L",
    "I1234567A", // I, O, T … are not CIF letters
    "O1234567L",
    "T1234567A",
    "A123456789",
    "A1234567",
    "A1234567K", // control letter only J–A…I
    "12345678Ñ",
    "FR12345678Z",
  ])("rejects the shape of %j and explains the formats", (nif) => {
    expect(validateNif(nif, "ES")).toMatch(/DNI.*NIE.*CIF/);
  });

  it("asks for a value when empty", () => {
    expect(validateNif("", "ES")).toBe("Escriba el NIF / RFC / ID fiscal.");
    expect(validateNif(" - . ", "MX")).toBe("Escriba el NIF / RFC / ID fiscal.");
  });

  it("accepts the country in lower case", () => {
    expect(validateNif("12345678Z", "es")).toBeNull();
  });
});

describe("validateNif MX", () => {
  it.each([
    ["GODE561231GR8", undefined], // persona física
    ["VECJ880326XXX", "persona_fisica"],
    ["ABC680524P76", undefined], // persona moral
    ["ABC680524P76", "empresa"],
    ["A&C680524P76", undefined],
    ["ÑOÑO000229AB1", undefined], // 29 Feb 2000
    ["gode-561231-gr8", undefined],
    ["AAA010101AAA", undefined],
  ])("accepts %j (%s)", (rfc, tipo) => {
    expect(validateNif(rfc, "MX", tipo)).toBeNull();
  });

  it.each([
    ["GODE561331GR8", /fecha/], // month 13
    ["GODE560231GR8", /fecha/], // 31 Feb
    ["GODE010229GR8", /fecha/], // 29 Feb 2001
    ["ABC680500P76", /fecha/], // day 0
    ["GODE561231GR", /RFC válido/], // 12 but with 4 letters
    ["AB680524P76", /RFC válido/],
    ["ABCDE561231GR8", /RFC válido/],
    ["1BC680524P76", /RFC válido/],
    ["ABC680524P7", /RFC válido/],
    ["ABC68O524P76", /RFC válido/],
    ["ABC680524P7-6X", /RFC válido/],
    ["12345678Z", /RFC válido/],
    ["GODE561231GR8", /empresa.*12/, "empresa"],
    ["ABC680524P76", /persona física.*13/, "persona_fisica"],
  ])("rejects %j", (rfc, message, tipo?: string) => {
    expect(validateNif(rfc, "MX", tipo)).toMatch(message);
  });
});

describe("validateNif elsewhere", () => {
  it.each([
    ["FR40303265045", "FR"],
    ["DE136695976", "DE"],
    ["PT 501 964 843", "PT"],
    ["123", "US"],
    ["12-3456789", "US"], // EIN with dash
    ["20-12345678-9", "AR"],
    ["AB/123", "GB"],
    ["A".repeat(20), "IT"],
  ])("accepts %j (%s)", (nif, pais) => {
    expect(validateNif(nif, pais)).toBeNull();
  });

  it.each([
    ["12", "FR"],
    ["A-1", "FR"], // 2 after normalisation
    ["A".repeat(21), "IT"],
    ["ÑANDÚ123", "AR"],
    ["AB_123", "GB"],
    ["AB#123", "GB"],
    ["AB,123", "GB"],
  ])("rejects %j (%s)", (nif, pais) => {
    expect(validateNif(nif, pais)).toMatch(/entre 3 y 20/);
  });
});

describe("check characters", () => {
  it("computes DNI letters", () => {
    expect(dniLetter("12345678")).toBe("Z");
    expect(dniLetter(0)).toBe("T");
    expect(dniLetter(22)).toBe("E");
  });

  it("computes CIF control characters", () => {
    expect(cifControl("2801586")).toEqual({ digit: "5", letter: "E" });
    expect(cifControl("9921658")).toEqual({ digit: "2", letter: "B" });
    expect(cifControl("0000000")).toEqual({ digit: "0", letter: "J" });
  });
});

describe("generators", () => {
  it("generate valid, deterministic identifiers", () => {
    for (let n = 0; n < 500; n++) {
      const dni = generateValidDni(n * 7_654_321);
      const nie = generateValidNie(n * 1_234_567);
      const cif = generateValidCif(n * 98_765);
      expect(validateNif(dni, "ES")).toBeNull();
      expect(validateNif(nie, "ES")).toBeNull();
      expect(validateNif(cif, "ES")).toBeNull();
      expect(dni).toMatch(/^\d{8}[A-Z]$/);
      expect(nie).toMatch(/^[XYZ]\d{7}[A-Z]$/);
      expect(cif).toMatch(/^B\d{8}$/);
    }
    expect(generateValidDni(12345678)).toBe("12345678Z");
    expect(generateValidCif(42)).toBe(generateValidCif(42));
  });

  it.each(["A", "B", "E", "H", "P", "Q", "S", "N", "W", "G", "J", "U", "V"])(
    "generates a valid CIF of type %s",
    (type) => {
      for (let n = 0; n < 50; n++) {
        const cif = generateValidCif(n, type);
        expect(cif[0]).toBe(type);
        expect(validateNif(cif, "ES")).toBeNull();
      }
    },
  );

  it("refuses an unknown CIF type", () => {
    expect(() => generateValidCif(1, "I")).toThrow(RangeError);
  });
});
