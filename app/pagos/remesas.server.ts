import type { AppLoadContext } from "@remix-run/node";
import { requireUser, type Signed } from "~/auth/session.server";
import { forbidden } from "~/crud/respuestas.server";
import { Invalid, UUID, type Store } from "~/data/store";
import { listQueryFor, parseListState } from "~/crud/list-query";
import { gastos } from "~/entities/gastos";
import { pain001, RemesaNoValida, type Direccion, type FormatoPain001, type Remesa } from "./pain001";
import type { CuentaIndicada } from "./cuenta-indicada";

/**
 * Remesas (docs/producto.md «Remesas»): what the screens ask of the database (the rules and the
 * states live in its functions: migrations 20261214000001_remesas.sql and
 * 20261214000002_confirmar_remesa.sql) and the SEPA file built
 * from the remesa's data, stored once and downloaded again as the same bytes.
 */

export async function requireAdministrador(request: Request, context: AppLoadContext): Promise<Signed> {
  const signed = await requireUser(request, context);
  if (signed.user.rol !== "administrador") forbidden("Solo un administrador prepara y gestiona las remesas de pago.");
  return signed;
}

/** A gasto as `remesa_candidatos` answers: `motivo` says why it cannot go (null: it goes). */
export type Candidato = {
  gasto_id: string;
  folio: string;
  descripcion: string;
  fecha_gasto: string;
  importe: string;
  metodo_pago: string;
  beneficiario: "solicitante" | "proveedor" | null;
  nombre: string | null;
  iban: string | null;
  motivo: string | null;
  /** The account was written in the last 30 days: when and by whom (to be checked first). */
  cuenta_reciente: CuentaIndicada | null;
};
export type Candidatos = {
  gastos: Candidato[];
  incluidos: number;
  excluidos: number;
  transferencias: number;
  importe_total: string;
  /** Who and which account each included gasto goes to, as `crear_remesa` checks it again. */
  huella: string;
};

/** The most a remesa takes at once (as the bulk actions). */
export const REMESA_MAXIMO = 500;

/** Approved gastos not yet paid, oldest first, with the database's verdict on each. */
export async function candidatos(store: Store, desde: string | null, hasta: string | null): Promise<Candidatos> {
  const { rows } = await store.list("gastos", {
    columns: ["id"],
    filters: [
      { column: "estado", op: "eq", value: "aprobado" },
      ...(desde ? [{ column: "fecha_gasto", op: "gte" as const, value: desde }] : []),
      ...(hasta ? [{ column: "fecha_gasto", op: "lte" as const, value: hasta }] : []),
    ],
    order: [
      { column: "fecha_gasto", ascending: true },
      { column: "id", ascending: true },
    ],
    limit: REMESA_MAXIMO,
    offset: 0,
  });
  return store.rpc<Candidatos>("remesa_candidatos", { p_gasto_ids: rows.map((r) => r.id) }, { reads: true });
}

/** The database's verdict on the gastos `ids`, in that order (at most REMESA_MAXIMO of them). */
export function candidatosDe(store: Store, ids: string[]): Promise<Candidatos> {
  const unicos = [...new Set(ids.filter((id) => UUID.test(id)))].slice(0, REMESA_MAXIMO);
  return store.rpc<Candidatos>("remesa_candidatos", { p_gasto_ids: unicos }, { reads: true });
}

/**
 * «Crear remesa con todos los que coinciden»: the gastos of the list `lista` (the `/gastos` query
 * string: its filters, view and search, as the list shows them to this person) that are approved
 * and in no live remesa, in the list's order, the first REMESA_MAXIMO; `total` is how many match.
 * A filter value that cannot be read builds nothing: the remesa would hold more than was asked.
 */
export async function candidatosDeLista(signed: Signed, lista: URLSearchParams) {
  const state = parseListState(gastos, lista);
  if (Object.keys(state.errores).length > 0) return { ilegible: true as const };
  const query = listQueryFor(gastos, state, signed.user, [
    { column: "estado", op: "eq", value: "aprobado" },
    { column: "en_remesa", op: "is_null" },
  ]);
  const { rows, total } = await signed.store.list<{ id: string }>(gastos.view, {
    ...query,
    columns: ["id"],
    limit: REMESA_MAXIMO,
    offset: 0,
    count: "estimated",
  });
  const propuesta = await candidatosDe(
    signed.store,
    rows.map((r) => r.id),
  );
  return { ilegible: false as const, propuesta, total };
}

