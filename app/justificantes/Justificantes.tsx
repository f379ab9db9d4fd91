import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { numberFormat } from "~/lib/intl";
import { cuenta } from "~/lib/plural";

export type JustificanteVista = {
  id: string;
  nombre: string;
  tipo: string;
  bytes: number;
  miniatura: string | null;
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
 * The file field: a plain `<input type="file" multiple>` (on a phone it offers the camera), so
 * it works without JavaScript; the server checks each file by its content, not by this `accept`.
 * With JavaScript, the chosen files are listed with their size, and one over 10 MB is pointed out
 * before it is sent (the server refuses it anyway).
 */
export function CampoArchivos({ id, etiqueta }: { id: string; etiqueta: string }) {
  const [elegidos, setElegidos] = useState<{ nombre: string; bytes: number }[]>([]);
  return (
    <div className="campo campo-archivos">
      <label htmlFor={id}>{etiqueta}</label>
      <p className="ayuda" id={`${id}-ayuda`}>
        {AYUDA_ARCHIVOS}
      </p>
      <input
        id={id}
        type="file"
        name={CAMPO_ARCHIVOS}
        multiple
        accept={ACCEPT}
        aria-describedby={`${id}-ayuda`}
        onChange={(e) =>
          setElegidos([...(e.currentTarget.files ?? [])].map((f) => ({ nombre: f.name, bytes: f.size })))
        }
      />
      <div aria-live="polite">
        {elegidos.length ? (
          <ul className="archivos-elegidos" aria-label="Archivos elegidos">
            {elegidos.map((f, i) => (
              <li key={i}>
                {f.nombre} · {tamano(f.bytes, "es-ES")}
                {f.bytes > MAX_BYTES_ARCHIVO ? (
                  <strong className="error-archivo"> — ocupa más de 10 MB: no se podrá adjuntar</strong>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}

/**
 * A gasto's receipts in its panel (SPEC §2): a thumbnail (its `alt` is the file name) or the name
 * of each, opening the file; while it is a borrador, whoever may edit it attaches more and
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
  return (
    <section id="justificantes" className="justificantes" aria-labelledby="justificantes-titulo" tabIndex={-1}>
      <h3 id="justificantes-titulo">Justificantes {n ? `(${n})` : ""}</h3>
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
              <a href={`/justificantes/${j.id}`} className="miniatura" target="_blank" rel="noreferrer">
                {j.miniatura ? (
                  <img src={`/justificantes/${j.id}?miniatura`} alt={j.nombre} loading="lazy" />
                ) : (
                  <span className="miniatura-pdf">
                    <span aria-hidden="true">PDF</span>
                    <span className="visually-hidden">{j.nombre}</span>
                  </span>
                )}
              </a>
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
        <Form
          key={justificantes.map((j) => j.id).join()}
          method="post"
          encType="multipart/form-data"
          action={accion}
          className="formulario adjuntar"
        >
          <CampoArchivos id="justificantes-archivos" etiqueta="Adjuntar justificantes" />
          <div className="acciones">
            <button type="submit">Adjuntar</button>
          </div>
        </Form>
      ) : adjuntar ? (
        <p>
          Este gasto ya tiene {cuenta(n, "justificante", "justificantes")}, el máximo: quite alguno para adjuntar otro.
        </p>
      ) : null}
    </section>
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
