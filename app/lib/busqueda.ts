/**
 * The search's words, as the database compares them (migration 20261201000001_busqueda, ADR 0019).
 * Each list's table keeps `busqueda`: its searchable columns through `interno.normalizar`
 * (PostgreSQL's `unaccent`, then lower case). What a user types is split into words here and each
 * word is normalised the same way, so «Café», «CAFE» and «cafe» are one word; both store adapters
 * receive the same words and find the same rows. tests/integration/busqueda.test.ts checks this
 * function against the database character by character.
 */
import reglas from "./busqueda-reglas.json";

/**
 * Where `unaccent` does not simply drop the accents (what NFD and removing the marks does): its
 * rules for Latin letters and punctuation that have no decomposition (ß, æ, ł, «, ’ …), and the
 * few decomposable letters it leaves as they are (mapped to themselves), taken from its
 * `unaccent.rules`.
 */
const REGLAS: Record<string, string> = reglas;

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
