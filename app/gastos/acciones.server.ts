import { json, type AppLoadContext } from "@remix-run/node";
import { requireUser, type Signed } from "~/auth/session.server";
import { UUID, type Filter, type Row } from "~/data/store";
import { createAction, permissions, recordAction, writableNames, type CreateOptions } from "~/crud/crud.server";
import { recordStep } from "~/crud/accion-de-registro.server";
import { SELECCIONAR_TODOS } from "~/crud/list-query";
import { forbidden, getOr404, notFound, redirectWithFlash } from "~/crud/respuestas.server";
import { accionDeRegistro, accionEnBloque } from "~/entities/entity";
import { gastos } from "~/entities/gastos";
import {
  adjuntar,
  almacenDe,
  almacenPara,
  descartar,
  contarSubida,
  recibir,
  resumenSubida,
  SubidaRechazada,
} from "~/justificantes/subir.server";
import { describirDesglose, leerDesglose } from "~/lib/iva";
import { formatMoney } from "~/lib/money";
import type { GastoClave } from "./lista.server";
import { masivo, remesaSeleccion, seleccion } from "./workflow.server";

type Args = { request: Request; context: AppLoadContext; formData?: FormData };

/**
 * Every POST of `/gastos`, by its hidden `intent`: crear (the «Nuevo gasto» form), guardar and
 * eliminar (the panel's borrador), one workflow transition (enviar, retirar, aprobar, rechazar,
 * reabrir, pagar, revertir), bulk (aprobar_seleccion, rechazar_seleccion, pagar_seleccion, masivo), and
 * remesa_seleccion (to the remesa builder with the checked rows). Anything else is a 400. Each
 * other returns to the same URL (the list's filters and the open panel) with a flash.
 */
export async function gastosAction({ request, context }: Args) {
  const signed = await requireUser(request, context);
  // Only «Nuevo gasto» sends files (multipart, streamed to temp files by its own parser).
  if (/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? ""))
    return crearConJustificantes({ request, context }, signed);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const url = new URL(request.url);
  const volver = volverA(url);

  if (intent === "crear")
    return createAction(
      gastos,
      { request, context, formData },
      {
        ...preparar(signed),
        alsoRefused: tambienRechazado(preparar(signed)),
        done: (row, s, url) => creado(row, s, url, formData),
      },
    );
  if (intent === "guardar" || intent === "eliminar")
    return borrador(intent, { request, context, formData }, signed, formData, url);

  // A workflow step on the open gasto (its panel's buttons): the entity's record action.
  const accion = accionDeRegistro(gastos, intent);
  if (accion)
    return recordStep(gastos, accion, { request, context }, signed, {
      id: String(formData.get("id") ?? ""),
      formData,
      volver,
      nombrar: true,
    });
  const ctx = { request, context, signed, formData, volver };
  // A bulk action's summary is about the list: at the top, even with a gasto open.
  const enBloque = accionEnBloque(gastos, intent);
  if (enBloque) return seleccion(enBloque, { ...ctx, volver: volverA(url, [], "#contenido") });
  if (intent === "masivo") return masivo({ ...ctx, volver: volverA(url, ["masivo"], "#contenido") });
  if (intent === "remesa_seleccion") return remesaSeleccion(ctx);
  throw json({ message: "Acción desconocida." }, { status: 400 });
}

/**
 * «Nuevo gasto» with receipts: the body is streamed (files to temp files, never whole in memory),
 * the fields go through the usual create action, and once the gasto exists its files are attached
 * as for the panel (each refused one named with its reason; the gasto is created all the same).
 */
async function crearConJustificantes({ request, context }: Args, signed: Signed) {
  const almacen = almacenPara(context.services, signed.store);
  let recibido;
  try {
    recibido = await recibir(request, almacenDe(context.services.config.DATA_DIR), { maxCampo: 64 * 1024 });
  } catch (error) {
    if (error instanceof SubidaRechazada) throw error.respuesta();
    throw error;
  }
  const { archivos, campos, rechazados } = recibido;
  try {
    if (archivos.length) {
      try {
        await contarSubida(context.services.throttle, signed.user.id, context.services.config.SUBIDAS_POR_PERSONA);
      } catch (error) {
        if (error instanceof SubidaRechazada) throw error.respuesta();
        throw error;
      }
    }
    // The fields, as any other post's body (the files were streamed apart: the body is read).
    const fd = new FormData();
    for (const [name, value] of campos) fd.append(name, value);
    if (fd.get("intent") !== "crear") throw json({ message: "Acción desconocida." }, { status: 400 });
    const respuesta = await createAction(
      gastos,
      { request, context, formData: fd },
      {
        ...preparar(signed),
        alsoRefused: tambienRechazado(preparar(signed)),
        async done(row, s, url) {
          const hecho = await creado(row, s, url, fd);
          if (!archivos.length && !rechazados.length) return hecho;
          const subida = await adjuntar(archivos, {
            gastoId: String(row.id),
            store: s.store,
            almacen,
            existentes: 0,
            reservar: context.services.reservarContenido,
          });
          const r = resumenSubida({ ...subida, rechazados: [...rechazados, ...subida.rechazados] });
          const partes = [hecho.message, r.message, ...r.detalles, r.duplicado?.message].filter(Boolean);
          const aviso = hecho.kind === "aviso" || r.detalles.length > 0 || r.duplicado;
          return {
            ...hecho,
            message: partes.join(" "),
            kind: aviso ? ("aviso" as const) : hecho.kind,
            enlace: hecho.enlace ?? r.duplicado?.enlace,
          };
        },
      },
    );
    // Refused, nothing was kept, and a page rendered again holds no chosen files: the form names
    // them, to be chosen again (CampoArchivos).
    if (respuesta.status === 400 && archivos.length)
      return json(
        { ...(await respuesta.json()), archivosSinGuardar: archivos.map((a) => a.nombre) },
        { status: 400, headers: respuesta.headers },
      );
    return respuesta;
  } finally {
    await descartar(archivos);
  }
}

