import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useFormAction, useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { formats } from "~/crud/crud.server";
import { alContenido, datosDePagina, redirectWithFlash } from "~/crud/respuestas.server";
import { StoreError, UUID } from "~/data/store";
import { fechaPagoMaxima } from "~/entities/gastos-flujo";
import { formatDate, isISODate, parseDateInput, todayISO } from "~/lib/dates";
import { formatIban } from "~/lib/iban";
import { formatMoney, isMoneyString } from "~/lib/money";
import { cuenta } from "~/lib/plural";
import { CuentaReciente } from "~/pagos/CuentaReciente";
import {
  candidatos,
  candidatosDe,
  candidatosDeLista,
  generar,
  REMESA_MAXIMO,
  requireAdministrador,
} from "~/pagos/remesas.server";
import { ErrorDeCampo } from "~/ui/ErrorDeCampo";
import { pageTitle, useFormats } from "~/ui/page";
import { TablaTarjetas, type ColumnaTarjeta } from "~/ui/TablaTarjetas";

/**
 * `/remesas` — paying approved gastos by bank transfer (docs/producto.md «Remesas»), for
 * administradores: the approved gastos not yet paid (optionally between two dates), which go in a
 * new remesa and which do not and why (the database decides: remesa_candidatos), the form that
 * generates it (an account and an execution date), and the remesas made so far.
 *
 * From the gastos list («Crear remesa»): `?gasto=…` (repeated) are the rows checked there, and
 * `?lista=` the list's own query string (its filters, view and search), to go back to it; with
 * `?coinciden=1` the proposal is every approved gasto of that list not yet in a remesa.
 */
export const meta: MetaFunction = () => pageTitle("Remesas de pago");

