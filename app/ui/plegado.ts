import { useState } from "react";

/**
 * `open` for a `<details>` the page opens (an error or a value inside it): once opened it stays
 * so. Were `open` to follow the reason, fixing the error would fold the fields under the
 * person's hands, and a click on them would land elsewhere.
 */
export function useAbiertoDesde(abrir: boolean): true | undefined {
  const [abierto, setAbierto] = useState(abrir);
  if (abrir && !abierto) setAbierto(true);
  return abrir || abierto ? true : undefined;
}
