import type { Flash as FlashMessage } from "~/lib/flash.server";

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