/**
 * The same page without the one-shot parameters (`index`, a confirm step), at `#contenido`: the
 * top of the page, where the flash is. (The forms post to their own section's anchor, so a
 * refused post shows its errors there without JavaScript; a redirect without a fragment would
 * inherit that anchor and hide the flash.)
 */
export function volverA(url: URL, quitar: string[] = [], ancla?: "#contenido") {
  const params = new URLSearchParams(url.search);
  for (const key of ["index", "eliminar", "quitar", "masivo", SELECCIONAR_TODOS, "nuevo", ...quitar])
    params.delete(key);
  const search = params.toString();
  // With a gasto open, to its panel, where the confirmation shows (root.tsx, useFlashEnPanel).
  return `${url.pathname}${search ? `?${search}` : ""}${ancla ?? (params.has("gasto") ? "#gasto" : "#contenido")}`;
}

/**
 * What the form cannot know by itself, for «Nuevo gasto» and for saving a borrador: the
 * solicitante (only administradores choose; when editing, the one it has), department and branch
 * from the solicitante's profile when left empty, and a supplier still active (the database
 * refuses an inactive one too; when editing, only a change is checked).
 */
function preparar(signed: Signed, actual?: Row) {
  const admin = signed.user.rol === "administrador";
  return {
    async prepare(values: Row, { user, store }: Signed) {
      const elegido = admin && typeof values.solicitante_id === "string" ? values.solicitante_id : null;
      const solicitante = elegido ?? (actual ? String(actual.solicitante_id) : user.id);
      const fieldErrors: Record<string, string[]> = {};
      let perfil: { departamento_id: string | null; sucursal_id: string | null } = user;
      if (solicitante !== user.id) {
        const { rows } = await store.list("usuarios", {
          filters: [{ column: "id", op: "eq", value: solicitante }],
          limit: 1,
          offset: 0,
          count: "none",
        });
        if (!rows[0]) fieldErrors.solicitante_id = ["Solicitante: elija una persona de la lista"];
        perfil = {
          departamento_id: rows[0]?.departamento_id ?? null,
          sucursal_id: rows[0]?.sucursal_id ?? null,
        };
      }
      const departamento_id = values.departamento_id ?? perfil.departamento_id;
      const sucursal_id = values.sucursal_id ?? perfil.sucursal_id;
      if (!departamento_id && !fieldErrors.solicitante_id)
        fieldErrors.departamento_id = ["Departamento: elíjalo (el solicitante no tiene uno en su perfil)"];
      if (!sucursal_id && !fieldErrors.solicitante_id)
        fieldErrors.sucursal_id = ["Sucursal: elíjala (el solicitante no tiene una en su perfil)"];
      const proveedor = values.proveedor_id;
      if (typeof proveedor === "string" && proveedor !== actual?.proveedor_id) {
        const { rows } = await store.list("proveedores", {
          filters: [{ column: "id", op: "eq", value: proveedor }],
          columns: ["id", "activo"],
          limit: 1,
          offset: 0,
          count: "none",
        });
        if (!rows[0]) fieldErrors.proveedor_id = ["Elija un proveedor de la lista"];
        else if (rows[0].activo === false)
          fieldErrors.proveedor_id = ["El proveedor está desactivado: elija un proveedor activo."];
      }
      if (Object.keys(fieldErrors).length) return { fieldErrors };
      return { values: { ...values, solicitante_id: solicitante, departamento_id, sucursal_id } };
    },
  };
}

/**
 * When the schema refuses a gasto: what `prepare` says of the people, department, branch and
 * supplier that did parse (a supplier switched off, a solicitante without a department), so the
 * form shows every error at once.
 */
function tambienRechazado({ prepare }: ReturnType<typeof preparar>, id?: string): CreateOptions["alsoRefused"] {
  return async (formData, signed) => {
    const campos = writableNames(gastos, signed.user, id);
    const uuid = (name: string) => {
      const v = formData.get(name);
      return typeof v === "string" && UUID.test(v.trim()) && (!campos || campos.includes(name)) ? v.trim() : null;
    };
    const prepared = await prepare(
      {
        solicitante_id: uuid("solicitante_id"),
        departamento_id: uuid("departamento_id"),
        sucursal_id: uuid("sucursal_id"),
        proveedor_id: uuid("proveedor_id"),
      },
      signed,
    );
    return ("fieldErrors" in prepared && prepared.fieldErrors) || {};
  };
}

