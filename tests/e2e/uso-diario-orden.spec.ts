import { enLaBaseDeDatos } from "./support-base-de-datos";
import { as, expect, unique, uniqueCode } from "./support";

/** Issue 31: lists sort text in Spanish alphabetical order, not byte order. */
const administrador = as("administrador");

administrador("ordenar por nombre: «Álvaro» e «Íñigo» antes que «Víctor», en los dos sentidos", async ({ page }) => {
  const prefijo = unique("Orden");
  const nombres = ["Víctor", "Íñigo", "Zoe", "Álvaro", "alba"].map((n) => `${prefijo} ${n}`);
  for (const nombre of nombres)
    await enLaBaseDeDatos("insert into public.departamentos (nombre, codigo) values ($1, $2)", [
      nombre,
      uniqueCode("O"),
    ]);
  const enLaTabla = async (dir: "asc" | "desc") => {
    await page.goto(`/departamentos?q=${encodeURIComponent(prefijo)}&orden=nombre&dir=${dir}`);
    await expect(page.getByText("5 departamentos con estos filtros")).toBeVisible();
    return page
      .getByRole("table")
      .getByRole("link", { name: new RegExp(`^${prefijo} `) })
      .allInnerTexts();
  };
  const esperado = ["alba", "Álvaro", "Íñigo", "Víctor", "Zoe"].map((n) => `${prefijo} ${n}`);
  expect(await enLaTabla("asc")).toEqual(esperado);
  expect(await enLaTabla("desc")).toEqual([...esperado].reverse());
});
