/**
 * Links from the panel to the gastos list, with the list's own GET parameters
 * (app/entities/gastos.ts: filters `estado`, `categoria`, `departamento`, `proveedor`, `desde`,
 * `hasta`; views `vista=mios` and `vista=pendientes`; `gasto={id}` opens a record's panel).
 */
const GASTOS = "/gastos";

function href(params: Record<string, string | undefined>, hash = "") {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const query = search.toString();
  return `${GASTOS}${query ? `?${query}` : ""}${hash}`;
}

/** «Mis gastos», optionally in one estado and/or a date range. */
export function misGastosHref(o: { estado?: string; desde?: string; hasta?: string } = {}) {
  return href({ vista: "mios", estado: o.estado, desde: o.desde, hasta: o.hasta });
}

/** One expense's panel beside the list. */
export function gastoHref(id: string) {
  return href({ gasto: id }, "#gasto");
}

/** «Mis pendientes de aprobar», the oldest first (as the panel lists them). */
export function pendientesHref() {
  return href({ vista: "pendientes", orden: "fecha_gasto", dir: "asc" });
}

/** Every gasto the user sees in a date range, optionally of one estado, department, category or supplier. */
export function gastosHref(o: {
  desde: string;
  hasta: string;
  estado?: string;
  departamento?: string;
  categoria?: string;
  proveedor?: string;
}) {
  return href({
    estado: o.estado,
    departamento: o.departamento,
    categoria: o.categoria,
    proveedor: o.proveedor,
    desde: o.desde,
    hasta: o.hasta,
  });
}

export const NUEVO_GASTO_HREF = `${GASTOS}?nuevo=1#nuevo`;
