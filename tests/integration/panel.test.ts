import { sql } from "kysely";
import { sqlStore } from "~/data/sql/adapter.server";
import { asUser } from "~/data/sql/connection.server";
import { cargarPanel } from "~/panel/cargar.server";
import type { PanelData } from "~/panel/datos";
import { addDaysISO, lastMonthKeys, monthKey, monthRange, todayISO } from "~/lib/dates";
import { compareMoney, subtractMoney, sumMoney } from "~/lib/money";
import { loader } from "~/routes/_index";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedIfEmpty } from "../../scripts/seed";
import { createTestApp, ORIGIN, request, respond } from "../support/app";

/**
 * The panel (`/`) on the demo data: for every role its figures equal aggregates computed here,
 * as the database owner, from the raw rows with the visibility rules of docs/producto.md «Roles» written out
 * plainly; an empleado's panel holds only their own gastos. The approved totals the
 * administrador's charts read are kept by triggers (interno.gastos_aprobados_totales): they must
 * still equal the raw sums after every kind of change.
 */
let app: Awaited<ReturnType<typeof createTestApp>>;
const hoy = todayISO();

type Usuario = {
  id: string;
  email: string;
  rol: "administrador" | "aprobador" | "empleado";
  departamento_id: string | null;
  aprobador_id: string | null;
  activo: boolean;
  nombre: string;
  apellidos: string | null;
};
type Gasto = {
  creado_por_id: string | null;
  editado_por_id: string | null;
  id: string;
  folio: string;
  descripcion: string;
  solicitante_id: string;
  aprobador_id: string | null;
  departamento_id: string;
  estado: string;
  importe: string;
  fecha_gasto: string;
  creado_en: string;
  categoria: string;
  clase: string;
  proveedor_id: string | null;
  importe_impuestos: string;
  iva_deducible: string;
};

beforeAll(async () => {
  app = await createTestApp();
  expect(await seedIfEmpty(app.db, () => {})).toBe(true);
}, 60_000);
afterAll(() => app?.close());

// ------------------------------------------------------------------------------------------
// The expected panel, from raw rows (owner: no row-level security) and plain rules
// ------------------------------------------------------------------------------------------

async function snapshot() {
  const usuarios = (
    await sql<Usuario>`select id, email, rol, departamento_id, aprobador_id, activo, nombre, apellidos from usuarios`.execute(
      app.db,
    )
  ).rows;
  const departamentos = (
    await sql<{
      id: string;
      nombre: string;
      presupuesto_mensual: string | null;
      responsable_id: string | null;
      departamento_padre_id: string | null;
      activo: boolean;
    }>`
    select id, nombre, presupuesto_mensual, responsable_id, departamento_padre_id, activo from departamentos_vista`.execute(
      app.db,
    )
  ).rows;
  const proveedores = (
    await sql<{ id: string; razon_social: string; nombre_comercial: string | null; activo: boolean }>`
    select id, razon_social, nombre_comercial, activo from proveedores`.execute(app.db)
  ).rows;
  // creado_en as text in UTC with microseconds: compares as the timestamps do.
  const gastos = (
    await sql<Gasto>`
    select id, folio, descripcion, solicitante_id, aprobador_id, creado_por_id, editado_por_id, departamento_id, estado, importe, fecha_gasto, categoria, clase, proveedor_id,
           to_char(creado_en at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as creado_en,
           coalesce(importe_impuestos, 0)::numeric(14, 2)::text as importe_impuestos, iva_deducible::numeric(14, 2)::text as iva_deducible
      from gastos_vista`.execute(app.db)
  ).rows;
  const justificantes = new Map(
    (
      await sql<{ gasto_id: string; n: number }>`
      select gasto_id, count(*)::int as n from justificantes group by gasto_id`.execute(app.db)
    ).rows.map((r) => [r.gasto_id, r.n]),
  );
  return { usuarios, departamentos, proveedores, gastos, justificantes };
}
type Snapshot = Awaited<ReturnType<typeof snapshot>>;

