/**
 * Icons drawn inline: an emoji depends on the fonts of the person's machine (a browser without an
 * emoji font shows an empty box), a small SVG does not. Always decorative: the text beside it, or
 * a visually hidden one, says the same.
 */
const ICONOS = {
  // A paperclip: receipts attached.
  clip: "M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5",
} as const;

export type NombreIcono = keyof typeof ICONOS;

export function Icono({ nombre }: { nombre: NombreIcono }) {
  return (
    <svg
      className="icono"
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      <path d={ICONOS[nombre]} />
    </svg>
  );
}
