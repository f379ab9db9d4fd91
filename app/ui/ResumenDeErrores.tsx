import { useEffect, useRef, type ReactNode } from "react";

/**
 * A summary of errors, GOV.UK style, headed by `titulo`; its callers render it only while there
 * are errors. It takes the focus when it appears and on each new verdict (`firma`), not on every
 * render.
 */
export function ResumenDeErrores({
  id,
  tituloId,
  titulo,
  firma,
  enfocar = true,
  children,
}: {
  id?: string;
  tituloId: string;
  titulo: ReactNode;
  firma: string;
  enfocar?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (enfocar) ref.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new verdict, not every render
  }, [firma]);
  return (
    <div className="resumen-errores" id={id} role="alert" aria-labelledby={tituloId} tabIndex={-1} ref={ref}>
      <h2 id={tituloId}>{titulo}</h2>
      {children}
    </div>
  );
}