const ESTADOS = ["borrador", "pendiente", "aprobado", "rechazado", "pagado"];
const aprobado = (g: Gasto) => g.estado === "aprobado" || g.estado === "pagado";
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const total = (gs: Gasto[]) => ({ cuenta: gs.length, importe: sumMoney(gs.map((g) => g.importe)) });

/**
 * Who may approve — an active aprobador or administrador; never their own, nor one
 * they created or last edited on someone's behalf; an administrador anything else; an aprobador
 * the one assigned to them and those of the solicitantes they approve for: whose aprobador they
 * are, of their own department, or of a department in their charge or below it. Decided by the
 * solicitante, never by the gasto's department.
 */
function puedeAprobar(u: Usuario, g: Gasto, s: Snapshot) {
  if (!u.activo || u.rol === "empleado") return false;
  if (g.solicitante_id === u.id || g.creado_por_id === u.id || g.editado_por_id === u.id) return false;
  if (u.rol === "administrador" || g.aprobador_id === u.id) return true;
  const aCargo = new Set(s.departamentos.filter((d) => d.responsable_id === u.id).map((d) => d.id));
  for (let crece = true; crece;) {
    crece = false;
    for (const d of s.departamentos)
      if (d.departamento_padre_id && aCargo.has(d.departamento_padre_id) && !aCargo.has(d.id)) {
        aCargo.add(d.id);
        crece = true;
      }
  }
  const sol = s.usuarios.find((x) => x.id === g.solicitante_id)!;
  return (
    sol.aprobador_id === u.id ||
    (sol.departamento_id !== null && (sol.departamento_id === u.departamento_id || aCargo.has(sol.departamento_id)))
  );
}

