import { leerPeriodo } from "~/fiscal/periodo";
import { meses } from "./diario.server";

/** The journal is read a month at a time: the months of a period, the first and last cut to it. */
describe("meses", () => {
  const periodo = (q: string) => leerPeriodo(new URLSearchParams(q), "2026-11-28").periodo!;
  const rangos = (q: string) => meses(periodo(q)).map((m) => [m.desde, m.hasta]);

  it("un trimestre: sus tres meses enteros", () => {
    expect(rangos("periodo=trimestre&anio=2024&trimestre=1")).toEqual([
      ["2024-01-01", "2024-01-31"],
      ["2024-02-01", "2024-02-29"],
      ["2024-03-01", "2024-03-31"],
    ]);
  });

  it("entre dos fechas: el primer y el último mes, cortados; un solo día, un solo tramo", () => {
    expect(rangos("periodo=fechas&desde=2025-12-15&hasta=2026-02-03")).toEqual([
      ["2025-12-15", "2025-12-31"],
      ["2026-01-01", "2026-01-31"],
      ["2026-02-01", "2026-02-03"],
    ]);
    expect(rangos("periodo=fechas&desde=2026-05-31&hasta=2026-05-31")).toEqual([["2026-05-31", "2026-05-31"]]);
  });

  it("un año: doce meses, con el título y la clave del periodo", () => {
    const m = meses(periodo("periodo=anio&anio=2026"));
    expect(m).toHaveLength(12);
    expect(m[11]).toMatchObject({ desde: "2026-12-01", hasta: "2026-12-31", clave: "2026" });
  });
});
