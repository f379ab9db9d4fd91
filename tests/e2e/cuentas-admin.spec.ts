import type pg from "pg";
import { conectarBaseDeDatos } from "./support-base-de-datos";
import { ACCOUNTS, as, expect, expectNoAxeViolations } from "./support";

/**
 * The last active administrador cannot take away their own rol: the office would be
 * left without anyone who manages it. The demo office has three administradores, so the test
 * makes the other two aprobadores for its duration (aprobadores keep approving: no gasto is
 * reassigned) and gives them back their rol afterwards. The two projects take turns under a
 * database lock: while one has put them back, the other's «last administrador» would not be.
 */
const administrador = as("administrador");
const TURNO = 7_256_020; // pg_advisory_lock key: this spec's, nobody else's

administrador(
  "el último administrador no puede quitarse el rol: lo confirma, se le explica por qué y sigue siendo administrador",
  async ({ page }) => {
    const db: pg.Client = await conectarBaseDeDatos();
    let otros: string[] = [];
    try {
      await db.query("select pg_advisory_lock($1)", [TURNO]);
      const yo = (
        await db.query<{ id: string }>("select id from public.usuarios where email = $1", [ACCOUNTS.administrador])
      ).rows[0]!.id;
      otros = (
        await db.query<{ id: string }>(
          `update public.usuarios set rol = 'aprobador'
            where rol = 'administrador' and activo and id <> $1 returning id`,
          [yo],
        )
      ).rows.map((r) => r.id);

      await page.goto(`/usuarios/${yo}`);
      const datos = page.getByRole("region", { name: "Datos" });
      await expect(datos.getByLabel("Rol")).toHaveValue("administrador");
      await datos.getByLabel("Rol").selectOption({ label: "Aprobador" });
      await datos.getByRole("button", { name: "Guardar cambios" }).click();

      // First the app asks (it would be their own permissions)…
      const confirmar = page.getByRole("dialog", { name: "¿Quitarse sus propios permisos de administrador?" });
      await expect(confirmar).toBeVisible();
      await confirmar.getByRole("button", { name: "Sí, guardar los cambios" }).click();

      // …then the database refuses: there would be no administrador left.
      await expect(
        page.getByText("No se puede quitar el rol de administrador al último administrador activo.").first(),
      ).toBeVisible();
      await expectNoAxeViolations(page);

      await page.goto(`/usuarios/${yo}`);
      await expect(page.getByRole("region", { name: "Datos" }).getByLabel("Rol")).toHaveValue("administrador");
    } finally {
      await db.query("update public.usuarios set rol = 'administrador' where id = any($1::uuid[])", [otros]);
      // Should the refusal ever fail, the demo administrador is put back too: the other specs need them.
      await db.query("update public.usuarios set rol = 'administrador' where email = $1 and rol <> 'administrador'", [
        ACCOUNTS.administrador,
      ]);
      await db.query("select pg_advisory_unlock($1)", [TURNO]).catch(() => {});
      await db.end();
    }
  },
);
