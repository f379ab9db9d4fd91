import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlStore } from "~/data/sql/adapter.server";
import { addDaysISO, addYearsISO, todayISO } from "~/lib/dates";
import { loader as exportar } from "~/routes/gastos.exportar";
import { createTestApp, ORIGIN, request, respond } from "../support/app";
import { insertDepartamento, insertSucursal, setProfile } from "../support/fixtures";
import { gastosPage } from "../support/gastos";

/**
 * Bulk actions of /gastos through the real action on a real Postgres: the result
 * names the folios changed and those refused with why; «Marcar como pagados» for
 * administradores with one date and reference for all (every error at once); and the CSV an
 * empleado downloads has the columns the list shows them (no «Solicitante»).
 */
let app: Awaited<ReturnType<typeof createTestApp>>;
type U = Awaited<ReturnType<typeof app.createUser>>;
let admin: U, aprobador: U, empleado: U;
let presupuestado: string;
const hoy = todayISO();

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
  const ventas = await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" });
  // 30 € a month: two of this file's gastos pass it.
  presupuestado = await insertDepartamento(app.db, {
    nombre: "Marketing",
    codigo: "MKT",
    presupuesto_mensual: "30.00",
  });
  const suc = await insertSucursal(app.db);
  await setProfile(app.db, admin.id, { departamento_id: ventas, sucursal_id: suc });
  await setProfile(app.db, aprobador.id, { departamento_id: ventas, sucursal_id: suc });
  await setProfile(app.db, empleado.id, { departamento_id: ventas, sucursal_id: suc, aprobador_id: aprobador.id });
});
afterAll(() => app.close());

const { post, row, created } = gastosPage(() => app);
async function flashOf(r: Response) {
  const cookie = r.headers.get("Set-Cookie")?.split(";")[0];
  if (!cookie) return null;
  return (await app.services.flash.take(new Request(ORIGIN, { headers: { Cookie: cookie } }))).flash;
}
const rpc = (u: U, fn: string, args: Record<string, unknown>) =>
  sqlStore(app.db, u.id).rpc<{ version: number }>(fn, args);
let seq = 0;
/** A gasto of Elena's in `estado` (approved by Pablo, her aprobador). */
async function gasto(
  estado: "borrador" | "pendiente" | "aprobado",
  descripcion = "Gasto en bloque",
  extra: Record<string, string> = {},
) {
  seq += 1;
  let g = await created(
    await post(
      {
        intent: "crear",
        descripcion: `${descripcion} ${seq}`,
        fecha_gasto: hoy,
        categoria: "comidas",
        importe: `${20 + seq},00`,
        metodo_pago: "tarjeta_corporativa",
        ...extra,
      },
      empleado.cookie,
    ),
  );
  if (estado === "borrador") return g;
  await rpc(empleado, "enviar_gasto", { p_id: g.id, p_version: g.version });
  g = await row(g.id);
  if (estado === "aprobado") {
    await rpc(aprobador, "aprobar_gasto", { p_id: g.id, p_version: g.version });
    g = await row(g.id);
  }
  return g;
}
const sel = (...gs: { id: string; version: number }[]) => gs.map((g) => `${g.id}:${g.version}`);

