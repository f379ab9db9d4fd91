import type { AppLoadContext } from "@remix-run/node";
import { requireUser, type Signed } from "~/auth/session.server";
import { UUID, type Row, type Store } from "~/data/store";
import {
  estadoDeLista,
  formats,
  lecturaDeLista,
  loadHistory,
  loadOptions,
  optionSearches,
  permissions,
  writableNames,
  type HistoryEntry,
  type Options,
  type StoredRow,
} from "~/crud/crud.server";
import { motivosDe } from "~/crud/accion-de-registro.server";
import { EN_BLOQUE_MAXIMO } from "~/crud/en-bloque.server";
import { valoresDelNuevo, type Nuevo } from "~/crud/nuevo.server";
import { datosDePagina, getOr404, notFound } from "~/crud/respuestas.server";
import { csvResponse, csvToExport } from "~/crud/csv.server";
import { busquedaCorta, listQueryFor, parseListState } from "~/crud/list-query";
import { accionesOfrecidas, enBloquePara, forRole, type Motivos } from "~/entities/entity";
import { gastos } from "~/entities/gastos";
import { proveedores } from "~/entities/proveedores";
import { todayISO } from "~/lib/dates";
import type { Perfil } from "./AyudaSolicitante";
import { nombreLimpio } from "~/justificantes/nombre";
import type { JustificanteVista } from "~/justificantes/Justificantes";
import { MAX_POR_GASTO } from "~/justificantes/subir.server";
import { accionMasiva, contarMasivo } from "./workflow.server";

type Args = { request: Request; context: AppLoadContext };

/** The columns of a gasto the panel's rules read (who it is for, who acted on it). */
export type GastoClave = {
  estado: string;
  solicitante_id: string;
  aprobador_id: string | null;
  departamento_id: string;
  creado_por_id?: string | null;
  editado_por_id?: string | null;
  aprobado_por_id?: string | null;
};

/**
 * `/gastos`: the list (filters, views, search, sort, page; count and sum of importe over the
 * whole filter), the bulk actions, and beside the list either the record's panel (`?gasto={id}`)
 * or the «Nuevo gasto» form (`?nuevo=1`). `?formato=csv` is the whole filter as CSV.
 */
