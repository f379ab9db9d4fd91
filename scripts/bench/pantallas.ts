/**
 * The screens `npm run bench` measures, the records they show (chosen from the loaded database)
 * and how one of them is asked for: as a page, or as a POST of «Nuevo gasto».
 */
import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { pedir } from "./peticion";
import type { Database } from "../../app/data/database";
import { addDaysISO, todayISO } from "../../app/lib/dates";

export type Pantalla = {
  id: string;
  nombre: string;
  ruta: string;
  /** Whose cookie (none for the floor). */
  como?: "aprobador" | "administrador";
  /** A POST of «Nuevo gasto»; `"desglose"`: with a two-rate IVA breakdown (one line computed from the rest). */
  crear?: boolean | "desglose";
  /** Text the page must contain (checked once before measuring: a sign-in page is not a result). */
  contiene?: string;
};

/** The server, its sessions, the database, and what a browser sends with every request. */
export type Contexto = {
  base: string;
  cookies: Record<"aprobador" | "administrador", string>;
  db: Kysely<Database>;
  cabeceras: { "accept-encoding": string; accept: string };
};

/** A browser's headers, with `aceptar` as its Accept-Encoding. */
export const cabecerasDeNavegador = (aceptar: string) => ({ "accept-encoding": aceptar, accept: "text/html" });

/** The dates of the filtered page's filter. */
export function rangoDelFiltro() {
  const hoy = todayISO();
  return { desde: addDaysISO(hoy, -270), hasta: addDaysISO(hoy, -90) };
}

export type Parametros = Awaited<ReturnType<typeof elegirParametros>>;

export async function elegirParametros(ctx: Contexto) {
  const { desde, hasta } = rangoDelFiltro();
  // The estado and departamento with most gastos in the range: page 40 (rows 976–1000) exists at 100 000.
  const { rows } = await sql<{ estado: string; departamento_id: string; n: number }>`
    select estado, departamento_id, count(*)::int as n from public.gastos
     where fecha_gasto between ${desde} and ${hasta} group by 1, 2 order by n desc limit 1`.execute(ctx.db);
  const filtro = rows[0]!;
  const filtrado = `/gastos?${new URLSearchParams({ estado: filtro.estado, departamento: filtro.departamento_id, desde, hasta, orden: "importe", dir: "desc", pagina: "40" })}`;
  // A gasto the aprobador may act on, as the list offers it to them.
  const pendientes = await pedir(ctx.base, "/gastos?vista=pendientes", { headers: { Cookie: ctx.cookies.aprobador } });
  const enLista = [...pendientes.cuerpo.toString().matchAll(/[?&;]gasto=([0-9a-f-]{36})/g)].map((m) => m[1]!);
  const gasto = enLista[0];
  if (!gasto)
    throw new Error(
      `El aprobador no tiene gastos pendientes en la lista (${pendientes.status}): ${pendientes.cuerpo.toString().slice(0, 300)}`,
    );
  const { rows: prov } = await sql<{
    id: string;
    razon_social: string;
  }>`select id, razon_social from public.proveedores where activo order by razon_social limit 1 offset 7`.execute(
    ctx.db,
  );
  const proveedor = prov[0]!;
  // A supplier's word for the search: the way people look for «that hotel bill».
  const palabra = proveedor.razon_social.split(/\s+/).find((w) => w.length >= 5) ?? proveedor.razon_social.slice(0, 5);
  // Two words as people type them: one of a gasto's description without its accent and
  // its supplier's name in capitals, in the other order — «telefonica movil» for «Móvil… (Telefónica)».
  const { rows: conAcento } = await sql<{ descripcion: string; razon_social: string }>`
    select g.descripcion, p.razon_social from public.gastos g join public.proveedores p on p.id = g.proveedor_id
     where g.descripcion ~ '[áéíóúñ][a-z]' order by g.id limit 1`.execute(ctx.db);
  const ejemplo = conAcento[0] ?? { descripcion: "Café", razon_social: proveedor.razon_social };
  const acentuada = ejemplo.descripcion.split(/\s+/).find((w) => /[áéíóúñ]/.test(w))!;
  const sinAcento = acentuada
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\p{L}\p{N}]/gu, "")
    .toLowerCase();
  const deProveedor = ejemplo.razon_social.split(/\s+/).find((w) => w.length >= 5) ?? ejemplo.razon_social;
  const palabras = `${deProveedor.toUpperCase()} ${sinAcento}`;
  const conJustificantes = await tresJustificantes(ctx.db, enLista.find((id) => id !== gasto) ?? gasto);
  return { filtrado, filtro, gasto, conJustificantes, proveedor, palabra, palabras };
}

