import type { Store } from "~/data/store";

/** How many people a department's or branch's page lists; the rest are one link away (the filtered user list). */
export const PERSONAS_MAX = 50;

export type Personas = {
  total: number;
  filtro: string;
  rows: { id: string; nombre: string; puesto: string | null; rol: string; activo: boolean }[];
};

/** The people (usuarios) of a department or branch, for its record page (a `recordLoader` extra). */
export const personasDe =
  (por: "departamento" | "sucursal") =>
  ({ store, id }: { store: Store; id: string }) =>
    personas(store, por, id);

async function personas(store: Store, por: "departamento" | "sucursal", id: string): Promise<{ personas: Personas }> {
  const { rows, total } = await store.list("usuarios_vista", {
    columns: ["id", "nombre", "nombre_completo", "puesto", "rol", "activo"],
    filters: [{ column: `${por}_id`, op: "eq", value: id }],
    order: [{ column: "nombre_completo", ascending: true }],
    limit: PERSONAS_MAX,
    offset: 0,
    count: "exact",
  });
  return {
    personas: {
      total,
      filtro: `/usuarios?${por}=${encodeURIComponent(id)}`,
      rows: rows.map((r) => ({
        id: String(r.id),
        nombre: String(r.nombre_completo ?? r.nombre ?? ""),
        puesto: r.puesto,
        rol: String(r.rol),
        activo: Boolean(r.activo),
      })),
    },
  };
}