function expected(u: Usuario, s: Snapshot): PanelData {
  const { from: desdeMes, to: hastaMes } = monthRange(monthKey(hoy));
  const propios = s.gastos.filter((g) => g.solicitante_id === u.id);
  const recientes = [...propios].sort(
    (a, b) => cmp(b.fecha_gasto, a.fecha_gasto) || cmp(b.creado_en, a.creado_en) || cmp(a.id, b.id),
  );
  const base = {
    rol: u.rol,
    hoy,
    mes: { desde: desdeMes, hasta: hastaMes },
    propios: ESTADOS.map((estado) => ({ estado, ...total(propios.filter((g) => g.estado === estado)) })),
    este_mes: total(propios.filter((g) => g.fecha_gasto >= desdeMes && g.fecha_gasto <= hastaMes)),
    ultimos: recientes.slice(0, 5).map((g) => ({
      id: g.id,
      folio: g.folio,
      fecha_gasto: g.fecha_gasto,
      descripcion: g.descripcion,
      importe: g.importe,
      estado: g.estado,
    })),
    pendientes: null,
    presupuestos: null,
    meses: null,
    noventa_dias: null,
    categorias: null,
    proveedores: null,
    iva: null,
  } as PanelData;
  if (u.rol === "empleado") return base;

  const nombre = (id: string) => {
    const x = s.usuarios.find((v) => v.id === id)!;
    return [x.nombre, x.apellidos].filter(Boolean).join(" ").trim() || null;
  };
  const pendientes = s.gastos
    .filter((g) => g.estado === "pendiente" && puedeAprobar(u, g, s))
    .sort((a, b) => cmp(a.fecha_gasto, b.fecha_gasto) || cmp(a.creado_en, b.creado_en) || cmp(a.id, b.id));
  base.pendientes = {
    ...total(pendientes),
    mas_antiguos: pendientes.slice(0, 10).map((g) => ({
      id: g.id,
      folio: g.folio,
      fecha_gasto: g.fecha_gasto,
      descripcion: g.descripcion,
      importe: g.importe,
      solicitante_nombre: nombre(g.solicitante_id),
      justificantes: s.justificantes.get(g.id) ?? 0,
    })),
  };
  if (u.rol !== "administrador") return base;

  const aprobados = s.gastos.filter(aprobado);
  const delMes = aprobados.filter((g) => g.fecha_gasto >= desdeMes && g.fecha_gasto <= hastaMes);
  base.presupuestos = s.departamentos
    .map((d) => {
      const t = total(delMes.filter((g) => g.departamento_id === d.id));
      return { d, t };
    })
    .filter(({ d, t }) => d.activo || t.cuenta > 0)
    .sort((a, b) => cmp(a.d.nombre, b.d.nombre) || cmp(a.d.id, b.d.id))
    .map(({ d, t }) => ({
      id: d.id,
      nombre: d.nombre,
      presupuesto: d.presupuesto_mensual,
      aprobado: t.importe,
      cuenta: t.cuenta,
      excedido: d.presupuesto_mensual !== null && compareMoney(t.importe, d.presupuesto_mensual) > 0,
    }));
  base.meses = lastMonthKeys(12, monthKey(hoy)).map((mes) => ({
    mes,
    ...total(aprobados.filter((g) => g.fecha_gasto.startsWith(mes))),
  }));
  const desde90 = addDaysISO(hoy, -89);
  base.noventa_dias = { desde: desde90, hasta: hoy };
  const ultimos90 = aprobados.filter((g) => g.fecha_gasto >= desde90 && g.fecha_gasto <= hoy);
  const top = (key: (g: Gasto) => string | null) => {
    const grupos = new Map<string, Gasto[]>();
    for (const g of ultimos90) {
      const k = key(g);
      if (k !== null) grupos.set(k, [...(grupos.get(k) ?? []), g]);
    }
    return [...grupos.entries()]
      .map(([k, gs]) => ({ k, ...total(gs) }))
      .sort((a, b) => compareMoney(b.importe, a.importe) || cmp(a.k, b.k))
      .slice(0, 8);
  };
  base.categorias = top((g) => g.categoria).map(({ k, cuenta, importe }) => ({ categoria: k, cuenta, importe }));
  base.proveedores = top((g) => g.proveedor_id).map(({ k, cuenta, importe }) => {
    const p = s.proveedores.find((x) => x.id === k)!;
    // One name per supplier everywhere: «Nombre comercial (Razón social)», else the razón social.
    const comercial = p.nombre_comercial?.trim();
    const nombre =
      comercial && comercial.toLowerCase() !== p.razon_social.trim().toLowerCase()
        ? `${comercial} (${p.razon_social})`
        : p.razon_social;
    return { id: k, nombre, cuenta, importe };
  });
  // This quarter's IVA: approved and paid gastos dated in it, per estado.
  const primerMes = Math.floor((Number(hoy.slice(5, 7)) - 1) / 3) * 3 + 1;
  const mes = (m: number) => `${hoy.slice(0, 4)}-${String(m).padStart(2, "0")}`;
  const trimestre = { desde: monthRange(mes(primerMes)).from, hasta: monthRange(mes(primerMes + 2)).to };
  const cifras = (gs: Gasto[]) => {
    const soportado = sumMoney(gs.map((g) => g.importe_impuestos));
    const deducible = sumMoney(gs.map((g) => g.iva_deducible));
    return { cuenta: gs.length, soportado, deducible, no_deducible: subtractMoney(soportado, deducible) };
  };
  const delTrimestre = aprobados.filter((g) => g.fecha_gasto >= trimestre.desde && g.fecha_gasto <= trimestre.hasta);
  base.iva = {
    anio: Number(hoy.slice(0, 4)),
    trimestre: (primerMes + 2) / 3,
    ...trimestre,
    estados: (["aprobado", "pagado"] as const).map((estado) => ({
      estado,
      ...cifras(delTrimestre.filter((g) => g.estado === estado)),
    })),
    total: cifras(delTrimestre),
  };
  return base;
}

// ------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------

async function cookieOf(email: string) {
  const signIn = await app.services.auth.signIn(new Request(ORIGIN), email, DEMO_PASSWORD);
  if (!signIn.ok) throw new Error(`No se pudo iniciar sesión como ${email}`);
  return signIn.headers.get("Set-Cookie")!.split(";")[0]!;
}

async function panelPorLoader(email: string) {
  const { data } = await loader({
    request: request("/", { cookie: await cookieOf(email) }),
    context: app.context(),
    params: {},
  });
  return data as { nombre: string; panel: PanelData };
}

const usuarioDe = (s: Snapshot, email: string) => s.usuarios.find((u) => u.email === email)!;

