import { inflateSync } from "node:zlib";

/**
 * What a stored PDF may not carry (ADR 0018): code, actions that run or open something, files
 * inside it, and a second format sharing its bytes. PDFs are kept byte for byte, so the check
 * reads them as a reader would: names with their `#xx` escapes decoded, the objects inside
 * object streams (decompressed), and every place a reader rebuilding a damaged file could find
 * an object. What it cannot read (an object stream it cannot decompress: encrypted, damaged or
 * in an unusual compression) is refused too: a receipt does not need to be unreadable to us.
 */
export type Inspeccion = (
  { ok: true } | { ok: false; motivo: "activo" | "ilegible" | "final" | "incompleto" | "zip" }
) & {
  /** Bytes its object streams decompressed to (the work done besides reading the file). */
  descomprimido: number;
};

/** Names that run code, act on opening, submit data, or carry or open other files. */
const PROHIBIDOS = new Set([
  "JavaScript",
  "JS",
  "AA",
  "Launch",
  "EmbeddedFile",
  "EmbeddedFiles",
  "RichMedia",
  "XFA",
  "SubmitForm",
  "ImportData",
  "GoToE",
]);

/** The decompressed bytes of object streams one file may make us hold and read, at most. */
const MAX_DESCOMPRIMIDO = 16 * 1024 * 1024;

/** Each byte's class in PDF syntax: 1 whitespace, 2 delimiter, 0 part of a token. */
const CLASE = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) CLASE[c] = 1;
for (const c of "()<>[]{}/%") CLASE[c.charCodeAt(0)] = 2;
const esBlanco = (c: number) => CLASE[c] === 1;

/** A name as the reader sees it: `#xx` is the byte xx (PDF 1.2 and later). */
export function nombrePdf(crudo: string): string {
  return crudo.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The prohibited names however they are written: each letter itself or as `#xx`, ending where a
 * name ends. Looked for everywhere outside streams' data, strings and comments included (a
 * check that errs towards refusing costs nothing here: a receipt has none of them).
 */
const PROHIBIDO = new RegExp(
  "/(?:" +
    [...PROHIBIDOS]
      .map((nombre) =>
        [...nombre]
          .map((letra) => {
            const hex = letra.charCodeAt(0).toString(16);
            return `(?:${letra}|#${hex[0]}[${hex[1]!.toLowerCase()}${hex[1]!.toUpperCase()}])`;
          })
          .join(""),
      )
      .join("|") +
    ")(?=[\\0\\t\\n\\f\\r ()<>\\[\\]{}/%]|$)",
);

/**
 * An object's header followed by a dictionary or an array: where a reader that rebuilds a
 * damaged file's table looks for objects, wherever it is in the file. (Bounded repetitions: a
 * run of digits costs a linear scan, not a quadratic one.)
 */