export async function gastosLoader({ request, context }: Args) {
  const signed = await requireUser(request, context);
  const { user, store } = signed;
  const url = new URL(request.url);
  const f = formats(context);
  if (url.searchParams.get("formato") === "csv") {
    csvToExport(gastos, url);
    return csvResponse(
      gastos,
      store,
      listQueryFor(gastos, parseListState(gastos, url.searchParams), user),
      f,
      user.rol,
    );
  }

  const gastoId = url.searchParams.get("gasto");
  if (gastoId !== null && !UUID.test(gastoId)) notFound("El gasto no existe o no tiene acceso a él.");
  const can = permissions(gastos, user);
  const nuevo = can.crear && gastoId === null && url.searchParams.get("nuevo") === "1";
  // The forms' option lists, the inactive suppliers and the solicitantes' profiles only where a
  // form is open; the plain list carries only what its filters offer this person.
  const formulario = nuevo || gastoId !== null;
  const masivoParam = url.searchParams.get("masivo");
  const masivoAccion: "aprobar" | "rechazar" | null =
    masivoParam === "aprobar" || masivoParam === "rechazar" ? masivoParam : null;

  // Sorting by a related name only on a filter counted exactly; else by date, and say why.
  const { state, avisoOrden } = await estadoDeLista(gastos, signed, url, f.locale);

  // Everything the page needs is read in one transaction (reads started together share one,
  // sql/performance/transactions.server.ts): the options wait for the record only when a panel
  // is open, since its current values must be among them.
  const opciones = (record: Row | null) =>
    formulario
      ? loadOptions(store, gastos, { ...state.filtros, ...(record ?? {}) }, optionSearches(gastos, url))
      : loadOptions(store, forRole(gastos, user.rol), state.filtros, optionSearches(gastos, url), "filters");
  // Its first values (`?nuevo.viaje_id=…`: «Añadir un gasto» from a viaje's page; `?como=`: a copy),
  // read first when they copy a gasto: the options must hold the ones it names.
  const campos = writableNames(gastos, user);
  const valoresNuevo = nuevo
    ? valoresDelNuevo(store, gastos, url, { userId: user.id, country: context.services.config.APP_COUNTRY, campos })
    : Promise.resolve(null);
  const [
    result,
    motivos,
    record,
    history,
    justificantes,
    duplicados,
    antesDeAprobar,
    fueraDePolitica,
    antesDeEnviar,
    sinPanel,
    proveedoresInactivos,
    valores,
  ] = await Promise.all([
    // Count and sum over the whole filter; a huge filter gets an estimate and no sum (gastos.escala).
    // Its columns include puede_aprobar (gastos.rowFields): the rows whose checkbox the bulk approval offers.
    store.list<StoredRow>(gastos.view, lecturaDeLista(gastos, state, user)),
    gastoId ? motivosDe(store, gastos, gastoId) : Promise.resolve(null),
    gastoId ? getOr404<StoredRow & GastoClave>(store, gastos.view, gastoId) : Promise.resolve(null),
    // Read with the record (it shows nothing if the record is not visible: the page is a 404 then).
    gastoId ? loadHistory(store, gastos.table, gastoId) : Promise.resolve([]),
    gastoId ? justificantesDe(store, gastoId) : Promise.resolve([]),
    gastoId
      ? store.rpc<Duplicado[]>("justificantes_duplicados", { p_gasto: gastoId }, { reads: true })
      : Promise.resolve([] as Duplicado[]),
    // What whoever may approve it should know first (empty for anyone else; an empleado never approves).
    gastoId && user.rol !== "empleado"
      ? store.rpc<string[] | null>("avisos_antes_de_aprobar", { p_id: gastoId }, { reads: true })
      : Promise.resolve(null),
    // What a borrador breaks of its spending policy, for whoever sends it (empty otherwise).
    gastoId
      ? store.rpc<string[] | null>("incumplimientos_politica", { p_id: gastoId }, { reads: true })
      : Promise.resolve(null),
    // What else a borrador's sender should know first, which asks for no motivo (empty otherwise).
    gastoId
      ? store.rpc<string[] | null>("avisos_antes_de_enviar", { p_id: gastoId }, { reads: true })
      : Promise.resolve(null),
    gastoId ? Promise.resolve(null) : valoresNuevo.then((v) => opciones(v?.copia ? v.defaults : null)),
    formulario ? inactivos(store) : Promise.resolve([]),
    valoresNuevo,
  ]);
  const [[options, perfiles], masivo, remesa] = await Promise.all([
    (sinPanel ? Promise.resolve(sinPanel) : opciones(record)).then(
      async (o) => [o, nuevo ? await perfilesSolicitantes(store, user, o) : null] as const,
    ),
    masivoAccion && enBloquePara(gastos, user.rol).some((a) => a === accionMasiva(masivoAccion))
      ? contarMasivo(url, signed, masivoAccion).then((c) => ({ accion: masivoAccion, ...c, maximo: EN_BLOQUE_MAXIMO }))
      : Promise.resolve(null),
    // The live remesa it is in (only administradores see it), linked from the panel.
    record?.en_remesa ? remesaPorFolio(store, String(record.en_remesa)) : Promise.resolve(null),
  ]);

  return datosDePagina({
    state,
    avisoOrden,
    busquedaCorta: busquedaCorta(gastos, state),
    result,
    options,
    // The create and edit forms offer active suppliers only (the database refuses choosing an
    // inactive one); the filters offer them all, to find old gastos. The page gets their ids, not
    // a second copy of every option.
    proveedoresInactivos,
    can,
    user: { id: user.id, rol: user.rol },
    // Whether this person approves in bulk (the list then always has its bulk section).
    aprueba: enBloquePara(gastos, user.rol).some((a) => a.intent === "aprobar_seleccion"),
    hoy: todayISO(),
    // The «Nuevo gasto» form beside the list (`?nuevo=1`), or null.
    nuevo:
      perfiles && valores
        ? {
            envio: crypto.randomUUID(),
            campos,
            ...sinProveedorInactivo(valores, proveedoresInactivos, options),
            perfiles,
          }
        : null,
    panel: record
      ? {
          ...panelDe(signed, record, history, conDuplicados(justificantes, duplicados), motivos, url),
          antesDeAprobar: antesDeAprobar ?? [],
          fueraDePolitica: fueraDePolitica ?? [],
          antesDeEnviar: antesDeEnviar ?? [],
          remesa,
        }
      : null,
    masivo,
  });
}

