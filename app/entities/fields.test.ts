import { describe, expect, it } from "vitest";
import { z } from "zod";
import { integer } from "./fields";
import { ENTITIES } from "./index";

/**
 * Issue 28, hole 9: a one-line field (descripción, a name, a city…) must not carry a line break
 * or another control character into a mail, a CSV or a screen where it could pose as text of its
 * own. Every such field of every entity refuses them with a message that says what to do.
 */
const HOSTILE = {
  "CR LF": "Taxi\r\nAVISO DE SEGURIDAD: entre en https://evil.example",
  LF: "Taxi\nAVISO",
  tabulador: "Taxi\taeropuerto",
  "C1 (NEL)": "Taxi\u0085AVISO",
  "separador de línea": "Taxi\u2028AVISO",
  "inversión bidi (RLO)": "Factura \u202Efdp.exe",
  "aislamiento bidi": "Taxi \u2066aeropuerto\u2069",
  "escape (ESC)": "Taxi \u001b[31m",
  NUL: "Taxi\u0000",
  "solo un NUL": "\u0000",
};
const oneLine = ENTITIES.flatMap((e) =>
  e.fields
    // A number typed as text (`integer`) takes digits only: its own test below.
    .filter((f) => !f.readOnly && (f.input.type === "text" || f.input.type === "tel"))
    .filter((f) => !("inputMode" in f.input && f.input.inputMode === "numeric"))
    .map((f) => ({ entity: e.table, field: f })),
);

describe("campos de una línea", () => {
  it("hay campos que comprobar en cada entidad", () => {
    // Políticas de gasto write only a choice, amounts and a number; the IRPF limits, choices, dates and amounts.
    const withText = ENTITIES.map((e) => e.table).filter(
      (t) => t !== "politicas_gasto" && t !== "limites_exentos_irpf",
    );
    expect(new Set(oneLine.map((x) => x.entity))).toEqual(new Set(withText));
  });

  for (const { entity, field } of oneLine)
    it(`${entity}.${field.name} rechaza saltos de línea y demás caracteres de control`, () => {
      const schema = field.schema(z);
      for (const [what, value] of Object.entries(HOSTILE)) {
        const r = schema.safeParse(value);
        // The length is another fault (the first value is long for a short field): said apart.
        const messages = r.success ? [] : r.error.issues.map((i) => i.message).filter((m) => !/como máximo/.test(m));
        // The IBAN has a parser of its own: what is not letters and digits is not an IBAN.
        const expected = field.name === "iban" ? /IBAN válido/ : /escríbalo en una sola línea/;
        // One fault, one message: not also «no válido» or «letras o cifras» for the same character.
        expect([what, messages]).toEqual([what, [expect.stringMatching(expected)]]);
      }
    });

  it("el mensaje dice qué hacer, en castellano; el texto de una línea normal pasa (con tildes, eñes, comillas y €)", () => {
    const descripcion = ENTITIES.find((e) => e.table === "gastos")!.fields.find((f) => f.name === "descripcion")!;
    const r = descripcion.schema(z).safeParse(HOSTILE["CR LF"]);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toBe(
      "Descripción: escríbalo en una sola línea, sin saltos de línea, tabuladores ni otros caracteres de control (quizá vinieron al pegar el texto)",
    );
    expect(descripcion.schema(z).parse("  Cena «Año Nuevo» en Logroño, 45 € — “ok”  ")).toBe(
      "Cena «Año Nuevo» en Logroño, 45 € — “ok”",
    );
  });

  it("lo que solo tiene signos o caracteres invisibles (espacios de ancho cero, un guion suave) no dice nada: se rechaza", () => {
    const titular = ENTITIES.find((e) => e.table === "usuarios")!.fields.find((f) => f.name === "nombre")!;
    // U+115F, U+1160 and U+3164 are Hangul letters that draw nothing (a bank's file would get no name).
    for (const value of [
      "\u200B\u200B",
      "\u00AD\u2060",
      "\uFEFF-",
      "——",
      "😀😀",
      "\u115F\u115F",
      "\u3164",
      "\u115F\u1160",
    ]) {
      const r = titular.schema(z).safeParse(value);
      expect(r.error?.issues.map((i) => i.message)).toContain(
        "Nombre: escriba letras o cifras, no solo signos o caracteres invisibles",
      );
    }
    for (const value of ["Ελένη", "Дмитрий", "O'Neill", "3M"]) expect(titular.schema(z).parse(value)).toBe(value);
  });
});

