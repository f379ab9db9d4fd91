import { Form, Link, useMatches, useNavigate, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { SubmitTakeover, useSubmitTakeover, useTakeOverSubmit } from "~/ui/forms";
import { ErrorDeCampo } from "~/ui/ErrorDeCampo";
import { numberFormat } from "~/lib/intl";
import { cuenta } from "~/lib/plural";
import { enviarConProgreso, soloCambiaElAncla, urlDeDatos } from "./subida";

/** A receipt as the record panel lists it (ADR 0018); its bytes come from `/justificantes/{id}`. */
export type JustificanteVista = {
  id: string;
  nombre: string;
  tipo: string;
  bytes: number;
  miniatura: string | null;
  /** Another gasto (one this person sees) with the same content: a receipt claimed twice? */
  duplicado?: { gasto_id: string; folio: string } | null;
};

/** The file input of every form that attaches receipts (the record panel and «Nuevo gasto»). */
export const CAMPO_ARCHIVOS = "justificantes";
export const ACCEPT = "image/*,application/pdf";
/** As procesar.server.ts's MAX_BYTES (kept apart: that module is server-only). */
const MAX_BYTES_ARCHIVO = 10 * 1024 * 1024;
export const AYUDA_ARCHIVOS =
  "Fotografía o escaneo del ticket o la factura: JPEG, PNG, WebP o PDF, hasta 10 MB cada uno y 10 por gasto.";

/**
 * From this total, with JavaScript, the chosen files go by XMLHttpRequest so that the upload shows
 * its progress (subida.ts); smaller ones are sent in a moment, the ordinary way.
 */
const CON_PROGRESO = 1024 * 1024;

/**
 * The file field: a plain `<input type="file" multiple>` (on a phone it offers the camera), so
 * it works without JavaScript; the server checks each file by its content, not by this `accept`.
 * With JavaScript, the chosen files are listed with their size and a preview of the images, an
 * image over 10 MB is made smaller here before it is sent (`useReducirGrandes`), any other file
 * over 10 MB is pointed out (the server refuses it by name and keeps the rest of the form), and
 * large files are sent with a progress bar (`useEnvioConProgreso`). Its form must provide
 * `SubmitTakeover` (ConformForm does); `ruta` is the id of the route whose action the form posts
 * to (default: the page's own route).
 */
/** «No se ha guardado «ticket.png»: vuelva a elegirlo antes de crear el gasto.» (beside the field and in the summary). */
export const elegirOtraVez = (nombres: readonly string[]) =>
  `${nombres.length === 1 ? "No se ha guardado" : "No se han guardado"} ${nombres.map((n) => `«${n}»`).join(", ")}: ` +
  `${nombres.length === 1 ? "vuelva a elegirlo" : "vuelva a elegirlos"} antes de crear el gasto.`;

export function CampoArchivos({
  id,
  etiqueta,
  ruta,
  sinGuardar = [],
}: {
  id: string;
  etiqueta: string;
  ruta?: string;
  /** The files a refused post brought (the form came back without them): to be chosen again. */
  sinGuardar?: string[];
}) {
  const { archivos, reducidos, reduciendo, ocupado, elegir } = useReducirGrandes();
  const campo = useRef<HTMLInputElement>(null);
  // Files chosen before the page's script took over (a slow connection) are in the field but
  // were never seen by onChange: taken now, they are listed and shrunk like any other.
  useEffect(() => {
    if (campo.current?.files?.length) elegir(campo.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the field becomes interactive
  }, []);
  const vistas = useVistasPrevias(archivos);
  const envio = useEnvioConProgreso(archivos, ruta, reduciendo);
  // With JavaScript the field still holds them after a refusal; without it, it is empty.
  const otraVez = archivos.length ? [] : sinGuardar;
  return (
    <div className="campo campo-archivos">
      <label htmlFor={id}>{etiqueta}</label>
      <p className="ayuda" id={`${id}-ayuda`}>
        {AYUDA_ARCHIVOS}
      </p>
      {otraVez.length ? <ErrorDeCampo id={`${id}-otra-vez`}>{elegirOtraVez(otraVez)}</ErrorDeCampo> : null}
      <input
        ref={campo}
        id={id}
        type="file"
        name={CAMPO_ARCHIVOS}
        multiple
        accept={ACCEPT}
        aria-describedby={otraVez.length ? `${id}-ayuda ${id}-otra-vez` : `${id}-ayuda`}
        onChange={(e) => elegir(e.currentTarget)}
      />
      <div aria-live="polite">
        {archivos.length ? (
          <ul className="archivos-elegidos" aria-label="Archivos elegidos">
            {archivos.map((f, i) => (
              <li key={i}>
                {vistas[i] ? <img src={vistas[i]!} alt={f.name} className="vista-previa" /> : null}
                <span>
                  {f.name} · {tamano(f.size, "es-ES")}
                  {reducidos.has(f)
                    ? ` (reducida desde ${tamano(reducidos.get(f)!, "es-ES")}: ocupaba más de 10 MB)`
                    : null}
                  {f.size > MAX_BYTES_ARCHIVO && !ocupado ? (
                    <strong className="error-archivo">
                      {" "}
                      — ocupa más de 10 MB: no se adjuntará (el resto del formulario sí se guarda)
                    </strong>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {ocupado ? <p className="ayuda">Reduciendo las fotos de más de 10 MB…</p> : null}
      {envio.estado ? (
        <div className="progreso-subida">
          <label htmlFor={`${id}-progreso`}>
            {envio.estado.fase === "subiendo" ? "Enviando los archivos" : "Archivos enviados; comprobándolos"}
          </label>
          <progress
            id={`${id}-progreso`}
            max={100}
            value={envio.estado.fase === "subiendo" ? envio.estado.porcentaje : undefined}
          />
          {envio.estado.fase === "subiendo" ? <span aria-hidden="true">{envio.estado.porcentaje} %</span> : null}
        </div>
      ) : null}
      {envio.fallo ? (
        <p className="error-campo" role="alert">
          No se han podido enviar los archivos: compruebe la conexión y vuelva a pulsar el botón.
        </p>
      ) : null}
      {/* Always there, so that screen readers announce its changes: every tenth of the upload. */}
      <p className="visually-hidden" aria-live="polite">
        {envio.estado?.fase === "subiendo"
          ? `Enviando los archivos: ${Math.floor(envio.estado.porcentaje / 10) * 10} %`
          : envio.estado?.fase === "comprobando"
            ? "Archivos enviados; comprobándolos."
            : ""}
      </p>
    </div>
  );
}

/** The side of a preview, in CSS pixels (drawn at twice that, for sharp screens). */
const LADO_VISTA = 48;

/**
 * A small preview of each chosen image (by its declared type: it is only a preview; the server
 * checks the content), drawn on a canvas as a `data:` URL: the pages' CSP allows images from
 * `data:`, not `blob:` (what `URL.createObjectURL` makes), and a thumbnail of a few KB keeps
 * nothing of a 10 MB photo in memory afterwards. Null for a PDF, or an image the browser cannot
 * decode (its name is still listed).
 */
function useVistasPrevias(archivos: File[]) {
  const [vistas, setVistas] = useState<{ de: File[]; urls: (string | null)[] }>({ de: [], urls: [] });
  useEffect(() => {
    let vigente = true;
    (async () => {
      const urls: (string | null)[] = [];
      // One at a time: each full-size decode is dropped before the next.
      for (const archivo of archivos) urls.push(await vistaPrevia(archivo));
      if (vigente) setVistas({ de: archivos, urls });
    })();
    return () => {
      vigente = false;
    };
  }, [archivos]);
  return vistas.de === archivos ? vistas.urls : [];
}

async function vistaPrevia(archivo: File): Promise<string | null> {
  if (!archivo.type.startsWith("image/") || typeof createImageBitmap !== "function") return null;
  try {
    const imagen = await createImageBitmap(archivo);
    const escala = Math.min(1, (2 * LADO_VISTA) / Math.max(imagen.width, imagen.height));
    const lienzo = document.createElement("canvas");
    lienzo.width = Math.max(1, Math.round(imagen.width * escala));
    lienzo.height = Math.max(1, Math.round(imagen.height * escala));
    lienzo.getContext("2d")?.drawImage(imagen, 0, 0, lienzo.width, lienzo.height);
    imagen.close();
    return lienzo.toDataURL();
  } catch {
    return null;
  }
}

/**
 * The chosen files, with each image over MAX_BYTES_ARCHIVO replaced by a JPEG of it small enough
 * (re-encoded on a canvas, `reducir`) in the input itself, so the form sends the smaller one
 * whichever way it goes. `reduciendo` holds the work in progress: a submission waits for it.
 * A file that cannot be made smaller (a PDF, an image the browser cannot read) stays as chosen.
 */
function useReducirGrandes() {
  const [archivos, setArchivos] = useState<File[]>([]);
  const [reducidos, setReducidos] = useState<Map<File, number>>(new Map());
  const reduciendo = useRef<Promise<void> | null>(null);
  const eleccion = useRef(0);
  const [ocupado, setOcupado] = useState(false);
  function elegir(input: HTMLInputElement) {
    const esta = ++eleccion.current;
    reduciendo.current = null;
    setOcupado(false);
    const elegidos = [...(input.files ?? [])];
    setArchivos(elegidos);
    setReducidos(new Map());
    if (!elegidos.some((f) => f.size > MAX_BYTES_ARCHIVO && f.type.startsWith("image/"))) return;
    setOcupado(true);
    const trabajo = (async () => {
      const nuevos: File[] = [];
      const antes = new Map<File, number>();
      // One at a time: a full-size decode of each photo is dropped before the next.
      for (const f of elegidos) {
        const menor = f.size > MAX_BYTES_ARCHIVO && f.type.startsWith("image/") ? await reducir(f) : null;
        if (menor) antes.set(menor, f.size);
        nuevos.push(menor ?? f);
      }
      // Unless another choice was made meanwhile.
      if (eleccion.current !== esta) return;
      const lista = new DataTransfer();
      for (const f of nuevos) lista.items.add(f);
      input.files = lista.files;
      setArchivos(nuevos);
      setReducidos(antes);
    })();
    reduciendo.current = trabajo;
    void trabajo.finally(() => {
      if (eleccion.current !== esta) return;
      reduciendo.current = null;
      setOcupado(false);
    });
  }
  return { archivos, reducidos, reduciendo, ocupado, elegir };
}

/** Receipts are read, not printed: the server scales larger photos down to this side anyway. */
const LADO_MAXIMO = 4000;

/**
 * A JPEG of `archivo` under MAX_BYTES_ARCHIVO: scaled to LADO_MAXIMO, then lower quality, then
 * smaller, until it fits. Null when the browser cannot read it or it will not fit.
 */
async function reducir(archivo: File): Promise<File | null> {
  if (typeof createImageBitmap !== "function") return null;
  let imagen: ImageBitmap;
  try {
    imagen = await createImageBitmap(archivo);
  } catch {
    return null;
  }
  try {
    let escala = Math.min(1, LADO_MAXIMO / Math.max(imagen.width, imagen.height));
    for (const calidad of [0.85, 0.75, 0.65, 0.65, 0.65, 0.65]) {
      const lienzo = document.createElement("canvas");
      lienzo.width = Math.max(1, Math.round(imagen.width * escala));
      lienzo.height = Math.max(1, Math.round(imagen.height * escala));
      lienzo.getContext("2d")?.drawImage(imagen, 0, 0, lienzo.width, lienzo.height);
      const blob = await new Promise<Blob | null>((resolve) => lienzo.toBlob(resolve, "image/jpeg", calidad));
      lienzo.width = lienzo.height = 0; // its pixels are not kept until the next collection
      if (blob && blob.size <= MAX_BYTES_ARCHIVO) {
        const nombre = archivo.name.replace(/\.[^.]*$/, "") || "foto";
        return new File([blob], `${nombre}.jpg`, { type: "image/jpeg", lastModified: archivo.lastModified });
      }
      if (calidad <= 0.65) escala *= 0.75;
    }
    return null;
  } finally {
    imagen.close();
  }
}

type EstadoEnvio = { fase: "subiendo"; porcentaje: number } | { fase: "comprobando" };

/**
 * Takes over its form's submission (after the form's own validation) when the chosen files add
 * up to more than CON_PROGRESO and none is over the limit: the form goes by XMLHttpRequest to
 * Remix's data endpoint, its progress shown; a redirect is then followed as Remix follows its own.
 * Any other answer (fields or files refused, an error) means nothing was stored, so the form is
 * then simply submitted again the ordinary way, which shows exactly what it shows today — at the
 * cost of sending the files twice in that rare case, rather than imitating how Remix turns each
 * kind of answer into a page. While chosen photos are being made smaller, a submission waits for
 * them and then goes on by itself.
 */
function useEnvioConProgreso(
  archivos: File[],
  ruta: string | undefined,
  reduciendo: { readonly current: Promise<void> | null },
) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const matches = useMatches();
  const rutaId = ruta ?? matches[matches.length - 1]!.id;
  const [estado, setEstado] = useState<EstadoEnvio | null>(null);
  const [fallo, setFallo] = useState(false);
  const enCurso = useRef<(() => void) | null>(null);
  const ordinario = useRef(false);
  // A page left mid-upload cancels it, as Remix cancels its own submission.
  useEffect(() => () => enCurso.current?.(), []);

  useTakeOverSubmit((event) => {
    if (ordinario.current) return;
    const form = event.currentTarget;
    const boton = (event.nativeEvent as SubmitEvent).submitter;
    const pendiente = reduciendo.current;
    if (pendiente) {
      event.preventDefault();
      void pendiente.then(() => form.requestSubmit(boton));
      return;
    }
    const total = archivos.reduce((suma, f) => suma + f.size, 0);
    if (!enCurso.current && total <= CON_PROGRESO) return;
    event.preventDefault();
    if (enCurso.current) return; // pressed again while sending: one upload at a time
    const { respuesta, cancelar } = enviarConProgreso(
      urlDeDatos(form.getAttribute("action") ?? "", rutaId, window.location.href),
      new FormData(form, boton),
      {
        progreso: (f) => setEstado({ fase: "subiendo", porcentaje: Math.floor(f * 100) }),
        subido: () => setEstado({ fase: "comprobando" }),
      },
    );
    enCurso.current = cancelar;
    setFallo(false);
    setEstado({ fase: "subiendo", porcentaje: 0 });
    respuesta.then(async (r) => {
      if (r.tipo === "redireccion") {
        if (r.recargar) return window.location.assign(r.destino);
        const soloAncla = soloCambiaElAncla(window.location.href, r.destino);
        await navigate(r.destino, { replace: r.reemplazar });
        if (soloAncla) await revalidator.revalidate();
      } else if (r.tipo === "otra") {
        ordinario.current = true;
        try {
          form.requestSubmit(boton);
        } finally {
          ordinario.current = false;
        }
      } else setFallo(true);
      enCurso.current = null;
      setEstado(null);
    });
  });
  return { estado, fallo };
}

/**
 * A gasto's receipts in its panel: a thumbnail (its `alt` is the file name) or the name
 * of each, opening it in the viewer above them; while it is a borrador, whoever may edit it attaches more and
 * removes one after a confirm step. Every form is plain HTML posted to
 * `/gastos/{id}/justificantes`, which comes back to `volver` (this page) with a message.
 */
export function Justificantes({
  gastoId,
  justificantes,
  adjuntar,
  confirmarQuitar,
  aqui,
  locale,
}: {
  gastoId: string;
  justificantes: JustificanteVista[];
  adjuntar: boolean;
  confirmarQuitar: JustificanteVista | null;
  /** This page (the list's filters and the open panel), where the forms come back to. */
  aqui: string;
  locale: string;
}) {
  const accion = `/gastos/${gastoId}/justificantes?volver=${encodeURIComponent(aqui)}`;
  const quitar = (j: JustificanteVista) => `${aqui}${aqui.includes("?") ? "&" : "?"}quitar=${j.id}#justificantes`;
  const n = justificantes.length;
  const [params] = useSearchParams();
  const visto = justificantes.find((j) => j.id === params.get("ver")) ?? null;
  return (
    <section id="justificantes" className="justificantes" aria-labelledby="justificantes-titulo" tabIndex={-1}>
      <h3 id="justificantes-titulo">Justificantes {n ? `(${n})` : ""}</h3>
      {visto ? <Visor j={visto} zoom={nivelZoom(params.get("zoom"))} aqui={aqui} /> : null}
      {confirmarQuitar ? (
        <section className="confirmar" aria-labelledby="quitar-titulo">
          <h4 id="quitar-titulo">¿Quitar el justificante «{confirmarQuitar.nombre}»?</h4>
          <p>El gasto se queda sin este archivo; puede volver a adjuntarlo mientras esté en borrador.</p>
          <Form method="post" action={accion} className="acciones">
            <input type="hidden" name="justificante" value={confirmarQuitar.id} />
            <button type="submit" name="intent" value="eliminar" className="peligro">
              Sí, quitar
            </button>
            <Link to={`${aqui}#justificantes`}>Cancelar</Link>
          </Form>
        </section>
      ) : null}
      {n === 0 ? (
        <p className="sin-justificantes">Este gasto no tiene justificantes.</p>
      ) : (
        <ul className="lista-justificantes">
          {justificantes.map((j) => (
            <li key={j.id}>
              <Link
                to={enVisor(aqui, { ver: j.id, zoom: null })}
                className="miniatura"
                aria-current={visto?.id === j.id ? "true" : undefined}
              >
                {j.miniatura ? (
                  <img src={`/justificantes/${j.id}?miniatura`} alt={j.nombre} loading="lazy" />
                ) : (
                  <span className="miniatura-pdf">
                    <span aria-hidden="true">PDF</span>
                    <span className="visually-hidden">{j.nombre}</span>
                  </span>
                )}
              </Link>
              <span className="nombre-justificante">{j.nombre}</span>
              <span className="detalle-justificante">
                {tipoCorto(j.tipo)} · {tamano(j.bytes, locale)}
              </span>
              {j.duplicado ? (
                <span className="duplicado-justificante">
                  <strong>Aviso:</strong> también está en{" "}
                  <a href={`/gastos?gasto=${j.duplicado.gasto_id}#gasto`}>{j.duplicado.folio}</a>
                </span>
              ) : null}
              {adjuntar ? (
                <Link to={quitar(j)} className="quitar-justificante" aria-label={`Quitar «${j.nombre}»…`}>
                  Quitar…
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {adjuntar && justificantes.some((j) => j.duplicado) ? (
        <p className="aviso aviso-aviso">
          Algún justificante ya está adjunto a otro gasto. Si es correcto (por ejemplo, una factura con varios
          conceptos), al enviarlo a aprobación se le pedirá el motivo, que quedará en el historial; si no, quítelo.
        </p>
      ) : null}
      {adjuntar && n < 10 ? (
        // Keyed by the receipts: after an upload (with JavaScript the page is not reloaded) the
        // field starts empty again, so the same files are not sent twice.
        <FormularioAdjuntar key={justificantes.map((j) => j.id).join()} accion={accion} />
      ) : adjuntar ? (
        <p>
          Este gasto ya tiene {cuenta(n, "justificante", "justificantes")}, el máximo: quite alguno para adjuntar otro.
        </p>
      ) : null}
    </section>
  );
}

/** The viewer's sizes, in % of the panel's width: «Ampliar» and «Reducir» step through them. */
const ZOOM = [100, 150, 200, 300] as const;
type Zoom = (typeof ZOOM)[number];
function nivelZoom(v: string | null): Zoom {
  return ZOOM.find((z) => String(z) === v) ?? 100;
}

/** This page with the viewer's parameters set (`null` drops one), opening at the viewer. */
function enVisor(aqui: string, cambios: { ver: string | null; zoom: Zoom | null }) {
  const url = new URL(aqui, "http://x");
  for (const [k, v] of Object.entries(cambios))
    if (v === null || v === 100) url.searchParams.delete(k);
    else url.searchParams.set(k, String(v));
  return `${url.pathname}${url.search}#${cambios.ver ? "visor" : "justificantes"}`;
}

/**
 * A receipt shown in the panel beside the gasto's data (`?ver={id}`), larger step by step
 * (`&zoom=`): links, so it works without JavaScript and with the keyboard; the image's frame
 * takes focus and scrolls with the arrow keys. A PDF opens in the browser's own viewer: the file
 * is served sandboxed, which PDF viewers refuse inside a page.
 */
function Visor({ j, zoom, aqui }: { j: JustificanteVista; zoom: Zoom; aqui: string }) {
  const i = ZOOM.indexOf(zoom);
  const imagen = j.tipo.startsWith("image/");
  const abrir = (
    <a href={`/justificantes/${j.id}`} target="_blank" rel="noreferrer">
      Abrir el archivo
    </a>
  );
  return (
    <section id="visor" className="visor" aria-labelledby="visor-titulo" tabIndex={-1}>
      <h4 id="visor-titulo">Justificante «{j.nombre}»</h4>
      <p className="acciones-visor">
        {imagen ? (
          <>
            {i > 0 ? <Link to={enVisor(aqui, { ver: j.id, zoom: ZOOM[i - 1]! })}>Reducir</Link> : null}
            <span>Tamaño: {zoom} %</span>
            {i < ZOOM.length - 1 ? <Link to={enVisor(aqui, { ver: j.id, zoom: ZOOM[i + 1]! })}>Ampliar</Link> : null}
          </>
        ) : null}
        {abrir}
        <Link to={enVisor(aqui, { ver: null, zoom: null })}>Cerrar el visor</Link>
      </p>
      {imagen ? (
        // A scrolling frame takes focus so the arrow keys move the image (WCAG 2.1.1; axe's scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        <div className="visor-marco" tabIndex={0} role="group" aria-label={`${j.nombre} al ${zoom} %`}>
          <img src={`/justificantes/${j.id}`} alt={j.nombre} className={`visor-zoom-${zoom}`} />
        </div>
      ) : (
        <p>Los PDF se ven en el visor de su navegador: {abrir}.</p>
      )}
    </section>
  );
}

/** «Adjuntar justificantes» in the panel: plain multipart, or with progress (CampoArchivos) for large files. */
function FormularioAdjuntar({ accion }: { accion: string }) {
  const takeover = useSubmitTakeover();
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      action={accion}
      className="formulario adjuntar"
      onSubmit={takeover.onSubmit}
    >
      <SubmitTakeover value={takeover.register}>
        <CampoArchivos
          id="justificantes-archivos"
          etiqueta="Adjuntar justificantes"
          ruta="routes/gastos.$id.justificantes"
        />
      </SubmitTakeover>
      <div className="acciones">
        <button type="submit">Adjuntar</button>
      </div>
    </Form>
  );
}

function tipoCorto(tipo: string) {
  return { "image/jpeg": "JPEG", "image/png": "PNG", "image/webp": "WebP", "application/pdf": "PDF" }[tipo] ?? tipo;
}

/** «12 kB», «1,2 MB» in the page's locale. */
export function tamano(bytes: number, locale: string) {
  const kb = bytes / 1024;
  if (kb < 1024) return `${numberFormat(locale, { maximumFractionDigits: 0 }).format(Math.max(1, kb))} kB`;
  return `${numberFormat(locale, { maximumFractionDigits: 1 }).format(kb / 1024)} MB`;
}
