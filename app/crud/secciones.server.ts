import type { Signed } from "~/auth/session.server";
import type { Store } from "~/data/store";
import type { Entity, SeccionDeFicha } from "~/entities/entity";
import { gastos } from "~/entities/gastos";
import { usuarios } from "~/entities/usuarios";

/** How many people a department's or branch's page lists; the rest are one link away (the filtered user list). */
export const PERSONAS_MAX = 50;

export type Personas = {
  total: number;
  filtro: string;
  /** Where each person's record is: `${fichas}/${id}`. */
  fichas: string;
  rows: { id: string; nombre: string; puesto: string | null; rol: string; activo: boolean }[];
};

/** The gastos of a record the person may see (row-level security decides): how many, their total. */
export type GastosDeLaFicha = { total: number; importe: string; todos: boolean; filtro: string };

/** What the record page's sections show, by kind (ui/SeccionesDeFicha.tsx). */
export type DatosDeSecciones = { personas?: Personas; gastos?: GastosDeLaFicha };

/** The data of the record's declared sections (Entity.secciones), read with the same store, as the same person. */
export async function datosDeSecciones(entity: Entity, { store, user }: Signed, id: string): Promise<DatosDeSecciones> {
  const leidas = await Promise.all((entity.secciones ?? []).map((s) => leer(s, store, user, id)));
  return Object.assign({}, ...leidas) as DatosDeSecciones;
}

/** Each kind of section lists another entity's records that point here (`por`): its view, and its list filtered. */
const DE = { personas: usuarios, gastos } as const;

async function leer(s: SeccionDeFicha, store: Store, user: Signed["user"], id: string): Promise<DatosDeSecciones> {
  const de = DE[s.tipo];
  const filtro = `${de.path}?${s.por}=${encodeURIComponent(id)}`;
  if (s.tipo === "gastos") {
    const { total, sums } = await store.list(de.view, {
      filters: [{ column: `${s.por}_id`, op: "eq", value: id }],
      limit: 0,
      offset: 0,
      count: "exact",
      sum: ["importe"],
    });
    return { gastos: { total, importe: sums.importe ?? "0", todos: user.rol === "administrador", filtro } };
  }
  const { rows, total } = await store.list(de.view, {
    columns: ["id", "nombre", "nombre_completo", "puesto", "rol", "activo"],
    filters: [{ column: `${s.por}_id`, op: "eq", value: id }],
    order: [{ column: "nombre_completo", ascending: true }],
    limit: PERSONAS_MAX,
    offset: 0,
    count: "exact",
  });
  return {
    personas: {
      total,
      filtro,
      fichas: de.path,
      rows: rows.map((r) => ({
        id: String(r.id),
        nombre: String(r.nombre_completo ?? r.nombre ?? ""),
        puesto: r.puesto == null ? null : String(r.puesto),
        rol: String(r.rol),
        activo: Boolean(r.activo),
      })),
    },
  };
}