/**
 * After «Nuevo gasto»: its panel, focused (`#gasto`), so «Enviar a aprobación» is the next few
 * Tabs; the flash is a live region, read out all the same. A warning when it looks like a duplicate.
 */
async function creado(row: Row, { store }: Signed, url: URL, formData: FormData) {
  const here = new URLSearchParams(url.search);
  for (const key of ["index", "eliminar", "masivo", "nuevo"]) here.delete(key);
  here.set("gasto", String(row.id));
  const to = `${url.pathname}?${here.toString()}#gasto`;
  const otro = await duplicado(store, row);
  if (!otro)
    return {
      to,
      message: `Gasto creado: ${row.folio}. ${importeCalculado(row, formData)}${ivaCalculado(row, formData)}Revíselo y envíelo a aprobación cuando esté listo.`,
    };
  here.set("gasto", String(otro.id));
  return {
    to,
    kind: "aviso" as const,
    message: `Gasto creado: ${row.folio}. ${ivaCalculado(row, formData)}Atención: parece un duplicado de ${otro.folio} (mismo solicitante, fecha, importe y proveedor).`,
    enlace: { href: `${url.pathname}?${here.toString()}#gasto`, texto: `Ver ${otro.folio}` },
  };
}

/**
 * What the server computed of the IVA breakdown when the form left amounts out (only the importe,
 * or a line with only its tipo): said in the flash so it can be checked.
 */
/** A kilometraje's or a dieta's importe, which the database computes: said, and that a typed one does not count. */
function importeCalculado(row: Row, formData: FormData) {
  if (row.clase !== "kilometraje" && row.clase !== "dieta") return "";
  const escrito = String(formData.get("importe") ?? "").trim() !== "";
  return `Importe calculado: ${formatMoney(String(row.importe))}${escrito ? " (el importe escrito no cuenta: en kilometraje y dietas lo calcula Oficina)" : ""}. `;
}

function ivaCalculado(row: Row, formData: FormData) {
  const escrito = [...formData.entries()].some(
    ([name, value]) => /^desglose_iva\[\d+\]\.(base|cuota)$/.test(name) && String(value).trim() !== "",
  );
  const lineas = leerDesglose(row.desglose_iva);
  // A typed NIF that is a supplier's: the database gave the gasto that supplier.
  const enlazado = !formData.get("proveedor_id") && row.proveedor_id && formData.get("emisor_nif");
  return [
    escrito || !lineas?.length ? "" : `IVA calculado: ${describirDesglose(lineas)}. `,
    enlazado ? "El NIF del emisor es el de un proveedor de la lista: queda como su proveedor. " : "",
  ].join("");
}

/** Another gasto of the same solicitante with the same fecha, importe and proveedor: warned, still created. */
async function duplicado(store: Signed["store"], row: Row) {
  const filters: Filter[] = [
    { column: "solicitante_id", op: "eq", value: row.solicitante_id },
    { column: "fecha_gasto", op: "eq", value: row.fecha_gasto },
    { column: "importe", op: "eq", value: row.importe },
    row.proveedor_id
      ? { column: "proveedor_id", op: "eq", value: row.proveedor_id }
      : { column: "proveedor_id", op: "is_null" },
    { column: "id", op: "neq", value: row.id },
  ];
  const { rows } = await store.list<Row>(gastos.table, {
    filters,
    order: [{ column: "creado_en", ascending: true }],
    limit: 1,
    offset: 0,
    count: "none",
  });
  return rows[0] ?? null;
}

/** Save or delete a borrador from the panel: the generic record action, back to the panel (or the list after a delete). */
async function borrador(intent: "guardar" | "eliminar", args: Args, signed: Signed, formData: FormData, url: URL) {
  const id = String(formData.get("id") ?? url.searchParams.get("gasto") ?? "");
  if (!UUID.test(id)) notFound("El gasto no existe o no tiene acceso a él.");
  const gasto = await getOr404<Row & GastoClave>(signed.store, gastos.view, id);
  if (!permissions(gastos, signed.user, id, gasto).editar)
    forbidden("Solo el solicitante o un administrador pueden editar o eliminar este gasto.");
  const panel = volverA(url);
  if (gasto.estado !== "borrador")
    return redirectWithFlash(
      args.context,
      args.request,
      panel,
      `El gasto ${gasto.folio} ya no está en borrador: otra persona lo ha cambiado, y solo un borrador se edita o se elimina.`,
      "error",
    );
  const preparado = preparar(signed, gasto);
  return recordAction(
    gastos,
    { ...args, params: { id } },
    {
      volver: { guardado: panel, eliminado: volverA(url, ["gasto"]) },
      prepare: preparado.prepare,
      alsoRefused: tambienRechazado(preparado, id),
      record: gasto,
    },
  );
}
