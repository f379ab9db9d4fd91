import type { Apunte, Subcuenta } from "./diario";

/**
 * ContaPlus's import files («Utilidades › Importaciones › Ficheros de ContaPlus»): XDiario.txt,
 * the apuntes, and XSubCta.txt, the subcuentas they use; fixed-width text, one record per line,
 * CRLF, in the Windows code page (1252). The layout, field by field, and where it comes from:
 * docs/contabilidad.md.
 *
 * Field types as ContaPlus declares them: N a number, right-aligned, with a point and its
 * decimals; C text, left-aligned and padded with spaces; F a date AAAAMMDD; L a logical, T or F.
 */
export type TipoCampo = "N" | "C" | "F" | "L";
export type Campo = { nombre: string; ancho: number; tipo: TipoCampo; decimales?: number };

/** XDiario: the record through NumeroInv, 297 characters. */
export const XDIARIO: readonly Campo[] = [
  { nombre: "Asien", ancho: 6, tipo: "N" },
  { nombre: "Fecha", ancho: 8, tipo: "F" },
  { nombre: "SubCta", ancho: 12, tipo: "C" },
  { nombre: "Contra", ancho: 12, tipo: "C" },
  { nombre: "PtaDebe", ancho: 16, tipo: "N", decimales: 2 },
  { nombre: "Concepto", ancho: 25, tipo: "C" },
  { nombre: "PtaHaber", ancho: 16, tipo: "N", decimales: 2 },
  { nombre: "Factura", ancho: 8, tipo: "N" },
  { nombre: "BaseImpo", ancho: 16, tipo: "N", decimales: 2 },
  { nombre: "IVA", ancho: 5, tipo: "N", decimales: 2 },
  { nombre: "RecEquiv", ancho: 5, tipo: "N", decimales: 2 },
  { nombre: "Documento", ancho: 10, tipo: "C" },
  { nombre: "Departa", ancho: 3, tipo: "C" },
  { nombre: "Clave", ancho: 6, tipo: "C" },
  { nombre: "Estado", ancho: 1, tipo: "C" },
  { nombre: "NCasado", ancho: 6, tipo: "N" },
  { nombre: "TCasado", ancho: 1, tipo: "N" },
  { nombre: "Trans", ancho: 6, tipo: "N" },
  { nombre: "Cambio", ancho: 16, tipo: "N", decimales: 6 },
  { nombre: "DebeME", ancho: 16, tipo: "N", decimales: 2 },
  { nombre: "HaberME", ancho: 16, tipo: "N", decimales: 2 },
  { nombre: "Auxiliar", ancho: 1, tipo: "C" },
  { nombre: "Serie", ancho: 1, tipo: "C" },
  { nombre: "Sucursal", ancho: 4, tipo: "C" },
  { nombre: "CodDivisa", ancho: 5, tipo: "C" },
  { nombre: "ImpAuxME", ancho: 16, tipo: "N", decimales: 2 },
  { nombre: "MonedaUso", ancho: 1, tipo: "C" },
  { nombre: "EuroDebe", ancho: 16, tipo: "N", decimales: 2 },
  { nombre: "EuroHaber", ancho: 16, tipo: "N", decimales: 2 },
  { nombre: "BaseEuro", ancho: 16, tipo: "N", decimales: 2 },
  { nombre: "NoConv", ancho: 1, tipo: "L" },
  { nombre: "NumeroInv", ancho: 10, tipo: "C" },
];

/** XSubCta: the subcuenta's record through TipoIVA, 161 characters. */
export const XSUBCTA: readonly Campo[] = [
  { nombre: "Cod", ancho: 12, tipo: "C" },
  { nombre: "Titulo", ancho: 40, tipo: "C" },
  { nombre: "Nif", ancho: 15, tipo: "C" },
  { nombre: "Domicilio", ancho: 35, tipo: "C" },
  { nombre: "Poblacion", ancho: 25, tipo: "C" },
  { nombre: "Provincia", ancho: 20, tipo: "C" },
  { nombre: "CodPostal", ancho: 5, tipo: "C" },
  { nombre: "Divisa", ancho: 1, tipo: "L" },
  { nombre: "CodDivisa", ancho: 5, tipo: "C" },
  { nombre: "Documento", ancho: 1, tipo: "L" },
  { nombre: "Ajustame", ancho: 1, tipo: "L" },
  { nombre: "TipoIVA", ancho: 1, tipo: "C" },
];

export const ancho = (campos: readonly Campo[]) => campos.reduce((s, c) => s + c.ancho, 0);

/** Where each field starts (1-based, as layouts are printed) and ends. */
export function posiciones(campos: readonly Campo[]): { nombre: string; desde: number; hasta: number }[] {
  let desde = 1;
  return campos.map((c) => {
    const p = { nombre: c.nombre, desde, hasta: desde + c.ancho - 1 };
    desde += c.ancho;
    return p;
  });
}

