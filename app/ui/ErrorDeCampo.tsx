import type { ReactNode } from "react";

/**
 * A refused field's message beside it, as every form of the app shows it: the field names `id` in
 * its `aria-describedby`, and a screen reader hears «Error:» before the message. Nothing without
 * a message.
 */
export function ErrorDeCampo({ id, role, children }: { id: string; role?: "alert"; children?: ReactNode }) {
  if (children === undefined || children === null || children === false || children === "") return null;
  return (
    <p className="error-campo" id={id} role={role}>
      <span className="visually-hidden">Error: </span>
      {children}
    </p>
  );
}
