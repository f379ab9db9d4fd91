import { CSV_BOM, csvCell, csvLine, toCsv } from "./csv";

describe("csvCell", () => {
  it.each([
    ["plain", '"plain"'],
    ["", ""],
    ["Café Señor", '"Café Señor"'],
    ["a,b", '"a,b"'], // quoted: a reader may split on commas
    ["a;b", '"a;b"'],
    ['di "hola"', '"di ""hola"""'],
    ['"', '""""'],
    ["línea1\nlínea2", '"línea1\nlínea2"'],
    ["línea1\r\nlínea2", '"línea1\r\nlínea2"'],
    ["  espacios  ", '"  espacios  "'],
  ])("text %j → %j (always quoted)", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([
    ["=1+1", `"'=1+1"`],
    ['=HYPERLINK("http://evil";"x")', '"\'=HYPERLINK(""http://evil"";""x"")"'],
    ["+34 600 000 000", `"'+34 600 000 000"`],
    ["-2+3", `"'-2+3"`],
    ["-cmd|' /C calc'!A0", `"'-cmd|' /C calc'!A0"`],
    ["@SUM(A1)", `"'@SUM(A1)"`],
    ["\t=1", `"'\t'=1"`],
    ["\r=1", "\"'\r'=1\""],
    ["\n=1", "\"'\n'=1\""],
    ["=a;b", '"\'=a;b"'],
  ])("neutralises formula %j → %j", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([
    ["-12,50", "-12,50"],
    ["+12", "+12"],
    ["-3", "-3"],
    ["1234,56", "1234,56"],
  ])("leaves plain numeric text alone: %j", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it("does not neutralise a formula character in the middle of a word", () => {
    expect(csvCell("a=b")).toBe('"a=b"');
    expect(csvCell("correo@empresa.es")).toBe('"correo@empresa.es"');
    expect(csvCell("GAS-2026-00001")).toBe('"GAS-2026-00001"');
    expect(csvCell("Madrid - Barcelona")).toBe('"Madrid - Barcelona"');
  });

  // Found by probing: opened with a comma separator, the text after a comma is a cell of its own.
  it.each([
    ["Comida,=10*10+SUM(A1:A2),", `"Comida,'=10*10+SUM(A1:A2),"`],
    ["Comida, =1+1", `"Comida, '=1+1"`],
    ['Comida,"=1+1"', `"Comida,""'=1+1"""`],
    ["a|@SUM(A1)", `"a|'@SUM(A1)"`],
    ["a\t+1", `"a\t'+1"`],
    ["línea\n-cmd", `"línea\n'-cmd"`],
    ["x;=1;=2", `"x;'=1;'=2"`],
  ])("neutralises a formula after any separator: %j → %j", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  // A reader that trims a cell's spaces or quotes (LibreOffice's «Recortar espacios», a naive
  // split) would otherwise find the formula at the very start of the cell.
  it.each([
    [" =1+1", `"' =1+1"`],
    ["  @SUM(A1)", `"'  @SUM(A1)"`],
    ['"=1+1"', `"'""=1+1"""`],
    ['" -2+3', `"'"" -2+3"`],
    ["\u00a0+1", `"'\u00a0+1"`],
  ])("neutralises a formula after leading spaces or quotes: %j → %j", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it("no cell of any line, split on any plausible separator, starts a formula", () => {
    const hostile = [" =1", '"@x"', "Comida,=10*10+SUM(A1:A2),", 'x,"=1"', "a;@b", "a|-c", "a\t+d", "ok"];
    const line = csvLine(hostile);
    for (const separator of [",", ";", "\t", "|"]) {
      for (const cell of line
        .trimEnd()
        .split(/\r?\n/)
        .flatMap((l) => l.split(separator))) {
        expect(cell.replace(/^[\s"]+/, "")).not.toMatch(/^[=+\-@]/);
      }
    }
  });

  it("writes numbers with decimal comma, never neutralised", () => {
    expect(csvCell(12)).toBe("12");
    expect(csvCell(-12.5)).toBe("-12,5");
    expect(csvCell(0)).toBe("0");
    expect(csvCell(Number.NaN)).toBe("");
    expect(csvCell(Infinity)).toBe("");
  });

  it("writes booleans in Spanish and null/undefined as empty", () => {
    expect(csvCell(true)).toBe('"Sí"');
    expect(csvCell(false)).toBe('"No"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });
});

describe("csvLine and toCsv", () => {
  it("joins with ; and ends with CRLF", () => {
    expect(csvLine(["a", 1, null, true, "x;y"])).toBe('"a";1;;"Sí";"x;y"\r\n');
    expect(csvLine([])).toBe("\r\n");
  });

  it("builds a document with BOM, header and rows", () => {
    const csv = toCsv(
      ["Folio", "Descripción", "Importe"],
      [
        ["GAS-2026-00001", "Comida con cliente", "1234,56"],
        ["GAS-2026-00002", "=cmd", "-5,00"],
      ],
    );
    expect(csv).toBe(
      CSV_BOM +
        '"Folio";"Descripción";"Importe"\r\n' +
        '"GAS-2026-00001";"Comida con cliente";1234,56\r\n' +
        `"GAS-2026-00002";"'=cmd";-5,00\r\n`,
    );
    expect(csv.charCodeAt(0)).toBe(0xfeff);
  });

  it("can leave the BOM out", () => {
    expect(toCsv(["a"], [], { bom: false })).toBe('"a"\r\n');
  });

  it("neutralises headers too", () => {
    expect(toCsv(["=x"], [], { bom: false })).toBe(`"'=x"\r\n`);
  });

  it("round-trips through a simple ;-parser", () => {
    const cells = ['a "b"', "c;d", "e\r\nf", "g"];
    const line = csvLine(cells);
    const parsed: string[] = [];
    let i = 0;
    while (i < line.length - 2) {
      if (line[i] === '"') {
        let v = "";
        i++;
        for (;;) {
          if (line[i] === '"' && line[i + 1] === '"') {
            v += '"';
            i += 2;
          } else if (line[i] === '"') {
            i++;
            break;
          } else v += line[i++];
        }
        parsed.push(v);
      } else {
        const end = line.indexOf(";", i) === -1 ? line.length - 2 : line.indexOf(";", i);
        parsed.push(line.slice(i, end));
        i = end;
      }
      if (line[i] === ";") i++;
    }
    expect(parsed).toEqual(cells);
  });
});
