import { Form, Link, useNavigate } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

/**
 * The delete confirmation. The server renders it as an open <dialog> in the page — a plain
 * confirm step that works without JavaScript. With JavaScript it becomes a modal (focus kept
 * inside, Escape cancels) the moment it hydrates.
 */
export function ConfirmDialog({
  titleId,
  cancelHref,
  id,
  children,
}: {
  titleId: string;
  cancelHref: string;
  /** The fragment the link that opens it ends with: without JavaScript, focus lands on it. */
  id?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || typeof dialog.showModal !== "function") return;
    dialog.close();
    dialog.showModal();
    const cancel = (event: Event) => {
      event.preventDefault();
      navigate(cancelHref, { replace: true });
    };
    dialog.addEventListener("cancel", cancel);
    return () => dialog.removeEventListener("cancel", cancel);
  }, [cancelHref, navigate]);
  return (
    <dialog ref={ref} open className="confirmar" aria-labelledby={titleId} id={id} tabIndex={id ? -1 : undefined}>
      {children}
    </dialog>
  );
}

/** The delete confirmation's answer: «Sí, eliminar» the record at the version shown, or go back. */
export function FormEliminar({
  version,
  id,
  action,
  cancelHref,
}: {
  version: string | number;
  /** The record's id, for a record open beside its list (whose URL is the list's). */
  id?: string;
  action?: string;
  cancelHref: string;
}) {
  return (
    <Form method="post" className="acciones" action={action}>
      {id ? <input type="hidden" name="id" value={id} /> : null}
      <input type="hidden" name="version" value={version} />
      <button type="submit" name="intent" value="eliminar" className="peligro">
        Sí, eliminar
      </button>
      <Link to={cancelHref}>Cancelar</Link>
    </Form>
  );
}
