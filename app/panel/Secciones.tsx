import { CATEGORIAS_GASTO, ESTADOS_GASTO, labelOf } from "~/lib/opciones";
import { formatDate, formatMonthKey, monthRange } from "~/lib/dates";
import { dateTimeFormat, numberFormat } from "~/lib/intl";
import type { Formats } from "~/lib/format";
import { formatMoney, subtractMoney, sumMoney } from "~/lib/money";
import { cuenta, plural } from "~/lib/plural";
import type { ReactNode } from "react";
import { BarChart, ICONO_AVISO, type BarDatum } from "~/ui/BarChart";
import { Encabezados, TablaTarjetas, type ColumnaTarjeta } from "~/ui/TablaTarjetas";
import { libroTrimestreHref } from "~/fiscal/enlaces";
import { TRIMESTRES } from "~/fiscal/periodo";
import type { CifrasIva, PanelData } from "./datos";
import { gastoHref, gastosHref, misGastosHref, pendientesHref } from "./enlaces";

/**
 * The panel's sections (docs/producto.md «Panel»). Each is a `<section>` named by its `<h2>`; each
 * figure links to the gastos list filtered to show it. The data comes whole from public.panel.
 */
type Props = { panel: PanelData; formats: Formats };

export const POR_ENCIMA = "Por encima del presupuesto";

function useFmt({ locale, currency }: Formats) {
  return {
    dinero: (v: string) => formatMoney(v, locale, currency),
    // Grouped like the amounts («1.061», not «1061»), so a column of counts lines up.
    numero: (n: number) => numberFormat(locale, { useGrouping: "always" }).format(n),
    gastos: (n: number) =>
      `${numberFormat(locale, { useGrouping: "always" }).format(n)} ${plural(n, "gasto", "gastos")}`,
    fecha: (iso: string) => formatDate(iso, locale),
    mes: (key: string) => formatMonthKey(key, locale, "long"),
    /** Compact currency for chart axes: «1,2 M €», «850 mil €». */
    compacto: (n: number) =>
      numberFormat(locale, {
        style: "currency",
        currency,
        notation: "compact",
        minimumFractionDigits: 0,
        maximumFractionDigits: 1,
      }).format(n),
  };
}

/** For the geometry only (bar lengths): never used for arithmetic on money. */
const escala = (v: string) => Number(v);

// ---------------------------------------------------------------------------------------------
// Everyone
// ---------------------------------------------------------------------------------------------

