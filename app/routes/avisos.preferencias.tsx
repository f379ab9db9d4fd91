import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/session.server";
import { ETIQUETA_TIPO, TIPOS_AVISO, type Aviso, type TipoAviso } from "~/avisos/mensajes";
import { motivoEntrega } from "~/avisos/motivo-entrega";
import { UUID, type Store } from "~/data/store";
import { forbidden, redirectWithFlash } from "~/crud/respuestas.server";
import { formatTimestamp } from "~/lib/format";
import { SubmitIntent } from "~/ui/forms";
import { ErrorDeCampo } from "~/ui/ErrorDeCampo";
import { CeldaDeAcciones, Encabezados } from "~/ui/TablaTarjetas";
import { pageTitle, useFormats } from "~/ui/page";

/**
 * `/avisos/preferencias` — how each kind of aviso reaches this person (docs/producto.md «Avisos»): by mail
 * (and in the app), only in the app, or not at all; aprobadores may take one daily digest instead
 * of a mail per gasto. Administradores also set the defaults for everyone and see the mails that
 * could not be delivered (why, in plain words, and the server's own error), and send each again
 * or discard it. The mails' List-Unsubscribe leads here (not a mail of an account change, which
 * cannot be turned off).
 */
type Canal = "correo" | "app" | "nada";
const CANALES: readonly { value: Canal; label: string }[] = [
  { value: "correo", label: "Por correo y en la aplicación" },
  { value: "app", label: "Solo en la aplicación" },
  { value: "nada", label: "No avisarme" },
];
const HORAS = Array.from({ length: 24 }, (_, h) => h);

/** What each undelivered mail's row offers, each button named with the mail it acts on. */
const ACCIONES_CORREO: readonly { intent: "reintentar" | "descartar"; texto: string; className?: string }[] = [
  { intent: "reintentar", texto: "Reintentar" },
  { intent: "descartar", texto: "Descartar", className: "secundario" },
];
type Fallido = {
  id: string;
  destinatario: string;
  tipo: Aviso["tipo"] | null;
  folio: string | null;
  resumen_fecha: string | null;
  intentos: number;
  ultimo_error: string | null;
  creado_en: string;
};

/**
 * The kinds this person chooses how to receive: an empleado never approves, so «Un gasto espera
 * su aprobación» is not offered (a choice made before stays, for the day they approve).
 */
const tiposDe = (rol: string): readonly TipoAviso[] =>
  rol === "empleado" ? TIPOS_AVISO.filter((t) => t !== "enviado") : TIPOS_AVISO;

type Propias = {
  canales: Record<TipoAviso, Canal>;
  predeterminados: Record<TipoAviso, Canal>;
  resumen_hora: number | null;
};
const propiasDe = (store: Store) => store.rpc<Propias>("preferencias_avisos_propias", {}, { reads: true });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, store } = await requireUser(request, context);
  const admin = user.rol === "administrador";
  const [propias, fallidos] = await Promise.all([
    propiasDe(store),
    admin ? store.rpc<Fallido[]>("correos_fallidos", {}, { reads: true }) : Promise.resolve(null),
  ]);
  return {
    tipos: tiposDe(user.rol),
    canales: propias.canales,
    porDefecto: propias.predeterminados,
    resumenHora: propias.resumen_hora,
    puedeResumen: user.rol !== "empleado",
    admin,
    fallidos,
  };
}

