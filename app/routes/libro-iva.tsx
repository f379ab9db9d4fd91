import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formats } from "~/crud/crud.server";
import { LIBRO_IVA_PATH } from "~/fiscal/enlaces";
import { requireAdministrador, resumenLibro } from "~/fiscal/libro.server";
import { FormularioPeriodo, RESULTADO } from "~/fiscal/FormularioPeriodo";
import { leerPeriodo, periodoSearch } from "~/fiscal/periodo";
import { formatDate, todayISO } from "~/lib/dates";
import { formatMoney, subtractMoney } from "~/lib/money";
import { cuenta } from "~/lib/plural";
import { pageTitle, useFormats } from "~/ui/page";
import { datosDePagina } from "~/crud/respuestas.server";

/**
 * `/libro-iva` — the libro registro de facturas recibidas for a period (docs/producto.md «Datos
 * fiscales»), for administradores: a GET form (a quarter, a month, a year or two dates), the
 * period's lines and totals, and the links that download it (`/libro-iva/exportar`).
 */
const PATH = LIBRO_IVA_PATH;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { store } = await requireAdministrador(request, context);
  const f = formats(context);
  const lectura = leerPeriodo(new URL(request.url).searchParams, todayISO(), f.locale);
  const resumen = lectura.periodo ? await resumenLibro(store, lectura.periodo) : null;
  return datosDePagina({ ...lectura, resumen, search: lectura.periodo ? periodoSearch(lectura.valores) : null });
}

export default function LibroIva() {
  const { valores, periodo, errores, resumen, search } = useLoaderData<typeof loader>();
  const f = useFormats();
  const dinero = (v: string) => formatMoney(v, f.locale, f.currency);
  return (
    <>
      <h1>Libro registro de facturas recibidas</h1>
      <p className="intro">
        Las facturas y tickets de los gastos aprobados y pagados, con una línea por factura y tipo de IVA, en las
        columnas del libro registro de IVA de la Agencia Tributaria. El periodo se cuenta por la fecha de la operación
        (la fecha del gasto).
      </p>
      <FormularioPeriodo action={PATH} prefijo="libro" boton="Ver el libro" valores={valores} errores={errores} />
      {periodo && resumen && search ? (
        <section id={RESULTADO} tabIndex={-1} aria-labelledby="resultado-titulo">
          <h2 id="resultado-titulo">{periodo.titulo}</h2>
          <p>
            Del {formatDate(periodo.desde, f.locale)} al {formatDate(periodo.hasta, f.locale)}, por fecha de la
            operación: <strong>{cuenta(resumen.lineas, "línea", "líneas", f.locale)}</strong> (una por factura y tipo de
            IVA).
          </p>
          {resumen.lineas === 0 && resumen.porRevisar === 0 ? (
            <p>No hay gastos aprobados ni pagados con fecha en este periodo.</p>
          ) : null}
          {resumen.porRevisar > 0 ? <FaltanPorRevisar n={resumen.porRevisar} locale={f.locale} /> : null}
          <div className="tabla-contenedor">
            <table>
              <caption>Totales del periodo</caption>
              <tbody>
                <Fila etiqueta="Base imponible" valor={dinero(resumen.sumas.base_imponible)} />
                <Fila etiqueta="Cuota de IVA soportado" valor={dinero(resumen.sumas.cuota_soportada)} />
                <Fila etiqueta="Cuota deducible" valor={dinero(resumen.sumas.cuota_deducible)} />
                <Fila
                  etiqueta="Cuota no deducible"
                  valor={dinero(subtractMoney(resumen.sumas.cuota_soportada, resumen.sumas.cuota_deducible))}
                />
                <Fila etiqueta="Total de las facturas" valor={dinero(resumen.sumas.total)} />
              </tbody>
            </table>
          </div>
          {resumen.inversion.lineas > 0 ? (
            <p>
              De ello, con inversión del sujeto pasivo ({cuenta(resumen.inversion.lineas, "línea", "líneas", f.locale)}
              ): base {dinero(resumen.inversion.base_imponible)} y cuota{" "}
              <strong>{dinero(resumen.inversion.cuota_soportada)}</strong>, que la empresa declara también como IVA
              devengado. El total de esas facturas no lleva la cuota.
            </p>
          ) : null}
          <p className="acciones">
            <a className="boton" href={`${PATH}/exportar?${search}&formato=xlsx`}>
              Descargar en Excel (XLSX)
            </a>{" "}
            <a href={`${PATH}/exportar?${search}&formato=csv`}>Descargar en CSV</a>
          </p>
        </section>
      ) : null}
    </>
  );
}

/** Otherwise the book looks complete, and its totals fall short of the panel's. */
function FaltanPorRevisar({ n, locale }: { n: number; locale: string }) {
  const s = n === 1 ? "" : "s";
  return (
    <p>
      <strong>
        {n === 1 ? "Falta" : "Faltan"} {cuenta(n, "gasto", "gastos", locale)} aprobado{s} o pagado{s} del periodo
      </strong>
      : su desglose de IVA está por revisar (sus impuestos no encajan en ningún tipo de IVA) y, hasta que se revise, no{" "}
      {n === 1 ? "tiene" : "tienen"} líneas en el libro ni IVA deducible.
    </p>
  );
}

function Fila({ etiqueta, valor }: { etiqueta: string; valor: string }) {
  return (
    <tr>
      <th scope="row">{etiqueta}</th>
      <td className="numero">{valor}</td>
    </tr>
  );
}

export const meta: MetaFunction = () => pageTitle("Libro registro de facturas recibidas");
