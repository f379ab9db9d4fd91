/** Where the libro diario lives: the navigation links to it (administradores only: app/root.tsx). */
export const ASIENTOS_PATH = "/asientos";

export const SECCION_ASIENTOS = { to: ASIENTOS_PATH, label: "Libro diario" } as const;
