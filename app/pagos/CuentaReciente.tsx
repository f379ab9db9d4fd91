import { formatTimestamp } from "~/lib/format";
import { useFormats } from "~/ui/page";
import { quienIndico, type CuentaIndicada } from "./cuenta-indicada";

/**
 * Under an IBAN about to be paid (the proposal, a remesa not yet confirmed): who wrote that
 * account, and when, if it was in the 30 days before (docs/producto.md «Remesas»). A recently
 * changed account is how payments get diverted: said where it is read. `yo`: the reader.
 */
export function CuentaReciente({ cuenta, yo }: { cuenta: CuentaIndicada; yo: string }) {
  const f = useFormats();
  return (
    <strong className="cuenta-reciente">
      {" "}
      Cuenta indicada el {formatTimestamp(cuenta.en, f)}, {quienIndico(cuenta, yo)}: compruébela antes de pagar.
    </strong>
  );
}
