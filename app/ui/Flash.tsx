import type { Flash as FlashMessage } from "~/lib/flash.server";

/**
 * Whether a page with a record open beside its list shows this message in that record's panel:
 * what was done to the record, yes; a bulk action's summary (`deLaLista`) goes above the list.
 */
export const flashDeLaFicha = (flash: FlashMessage) => !flash.deLaLista;

/** The message after a successful action, announced by screen readers (role="status"). */
export function Flash({ flash }: { flash: FlashMessage }) {
  return (
    <div className={`aviso aviso-${flash.kind}`} role={flash.kind === "error" ? "alert" : "status"}>
      {flash.message}
      {flash.enlace && flash.enlace.href.startsWith("/") && !flash.enlace.href.startsWith("//") ? (
        <>
          {" "}
          <a href={flash.enlace.href}>{flash.enlace.texto}</a>
        </>
      ) : null}
      {flash.detalles?.length ? (
        <ul>
          {flash.detalles.map((d, i) => (
            <li key={i}>{d}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
