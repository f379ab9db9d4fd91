/**
 * SEPA credit-transfer files (ISO 20022 CustomerCreditTransferInitiation, «pain.001») for a
 * remesa that pays approved expenses back: one PmtInf (one debit account, one execution date)
 * with one CdtTrfTxInf per transfer. Pure: no database, no clock except the default `hoy`, and
 * the same remesa always gives the same bytes.
 *
 * Two versions:
 * - pain.001.001.03, as the Spanish banks' common guide (AEB «Órdenes en formato ISO 20022 para
 *   emisión de transferencias y cheques en euros») and the banks' own adaptations describe it:
 *   `BIC`, `ReqdExctnDt` as a plain date, addresses as country + two free lines. Those lines are
 *   the unstructured address the EPC no longer carries: where an address is needed, use .09.
 * - pain.001.001.09, the version of the EPC SCT customer-to-PSP implementation guidelines in
 *   force: `BICFI`, `ReqdExctnDt/Dt`, and structured addresses only (the EPC no longer accepts
 *   address lines alone).
 */
import { DEFAULT_TIME_ZONE, formatDate, isISODate, todayISO } from "~/lib/dates";
import { dateTimeFormat } from "~/lib/intl";
import { normalizeIban, validateIban, ibanError } from "~/lib/iban";
import { fromCents, isMoneyString, toCents, formatMoney } from "~/lib/money";
import anyAscii from "any-ascii";
import { normalizeNif, validateNif } from "~/lib/nif";

export const FORMATOS_PAIN001 = ["pain.001.001.03", "pain.001.001.09"] as const;
export type FormatoPain001 = (typeof FORMATOS_PAIN001)[number];

export type Direccion = {
  calle: string;
  codigoPostal: string;
  ciudad: string;
  /** ISO 3166 alpha-2, "ES". */
  pais: string;
};

/** Either side of a transfer: its name, account and address are read and written alike. */
export type Titular = {
  nombre: string;
  iban: string;
  bic?: string;
  direccion?: Direccion;
};

export type Ordenante = Titular & {
  /** Spanish NIF of the company that pays (CIF, DNI or NIE). */
  nif: string;
  /** The three characters agreed with the bank for this NIF ("000" unless told otherwise). */
  sufijo: string;
};

export type Transferencia = {
  endToEndId: string;
  beneficiario: Titular;
  /** Canonical decimal string, "123.45" (app/lib/money.ts). */
  importe: string;
  /** What the beneficiary reads on the statement: the gastos' folios. At most 140 characters. */
  concepto: string;
};

export type Remesa = {
  /** The remesa's folio (REM-AAAA-NNNN): MsgId and PmtInfId. */
  mensajeId: string;
  creadaEn: Date;
  /** ISO date, ReqdExctnDt. */
  fechaEjecucion: string;
  ordenante: Ordenante;
  transferencias: Transferencia[];
};

export type OpcionesPain001 = {
  /** The office's today (ISO date) against which the execution date is checked; todayISO() by default. */
  hoy?: string;
};

/** A remesa that no bank would accept: `campo` says where («transferencias[2].importe»). */
export class RemesaNoValida extends Error {
  override readonly name = "RemesaNoValida";
  constructor(
    readonly campo: string,
    message: string,
  ) {
    super(message);
  }
}

/** EPC limit for one SCT: 999 999 999.99 euros. */
const IMPORTE_MAXIMO = toCents("999999999.99");

/**
 * SEPA countries outside the EEA: a transfer to one of their banks must carry the payer's address
 * (EU funds-transfer rules, repeated in the SCT rulebook), or the bank sends it back.
 */
const SEPA_FUERA_EEE = new Set("AD AL CH GB GG GI IM JE MC MD ME MK RS SM VA".split(" "));

/** The EEA (the EU and IS, LI, NO) by IBAN country: with SEPA_FUERA_EEE, where a SEPA transfer can go. */
const EEE = new Set(
  "AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IS IT LI LT LU LV MT NL NO PL PT RO SE SI SK".split(" "),
);

