import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { leerPeriodoDiario, numeracionFueraDeContaPlus, type Apunte } from "~/contabilidad/diario";
import { ASIENTOS_PATH } from "~/contabilidad/enlaces";
import {
  DiarioNoDisponible,
  primerosAsientos,
  requireAdministrador,
  resumenDiario,
} from "~/contabilidad/diario.server";
import { formats } from "~/crud/crud.server";
import { FormularioPeriodo, RESULTADO } from "~/fiscal/FormularioPeriodo";
import { periodoSearch } from "~/fiscal/periodo";
import { formatDate, todayISO } from "~/lib/dates";
import { formatMoney } from "~/lib/money";
import { cuenta } from "~/lib/plural";
import { pageTitle, useFormats } from "~/ui/page";
import { Encabezados } from "~/ui/TablaTarjetas";
import { datosDePagina } from "~/crud/respuestas.server";

/**
 * `/asientos` — the libro diario of a period for the gestoría (docs/contabilidad.md), for
 * administradores: the period's GET form, its figures, its first asientos and the links that
 * download it (`/asientos/exportar`): XLSX, CSV and ContaPlus's import files.
 */
const PATH = ASIENTOS_PATH;
const COLUMNAS = [
  ...["Asiento", "Fecha", "Subcuenta", "Descripción", "Concepto"].map((header) => ({ header })),
  { header: "Debe", numeric: true },
  { header: "Haber", numeric: true },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { store } = await requireAdministrador(request, context);
  const f = formats(context);
  const lectura = leerPeriodoDiario(new URL(request.url).searchParams, todayISO(), f.locale);
  if (!lectura.periodo) return datosDePagina({ ...lectura, resumen: null, apuntes: [] as Apunte[], search: null });
  try {
    // The first page numbers the period's new subcuentas; the summary reads them after.
    const apuntes = await primerosAsientos(store, lectura.periodo, lectura.primerAsiento);
    const resumen = await resumenDiario(store, lectura.periodo);
    const search = periodoSearch(lectura.valores) + (lectura.primero ? `&primero=${lectura.primerAsiento}` : "");
    return datosDePagina({ ...lectura, resumen, apuntes, search });
  } catch (error) {
    if (error instanceof DiarioNoDisponible) throw json({ message: error.message }, { status: error.status });
    throw error;
  }
}