/** The gastos the filtered page's filter matches now. */
export async function coincidenciasDelFiltro(db: Kysely<Database>, filtro: Parametros["filtro"]) {
  const { desde, hasta } = rangoDelFiltro();
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from public.gastos where estado = ${filtro.estado} and departamento_id = ${filtro.departamento_id}
      and fecha_gasto between ${desde} and ${hasta}`.execute(db);
  return rows[0]!.n;
}

/**
 * Gives gasto `id` exactly three receipts (as the owner, as the demo seed does), for the record
 * panel's row with receipts: their thumbnails, names and the duplicates check are what that row
 * adds. The bench reads pages, not files, so the rows need no bytes behind them.
 */
async function tresJustificantes(db: Kysely<Database>, id: string) {
  const h = (s: string) => createHash("sha256").update(s).digest("hex");
  await db.deleteFrom("public.justificantes").where("gasto_id", "=", id).execute();
  const { solicitante_id } = await db
    .selectFrom("public.gastos")
    .select("solicitante_id")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  await db
    .insertInto("public.justificantes")
    .values(
      ["ticket-taxi.jpg", "factura-hotel.pdf", "ticket-comida.png"].map((nombre) => ({
        gasto_id: id,
        nombre,
        tipo: nombre.endsWith(".pdf") ? "application/pdf" : nombre.endsWith(".png") ? "image/png" : "image/jpeg",
        bytes: 180_000,
        sha256: h(`bench ${id} ${nombre}`),
        miniatura: nombre.endsWith(".pdf") ? null : h(`bench ${id} ${nombre} miniatura`),
        subido_por_id: solicitante_id,
      })),
    )
    .execute();
  return id;
}

export function pantallas(p: Parametros): Pantalla[] {
  return [
    {
      id: "suelo",
      nombre: "suelo: HTML estático del tamaño de /gastos",
      ruta: "/build/suelo.html",
      contiene: "<h1>Gastos</h1>",
    },
    // What Express + Remix + React + Sentry cost on this machine before any page of ours does
    // work: a route of the bench's copy with no loader, no session and no form (copia.ts).
    {
      id: "techo",
      nombre: "techo del marco: ruta mínima sin loader ni sesión",
      ruta: "/techo-del-marco",
      contiene: "Techo del marco",
    },
    { id: "login", nombre: "/login sin sesión (sin SQL)", ruta: "/login", contiene: "Iniciar sesión" },
    {
      id: "gastos",
      nombre: "/gastos (vista por defecto, aprobador)",
      ruta: "/gastos",
      como: "aprobador",
      contiene: "<h1>Gastos</h1>",
    },
    {
      id: "filtrado",
      nombre: "/gastos estado+departamento+fechas, por importe, página 40 (admin)",
      ruta: p.filtrado,
      como: "administrador",
      contiene: "<h1>Gastos</h1>",
    },
    {
      id: "ficha",
      nombre: "/gastos?gasto={id} (ficha, aprobador)",
      ruta: `/gastos?gasto=${p.gasto}`,
      como: "aprobador",
      contiene: 'id="gasto"',
    },
    {
      id: "ficha-justificantes",
      nombre: "/gastos?gasto={id} con 3 justificantes (ficha, aprobador)",
      ruta: `/gastos?gasto=${p.conJustificantes}`,
      como: "aprobador",
      contiene: "factura-hotel.pdf",
    },
    {
      id: "busqueda",
      nombre: `/gastos?q=${p.palabra} (búsqueda, admin)`,
      ruta: `/gastos?q=${encodeURIComponent(p.palabra)}`,
      como: "administrador",
      contiene: "<h1>Gastos</h1>",
    },
    {
      id: "busqueda-palabras",
      nombre: `/gastos?q=${p.palabras} (dos palabras, sin acentos, admin)`,
      ruta: `/gastos?q=${encodeURIComponent(p.palabras)}`,
      como: "administrador",
      contiene: "<h1>Gastos</h1>",
    },
    // Two frequent words, each found in tens of thousands of gastos (descriptions «Hotel en
    // {ciudad}…» and hotel suppliers; the branch's city): matches too many to list by id.
    {
      id: "busqueda-frecuentes",
      nombre: "/gastos?q=hotel barcelona (dos palabras frecuentes, admin)",
      ruta: `/gastos?q=${encodeURIComponent("hotel barcelona")}`,
      como: "administrador",
      contiene: "<h1>Gastos</h1>",
    },
    {
      id: "proveedores",
      nombre: `/proveedores?q=${p.palabra} (admin)`,
      ruta: `/proveedores?q=${encodeURIComponent(p.palabra)}`,
      como: "administrador",
      contiene: "<h1>Proveedores</h1>",
    },
    { id: "inicio", nombre: "/ (panel, admin)", ruta: "/", como: "administrador", contiene: "<h1>Panel</h1>" },
    { id: "crear", nombre: "POST /gastos crear (aprobador)", ruta: "/gastos?index", como: "aprobador", crear: true },
    {
      id: "crear-desglose",
      nombre: "POST /gastos crear con desglose de IVA en dos tipos (aprobador)",
      ruta: "/gastos?index",
      como: "aprobador",
      crear: "desglose",
    },
  ];
}

/** Measured in every run, whatever `--pantallas` says: the static floor and the framework's ceiling. */
export const REFERENCIAS = ["suelo", "techo"];

/** The screens measured at the different sizes of `--escala`. */
export const DE_ESCALA = ["gastos", "filtrado", "busqueda", "busqueda-palabras", "busqueda-frecuentes"];

/** Checks the page answers as itself; its HTML's size, plain and as the browser receives it. */
export async function comprobar(ctx: Contexto, p: Pantalla) {
  if (p.crear) return { bytes: 0, gzip: 0 };
  const headers: Record<string, string> = { ...(p.como ? { Cookie: ctx.cookies[p.como] } : {}) };
  const r = await pedir(ctx.base, p.ruta, { headers });
  if (r.status !== 200 || (p.contiene && !r.cuerpo.toString().includes(p.contiene)))
    throw new Error(`${p.ruta} respondió ${r.status} sin «${p.contiene}»: ${r.cuerpo.toString().slice(0, 300)}`);
  const comprimida = await pedir(ctx.base, p.ruta, { headers: { ...headers, ...ctx.cabeceras } });
  return { bytes: r.cuerpo.length, gzip: comprimida.cuerpo.length };
}

/** Two IVA lines: 21 % on a fixed base, and the rest of the importe at 10 % (computed by the server). */
export const DESGLOSE_DOS_TIPOS = {
  "desglose_iva[0].tipo": "21",
  "desglose_iva[0].base": "5,00",
  "desglose_iva[1].tipo": "10",
};

function cuerpoCrear(proveedorId: string, i: number, desglose: boolean) {
  return new URLSearchParams({
    ...(desglose ? DESGLOSE_DOS_TIPOS : {}),
    intent: "crear",
    _envio: crypto.randomUUID(),
    descripcion: `Gasto de prueba de sentencias ${i}`,
    fecha_gasto: todayISO(),
    categoria: "comidas",
    importe: `${20 + i},50`,
    metodo_pago: "tarjeta_credito",
    proveedor_id: proveedorId,
  }).toString();
}

/** The `i`-th of a run of single requests to `p` (a new gasto for a create screen), which must succeed. */
export async function pedirUnaVez(ctx: Contexto, p: Pantalla, i: number, proveedorId: string) {
  const headers: Record<string, string> = p.como ? { Cookie: ctx.cookies[p.como] } : {};
  const r = p.crear
    ? await pedir(ctx.base, p.ruta, {
        method: "POST",
        body: cuerpoCrear(proveedorId, i, p.crear === "desglose"),
        headers: { ...headers, Origin: ctx.base, "Content-Type": "application/x-www-form-urlencoded" },
      })
    : await pedir(ctx.base, p.ruta, { headers });
  if (r.status !== (p.crear ? 302 : 200) || (p.crear && !String(r.headers.location).includes("gasto=")))
    throw new Error(`${p.ruta}: ${r.status} ${r.headers.location ?? ""}`);
}