const NAMESPACE: Record<FormatoPain001, string> = {
  "pain.001.001.03": "urn:iso:std:iso:20022:tech:xsd:pain.001.001.03",
  "pain.001.001.09": "urn:iso:std:iso:20022:tech:xsd:pain.001.001.09",
};

/** BIC (ISO 9362): 4 characters (party), 2 letters (country), 2 (location), optional 3 (branch). */
const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** Where Spanish usage differs from a plain transliteration: « » are quotes, not «<<»; ¿ ¡ go; «1.°». */
const ANTES: Readonly<Record<string, string>> = { "«": "'", "»": "'", "¿": "", "¡": "", "°": "o" };

/** ASCII characters outside the EPC's Latin set, with their nearest allowed text («&» → «+», as usual in SEPA). */
const REEMPLAZOS: Readonly<Record<string, string>> = {
  "&": "+",
  "@": "(at)",
  _: "-",
  "~": "-",
  '"': "'",
  "`": "'",
  "<": "(",
  ">": ")",
  "[": "(",
  "]": ")",
  "{": "(",
  "}": ")",
  "\\": "/",
  "|": "/",
  ";": ",",
};

/** The EPC's Latin character set: a-z A-Z 0-9 / - ? : ( ) . , ' + and space. */
const LATIN_SEPA = /^[A-Za-z0-9/\-?:().,'+ ]$/;

/**
 * A text in the EPC's Latin character set, which every SEPA bank accepts and a bank checking the
 * payee's name against the account can compare: transliterated to ASCII (any-ascii: Peña → Pena,
 * Groß → Gross, Дмитрий → Dmitriy, Ελένη → Eleni), then «&» becomes «+», other characters their
 * nearest allowed one or «.», white space and control characters one space.
 */
export function textoSepa(s: string): string {
  // Pictographs (emoji) are dropped, not spelt out: any-ascii would write «:grinning:» into a name.
  const sinEmoji = String(s ?? "").replace(/[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{FE0F}]|\u{200D}/gu, "");
  const ascii = anyAscii([...sinEmoji].map((ch) => ANTES[ch] ?? ch).join(""));
  let out = "";
  for (const ch of ascii) {
    if (LATIN_SEPA.test(ch)) out += ch;
    else if (/[\s\p{Cc}]/u.test(ch)) out += " ";
    else out += REEMPLAZOS[ch] ?? ".";
  }
  return out.replace(/ {2,}/g, " ").trim();
}

function texto(s: string, max: number): string {
  return textoSepa(s).slice(0, max).trimEnd();
}

/**
 * An identifier (MsgId, PmtInfId, EndToEndId): Latin set, at most 35 characters, and, as the EPC
 * guidelines ask of references, neither starting nor ending with «/» nor containing «//».
 */
export function identificadorSepa(s: string): string {
  const limpio = (t: string) =>
    t
      .replace(/\/{2,}/g, "/")
      .replace(/^[/ ]+|[/ ]+$/g, "")
      .trim();
  return limpio(limpio(textoSepa(s)).slice(0, 35));
}

/**
 * The ordering party's identification in Spanish transfer files: NIF followed by the three-
 * character suffix agreed with the bank (12 characters, «NIF-Sufijo» in the AEB guide). Not the
 * SEPA creditor identifier of direct debits (ES + check digits + suffix + NIF).
 */
export function identificadorOrdenante(nif: string, sufijo: string): string {
  return normalizeNif(nif, "ES") + String(sufijo ?? "").toUpperCase();
}

/**
 * CreDtTm as the AEB guide writes it, AAAA-MM-DDThh:mm:ss, in the office's time zone: what the
 * bank's screens show next to the file.
 */
function fechaHoraLocal(d: Date): string {
  const partes = dateTimeFormat("en-CA", {
    timeZone: DEFAULT_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(d);
  const p = (tipo: Intl.DateTimeFormatPartTypes) => partes.find((x) => x.type === tipo)!.value;
  return `${p("year")}-${p("month")}-${p("day")}T${p("hour")}:${p("minute")}:${p("second")}`;
}

function escapar(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

type Nodo = { nombre: string; atributos?: Record<string, string>; hijos: (Nodo | null)[] | string };

function el(nombre: string, hijos: (Nodo | null)[] | string, atributos?: Record<string, string>): Nodo {
  return { nombre, hijos, atributos };
}

function serializar(nodo: Nodo, nivel: number, out: string[]): void {
  const sangria = "  ".repeat(nivel);
  const atributos = Object.entries(nodo.atributos ?? {})
    .map(([k, v]) => ` ${k}="${escapar(v)}"`)
    .join("");
  if (typeof nodo.hijos === "string") {
    out.push(`${sangria}<${nodo.nombre}${atributos}>${escapar(nodo.hijos)}</${nodo.nombre}>`);
    return;
  }
  out.push(`${sangria}<${nodo.nombre}${atributos}>`);
  for (const hijo of nodo.hijos) if (hijo) serializar(hijo, nivel + 1, out);
  out.push(`${sangria}</${nodo.nombre}>`);
}

function nombre(valor: string, campo: string, quien: string): string {
  const t = texto(valor, 70);
  if (!t) throw new RemesaNoValida(campo, `Falta el nombre ${quien}.`);
  return t;
}

function iban(valor: string, campo: string, quien: string): string {
  if (!validateIban(valor)) {
    const motivo = String(valor ?? "").trim() === "" ? "Falta." : ibanError(valor);
    throw new RemesaNoValida(campo, `El IBAN ${quien} no es válido. ${motivo}`);
  }
  return normalizeIban(valor);
}

function bic(valor: string | undefined, campo: string, quien: string): string | null {
  if (valor === undefined || valor.trim() === "") return null;
  const b = valor.replace(/\s/g, "").toUpperCase();
  if (!BIC.test(b))
    throw new RemesaNoValida(campo, `El BIC ${quien} no es válido: 8 u 11 letras y cifras, p. ej. CAIXESBBXXX.`);
  return b;
}

function direccion(d: Direccion | undefined, formato: FormatoPain001, campo: string, quien: string): Nodo | null {
  if (!d) return null;
  const pais = String(d.pais ?? "")
    .trim()
    .toUpperCase();
  if (!/^[A-Z]{2}$/.test(pais))
    throw new RemesaNoValida(
      `${campo}.pais`,
      `El país de la dirección ${quien} debe ser un código de dos letras, p. ej. ES.`,
    );
  const ciudad = texto(d.ciudad, 35);
  if (!ciudad) throw new RemesaNoValida(`${campo}.ciudad`, `Falta la población de la dirección ${quien}.`);
  const calle = texto(d.calle, 70);
  const codigoPostal = texto(d.codigoPostal, 16);
  if (formato === "pain.001.001.03") {
    // The AEB guide for this version: country and at most two free lines of 70.
    const segunda = texto(`${codigoPostal} ${ciudad}`, 70);
    return el("PstlAdr", [el("Ctry", pais), calle ? el("AdrLine", calle) : null, el("AdrLine", segunda)]);
  }
  // Structured: town and country always, street and postcode when known; never AdrLine.
  return el("PstlAdr", [
    calle ? el("StrtNm", calle) : null,
    codigoPostal ? el("PstCd", codigoPostal) : null,
    el("TwnNm", ciudad),
    el("Ctry", pais),
  ]);
}

function agente(b: string | null, formato: FormatoPain001, obligatorio: boolean): Nodo | null {
  const etiqueta = formato === "pain.001.001.03" ? "BIC" : "BICFI";
  if (b) return el("FinInstnId", [el(etiqueta, b)]);
  // The debtor agent is mandatory in the schema; without a BIC the EPC guidelines ask for this.
  return obligatorio ? el("FinInstnId", [el("Othr", [el("Id", "NOTPROVIDED")])]) : null;
}

/**
 * The pain.001 file of `remesa` in `formato`, as UTF-8 text (only ASCII in practice, every text
 * having been reduced to the EPC's Latin set). Throws RemesaNoValida, with a Spanish message, for a
 * remesa the bank would reject.
 */
export function pain001(remesa: Remesa, formato: FormatoPain001, opciones: OpcionesPain001 = {}): string {
  if (!FORMATOS_PAIN001.includes(formato))
    throw new RemesaNoValida(
      "formato",
      `Formato desconocido: ${String(formato)}. Use pain.001.001.03 o pain.001.001.09.`,
    );

  const msgId = identificadorSepa(remesa.mensajeId);
  if (!msgId) throw new RemesaNoValida("mensajeId", "Falta el folio de la remesa.");
  if (!(remesa.creadaEn instanceof Date) || Number.isNaN(remesa.creadaEn.getTime()))
    throw new RemesaNoValida("creadaEn", "La fecha de creación de la remesa no es válida.");
  const creDtTm = fechaHoraLocal(remesa.creadaEn);

  const fecha = remesa.fechaEjecucion;
  if (!isISODate(fecha))
    throw new RemesaNoValida("fechaEjecucion", "La fecha de ejecución no es una fecha válida (AAAA-MM-DD).");
  const hoy = opciones.hoy ?? todayISO();
  if (fecha < hoy)
    throw new RemesaNoValida(
      "fechaEjecucion",
      `La fecha de ejecución (${formatDate(fecha)}) ya ha pasado: elija hoy o un día posterior.`,
    );

  const o = remesa.ordenante;
  const nombreOrdenante = nombre(o.nombre, "ordenante.nombre", "del ordenante");
  const errorNif = validateNif(o.nif, "ES");
  if (errorNif) throw new RemesaNoValida("ordenante.nif", `El NIF del ordenante no es válido. ${errorNif}`);
  if (!/^[A-Za-z0-9]{3}$/.test(String(o.sufijo ?? "")))
    throw new RemesaNoValida(
      "ordenante.sufijo",
      "El sufijo del ordenante son 3 letras o cifras acordadas con el banco, normalmente 000.",
    );
  const ibanOrdenante = iban(o.iban, "ordenante.iban", "del ordenante");
  const bicOrdenante = bic(o.bic, "ordenante.bic", "del ordenante");
  const dirOrdenante = direccion(o.direccion, formato, "ordenante.direccion", "del ordenante");

  if (!Array.isArray(remesa.transferencias) || remesa.transferencias.length === 0)
    throw new RemesaNoValida("transferencias", "La remesa no tiene transferencias.");

  const vistos = new Set<string>();
  let total = 0n;
  const transacciones = remesa.transferencias.map((t, i) => {
    const campo = `transferencias[${i}]`;
    const quien = `de la transferencia ${i + 1}`;
    const b = t.beneficiario;
    const nombreBeneficiario = nombre(b?.nombre, `${campo}.beneficiario.nombre`, `del beneficiario ${quien}`);
    const cual = `${quien} (${nombreBeneficiario})`;

    if (!isMoneyString(t.importe))
      throw new RemesaNoValida(`${campo}.importe`, `El importe ${cual} no es un importe válido.`);
    const centimos = toCents(t.importe);
    if (centimos <= 0n) throw new RemesaNoValida(`${campo}.importe`, `El importe ${cual} debe ser mayor que cero.`);
    if (centimos > IMPORTE_MAXIMO)
      throw new RemesaNoValida(
        `${campo}.importe`,
        `El importe ${cual} supera el máximo de una transferencia SEPA (${formatMoney(fromCents(IMPORTE_MAXIMO))}).`,
      );
    total += centimos;

    const endToEndId = identificadorSepa(t.endToEndId);
    if (!endToEndId) throw new RemesaNoValida(`${campo}.endToEndId`, `Falta la referencia ${cual}.`);
    if (vistos.has(endToEndId))
      throw new RemesaNoValida(`${campo}.endToEndId`, `La referencia ${cual} (${endToEndId}) está repetida.`);
    vistos.add(endToEndId);

    const ibanBeneficiario = iban(b.iban, `${campo}.beneficiario.iban`, `del beneficiario ${cual}`);
    const bicBeneficiario = bic(b.bic, `${campo}.beneficiario.bic`, `del beneficiario ${cual}`);
    const concepto = texto(t.concepto, 140);
    const paisBanco = ibanBeneficiario.slice(0, 2);
    // A valid IBAN of a country outside SEPA (TR, BR…): its bank would return a SEPA transfer.
    if (!EEE.has(paisBanco) && !SEPA_FUERA_EEE.has(paisBanco))
      throw new RemesaNoValida(
        `${campo}.beneficiario.iban`,
        `La transferencia ${i + 1} (${nombreBeneficiario}) va a un banco de ${paisBanco}, fuera de la zona SEPA: no puede ir en el fichero.`,
      );
    if (SEPA_FUERA_EEE.has(paisBanco) && !dirOrdenante)
      throw new RemesaNoValida(
        "ordenante.direccion",
        `La transferencia ${i + 1} (${nombreBeneficiario}) va a un banco de ${paisBanco}, fuera del Espacio Económico Europeo: indique la dirección del ordenante.`,
      );

    return el("CdtTrfTxInf", [
      el("PmtId", [el("EndToEndId", endToEndId)]),
      el("Amt", [el("InstdAmt", fromCents(centimos), { Ccy: "EUR" })]),
      bicBeneficiario ? el("CdtrAgt", [agente(bicBeneficiario, formato, false)]) : null,
      el("Cdtr", [
        el("Nm", nombreBeneficiario),
        direccion(b.direccion, formato, `${campo}.beneficiario.direccion`, `del beneficiario ${cual}`),
      ]),
      el("CdtrAcct", [el("Id", [el("IBAN", ibanBeneficiario)])]),
      concepto ? el("RmtInf", [el("Ustrd", concepto)]) : null,
    ]);
  });

  const nbOfTxs = String(transacciones.length);
  const ctrlSum = fromCents(total);
  const documento = el(
    "Document",
    [
      el("CstmrCdtTrfInitn", [
        el("GrpHdr", [
          el("MsgId", msgId),
          el("CreDtTm", creDtTm),
          el("NbOfTxs", nbOfTxs),
          el("CtrlSum", ctrlSum),
          el("InitgPty", [
            el("Nm", nombreOrdenante),
            el("Id", [el("OrgId", [el("Othr", [el("Id", identificadorOrdenante(o.nif, o.sufijo))])])]),
          ]),
        ]),
        el("PmtInf", [
          el("PmtInfId", msgId),
          el("PmtMtd", "TRF"),
          el("NbOfTxs", nbOfTxs),
          el("CtrlSum", ctrlSum),
          el("PmtTpInf", [el("SvcLvl", [el("Cd", "SEPA")])]),
          formato === "pain.001.001.03" ? el("ReqdExctnDt", fecha) : el("ReqdExctnDt", [el("Dt", fecha)]),
          el("Dbtr", [el("Nm", nombreOrdenante), dirOrdenante]),
          el("DbtrAcct", [el("Id", [el("IBAN", ibanOrdenante)])]),
          el("DbtrAgt", [agente(bicOrdenante, formato, true)]),
          el("ChrgBr", "SLEV"),
          ...transacciones,
        ]),
      ]),
    ],
    { xmlns: NAMESPACE[formato] },
  );

  const lineas = ['<?xml version="1.0" encoding="UTF-8"?>'];
  serializar(documento, 0, lineas);
  return `${lineas.join("\n")}\n`;
}
