import { renderToStaticMarkup } from "react-dom/server";
import { niceTicks } from "~/ui/BarChart";
import type { PanelData } from "./datos";
import {
  Categorias,
  IvaDelTrimestre,
  MisGastos,
  Pendientes,
  Presupuestos,
  Proveedores,
  UltimosGastos,
  UltimosMeses,
} from "./Secciones";

/** The panel's sections rendered to HTML as the server sends them (no browser, no JavaScript). */
const formats = { locale: "es-ES", currency: "EUR" };
const MESES = [
  "2025-12",
  "2026-01",
  "2026-02",
  "2026-03",
  "2026-04",
  "2026-05",
  "2026-06",
  "2026-07",
  "2026-08",
  "2026-09",
  "2026-10",
  "2026-11",
];

const base: PanelData = {
  rol: "administrador",
  hoy: "2026-11-22",
  mes: { desde: "2026-11-01", hasta: "2026-11-30" },
  propios: [
    { estado: "borrador", cuenta: 1, importe: "10.00" },
    { estado: "pendiente", cuenta: 2, importe: "1234.50" },
    { estado: "aprobado", cuenta: 0, importe: "0.00" },
    { estado: "rechazado", cuenta: 0, importe: "0.00" },
    { estado: "pagado", cuenta: 3, importe: "0.10" },
  ],
  este_mes: { cuenta: 1, importe: "10.00" },
  ultimos: [
    {
      id: "11111111-1111-4111-8111-111111111111",
      folio: "GAS-2026-00001",
      fecha_gasto: "2026-11-20",
      descripcion: "Taxi <al> aeropuerto",
      importe: "10.00",
      estado: "borrador",
    },
  ],
  pendientes: {
    cuenta: 12,
    importe: "99999.99",
    mas_antiguos: [
      {
        id: "22222222-2222-4222-8222-222222222222",
        folio: "GAS-2026-00002",
        fecha_gasto: "2026-10-01",
        descripcion: "Hotel",
        importe: "99.99",
        solicitante_nombre: "Elena Ruiz",
      },
    ],
  },
  presupuestos: [
    { id: "a", nombre: "Comercial", presupuesto: "5000.00", aprobado: "6234.56", cuenta: 7, excedido: true },
    { id: "b", nombre: "Finanzas", presupuesto: "4500.00", aprobado: "4500.00", cuenta: 3, excedido: false },
    { id: "c", nombre: "Sistemas", presupuesto: null, aprobado: "120.00", cuenta: 1, excedido: false },
  ],
  meses: MESES.map((mes, i) => ({ mes, cuenta: i, importe: i === 3 ? "1500000.00" : `${i * 1000}.00` })),
  noventa_dias: { desde: "2026-08-25", hasta: "2026-11-22" },
  categorias: [
    { categoria: "viajes_transporte", cuenta: 4, importe: "800.00" },
    { categoria: "comidas", cuenta: 9, importe: "300.25" },
  ],
  proveedores: [{ id: "33333333-3333-4333-8333-333333333333", nombre: "Renfe", cuenta: 2, importe: "80.00" }],
  iva: {
    anio: 2026,
    trimestre: 4,
    desde: "2026-10-01",
    hasta: "2026-12-31",
    estados: [
      { estado: "aprobado", cuenta: 3, soportado: "1234.56", deducible: "1000.00", no_deducible: "234.56" },
      { estado: "pagado", cuenta: 1, soportado: "1.10", deducible: "0.00", no_deducible: "1.10" },
    ],
    total: { cuenta: 4, soportado: "1235.66", deducible: "1000.00", no_deducible: "235.66" },
  },
};

const html = (node: React.ReactElement) => renderToStaticMarkup(node);
const texto = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .replace(/&amp;/g, "&");
const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

/** A chart's two drawings: the one for a screen, then the one for a phone. */
function dibujos(out: string): [string, string] {
  const ancho = /<svg[^>]*grafico-ancho[\s\S]*?<\/svg>/.exec(out)?.[0];
  const estrecho = /<svg[^>]*grafico-estrecho[\s\S]*?<\/svg>/.exec(out)?.[0];
  if (!ancho || !estrecho) throw new Error("Faltan los dos dibujos del gráfico");
  return [ancho, estrecho];
}

