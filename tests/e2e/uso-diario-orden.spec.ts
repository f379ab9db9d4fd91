import { enLaBaseDeDatos } from "./support-base-de-datos";
import { ACCOUNTS, as, expect, unique, uniqueCode } from "./support";

/** Issue 31: lists sort text in Spanish alphabetical order, not byte order; one date's gastos, the newest first. */
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

administrador(
  "gastos de una misma fecha: el más reciente primero, y el más antiguo al ordenar al revés",
  async ({ page }) => {
    const marca = unique("Mismo día");
    // One after the other, each its own statement: three creation times on one date.
    for (const n of ["primero", "segundo", "tercero"])
      await enLaBaseDeDatos(
        `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id)
       select $1, current_date - 3, 'comidas', 12.5, 'efectivo', u.id, u.departamento_id, u.sucursal_id
         from usuarios u where lower(u.email) = lower($2)`,
        [`${marca} ${n}`, ACCOUNTS.empleado],
      );
    const enLaLista = async (orden: string) => {
      await page.goto(`/gastos?q=${encodeURIComponent(marca)}${orden}`);
      await expect(page.getByText("3 gastos con estos filtros")).toBeVisible();
      const filas = await page.locator("#resultados tbody tr").allInnerTexts();
      return filas.map((f) => /(primero|segundo|tercero)/.exec(f)?.[1]);
    };
    expect(await enLaLista("")).toEqual(["tercero", "segundo", "primero"]);
    expect(await enLaLista("&orden=fecha_gasto&dir=asc")).toEqual(["primero", "segundo", "tercero"]);
  },
);