// ------------------------------------------------------------------------------------------

describe("el panel de cada rol coincide con los agregados calculados aparte", () => {
  it.each(Object.entries(DEMO_ACCOUNTS))("%s (cuenta de demostración, por el loader de /)", async (rol, email) => {
    const s = await snapshot();
    const u = usuarioDe(s, email);
    expect(u.rol).toBe(rol);
    const { panel } = await panelPorLoader(email);
    expect(panel).toEqual(expected(u, s));
  });

  it("los datos de demostración dan algo que comprobar en cada sección", async () => {
    const s = await snapshot();
    const admin = expected(usuarioDe(s, DEMO_ACCOUNTS.administrador), s);
    const aprobador = expected(usuarioDe(s, DEMO_ACCOUNTS.aprobador), s);
    const empleado = expected(usuarioDe(s, DEMO_ACCOUNTS.empleado), s);
    expect(empleado.ultimos).toHaveLength(5);
    expect(empleado.propios.filter((e) => e.cuenta > 0).length).toBeGreaterThanOrEqual(3);
    expect(aprobador.pendientes!.cuenta).toBeGreaterThan(0);
    expect(admin.pendientes!.cuenta).toBeGreaterThan(aprobador.pendientes!.cuenta);
    expect(admin.presupuestos!.some((d) => d.cuenta > 0)).toBe(true);
    expect(admin.meses!.filter((m) => m.cuenta > 0).length).toBeGreaterThanOrEqual(10);
    expect(admin.categorias!).toHaveLength(8);
    expect(admin.proveedores!).toHaveLength(8);
    // This quarter's IVA: some deductible, some not.
    expect(compareMoney(admin.iva!.total.deducible, "0.00")).toBe(1);
    expect(compareMoney(admin.iva!.total.no_deducible, "0.00")).toBe(1);
  });

  it("para cada usuario activo de los datos de demostración (todos los roles, responsables de departamento)", async () => {
    const s = await snapshot();
    const activos = s.usuarios.filter((u) => u.activo);
    expect(activos.length).toBeGreaterThan(20);
    for (const u of activos) {
      const panel = await cargarPanel(sqlStore(app.db, u.id), hoy);
      expect(panel, u.email).toEqual(expected(u, s));
    }
  });
});

