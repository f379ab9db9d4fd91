import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { alContenido, datosDePagina, notFound, redirectWithFlash } from "~/crud/respuestas.server";
import { NotFound, StoreError, UUID, versionDe } from "~/data/store";
import { text } from "~/entities/fields";
import { formatDate, formatDateTime, todayISO } from "~/lib/dates";
import { formatIban } from "~/lib/iban";
import { formatMoney } from "~/lib/money";
import { cuenta } from "~/lib/plural";
import { CuentaReciente } from "~/pagos/CuentaReciente";
import { requireAdministrador, type DatosRemesa } from "~/pagos/remesas.server";
import { SubmitIntent } from "~/ui/forms";
import { parseSubmission } from "~/ui/parse-submission.server";
import { pageTitle, useFormats } from "~/ui/page";
import { TablaTarjetas } from "~/ui/TablaTarjetas";

/**
 * `/remesas/{id}` — one remesa: its transfers and the gastos in each, its SEPA file (the same
 * bytes every time), and while it is «generada», the accounts written shortly before it (as the
 * proposal says them), confirming that the bank executed it (its gastos become pagados, all at
 * once) or cancelling it (they can be paid again). The database does both
 * (confirmar_remesa, anular_remesa), with the version seen here.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageTitle(data ? `Remesa ${data.remesa.folio}` : "Remesa");

async function datos(store: Awaited<ReturnType<typeof requireAdministrador>>["store"], id: string | undefined) {
  if (!id || !UUID.test(id)) notFound("La remesa no existe.");
  try {
    return await store.rpc<DatosRemesa>("remesa_datos", { p_id: id });
  } catch (error) {
    if (error instanceof NotFound) notFound("La remesa no existe.");
    throw error;
  }
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store, user } = await requireAdministrador(request, context);
  return datosDePagina({ remesa: await datos(store, params.id), hoy: todayISO(), yo: user.id });
}

/**
 * The page's two acts, each a form with one field (checked as every text field is: one line,
 * something visible, its length), the database function that does it, and what is said after.
 */
const ACCIONES = {
  confirmar: {
    campo: text("referencia", "Referencia del banco", { max: 100 }),
    rpc: "confirmar_remesa",
    parametro: "p_referencia",
    hecho: (r: DatosRemesa) =>
      `Remesa ${r.folio} confirmada: ${cuenta(r.num_gastos, "gasto pagado", "gastos pagados")} por transferencia.`,
  },
  anular: {
    campo: text("motivo", "Motivo de la anulación", { required: true, min: 1, max: 500 }),
    rpc: "anular_remesa",
    parametro: "p_motivo",
    hecho: (r: DatosRemesa) => `Remesa ${r.folio} anulada: sus gastos pueden pagarse de nuevo.`,
  },
} as const;

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store } = await requireAdministrador(request, context);
  const remesa = await datos(store, params.id);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent !== "confirmar" && intent !== "anular") throw json({ message: "Acción desconocida." }, { status: 400 });
  const { campo, rpc, parametro, hecho } = ACCIONES[intent];
  // Unreadable: 0, which no remesa has, so the database answers that it changed.
  const version = versionDe(form.get("version")) ?? 0;
  // What was typed comes back with a refusal: the form shows it again.
  const valor = String(form.get(campo.name) ?? "");
  const leido = parseSubmission(form, (z) => z.object({ [campo.name]: campo.schema(z) }));
  if (leido.status !== "success")
    return json({ intent, error: leido.error?.[campo.name]?.[0] ?? "", valor, campo: true }, { status: 400 });
  try {
    await store.rpc(rpc, { p_id: remesa.id, p_version: version, [parametro]: leido.value[campo.name] });
  } catch (error) {
    if (error instanceof StoreError)
      return json({ intent, error: error.message, valor, campo: false }, { status: 400 });
    throw error;
  }
  // Its forms post to their error messages (`#…-error`): what was done is said on the page's content.
  return redirectWithFlash(context, request, alContenido(`/remesas/${remesa.id}`), hecho(remesa));
}

/** «, por Ana Ruiz (ana@…)» after a date: who did it, when known. */
const por = (quien: string | null) => (quien ? `, por ${quien}` : "");

const ESTADOS: Record<string, string> = { generada: "Generada", confirmada: "Confirmada", anulada: "Anulada" };

