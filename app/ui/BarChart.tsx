import type { ReactNode } from "react";
import { Encabezados } from "./TablaTarjetas";

/**
 * A bar chart drawn as SVG on the server: no chart library, nothing that needs the browser, and
 * no inline `style` (the CSP forbids it): geometry in SVG attributes, colours in classes
 * (app/estilos/panel.css). The picture is `role="img"` with a `<title>` that says what it
 * shows; the same numbers follow in a table inside «Ver como tabla» (a `<details>`, so it opens
 * without JavaScript and from the keyboard). Meaning never rests on colour alone: a flagged bar
 * is also hatched and its label carries the flag's icon; the table says it in words.
 *
 * `value` (and `reference`) are numbers for the geometry only; what people read is `valueText`.
 */
export type BarDatum = {
  key: string;
  /** The category as people read it (table, and the axis unless `axisLabel`). */
  label: string;
  /** Lines under a vertical bar (e.g. ["nov", "2025"]); defaults to the label. */
  axisLabel?: string[];
  value: number;
  valueText: string;
  /** A mark to compare against (a budget), drawn as a line across the bar. */
  reference?: number | null;
  referenceText?: string;
  /** Text for a bar that needs attention («⚠ Por encima del presupuesto»); hatched in the chart. */
  flag?: string | null;
  /** Where the label links to, in the table. */
  href?: string;
};

export type BarColumn = { header: string; numeric?: boolean; cell: (d: BarDatum) => ReactNode };

export type BarChartProps = {
  id: string;
  /** Short name: the table's caption. */
  title: string;
  /** One or two sentences with what the chart says (its accessible name). */
  summary: string;
  data: BarDatum[];
  orientation?: "horizontal" | "vertical";
  labelHeader: string;
  valueHeader: string;
  /** Extra table columns after the value (e.g. count, budget, situation). */
  columns?: BarColumn[];
  /** Legend entries for the reference line and the flag, when the data has them. */
  referenceLegend?: string;
  flagLegend?: string;
  /** Axis tick labels (vertical charts), e.g. compact currency. */
  tickText?: (value: number) => string;
};

/** The mark of a flagged bar, also in the legends and sentences that explain it. */
export const ICONO_AVISO = "⚠";

