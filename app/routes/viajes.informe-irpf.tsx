import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { formatMoney } from "~/lib/money";
import { cuenta } from "~/lib/plural";
import { pageTitle, useFormats } from "~/ui/page";
import { TablaTarjetas, type ColumnaTarjeta } from "~/ui/TablaTarjetas";
import { INFORME_IRPF_PATH } from "~/viajes/enlaces";
import { COLUMNAS_IRPF, periodoIrpf, type FilaIrpf } from "~/viajes/informe";
import { informeIrpf, requireAdministrador } from "~/viajes/informe.server";

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
  const search = new URLSearchParams();
  for (const k of ["anio", "desde", "hasta"]) if (params.get(k)) search.set(k, params.get(k)!);
  return {
    valores: lectura.valores,
    errores: lectura.errores,
    periodo: lectura.periodo,
    informe,
    search: String(search),
  };
}

export const meta: MetaFunction = () => pageTitle("Informe de IRPF: dietas y kilometraje");

export default function InformeIrpf() {
  const { valores, errores, periodo, informe, search } = useLoaderData<typeof loader>();
  const f = useFormats();
  const dinero = (v: string) => formatMoney(v, f.locale, f.currency);
  const lista = Object.values(errores);
  const columnas = COLUMNAS_IRPF.filter((c) => !c.soloArchivo);
  return (
    <>
      <h1>Informe de IRPF: dietas y kilometraje</h1>
      <p className="intro">
        Para la nómina y el modelo 190 (percepciones clave L, exentas): por persona, la parte exenta y la sujeta de las
        dietas y el kilometraje aprobados o pagados, por la fecha del gasto. Lo sujeto tributa como rendimiento del
        trabajo.
      </p>
      {lista.length ? (
        <div className="resumen-errores" role="alert" tabIndex={-1}>
          <h2>{cuenta(lista.length, "error", "errores").replace(/^(\d+)/, "Hay $1")}</h2>
          <ul>
            {lista.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <Form method="get" action={`${INFORME_IRPF_PATH}#resultado`} className="formulario" key={JSON.stringify(valores)}>
        <div className="campo">
          <label htmlFor="irpf-anio">Año</label>
          <input id="irpf-anio" name="anio" inputMode="numeric" defaultValue={valores.anio} maxLength={4} />
        </div>
        <fieldset className="grupo-campos">
          <legend>O entre dos fechas (si las escribe, no cuenta el año)</legend>
          <div className="campo">
            <label htmlFor="irpf-desde">Desde</label>
            <input id="irpf-desde" type="date" name="desde" defaultValue={valores.desde} />
          </div>
          <div className="campo">
            <label htmlFor="irpf-hasta">Hasta</label>
            <input id="irpf-hasta" type="date" name="hasta" defaultValue={valores.hasta} />
          </div>
        </fieldset>
        <div className="acciones">
          <button type="submit">Ver el informe</button>
        </div>
      </Form>
      {periodo && informe ? (
        <section id="resultado" aria-labelledby="resultado-titulo" tabIndex={-1}>
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
                  numeric: c.money,
                  cell: (fila) => (c.money ? dinero(String(c.value(fila))) : c.value(fila)),
                  total: c.total ? dinero(informe.totales[c.total]) : undefined,
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