// Windows-1252's printable characters above ASCII that are not Latin-1's.
// prettier-ignore
const CP1252: Record<string, number> = {
  "€": 0x80, "‚": 0x82, "ƒ": 0x83, "„": 0x84, "…": 0x85, "†": 0x86, "‡": 0x87, "ˆ": 0x88, "‰": 0x89,
  "Š": 0x8a, "‹": 0x8b, "Œ": 0x8c, "Ž": 0x8e, "‘": 0x91, "’": 0x92, "“": 0x93, "”": 0x94, "•": 0x95,
  "–": 0x96, "—": 0x97, "˜": 0x98, "™": 0x99, "š": 0x9a, "›": 0x9b, "œ": 0x9c, "ž": 0x9e, "Ÿ": 0x9f,
};

/**
 * Text as the file can hold it: one character per byte in Windows-1252. Line breaks and other
 * control characters become spaces (a record is one line); a letter outside the code page loses
 * its accent (ő → o), a ligature is its letters (ﬁ → fi), and anything else left becomes «?».
 */
export function textoAnsi(texto: string): string {
  let out = "";
  for (const ch of texto.normalize("NFC")) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += " ";
    else if (code <= 0xff || CP1252[ch] !== undefined) out += ch;
    // A mark NFC could not join to its letter (x + ◌́): the letter is written, the accent lost.
    else if (/\p{M}/u.test(ch)) continue;
    else {
      // Compatibility forms too: ﬁ → fi, Ⅳ → IV, the ideographic space → a space.
      const base = ch.normalize("NFKD").replace(/\p{M}/gu, "");
      out += [...base].every((c) => c.codePointAt(0)! < 0x7f) && base ? base : "?";
    }
  }
  return out;
}

/** The bytes of a text made by textoAnsi (or plain ASCII), in Windows-1252. */
export function bytesAnsi(texto: string): Uint8Array {
  const out = new Uint8Array(texto.length);
  for (let i = 0; i < texto.length; i++) {
    const ch = texto[i]!;
    const code = ch.charCodeAt(0);
    out[i] = code <= 0xff ? code : (CP1252[ch] ?? 0x3f);
  }
  return out;
}

export type Valor = string | number | boolean | null | undefined;

/**
 * One record: every field at its width. A number that does not fit is an error (amounts fit:
 * numeric(12,2) takes 13 of 16); text is cut at its width.
 */
export function registro(campos: readonly Campo[], valores: Record<string, Valor>): string {
  let linea = "";
  for (const c of campos) {
    const v = valores[c.nombre];
    let celda: string;
    if (c.tipo === "N") {
      const d = c.decimales ?? 0;
      const texto = v === null || v === undefined || v === "" ? (0).toFixed(d) : numero(v, d);
      if (texto.length > c.ancho) throw new RangeError(`${c.nombre}: ${texto} no cabe en ${c.ancho} caracteres`);
      celda = texto.padStart(c.ancho, " ");
    } else if (c.tipo === "F") {
      celda = v ? String(v).replaceAll("-", "").slice(0, 8).padEnd(c.ancho, " ") : " ".repeat(c.ancho);
    } else if (c.tipo === "L") {
      celda = v === true || v === "T" ? "T" : "F";
    } else {
      celda = textoAnsi(v === null || v === undefined ? "" : String(v))
        .slice(0, c.ancho)
        .padEnd(c.ancho, " ");
    }
    linea += celda;
  }
  return linea;
}

/** A decimal string or a whole number with `d` decimals, without floating point. */
function numero(v: Valor, d: number): string {
  const s = String(v);
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) throw new TypeError(`No es un número: ${JSON.stringify(s)}`);
  const dec = (m[3] ?? "").padEnd(d, "0");
  if (dec.length > d && /[1-9]/.test(dec.slice(d))) throw new RangeError(`${s}: más de ${d} decimales`);
  return `${m[1]}${m[2]}${d ? `.${dec.slice(0, d)}` : ""}`;
}

/**
 * The document's number in the 10 characters of «Documento»: the folio's letter, the year's last
 * two digits and the number in seven («GAS-2026-00042» → «G260000042», «REM-2026-0003» →
 * «R260000003»). The whole folio is at the start of the concept.
 */
export function documentoCorto(folio: string): string {
  const m = /^([A-Z])[A-Z]*-\d{2}(\d{2})-(\d{1,7})$/.exec(folio);
  return m ? `${m[1]}${m[2]}${m[3]!.padStart(7, "0")}` : folio.replaceAll("-", "").slice(-10);
}

/** An apunte as an XDiario record (amounts in euros: MonedaUso 2, the peseta fields at zero). */
export function registroDiario(a: Apunte): string {
  return registro(XDIARIO, {
    Asien: a.asiento,
    Fecha: a.fecha,
    SubCta: a.subcuenta,
    Contra: a.contrapartida,
    Concepto: a.concepto,
    IVA: a.porcentaje_iva,
    Documento: documentoCorto(a.documento),
    MonedaUso: "2",
    EuroDebe: a.debe,
    EuroHaber: a.haber,
    BaseEuro: a.base_imponible,
  });
}

/** A subcuenta as an XSubCta record. */
export function registroSubcuenta(s: Subcuenta): string {
  return registro(XSUBCTA, { Cod: s.subcuenta, Titulo: s.titulo, Nif: s.nif });
}

export const FIN_DE_LINEA = "\r\n";