export function BarChart(props: BarChartProps) {
  const { id, title, data, labelHeader, valueHeader, columns = [] } = props;
  return (
    <div className="grafico">
      {/* Two drawings, one shown by the stylesheet: on a phone, one drawn for its width, so the labels stay readable. */}
      {props.orientation === "vertical" ? (
        <>
          <VerticalBars {...props} g={V} />
          <VerticalBars {...props} g={V_ESTRECHO} />
        </>
      ) : (
        <>
          <HorizontalBars {...props} g={H} />
          <HorizontalBars {...props} g={H_ESTRECHO} />
        </>
      )}
      <details className="tabla-plegada" id={`${id}-tabla`}>
        <summary>Ver como tabla</summary>
        <div className="tabla-contenedor">
          <table>
            <caption>{title}</caption>
            <Encabezados columnas={[{ header: labelHeader }, { header: valueHeader, numeric: true }, ...columns]} />
            <tbody>
              {data.map((d) => (
                <tr key={d.key}>
                  <th scope="row">{d.href ? <a href={d.href}>{d.label}</a> : d.label}</th>
                  <td className="numero">{d.valueText}</td>
                  {columns.map((c) => (
                    <td key={c.header} className={c.numeric ? "numero" : undefined}>
                      {c.cell(d)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Horizontal bars: a label on the left, the bar, its value at its end.
// ---------------------------------------------------------------------------------------------

type Horizontal = {
  width: number;
  label: number;
  value: number;
  row: number;
  bar: number;
  top: number;
  legend: number;
  /** The longest label, in characters (longer ones end in «…»). */
  letras: number;
  /** The legend's two entries one under the other, from the left edge. */
  apilada: boolean;
  /** Suffix of the drawing's ids and its class: which of the two it is. */
  variante: "" | "estrecho";
};
const H: Horizontal = {
  width: 600,
  label: 190,
  value: 130,
  row: 30,
  bar: 18,
  top: 6,
  legend: 28,
  letras: 26,
  apilada: false,
  variante: "",
};
/** For a phone: about as wide as the screen, so 13 units are about 13 px. */
const H_ESTRECHO: Horizontal = {
  width: 340,
  label: 124,
  value: 92,
  row: 30,
  bar: 18,
  top: 6,
  legend: 48,
  letras: 13,
  apilada: true,
  variante: "estrecho",
};

/** The ids and class of a drawing: the wide one keeps the chart's own ids. */
function dibujo(id: string, variante: "" | "estrecho") {
  return {
    pid: variante ? `${id}-${variante}` : id,
    className: variante ? "grafico-estrecho" : "grafico-ancho",
  };
}

function HorizontalBars({
  id: chart,
  summary,
  data,
  referenceLegend,
  flagLegend,
  g: H,
}: BarChartProps & { g: Horizontal }) {
  const { pid: id, className } = dibujo(chart, H.variante);
  const plot = H.width - H.label - H.value;
  const max = Math.max(1e-9, ...data.map((d) => Math.max(d.value, d.reference ?? 0)));
  const scale = (v: number) => (Math.max(0, v) / max) * plot;
  const hasReference = data.some((d) => d.reference != null);
  const hasFlag = data.some((d) => d.flag);
  const legend = (hasReference && referenceLegend) || (hasFlag && flagLegend);
  const rowsHeight = data.length * H.row;
  const height = H.top + rowsHeight + H.top + (legend ? H.legend : 0);
  return (
    <svg
      className={`grafico-svg grafico-horizontal ${className}`}
      viewBox={`0 0 ${H.width} ${height}`}
      role="img"
      aria-labelledby={`${id}-titulo`}
      focusable="false"
      preserveAspectRatio="xMinYMin meet"
    >
      <title id={`${id}-titulo`}>{summary}</title>
      <Patterns id={id} />
      <line className="grafico-eje" x1={H.label} x2={H.label} y1={H.top - 2} y2={H.top + rowsHeight + 2} />
      {data.map((d, i) => {
        const y = H.top + i * H.row;
        const middle = y + H.row / 2;
        const width = scale(d.value);
        const visible = d.value > 0 ? Math.max(width, 1.5) : 0;
        return (
          <g key={d.key}>
            <text className="grafico-etiqueta" x={H.label - 8} y={middle} textAnchor="end" dominantBaseline="central">
              {d.flag ? `${ICONO_AVISO} ` : ""}
              {truncate(d.label, d.flag ? H.letras - 3 : H.letras)}
            </text>
            <rect
              className={d.flag ? "grafico-barra grafico-barra-marcada" : "grafico-barra"}
              x={H.label}
              y={y + (H.row - H.bar) / 2}
              width={visible}
              height={H.bar}
              fill={d.flag ? `url(#${id}-rayado)` : undefined}
            />
            {d.reference != null ? (
              <line
                className="grafico-referencia"
                x1={H.label + scale(d.reference)}
                x2={H.label + scale(d.reference)}
                y1={y + 2}
                y2={y + H.row - 2}
              />
            ) : null}
            <text
              className="grafico-valor"
              x={H.label + Math.max(visible, d.reference != null ? scale(d.reference) : 0) + 6}
              y={middle}
              dominantBaseline="central"
            >
              {d.valueText}
            </text>
          </g>
        );
      })}
      {legend ? (
        <g
          className="grafico-leyenda"
          transform={`translate(${H.apilada ? 0 : H.label}, ${H.top * 2 + rowsHeight + 6})`}
        >
          {hasReference && referenceLegend ? (
            <>
              <line className="grafico-referencia" x1={0} x2={0} y1={0} y2={16} />
              <text x={8} y={8} dominantBaseline="central">
                {referenceLegend}
              </text>
            </>
          ) : null}
          {hasFlag && flagLegend ? (
            <g
              transform={
                hasReference && referenceLegend ? (H.apilada ? "translate(0, 22)" : "translate(170, 0)") : undefined
              }
            >
              <rect
                className="grafico-barra grafico-barra-marcada"
                x={0}
                y={2}
                width={24}
                height={12}
                fill={`url(#${id}-rayado)`}
              />
              <text x={30} y={8} dominantBaseline="central">
                {flagLegend}
              </text>
            </g>
          ) : null}
        </g>
      ) : null}
    </svg>
  );
}

// ---------------------------------------------------------------------------------------------
// Vertical bars (a time series): value axis with a few round ticks, labels under the bars.
// ---------------------------------------------------------------------------------------------

type Vertical = {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  variante: "" | "estrecho";
};
const V: Vertical = { width: 720, height: 280, left: 92, right: 8, top: 12, bottom: 44, variante: "" };
/** For a phone: about as wide as the screen; bars too narrow for their label name every other one. */
const V_ESTRECHO: Vertical = { width: 360, height: 220, left: 80, right: 6, top: 12, bottom: 44, variante: "estrecho" };

function VerticalBars({ id: chart, summary, data, tickText = String, g: V }: BarChartProps & { g: Vertical }) {
  const { pid: id, className } = dibujo(chart, V.variante);
  const plotWidth = V.width - V.left - V.right;
  const plotHeight = V.height - V.top - V.bottom;
  const ticks = niceTicks(Math.max(0, ...data.map((d) => d.value)));
  const max = ticks[ticks.length - 1]!;
  const y = (v: number) => V.top + plotHeight - (Math.max(0, v) / max) * plotHeight;
  const slot = plotWidth / Math.max(1, data.length);
  const barWidth = Math.min(48, slot * 0.62);
  // A label takes about 36 units: with narrower slots, every other bar's (the first always).
  const cada = slot < 36 ? 2 : 1;
  return (
    <svg
      className={`grafico-svg grafico-vertical ${className}`}
      viewBox={`0 0 ${V.width} ${V.height}`}
      role="img"
      aria-labelledby={`${id}-titulo`}
      focusable="false"
      preserveAspectRatio="xMinYMin meet"
    >
      <title id={`${id}-titulo`}>{summary}</title>
      {ticks.map((t) => (
        <g key={t}>
          <line
            className={t === 0 ? "grafico-eje" : "grafico-rejilla"}
            x1={V.left}
            x2={V.width - V.right}
            y1={y(t)}
            y2={y(t)}
          />
          <text className="grafico-escala" x={V.left - 8} y={y(t)} textAnchor="end" dominantBaseline="central">
            {tickText(t)}
          </text>
        </g>
      ))}
      {data.map((d, i) => {
        const x = V.left + i * slot + (slot - barWidth) / 2;
        const top = y(d.value);
        const height = V.top + plotHeight - top;
        const lines = i % cada === 0 ? (d.axisLabel ?? [d.label]) : [];
        return (
          <g key={d.key}>
            <rect
              className="grafico-barra"
              x={x}
              y={d.value > 0 ? Math.min(top, V.top + plotHeight - 1.5) : top}
              width={barWidth}
              height={d.value > 0 ? Math.max(height, 1.5) : 0}
            />
            <text className="grafico-etiqueta" x={x + barWidth / 2} y={V.height - V.bottom + 16} textAnchor="middle">
              {lines.map((line, n) => (
                <tspan key={n} x={x + barWidth / 2} dy={n === 0 ? 0 : 15}>
                  {line}
                </tspan>
              ))}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function Patterns({ id }: { id: string }) {
  return (
    <defs>
      <pattern
        id={`${id}-rayado`}
        className="grafico-rayado"
        patternUnits="userSpaceOnUse"
        width={8}
        height={8}
        patternTransform="rotate(45)"
      >
        <rect className="grafico-rayado-fondo" x={0} y={0} width={8} height={8} />
        <line className="grafico-rayado-linea" x1={0} y1={0} x2={0} y2={8} />
      </pattern>
    </defs>
  );
}

/** 0 and 3–5 round steps up to at least `max` (1, 2, 2.5 or 5 × 10ⁿ). */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let t = 0; t < max + step / 2 && ticks.length <= count + 1; t += step) ticks.push(Number(t.toPrecision(12)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks[ticks.length - 1]! + step).toPrecision(12)));
  return ticks;
}

function truncate(text: string, max: number) {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