/** A remesa as `remesa_datos` (and `crear_remesa`) answer. */
export type DatosRemesa = {
  id: string;
  folio: string;
  estado: "generada" | "confirmada" | "anulada";
  version: number;
  mensaje_id: string;
  creado_en: string;
  fecha_ejecucion: string;
  num_transferencias: number;
  num_gastos: number;
  importe_total: string;
  xml_guardado: boolean;
  confirmada_en: string | null;
  referencia: string | null;
  anulada_en: string | null;
  motivo_anulacion: string | null;
  /** «Nombre (email)» of who generated, confirmed and annulled it (null: nobody, or no longer a user). */
  creado_por: string | null;
  confirmada_por: string | null;
  anulada_por: string | null;
  cuenta: { id: string; nombre: string; iban: string; bic: string | null; sufijo: string; formato: FormatoPain001 };
  ordenante: { nombre: string; nif: string; pais: string };
  transferencias: {
    end_to_end_id: string;
    beneficiario: "solicitante" | "proveedor";
    nombre: string;
    iban: string;
    importe: string;
    concepto: string;
    /** The account was written in the 30 days before the remesa was generated. */
    cuenta_reciente: CuentaIndicada | null;
    gastos: { id: string; folio: string; descripcion: string; numero_factura: string | null; importe: string }[];
  }[];
};

/**
 * Generates the remesa of `gastoIds` (all must be able to go: the database refuses otherwise and
 * says which and why), builds its SEPA file in the account's format and stores it once. A file
 * the bank would refuse (a name with nothing it can read) annuls the remesa just made, saying
 * why, so its gastos are free again: no remesa stays without its file.
 */
export async function generar(
  store: Store,
  o: { gastoIds: string[]; cuentaId: string; fecha: string; importeTotal: string; huella: string },
): Promise<DatosRemesa> {
  const datos = await store.rpc<DatosRemesa>("crear_remesa", {
    p_gasto_ids: o.gastoIds,
    p_cuenta_id: o.cuentaId,
    p_fecha_ejecucion: o.fecha,
    p_importe_total: o.importeTotal,
    p_huella: o.huella,
  });
  const anular = (motivo: string) =>
    store.rpc("anular_remesa", { p_id: datos.id, p_version: datos.version, p_motivo: motivo });
  try {
    const xml = pain001(remesaSepa(datos, await direccionEmpresa(store)), datos.cuenta.formato);
    await store.rpc("guardar_xml_remesa", { p_id: datos.id, p_xml: xml });
  } catch (error) {
    if (!(error instanceof RemesaNoValida)) {
      // Anything else (a lost connection): a remesa without its file would hold its gastos until
      // someone annulled it. Annulled now if the database still answers; the error is reported.
      await anular("No se pudo generar el fichero SEPA por un error interno.").catch(() => undefined);
      throw error;
    }
    // Which transfer, by the gastos it pays: the name the bank cannot read is not worth quoting.
    const i = /^transferencias\[(\d+)\]/.exec(error.campo)?.[1];
    const folios = i === undefined ? [] : (datos.transferencias[Number(i)]?.gastos ?? []).map((g) => g.folio);
    const de = folios.length ? ` (${folios.length === 1 ? "gasto" : "gastos"} ${folios.join(", ")})` : "";
    const motivo = `No se pudo generar el fichero SEPA: ${error.message.replace(/\.$/, "")}${de}.`;
    await anular(motivo);
    throw new Invalid(
      `${motivo} La remesa ${datos.folio} queda anulada y sus gastos pueden pagarse de nuevo: corrija ese dato y vuelva a generarla.`,
    );
  }
  return datos;
}

/** The company's address for the ordering party (structured, as pain.001.001.09 wants), when complete. */
async function direccionEmpresa(store: Store): Promise<Direccion | undefined> {
  const { rows } = await store.list("empresa", {
    columns: ["direccion", "codigo_postal", "ciudad", "pais"],
    limit: 1,
    offset: 0,
  });
  const e = rows[0];
  if (!e?.direccion || !e.codigo_postal || !e.ciudad) return undefined;
  return { calle: e.direccion, codigoPostal: e.codigo_postal, ciudad: e.ciudad, pais: e.pais };
}

/** The remesa's data as the SEPA writer takes it. */
export function remesaSepa(datos: DatosRemesa, direccion?: Direccion): Remesa {
  return {
    mensajeId: datos.mensaje_id,
    creadaEn: new Date(datos.creado_en),
    fechaEjecucion: datos.fecha_ejecucion,
    ordenante: {
      nombre: datos.ordenante.nombre,
      nif: datos.ordenante.nif,
      sufijo: datos.cuenta.sufijo,
      iban: datos.cuenta.iban,
      ...(datos.cuenta.bic ? { bic: datos.cuenta.bic } : {}),
      ...(direccion ? { direccion } : {}),
    },
    transferencias: datos.transferencias.map((t) => ({
      endToEndId: t.end_to_end_id,
      beneficiario: { nombre: t.nombre, iban: t.iban },
      importe: t.importe,
      concepto: t.concepto,
    })),
  };
}