describe("números enteros", () => {
  const dias = integer("dias", "Días", { min: 1, max: 3650 });
  it("admite cifras dentro del intervalo, con espacios alrededor, y guarda el número sin ceros a la izquierda", () => {
    expect(dias.schema(z).parse(" 090 ")).toBe("90");
    expect(dias.schema(z).parse("3650")).toBe("3650");
    expect(dias.schema(z).parse(undefined)).toBeNull();
  });
  it("rechaza lo demás con un mensaje que dice qué escribir", () => {
    for (const valor of ["0", "3651", "-5", "1,5", "1e3", "treinta", "9".repeat(20), ...Object.values(HOSTILE)]) {
      const r = dias.schema(z).safeParse(valor);
      expect([valor, r.success ? "" : r.error.issues[0]!.message]).toEqual([
        valor,
        "Días: escriba un número entero entre 1 y 3650",
      ]);
    }
  });
});

describe("cantidades y fechas con hora", () => {
  const km = ENTITIES.find((e) => e.table === "gastos")!.fields.find((f) => f.name === "km")!;
  const salida = ENTITIES.find((e) => e.table === "viajes")!.fields.find((f) => f.name === "salida")!;

  it("los kilómetros: coma o punto, un decimal, mayores que 0; lo demás, con su mensaje", () => {
    expect(km.schema(z).parse("230")).toBe("230");
    expect(km.schema(z).parse("115,5")).toBe("115.5");
    // Thousands as in Spanish, as amounts take them: a dot before each group of three digits.
    expect(km.schema(z).parse("1.000")).toBe("1000");
    expect(km.schema(z).parse("1.200,5")).toBe("1200.5");
    expect(km.schema(z).parse("12.5")).toBe("12.5");
    // An empty field reaches the schema as undefined (Conform drops empty strings).
    expect(km.schema(z).parse(undefined)).toBeNull();
    for (const malo of ["12,55", "-3", "0", "doscientos", "1.00", "1.0000", "1.000.5"])
      expect(km.schema(z).safeParse(malo).error?.issues[0]?.message).toMatch(/^Kilómetros: /);
  });

  it("la salida: la fecha y la hora que envía el navegador, o escritas", () => {
    expect(salida.schema(z).parse("2026-11-27T07:30")).toBe("2026-11-27T07:30");
    expect(salida.schema(z).parse("27/11/2026 07:30")).toBe("2026-11-27T07:30");
    expect(salida.schema(z).safeParse("mañana").error?.issues[0]?.message).toBe(
      "Salida: escriba una fecha y una hora válidas, por ejemplo 31/01/2026 08:30",
    );
  });
});

/**
 * The browser cuts nothing: no field carries `maxlength` (forms.tsx renders none), since a value
 * pasted with a space around it would lose its last character before the server trims it. The
 * server takes such a value whole, and says what is too long.
 */
describe("lo pegado con espacios alrededor", () => {
  const campo = (tabla: string, nombre: string) => {
    const field = ENTITIES.find((e) => e.table === tabla)!.fields.find((f) => f.name === nombre)!;
    expect(field.input).not.toHaveProperty("maxLength");
    return field.schema(z);
  };
  it("el BIC y el sufijo de una cuenta de la empresa", () => {
    expect(campo("cuentas_empresa", "bic").parse(" caixesbbxxx ")).toBe("CAIXESBBXXX");
    expect(campo("cuentas_empresa", "sufijo").parse("\t000 ")).toBe("000");
    expect(campo("cuentas_empresa", "bic").safeParse("CAIXESBBXXXX").error?.issues[0]?.message).toBe(
      "BIC: como máximo 11 caracteres",
    );
  });
});

/** A number too large for its field is told its maximum, whatever its number of digits. */
describe("un número demasiado grande", () => {
  const campo = (nombre: string) => ENTITIES.find((e) => e.table === "gastos")!.fields.find((f) => f.name === nombre)!;
  const mensaje = (nombre: string, valor: string) => campo(nombre).schema(z).safeParse(valor).error?.issues[0]?.message;
  it("los kilómetros y el importe", () => {
    for (const km of ["99999", "99999999999", "9".repeat(400)])
      expect(mensaje("km", km)).toBe("Kilómetros: debe ser mayor que 0 y como máximo 20.000");
    expect(mensaje("km", "1,25")).toBe("Kilómetros: escriba un número con hasta 1 decimal, por ejemplo 230");
    for (const importe of ["1000001", "99999999999999", " 99999999999999,99 € ", "99.999.999.999.999,00"])
      expect(mensaje("importe", importe)).toBe("Importe: como máximo 1.000.000");
    expect(mensaje("importe", "12,345")).toBe(
      "Importe: escriba un importe con hasta 2 decimales, por ejemplo 1.234,56",
    );
  });
});