describe("un empleado solo ve lo suyo", () => {
  it("todo gasto e importe de su panel es suyo; las secciones de otros roles, vacías", async () => {
    const s = await snapshot();
    const u = usuarioDe(s, DEMO_ACCOUNTS.empleado);
    const { panel } = await panelPorLoader(DEMO_ACCOUNTS.empleado);
    expect(panel.rol).toBe("empleado");
    for (const k of ["pendientes", "presupuestos", "meses", "noventa_dias", "categorias", "proveedores"] as const)
      expect(panel[k]).toBeNull();
    const propios = s.gastos.filter((g) => g.solicitante_id === u.id);
    for (const g of panel.ultimos) expect(propios.map((p) => p.id)).toContain(g.id);
    expect(sumMoney(panel.propios.map((e) => e.importe))).toBe(sumMoney(propios.map((g) => g.importe)));
    // No other person's folio appears anywhere in what the page receives.
    const folios = new Set(propios.map((g) => g.folio));
    const enPanel = JSON.stringify(panel).match(/GAS-\d{4}-\d{5,}/g) ?? [];
    expect(enPanel.length).toBeGreaterThan(0);
    for (const folio of enPanel) expect(folios.has(folio), folio).toBe(true);
  });

  it("un aprobador no ve en su panel borradores ajenos (son privados de su solicitante)", async () => {
    const s = await snapshot();
    const u = usuarioDe(s, DEMO_ACCOUNTS.aprobador);
    const ajenos = new Set(
      s.gastos.filter((g) => g.estado === "borrador" && g.solicitante_id !== u.id).map((g) => g.folio),
    );
    expect(ajenos.size).toBeGreaterThan(0);
    const { panel } = await panelPorLoader(DEMO_ACCOUNTS.aprobador);
    const enPanel = JSON.stringify(panel).match(/GAS-\d{4}-\d{5,}/g) ?? [];
    expect(enPanel.length).toBeGreaterThan(0);
    for (const folio of enPanel) expect(ajenos.has(folio), folio).toBe(false);
  });

  it("ni llamando a la base de datos directamente: los totales aprobados son solo de administradores", async () => {
    const s = await snapshot();
    for (const email of [DEMO_ACCOUNTS.empleado, DEMO_ACCOUNTS.aprobador]) {
      const u = usuarioDe(s, email);
      const filas = await asUser(
        app.db,
        u.id,
        async (trx) => (await sql`select count(*)::int as n from interno.gastos_aprobados_totales`.execute(trx)).rows,
      );
      expect(filas).toEqual([{ n: 0 }]);
      await expect(
        asUser(app.db, u.id, (trx) =>
          sql`select interno.gastos_aprobados_aplicar(array[current_date], array[gen_random_uuid()], array['otros'], array[null::uuid], array[1000000::numeric], array[1])`.execute(
            trx,
          ),
        ),
      ).rejects.toThrow(/permission denied|permiso/i);
      await expect(
        asUser(app.db, u.id, (trx) => sql`select interno.gastos_aprobados_recalcular()`.execute(trx)),
      ).rejects.toThrow(/permission denied|permiso/i);
    }
    const admin = usuarioDe(s, DEMO_ACCOUNTS.administrador);
    const n = await asUser(
      app.db,
      admin.id,
      async (trx) =>
        (await sql<{ n: number }>`select count(*)::int as n from interno.gastos_aprobados_totales`.execute(trx))
          .rows[0]!.n,
    );
    expect(n).toBeGreaterThan(0);
  });

  it("un usuario desactivado no obtiene el panel", async () => {
    const s = await snapshot();
    const u = s.usuarios.find((x) => x.rol === "empleado" && x.activo && x.email !== DEMO_ACCOUNTS.empleado)!;
    await app.db.updateTable("usuarios").set({ activo: false }).where("id", "=", u.id).execute();
    try {
      await expect(cargarPanel(sqlStore(app.db, u.id), hoy)).rejects.toThrow(/no está activo/);
    } finally {
      await app.db.updateTable("usuarios").set({ activo: true }).where("id", "=", u.id).execute();
    }
  });
});

