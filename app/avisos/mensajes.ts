import { CONTROL } from "~/entities/fields";
import { formatDate } from "~/lib/dates";
import { formatMoney } from "~/lib/money";
import { escaparHtml } from "~/lib/html";

/**
 * What each aviso says, in the app and by mail (docs/producto.md «Avisos»). Plain data in, Spanish text
 * out: the delivery worker and the avisos page share these sentences.
 */
export type TipoAviso = "enviado" | "aprobado" | "rechazado" | "pagado" | "revertido";
export const TIPOS_AVISO: readonly TipoAviso[] = ["enviado", "aprobado", "rechazado", "pagado", "revertido"];

export type DatosAviso = {
  folio: string;
  descripcion: string;
  importe: string | number;
  solicitante?: string;
  motivo?: string;
  fecha_pago?: string;
  referencia_pago?: string;
  /** The remesa whose confirmation paid it (a bank transfer), when it was paid that way. */
  remesa?: string;
  /** The supplier that transfer went to (an invoice paid to them): the solicitante is not paid. */
  proveedor?: string;
};

/**
 * A bank account changed: the last four characters of the new IBAN (none: it was removed) and
 * who changed it, when it was not the reader. `cuenta`: the one the reader is paid to
 * (`datos_bancarios_avisar`); `cuenta_proveedor`: a supplier's, told to the other
 * administradores (`proveedores_pago_avisar`). Always by mail too: no choice in the preferences.
 */
export type DatosCuenta = { final?: string; autor?: string };
export type DatosCuentaProveedor = DatosCuenta & { proveedor: string; proveedor_id: string };

export type AvisoDeGasto = { tipo: TipoAviso; gasto_id: string | null; datos: DatosAviso };
export type AvisoDeCuenta =
  | { tipo: "cuenta"; gasto_id: null; datos: DatosCuenta }
  | { tipo: "cuenta_proveedor"; gasto_id: null; datos: DatosCuentaProveedor };
export type Aviso = AvisoDeGasto | AvisoDeCuenta;
export const esDeCuenta = (a: Aviso): a is AvisoDeCuenta => a.tipo === "cuenta" || a.tipo === "cuenta_proveedor";

/** What a person chooses per kind of aviso, in the preferences form. */
export const ETIQUETA_TIPO: Record<TipoAviso, string> = {
  enviado: "Un gasto espera su aprobación",
  aprobado: "Su gasto se aprueba",
  rechazado: "Su gasto se rechaza",
  pagado: "Su gasto se paga",
  revertido: "Se revierte la aprobación de su gasto",
};

/** Who reads the message, and how numbers and dates are written for them. */
export type Lector = { id: string; nombre: string; appUrl: string; locale: string; currency: string };
type Formato = Pick<Lector, "locale" | "currency">;

const CONTROLES = new RegExp(`(?:${CONTROL.source})+`, "g");
/**
 * What someone typed, on one line: a line break (a motivo may have some; older records may hold
 * them anywhere) or another control character becomes a space, so no text of theirs can start a
 * line of the mail and pose as our own words.
 */
export const cita = (s: string) => s.replace(CONTROLES, " ").trim();

const importe = (d: DatosAviso, f: Formato) => formatMoney(String(d.importe), f.locale, f.currency);

/**
 * A name someone typed, set apart as theirs and cut short: in a warning about fraud, a name like
 * «… ya confirmado por teléfono» must not read as our own words.
 */
const nombrado = (s: string) => {
  const t = cita(s);
  return `«${t.length > 80 ? `${t.slice(0, 79)}…` : t}»`;
};

/** «Ana Ruiz (ana@…) ha cambiado la cuenta en la que cobra sus reembolsos: ahora termina en 1234». */
function tituloCuenta(a: AvisoDeCuenta): string {
  const d = a.datos;
  const quien = d.autor ? `${cita(d.autor)} ha` : "Ha";
  const cuenta =
    a.tipo === "cuenta" ? "la cuenta en la que cobra sus reembolsos" : `la cuenta de ${nombrado(a.datos.proveedor)}`;
  return d.final ? `${quien} cambiado ${cuenta}: ahora termina en ${cita(d.final)}` : `${quien} quitado ${cuenta}`;
}

