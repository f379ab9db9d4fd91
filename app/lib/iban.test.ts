import {
  cccControlDigits,
  formatIban,
  generateValidEsIban,
  IBAN_LENGTHS,
  ibanCheckDigits,
  ibanError,
  normalizeIban,
  validateIban,
} from "./iban";

// Examples from the SWIFT IBAN registry and national banks.
const VALID = [
  "ES9121000418450200051332",
  "ES7921000813610123456789",
  "ES 91 2100 0418 4502 0005 1332",
  "es9121000418450200051332",
  "IBAN ES91 2100 0418 4502 0005 1332",
  "ES91\u00a02100\u00a00418\u00a04502\u00a00005\u00a01332",
  "GB82WEST12345698765432",
  "GB29NWBK60161331926819",
  "DE89370400440532013000",
  "FR1420041010050500013M02606",
  "IT60X0542811101000000123456",
  "PT50000201231234567890154",
  "NL91ABNA0417164300",
  "BE68539007547034",
  "IE29AIBK93115212345678",
  "AD1200012030200359100100",
  "CH9300762011623852957",
  "AT611904300234573201",
  "NO9386011117947",
  "MT84MALT011000012345MTLCAST001S",
  "LU280019400644750000",
  "SE4550000000058398257466",
  "PL61109010140000071219812874",
];

const INVALID = [
  "",
  "ES",
  "ES91",
  "ES9121000418450200051333", // last digit changed
  "ES9221000418450200051332", // check digits changed
  "ES1921000418450200051332", // check digits swapped
  "ES9121000418450200051323", // two digits swapped
  "ES912100041845020005133", // too short for ES
  "ES91210004184502000513321", // too long for ES
  "ES91210004184502000513A2", // ES BBAN is digits only
  "GB82WEST12345698765431",
  "GB82WEST1234569876543", // 21, GB is 22
  "DE89370400440532013001",
  "FR1420041010050500013M02607",
  "NL91ABNA0417164301",
  "BE68539007547035",
  "XX82WEST12345698765432", // unknown country: generic length, but checksum fails
  "MX123456789012345678", // Mexico has no IBAN (CLABE)
  "US12345678901234567890",
  "1282WEST12345698765432",
  "GBAAWEST12345698765432",
  "GB82-WEST-1234-5698-7654-32",
  "GB82WEST1234569876543Ñ",
  "GB00WEST12345698765432",
  "GB01WEST12345698765432",
  "GB99WEST12345698765432",
  "ES9121000418450200051332ES9121000418450200051332",
];

describe("validateIban", () => {
  it.each(VALID)("accepts %j", (iban) => {
    expect(validateIban(iban)).toBe(true);
    expect(ibanError(iban)).toBeNull();
  });

  it.each(INVALID)("rejects %j", (iban) => {
    expect(validateIban(iban)).toBe(false);
    expect(ibanError(iban)).toMatch(/IBAN/);
  });

  it("computes check digits", () => {
    expect(ibanCheckDigits("ES", "21000418450200051332")).toBe("91");
    expect(ibanCheckDigits("GB", "WEST12345698765432")).toBe("82");
  });

  it.each([
    ["97", "00"],
    ["98", "01"],
    ["02", "99"],
  ])("refuses check digits %s written as %s although mod 97 is also 1", (canonical, alias) => {
    // 00, 01 and 99 are congruent to 97, 98 and 02 mod 97, but ISO 13616 only issues 02–98.
    let bban = "";
    for (let n = 0; ; n++) {
      bban = `2100041845${String(n).padStart(10, "0")}`;
      if (ibanCheckDigits("ES", bban) === canonical) break;
    }
    expect(validateIban(`ES${canonical}${bban}`)).toBe(true);
    expect(validateIban(`ES${alias}${bban}`)).toBe(false);
  });

  it("accepts a country not in the table with a generic length of 15–34", () => {
    // Saudi Arabia, 24 characters, from the registry.
    expect(IBAN_LENGTHS.SA).toBeUndefined();
    expect(validateIban("SA0380000000608010167519")).toBe(true);
  });

  it("gives specific messages", () => {
    expect(ibanError("ES12")).toMatch(/ES y 22 caracteres/);
    // The right shape with a wrong digit: the control digits are named, as the NIF's letter is.
    expect(ibanError("ES91 2100 0418 4502 0005 1333")).toBe(
      "Los dígitos de control del IBAN (ES91) no cuadran con el número de cuenta: alguna cifra está cambiada. Cópielo de nuevo de donde lo leyó (una factura, el certificado o la aplicación del banco).",
    );
    expect(ibanError("GB82 WEST 1234 5698 7654 33")).toMatch(/^Los dígitos de control del IBAN \(GB82\) no cuadran/);
    expect(ibanError("MX123456789012345678")).toMatch(/no usan IBAN/);
    expect(ibanError("ZZ12")).toMatch(/código de país/);
  });
});

describe("normalizeIban and formatIban", () => {
  it("normalises", () => {
    expect(normalizeIban(" es91 2100\t0418 4502 0005 1332 ")).toBe("ES9121000418450200051332");
    expect(normalizeIban("IBAN ES9121000418450200051332")).toBe("ES9121000418450200051332");
  });

  it("groups by four", () => {
    expect(formatIban("ES9121000418450200051332")).toBe("ES91 2100 0418 4502 0005 1332");
    expect(formatIban("be68539007547034")).toBe("BE68 5390 0754 7034");
    expect(formatIban("FR1420041010050500013M02606")).toBe("FR14 2004 1010 0505 0001 3M02 606");
    expect(formatIban("")).toBe("");
  });
});

describe("generateValidEsIban", () => {
  it("generates valid, deterministic Spanish IBANs", () => {
    const seen = new Set<string>();
    for (let n = 0; n < 500; n++) {
      const iban = generateValidEsIban(n);
      expect(iban).toMatch(/^ES\d{22}$/);
      expect(validateIban(iban)).toBe(true);
      seen.add(iban);
    }
    expect(seen.size).toBe(500);
    expect(generateValidEsIban(7)).toBe(generateValidEsIban(7));
  });

  it("computes the Spanish national control digits like the banks do", () => {
    // ES91 2100 0418 45 0200051332 and ES79 2100 0813 61 0123456789.
    expect(cccControlDigits("21000418", "0200051332")).toBe("45");
    expect(cccControlDigits("21000813", "0123456789")).toBe("61");
    for (let n = 0; n < 50; n++) {
      const iban = generateValidEsIban(n);
      expect(iban.slice(12, 14)).toBe(cccControlDigits(iban.slice(4, 12), iban.slice(14)));
    }
  });
});