describe("los totales aprobados siguen a los gastos", () => {
  async function totales() {
    return (
      await sql<{ tipo: string; fecha: string; clave: string; cuenta: number; importe: string }>`
      select tipo, fecha, clave, cuenta, importe::text from interno.gastos_aprobados_totales where cuenta <> 0 order by 1, 2, 3`.execute(
        app.db,
      )
    ).rows;
  }
  async function recalculados() {
    await sql`select interno.gastos_aprobados_recalcular()`.execute(app.db);
    return totales();
  }
  async function adminCoincide() {
    const s = await snapshot();
    const admin = usuarioDe(s, DEMO_ACCOUNTS.administrador);
    expect(await cargarPanel(sqlStore(app.db, admin.id), hoy)).toEqual(expected(admin, s));
  }

  it("al aprobar, pagar, revertir, rechazar y con cambios del propietario (importe, fecha, departamento, categoría, proveedor, borrado, alta)", async () => {
    const s = await snapshot();
    const admin = usuarioDe(s, DEMO_ACCOUNTS.administrador);
    const pendientes = s.gastos.filter(
      // Ordinary ones: a trip's dieta keeps to the trip's days, and the owner's change below moves the date.
      (g) =>
        g.estado === "pendiente" &&
        g.clase === "ordinario" &&
        g.solicitante_id !== admin.id &&
        g.fecha_gasto >= addDaysISO(hoy, -20),
    );
    expect(pendientes.length).toBeGreaterThanOrEqual(3);
    const [a, b, c] = pendientes;
    const store = sqlStore(app.db, admin.id);
    const version = async (id: string) =>
      Number(
        (await app.db.selectFrom("gastos").select("version").where("id", "=", id).executeTakeFirstOrThrow()).version,
      );

    // Through the workflow, as the administrador (row-level security, SECURITY DEFINER functions).
    await store.rpc("aprobar_gasto", { p_id: a!.id, p_version: await version(a!.id) });
    await store.rpc("aprobar_gasto", { p_id: b!.id, p_version: await version(b!.id) });
    await store.rpc("rechazar_gasto", { p_id: c!.id, p_version: await version(c!.id), p_motivo: "Sin ticket" });
    // Paid by another administrador: whoever approved a gasto does not mark it paid.
    const tesorero = s.usuarios.find((x) => x.rol === "administrador" && x.activo && x.id !== admin.id)!;
    await sqlStore(app.db, tesorero.id).rpc("pagar_gasto", {
      p_id: a!.id,
      p_version: await version(a!.id),
      p_fecha_pago: hoy,
      p_referencia: "TRF-1",
    });
    await store.rpc("revertir_gasto", { p_id: b!.id, p_version: await version(b!.id), p_motivo: "Importe mal" });
    await adminCoincide();

    // As the owner, on approved/paid rows: every column the totals group by, a delete and a bulk insert.
    const otro = s.departamentos.find((d) => d.id !== a!.departamento_id)!;
    // Active suppliers only: the database refuses a change to an inactive one (the demo has some).
    const proveedor = s.proveedores.find((p) => p.activo && p.id !== a!.proveedor_id)!;
    await sql`update gastos set importe = importe + 10.05, fecha_gasto = fecha_gasto - 40, departamento_id = ${otro.id},
                 categoria = 'formacion', proveedor_id = ${proveedor.id} where id = ${a!.id}`.execute(app.db);
    const pagados = s.gastos
      .filter((g) => g.estado === "pagado")
      .slice(0, 50)
      .map((g) => g.id);
    // Without a supplier a factura completa has no issuer: these become tickets (paid with IVA).
    await sql`update gastos set proveedor_id = null, tipo_documento = 'ticket', inversion_sujeto_pasivo = false
               where id = any(${pagados}::uuid[])`.execute(app.db);
    const victima = s.gastos.find((g) => g.estado === "aprobado")!;
    await sql`delete from gastos where id = ${victima.id}`.execute(app.db);
    await sql`insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id,
                                  estado, aprobado_por_id, fecha_aprobacion, fecha_pago, referencia_pago, proveedor_id)
              select 'Carga ' || n, ${hoy}::date - (n % 80), 'comidas', 12.34 * n, 'efectivo', g.solicitante_id, g.departamento_id, g.sucursal_id,
                     'pagado', ${admin.id}, now(), ${hoy}::date, 'REF-' || n, g.proveedor_id
                from generate_series(1, 200) n,
                     (select g.* from gastos g join proveedores p on p.id = g.proveedor_id where p.activo limit 1) g`.execute(
      app.db,
    );
    await adminCoincide();

    // The trigger-kept totals are exactly what a rebuild from gastos gives.
    const antes = await totales();
    expect(await recalculados()).toEqual(antes);
  });

  it("una carga masiva como la de scripts/seed.ts (disparadores de alta desactivados) deja los totales al día", async () => {
    const { addGastos } = await import("../../scripts/seed");
    await addGastos(app.db, 2000);
    const antes = await totales();
    expect(await recalculados()).toEqual(antes);
    await adminCoincide();
  });
});

describe("el panel se sirve de los resultados guardados mientras nada cambia", () => {
  it("una escritura que no avanza interno.cambios no se ve; cuando avanza, sí", async () => {
    const admin = usuarioDe(await snapshot(), DEMO_ACCOUNTS.administrador);
    const primero = await cargarPanel(sqlStore(app.db, admin.id), hoy);
    const gasto = primero.ultimos[0]!;
    // A change the counter does not see (counted already, for interno.contar_cambio): only a kept answer still shows the old text.
    const cambiarSinContar = (descripcion: string) =>
      app.db.transaction().execute(async (trx) => {
        await sql`select set_config('oficina.cambio_contado', 'si', true)`.execute(trx);
        await sql`update public.gastos set descripcion = ${descripcion} where id = ${gasto.id}`.execute(trx);
      });
    await cambiarSinContar("Cambiada sin avisar");
    try {
      expect(await cargarPanel(sqlStore(app.db, admin.id), hoy)).toEqual(primero);
      await sql`update interno.cambios set n = n + 1`.execute(app.db);
      const despues = await cargarPanel(sqlStore(app.db, admin.id), hoy);
      expect(despues.ultimos[0]).toEqual({ ...gasto, descripcion: "Cambiada sin avisar" });
    } finally {
      await cambiarSinContar(gasto.descripcion);
      await sql`update interno.cambios set n = n + 1`.execute(app.db);
    }
  });
});

