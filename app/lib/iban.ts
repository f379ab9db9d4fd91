/** IBAN (ISO 13616): country code, two check digits, BBAN; valid when mod 97 of the rearranged number is 1. */

/** Lengths from the SWIFT IBAN registry for the countries we are likely to meet. */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  BR: 29,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  TR: 26,
};

/** Countries in our lists that do not use IBAN (Mexico uses the 18-digit CLABE). */
const NON_IBAN = new Set([
  "MX",
  "US",
  "CA",
  "AR",
  "CL",
  "CO",
  "PE",
  "UY",
  "EC",
  "VE",
  "BO",
  "PY",
  "CN",
  "JP",
  "AU",
  "IN",
]);

/** Strips whitespace (also no-break spaces) and a leading "IBAN", upper-cases. */
export function normalizeIban(s: string): string {
  return String(s ?? "")
    .replace(/\s/g, "")
    .toUpperCase()
    .replace(/^IBAN/, "");
}

/** Remainder mod 97 of the number formed by the rearranged IBAN, one character at a time. */
function mod97(rearranged: string): number {
  let rem = 0;
  for (const ch of rearranged) {
    const v = ch >= "A" ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48; // A=10 … Z=35
    rem = v >= 10 ? (rem * 100 + v) % 97 : (rem * 10 + v) % 97;
  }
  return rem;
}

export function validateIban(s: string): boolean {
  const iban = normalizeIban(s);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const country = iban.slice(0, 2);
  if (NON_IBAN.has(country)) return false;
  const length = IBAN_LENGTHS[country];
  if (length !== undefined ? iban.length !== length : iban.length < 15 || iban.length > 34) return false;
  if (country === "ES" && !/^ES\d{22}$/.test(iban)) return false;
  const check = Number(iban.slice(2, 4));
  if (check < 2 || check > 98) return false; // ISO 13616 check digits are 02–98
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1;
}

/** Spanish message for a form, or null when valid (an empty value is for the caller to allow). */
export function ibanError(s: string): string | null {
  if (validateIban(s)) return null;
  const country = normalizeIban(s).slice(0, 2);
  if (NON_IBAN.has(country))
    return `Las cuentas de ${country} no usan IBAN; déjelo vacío e indique la cuenta en las notas.`;
  const iban = normalizeIban(s);
  const length = IBAN_LENGTHS[country];
  // The right shape, wrong sum: a digit mistyped or two swapped, as the NIF's control letter.
  if (
    /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban) &&
    (length !== undefined ? iban.length === length : iban.length >= 15 && iban.length <= 34) &&
    (country !== "ES" || /^ES\d{22}$/.test(iban))
  ) {
    // Not the digits that would fit: the mistake is as likely in the account, which they would hide.
    return `Los dígitos de control del IBAN (${iban.slice(0, 4)}) no cuadran con el número de cuenta: alguna cifra está cambiada. Cópielo de nuevo de donde lo leyó (una factura, el certificado o la aplicación del banco).`;
  }
  return length
    ? `Escriba un IBAN válido: ${country} y ${length - 2} caracteres más, p. ej. ES91 2100 0418 4502 0005 1332.`
    : "Escriba un IBAN válido: código de país, dos dígitos de control y el número de cuenta, p. ej. ES91 2100 0418 4502 0005 1332.";
}

/** "ES9121000418450200051332" → "ES91 2100 0418 4502 0005 1332". */
export function formatIban(s: string): string {
  return normalizeIban(s).replace(/(.{4})(?=.)/g, "$1 ");
}

/** The two IBAN check digits for a country and BBAN. */
export function ibanCheckDigits(country: string, bban: string): string {
  return String(98 - mod97(bban + country + "00")).padStart(2, "0");
}

/** Spanish CCC control digit over 10 digits (weights 1,2,4,8,5,10,9,7,3,6). */
function cccDigit(ten: string): string {
  const weights = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(ten[i]), 0);
  const d = 11 - (sum % 11);
  return String(d === 11 ? 0 : d === 10 ? 1 : d);
}

/** The two control digits of a Spanish CCC: over "00"+bank+branch, then over the account. */
export function cccControlDigits(bankBranch: string, account: string): string {
  return cccDigit(`00${bankBranch}`) + cccDigit(account);
}

/** A valid Spanish IBAN derived from `n` (for seeding), national control digits included. */
export function generateValidEsIban(n: number): string {
  const k = Math.abs(Math.trunc(n));
  const bank = String(2000 + (k % 100)).padStart(4, "0");
  const branch = String((k * 7919) % 10_000).padStart(4, "0");
  const account = String((k * 104_729 + 1) % 10_000_000_000).padStart(10, "0");
  const dc = cccControlDigits(bank + branch, account);
  const bban = bank + branch + dc + account;
  return `ES${ibanCheckDigits("ES", bban)}${bban}`;
}