/** A copy's supplier that has since been deactivated cannot be chosen: left out, and said. */
function sinProveedorInactivo(valores: Nuevo, inactivos: string[], options: Options): Nuevo {
  const { proveedor_id: id, ...defaults } = valores.defaults;
  if (!valores.copia || typeof id !== "string" || !inactivos.includes(id)) return valores;
  const nombre = options.proveedores?.options.find((o) => o.value === id)?.label;
  return {
    defaults,
    copia: {
      ...valores.copia,
      notas: [...valores.copia.notas, `El proveedor${nombre ? ` «${nombre}»` : ""} está desactivado: elija otro.`],
    },
  };
}

async function remesaPorFolio(store: Store, folio: string) {
  const { rows } = await store.list("remesas_vista", {
    filters: [{ column: "folio", op: "eq", value: folio }],
    columns: ["id", "folio", "estado"],
    limit: 1,
    offset: 0,
    count: "none",
  });
  const r = rows[0];
  return r?.id ? { id: r.id, folio, estado: String(r.estado) } : null;
}

/**
 * The department and branch «Nuevo gasto» would take from each solicitante it offers (an
 * administrador's select; anyone else is the solicitante), for the hints under those fields.
 */
async function perfilesSolicitantes(
  store: Store,
  user: Signed["user"],
  options: Options,
): Promise<Record<string, Perfil>> {
  const ids = user.rol === "administrador" ? (options.usuarios?.options ?? []).map((o) => o.value) : [user.id];
  if (!ids.length) return {};
  const { rows } = await store.list(
    "usuarios_vista",
    {
      filters: [{ column: "id", op: "in", value: ids }],
      columns: ["id", "departamento_nombre", "sucursal_nombre"],
      limit: ids.length,
      offset: 0,
      count: "none",
    },
    { keep: true },
  );
  const perfiles: Record<string, Perfil> = {};
  for (const r of rows)
    if (r.id) perfiles[r.id] = { departamento: r.departamento_nombre || null, sucursal: r.sucursal_nombre || null };
  return perfiles;
}

/** Ids of inactive suppliers, left out of the create and edit forms' selects. */
async function inactivos(store: Store) {
  const { rows } = await store.list(
    "proveedores",
    {
      filters: [{ column: "activo", op: "eq", value: false }],
      columns: ["id"],
      limit: 1000,
      offset: 0,
      count: "none",
    },
    { keep: true },
  );
  return rows.map((r) => r.id);
}

type Duplicado = { justificante_id: string; gasto_id: string; folio: string };

function conDuplicados(filas: JustificanteVista[], duplicados: Duplicado[]): JustificanteVista[] {
  const de = new Map(duplicados.map((d) => [d.justificante_id, { gasto_id: d.gasto_id, folio: d.folio }]));
  return filas.map((j) => ({ ...j, duplicado: de.get(j.id) ?? null }));
}