export function MisGastos({ panel, formats }: Props) {
  const f = useFmt(formats);
  const total = panel.propios.reduce((n, e) => n + e.cuenta, 0);
  const mes = panel.mes.desde.slice(0, 7);
  return (
    <Seccion id="mis-gastos" titulo="Mis gastos">
      <p className="panel-cifra">
        Este mes ({f.mes(mes)}): <strong>{f.dinero(panel.este_mes.importe)}</strong> en{" "}
        {f.gastos(panel.este_mes.cuenta)}.{" "}
        <a href={misGastosHref({ desde: panel.mes.desde, hasta: panel.mes.hasta })}>Ver mis gastos de este mes</a>
      </p>
      <div className="tabla-contenedor">
        <table>
          <caption>Mis gastos por estado</caption>
          <Encabezados
            columnas={[{ header: "Estado" }, { header: "Gastos", numeric: true }, { header: "Importe", numeric: true }]}
          />
          <tbody>
            {panel.propios.map((e) => (
              <tr key={e.estado}>
                <th scope="row">
                  <a href={misGastosHref({ estado: e.estado })}>{labelOf(ESTADOS_GASTO, e.estado)}</a>
                </th>
                <td className="numero">{f.numero(e.cuenta)}</td>
                <td className="numero">{f.dinero(e.importe)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">
                <a href={misGastosHref()}>Todos mis gastos</a>
              </th>
              <td className="numero">{f.numero(total)}</td>
              <td className="numero">{f.dinero(sumMoney(panel.propios.map((e) => e.importe)))}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </Seccion>
  );
}

export function UltimosGastos({ panel, formats }: Props) {
  const c = columnasGasto(useFmt(formats));
  return (
    <Seccion id="ultimos-gastos" titulo="Mis últimos gastos">
      {panel.ultimos.length === 0 ? (
        <p>Todavía no ha registrado ningún gasto.</p>
      ) : (
        <>
          <TablaGastos
            caption="Mis cinco gastos más recientes"
            captionOculto
            gastos={panel.ultimos}
            columnas={[
              c.fecha,
              c.descripcion,
              c.importe,
              {
                header: "Estado",
                cell: (g) => (
                  <span className={`insignia insignia-${g.estado}`}>{labelOf(ESTADOS_GASTO, g.estado)}</span>
                ),
              },
            ]}
          />
          <p>
            <a href={misGastosHref()}>Ver todos mis gastos</a>
          </p>
        </>
      )}
    </Seccion>
  );
}

// ---------------------------------------------------------------------------------------------
// Aprobadores y administradores
// ---------------------------------------------------------------------------------------------

export function Pendientes({ panel, formats }: Props) {
  const f = useFmt(formats);
  const c = columnasGasto(f);
  const p = panel.pendientes;
  if (!p) return null;
  return (
    <Seccion id="pendientes-aprobar" titulo="Pendientes de aprobar">
      {p.cuenta === 0 ? (
        <p>No tiene gastos pendientes de aprobar.</p>
      ) : (
        <>
          <p className="panel-cifra">
            <a href={pendientesHref()}>
              <strong>{f.gastos(p.cuenta)}</strong> por <strong>{f.dinero(p.importe)}</strong>
            </a>{" "}
            {plural(p.cuenta, "espera", "esperan")} su aprobación.
          </p>
          <TablaGastos
            caption={
              p.cuenta === 1
                ? "El gasto pendiente"
                : p.cuenta > p.mas_antiguos.length
                  ? plural(p.mas_antiguos.length, "El más antiguo", `Los ${p.mas_antiguos.length} más antiguos`)
                  : "Del más antiguo al más reciente"
            }
            gastos={p.mas_antiguos}
            columnas={[
              c.fecha,
              { header: "Solicitante", cell: (g) => g.solicitante_nombre ?? "" },
              c.descripcion,
              c.importe,
              {
                header: "Justificantes",
                cell: (g) =>
                  g.justificantes === undefined ? (
                    ""
                  ) : g.justificantes === 0 ? (
                    <strong className="sin-justificante">Sin justificante</strong>
                  ) : (
                    cuenta(g.justificantes, "justificante", "justificantes", formats.locale)
                  ),
              },
            ]}
          />
          <p>
            <a href={pendientesHref()}>Ver todos los pendientes de aprobar</a>
          </p>
        </>
      )}
    </Seccion>
  );
}

// ---------------------------------------------------------------------------------------------
// Administradores
// ---------------------------------------------------------------------------------------------

export function Presupuestos({ panel, formats }: Props) {
  const f = useFmt(formats);
  const filas = panel.presupuestos;
  if (!filas) return null;
  const mes = f.mes(panel.mes.desde.slice(0, 7));
  const excedidos = filas.filter((d) => d.excedido);
  const situacion = (d: (typeof filas)[number]) =>
    d.presupuesto === null
      ? "Sin presupuesto"
      : d.excedido
        ? `${ICONO_AVISO} ${POR_ENCIMA} (${f.dinero(subtractMoney(d.aprobado, d.presupuesto))} más)`
        : "Dentro del presupuesto";
  const data: BarDatum[] = filas.map((d) => ({
    key: d.id,
    label: d.nombre,
    value: escala(d.aprobado),
    valueText: f.dinero(d.aprobado),
    reference: d.presupuesto === null ? null : escala(d.presupuesto),
    referenceText: d.presupuesto === null ? "—" : f.dinero(d.presupuesto),
    flag: d.excedido ? POR_ENCIMA : null,
    href: gastosHref({ departamento: d.id, desde: panel.mes.desde, hasta: panel.mes.hasta }),
  }));
  const resumen =
    `Aprobado en ${mes} por departamento frente a su presupuesto mensual: ${cuenta(filas.length, "departamento", "departamentos", formats.locale)}; ` +
    (excedidos.length === 0
      ? "ninguno por encima del presupuesto."
      : `${excedidos.length} por encima del presupuesto: ${excedidos.map((d) => d.nombre).join(", ")}.`);
  return (
    <Seccion id="presupuestos" titulo="Presupuesto del mes por departamento">
      <p>
        Aprobado y pagado en {mes}, por fecha del gasto, frente al presupuesto mensual de cada departamento (la línea
        vertical).
      </p>
      {excedidos.length > 0 ? (
        <div className="panel-excedidos">
          <p>
            <strong>
              {ICONO_AVISO} {POR_ENCIMA}: {cuenta(excedidos.length, "departamento", "departamentos", formats.locale)}
            </strong>
          </p>
          <ul>
            {excedidos.map((d) => (
              <li key={d.id}>
                {d.nombre}: {f.dinero(d.aprobado)} aprobados de {f.dinero(d.presupuesto!)} (
                {f.dinero(subtractMoney(d.aprobado, d.presupuesto!))} más)
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p>Ningún departamento supera su presupuesto este mes.</p>
      )}
      {filas.length === 0 ? (
        <p>No hay departamentos activos.</p>
      ) : (
        <BarChart
          id="grafico-presupuestos"
          title={`Aprobado en ${mes} por departamento`}
          summary={resumen}
          data={data}
          labelHeader="Departamento"
          valueHeader="Aprobado"
          referenceLegend="Presupuesto mensual"
          flagLegend={`${ICONO_AVISO} ${POR_ENCIMA}`}
          columns={[
            { header: "Presupuesto", numeric: true, cell: (d) => d.referenceText },
            { header: "Situación", cell: (d) => situacion(filas.find((x) => x.id === d.key)!) },
          ]}
        />
      )}
    </Seccion>
  );
}

export function IvaDelTrimestre({ panel, formats }: Props) {
  const f = useFmt(formats);
  const iva = panel.iva;
  if (!iva) return null;
  const nombre = TRIMESTRES.find((t) => t.value === String(iva.trimestre))!.nombre.toLowerCase();
  const periodo = `${nombre} de ${iva.anio}`;
  const estados = { aprobado: "Aprobados", pagado: "Pagados" } as const;
  const cifras = (c: CifrasIva) => (
    <>
      <td className="numero">{f.numero(c.cuenta)}</td>
      <td className="numero">{f.dinero(c.soportado)}</td>
      <td className="numero">{f.dinero(c.deducible)}</td>
      <td className="numero">{f.dinero(c.no_deducible)}</td>
    </>
  );
  return (
    <Seccion id="iva-trimestre" titulo="IVA soportado este trimestre">
      <p className="panel-cifra">
        Gastos aprobados y pagados del {periodo} (del {f.fecha(iva.desde)} al {f.fecha(iva.hasta)}, por fecha del
        gasto): <strong>{f.dinero(iva.total.soportado)}</strong> de IVA soportado;{" "}
        <strong>{f.dinero(iva.total.deducible)}</strong> deducible y <strong>{f.dinero(iva.total.no_deducible)}</strong>{" "}
        no deducible.
      </p>
      <div className="tabla-contenedor">
        <table>
          <caption>IVA soportado del {periodo} por estado del gasto</caption>
          <thead>
            <tr>
              <th scope="col">Estado</th>
              <th scope="col" className="numero">
                Gastos
              </th>
              <th scope="col" className="numero">
                IVA soportado
              </th>
              <th scope="col" className="numero">
                Deducible
              </th>
              <th scope="col" className="numero">
                No deducible
              </th>
            </tr>
          </thead>
          <tbody>
            {iva.estados.map((e) => (
              <tr key={e.estado}>
                <th scope="row">
                  <a href={gastosHref({ estado: e.estado, desde: iva.desde, hasta: iva.hasta })}>{estados[e.estado]}</a>
                </th>
                {cifras(e)}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              {cifras(iva.total)}
            </tr>
          </tfoot>
        </table>
      </div>
      <p>
        <a href={libroTrimestreHref(iva.anio, iva.trimestre)}>
          Ver el libro registro de facturas recibidas del {periodo}
        </a>
      </p>
    </Seccion>
  );
}

export function UltimosMeses({ panel, formats }: Props) {
  const f = useFmt(formats);
  const meses = panel.meses;
  if (!meses || meses.length === 0) return null;
  const corto = dateTimeFormat(formats.locale, { month: "short", timeZone: "UTC" });
  const mayor = meses.reduce((a, b) => (escala(b.importe) > escala(a.importe) ? b : a));
  const total = sumMoney(meses.map((m) => m.importe));
  const primero = f.mes(meses[0]!.mes);
  const ultimo = f.mes(meses[meses.length - 1]!.mes);
  const data: BarDatum[] = meses.map((m, i) => {
    const { from, to } = monthRange(m.mes);
    const nombre = corto.format(new Date(`${m.mes}-01T00:00:00Z`)).replace(/\.$/, "");
    return {
      key: m.mes,
      label: f.mes(m.mes),
      axisLabel: i === 0 || m.mes.endsWith("-01") ? [nombre, m.mes.slice(0, 4)] : [nombre],
      value: escala(m.importe),
      valueText: f.dinero(m.importe),
      href: gastosHref({ desde: from, hasta: to }),
    };
  });
  const cuentas = new Map(meses.map((m) => [m.mes, m.cuenta]));
  return (
    <Seccion id="ultimos-meses" titulo="Aprobado en los últimos 12 meses">
      <p>
        Total de {primero} a {ultimo}: <strong>{f.dinero(total)}</strong>.
      </p>
      <BarChart
        id="grafico-meses"
        orientation="vertical"
        title={`Aprobado por mes, de ${primero} a ${ultimo}`}
        summary={`Aprobado por mes, de ${primero} a ${ultimo}: ${f.dinero(total)} en total; el mes más alto, ${f.mes(mayor.mes)}, con ${f.dinero(mayor.importe)}.`}
        data={data}
        labelHeader="Mes"
        valueHeader="Aprobado"
        tickText={f.compacto}
        columns={[{ header: "Gastos", numeric: true, cell: (d) => f.numero(cuentas.get(d.key) ?? 0) }]}
      />
    </Seccion>
  );
}

export function Categorias({ panel, formats }: Props) {
  return (
    <Top90
      id="categorias"
      titulo="Categorías de los últimos 90 días"
      sujeto={{ singular: "categoría", plural: "categorías", genero: "f" }}
      etiqueta="Categoría"
      periodo={panel.noventa_dias}
      formats={formats}
      filas={panel.categorias?.map((c) => ({
        key: c.categoria,
        label: labelOf(CATEGORIAS_GASTO, c.categoria),
        importe: c.importe,
        cuenta: c.cuenta,
        filtro: { categoria: c.categoria },
      }))}
      vacio="No hay gastos aprobados"
    />
  );
}

export function Proveedores({ panel, formats }: Props) {
  return (
    <Top90
      id="proveedores"
      titulo="Proveedores de los últimos 90 días"
      sujeto={{ singular: "proveedor", plural: "proveedores", genero: "m" }}
      etiqueta="Proveedor"
      periodo={panel.noventa_dias}
      formats={formats}
      filas={panel.proveedores?.map((p) => ({
        key: p.id,
        label: p.nombre,
        importe: p.importe,
        cuenta: p.cuenta,
        filtro: { proveedor: p.id },
      }))}
      vacio="No hay gastos aprobados con proveedor"
    />
  );
}

/** A row of a ranking; `filtro` narrows the gastos list its bar links to (within the period). */
type FilaTop = {
  key: string;
  label: string;
  importe: string;
  cuenta: number;
  filtro: Omit<Parameters<typeof gastosHref>[0], "desde" | "hasta">;
};

/** A ranking of the last 90 days, when the panel gives one (`filas` and `periodo`). */
function Top90(props: {
  id: string;
  titulo: string;
  /** What the ranking counts, for sentences that agree with it («Las 5 categorías», «El proveedor»). */
  sujeto: { singular: string; plural: string; genero: "f" | "m" };
  etiqueta: string;
  periodo: { desde: string; hasta: string } | null;
  filas: FilaTop[] | undefined;
  formats: Formats;
  /** Said when there are no rows, followed by the period's dates. */
  vacio: string;
}) {
  const f = useFmt(props.formats);
  const { filas, periodo } = props;
  if (!filas || !periodo) return null;
  const rango = `del ${f.fecha(periodo.desde)} al ${f.fecha(periodo.hasta)}`;
  const cuentas = new Map(filas.map((r) => [r.key, r.cuenta]));
  const primera = filas[0];
  const { singular, plural: varios, genero } = props.sujeto;
  const [el, los, primero] = genero === "f" ? ["La", "Las", "la primera"] : ["El", "Los", "el primero"];
  const quienes =
    filas.length === 1 ? `${el} ${singular}` : `${los} ${filas.length > 1 ? `${filas.length} ` : ""}${varios}`;
  return (
    <Seccion id={props.id} titulo={props.titulo}>
      <p>
        {quienes} con más importe aprobado y pagado, {rango}.
      </p>
      {!primera ? (
        <p>{`${props.vacio} entre el ${f.fecha(periodo.desde)} y el ${f.fecha(periodo.hasta)}.`}</p>
      ) : (
        <BarChart
          id={`grafico-${props.id}`}
          title={`${props.etiqueta === "Categoría" ? "Categorías" : "Proveedores"} con más importe aprobado, ${rango}`}
          summary={
            filas.length === 1
              ? `${quienes} con más importe aprobado ${rango}: ${primera.label}, con ${f.dinero(primera.importe)}.`
              : `${quienes} con más importe aprobado ${rango}; ${primero}, ${primera.label}, con ${f.dinero(primera.importe)}.`
          }
          data={filas.map((r) => ({
            key: r.key,
            label: r.label,
            value: escala(r.importe),
            valueText: f.dinero(r.importe),
            href: gastosHref({ ...r.filtro, desde: periodo.desde, hasta: periodo.hasta }),
          }))}
          labelHeader={props.etiqueta}
          valueHeader="Aprobado"
          columns={[{ header: "Gastos", numeric: true, cell: (d) => f.numero(cuentas.get(d.key) ?? 0) }]}
        />
      )}
    </Seccion>
  );
}

function Seccion({ id, titulo, children }: { id: string; titulo: string; children: ReactNode }) {
  return (
    <section className="panel panel-seccion" aria-labelledby={id}>
      <h2 id={id}>{titulo}</h2>
      {children}
    </section>
  );
}

type GastoDeTabla = { id: string; folio: string; fecha_gasto: string; descripcion: string; importe: string };

/** The columns every table of gastos has, in the same words. */
function columnasGasto(f: ReturnType<typeof useFmt>) {
  return {
    fecha: { header: "Fecha", cell: (g) => f.fecha(g.fecha_gasto) },
    descripcion: { header: "Descripción", cell: (g) => g.descripcion },
    importe: { header: "Importe", numeric: true, cell: (g) => f.dinero(g.importe) },
  } satisfies Record<string, ColumnaTarjeta<GastoDeTabla>>;
}

/** A few gastos, each row led by its folio linking to the gasto. */
function TablaGastos<G extends { id: string; folio: string }>(props: {
  caption: string;
  captionOculto?: boolean;
  gastos: G[];
  columnas: ColumnaTarjeta<G>[];
}) {
  return (
    <TablaTarjetas
      caption={props.caption}
      captionOculto={props.captionOculto}
      contenedor
      titulada
      filas={props.gastos}
      clave={(g) => g.id}
      columnas={[{ header: "Folio", cell: (g) => <a href={gastoHref(g.id)}>{g.folio}</a> }, ...props.columnas]}
    />
  );
}
