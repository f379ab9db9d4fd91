import {
  addMoney,
  compareMoney,
  formatDecimal,
  formatMoney,
  fromCents,
  isMoneyString,
  parseMoney,
  subtractMoney,
  sumMoney,
  toCents,
} from "./money";

const NBSP = "\u00a0";

describe("parseMoney", () => {
  it.each([
    ["1234,56", "1234.56"],
    ["1.234,56", "1234.56"],
    ["1234.56", "1234.56"],
    ["1,234.56", "1234.56"],
    ["1.234.567,89", "1234567.89"],
    ["1,234,567.89", "1234567.89"],
    ["1.234", "1234.00"], // dots followed by three digits are thousands
    ["1.234.567", "1234567.00"],
    ["12.5", "12.50"],
    ["12,5", "12.50"],
    ["0,5", "0.50"],
    ["0.05", "0.05"],
    ["1234", "1234.00"],
    ["0", "0.00"],
    ["007", "7.00"],
    ["  1234,56  ", "1234.56"],
    ["1.234,56 €", "1234.56"],
    ["€1234.56", "1234.56"],
    [`1.234,56${NBSP}€`, "1234.56"],
    ["1\u202f234,56", "1234.56"],
    ["1 234,56", "1234.56"],
    ["-12,30", "-12.30"],
    ["+12,30", "12.30"],
    ["- 12,30 €", "-12.30"],
    ["-0,00", "0.00"],
    ["999999999999,99", "999999999999.99"],
    ["1000000", "1000000.00"],
  ])("%j → %j", (input, expected) => {
    expect(parseMoney(input)).toBe(expected);
  });

  it.each([
    "",
    "   ",
    "€",
    "-",
    "abc",
    "12a",
    "12,345", // a single comma is decimal: three decimals
    "1,234", // idem
    "12.345.6",
    "1.23.456",
    "1234.567",
    "1.2345",
    "12,3,4",
    "1,234,56",
    "1.234.56",
    "1,234.567",
    "12,",
    "12.",
    ",5",
    ".5",
    "1.234,",
    "--12",
    "+-12",
    "12-",
    "1-2",
    "1e3",
    "1E3",
    "0x10",
    "Infinity",
    "NaN",
    "12,34,",
    "1.234,56,78",
    "1,234.56.78",
    "12 345,678",
    "1000000000000", // 13 integer digits do not fit numeric(14,2)
    "١٢٣", // non-ASCII digits
  ])("rejects %j", (input) => {
    expect(parseMoney(input)).toBeNull();
  });

  it("rejects non-strings", () => {
    const sinTipo: unknown[] = [12, null];
    for (const valor of sinTipo) expect(parseMoney(valor as string)).toBeNull();
  });
});

describe("cents", () => {
  it.each([
    ["0", 0n],
    ["0.5", 50n],
    ["12.34", 1234n],
    ["-12.34", -1234n],
    ["-0.05", -5n],
    ["999999999999.99", 99999999999999n],
  ])("toCents(%j) = %s", (s, c) => {
    expect(toCents(s)).toBe(c);
  });

  it.each([
    [0n, "0.00"],
    [5n, "0.05"],
    [-5n, "-0.05"],
    [123456n, "1234.56"],
    [-100n, "-1.00"],
  ])("fromCents(%s) = %j", (c, s) => {
    expect(fromCents(c)).toBe(s);
  });

  it.each(["", "1,5", "1.234", "1e3", " 1", "abc", "--1", "1."])("toCents rejects %j", (s) => {
    expect(() => toCents(s)).toThrow(TypeError);
    expect(isMoneyString(s)).toBe(false);
  });
});

describe("arithmetic", () => {
  it("sums exactly where floats do not", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumMoney(["0.10", "0.20"])).toBe("0.30");
    expect(sumMoney(Array.from({ length: 1000 }, () => "0.01"))).toBe("10.00");
    expect(sumMoney(["999999999999.99", "0.01"])).toBe("1000000000000.00");
  });

  it("sums an empty list to zero and handles negatives", () => {
    expect(sumMoney([])).toBe("0.00");
    expect(sumMoney(["10.00", "-2.50", "0.5"])).toBe("8.00");
    expect(sumMoney(["-1.00", "0.99"])).toBe("-0.01");
  });

  it("adds and subtracts", () => {
    expect(addMoney("1.10", "2.20")).toBe("3.30");
    expect(subtractMoney("1.00", "1.01")).toBe("-0.01");
    expect(subtractMoney("1.00", "1.00")).toBe("0.00");
  });

  it("compares", () => {
    expect(compareMoney("1.00", "1")).toBe(0);
    expect(compareMoney("1.01", "1.1")).toBe(-1);
    expect(compareMoney("1000000.00", "999999.99")).toBe(1);
    expect(compareMoney("-5", "0")).toBe(-1);
    expect(["10.00", "9.99", "100", "-1"].sort(compareMoney)).toEqual(["-1", "9.99", "10.00", "100"]);
  });

  it("throws on a float-ish or localised string", () => {
    expect(() => sumMoney(["1,5"])).toThrow();
    expect(() => compareMoney("1e2", "1")).toThrow();
  });
});

describe("formatMoney", () => {
  it.each([
    ["1234.56", `1.234,56${NBSP}€`],
    ["1234.5", `1.234,50${NBSP}€`],
    ["0", `0,00${NBSP}€`],
    ["999.99", `999,99${NBSP}€`],
    ["1000000.00", `1.000.000,00${NBSP}€`],
    ["-1234.56", `-1.234,56${NBSP}€`],
    ["999999999999.99", `999.999.999.999,99${NBSP}€`], // exact: never through a float
  ])("es-ES %j → %j", (value, expected) => {
    expect(formatMoney(value)).toBe(expected);
  });

  it("formats numbers too", () => {
    expect(formatMoney(1234.56)).toBe(`1.234,56${NBSP}€`);
  });

  it("uses the locale and currency given", () => {
    expect(formatMoney("1234.56", "es-MX", "MXN")).toBe("$1,234.56");
    expect(formatMoney("1234.56", "en-US", "USD")).toBe("$1,234.56");
  });

  it.each(["1,5", "abc", "", "1e3"])("throws on %j", (v) => {
    expect(() => formatMoney(v)).toThrow(TypeError);
  });

  it("throws on non-finite numbers", () => {
    expect(() => formatMoney(Number.NaN)).toThrow(TypeError);
    expect(() => formatMoney(Infinity)).toThrow(TypeError);
  });
});

describe("formatDecimal", () => {
  it.each([
    ["1234.56", "es-ES", "1234,56"],
    ["1234.5", "es-ES", "1234,5"],
    ["1234", "es-ES", "1234"],
    ["-3.00", "es-ES", "-3,00"],
    ["1000000.00", "es-ES", "1000000,00"],
    ["1234.56", "es-MX", "1234.56"],
    ["1234.56", "en-GB", "1234.56"],
  ])("%j in %s → %j", (v, locale, expected) => {
    expect(formatDecimal(v, locale)).toBe(expected);
  });
});
