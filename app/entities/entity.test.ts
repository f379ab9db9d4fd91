import { describe, expect, it } from "vitest";
import { forRole } from "./entity";
import { gastos } from "./gastos";
import { departamentos } from "./departamentos";

describe("forRole", () => {
  it("quita a un empleado la columna y el filtro «Solicitante» de gastos; los demás los ven", () => {
    const empleado = forRole(gastos, "empleado");
    expect(empleado.columns.map((c) => c.name)).not.toContain("solicitante_nombre");
    expect(empleado.filters.map((f) => f.name)).not.toContain("solicitante");
    expect(empleado.columns).toHaveLength(gastos.columns.length - 1);
    for (const rol of ["aprobador", "administrador"] as const) {
      expect(forRole(gastos, rol).columns.map((c) => c.name)).toContain("solicitante_nombre");
      expect(forRole(gastos, rol).filters.map((f) => f.name)).toContain("solicitante");
    }
  });

  it("sin rol conocido solo deja lo que es para todos; una entidad sin `roles` queda igual", () => {
    expect(forRole(gastos, undefined).filters.map((f) => f.name)).not.toContain("solicitante");
    expect(forRole(departamentos, "empleado")).toBe(departamentos);
  });
});
