/** The remesas screen in the navigation (administradores only: app/root.tsx). */
export const SECCION_REMESAS = { to: "/remesas", label: "Remesas" } as const;
