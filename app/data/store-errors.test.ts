import { vi } from "vitest";
import * as first from "./store";

describe("errores del almacén", () => {
  it("instanceof funciona entre dos copias del módulo (servicios desde el código fuente, rutas desde el build)", async () => {
    vi.resetModules();
    const copy = "./store?copia";
    const second = (await import(/* @vite-ignore */ copy)) as typeof first;
    expect(second.NotFound).not.toBe(first.NotFound);
    const error = new second.Invalid("Ya existe un registro con este valor", "nif");
    expect(error).toBeInstanceOf(first.Invalid);
    expect(error).toBeInstanceOf(first.StoreError);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(first.NotFound);
    expect(new first.NotFound("x")).toBeInstanceOf(second.NotFound);
    expect(new first.Conflict("x")).not.toBeInstanceOf(second.Forbidden);
    expect(new Error("x")).not.toBeInstanceOf(first.StoreError);
    expect(null).not.toBeInstanceOf(first.StoreError);
    expect(error).toMatchObject({ name: "Invalid", message: "Ya existe un registro con este valor", field: "nif" });
  });
});