/** One line: «GAS-2026-00012 «Taxi aeropuerto» (45,20 €) espera su aprobación: lo envió Elena Gil». */
export function titulo(a: Aviso, f: Formato): string {
  if (esDeCuenta(a)) return tituloCuenta(a);
  const d = a.datos;
  const gasto = `${d.folio} «${cita(d.descripcion)}» (${importe(d, f)})`;
  switch (a.tipo) {
    case "enviado":
      return `${gasto} espera su aprobación${d.solicitante ? `: lo envió ${cita(d.solicitante)}` : ""}`;
    case "aprobado":
      return `Su gasto ${gasto} está aprobado`;
    case "rechazado":
      return `Su gasto ${gasto} se ha rechazado`;
    case "pagado":
      return d.remesa ? `Su gasto ${gasto} se ha pagado ${porTransferencia(d)}` : `Su gasto ${gasto} está pagado`;
    case "revertido":
      return `Se ha revertido la aprobación de su gasto ${gasto}`;
  }
}

/** «por transferencia», or «por transferencia al proveedor «…»» when it was not paid to the reader. */
const porTransferencia = (d: DatosAviso) =>
  `por transferencia${d.proveedor ? ` al proveedor ${nombrado(d.proveedor)}` : ""}`;

/** The details under the title: the motivo, the payment. */
export function detalle(a: Aviso, f: Formato): string | null {
  if (a.tipo === "cuenta") {
    // Whoever changed it may be the one to avoid: another administrador is who to tell.
    const avise = a.datos.autor
      ? "Si no lo ha pedido usted, avise enseguida a otro administrador"
      : "Si no ha sido usted, avise enseguida a un administrador";
    return a.datos.final
      ? `${avise}: la próxima remesa le pagaría en esa cuenta.`
      : `${avise}. Sin cuenta, sus reembolsos no van en las remesas hasta que indique una.`;
  }
  // Changed bank details are how invoices get paid to a fraudster: checked by a call, not a reply.
  if (a.tipo === "cuenta_proveedor")
    return "Antes de pagarle, confírmelo con el proveedor por un teléfono que ya tuviera, no por el correo que pidió el cambio.";
  const d = a.datos;
  if ((a.tipo === "rechazado" || a.tipo === "revertido") && d.motivo) return `Motivo: «${cita(d.motivo)}»`;
  if (a.tipo === "pagado" && d.fecha_pago && d.remesa)
    return `Transferencia del ${formatDate(d.fecha_pago, f.locale)}, remesa ${cita(d.remesa)}`;
  if (a.tipo === "pagado" && d.fecha_pago)
    return `Pagado el ${formatDate(d.fecha_pago, f.locale)}${d.referencia_pago ? `, referencia «${cita(d.referencia_pago)}»` : ""}`;
  return null;
}

const asuntoCuenta = (a: AvisoDeCuenta) =>
  a.tipo === "cuenta"
    ? "Cambio en la cuenta en la que cobra sus reembolsos"
    : `Cambio en la cuenta de un proveedor: ${nombrado(a.datos.proveedor)}`;
const ASUNTO: Record<TipoAviso, (d: DatosAviso) => string> = {
  enviado: (d) => `${d.folio} espera su aprobación`,
  aprobado: (d) => `Su gasto ${d.folio} está aprobado`,
  rechazado: (d) => `Su gasto ${d.folio} se ha rechazado`,
  pagado: (d) =>
    d.remesa ? `Su gasto ${d.folio} se ha pagado ${porTransferencia(d)}` : `Su gasto ${d.folio} está pagado`,
  revertido: (d) => `Se ha revertido la aprobación de ${d.folio}`,
};

export type Correo = { subject: string; text: string; html: string };
export type Pendiente = {
  id: string;
  folio: string;
  descripcion: string;
  importe: string;
  solicitante: string;
  fecha_gasto: string;
};