export default function RemesaPage() {
  const { remesa, hoy, yo } = useLoaderData<typeof loader>();
  const respuesta = useActionData<typeof action>();
  const f = useFormats();
  const dinero = (v: string) => formatMoney(v, f.locale, f.currency);
  const error = (intent: string) =>
    respuesta?.intent === intent ? (
      <div className="resumen-errores" role="alert" tabIndex={-1} id={`${intent}-error`}>
        <p id={`${intent}-error-mensaje`}>{respuesta.error}</p>
      </div>
    ) : null;
  // The refused form's field: what was typed, and (when the refusal is about it) tied to the message.
  const campo = (intent: string) =>
    respuesta?.intent === intent
      ? {
          defaultValue: respuesta.valor,
          ...(respuesta.campo ? { "aria-invalid": true, "aria-describedby": `${intent}-error-mensaje` } : {}),
        }
      : {};
  return (
    <>
      <p>
        <Link to="/remesas">Volver a las remesas</Link>
      </p>
      <h1>
        Remesa <span className="folio">{remesa.folio}</span>{" "}
        <span className={`insignia insignia-${remesa.estado}`}>{ESTADOS[remesa.estado] ?? remesa.estado}</span>
      </h1>
      {/* Refused because another tab or person confirmed or cancelled it: its forms are gone, the reason is not. */}
      {respuesta && remesa.estado !== "generada" ? error(String(respuesta.intent)) : null}
      <dl className="ficha">
        <div>
          <dt>Cuenta de cargo</dt>
          <dd>
            {remesa.cuenta.nombre} · {formatIban(remesa.cuenta.iban)}
          </dd>
        </div>
        <div>
          <dt>Fecha de ejecución</dt>
          <dd>{formatDate(remesa.fecha_ejecucion, f.locale)}</dd>
        </div>
        <div>
          <dt>Generada</dt>
          <dd>
            {formatDateTime(remesa.creado_en, f.locale)}
            {por(remesa.creado_por)}
          </dd>
        </div>
        <div>
          <dt>Importe</dt>
          <dd>{dinero(remesa.importe_total)}</dd>
        </div>
        <div>
          <dt>Transferencias</dt>
          <dd>
            {cuenta(remesa.num_transferencias, "transferencia", "transferencias")} ·{" "}
            {cuenta(remesa.num_gastos, "gasto", "gastos")}
          </dd>
        </div>
        <div>
          <dt>Fichero</dt>
          <dd>
            {remesa.estado === "anulada" ? (
              "Ya no se descarga: la remesa está anulada y su fichero no debe enviarse al banco."
            ) : remesa.xml_guardado ? (
              <a href={`/remesas/${remesa.id}/fichero`} download>
                Descargar el fichero SEPA ({remesa.cuenta.formato})
              </a>
            ) : (
              "—"
            )}
          </dd>
        </div>
        {remesa.confirmada_en ? (
          <div>
            <dt>Confirmada</dt>
            <dd>
              {formatDateTime(remesa.confirmada_en, f.locale)}
              {por(remesa.confirmada_por)}
              {remesa.referencia ? ` · ${remesa.referencia}` : ""}
            </dd>
          </div>
        ) : null}
        {remesa.anulada_en ? (
          <div>
            <dt>Anulada</dt>
            <dd>
              {formatDateTime(remesa.anulada_en, f.locale)}
              {por(remesa.anulada_por)} · {remesa.motivo_anulacion}
            </dd>
          </div>
        ) : null}
      </dl>

      {remesa.estado === "generada" ? (
        <section aria-labelledby="remesa-acciones" className="panel">
          <h2 id="remesa-acciones">Acciones</h2>
          {/* Two different acts, each in its own group: confirming is the usual end; annulling frees the gastos again. */}
          <Form method="post" className="formulario" action={`/remesas/${remesa.id}#confirmar-error`}>
            <fieldset className="grupo-campos">
              <legend>Confirmar el pago</legend>
              {error("confirmar")}
              {remesa.fecha_ejecucion > hoy ? (
                // The database allows it (a bank may execute a day early); the person should know.
                <p className="aviso aviso-aviso">
                  Su fecha de ejecución es el {formatDate(remesa.fecha_ejecucion, f.locale)}: confírmela cuando el banco
                  la haya ejecutado, y sus gastos pasarán a pagados.
                </p>
              ) : (
                <p className="ayuda">Cuando el banco la haya ejecutado: sus gastos pasan a pagados.</p>
              )}
              <input type="hidden" name="version" value={remesa.version} />
              <div className="campo">
                <label htmlFor="remesa-referencia">Referencia del banco (opcional)</label>
                <input
                  type="text"
                  id="remesa-referencia"
                  name="referencia"
                  autoComplete="off"
                  {...campo("confirmar")}
                />
              </div>
              <SubmitIntent intent="confirmar">Confirmar: el banco la ejecutó</SubmitIntent>
            </fieldset>
          </Form>
          <Form method="post" className="formulario" action={`/remesas/${remesa.id}#anular-error`}>
            <fieldset className="grupo-campos">
              <legend>Anular la remesa</legend>
              {error("anular")}
              <p className="ayuda">
                Solo si el banco no la ejecutó (la rechazó, o el fichero no llegó a enviarse): sus gastos vuelven a
                poder pagarse en otra remesa. Si el banco ya la ejecutó, confírmela: anulada, se pagarían dos veces.
              </p>
              <input type="hidden" name="version" value={remesa.version} />
              <div className="campo">
                <label htmlFor="remesa-motivo">
                  Motivo de la anulación<span className="obligatorio"> (obligatorio)</span>
                </label>
                <input type="text" id="remesa-motivo" name="motivo" autoComplete="off" {...campo("anular")} />
              </div>
              <div className="acciones">
                <button type="submit" name="intent" value="anular" className="peligro">
                  Anular la remesa
                </button>
              </div>
            </fieldset>
          </Form>
        </section>
      ) : null}

      <TablaTarjetas
        caption="Transferencias"
        filas={remesa.transferencias}
        clave={(t) => t.end_to_end_id}
        columnas={[
          { header: "Referencia", cell: (t) => t.end_to_end_id },
          { header: "Se paga a", cell: (t) => t.nombre },
          {
            header: "IBAN",
            cell: (t) => (
              <>
                {formatIban(t.iban)}
                {/* Until it is confirmed it may still not be sent: checked here as in the proposal. */}
                {remesa.estado === "generada" && t.cuenta_reciente ? (
                  <CuentaReciente cuenta={t.cuenta_reciente} yo={yo} />
                ) : null}
              </>
            ),
          },
          // What the beneficiary reads on the statement, as the file says it.
          { header: "Concepto", cell: (t) => t.concepto },
          {
            header: "Gastos",
            cell: (t) =>
              t.gastos.map((g, i) => (
                <span key={g.id}>
                  {i ? ", " : ""}
                  <Link to={`/gastos?gasto=${g.id}#gasto`}>{g.folio}</Link>
                </span>
              )),
          },
          { header: "Importe", celda: "importe", cell: (t) => dinero(t.importe) },
        ]}
      />
    </>
  );
}
