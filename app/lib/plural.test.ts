import { cuenta, plural } from "./plural";

describe("plural", () => {
  it("singular solo para exactamente uno", () => {
    expect(plural(1, "gasto pendiente que coincide", "gastos pendientes que coinciden")).toBe(
      "gasto pendiente que coincide",
    );
    expect(plural(0, "gasto", "gastos")).toBe("gastos");
    expect(plural(2, "gasto", "gastos")).toBe("gastos");
    expect(plural(1.5, "hora", "horas")).toBe("horas");
  });
});

describe("cuenta", () => {
  it("escribe el número con separador de miles del idioma y el nombre que concuerda", () => {
    expect(cuenta(1, "error", "errores")).toBe("1 error");
    expect(cuenta(0, "error", "errores")).toBe("0 errores");
    expect(cuenta(12345, "gasto", "gastos")).toBe("12.345 gastos");
    expect(cuenta(12345, "gasto", "gastos", "en-US")).toBe("12,345 gastos");
  });
});
