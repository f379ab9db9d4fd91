/**
 * Tax identifiers of suppliers (proveedores.nif), per country:
 * - ES: DNI, NIE, NIF K/L/M or CIF, with their check letter/digit;
 * - MX: RFC, 12 chars (persona moral) or 13 (persona física) with a real date, no check digit;
 * - elsewhere: 3–20 of [A-Z0-9./-].
 */

const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
const CIF_CONTROL_LETTERS = "JABCDEFGHI";

/** Upper case; no whitespace, dots or dashes; for ES without a leading "ES" (VAT prefix). */
export function normalizeNif(raw: string, pais: string): string {
  let s = String(raw ?? "")
    .toUpperCase()
    .replace(/[\s.-]/g, "");
  // No Spanish NIF starts with "ES" (a CIF's second character is a digit), so this is safe.
  if (pais.toUpperCase() === "ES" && s.startsWith("ES")) s = s.slice(2);
  return s;
}

export function dniLetter(digits: string | number): string {
  return DNI_LETTERS[Number(digits) % 23]!;
}

/** The control digit of a CIF body (letter + 7 digits), and its letter form. */
export function cifControl(body7: string): { digit: string; letter: string } {
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    let n = Number(body7[i]);
    if (i % 2 === 0) {
      n *= 2;
      n = Math.floor(n / 10) + (n % 10);
    }
    sum += n;
  }
  const d = (10 - (sum % 10)) % 10;
  return { digit: String(d), letter: CIF_CONTROL_LETTERS[d]! };
}

const ES_HELP =
  "Escriba un NIF español válido: DNI (8 cifras y una letra, p. ej. 12345678Z), NIE (X, Y o Z, " +
  "7 cifras y una letra, p. ej. X1234567L) o CIF (una letra, 7 cifras y un dígito o letra de " +
  "control, p. ej. B12345674).";

function validateEs(nif: string): string | null {
  let m = /^(\d{8})([A-Z])$/.exec(nif);
  if (m) {
    const expected = dniLetter(m[1]!);
    return m[2] === expected ? null : `La letra del DNI no es correcta: para ${m[1]} es la ${expected}.`;
  }
  m = /^([XYZ])(\d{7})([A-Z])$/.exec(nif);
  if (m) {
    const expected = dniLetter("XYZ".indexOf(m[1]!) + m[2]!);
    return m[3] === expected ? null : `La letra del NIE no es correcta: para ${m[1]}${m[2]} es la ${expected}.`;
  }
  // NIF K/L/M (minors, Spaniards abroad, foreigners without NIE): DNI letter over the 7 digits.
  m = /^([KLM])(\d{7})([A-Z])$/.exec(nif);
  if (m) {
    const expected = dniLetter(m[2]!);
    return m[3] === expected
      ? null
      : `La letra de control del NIF no es correcta: para ${m[1]}${m[2]} es la ${expected}.`;
  }
  m = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-J])$/.exec(nif);
  if (m) {
    const [, type = "", digits = "", control = ""] = m;
    const { digit, letter } = cifControl(digits);
    // A, B, E, H always end in a digit; P, Q, S, N, W and non-residents ("00…") in a letter;
    // the other types are found with either.
    const wantsLetter = "PQSNW".includes(type) || digits.startsWith("00");
    const wantsDigit = "ABEH".includes(type);
    const ok = wantsLetter
      ? control === letter
      : wantsDigit
        ? control === digit
        : control === digit || control === letter;
    if (ok) return null;
    const expected = wantsLetter ? letter : wantsDigit ? digit : `${digit} o ${letter}`;
    return `El carácter de control del CIF no es correcto: para ${type}${digits} es ${expected}.`;
  }
  return ES_HELP;
}

function isRealYymmdd(yymmdd: string): boolean {
  const yy = Number(yymmdd.slice(0, 2));
  const mm = Number(yymmdd.slice(2, 4));
  const dd = Number(yymmdd.slice(4, 6));
  if (mm < 1 || mm > 12 || dd < 1) return false;
  // Only 29 February needs the century; 2000 is a leap year like any "yy % 4 == 0" of 19xx/20xx.
  const daysInMonth = new Date(Date.UTC(2000 + yy, mm, 0)).getUTCDate();
  return dd <= daysInMonth;
}

const MX_HELP =
  "Escriba un RFC válido: 12 caracteres para persona moral (3 letras, fecha AAMMDD y 3 de " +
  "homoclave, p. ej. ABC680524P76) o 13 para persona física (4 letras, fecha AAMMDD y 3 de " +
  "homoclave, p. ej. GODE561231GR8).";

function validateMx(rfc: string, tipoPersona?: string): string | null {
  const m = /^([A-ZÑ&]{3,4})(\d{6})([A-Z0-9]{3})$/.exec(rfc);
  if (!m) return MX_HELP;
  const fisica = m[1]!.length === 4;
  if (tipoPersona === "empresa" && fisica) {
    return "El RFC de una empresa (persona moral) tiene 12 caracteres: 3 letras, fecha AAMMDD y 3 de homoclave.";
  }
  if (tipoPersona === "persona_fisica" && !fisica) {
    return "El RFC de una persona física tiene 13 caracteres: 4 letras, fecha AAMMDD y 3 de homoclave.";
  }
  if (!isRealYymmdd(m[2]!)) return "La fecha del RFC (AAMMDD) no es una fecha válida.";
  return null;
}

/**
 * Returns null when `nif` is valid for `pais`, or a Spanish message saying what to type.
 * Normalises first, so the raw form value may be passed. `tipoPersona` (empresa |
 * persona_fisica), when given, also checks the RFC length in Mexico.
 */
export function validateNif(nif: string, pais: string, tipoPersona?: string): string | null {
  const country = String(pais ?? "").toUpperCase();
  const s = normalizeNif(nif, country);
  if (s === "") return "Escriba el NIF / RFC / ID fiscal.";
  if (country === "ES") return validateEs(s);
  if (country === "MX") return validateMx(s, tipoPersona);
  if (!/^[A-Z0-9./-]{3,20}$/.test(s)) {
    return "Escriba entre 3 y 20 caracteres: letras sin acentos, cifras, puntos, barras o guiones.";
  }
  return null;
}

/** A valid DNI derived from `n` (for seeding): 8 digits + letter. */
export function generateValidDni(n: number): string {
  const digits = String(Math.abs(Math.trunc(n)) % 100_000_000).padStart(8, "0");
  return digits + dniLetter(digits);
}

/** A valid NIE derived from `n` (for seeding). */
export function generateValidNie(n: number): string {
  const k = Math.abs(Math.trunc(n));
  const prefix = "XYZ"[k % 3]!;
  const digits = String(k % 10_000_000).padStart(7, "0");
  return prefix + digits + dniLetter("XYZ".indexOf(prefix) + digits);
}

/** A valid CIF derived from `n` (for seeding); default type B (sociedad limitada). */
export function generateValidCif(n: number, type = "B"): string {
  if (!/^[ABCDEFGHJNPQRSUVW]$/.test(type)) throw new RangeError(`Tipo de CIF no válido: ${type}`);
  // Keep away from "00…" (non-resident), which changes the kind of control character.
  const digits = String(1_000_000 + (Math.abs(Math.trunc(n)) % 9_000_000)).padStart(7, "0");
  const { digit, letter } = cifControl(digits);
  return type + digits + ("PQSNW".includes(type) ? letter : digit);
}