describe("IVA soportado este trimestre", () => {
  it("una factura a nombre de la empresa suma a lo deducible; un ticket, a lo no deducible; por estado", async () => {
    const s = await snapshot();
    const admin = usuarioDe(s, DEMO_ACCOUNTS.administrador);
    const antes = (await cargarPanel(sqlStore(app.db, admin.id), hoy)).iva!;
    const proveedor = s.proveedores[0]!;
    // As the owner: a full invoice (121,00 € at 21 %) approved, a ticket (12,10 € at 10 %) paid, both today.
    const nuevos = await sql<{ id: string }>`
      insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id,
                          sucursal_id, tipo_documento, proveedor_id, numero_factura, factura_a_empresa,
                          estado, aprobado_por_id, fecha_aprobacion, fecha_pago, referencia_pago)
      select d.descripcion, ${hoy}::date, d.categoria, d.importe, 'transferencia', g.solicitante_id, g.departamento_id,
             g.sucursal_id, d.tipo_documento, case when d.factura then ${proveedor.id}::uuid end,
             case when d.factura then 'F-IVA-1' end, d.factura, d.estado, ${admin.id}, now(),
             case when d.estado = 'pagado' then ${hoy}::date end, case when d.estado = 'pagado' then 'TRF-IVA' end
        from (values ('Licencias del trimestre', 'software_suscripciones', 121.00, 'factura_completa', true, 'aprobado'),
                     ('Menú del día', 'comidas', 12.10, 'ticket', false, 'pagado'))
               as d (descripcion, categoria, importe, tipo_documento, factura, estado),
             (select * from gastos where solicitante_id <> ${admin.id} limit 1) g
      returning id`.execute(app.db);
    try {
      const despues = await cargarPanel(sqlStore(app.db, admin.id), hoy);
      expect(despues).toEqual(expected(admin, await snapshot()));
      const iva = despues.iva!;
      const mas = (a: string, b: string) => subtractMoney(a, b);
      expect(mas(iva.total.soportado, antes.total.soportado)).toBe("22.10");
      expect(mas(iva.total.deducible, antes.total.deducible)).toBe("21.00");
      expect(mas(iva.total.no_deducible, antes.total.no_deducible)).toBe("1.10");
      expect(iva.estados.map((e) => e.cuenta)).toEqual(antes.estados.map((e) => e.cuenta + 1));
      expect(mas(iva.estados[0]!.deducible, antes.estados[0]!.deducible)).toBe("21.00");
      expect(mas(iva.estados[1]!.no_deducible, antes.estados[1]!.no_deducible)).toBe("1.10");
      // The links lead to the gastos list with exactly those gastos: its count agrees.
      const { loader: lista } = await import("~/routes/gastos._index");
      for (const e of iva.estados) {
        const cookie = await cookieOf(DEMO_ACCOUNTS.administrador);
        const r = await respond(() =>
          lista({
            request: request(`/gastos?estado=${e.estado}&desde=${iva.desde}&hasta=${iva.hasta}`, {
              cookie,
            }),
            context: app.context(),
            params: {},
          }),
        );
        const datos = (await r.json()) as { result: { total: number } };
        expect(datos.result.total, e.estado).toBe(e.cuenta);
      }
    } finally {
      await sql`delete from gastos where id = any(${nuevos.rows.map((r) => r.id)}::uuid[])`.execute(app.db);
    }
  });

  it("no es para aprobadores ni empleados", async () => {
    const s = await snapshot();
    for (const email of [DEMO_ACCOUNTS.aprobador, DEMO_ACCOUNTS.empleado])
      expect((await cargarPanel(sqlStore(app.db, usuarioDe(s, email).id), hoy)).iva).toBeNull();
  });
});