function leerCanales(form: FormData, prefijo: string, tipos: readonly TipoAviso[]) {
  const canales: Partial<Record<TipoAviso, Canal>> = {};
  const errores: Record<string, string> = {};
  for (const t of tipos) {
    const v = form.get(`${prefijo}${t}`);
    if (v === "correo" || v === "app" || v === "nada") canales[t] = v;
    else errores[`${prefijo}${t}`] = `Elija cómo quiere el aviso «${ETIQUETA_TIPO[t]}».`;
  }
  return { canales, errores };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, store } = await requireUser(request, context);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "predeterminados" || intent === "reintentar" || intent === "descartar") {
    if (user.rol !== "administrador") forbidden("Solo un administrador cambia los avisos predeterminados.");
    if (intent === "reintentar" || intent === "descartar") {
      // One mail (`correo`, its row's button) or, without it, every undelivered one (retry only).
      const correo = String(form.get("correo") ?? "");
      if (correo && !UUID.test(correo)) throw json({ message: "Ese correo no existe." }, { status: 400 });
      if (intent === "descartar" && !correo) throw json({ message: "Indique qué correo descartar." }, { status: 400 });
      const ids = correo ? [correo] : null;
      const n =
        intent === "reintentar"
          ? await store.rpc<number>("reintentar_correos_fallidos", { p_ids: ids })
          : await store.rpc<number>("descartar_correos_fallidos", { p_ids: ids });
      const mensaje =
        n === 0
          ? correo
            ? "Ese correo ya no está entre los no entregados: otra persona lo reintentó o lo descartó."
            : "No queda ningún correo sin entregar: otra persona ya los reintentó o los descartó."
          : intent === "descartar"
            ? "Correo descartado: no se enviará. El aviso sigue en la aplicación."
            : n === 1
              ? "1 correo se enviará de nuevo."
              : `${n} correos se enviarán de nuevo.`;
      return redirectWithFlash(context, request, "/avisos/preferencias#fallidos", mensaje, n === 0 ? "aviso" : "exito");
    }
    const { canales, errores } = leerCanales(form, "defecto_", TIPOS_AVISO);
    if (Object.keys(errores).length) return json({ errores }, { status: 400 });
    await store.rpc("guardar_avisos_predeterminados", { p_canales: canales });
    return redirectWithFlash(context, request, "/avisos/preferencias", "Avisos predeterminados guardados.");
  }
  const tipos = tiposDe(user.rol);
  const { canales, errores } = leerCanales(form, "", tipos);
  const rawHora = String(form.get("resumen_hora") ?? "");
  const hora = rawHora === "" ? null : /^\d{1,2}$/.test(rawHora) && Number(rawHora) <= 23 ? Number(rawHora) : NaN;
  if (Number.isNaN(hora)) errores.resumen_hora = "Elija una hora de la lista o «Sin resumen diario».";
  if (hora !== null && user.rol === "empleado")
    errores.resumen_hora = "El resumen diario es para quien aprueba gastos.";
  if (Object.keys(errores).length) return json({ errores }, { status: 400 });
  // Saving replaces every choice: one not offered here is kept if it was made (differs from the default).
  const ocultos = TIPOS_AVISO.filter((t) => !tipos.includes(t));
  if (ocultos.length) {
    const propias = await propiasDe(store);
    for (const t of ocultos) if (propias.canales[t] !== propias.predeterminados[t]) canales[t] = propias.canales[t];
  }
  await store.rpc("guardar_preferencias_avisos", { p_canales: canales, p_resumen_hora: hora });
  return redirectWithFlash(context, request, "/avisos/preferencias", "Preferencias de avisos guardadas.");
}

function CanalesFieldsets({
  tipos,
  prefijo,
  valores,
  errores,
}: {
  tipos: readonly TipoAviso[];
  prefijo: string;
  valores: Record<string, Canal>;
  errores?: Record<string, string>;
}) {
  return tipos.map((t) => {
    const name = `${prefijo}${t}`;
    const error = errores?.[name];
    return (
      <fieldset
        key={t}
        className={error ? "campo campo-con-error" : "campo"}
        aria-describedby={error ? `${name}-error` : undefined}
      >
        <legend>{ETIQUETA_TIPO[t]}</legend>
        <ErrorDeCampo id={`${name}-error`}>{error}</ErrorDeCampo>
        {CANALES.map((c) => (
          <label key={c.value} className="campo-casilla">
            <input type="radio" name={name} value={c.value} defaultChecked={valores[t] === c.value} /> {c.label}
          </label>
        ))}
      </fieldset>
    );
  });
}

