/**
 * The search's words, as the database compares them (migration 20261201000001_busqueda, ADR 0019).
 * Each list's table keeps `busqueda`: its searchable columns through `interno.normalizar`
 * (PostgreSQL's `unaccent`, then lower case). What a user types is split into words here and each
 * word is normalised the same way, so «Café», «CAFE» and «cafe» are one word; both store adapters
 * receive the same words and find the same rows. tests/integration/busqueda.test.ts checks this
 * function against the database character by character.
 */

/**
 * Where `unaccent` does not simply drop the accents (what NFD and removing the marks does): its
 * rules for Latin letters and punctuation that have no decomposition (ß, æ, ł, «, ’ …), and the
 * few decomposable letters it leaves as they are (mapped to themselves).
 */
// prettier-ignore
const REGLAS: Record<string, string> = {
  "¡": "!", "©": "(C)", "«": "<<", "\u00ad": "-", "®": "(R)", "±": "+/-", "»": ">>", "¼": " 1/4", "½": " 1/2",
  "¾": " 3/4", "¿": "?", "Æ": "AE", "Ð": "D", "×": "*", "Ø": "O", "Þ": "TH", "ß": "ss", "æ": "ae", "ð": "d",
  "÷": "/", "ø": "o", "þ": "th", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i", "Ĳ": "IJ", "ĳ": "ij", "ĸ": "q",
  "Ŀ": "L", "ŀ": "l", "Ł": "L", "ł": "l", "ŉ": "'n", "Ŋ": "N", "ŋ": "n", "Œ": "OE", "œ": "oe", "Ŧ": "T", "ŧ": "t",
  "ſ": "s", "ƀ": "b", "Ɓ": "B", "Ƃ": "B", "ƃ": "b", "Ƈ": "C", "ƈ": "c", "Ɖ": "D", "Ɗ": "D", "Ƌ": "D", "ƌ": "d",
  "Ɛ": "E", "Ƒ": "F", "ƒ": "f", "Ɠ": "G", "ƕ": "hv", "Ɩ": "I", "Ɨ": "I", "Ƙ": "K", "ƙ": "k", "ƚ": "l", "Ɲ": "N",
  "ƞ": "n", "Ƣ": "OI", "ƣ": "oi", "Ƥ": "P", "ƥ": "p", "ƫ": "t", "Ƭ": "T", "ƭ": "t", "Ʈ": "T", "Ʋ": "V", "Ƴ": "Y",
  "ƴ": "y", "Ƶ": "Z", "ƶ": "z", "Ǆ": "DZ", "ǅ": "Dz", "ǆ": "dz", "Ǉ": "LJ", "ǈ": "Lj", "ǉ": "lj", "Ǌ": "NJ",
  "ǋ": "Nj", "ǌ": "nj", "Ǣ": "Ǣ", "ǣ": "ǣ", "Ǥ": "G", "ǥ": "g", "Ǯ": "Ǯ", "ǯ": "ǯ", "Ǳ": "DZ", "ǲ": "Dz", "ǳ": "dz",
  "Ǽ": "Ǽ", "ǽ": "ǽ", "Ǿ": "Ǿ", "ǿ": "ǿ", "ȡ": "d", "Ȥ": "Z", "ȥ": "z", "ȴ": "l", "ȵ": "n", "ȶ": "t", "ȷ": "j",
  "ȸ": "db", "ȹ": "qp", "Ⱥ": "A", "Ȼ": "C", "ȼ": "c", "Ƚ": "L", "Ⱦ": "T", "ȿ": "s", "ɀ": "z", "Ƀ": "B", "Ʉ": "U",
  "Ɇ": "E", "ɇ": "e", "Ɉ": "J", "ɉ": "j", "Ɍ": "R", "ɍ": "r", "Ɏ": "Y", "ɏ": "y", "ẚ": "a", "ẛ": "ẛ", "ẜ": "s",
  "ẝ": "s", "ẞ": "SS", "Ỻ": "LL", "ỻ": "ll", "Ỽ": "V", "ỽ": "v", "Ỿ": "Y", "ỿ": "y", "‐": "-", "‑": "-", "‒": "-",
  "–": "-", "—": "-", "―": "-", "‖": "||", "‘": "'", "’": "'", "‚": ",", "‛": "'", "„": ",,", "․": ".", "‥": "..",
  "…": "...", "′": "'", "‹": "<", "›": ">", "‼": "!!", "⁄": "/", "⁅": "[", "⁆": "]", "⁇": "??", "⁈": "?!", "⁉": "!?",
  "⁎": "*",
  "“": "\"", "”": "\"", "‟": "\"", "″": "\"",
};

/** Latin letters, whose accents `unaccent` removes (its rules cover these blocks). */
const latina = (cp: number) => cp < 0x250 || (cp >= 0x1e00 && cp < 0x1f00);

/** Lower case without accents, as `interno.normalizar` in the database. */
export function normalizarBusqueda(texto: string): string {
  let out = "";
  for (const c of texto) {
    const cp = c.codePointAt(0)!;
    const regla = REGLAS[c];
    if (regla !== undefined) out += regla;
    else if (latina(cp)) out += c.normalize("NFD").replace(/\p{M}/gu, "");
    // Accents typed apart from their letter (decomposed text): unaccent drops them too.
    else if (cp >= 0x300 && cp <= 0x362) continue;
    else out += c;
  }
  return out.toLowerCase();
}

/**
 * The words of a search, normalised, each to be found somewhere in the record: «hotel barcelona»
 * finds «Hotel en Barcelona». Repeated words, and words inside another word of the search
 * («caf café»), add nothing and are dropped.
 */
export function palabrasBusqueda(q: string): string[] {
  const palabras = [...new Set(q.split(/\s+/).map(normalizarBusqueda).filter(Boolean))];
  return palabras.filter((p) => !palabras.some((o) => o !== p && o.includes(p)));
}
