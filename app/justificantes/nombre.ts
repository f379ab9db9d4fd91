/**
 * A receipt's file name is a label the person chose: shown, and given back on download, never a
 * path and never trusted for the type. Control characters and the invisible marks that reorder
 * text (bidi overrides and isolates: «recibo\u202Egpj.exe» shows as «recibo exe.jpg») go; at most
 * 255 characters.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it removes
const INVISIBLES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function nombreLimpio(nombre: string): string {
  const limpio = [...nombre.normalize("NFC").replace(INVISIBLES, "").trim()].slice(0, 255).join("");
  return limpio || "justificante";
}

const EXTENSIONES: Record<string, string[]> = {
  "image/jpeg": ["jpg", "jpeg"],
  "image/png": ["png"],
  "image/webp": ["webp"],
  "application/pdf": ["pdf"],
};

/**
 * The name a download is saved under: ending in the extension of the type its content was
 * detected as (a PDF uploaded as «factura.html» is «factura.html.pdf»), so that a saved file
 * opens in the program its content is for, never as a page.
 */
export function nombreDeDescarga(nombre: string, tipo: string): string {
  const limpio = nombreLimpio(nombre);
  const extensiones = EXTENSIONES[tipo];
  if (!extensiones) return limpio;
  const propia = /\.([^.]*)$/.exec(limpio)?.[1]?.toLowerCase();
  return propia && extensiones.includes(propia) ? limpio : `${limpio}.${extensiones[0]}`;
}