export default function PreferenciasAvisos() {
  const { tipos, canales, porDefecto, resumenHora, puedeResumen, admin, fallidos } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const errores = data?.errores;
  const formats = useFormats();
  return (
    <>
      <nav aria-label="Migas de pan" className="migas">
        <Link to="/avisos">Avisos</Link>
      </nav>
      <h1>Preferencias de avisos</h1>
      <p className="intro">
        {admin
          ? "Los cambios de la cuenta en la que cobra sus reembolsos, y los de la cuenta de un proveedor, se avisan siempre, también por correo: así se sabe a tiempo de un cambio que nadie pidió."
          : "Los cambios de la cuenta en la que cobra sus reembolsos se avisan siempre, también por correo: así sabe a tiempo de un cambio que usted no pidió."}
      </p>
      {errores ? (
        <div className="resumen-errores" role="alert" tabIndex={-1}>
          <h2>Revise lo marcado</h2>
          <ul>
            {Object.entries(errores).map(([k, v]) => (
              <li key={k}>
                <a href={`#${k}-error`}>{v}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Form method="post" className="formulario" id="avisos">
        <CanalesFieldsets tipos={tipos} prefijo="" valores={canales} errores={errores} />
        {puedeResumen ? (
          <div className={errores?.resumen_hora ? "campo campo-con-error" : "campo"}>
            <label htmlFor="resumen_hora">Resumen diario de gastos pendientes de aprobar</label>
            <p className="ayuda" id="resumen_hora-ayuda">
              Con resumen, los gastos que esperan su aprobación no le llegan uno a uno por correo: recibe uno al día con
              todos, los más antiguos primero. En la aplicación los sigue viendo al momento.
            </p>
            <ErrorDeCampo id="resumen_hora-error">{errores?.resumen_hora}</ErrorDeCampo>
            <select
              id="resumen_hora"
              name="resumen_hora"
              defaultValue={resumenHora === null ? "" : String(resumenHora)}
              aria-describedby={`resumen_hora-ayuda${errores?.resumen_hora ? " resumen_hora-error" : ""}`}
            >
              <option value="">Sin resumen diario</option>
              {HORAS.map((h) => (
                <option key={h} value={h}>
                  Cada día a las {String(h).padStart(2, "0")}:00
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <SubmitIntent intent="guardar">Guardar preferencias</SubmitIntent>
      </Form>
      {admin ? (
        <>
          <h2>Avisos predeterminados</h2>
          <p className="intro">
            Lo que recibe quien no ha elegido. Cada persona puede cambiarlo en estas preferencias.
          </p>
          <Form method="post" className="formulario">
            <CanalesFieldsets tipos={TIPOS_AVISO} prefijo="defecto_" valores={porDefecto} errores={errores} />
            <SubmitIntent intent="predeterminados">Guardar predeterminados</SubmitIntent>
          </Form>
          <h2 id="fallidos">Correos no entregados</h2>
          {fallidos && fallidos.length > 0 ? (
            <>
              <div className="tabla-contenedor">
                <table>
                  <caption className="visually-hidden">
                    Correos que no se pudieron entregar tras varios intentos
                  </caption>
                  <Encabezados
                    columnas={["Para", "Aviso", "Intentos", "Por qué no se entregó", "Escrito", "Acciones"].map(
                      (header) => ({ header }),
                    )}
                  />
                  <tbody>
                    {fallidos.map((f) => {
                      const que =
                        f.tipo === "cuenta"
                          ? "Cambio de su cuenta bancaria"
                          : f.tipo === "cuenta_proveedor"
                            ? "Cambio de la cuenta de un proveedor"
                            : f.tipo
                              ? `${ETIQUETA_TIPO[f.tipo]} (${f.folio})`
                              : "Resumen diario";
                      return (
                        <tr key={f.id}>
                          <td>{f.destinatario}</td>
                          <td>{que}</td>
                          <td>{f.intentos}</td>
                          <td>
                            {motivoEntrega(f.ultimo_error)}
                            {f.ultimo_error ? (
                              <details className="detalle-tecnico">
                                <summary>Detalle técnico</summary>
                                <code>{f.ultimo_error}</code>
                              </details>
                            ) : null}
                          </td>
                          <td>{formatTimestamp(f.creado_en, formats)}</td>
                          <CeldaDeAcciones
                            campo="correo"
                            valor={f.id}
                            botones={ACCIONES_CORREO}
                            etiqueta={(b) => `${b.texto} el correo a ${f.destinatario}: ${que}`}
                            className="acciones-fila"
                          />
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
              <Form method="post">
                <button type="submit" name="intent" value="reintentar">
                  Reintentar todos
                </button>
              </Form>
            </>
          ) : (
            <p>Ninguno: todos los correos se han entregado o están en camino.</p>
          )}
        </>
      ) : null}
    </>
  );
}

export const meta: MetaFunction = () => pageTitle("Preferencias de avisos");