describe("acciones en bloque", () => {
  it("aprobar: el resultado nombra los folios aprobados y los rechazados con el porqué", async () => {
    const a = await gasto("pendiente");
    const b = await gasto("pendiente");
    const aprobado = await gasto("aprobado");
    const r = await post(
      { intent: "aprobar_seleccion", seleccion: sel(a, b, aprobado), confirmado: "1" },
      aprobador.cookie,
    );
    expect(r.status).toBe(302);
    const flash = await flashOf(r);
    expect(flash?.message).toBe("Se han aprobado 2 de 3 gastos. Uno no se pudo aprobar:");
    expect(flash?.detalles?.[0]).toBe(`Aprobados: ${a.folio}, ${b.folio}.`);
    expect(flash?.detalles?.[1]).toMatch(new RegExp(`^${aprobado.folio}: .*pendiente`));
    expect((await row(a.id)).estado).toBe("aprobado");
  });

  it("enviar a aprobación: los borradores propios a la vez; lo que no es un borrador se dice, y los demás no lo envían", async () => {
    const a = await gasto("borrador");
    const b = await gasto("borrador");
    const pendiente = await gasto("pendiente");
    const r = await post({ intent: "enviar_seleccion", seleccion: sel(a, b, pendiente) }, empleado.cookie);
    expect(r.status).toBe(302);
    const flash = await flashOf(r);
    expect(flash?.message).toBe("Se han enviado a aprobación 2 de 3 gastos. Uno no se pudo enviar a aprobación:");
    expect(flash?.detalles?.[0]).toBe(`Enviados a aprobación: ${a.folio}, ${b.folio}.`);
    expect(flash?.detalles?.[1]).toMatch(new RegExp(`^${pendiente.folio}: .*borrador`));
    expect([(await row(a.id)).estado, (await row(b.id)).estado]).toEqual(["pendiente", "pendiente"]);
    // Elena's aprobador may not send her drafts: the database says so, nothing changes.
    const c = await gasto("borrador");
    const ajeno = await post({ intent: "enviar_seleccion", seleccion: sel(c) }, aprobador.cookie);
    expect((await flashOf(ajeno))?.message).toMatch(/^No se pudo enviar a aprobación el gasto/);
    expect((await row(c.id)).estado).toBe("borrador");
  });

  it("más seleccionados de los que caben en un envío: 400 con el límite, antes de leer nada, y nada cambia", async () => {
    const a = await gasto("pendiente");
    const falsos = Array.from({ length: 500 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}:1`);
    const r = await post(
      { intent: "aprobar_seleccion", seleccion: [...sel(a), ...falsos], confirmado: "1" },
      aprobador.cookie,
    );
    expect(r.status).toBe(400);
    expect(((await r.json()) as { result: { error: Record<string, string[]> } }).result.error).toEqual({
      seleccion: ["Marque como mucho 500 gastos a la vez; el resto, en otro envío. No se ha cambiado nada."],
    });
    expect((await row(a.id)).estado).toBe("pendiente");
  });

  it("aprobar seleccionados con avisos pide confirmar antes: sin justificante y el presupuesto en euros; nada cambia hasta «sí»", async () => {
    const a = await gasto("pendiente", "Con aviso", { departamento_id: presupuestado });
    const b = await gasto("pendiente", "Con aviso", { departamento_id: presupuestado });
    const r = await post({ intent: "aprobar_seleccion", seleccion: sel(a, b) }, aprobador.cookie);
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.intent).toBe("aprobar_seleccion");
    expect(body.seleccion).toEqual(sel(a, b));
    expect(body.confirmar.gastos.map((g: { folio: string }) => g.folio)).toEqual([a.folio, b.folio]);
    for (const g of body.confirmar.gastos)
      expect(g.avisos).toEqual(["No lleva justificante.", "Cuenta para el presupuesto superado de Marketing."]);
    expect(body.confirmar.presupuestos).toEqual([
      expect.stringMatching(
        /^Aprobados todos, Marketing pasaría de su presupuesto de \p{L}+ de \d{4} en [\d.]+,\d\d € \([\d.]+,\d\d € de 30,00 €\)\.$/u,
      ),
    ]);
    for (const g of [a, b]) expect((await row(g.id)).estado).toBe("pendiente");
    // Confirmed: approved as before, each checked on its own.
    const si = await post({ intent: "aprobar_seleccion", seleccion: sel(a, b), confirmado: "1" }, aprobador.cookie);
    expect(si.status).toBe(302);
    expect((await flashOf(si))?.message).toBe("Se han aprobado 2 gastos.");
    for (const g of [a, b]) expect((await row(g.id)).estado).toBe("aprobado");
  });

  it("marcar como pagados: un administrador, una fecha y una referencia para todos; lo que no está aprobado se dice", async () => {
    const a = await gasto("aprobado");
    const b = await gasto("aprobado");
    const pendiente = await gasto("pendiente");
    const r = await post(
      { intent: "pagar_seleccion", seleccion: sel(a, b, pendiente), fecha_pago: hoy, referencia_pago: "TR-BLOQUE" },
      admin.cookie,
      "/gastos?index&estado=aprobado",
    );
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/gastos?estado=aprobado#contenido");
    const flash = await flashOf(r);
    expect(flash?.kind).toBe("aviso");
    expect(flash?.message).toBe("Se han marcado como pagados 2 de 3 gastos. Uno no se pudo marcar como pagado:");
    expect(flash?.detalles?.[0]).toBe(`Marcados como pagados: ${a.folio}, ${b.folio}.`);
    expect(flash?.detalles?.[1]).toMatch(new RegExp(`^${pendiente.folio}: `));
    for (const g of [a, b])
      expect(await row(g.id)).toMatchObject({ estado: "pagado", fecha_pago: hoy, referencia_pago: "TR-BLOQUE" });
    expect((await row(pendiente.id)).estado).toBe("pendiente");
  });

  it("marcar como pagados: a más de un año y sin referencia, los dos errores a la vez y nada cambia", async () => {
    const a = await gasto("aprobado");
    const r = await post(
      {
        intent: "pagar_seleccion",
        seleccion: sel(a),
        fecha_pago: addDaysISO(addYearsISO(hoy, 1), 1),
        referencia_pago: " ",
      },
      admin.cookie,
    );
    expect(r.status).toBe(400);
    const body = await r.json();
    expect(Object.keys(body.result.error).sort()).toEqual(["fecha_pago", "referencia_pago"]);
    expect(body.result.error.fecha_pago).toEqual([
      "Fecha de pago: puede ser futura (la fecha valor), pero como mucho dentro de un año",
    ]);
    expect((await row(a.id)).estado).toBe("aprobado");
  });

  it("marcar como pagados con una fecha valor futura (hasta un año): cada gasto, con esa fecha", async () => {
    const a = await gasto("aprobado");
    const b = await gasto("aprobado");
    const valor = addYearsISO(hoy, 1);
    const r = await post(
      { intent: "pagar_seleccion", seleccion: sel(a, b), fecha_pago: valor, referencia_pago: "TR-VALOR" },
      admin.cookie,
    );
    expect(r.status).toBe(302);
    expect((await flashOf(r))?.message).toBe("Se han marcado como pagados 2 gastos.");
    for (const g of [a, b])
      expect(await row(g.id)).toMatchObject({ estado: "pagado", fecha_pago: valor, referencia_pago: "TR-VALOR" });
  });

  it("marcar como pagados es solo de administradores", async () => {
    const a = await gasto("aprobado");
    const r = await post(
      { intent: "pagar_seleccion", seleccion: sel(a), fecha_pago: hoy, referencia_pago: "TR-2" },
      aprobador.cookie,
    );
    expect(r.status).toBe(403);
    expect((await row(a.id)).estado).toBe("aprobado");
  });

  it("volver tras la acción quita «seleccionar todos»: la lista no vuelve con todo marcado", async () => {
    const a = await gasto("pendiente");
    const r = await post(
      { intent: "aprobar_seleccion", seleccion: sel(a), confirmado: "1" },
      aprobador.cookie,
      "/gastos?index&vista=pendientes&seleccionar=todos",
    );
    expect(r.headers.get("Location")).toBe("/gastos?vista=pendientes#contenido");
  });
});

describe("CSV", () => {
  const cabecera = async (u: U) => {
    const r = await respond(() =>
      exportar({
        request: request("/gastos/exportar?formato=csv", { cookie: u.cookie }),
        context: app.context(),
        params: {},
      }),
    );
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await r.arrayBuffer());
    return text.slice(1).split("\r\n")[0];
  };

  it("el de un empleado no tiene «Solicitante», como su lista; el de un aprobador sí", async () => {
    await gasto("borrador");
    expect(await cabecera(empleado)).not.toContain('"Solicitante"');
    expect(await cabecera(empleado)).toContain('"Importe"');
    expect(await cabecera(aprobador)).toContain('"Solicitante"');
  });
});
