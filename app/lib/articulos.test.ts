import { describe, expect, it } from "vitest";
import { conArticulo, conIndefinido, enMinuscula } from "./articulos";

describe("artículos de las etiquetas", () => {
  it.each([
    ["Descripción", "la descripción"],
    ["Categoría", "la categoría"],
    ["NIF / RFC / ID fiscal", "el NIF / RFC / ID fiscal"],
    ["IBAN", "el IBAN"],
    ["Importe", "el importe"],
    ["Referencia de pago", "la referencia de pago"],
    ["Fecha de pago", "la fecha de pago"],
    ["Método de pago", "el método de pago"],
    ["Apellidos", "los apellidos"],
    ["Notas", "las notas"],
    ["Impuestos", "los impuestos"],
    ["País", "el país"],
    ["Razón social", "la razón social"],
    ["Ciudad", "la ciudad"],
    ["Dirección", "la dirección"],
    ["Correo electrónico", "el correo electrónico"],
    ["Nº de factura / ticket", "el nº de factura / ticket"],
    ["Provincia / Estado", "la provincia / Estado"],
    ["Área", "el área"],
    ["Día de cobro", "el día de cobro"],
  ])("«%s» → «%s»", (label, esperado) => {
    expect(conArticulo(label)).toBe(esperado);
  });

  it("indefinido: «una categoría», «un rol», «un proveedor»", () => {
    expect(conIndefinido("Categoría")).toBe("una categoría");
    expect(conIndefinido("Rol")).toBe("un rol");
    expect(conIndefinido("Proveedor")).toBe("un proveedor");
    expect(conIndefinido("Sucursal", { genero: "f" })).toBe("una sucursal");
  });

  it("una etiqueta que no encaja dice su género y número", () => {
    expect(conArticulo("Sucursal")).toBe("el sucursal");
    expect(conArticulo("Sucursal", { genero: "f" })).toBe("la sucursal");
  });

  it("las siglas conservan sus mayúsculas", () => {
    expect(enMinuscula("NIF / RFC")).toBe("NIF / RFC");
    expect(enMinuscula("Nombre comercial")).toBe("nombre comercial");
  });
});