/** The gasto's receipts in the order they were attached (RLS: whoever sees the gasto sees them). */
async function justificantesDe(store: Store, gastoId: string) {
  const { rows } = await store.list("justificantes", {
    filters: [{ column: "gasto_id", op: "eq", value: gastoId }],
    columns: ["id", "nombre", "tipo", "bytes", "miniatura"],
    order: [
      { column: "creado_en", ascending: true },
      { column: "id", ascending: true },
    ],
    limit: MAX_POR_GASTO,
    offset: 0,
    count: "none",
  });
  // Names stored before control and bidi marks were removed at upload are shown without them.
  return rows.map((j) => ({ ...j, nombre: nombreLimpio(j.nombre) }));
}

/** The record panel: the gasto, what this person may do with it now, its receipts, its history. */
function panelDe(
  signed: Signed,
  record: StoredRow & GastoClave,
  history: HistoryEntry[],
  justificantes: JustificanteVista[],
  motivos: Motivos | null | undefined,
  url: URL,
) {
  const { user } = signed;
  const suyo = permissions(gastos, user, record.id, record).editar;
  const borrador = record.estado === "borrador";
  return {
    record,
    history,
    /** The intents of the workflow's record actions this person may take now (entities/gastos-flujo.ts). */
    acciones: accionesOfrecidas(gastos, record, user, motivos),
    // Why a button this person would otherwise expect is not offered (separation of duties, a remesa).
    separacion: separacion(signed, record, motivos),
    editar: suyo && borrador,
    eliminar: suyo && borrador,
    confirmarEliminar: url.searchParams.has("eliminar") && suyo && borrador,
    justificantes,
    // Attach and remove: the gasto's editors, while it is a borrador (the database checks again).
    adjuntar: suyo && borrador,
    // «Quitar…» asks first, like deleting the gasto: `?quitar={id}` shows the confirm step.
    confirmarQuitar:
      suyo && borrador ? (justificantes.find((j) => j.id === url.searchParams.get("quitar")) ?? null) : null,
    campos: writableNames(gastos, user, record.id),
    hoy: todayISO(),
    altaProveedor: altaProveedor(user, record),
  };
}

/**
 * An issuer typed on the gasto (not in the suppliers' list), for whoever may add suppliers: the
 * «Nuevo proveedor» form with its NIF, name and country already in. Once it exists, gastos that
 * type the same NIF take the supplier by themselves (the database links them).
 */
function altaProveedor(user: Signed["user"], record: StoredRow) {
  if (record.proveedor_id || !record.emisor_nif || !proveedores.permisos.crear.includes(user.rol)) return null;
  const nif = String(record.emisor_nif);
  const params = new URLSearchParams({
    "nuevo.razon_social": String(record.emisor_nombre ?? ""),
    "nuevo.nif": nif,
    "nuevo.pais": String(record.emisor_pais ?? "ES"),
    // A Spanish NIF starting with a letter other than X, Y, Z, K, L, M is a company's (CIF).
    "nuevo.tipo_persona": /^[A-HJ-NP-SUVW]/.test(nif) && !/^[KLMXYZ]/.test(nif) ? "empresa" : "persona_fisica",
  });
  return { href: `${proveedores.path}?${params.toString()}#nuevo`, nombre: String(record.emisor_nombre ?? nif) };
}

/**
 * A note for an approver or administrador who may not act on this gasto because of the
 * separation of duties: they created or edited it on someone's behalf, or approved it
 * and may not mark it paid; or because it is in a remesa, paid when the remesa is confirmed.
 * Null otherwise (the buttons say the rest).
 */
function separacion({ user }: Signed, g: Row & GastoClave, motivos: Motivos | null | undefined): string | null {
  if (!motivos) return null;
  if (
    g.estado === "pendiente" &&
    g.solicitante_id !== user.id &&
    user.rol !== "empleado" &&
    (g.creado_por_id === user.id || g.editado_por_id === user.id)
  )
    return motivos.aprobar;
  if (g.estado === "aprobado" && user.rol === "administrador") return motivos.pagar;
  return null;
}
