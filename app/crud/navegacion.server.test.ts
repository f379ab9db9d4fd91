import { describe, expect, it } from "vitest";
import { navegacionPara } from "./navegacion.server";

const rutas = (n: ReturnType<typeof navegacionPara>) => ({
  principal: n.principal.map((s) => s.to),
  grupos: Object.fromEntries(n.grupos.map((g) => [g.titulo, g.secciones.map((s) => s.to)])),
});

describe("navegacionPara", () => {
  it("un administrador: el trabajo a la vista, los libros y la administración plegados", () => {
    expect(rutas(navegacionPara("administrador", false))).toEqual({
      principal: ["/gastos", "/viajes", "/remesas"],
      grupos: {
        Libros: ["/libro-iva", "/asientos", "/viajes/informe-irpf"],
        Administración: [
          "/departamentos",
          "/proveedores",
          "/sucursales",
          "/usuarios",
          "/tipos-iva",
          "/categorias-fiscales",
          "/politicas-gasto",
          "/limites-irpf",
          "/empresa",
          "/cuentas-empresa",
        ],
      },
    });
  });

  it("un empleado solo ve lo que puede cambiar: sin grupos", () => {
    expect(rutas(navegacionPara("empleado", false))).toEqual({ principal: ["/gastos", "/viajes"], grupos: {} });
  });

  it("una cuenta sin ubicar, solo sus gastos, sea cual sea su rol", () => {
    expect(rutas(navegacionPara("empleado", true))).toEqual({ principal: ["/gastos"], grupos: {} });
    expect(rutas(navegacionPara("administrador", true))).toEqual({ principal: ["/gastos"], grupos: {} });
  });
});
