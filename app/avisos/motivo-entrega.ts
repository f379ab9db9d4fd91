/**
 * Why a mail was not delivered, in words an administrador can act on, from the error the mail
 * library or the mail server gave (kept as it came, shown under «Detalle técnico»). SMTP replies
 * carry their code (RFC 5321: 4xx try later, 5xx refused); network errors carry Node's code.
 */
const M = {
  rechazaConexion:
    "El servidor de correo no acepta conexiones: compruebe que está en marcha y que SMTP_URL apunta a él.",
  noEncontrado: "No se encuentra el servidor de correo: revise el nombre del servidor en SMTP_URL.",
  tls: "No se pudo abrir una conexión segura con el servidor de correo (certificado o TLS): revise el puerto y smtp:// o smtps:// en SMTP_URL.",
  sinRespuesta:
    "El servidor de correo no respondió a tiempo o cortó la conexión: suele ser pasajero; reintente más tarde.",
  credenciales: "El servidor de correo rechazó el usuario o la contraseña de SMTP_URL.",
  lleno: "El buzón del destinatario está lleno: reintente cuando lo haya vaciado.",
  noExiste:
    "El servidor del destinatario dice que esa dirección no existe o no admite correo: revise el correo de esta persona en su ficha.",
  politica:
    "El servidor de correo lo rechazó por su política (posible spam o remitente no autorizado): revise MAIL_FROM.",
  temporal: "El servidor de correo no lo admitió por ahora (un error temporal): reintente más tarde.",
};

/** An SMTP reply code where a reply starts, also inside the library's message («…rejected: 550 5.1.1 …»). */
const smtp = (codigos: string) => new RegExp(`(^|[\\s:])(${codigos})[\\s-]`);

/** The first that matches wins: words before codes (a «550» may say the mailbox is full). */
const MOTIVOS: readonly [RegExp, string][] = [
  [/ECONNREFUSED/, M.rechazaConexion],
  [/ENOTFOUND|EAI_AGAIN/, M.noEncontrado],
  [/certificate|self[- ]signed|\bTLS\b|\bSSL\b|wrong version number/i, M.tls],
  [/ETIMEDOUT|ESOCKET|ECONNRESET|timeout|Greeting never received/i, M.sinRespuesta],
  [/EAUTH|Invalid login/i, M.credenciales],
  [/mailbox full|quota|buzón lleno|insufficient storage/i, M.lleno],
  [/user unknown|no such user|mailbox unavailable|recipient address rejected|does not exist/i, M.noExiste],
  [/spam|blocked|blacklist|policy/i, M.politica],
  [smtp("53[0-8]"), M.credenciales],
  [smtp("452|552"), M.lleno],
  [smtp("55[013]"), M.noExiste],
  [smtp("554"), M.politica],
  [smtp("4\\d\\d"), M.temporal],
];

export function motivoEntrega(error: string | null): string {
  const e = (error ?? "").trim();
  if (!e) return "Sin detalle del servidor de correo.";
  return MOTIVOS.find(([patron]) => patron.test(e))?.[1] ?? "El servidor de correo lo rechazó: vea el detalle técnico.";
}