/** A date of the filter: null when empty; `false` when written but not a real date. */
const fecha = (v: string | null): string | false | null => (v ? (parseDateInput(v) ?? false) : null);
const FECHA_ILEGIBLE = "Escriba una fecha real, por ejemplo 31/12/2026, o déjela vacía";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const leidas = { desde: fecha(url.searchParams.get("desde")), hasta: fecha(url.searchParams.get("hasta")) };
  const desde = leidas.desde || null;
  const hasta = leidas.hasta || null;
  // Dates that cannot be read, or the wrong way round, propose nothing (not every gasto): said
  // beside their field instead of «no hay gastos».
  const erroresFechas = {
    desde: leidas.desde === false ? FECHA_ILEGIBLE : null,
    hasta:
      leidas.hasta === false
        ? FECHA_ILEGIBLE
        : desde !== null && hasta !== null && hasta < desde
          ? "«Hasta» es anterior a «Gastos desde»: corrija una de las dos fechas"
          : null,
  };
  const elegidos = url.searchParams.getAll("gasto").slice(0, REMESA_MAXIMO);
  const lista = url.searchParams.get("lista");
  const coinciden = lista !== null && url.searchParams.get("coinciden") === "1";
  const signed = await requireAdministrador(request, context);
  const { store } = signed;
  const propuestaDeLista = coinciden ? candidatosDeLista(signed, new URLSearchParams(lista)) : null;
  const columnas = ["id", "folio", "estado", "fecha_ejecucion", "num_transferencias", "importe_total"] as const;
  const [propuesta, cuentas, remesas, generadas, deLista] = await Promise.all([
    propuestaDeLista
      ? propuestaDeLista.then((r) => (r.ilegible ? candidatosDe(store, []) : r.propuesta))
      : elegidos.length
        ? candidatosDe(store, elegidos)
        : erroresFechas.desde || erroresFechas.hasta
          ? candidatosDe(store, [])
          : candidatos(store, desde, hasta),
    store.list("cuentas_empresa", {
      columns: ["id", "nombre", "iban", "formato"],
      filters: [{ column: "activa", op: "eq", value: true }],
      order: [{ column: "nombre", ascending: true }],
      limit: 50,
      offset: 0,
    }),
    store.list("remesas_vista", {
      columns: [...columnas],
      order: [{ column: "creado_en", ascending: false }],
      limit: 50,
      offset: 0,
    }),
    // Sent to the bank and not yet confirmed, however old: what finance comes back here for.
    store.list("remesas_vista", {
      columns: [...columnas],
      filters: [{ column: "estado", op: "eq", value: "generada" }],
      order: [{ column: "fecha_ejecucion", ascending: true }],
      limit: 50,
      offset: 0,
      count: "exact",
    }),
    propuestaDeLista,
  ]);
  // Where the proposal came from, when from the gastos list: what to say and where to go back.
  const origen =
    lista !== null || elegidos.length
      ? {
          volver: `/gastos${lista ? `?${new URLSearchParams(lista).toString()}` : ""}`,
          coinciden,
          ilegible: deLista?.ilegible ?? false,
          total: deLista && !deLista.ilegible ? deLista.total : elegidos.length,
        }
      : null;
  // A view's columns are nullable by type; a remesa's are not.
  const remesa = (r: Record<string, unknown>) => ({
    id: String(r.id),
    folio: String(r.folio),
    estado: String(r.estado),
    fecha_ejecucion: String(r.fecha_ejecucion),
    num_transferencias: Number(r.num_transferencias),
    importe_total: String(r.importe_total),
  });
  return datosDePagina({
    desde,
    hasta,
    erroresFechas,
    propuesta,
    origen,
    cuentas: cuentas.rows,
    remesas: remesas.rows.map(remesa),
    porConfirmar: { remesas: generadas.rows.map(remesa), total: generadas.total },
    hoy: todayISO(),
    yo: signed.user.id,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { store } = await requireAdministrador(request, context);
  const form = await request.formData();
  const gastoIds = form.getAll("gasto").map(String);
  const cuentaId = String(form.get("cuenta") ?? "");
  const fechaEjecucion = String(form.get("fecha_ejecucion") ?? "");
  const importeTotal = String(form.get("importe_total") ?? "");
  const huella = String(form.get("huella") ?? "");
  const errores: Record<string, string> = {};
  if (!UUID.test(cuentaId)) errores.cuenta = "Elija la cuenta de la empresa desde la que se paga";
  if (!isISODate(fechaEjecucion)) errores.fecha_ejecucion = "Escriba la fecha de ejecución, por ejemplo 31/01/2026";
  // It becomes its gastos' fecha de pago: the same limits as «Marcar como pagado».
  else if (fechaEjecucion < todayISO() || fechaEjecucion > fechaPagoMaxima())
    errores.fecha_ejecucion = "Fecha de ejecución: hoy o después, como mucho dentro de un año";
  if (!gastoIds.length || gastoIds.some((id) => !UUID.test(id)) || gastoIds.length > REMESA_MAXIMO)
    errores.gasto = "No hay gastos que pagar en esta remesa: vuelva a la lista";
  // The sum the page showed (numeric(14, 2)), checked again by the database; only a forged post lacks it.
  else if (!isMoneyString(importeTotal) || importeTotal.length > 16)
    errores.gasto = "No se pudo leer la suma de la remesa: vuelva a la lista";
  // Who and which account each gasto goes to, as the page showed them; only a forged post lacks it.
  else if (!/^[0-9a-f]{32}$/.test(huella))
    errores.gasto = "No se pudo leer la propuesta de la remesa: vuelva a la lista";
  if (Object.keys(errores).length) return json({ errores, valores: { cuentaId, fechaEjecucion } }, { status: 400 });
  try {
    const f = formats(context);
    const remesa = await generar(store, { gastoIds, cuentaId, fecha: fechaEjecucion, importeTotal, huella });
    return redirectWithFlash(
      context,
      request,
      // Its form posts to its error summary: without a fragment of its own the redirect would keep that one.
      alContenido(`/remesas/${remesa.id}`),
      `Remesa ${remesa.folio} generada: ${cuenta(remesa.num_transferencias, "transferencia", "transferencias")} por ${formatMoney(remesa.importe_total, f.locale, f.currency)}. Descargue el fichero y envíelo al banco.`,
    );
  } catch (error) {
    // The database's word (a gasto that cannot go any more, the total changed meanwhile…).
    if (error instanceof StoreError)
      return json({ errores: { remesa: error.message }, valores: { cuentaId, fechaEjecucion } }, { status: 400 });
    throw error;
  }
}

const ESTADOS: Record<string, string> = { generada: "Generada", confirmada: "Confirmada", anulada: "Anulada" };

export default function Remesas() {
  const { desde, hasta, erroresFechas, propuesta, origen, cuentas, remesas, porConfirmar, hoy, yo } =
    useLoaderData<typeof loader>();
  const respuesta = useActionData<typeof action>();
  // This URL (the gastos chosen in the list included): a refused post shows the same proposal.
  const accion = useFormAction();
  const f = useFormats();
  const dinero = (v: string) => formatMoney(v, f.locale, f.currency);
  // Both tables of the gastos considered show each one's folio and amount the same way.
  type GastoConsiderado = { gasto_id: string; folio: string; importe: string };
  const folio: ColumnaTarjeta<GastoConsiderado> = {
    header: "Folio",
    cell: (g) => <Link to={`/gastos?gasto=${g.gasto_id}#gasto`}>{g.folio}</Link>,
  };
  const importe: ColumnaTarjeta<GastoConsiderado> = {
    header: "Importe",
    celda: "importe",
    cell: (g) => dinero(g.importe),
  };
  const van = propuesta.gastos.filter((g) => !g.motivo);
  const noVan = propuesta.gastos.filter((g) => g.motivo);
  // The same few reasons over and over (a corporate card, one person's missing IBAN): counted once each.
  const cuantos = new Map<string, number>();
  for (const g of noVan) cuantos.set(g.motivo!, (cuantos.get(g.motivo!) ?? 0) + 1);
  const porMotivo = [...cuantos].sort(([, a], [, b]) => b - a);
  const errores = Object.entries(respuesta?.errores ?? {});
  // A refused field says so beside itself too (ErrorDeCampo).
  const mensajes: Record<string, string | undefined> = respuesta?.errores ?? {};
  const errorDe = (campo: string) =>
    mensajes[campo] ? ({ "aria-invalid": true, "aria-describedby": `remesa-${campo}-error` } as const) : ({} as const);
  return (
    <>
      <h1>Remesas de pago</h1>
      <p className="intro">
        Los gastos aprobados que se devuelven a quien los pagó (o se pagan al proveedor) con una transferencia SEPA: una
        por persona o proveedor, con los folios en el concepto (a un proveedor, los números de sus facturas). Al
        confirmar que el banco la ejecutó, sus gastos quedan pagados.
      </p>
      {remesas.length ? (
        // Below the proposal, which on a phone may run to a hundred cards.
        <p>
          <a href="#remesas-hechas">Ir a las remesas ya generadas</a>
        </p>
      ) : null}
      {/* Sent to the bank and not yet confirmed: first on the page, the oldest first. */}
      {porConfirmar.total ? (
        <p className="aviso aviso-aviso" id="por-confirmar">
          {porConfirmar.total === 1
            ? "Una remesa está por confirmar con el banco: "
            : `${porConfirmar.total.toLocaleString(f.locale)} remesas están por confirmar con el banco: `}
          {porConfirmar.remesas.map((r, i) => (
            <Fragment key={r.id}>
              {i ? ", " : ""}
              <Link to={`/remesas/${r.id}`}>{r.folio}</Link> ({formatDate(r.fecha_ejecucion, f.locale)})
            </Fragment>
          ))}
          {porConfirmar.total > porConfirmar.remesas.length
            ? ` y ${(porConfirmar.total - porConfirmar.remesas.length).toLocaleString(f.locale)} más`
            : ""}
          .
        </p>
      ) : null}

      <section aria-labelledby="nueva-remesa" className="panel">
        {/* Focusable: the dates' form and the lists' links land here (an error is said just below). */}
        <h2 id="nueva-remesa" tabIndex={-1}>
          Nueva remesa
        </h2>
        {origen ? (
          <p>
            {origen.ilegible
              ? "El filtro de la lista de gastos tiene valores que no se pueden leer: corríjalo y vuelva a crear la remesa."
              : origen.coinciden
                ? `Con los gastos aprobados pendientes de pago que coinciden con el filtro de la lista de gastos: ${origen.total.toLocaleString(f.locale)}${origen.total > REMESA_MAXIMO ? `; van los ${REMESA_MAXIMO.toLocaleString(f.locale)} primeros, repita para el resto` : ""}.`
                : `Con ${cuenta(origen.total, "gasto elegido", "gastos elegidos")} en la lista de gastos.`}{" "}
            <Link to={origen.volver}>Volver a la lista de gastos</Link>
          </p>
        ) : null}
        {origen ? (
          // The proposal is the list's gastos: a date filter here would silently replace them.
          <p>
            <Link to="/remesas">Proponer en cambio todos los aprobados sin pagar, por fechas</Link>
          </p>
        ) : (
          <Form method="get" action="/remesas#nueva-remesa" className="filtros-campos">
            <FechaDelFiltro name="desde" label="Gastos desde" valor={desde} error={erroresFechas.desde} />
            <FechaDelFiltro name="hasta" label="Hasta" valor={hasta} error={erroresFechas.hasta} />
            <div className="acciones">
              <button type="submit" className="secundario">
                Ver
              </button>
            </div>
          </Form>
        )}
        <p role="status">
          {van.length
            ? `${van.length === 1 ? "Va" : "Van"} ${cuenta(van.length, "gasto", "gastos")} en ${cuenta(propuesta.transferencias, "transferencia", "transferencias")}: ${dinero(propuesta.importe_total)}.`
            : erroresFechas.desde || erroresFechas.hasta
              ? "Sin gastos que proponer: corrija las fechas."
              : "No hay gastos aprobados que se puedan pagar en una remesa."}
          {noVan.length ? ` ${cuenta(noVan.length, "gasto aprobado no va", "gastos aprobados no van")}:` : ""}
        </p>
        {noVan.length ? (
          // Each reason once, with how many, before the long list of what goes (on a phone, far
          // below); the gastos themselves at the end, folded.
          <ul aria-label="Por qué no van">
            {porMotivo.map(([motivo, n]) => (
              <li key={motivo}>
                {cuenta(n, "gasto", "gastos")}: {motivo}
              </li>
            ))}
          </ul>
        ) : null}
        {errores.length ? (
          <div className="resumen-errores" role="alert" tabIndex={-1} id="remesa-errores">
            <h3>Hay {cuenta(errores.length, "error", "errores")}</h3>
            <ul>
              {errores.map(([campo, mensaje]) => (
                <li key={campo}>
                  {campo === "cuenta" || campo === "fecha_ejecucion" ? (
                    <a href={`#remesa-${campo}`}>{mensaje}</a>
                  ) : (
                    mensaje
                  )}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {van.length && cuentas.length ? (
          <Form method="post" action={`${accion}#remesa-errores`} className="formulario" noValidate>
            {van.map((g) => (
              <input key={g.gasto_id} type="hidden" name="gasto" value={g.gasto_id} />
            ))}
            <input type="hidden" name="importe_total" value={propuesta.importe_total} />
            <input type="hidden" name="huella" value={propuesta.huella} />
            <div className="campo">
              <label htmlFor="remesa-cuenta">Cuenta de cargo</label>
              <select
                id="remesa-cuenta"
                name="cuenta"
                defaultValue={respuesta?.valores.cuentaId ?? cuentas[0]?.id}
                {...errorDe("cuenta")}
              >
                {cuentas.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.nombre} · {formatIban(c.iban)} · {c.formato}
                  </option>
                ))}
              </select>
              <ErrorDeCampo id="remesa-cuenta-error">{mensajes.cuenta}</ErrorDeCampo>
            </div>
            <div className="campo">
              <label htmlFor="remesa-fecha_ejecucion">Fecha de ejecución</label>
              <p className="ayuda" id="remesa-fecha_ejecucion-ayuda">
                Hoy o después, como mucho dentro de un año: la fecha de pago de sus gastos.
              </p>
              <input
                type="date"
                id="remesa-fecha_ejecucion"
                name="fecha_ejecucion"
                min={hoy}
                max={fechaPagoMaxima(hoy)}
                defaultValue={respuesta?.valores.fechaEjecucion || hoy}
                {...errorDe("fecha_ejecucion")}
                aria-describedby={[
                  "remesa-fecha_ejecucion-ayuda",
                  mensajes.fecha_ejecucion && "remesa-fecha_ejecucion-error",
                ]
                  .filter(Boolean)
                  .join(" ")}
              />
              <ErrorDeCampo id="remesa-fecha_ejecucion-error">{mensajes.fecha_ejecucion}</ErrorDeCampo>
            </div>
            <div className="acciones">
              <button type="submit">Generar remesa</button>
            </div>
          </Form>
        ) : van.length ? (
          <p>
            No hay ninguna cuenta de la empresa activa desde la que pagar:{" "}
            <Link to="/cuentas-empresa">dé de alta una</Link>.
          </p>
        ) : null}
        {van.length ? (
          <TablaTarjetas
            caption="Gastos que van"
            filas={van}
            clave={(g) => g.gasto_id}
            columnas={[
              folio,
              { header: "Fecha", cell: (g) => formatDate(g.fecha_gasto, f.locale) },
              { header: "Se paga a", cell: (g) => g.nombre },
              {
                header: "IBAN",
                cell: (g) => (
                  <>
                    {g.iban ? formatIban(g.iban) : "—"}
                    {g.cuenta_reciente ? <CuentaReciente cuenta={g.cuenta_reciente} yo={yo} /> : null}
                  </>
                ),
              },
              importe,
            ]}
          />
        ) : null}
        {noVan.length ? (
          // Read when something is missing; open when none goes, as they are then all there is to read.
          <>
            <details className="tabla-plegada" open={van.length === 0 || undefined}>
              <summary>
                Ver{" "}
                {noVan.length === 1
                  ? "el gasto que no va"
                  : `los ${cuenta(noVan.length, "gasto", "gastos")} que no van`}
                , y por qué
              </summary>
              <TablaTarjetas
                caption="Gastos que no van, y por qué"
                filas={noVan}
                clave={(g) => g.gasto_id}
                columnas={[folio, importe, { header: "Motivo", cell: (g) => g.motivo }]}
              />
            </details>
          </>
        ) : null}
      </section>

      <section aria-labelledby="remesas-hechas">
        <h2 id="remesas-hechas">Remesas</h2>
        {remesas.length ? (
          <TablaTarjetas
            filas={remesas}
            clave={(r) => r.id}
            columnas={[
              { header: "Folio", cell: (r) => <Link to={`/remesas/${r.id}`}>{r.folio}</Link> },
              { header: "Ejecución", cell: (r) => formatDate(r.fecha_ejecucion, f.locale) },
              { header: "Estado", cell: (r) => ESTADOS[r.estado] ?? r.estado },
              { header: "Transferencias", cell: (r) => r.num_transferencias },
              { header: "Importe", celda: "importe", cell: (r) => dinero(r.importe_total) },
            ]}
          />
        ) : (
          <p>Aún no hay remesas.</p>
        )}
      </section>
    </>
  );
}

/** A date of the proposal's filter, with what could not be read beside it. */
function FechaDelFiltro(p: { name: string; label: string; valor: string | null; error: string | null }) {
  const id = `remesa-${p.name}`;
  return (
    <div className="campo">
      <label htmlFor={id}>{p.label}</label>
      <input
        type="date"
        id={id}
        name={p.name}
        defaultValue={p.valor ?? ""}
        aria-invalid={p.error ? true : undefined}
        aria-describedby={p.error ? `${id}-error` : undefined}
      />
      <ErrorDeCampo id={`${id}-error`}>{p.error}</ErrorDeCampo>
    </div>
  );
}
