/** Where the IRPF report of dietas and kilometraje lives: the navigation links to it. */
export const INFORME_IRPF_PATH = "/viajes/informe-irpf";

/** The navigation's entry, for administradores only (the screen refuses anyone else). */
export const SECCION_INFORME_IRPF = { to: INFORME_IRPF_PATH, label: "Informe IRPF" } as const;
