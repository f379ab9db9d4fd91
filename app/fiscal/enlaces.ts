/** Where the libro registro de IVA lives: the navigation and the panel link to it. */
export const LIBRO_IVA_PATH = "/libro-iva";

/** The navigation's entry, for administradores only (the screen refuses anyone else). */
export const SECCION_LIBRO_IVA = { to: LIBRO_IVA_PATH, label: "Libro de IVA" } as const;

/** The libro of one quarter. */
export function libroTrimestreHref(anio: number, trimestre: number) {
  return `${LIBRO_IVA_PATH}?periodo=trimestre&anio=${anio}&trimestre=${trimestre}`;
}
