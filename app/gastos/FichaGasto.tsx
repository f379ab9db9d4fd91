import type { SubmissionResult } from "@conform-to/react";
import { Link, useActionData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { SerializeFrom } from "@remix-run/node";
import type { Options, StoredRow } from "~/crud/crud.server";
import { date, eligio, ref, select, text, type Field } from "~/entities/fields";
import { gastos } from "~/entities/gastos";
import { ESTADOS_GASTO } from "~/lib/opciones";
import { formatTimestamp, type Formats } from "~/lib/format";
import type { Flash as FlashMessage } from "~/lib/flash.server";
import { formatMoney } from "~/lib/money";
import { displayField, EDITAR_ERRORES, EditForm } from "~/ui/EntityForms";
import { Flash, flashDeLaFicha } from "~/ui/Flash";
import { History } from "~/ui/History";
import { Justificantes } from "~/justificantes/Justificantes";
import { MOTIVO_DUPLICADO, MOTIVO_POLITICA } from "~/entities/gastos-flujo";
import { accionDeRegistro, nuevoComoEste, type RecordAction } from "~/entities/entity";
import { AccionForm } from "~/ui/AccionForm";
import { FormEliminar } from "~/ui/ConfirmDialog";
import type { gastosLoader } from "./lista.server";

type Row = StoredRow;
/** The open gasto, as `/gastos`' loader sends it (`panelDe` in lista.server.ts). */
export type FichaData = NonNullable<SerializeFrom<typeof gastosLoader>["panel"]>;
type ActionData =
  { intent?: string; result?: SubmissionResult<string[]>; current?: Row; deleteError?: string } | undefined;

/** The columns the workflow writes (not in the form), declared for the record's sheet and its history. */
const CAMPOS_FLUJO: readonly Field[] = [
  select("estado", "Estado", ESTADOS_GASTO),
  ref("aprobador_id", "Aprobador", "usuarios"),
  ref("aprobado_por_id", "Aprobado por", "usuarios"),
  text("fecha_aprobacion", "Fecha de aprobación", { max: 40 }),
  text("motivo_rechazo", "Motivo", { max: 1000 }),
  date("fecha_pago", "Fecha de pago"),
  text("referencia_pago", "Referencia de pago", { max: 100 }),
  ref("creado_por_id", "Creado por", "usuarios"),
  ref("editado_por_id", "Editado en nombre del solicitante por", "usuarios"),
];

/**
 * The selected gasto beside the list (`?gasto={id}`): every field, the workflow buttons this
 * person may press now, the edit form while it is a borrador, delete with a confirm step, and
 * its history. Every form posts to this same URL (the list's filters included) and comes back.
 */
export function FichaGasto({
  panel,
  options,
  inactivos,
  formats,
  cerrar,
  aqui,
  copiar,
  action,
}: {
  panel: FichaData;
  options: Options;
  /** Inactive suppliers: not offered in the edit form (unless the gasto already has one). */
  inactivos: string[];
  formats: Formats;
  cerrar: string;
  aqui: string;
  /** «Nuevo gasto como este» (the list with the form open, starting with this gasto's values), for whoever creates gastos. */
  copiar: string | null;
  /** Where its forms post: this page, with `#gasto` so a refused post shows the panel without JavaScript. */
  action?: string;
}) {
  const data = useActionData<ActionData>();
  // The page's confirmation, here rather than above the list (root.tsx, useFlashEnPanel).
  const flash = useRouteLoaderData<{ flash: FlashMessage | null }>("root")?.flash;
  const { record } = panel;
  useFocoPanel(String(record.id), Number(record.version));
  const folio = String(record.folio);
  const estado = String(record.estado);
  const show = (f: Field, v: unknown) => displayField(f, v, formats, options);
  const nombres: Record<string, unknown> = {
    ...record,
    proveedor_id: record.proveedor_nombre,
    solicitante_id: record.solicitante_nombre,
    departamento_id: record.departamento_nombre,
    sucursal_id: record.sucursal_nombre,
    viaje_id: record.viaje_titulo,
    aprobador_id: record.aprobador_nombre,
    aprobado_por_id: record.aprobado_por_nombre,
  };
  const ficha: { label: string; value: string }[] = [
    // A borrador its editor may change shows its fields once, in the edit form below: the
    // summary keeps only what the form does not say (deductibility, estado, aprobador…), and
    // what the database computed for its class: a kilometraje's or a dieta's importe and how.
    ...gastos.fields
      .filter((f) => enLaFicha(f, record) && (!panel.editar || calculado(f, record)))
      .map((f) => ({
        label: f.label,
        value:
          f.input.type === "ref"
            ? String(nombres[f.name] ?? "—")
            : f.name === "importe_impuestos" && record.inversion_sujeto_pasivo === true
              ? // Not paid with the invoice: the company declares it (inversión del sujeto pasivo).
                `${show(f, record[f.name])}, que declara la empresa`
              : show(f, record[f.name]),
      })),
    ivaDeducible(record, formats),
    { label: "Estado", value: estadoLabel(estado) },
    { label: "Aprobador", value: String(record.aprobador_nombre ?? "—") },
    ...(record.aprobado_por_id ? [{ label: "Aprobado por", value: String(record.aprobado_por_nombre ?? "—") }] : []),
    ...(record.fecha_aprobacion
      ? [{ label: "Fecha de aprobación", value: formatTimestamp(String(record.fecha_aprobacion), formats) }]
      : []),
    // Written on the paper invoice, it finds its line in the libro de IVA and back. A revoked
    // gasto keeps its number for when it is approved again, but is not in the book meanwhile.
    ...(record.numero_recepcion && (estado === "aprobado" || estado === "pagado")
      ? [{ label: "Número de recepción (libro de IVA)", value: String(record.numero_recepcion) }]
      : []),
    ...(record.motivo_rechazo ? [{ label: "Motivo", value: String(record.motivo_rechazo) }] : []),
    ...(Array.isArray(record.politica_incumplida)
      ? [
          { label: "Fuera de la política de gastos", value: record.politica_incumplida.join(" ") },
          { label: "Motivo para salirse de la política", value: String(record.motivo_politica ?? "—") },
        ]
      : []),
    ...(record.fecha_pago ? [{ label: "Fecha de pago", value: show(CAMPOS_FLUJO[5]!, record.fecha_pago) }] : []),
    ...(record.referencia_pago ? [{ label: "Referencia de pago", value: String(record.referencia_pago) }] : []),
    { label: "Creado", value: formatTimestamp(String(record.creado_en), formats) },
  ];
  return (
    <section id="gasto" className="panel panel-gasto" aria-labelledby="gasto-titulo" tabIndex={-1} data-foco-panel>
      <p className="cerrar-panel">
        <Link to={cerrar}>Cerrar el gasto y volver a la lista</Link>
      </p>
      <h2 id="gasto-titulo">
        Gasto {folio} <span className={`insignia insignia-${estado}`}>{estadoLabel(estado)}</span>
      </h2>
      {flash && flashDeLaFicha(flash) ? <Flash flash={flash} /> : null}
      {panel.remesa ? (
        <p>
          <Link to={`/remesas/${panel.remesa.id}`}>
            Ver la remesa {panel.remesa.folio} ({panel.remesa.estado})
          </Link>
        </p>
      ) : null}
      {record.viaje_id ? (
        // A trip's gastos are added from the trip, one by one: the way back for the next one, or to send it whole.
        <p>
          <Link to={`/viajes/${String(record.viaje_id)}`}>Ver el viaje «{String(record.viaje_titulo)}»</Link>
        </p>
      ) : null}
      {data?.deleteError ? (
        <div className="aviso aviso-error" role="alert">
          {data.deleteError}
        </div>
      ) : null}
      {panel.confirmarEliminar ? (
        <section className="confirmar" aria-labelledby="confirmar-titulo">
          <h3 id="confirmar-titulo">¿Eliminar el gasto {folio}?</h3>
          <p>Esta acción no se puede deshacer.</p>
          <FormEliminar version={record.version} id={record.id} action={action} cancelHref={aqui} />
        </section>
      ) : null}
      {panel.separacion ? <p className="aviso">{panel.separacion}</p> : null}
      {panel.acciones.length > 0 ? (
        <section aria-labelledby="gasto-acciones" className="acciones-flujo">
          <h3 id="gasto-acciones">Acciones</h3>
          {panel.acciones.includes("aprobar") && panel.antesDeAprobar.length ? (
            <div className="aviso aviso-aviso">
              <p>Antes de aprobar:</p>
              <ul>
                {panel.antesDeAprobar.map((aviso) => (
                  <li key={aviso}>{aviso}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {panel.acciones.map((intent) => {
            const accion = accionDeRegistro(gastos, intent);
            return accion ? (
              <AccionDelGasto
                key={intent}
                accion={accion}
                record={record}
                lastResult={data?.intent === intent ? data.result : undefined}
                hoy={panel.hoy}
                action={action}
                duplicado={panel.justificantes.some((j) => j.duplicado)}
                fueraDePolitica={panel.fueraDePolitica}
                antesDeEnviar={panel.antesDeEnviar}
              />
            ) : null;
          })}
        </section>
      ) : null}
      <dl className="ficha">
        {ficha.map((item) => (
          <div key={item.label}>
            <dt>{item.label}</dt>
            <dd>{item.value || "—"}</dd>
          </div>
        ))}
      </dl>
      {copiar ? (
        <p>
          <Link to={copiar}>{nuevoComoEste(gastos)}</Link>
        </p>
      ) : null}
      {panel.altaProveedor ? (
        <p>
          <Link to={panel.altaProveedor.href}>Dar de alta «{panel.altaProveedor.nombre}» como proveedor</Link>
        </p>
      ) : null}
      <Justificantes
        gastoId={String(record.id)}
        justificantes={panel.justificantes}
        adjuntar={panel.adjuntar}
        confirmarQuitar={panel.confirmarQuitar}
        aqui={aqui}
        locale={formats.locale}
      />
      {panel.editar ? (
        <EditForm
          entity={gastos}
          record={data?.intent === "guardar" && data.current ? data.current : record}
          options={sinInactivos(options, inactivos, record.proveedor_id)}
          actionData={data?.intent === "guardar" ? data : undefined}
          volver={aqui}
          campos={panel.campos}
          // A refused save lands on its error summary, not at the top of the panel, far above it.
          action={action ? `${action.split("#")[0]}#${EDITAR_ERRORES}` : undefined}
        />
      ) : null}
      {panel.eliminar && !panel.confirmarEliminar ? (
        <p>
          <Link to={`${aqui}${aqui.includes("?") ? "&" : "?"}eliminar=1#gasto`} className="boton peligro">
            Eliminar gasto…
          </Link>
        </p>
      ) : null}
      <History
        entries={panel.history}
        fields={[...gastos.fields, ...CAMPOS_FLUJO]}
        formats={formats}
        show={show}
        labels={{
          nota: "Nota",
          justificantes: "Justificantes",
          motivo_duplicado: "Motivo del duplicado",
          politica_incumplida: "Fuera de la política de gastos",
          motivo_politica: "Motivo para salirse de la política",
          desglose_revisar: "Desglose de IVA por revisar",
        }}
      />
    </section>
  );
}

/** Whether the record's choice (its class) is one the field is for. */
const aplica = (f: Field, record: Record<string, unknown>) => f.aplicaSi === undefined || eligio(f.aplicaSi, record);

/** What the form does not show of a kilometraje or a dieta: the importe Oficina computed, and how. */
const calculado = (f: Field, record: Record<string, unknown>) =>
  (f.name === "importe" && !aplica(f, record)) || f.name === "irpf_explicacion";

/**
 * The importe always (typed or computed); each class's own fields only for it; the typed issuer
 * only when there is one (otherwise the supplier is the issuer); non-taxed amounts when not 0;
 * the reverse charge when marked.
 */
function enLaFicha(f: Field, record: Record<string, unknown>) {
  const campo = f.name;
  if (campo === "importe") return true;
  // The database keeps another class's fields empty.
  if (!aplica(f, record)) return false;
  if (campo === "viaje_id") return Boolean(record.viaje_id);
  if (campo === "emisor_nif" || campo === "emisor_nombre" || campo === "emisor_pais") return Boolean(record.emisor_nif);
  if (campo === "otros_no_sujetos") return record.otros_no_sujetos !== "0.00";
  // Said when it applies, as the non-taxed amounts: on every other gasto it would only read «No».
  if (campo === "inversion_sujeto_pasivo") return record.inversion_sujeto_pasivo === true;
  return true;
}

/** interno.deducibilidad's reason for an issuer of another country (20261212000001_datos_fiscales.sql). */
const IVA_DE_OTRO_PAIS = "IVA de otro país: se pide su devolución a ese país, no se deduce aquí";

/**
 * «IVA deducible: 12,40 €» (and why not all of it, if part), or «IVA no deducible» and why
 * (gastos_vista: interno.deducibilidad), what an aprobador reads before approving. Before
 * approval, a foreign issuer's IVA also says the likelier case: a service invoiced without IVA,
 * whose importe Oficina would otherwise split into a base and an IVA nobody paid; and the
 * reverse charge marked for a Spanish issuer, the likelier mistake the other way.
 */
export function ivaDeducible(record: Record<string, unknown>, formats: Formats) {
  const motivo = typeof record.iva_motivo === "string" ? record.iva_motivo : null;
  const importe = String(record.iva_deducible ?? "0.00");
  if (motivo === "Sin IVA soportado") return { label: "IVA", value: motivo };
  const antesDeAprobar = ["borrador", "pendiente"].includes(String(record.estado));
  // Within Spain the reverse charge is for a few trades only: an invoice with IVA marked so by
  // mistake would take its importe for the base and declare an IVA already paid.
  const aviso =
    antesDeAprobar && record.inversion_sujeto_pasivo === true && record.emisor_pais_efectivo === "ES"
      ? " Inversión del sujeto pasivo con un emisor de España: solo en operaciones contadas (obras, oro, chatarra, móviles…); si la factura lleva IVA, desmárquela."
      : "";
  if (motivo === IVA_DE_OTRO_PAIS && importe === "0.00" && antesDeAprobar)
    return {
      label: "IVA no deducible",
      value: `${motivo}. Si la factura no lleva IVA (un servicio que un proveedor de otro país factura a la empresa), es inversión del sujeto pasivo, que se marca en «Datos fiscales».`,
    };
  if (motivo && importe === "0.00") return { label: "IVA no deducible", value: motivo };
  const deducible = formatMoney(importe, formats.locale);
  const value = motivo ? `${deducible}. ${motivo}` : deducible;
  return { label: "IVA deducible", value: aviso ? `${value}.${aviso}` : value };
}

/**
 * Keyboard focus with JavaScript (without it the browser does this by itself): opening a gasto
 * (`…#gasto`) moves focus to its panel, and after an action whose button is gone (Aprobar once
 * approved), focus goes back to the panel rather than being lost on the page.
 */
function useFocoPanel(id: string, version: number) {
  const location = useLocation();
  const previo = useRef<{ id: string; version: number } | null>(null);
  useEffect(() => {
    const panel = document.querySelector<HTMLElement>("[data-foco-panel]");
    const antes = previo.current;
    previo.current = { id, version };
    if (!panel) return;
    const abierto = (!antes || antes.id !== id) && location.hash === "#gasto";
    const perdido =
      antes?.id === id &&
      antes.version !== version &&
      (document.activeElement === document.body || document.activeElement === null);
    if (abierto || perdido) panel.focus();
  }, [id, version, location.hash]);
}

function estadoLabel(estado: string) {
  return ESTADOS_GASTO.find((e) => e.value === estado)?.label ?? estado;
}

/**
 * One workflow button of the panel (the entity's record action) as its own form, posting the
 * gasto's id to the list's URL. «Enviar a aprobación» asks «Motivo del duplicado» only when a
 * receipt is also on another gasto, and the policy's motivo only when the gasto is outside its
 * policy (listed first), or either when the database refused the send for lack of it (the field
 * then carries the error and what was typed). A payment's date starts at today.
 */
export function AccionDelGasto({
  accion,
  record,
  lastResult,
  hoy,
  action,
  duplicado,
  fueraDePolitica,
  antesDeEnviar,
}: {
  accion: RecordAction;
  record: Row;
  lastResult?: SubmissionResult<string[]>;
  hoy: string;
  action?: string;
  /** A receipt of this gasto is also on another gasto this person sees (asks «Motivo del duplicado»). */
  duplicado: boolean;
  /** What the borrador breaks of its spending policy (asks for the motivo to send it anyway). */
  fueraDePolitica: readonly string[];
  /** What else its sender should know first (no receipt, a meal the day of a dieta): no motivo asked. */
  antesDeEnviar: readonly string[];
}) {
  return (
    <AccionForm
      accion={accion}
      record={record}
      lastResult={lastResult}
      idForm={`${accion.intent}-gasto`}
      action={action}
      conId
      defaultValue={accion.intent === "pagar" ? { fecha_pago: hoy } : undefined}
      mostrar={(f) => (f === MOTIVO_DUPLICADO ? duplicado : f === MOTIVO_POLITICA ? fueraDePolitica.length > 0 : true)}
    >
      {accion.intent === "enviar" && fueraDePolitica.length ? (
        <div className="aviso aviso-aviso">
          <p>Este gasto se sale de la política de gastos:</p>
          <ul>
            {fueraDePolitica.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
          <p>Puede enviarlo igualmente, con el motivo.</p>
        </div>
      ) : null}
      {accion.intent === "enviar" && antesDeEnviar.length ? (
        <div className="aviso aviso-aviso">
          <p>Antes de enviarlo:</p>
          <ul>
            {antesDeEnviar.map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </AccionForm>
  );
}

/**
 * A form's options without inactive suppliers (choosing one is refused, by the database too), but
 * with `actual`, the one a borrador already has, so saving it does not clear it.
 */
export function sinInactivos(options: Options, inactivos: readonly string[], actual?: unknown): Options {
  const proveedores = options.proveedores;
  if (!proveedores || !inactivos.length) return options;
  const fuera = new Set(inactivos.filter((id) => id !== actual));
  return {
    ...options,
    proveedores: { ...proveedores, options: proveedores.options.filter((o) => !fuera.has(o.value)) },
  };
}