function mensaje(
  subject: string,
  saludo: string,
  lineas: { texto: string; detalle?: string | null; enlace?: string }[],
  pie: string,
): Correo {
  const text = [
    saludo,
    "",
    ...lineas.flatMap((l) => [
      `- ${l.texto}`,
      ...(l.detalle ? [`  ${l.detalle}`] : []),
      ...(l.enlace ? [`  ${l.enlace}`] : []),
    ]),
    "",
    pie,
  ].join("\n");
  const html = [
    `<p>${escaparHtml(saludo)}</p>`,
    "<ul>",
    ...lineas.map(
      (l) =>
        `<li>${l.enlace ? `<a href="${escaparHtml(l.enlace)}">${escaparHtml(l.texto)}</a>` : escaparHtml(l.texto)}` +
        `${l.detalle ? `<br>${escaparHtml(l.detalle)}` : ""}</li>`,
    ),
    "</ul>",
    `<p>${escaparHtml(pie)}</p>`,
  ].join("\n");
  return { subject, text, html };
}

/** The gasto's panel, at its anchor: on a phone the panel is far below the list's filters. */
const enlaceGasto = (appUrl: string, id: string | null) => (id ? `${appUrl}/gastos?gasto=${id}#gasto` : undefined);
/** Where the changed account is seen: the reader's own page, or the supplier's. */
export const enlaceCuenta = (a: AvisoDeCuenta, usuarioId: string) =>
  a.tipo === "cuenta" ? `/usuarios/${usuarioId}#titulo-datos-bancarios` : `/proveedores/${a.datos.proveedor_id}`;
/** The footer: what may be turned off, and where (account changes may not). */
const pie = (appUrl: string, avisos: readonly Aviso[] = []) =>
  avisos.length > 0 && avisos.every(esDeCuenta)
    ? `Los cambios de una cuenta bancaria se avisan siempre por correo; los demás avisos se eligen en sus preferencias: ${preferencesUrl(appUrl)}`
    : `Puede elegir qué avisos recibe por correo en sus preferencias: ${preferencesUrl(appUrl)}`;

/** Where the footer and List-Unsubscribe (not on account changes) lead: the person's avisos preferences. */
export function preferencesUrl(appUrl: string) {
  return `${appUrl}/avisos/preferencias`;
}

/**
 * One mail for the avisos that went out together (a bulk approval gives one mail per person, not
 * one per gasto).
 */
export function correoDeAvisos(avisos: readonly Aviso[], o: Lector): Correo {
  const lineas = avisos.map((a) => ({
    texto: titulo(a, o),
    detalle: detalle(a, o),
    enlace: esDeCuenta(a) ? `${o.appUrl}${enlaceCuenta(a, o.id)}` : enlaceGasto(o.appUrl, a.gasto_id),
  }));
  if (avisos.length === 1) {
    const a = avisos[0]!;
    const asunto = esDeCuenta(a) ? asuntoCuenta(a) : ASUNTO[a.tipo](a.datos);
    return mensaje(asunto, `Hola, ${cita(o.nombre)}:`, lineas, pie(o.appUrl, avisos));
  }
  return mensaje(
    avisos.some(esDeCuenta) ? `${avisos.length} avisos` : `${avisos.length} avisos de sus gastos`,
    `Hola, ${cita(o.nombre)}. Tiene ${avisos.length} avisos:`,
    lineas,
    pie(o.appUrl, avisos),
  );
}

/** The daily digest: «Tiene N gastos pendientes de aprobar», oldest first. */
export function correoResumen(pendientes: readonly Pendiente[], total: number, o: Lector): Correo {
  const n = total === 1 ? "1 gasto pendiente" : `${total} gastos pendientes`;
  const lineas = pendientes.map((p) => ({
    texto: `${p.folio} «${cita(p.descripcion)}» (${formatMoney(p.importe, o.locale, o.currency)}), de ${cita(p.solicitante)}, del ${formatDate(p.fecha_gasto, o.locale)}`,
    enlace: enlaceGasto(o.appUrl, p.id),
  }));
  if (total > pendientes.length)
    lineas.push({ texto: `Y ${total - pendientes.length} más`, enlace: `${o.appUrl}/gastos?vista=pendientes` });
  return mensaje(
    `Tiene ${n} de aprobar`,
    `Hola, ${cita(o.nombre)}. Tiene ${n} de aprobar, los más antiguos primero:`,
    lineas,
    pie(o.appUrl),
  );
}
