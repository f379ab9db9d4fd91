import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { CampoDelPeriodo, enlacesDeErrores, RESULTADO, ResumenDelPeriodo } from "~/fiscal/FormularioPeriodo";
import { periodoSearch, type CampoPeriodo } from "~/fiscal/periodo";
import { formatMoney } from "~/lib/money";
import { cuenta } from "~/lib/plural";
import { pageTitle, useFormats } from "~/ui/page";
import { TablaTarjetas, type ColumnaTarjeta } from "~/ui/TablaTarjetas";
import { INFORME_IRPF_PATH } from "~/viajes/enlaces";
import { COLUMNAS_IRPF, periodoIrpf, totalDeCuenta, type FilaIrpf } from "~/viajes/informe";
import { informeIrpf, requireAdministrador } from "~/viajes/informe.server";
import { datosDePagina } from "~/crud/respuestas.server";

/**
 * `/viajes/informe-irpf` — dietas and kilometraje per person for payroll and the modelo 190,
 * for administradores: a year (or two dates) by the gasto's date, the exempt and taxable totals,
 * and its downloads (`/viajes/informe-irpf/exportar`).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { store } = await requireAdministrador(request, context);
  const params = new URL(request.url).searchParams;
  const lectura = periodoIrpf(params);
  const informe = lectura.periodo ? await informeIrpf(store, lectura.periodo) : null;
  return datosDePagina({
    valores: lectura.valores,
    errores: lectura.errores,
    periodo: lectura.periodo,
    informe,
    search: periodoSearch(lectura.valores),
  });
}

export const meta: MetaFunction = () => pageTitle("Informe de IRPF: dietas y kilometraje");

export default function InformeIrpf() {
  const { valores, errores, periodo, informe, search } = useLoaderData<typeof loader>();
  const f = useFormats();
  const dinero = (v: string) => formatMoney(v, f.locale, f.currency);
  const id = (c: CampoPeriodo) => `irpf-${c}`;
  const columnas = COLUMNAS_IRPF.filter((c) => !c.soloArchivo);
  return (
    <>
      <h1>Informe de IRPF: dietas y kilometraje</h1>
      <p className="intro">
        Para la nómina y el modelo 190 (percepciones clave L, exentas): por persona, la parte exenta y la sujeta de las
        dietas y el kilometraje aprobados o pagados, por la fecha del gasto. Lo sujeto tributa como rendimiento del
        trabajo.
      </p>
      <ResumenDelPeriodo errores={enlacesDeErrores(errores, id)} prefijo="irpf" />
      <Form
        method="get"
        action={`${INFORME_IRPF_PATH}#${RESULTADO}`}
        className="formulario"
        key={JSON.stringify(valores)}
      >
        <CampoDelPeriodo campo="anio" id={id("anio")} errores={errores}>
          {(props) => <input {...props} type="text" inputMode="numeric" maxLength={4} defaultValue={valores.anio} />}
        </CampoDelPeriodo>
        <fieldset className="grupo-campos">
          <legend>O entre dos fechas (si las escribe, no cuenta el año)</legend>
          <CampoDelPeriodo campo="desde" id={id("desde")} errores={errores}>
            {(props) => <input {...props} type="date" defaultValue={valores.desde} />}
          </CampoDelPeriodo>
          <CampoDelPeriodo campo="hasta" id={id("hasta")} errores={errores}>
            {(props) => <input {...props} type="date" defaultValue={valores.hasta} />}
          </CampoDelPeriodo>
        </fieldset>
        <div className="acciones">
          <button type="submit">Ver el informe</button>
        </div>
      </Form>
      {periodo && informe ? (
        <section id={RESULTADO} aria-labelledby="resultado-titulo" tabIndex={-1}>
          <h2 id="resultado-titulo">{periodo.titulo}</h2>
          <p>
            {cuenta(informe.gastos, "gasto", "gastos")} de {cuenta(informe.filas.length, "persona", "personas")}:{" "}
            {dinero(informe.totales.exento)} exentos y {dinero(informe.totales.sujeto)} sujetos a IRPF.
          </p>
          {informe.filas.length ? (
            <>
              <p className="acciones">
                <a href={`${INFORME_IRPF_PATH}/exportar?${search}&formato=xlsx`} download>
                  Descargar XLSX
                </a>
                <a href={`${INFORME_IRPF_PATH}/exportar?${search}&formato=csv`} download>
                  Descargar CSV
                </a>
              </p>
              <TablaTarjetas
                className="cabeceras-partidas"
                caption="Dietas y kilometraje por persona"
                captionOculto
                contenedor
                titulada
                filas={informe.filas}
                clave={(fila) => fila.solicitante_id}
                total="Total"
                columnas={columnas.map((c): ColumnaTarjeta<FilaIrpf> => ({
                  header: c.header,
                  numeric: c.money || c.cuenta,
                  cell: (fila) =>
                    c.money ? (
                      dinero(String(c.value(fila)))
                    ) : c.debajo ? (
                      <>
                        {c.enlace ? <Link to={c.enlace(fila)}>{c.value(fila)}</Link> : c.value(fila)}
                        <br />
                        <span className="debajo">{c.debajo(fila)}</span>
                      </>
                    ) : (
                      c.value(fila)
                    ),
                  total: c.total
                    ? dinero(informe.totales[c.total])
                    : c.cuenta
                      ? String(totalDeCuenta(c, informe.filas))
                      : undefined,
                }))}
              />
            </>
          ) : (
            <p>No hay dietas ni kilometraje aprobados en este periodo.</p>
          )}
        </section>
      ) : null}
    </>
  );
}
