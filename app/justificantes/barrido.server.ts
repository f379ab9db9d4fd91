import { backendKind, type Config } from "~/lib/env.server";
import { GRACIA_MS } from "./almacen.server";
import { almacenS3 } from "./almacen.s3.server";
import { BUCKET } from "./almacen.supabase.server";
import { almacenDe, barrerJustificantes } from "./subir.server";

/**
 * The receipts' sweep (ADR 0018), run by the server's primary process: at start and then every
 * hour, so the bytes of a removed receipt or a deleted gasto go at most two hours later (the
 * grace, then a run), not at the next restart. Bytes are never deleted inline (a file may be
 * shared, and "no one references it" races with an upload of the same content): only what no row
 * names and is older than the grace goes.
 *
 * - SQL backend: DATA_DIR/justificantes/, as the database owner (`barrerJustificantes`: at start,
 *   before the workers exist, all of tmp/; afterwards only temp files older than the grace, since
 *   the workers may be staging uploads there at that moment). With ALMACEN_URL, the bucket's
 *   objects below the prefix instead of DATA_DIR's files (tmp/ stays local): every server's
 *   primary sweeps the same bucket, which is harmless (a delete of what another run deleted is
 *   a no-op) and keeps each installation free of a "sweeping server".
 * - Supabase: the bucket, through Storage and PostgREST with the service-role key (like the avisos
 *   worker, ADR 0017); without the key nothing is swept there and the server says so at start.
 *   DATA_DIR/justificantes/tmp (where uploads are staged before they go up) is swept too.
 */
export type Barrido = { stop(): Promise<void> };

const HORA = 60 * 60 * 1000;
const HASH = /^[0-9a-f]{64}$/;
// Folders are gasto ids as the adapter writes them (lower case); anything else is not ours to judge.
const GASTO = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const eliminados = (n: number) => `Justificantes: ${n} archivos sin uso eliminados.`;

export async function startBarrido(
  config: Pick<Config, "DATA_DIR" | "DATABASE_URL" | "SUPABASE_URL" | "SUPABASE_SERVICE_ROLE_KEY" | "ALMACEN_S3">,
  o: {
    /** The SQL backend's database (the embedded one's URL when DATABASE_URL is unset). */
    databaseUrl?: string;
    everyMs?: number;
    graciaMs?: number;
    /** Gasto folders looked at per run on Supabase; the next run goes on from there. */
    carpetas?: number;
    fetch?: typeof fetch;
    log?: (line: string) => void;
  } = {},
): Promise<Barrido> {
  const log = o.log ?? ((line: string) => console.info(line));
  const graciaMs = o.graciaMs ?? GRACIA_MS;
  const dataDir = config.DATA_DIR;
  let pasada: () => Promise<number>;
  let primera: (() => Promise<number>) | undefined;
  let cerrar = () => {};

  if (backendKind(config) === "supabase") {
    const url = config.SUPABASE_URL!.replace(/\/+$/, "");
    const serviceRoleKey = config.SUPABASE_SERVICE_ROLE_KEY?.trim();
    if (!serviceRoleKey)
      log(
        "Justificantes: sin SUPABASE_SERVICE_ROLE_KEY, los archivos de justificantes quitados o de gastos eliminados se quedan en Supabase Storage (nadie puede leerlos).",
      );
    let desde = 0;
    pasada = async () => {
      let n = await almacenDe(dataDir).barrerTemporales({ graciaMs });
      if (serviceRoleKey) {
        const r = await barrerSupabase(
          { url, serviceRoleKey, fetch: o.fetch },
          { graciaMs, desde, carpetas: o.carpetas },
        );
        desde = r.siguiente;
        n += r.eliminados;
      }
      return n;
    };
  } else {
    const databaseUrl = o.databaseUrl ?? config.DATABASE_URL;
    if (!databaseUrl) throw new Error("El barrido de justificantes necesita la base de datos");
    const s3 = config.ALMACEN_S3 ? almacenS3(config.ALMACEN_S3, { temporal: almacenDe(dataDir).temporal }) : undefined;
    if (s3) cerrar = () => s3.cerrar();
    // At start no worker is uploading yet: the whole of tmp/ goes (what a crash left).
    primera = () => barrerJustificantes(databaseUrl, dataDir, { graciaMs, temporales: "todos", s3 });
    // Later, workers may be staging uploads in tmp/: only temp files older than the grace go.
    pasada = () => barrerJustificantes(databaseUrl, dataDir, { graciaMs, s3 });
  }

  const correr = async (barrer: () => Promise<number>) => {
    try {
      const n = await barrer();
      if (n) log(eliminados(n));
    } catch (error) {
      log(
        `Justificantes: el barrido de archivos sin uso falló (${(error as Error).message}); se intentará de nuevo en la próxima pasada.`,
      );
    }
  };

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const everyMs = o.everyMs ?? HORA;
  const tick = () => {
    running = correr(pasada).finally(() => {
      if (!stopped) (timer = setTimeout(tick, everyMs)).unref();
    });
  };
  if (primera) {
    // Awaited: it must finish before the workers start staging uploads in tmp/.
    await correr(primera);
    (timer = setTimeout(tick, everyMs)).unref();
  } else {
    // Supabase: the bucket may be large; the server does not wait for it to start.
    (timer = setTimeout(tick, 0)).unref();
  }
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      cerrar();
    },
  };
}