describe("secciones del panel", () => {
  it("nada de estilos en línea (la CSP los prohíbe) en ninguna sección", () => {
    for (const Seccion of [
      MisGastos,
      UltimosGastos,
      Pendientes,
      Presupuestos,
      IvaDelTrimestre,
      UltimosMeses,
      Categorias,
      Proveedores,
    ]) {
      expect(html(<Seccion panel={base} formats={formats} />)).not.toMatch(/\sstyle=/);
    }
  });

  it("mis gastos: por estado con enlaces a mis gastos filtrados, total y este mes, en formato español", () => {
    const out = html(<MisGastos panel={base} formats={formats} />);
    expect(out).toContain('href="/gastos?vista=mios&amp;estado=pendiente"');
    expect(out).toContain('href="/gastos?vista=mios"');
    expect(out).toContain('href="/gastos?vista=mios&amp;desde=2026-11-01&amp;hasta=2026-11-30"');
    const t = nbsp(texto(out));
    expect(t).toContain("Este mes (noviembre de 2026): 10,00 € en 1 gasto.");
    expect(t).toContain("Pendiente de aprobación 2 1.234,50 €");
    expect(t).toContain("Todos mis gastos 6 1.244,60 €");
  });

  it("últimos gastos: el texto se escapa y el folio abre el panel del gasto", () => {
    const out = html(<UltimosGastos panel={base} formats={formats} />);
    expect(out).toContain("Taxi &lt;al&gt; aeropuerto");
    expect(out).toContain('href="/gastos?gasto=11111111-1111-4111-8111-111111111111#gasto"');
    expect(html(<UltimosGastos panel={{ ...base, ultimos: [] }} formats={formats} />)).toContain(
      "Todavía no ha registrado ningún gasto.",
    );
  });

  it("pendientes: a cuáles les falta el justificante, en palabras", () => {
    const g = base.pendientes!.mas_antiguos[0]!;
    const con = (n: number) => ({
      ...base,
      pendientes: { ...base.pendientes!, mas_antiguos: [{ ...g, justificantes: n }] },
    });
    expect(texto(html(<Pendientes panel={con(0)} formats={formats} />))).toContain("Sin justificante");
    const dos = texto(html(<Pendientes panel={con(2)} formats={formats} />));
    expect(dos).toContain("2 justificantes");
    expect(dos).not.toContain("Sin justificante");
  });

  it("pendientes: cuenta, importe, los más antiguos y «ver todos»; nada si no es para su rol", () => {
    const t = nbsp(texto(html(<Pendientes panel={base} formats={formats} />)));
    expect(t).toContain("12 gastos por 99.999,99 € esperan su aprobación.");
    expect(t).toContain("El más antiguo");
    expect(t).toContain("Elena Ruiz");
    expect(html(<Pendientes panel={base} formats={formats} />)).toContain(
      'href="/gastos?vista=pendientes&amp;orden=fecha_gasto&amp;dir=asc"',
    );
    expect(html(<Pendientes panel={{ ...base, pendientes: null }} formats={formats} />)).toBe("");
    expect(
      texto(
        html(
          <Pendientes
            panel={{ ...base, pendientes: { cuenta: 0, importe: "0.00", mas_antiguos: [] } }}
            formats={formats}
          />,
        ),
      ),
    ).toContain("No tiene gastos pendientes de aprobar.");
  });

  it("las frases concuerdan con la cuenta: 1 gasto espera, 1 departamento, el proveedor, las 2 categorías", () => {
    const uno = { ...base, pendientes: { ...base.pendientes!, cuenta: 1, importe: "99.99" } };
    const pendiente = nbsp(texto(html(<Pendientes panel={uno} formats={formats} />)));
    expect(pendiente).toContain("1 gasto por 99,99 € espera su aprobación.");
    expect(pendiente).toContain("El gasto pendiente");
    const dos = { ...base, pendientes: { ...base.pendientes!, cuenta: 2 } };
    expect(nbsp(texto(html(<Pendientes panel={dos} formats={formats} />)))).toContain(
      "2 gastos por 99.999,99 € esperan",
    );
    const solo = { ...base, presupuestos: base.presupuestos!.slice(0, 1) };
    expect(html(<Presupuestos panel={solo} formats={formats} />)).toContain(
      "presupuesto mensual: 1 departamento; 1 por encima",
    );
    const prov = nbsp(texto(html(<Proveedores panel={base} formats={formats} />)));
    expect(prov).toContain("El proveedor con más importe aprobado y pagado, del");
    expect(prov).not.toMatch(/Las? \d* ?proveedores?/);
    const cat = nbsp(texto(html(<Categorias panel={base} formats={formats} />)));
    expect(cat).toContain("Las 2 categorías con más importe aprobado y pagado, del");
    expect(cat).toContain("; la primera, Viajes y transporte, con 800,00 €.");
  });

  it("presupuestos: el que se pasa se señala con texto e icono (no solo color) en el aviso, el gráfico y la tabla", () => {
    const out = html(<Presupuestos panel={base} formats={formats} />);
    const t = nbsp(texto(out));
    expect(t).toContain("⚠ Por encima del presupuesto: 1 departamento");
    expect(t).toContain("Comercial: 6.234,56 € aprobados de 5.000,00 € (1.234,56 € más)");
    expect(t).toContain("⚠ Por encima del presupuesto (1.234,56 € más)");
    expect(t).toContain("Dentro del presupuesto");
    expect(t).toContain("Sin presupuesto");
    // The chart: an image named by what it says; the flagged bar hatched and its label with the icon.
    expect(out).toMatch(/<svg[^>]*role="img"[^>]*aria-labelledby="grafico-presupuestos-titulo"/);
    expect(nbsp(out)).toContain(
      '<title id="grafico-presupuestos-titulo">Aprobado en noviembre de 2026 por departamento frente a su presupuesto mensual: 3 departamentos; 1 por encima del presupuesto: Comercial.</title>',
    );
    expect(out).toMatch(
      /<rect class="grafico-barra grafico-barra-marcada"[^>]*fill="url\(#grafico-presupuestos-rayado\)"/,
    );
    expect(out).toMatch(
      /<text class="grafico-etiqueta"[^>]*>⚠ <!-- -->Comercial<\/text>|<text class="grafico-etiqueta"[^>]*>⚠ Comercial<\/text>/,
    );
    // Drawn twice, for a screen and for a phone (the stylesheet shows one): each with its own ids.
    const [ancho, estrecho] = dibujos(out);
    expect((ancho.match(/class="grafico-referencia"/g) ?? []).length).toBe(2 + 1); // two budgets + the legend
    expect((estrecho.match(/class="grafico-referencia"/g) ?? []).length).toBe(2 + 1);
    expect(estrecho).toContain('aria-labelledby="grafico-presupuestos-estrecho-titulo"');
    expect(estrecho).toContain('fill="url(#grafico-presupuestos-estrecho-rayado)"');
    // The table equivalent, closed, opened by its summary.
    expect(out).toMatch(/<details class="tabla-plegada"[^>]*><summary>Ver como tabla<\/summary>/);
    expect(out).toContain('href="/gastos?departamento=a&amp;desde=2026-11-01&amp;hasta=2026-11-30"');
  });

  it("presupuestos sin ninguno excedido lo dice", () => {
    const panel = { ...base, presupuestos: base.presupuestos!.map((d) => ({ ...d, excedido: false })) };
    expect(texto(html(<Presupuestos panel={panel} formats={formats} />))).toContain(
      "Ningún departamento supera su presupuesto este mes.",
    );
  });

  it("últimos 12 meses: barras verticales con escala en euros abreviados y meses en español; la tabla con los 12", () => {
    const out = html(<UltimosMeses panel={base} formats={formats} />);
    const [ancho, estrecho] = dibujos(out);
    expect((ancho.match(/<rect class="grafico-barra"/g) ?? []).length).toBe(12);
    expect((estrecho.match(/<rect class="grafico-barra"/g) ?? []).length).toBe(12);
    // On a phone the bars are too narrow for every month's name: every other one.
    expect((estrecho.match(/<tspan/g) ?? []).length).toBeLessThan((ancho.match(/<tspan/g) ?? []).length);
    const t = nbsp(texto(out));
    expect(t).toMatch(/1,5 M €|2 M €/);
    expect(t).toContain("dic 2025");
    expect(t).toContain("ene 2026");
    expect(t).toContain("marzo de 2026 1.500.000,00 €");
    expect(t).toContain("el mes más alto, marzo de 2026, con 1.500.000,00 €");
    expect(out).toContain('href="/gastos?desde=2026-02-01&amp;hasta=2026-02-28"');
  });

  it("categorías y proveedores de 90 días: etiquetas en español y enlaces con el periodo", () => {
    const cat = html(<Categorias panel={base} formats={formats} />);
    expect(nbsp(texto(cat))).toContain("Viajes y transporte 800,00 € 4");
    expect(cat).toContain('href="/gastos?categoria=viajes_transporte&amp;desde=2026-08-25&amp;hasta=2026-11-22"');
    const prov = html(<Proveedores panel={base} formats={formats} />);
    expect(prov).toContain(
      'href="/gastos?proveedor=33333333-3333-4333-8333-333333333333&amp;desde=2026-08-25&amp;hasta=2026-11-22"',
    );
    expect(texto(html(<Proveedores panel={{ ...base, proveedores: [] }} formats={formats} />))).toContain(
      "No hay gastos aprobados con proveedor",
    );
  });

  it("IVA del trimestre: soportado, deducible y no deducible, por estado con enlace a sus gastos y al libro", () => {
    const out = html(<IvaDelTrimestre panel={base} formats={formats} />);
    const t = nbsp(texto(out));
    expect(t).toContain(
      "Gastos aprobados y pagados del cuarto trimestre de 2026 (del 01/10/2026 al 31/12/2026, por fecha del gasto): 1.235,66 € de IVA soportado; 1.000,00 € deducible y 235,66 € no deducible.",
    );
    expect(t).toContain("Aprobados 3 1.234,56 € 1.000,00 € 234,56 €");
    expect(t).toContain("Total 4 1.235,66 € 1.000,00 € 235,66 €");
    expect(out).toContain('href="/gastos?estado=aprobado&amp;desde=2026-10-01&amp;hasta=2026-12-31"');
    expect(out).toContain('href="/gastos?estado=pagado&amp;desde=2026-10-01&amp;hasta=2026-12-31"');
    expect(out).toContain('href="/libro-iva?periodo=trimestre&amp;anio=2026&amp;trimestre=4"');
    expect(html(<IvaDelTrimestre panel={{ ...base, iva: null }} formats={formats} />)).toBe("");
  });

  it("las secciones del administrador no se pintan para otros roles", () => {
    const empleado: PanelData = {
      ...base,
      rol: "empleado",
      pendientes: null,
      presupuestos: null,
      meses: null,
      noventa_dias: null,
      categorias: null,
      proveedores: null,
    };
    for (const Seccion of [Pendientes, Presupuestos, UltimosMeses, Categorias, Proveedores])
      expect(html(<Seccion panel={empleado} formats={formats} />)).toBe("");
  });
});

describe("niceTicks", () => {
  it("redondea la escala hacia arriba en pasos de 1, 2, 2,5 o 5 × 10ⁿ", () => {
    expect(niceTicks(100)).toEqual([0, 25, 50, 75, 100]);
    expect(niceTicks(101)).toEqual([0, 50, 100, 150]);
    expect(niceTicks(1_500_000)).toEqual([0, 500_000, 1_000_000, 1_500_000]);
    expect(niceTicks(0.3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(niceTicks(0)).toEqual([0, 1]);
  });
});
