import { formatTimestamp } from "~/lib/format";
import { useFormats } from "~/ui/page";
import type { CuentaIndicada } from "./remesas.server";

/**
 * Under an IBAN about to be paid (the proposal, a remesa not yet confirmed): who wrote that
 * account, and when, if it was in the 30 days before (docs/producto.md «Remesas»). A recently
 * changed account is how payments get diverted: said where it is read, also when no one was
 * signed in to write it (a load, the SQL editor), the way round the app. `yo`: the reader.
 */
export function CuentaReciente({ cuenta, yo }: { cuenta: CuentaIndicada; yo: string }) {
  const f = useFormats();
  const quien =
    cuenta.por_id === null
      ? "sin sesión en Oficina (una carga de datos o el editor SQL)"
      : cuenta.por_id === yo
        ? "por usted"
        : `por ${cuenta.por ?? "un usuario que ya no está en Oficina"}`;
  return (
    <strong className="cuenta-reciente">
      {" "}
      Cuenta indicada el {formatTimestamp(cuenta.en, f)}, {quien}: compruébela antes de pagar.
    </strong>
  );
}
