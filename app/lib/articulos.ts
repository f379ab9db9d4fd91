/**
 * A field's label with its article, for the messages that name it: «Escriba la descripción»,
 * «Elija una categoría», «Escriba el NIF / RFC / ID fiscal», «Escriba los apellidos». Gender and
 * number are read from the label's first word (Spanish endings); a label they do not fit says
 * its own (`genero`, `plural`). Acronyms keep their capitals.
 */
export type Genero = "m" | "f";
export type Concordancia = { genero?: Genero; plural?: boolean };

const FEMENINOS = /(?:a|ión|razón|dad|tad|tud|umbre|ie)$/;
/** Nouns in -a that are masculine. */
const MASCULINOS_EN_A = new Set(["día", "mapa", "problema", "sistema", "tema", "idioma", "programa", "clima"]);

function primeraPalabra(label: string) {
  return (label.split(/[\s/]+/)[0] ?? "").toLowerCase();
}

const esSigla = (label: string) => /^[A-ZÁÉÍÓÚÑ]{2,}\b/.test(label);

/** The label as it reads mid-sentence: lower-case first letter, unless it starts with an acronym. */
export function enMinuscula(label: string) {
  return esSigla(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
}

export function concordancia(label: string, o: Concordancia = {}): Required<Concordancia> {
  const palabra = primeraPalabra(label);
  const plural = o.plural ?? (!esSigla(label) && /[^íú][ao]s$/.test(palabra));
  const singular = plural ? palabra.replace(/s$/, "") : palabra;
  const genero =
    o.genero ?? (!esSigla(label) && FEMENINOS.test(singular) && !MASCULINOS_EN_A.has(singular) ? "f" : "m");
  return { genero, plural };
}

/** «el área», not «la área»: a feminine singular noun whose first syllable is a stressed «a». */
const aTonica = (label: string) => /^h?[áa](?:gua|rea|ula|lma|rma|ve|la)\b/i.test(primeraPalabra(label));

/** «la descripción», «el NIF…», «los apellidos», «las notas». */
export function conArticulo(label: string, o: Concordancia = {}) {
  const { genero, plural } = concordancia(label, o);
  const articulo = plural ? (genero === "f" ? "las" : "los") : genero === "f" && !aTonica(label) ? "la" : "el";
  return `${articulo} ${enMinuscula(label)}`;
}

/** «una categoría», «un rol», «unos impuestos». */
export function conIndefinido(label: string, o: Concordancia = {}) {
  const { genero, plural } = concordancia(label, o);
  const articulo = plural ? (genero === "f" ? "unas" : "unos") : genero === "f" && !aTonica(label) ? "una" : "un";
  return `${articulo} ${enMinuscula(label)}`;
}