const CABECERA_OBJETO = /(?<!\d)\d{1,10}\s{1,64}\d{1,5}\s{1,64}obj(?:\s|%[^\r\n]*[\r\n])*(?:<<|\[)/;

type Valor =
  | { t: "nombre"; v: string }
  | { t: "numero"; v: number }
  | { t: "palabra"; v: string }
  | { t: "cadena" }
  | { t: "dic"; items: Valor[] | null }
  | { t: "lista"; items: Valor[] | null };

/** A dictionary's entries (keys without the slash) whose values are names, numbers or references. */
function entradas(items: Valor[]) {
  const out = new Map<string, Valor | { t: "ref" }>();
  for (let i = 0; i < items.length; i++) {
    const clave = items[i]!;
    if (clave.t !== "nombre") continue;
    const valor = items[i + 1];
    if (!valor) break;
    const ref = items[i + 3];
    if (valor.t === "numero" && items[i + 2]?.t === "numero" && ref?.t === "palabra" && ref.v === "R") {
      out.set(clave.v, { t: "ref" });
      i += 3;
    } else {
      out.set(clave.v, valor);
      i += 1;
    }
  }
  return out;
}

class Ilegible extends Error {}

/** Entries kept of a dictionary or array: what a stream's own dictionary needs, never a file's worth. */
const MAX_ITEMS = 4096;
const MAX_ANIDADO = 200;
const STREAM = Buffer.from("stream", "latin1");

/**
 * Reads `buf` as PDF syntax: each stream's data skipped as the reader skips it (its /Length when
 * `endstream` follows it there, else up to `endstream`), object streams decompressed and read
 * the same way (`anidado`: no streams inside them), and the prohibited names looked for in what
 * is not stream data. Only the top-level dictionaries and what is directly in them are kept
 * (a stream's /Length, /Filter, /Type…).
 */
function leer(buf: Buffer, presupuesto: { restante: number }, anidado: boolean): "activo" | "ilegible" | null {
  const n = buf.length;
  const pila: { t: "dic" | "lista"; items: Valor[] | null }[] = [];
  /** The last top-level value, if a dictionary: a `stream` keyword's own dictionary. */
  const cima = { ultimo: null as Extract<Valor, { t: "dic" }> | null };
  /** The object region (all but streams' data): where names are looked for. */
  const regiones: [number, number][] = [];
  let desde = 0;
  /** Whether a value read now is kept: inside a kept container (top-level values are not, but for dictionaries). */
  const guardado = () => pila.length > 0 && pila[pila.length - 1]!.items !== null;
  const emitir = (v: Valor) => {
    const arriba = pila[pila.length - 1];
    if (!arriba) cima.ultimo = v.t === "dic" ? v : null;
    else if (arriba.items && arriba.items.length >= MAX_ITEMS) arriba.items = null;
    else arriba.items?.push(v);
  };
  /** A value not kept: at the top level it still ends what came before a `stream`. */
  const saltar = () => {
    if (pila.length === 0) cima.ultimo = null;
  };
  const abrir = (t: "dic" | "lista") => {
    if (pila.length >= MAX_ANIDADO) throw new Ilegible();
    pila.push({ t, items: pila.length === 0 || (pila.length === 1 && guardado()) ? [] : null });
  };
  const cerrar = (t: "dic" | "lista") => {
    if (pila[pila.length - 1]?.t !== t) return;
    const cerrado = pila.pop()!;
    if (pila.length === 0 || guardado()) emitir(cerrado);
  };
  let i = 0;
  while (i < n) {
    const c = buf[i]!;
    const clase = CLASE[c];
    if (clase === 1) {
      i++;
    } else if (c === 0x25) {
      while (i < n && buf[i] !== 10 && buf[i] !== 13) i++;
    } else if (c === 0x28) {
      let prof = 1;
      i++;
      while (i < n && prof > 0) {
        const d = buf[i]!;
        if (d === 0x5c) i++;
        else if (d === 0x28) prof++;
        else if (d === 0x29) prof--;
        i++;
      }
      if (guardado()) emitir({ t: "cadena" });
      else saltar();
    } else if (c === 0x3c && buf[i + 1] === 0x3c) {
      abrir("dic");
      i += 2;
    } else if (c === 0x3e && buf[i + 1] === 0x3e) {
      cerrar("dic");
      i += 2;
    } else if (c === 0x3c) {
      while (i < n && buf[i] !== 0x3e) i++;
      i++;
      if (guardado()) emitir({ t: "cadena" });
      else saltar();
    } else if (c === 0x5b) {
      abrir("lista");
      i++;
    } else if (c === 0x5d) {
      cerrar("lista");
      i++;
    } else if (c === 0x2f) {
      let j = i + 1;
      while (j < n && CLASE[buf[j]!] === 0) j++;
      if (!guardado()) saltar();
      else {
        const crudo = j - i - 1 <= 64 ? buf.toString("latin1", i + 1, j) : "";
        emitir({ t: "nombre", v: crudo.includes("#") ? nombrePdf(crudo) : crudo });
      }
      i = j;
    } else if (clase === 2) {
      i++; // a stray `)`, `>`, `{` or `}`: nothing a reader builds on
    } else {
      let j = i;
      while (j < n && CLASE[buf[j]!] === 0) j++;
      const esStream = j - i === 6 && buf.compare(STREAM, 0, 6, i, j) === 0;
      if (!esStream) {
        if (!guardado()) saltar();
        else {
          const palabra = j - i <= 32 ? buf.toString("latin1", i, j) : "";
          emitir(
            /^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(palabra)
              ? { t: "numero", v: Number(palabra) }
              : { t: "palabra", v: palabra },
          );
        }
        i = j;
        continue;
      }
      i = j;
      const dic = pila.length === 0 ? (cima.ultimo?.items ?? null) : null;
      if (anidado || !dic) return "ilegible";
      // The data begins after the keyword's end of line.
      if (buf[i] === 13) i++;
      if (buf[i] === 10) i++;
      const inicio = i;
      const e = entradas(dic);
      const largo = e.get("Length");
      let fin = -1;
      if (largo?.t === "numero" && Number.isInteger(largo.v) && largo.v >= 0 && inicio + largo.v <= n) {
        let k = inicio + largo.v;
        while (k < n && esBlanco(buf[k]!)) k++;
        if (buf.toString("latin1", k, k + 9) === "endstream") fin = inicio + largo.v;
      }
      if (fin === -1) fin = buf.indexOf("endstream", inicio, "latin1");
      if (fin === -1) return "ilegible";
      regiones.push([desde, inicio]);
      const datos = buf.subarray(inicio, fin);
      // An object a rebuilding reader could find inside another stream's data: refused unread.
      if (CABECERA_OBJETO.test(datos.toString("latin1", 0, datos.length))) return "activo";
      const tipo = e.get("Type");
      if (e.has("N") || e.has("First") || e.has("Extends") || (tipo?.t === "nombre" && tipo.v === "ObjStm")) {
        const contenido = descomprimir(datos, e, presupuesto);
        if (!contenido) return "ilegible";
        const r = leer(contenido, presupuesto, true);
        if (r) return r;
      }
      i = fin + 9;
      desde = i;
      cima.ultimo = null;
    }
  }
  regiones.push([desde, n]);
  for (const [a, b] of regiones) if (PROHIBIDO.test(buf.toString("latin1", a, b))) return "activo";
  return null;
}

/** An object stream's bytes: no filter, FlateDecode or ASCIIHexDecode, without predictors; else null. */
function descomprimir(datos: Buffer, e: ReturnType<typeof entradas>, presupuesto: { restante: number }) {
  const filtro = e.get("Filter");
  const filtros =
    filtro === undefined
      ? []
      : filtro.t === "nombre"
        ? [filtro.v]
        : filtro.t === "lista" && filtro.items && filtro.items.every((f) => f.t === "nombre")
          ? filtro.items.map((f) => (f as { v: string }).v)
          : null;
  if (!filtros || e.has("DecodeParms")) return null;
  let out: Buffer = datos;
  try {
    for (const f of filtros) {
      if (f === "FlateDecode" || f === "Fl") out = inflateSync(out, { maxOutputLength: presupuesto.restante });
      else if (f === "ASCIIHexDecode" || f === "AHx") out = hexADatos(out);
      else return null;
    }
  } catch (error) {
    // Stopped at the cap: all of it was spent on this stream.
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") presupuesto.restante = 0;
    return null;
  }
  presupuesto.restante -= out.length;
  return presupuesto.restante < 0 ? null : out;
}

function hexADatos(datos: Buffer) {
  const texto = datos.toString("latin1", 0, datos.length);
  const fin = texto.indexOf(">");
  const hex = (fin === -1 ? texto : texto.slice(0, fin)).replace(/[\0\t\n\f\r ]/g, "");
  if (!/^[0-9A-Fa-f]*$/.test(hex)) throw new Ilegible();
  return Buffer.from(hex.length % 2 ? `${hex}0` : hex, "hex");
}

/** A ZIP's end record (where every ZIP reader looks: the last 64 KiB) or a plausible local file header. */
function llevaZip(buf: Buffer) {
  const eocd = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
  if (buf.indexOf(eocd, Math.max(0, buf.length - 65_557)) !== -1) return true;
  const local = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
  for (let i = buf.indexOf(local); i !== -1 && i + 30 <= buf.length; i = buf.indexOf(local, i + 1)) {
    const version = buf.readUInt16LE(i + 4);
    const metodo = buf.readUInt16LE(i + 8);
    const largoNombre = buf.readUInt16LE(i + 26);
    if (version <= 100 && [0, 8, 9, 12, 14, 93, 95, 98, 99].includes(metodo) && largoNombre > 0 && largoNombre <= 4096)
      return true;
  }
  return false;
}

export function inspeccionarPdf(buf: Buffer, o: { maxDescomprimido?: number } = {}): Inspeccion {
  // Whatever follows the last %%EOF must be blank: a truncated file has none, a polyglot has more.
  const fin = buf.lastIndexOf("%%EOF", undefined, "latin1");
  if (fin === -1) return { ok: false, motivo: "incompleto", descomprimido: 0 };
  for (let k = fin + 5; k < buf.length; k++)
    if (!esBlanco(buf[k]!)) return { ok: false, motivo: "final", descomprimido: 0 };
  if (llevaZip(buf)) return { ok: false, motivo: "zip", descomprimido: 0 };
  const maximo = Math.max(0, Math.min(MAX_DESCOMPRIMIDO, o.maxDescomprimido ?? MAX_DESCOMPRIMIDO));
  const presupuesto = { restante: maximo };
  try {
    const r = leer(buf, presupuesto, false);
    const descomprimido = maximo - Math.max(0, presupuesto.restante);
    return r ? { ok: false, motivo: r, descomprimido } : { ok: true, descomprimido };
  } catch (error) {
    if (error instanceof Ilegible)
      return { ok: false, motivo: "ilegible", descomprimido: maximo - Math.max(0, presupuesto.restante) };
    throw error;
  }
}
