import { describe, expect, it } from "vitest";
import { dateTimeFormat, numberFormat } from "./intl";

describe("formateadores guardados", () => {
  it("unas opciones congeladas dan el mismo formateador en cada llamada, uno por idioma", () => {
    const opciones = Object.freeze({ style: "currency", currency: "EUR" } as const);
    const es = numberFormat("es-ES", opciones);
    expect(numberFormat("es-ES", opciones)).toBe(es);
    const en = numberFormat("en-US", opciones);
    expect(en).not.toBe(es);
    expect(numberFormat("en-US", opciones)).toBe(en);
    expect(es.format(1234.5)).toBe(new Intl.NumberFormat("es-ES", opciones).format(1234.5));
    expect(en.format(1234.5)).toBe("€1,234.50");
  });

  it("unas opciones escritas en la llamada se encuentran por su contenido", () => {
    const a = dateTimeFormat("es-ES", { month: "long", timeZone: "UTC" });
    expect(dateTimeFormat("es-ES", { month: "long", timeZone: "UTC" })).toBe(a);
    expect(dateTimeFormat("es-ES", { month: "short", timeZone: "UTC" })).not.toBe(a);
    // The same content frozen finds the same formatter too.
    expect(dateTimeFormat("es-ES", Object.freeze({ month: "long", timeZone: "UTC" }))).toBe(a);
  });
});
