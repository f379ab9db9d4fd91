import { ENTITIES, entityOf } from "./index";

describe("the entity registry", () => {
  it("knows every table a select or a filter refers to (its options come from there)", () => {
    for (const entity of ENTITIES) {
      const tables = [
        ...entity.fields.flatMap((f) => (f.input.type === "ref" ? [f.input.table] : [])),
        ...entity.filters.flatMap((f) => (f.kind === "ref" ? [f.table] : [])),
      ];
      for (const table of tables) expect(entityOf(table), `${entity.table} → ${table}`).toBeDefined();
    }
  });

  it("lists the sections in the navigation's order", () => {
    expect(ENTITIES.map((e) => [e.path, e.title])).toEqual([
      ["/gastos", "Gastos"],
      ["/viajes", "Viajes"],
      ["/departamentos", "Departamentos"],
      ["/proveedores", "Proveedores"],
      ["/sucursales", "Sucursales"],
      ["/usuarios", "Usuarios"],
      ["/tipos-iva", "Tipos de IVA"],
      ["/categorias-fiscales", "IVA por categoría"],
      ["/politicas-gasto", "Políticas de gasto"],
      ["/limites-irpf", "Límites exentos de IRPF"],
      ["/empresa", "Empresa"],
      ["/cuentas-empresa", "Cuentas de la empresa"],
    ]);
  });
});