export default function Asientos() {
  const { valores, periodo, errores, resumen, apuntes, search, primero, primerAsiento, errorPrimero } =
    useLoaderData<typeof loader>();
  const f = useFormats();
  const dinero = (v: string) => formatMoney(v, f.locale, f.currency);
  const mostrados = new Set(apuntes.map((a) => a.asiento)).size;
  const fueraDeContaPlus = resumen ? numeracionFueraDeContaPlus(primerAsiento, resumen.asientos) : null;
  return (
    <>
      <h1>Libro diario</h1>
      <p className="intro">
        Los asientos de un periodo para la contabilidad: uno por cada gasto aprobado o pagado, con fecha del gasto en el
        periodo (su cuenta de gasto, el IVA deducible en la 472, la 477 si hay inversión del sujeto pasivo y, en el
        haber, a quién se debe), y uno por cada remesa confirmada, con su fecha de ejecución (lo pagado a cada persona o
        proveedor contra el banco). La cuenta de gasto de cada categoría se elige en «IVA por categoría».
      </p>
      <FormularioPeriodo
        action={PATH}
        prefijo="diario"
        boton="Ver los asientos"
        valores={valores}
        errores={errores}
        extra={{
          name: "primero",
          etiqueta: "Primer número de asiento (opcional)",
          ayuda:
            "Para seguir la numeración de su contabilidad: el número del primer asiento del periodo. Vacío, empieza en 1.",
          valor: primero,
          error: errorPrimero,
          inputMode: "numeric",
          maxLength: 6,
        }}
      />
      {periodo && resumen && search ? (
        <section id={RESULTADO} tabIndex={-1} aria-labelledby="resultado-titulo">
          <h2 id="resultado-titulo">{periodo.titulo}</h2>
          <p>
            Del {formatDate(periodo.desde, f.locale)} al {formatDate(periodo.hasta, f.locale)}:{" "}
            <strong>{cuenta(resumen.asientos, "asiento", "asientos", f.locale)}</strong>
            {resumen.asientos ? ` (${origen(resumen.gastos, resumen.remesas, f.locale)})` : ""}, con{" "}
            {cuenta(resumen.apuntes, "apunte", "apuntes", f.locale)}.
          </p>
          {resumen.asientos === 0 ? (
            <p>No hay gastos aprobados ni pagados ni remesas confirmadas con fecha en este periodo.</p>
          ) : null}
          <div className="tabla-contenedor">
            <table>
              <caption>Sumas del periodo</caption>
              <tbody>
                <tr>
                  <th scope="row">Debe</th>
                  <td className="numero">{dinero(resumen.debe)}</td>
                </tr>
                <tr>
                  <th scope="row">Haber</th>
                  <td className="numero">{dinero(resumen.haber)}</td>
                </tr>
              </tbody>
            </table>
          </div>
          {resumen.descuadrados > 0 ? (
            <p role="alert">
              {cuenta(resumen.descuadrados, "asiento no cuadra", "asientos no cuadran", f.locale)}: avise al equipo que
              mantiene Oficina antes de pasarlos a la contabilidad.
            </p>
          ) : null}
          <Avisos
            pendientes={resumen.pendientes}
            porRevisar={resumen.por_revisar}
            pagadosFuera={resumen.pagados_fuera}
            locale={f.locale}
          />
          <p className="acciones">
            <a className="boton" href={`${PATH}/exportar?${search}&formato=xlsx`}>
              Descargar en Excel (XLSX)
            </a>{" "}
            <a href={`${PATH}/exportar?${search}&formato=csv`}>Descargar en CSV</a>{" "}
            {fueraDeContaPlus ? null : (
              <a href={`${PATH}/exportar?${search}&formato=xdiario`}>Descargar para ContaPlus (XDiario.txt)</a>
            )}{" "}
            <a href={`${PATH}/exportar?${search}&formato=xsubcta`}>Subcuentas para ContaPlus (XSubCta.txt)</a>
          </p>
          {fueraDeContaPlus ? (
            <p className="aviso aviso-aviso">{fueraDeContaPlus} para descargar XDiario.txt.</p>
          ) : null}
          {periodo.desde.slice(0, 4) !== periodo.hasta.slice(0, 4) ? (
            <p>
              El periodo abarca más de un año y ContaPlus importa los asientos de un ejercicio cada vez: para ContaPlus,
              descargue un fichero por año.
            </p>
          ) : null}
          {apuntes.length ? (
            <>
              {/* Above the scrolling region, not its caption: a caption is as wide as the table,
                  so on a phone it would be cut off instead of wrapping. */}
              <h3 id="asientos-titulo">
                {mostrados === resumen.asientos
                  ? "Los asientos del periodo"
                  : `Los ${cuenta(mostrados, "primer asiento", "primeros asientos", f.locale)} de ${resumen.asientos}`}
              </h3>
              {/* Seven columns scroll sideways on a phone: a named region in the tab order, so the
                  keyboard scrolls it too (WCAG 2.1.1; axe's scrollable-region-focusable). */}
              {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
              <div className="tabla-contenedor" role="region" tabIndex={0} aria-labelledby="asientos-titulo">
                <table aria-labelledby="asientos-titulo" className="tabla-diario">
                  <Encabezados columnas={COLUMNAS} />
                  {/* A body per asiento: on a phone each is a card of its lines (tablas.css). */}
                  {porAsiento(apuntes).map((lineas) => (
                    <tbody key={lineas[0]!.n}>
                      {lineas.map((a) => (
                        <tr key={a.n}>
                          <td data-etiqueta="Asiento">{a.linea === 1 ? a.asiento : ""}</td>
                          <td>{a.linea === 1 ? formatDate(a.fecha, f.locale) : ""}</td>
                          <td>{a.subcuenta}</td>
                          <td>{a.titulo}</td>
                          <td className="concepto">{a.concepto}</td>
                          <td className="numero" data-etiqueta="Debe">
                            {a.debe === "0.00" ? "" : dinero(a.debe)}
                          </td>
                          <td className="numero" data-etiqueta="Haber">
                            {a.haber === "0.00" ? "" : dinero(a.haber)}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  ))}
                </table>
              </div>
            </>
          ) : null}
        </section>
      ) : null}
    </>
  );
}

/** The lines of each asiento together, in order. */
function porAsiento(apuntes: readonly Apunte[]) {
  const grupos: Apunte[][] = [];
  for (const a of apuntes) {
    const ultimo = grupos.at(-1);
    if (ultimo && ultimo[0]!.asiento === a.asiento) ultimo.push(a);
    else grupos.push([a]);
  }
  return grupos;
}

/** «2 gastos y 1 remesa», «3 gastos». */
function origen(gastos: number, remesas: number, locale: string) {
  return [
    gastos ? cuenta(gastos, "gasto", "gastos", locale) : null,
    remesas ? cuenta(remesas, "remesa", "remesas", locale) : null,
  ]
    .filter(Boolean)
    .join(" y ");
}

/** What the period has that the diario does not show (yet), so nobody takes it for complete. */
function Avisos({
  pendientes,
  porRevisar,
  pagadosFuera,
  locale,
}: {
  pendientes: number;
  porRevisar: number;
  pagadosFuera: number;
  locale: string;
}) {
  const avisos = [
    pendientes > 0
      ? `${cuenta(pendientes, "gasto del periodo está", "gastos del periodo están", locale)} aún pendiente${pendientes === 1 ? "" : "s"} de aprobación: no ${pendientes === 1 ? "está" : "están"} en el diario.`
      : null,
    porRevisar > 0
      ? `${cuenta(porRevisar, "gasto tiene", "gastos tienen", locale)} el desglose de IVA por revisar: su IVA va entero a la cuenta de gasto hasta que se revise.`
      : null,
    pagadosFuera > 0
      ? `${cuenta(pagadosFuera, "gasto se pagó", "gastos se pagaron", locale)} en el periodo fuera de una remesa: ese pago no está en el diario (anótelo desde el extracto del banco).`
      : null,
  ].filter((a): a is string => a !== null);
  if (!avisos.length) return null;
  return (
    <ul>
      {avisos.map((a) => (
        <li key={a}>{a}</li>
      ))}
    </ul>
  );
}

export const meta: MetaFunction = () => pageTitle("Libro diario");
