import { periodoIrpf } from "./informe";

const leer = (q: string) => periodoIrpf(new URLSearchParams(q), "2026-11-28");

describe("periodoIrpf", () => {
  it("opens on this year, without errors, when none of its fields is in the URL", () => {
    for (const q of ["", "formato=csv", "periodo=trimestre&trimestre=2"]) {
      const l = leer(q);
      expect(l.errores).toEqual({});
      expect(l.valores.anio).toBe("2026");
      expect(l.periodo).toMatchObject({ tipo: "anio", desde: "2026-01-01", hasta: "2026-12-31", clave: "2026" });
    }
  });

  it("a year sent empty is an error beside the year", () => {
    const l = leer("anio=&desde=&hasta=");
    expect(l.periodo).toBeNull();
    expect(Object.keys(l.errores)).toEqual(["anio"]);
  });

  it("two dates count instead of the year", () => {
    expect(leer("anio=2025&desde=2025-03-01&hasta=2025-04-30").periodo).toMatchObject({
      tipo: "fechas",
      desde: "2025-03-01",
      hasta: "2025-04-30",
    });
    expect(leer("anio=2025&desde=2025-03-01&hasta=").errores).toEqual({
      hasta: "Escriba la fecha «Hasta», por ejemplo 31/12/2026",
    });
  });
});