/** One object (or folder: `id` null) as Storage's list endpoint describes it. */
type Objeto = { name: string; id: string | null; created_at: string | null; updated_at: string | null };

const PAGINA = 100;

/**
 * One run over the bucket with the service-role key: from the `desde`-th gasto folder (by name),
 * at most `carpetas` folders; `siguiente` is where the next run goes on (0: from the start again).
 * In each folder, an object no `justificantes` row of that gasto names (as content or thumbnail)
 * and older than the grace is deleted — an upload is between its object and its row for a moment.
 * The rows are asked for again just before deleting, which narrows the race with a person
 * attaching that same content again to the same gasto (its object already exists, so the upload
 * does not refresh it) to one round trip.
 */
export async function barrerSupabase(
  b: { url: string; serviceRoleKey: string; fetch?: typeof fetch },
  o: { graciaMs?: number; desde?: number; carpetas?: number } = {},
): Promise<{ eliminados: number; siguiente: number }> {
  const graciaMs = o.graciaMs ?? GRACIA_MS;
  const doFetch = b.fetch ?? fetch;
  // The service role reads every row and object; this key goes to these three endpoints only.
  const pedir = (ruta: string, init: Omit<RequestInit, "headers"> & { headers?: Record<string, string> } = {}) =>
    doFetch(`${b.url}${ruta}`, {
      ...init,
      headers: { apikey: b.serviceRoleKey, Authorization: `Bearer ${b.serviceRoleKey}`, ...init.headers },
      // A run never hangs on a request that gets no answer: it fails, and the next run tries again.
      signal: AbortSignal.timeout(30_000),
    });

  async function listar(prefix: string, offset: number): Promise<Objeto[]> {
    const r = await pedir(`/storage/v1/object/list/${BUCKET}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ prefix, limit: PAGINA, offset, sortBy: { column: "name", order: "asc" } }),
    });
    if (!r.ok) throw await fallo(r, "Supabase Storage", "listar los justificantes");
    const body: unknown = await r.json();
    if (!Array.isArray(body)) throw new Error("Supabase Storage no devolvió una lista al listar los justificantes");
    return body as Objeto[];
  }

  /** `<gasto>/<sha256>` of every content and thumbnail the rows of these gastos name. */
  async function referenciados(gastos: string[]): Promise<Set<string>> {
    const nombres = new Set<string>();
    const filtro = `gasto_id=in.(${[...new Set(gastos)].join(",")})`;
    // Counted pages: a project's max-rows may cut a page short, and a row missed here would
    // make its file look unused.
    for (let offset = 0; ;) {
      const r = await pedir(
        `/rest/v1/justificantes?select=gasto_id,sha256,miniatura&${filtro}&order=id&offset=${offset}&limit=1000`,
        { headers: { Prefer: "count=exact" } },
      );
      if (!r.ok) throw await fallo(r, "PostgREST", "leer los justificantes");
      const filas = (await r.json()) as { gasto_id: string; sha256: string; miniatura: string | null }[];
      for (const f of filas) {
        nombres.add(`${f.gasto_id}/${f.sha256}`);
        if (f.miniatura) nombres.add(`${f.gasto_id}/${f.miniatura}`);
      }
      offset += filas.length;
      const total = Number(/\/(\d+)$/.exec(r.headers.get("content-range") ?? "")?.[1]);
      if (!Number.isFinite(total)) throw new Error("PostgREST no dijo cuántos justificantes hay (Content-Range)");
      if (offset >= total) return nombres;
      if (filas.length === 0) throw new Error("PostgREST devolvió menos justificantes de los que contó");
    }
  }

  const viejo = (obj: Objeto) => {
    const t = Math.max(Date.parse(obj.created_at ?? ""), Date.parse(obj.updated_at ?? ""));
    return Number.isFinite(t) && Date.now() - t >= graciaMs;
  };

  /** Deletes what is still unreferenced; returns the names deleted. */
  async function eliminar(candidatos: string[]): Promise<string[]> {
    if (candidatos.length === 0) return [];
    const ahora = await referenciados(candidatos.map((c) => c.split("/")[0]!));
    const sobran = candidatos.filter((c) => !ahora.has(c));
    const borrados: string[] = [];
    for (let i = 0; i < sobran.length; i += PAGINA) {
      const lote = sobran.slice(i, i + PAGINA);
      const r = await pedir(`/storage/v1/object/${BUCKET}`, {
        method: "DELETE",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ prefixes: lote }),
      });
      if (!r.ok) throw await fallo(r, "Supabase Storage", "eliminar los justificantes sin uso");
      await r.body?.cancel();
      borrados.push(...lote);
    }
    return borrados;
  }

  const carpetas = o.carpetas ?? 1000;
  let offset = o.desde ?? 0;
  let vistas = 0;
  let total = 0;
  while (vistas < carpetas) {
    const pagina = await listar("", offset);
    const gastos = pagina.filter((c) => c.id === null && GASTO.test(c.name)).map((c) => c.name);
    const objetos = new Map<string, number>();
    const candidatos: string[] = [];
    if (gastos.length > 0) {
      const usados = await referenciados(gastos);
      for (const gasto of gastos) {
        let n = 0;
        for (let desde = 0; ; desde += PAGINA) {
          const lista = await listar(gasto, desde);
          for (const obj of lista) {
            n++;
            const nombre = `${gasto}/${obj.name}`;
            if (obj.id !== null && HASH.test(obj.name) && !usados.has(nombre) && viejo(obj)) candidatos.push(nombre);
          }
          if (lista.length < PAGINA) break;
        }
        objetos.set(gasto, n);
      }
    }
    const borrados = await eliminar(candidatos);
    total += borrados.length;
    // A folder whose every object went is gone from the listing: the next page starts that much earlier.
    const porGasto = new Map<string, number>();
    for (const gasto of borrados.map((nombre) => nombre.split("/")[0]!))
      porGasto.set(gasto, (porGasto.get(gasto) ?? 0) + 1);
    const vaciadas = [...porGasto].filter(([gasto, n]) => n === objetos.get(gasto)).length;
    vistas += pagina.length;
    if (pagina.length < PAGINA) return { eliminados: total, siguiente: 0 };
    offset += pagina.length - vaciadas;
  }
  return { eliminados: total, siguiente: offset };
}

async function fallo(response: Response, quien: string, que: string) {
  let detalle = "";
  try {
    const b = (await response.json()) as { message?: string };
    if (b?.message) detalle = `: ${b.message}`;
  } catch {
    // not JSON: the status says enough
  }
  return new Error(`${quien} respondió ${response.status} al ${que}${detalle}`);
}
