import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizarApunte } from "~/contabilidad/diario";
import {
  Conflict,
  Forbidden,
  Invalid,
  NotFound,
  Referenced,
  type ColumnOf,
  type ListQuery,
  type Row,
  type Store,
} from "~/data/store";
import { toCents } from "~/lib/money";

/** A query of gastos_vista, its columns checked against the schema. */
type ConsultaGastos = ListQuery<ColumnOf<"gastos_vista">>;

/**
 * The store contract: what every adapter of the Store port must do, whatever serves it.
 * `store-sql.test.ts` runs it on the SQL adapter over a real Postgres (always);
 * `store-supabase-live.test.ts` runs it on the Supabase adapter against a live project.
 *
 * The suite creates its own records (codes and names carry a random tag) and reads only them,
 * so it also runs on a project that already has data.
 */
export type ContractWorld = {
  /** A store acting as an active administrador. */
  admin: Store;
  adminId: string;
  /** A store acting as an active empleado (another account). */
  empleado: Store;
  empleadoId: string;
  close?: () => Promise<void>;
};

const MISSING = "00000000-0000-4000-8000-000000000000";

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("Se esperaba un error y la operación terminó bien");
}

export function storeContract(name: string, setup: () => Promise<ContractWorld>) {
  describe(`contrato del almacén — ${name}`, () => {
    const tag = randomBytes(4).toString("hex").slice(0, 5).toUpperCase();
    const today = new Date().toISOString().slice(0, 10);
    let w: ContractWorld;
    /** Departamentos by short key, as inserted. */
    const dep: Record<string, Row> = {};
    let sucursal: Row;
    let proveedor: Row;
    const gastos: Row[] = [];
    let gastoAdmin: Row;

    const depIds = () => Object.values(dep).map((d) => d.id as string);
    const inDeps = (extra: ListQuery["filters"] = []): ListQuery["filters"] => [
      { column: "id", op: "in", value: depIds() },
      ...extra,
    ];
    const names = (rows: Row[]) => rows.map((r) => String(r.nombre).slice(tag.length + 1));

    beforeAll(async () => {
      w = await setup();
      const fixtures: [string, Row][] = [
        ["alfa", { nombre: "Alfa", presupuesto_mensual: "1000.00", centro_costo: "CTR-1" }],
        ["beta", { nombre: "Beta", presupuesto_mensual: "2500.50" }],
        ["ventas", { nombre: "Ventas 100% (norte), sur", presupuesto_mensual: "0.00", centro_costo: "CTR-2" }],
        ["guion", { nombre: "Guion_bajo", centro_costo: "CTR-3" }],
        ["comillas", { nombre: 'Compras "centrales"' }],
        ["barra", { nombre: "Barra\\invertida" }],
        ["asterisco", { nombre: "Asterisco*" }],
      ];
      let n = 0;
      for (const [key, values] of fixtures) {
        n += 1;
        dep[key] = await w.admin.insert("departamentos", {
          ...values,
          nombre: `${tag} ${values.nombre}`,
          codigo: `${tag}-${n}`.toLowerCase(),
        });
      }
      proveedor = await w.admin.insert("proveedores", {
        razon_social: `${tag} Transportes Ñu, S.A.`,
        nombre_comercial: "Ñu Express",
        tipo_persona: "empresa",
        pais: "ES",
        nif: `X${tag}7`,
        categoria: "logistica",
      });
      sucursal = await w.admin.insert("sucursales", {
        nombre: `${tag} Central`,
        codigo: `${tag}-S`,
        direccion: "Calle Mayor 1",
        ciudad: "Madrid",
        pais: "ES",
      });
      for (const [descripcion, importe, proveedor_id] of [
        ["Taxi al aeropuerto", "10.10", null],
        ["Comida con cliente (50%)", "20.25", proveedor.id],
        ["Hotel", "100.00", null],
      ] as const)
        gastos.push(
          await w.empleado.insert("gastos", {
            descripcion: `${tag} ${descripcion}`,
            fecha_gasto: today,
            categoria: "comidas",
            importe,
            metodo_pago: "efectivo",
            proveedor_id,
            departamento_id: dep.alfa!.id,
            sucursal_id: sucursal.id,
          }),
        );
      gastoAdmin = await w.admin.insert("gastos", {
        descripcion: `${tag} Material`,
        fecha_gasto: today,
        categoria: "material_oficina",
        importe: "5.00",
        metodo_pago: "tarjeta_corporativa",
        departamento_id: dep.alfa!.id,
        sucursal_id: sucursal.id,
      });
    });

    afterAll(async () => {
      await w?.close?.();
    });

    describe("insert y get", () => {
      it("insert devuelve la fila guardada: id, versión 1, valores normalizados por la base de datos", () => {
        expect(dep.alfa).toMatchObject({
          nombre: `${tag} Alfa`,
          codigo: `${tag}-1`,
          version: 1,
          activo: true,
        });
        expect(dep.alfa!.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(gastos[0]).toMatchObject({
          estado: "borrador",
          solicitante_id: w.empleadoId,
          importe: "10.10",
          version: 1,
        });
        expect(gastos[0]!.folio).toMatch(/^GAS-\d{4}-\d{5,}$/);
      });

      it("get devuelve la fila (también de una vista); NotFound si no existe o el id no es un UUID", async () => {
        expect(await w.admin.get("departamentos", dep.beta!.id as string)).toMatchObject({
          nombre: `${tag} Beta`,
          version: 1,
        });
        // The budget is kept apart (departamentos_presupuesto); the view reads it.
        expect(await w.admin.get("departamentos_vista", dep.alfa!.id as string)).toMatchObject({
          presupuesto_mensual: "1000.00",
        });
        expect(await w.admin.get("gastos_vista", gastos[0]!.id as string)).toMatchObject({
          departamento_nombre: `${tag} Alfa`,
          sucursal_nombre: `${tag} Central`,
        });
        expect(await rejection(w.admin.get("departamentos", MISSING))).toBeInstanceOf(NotFound);
        expect(await rejection(w.admin.get("departamentos", "no-es-un-uuid"))).toBeInstanceOf(NotFound);
      });

      it("insert con un valor repetido o fuera de regla: Invalid con la columna", async () => {
        const repetido = await rejection(
          w.admin.insert("departamentos", { nombre: `${tag} Otro`, codigo: `${tag}-1` }),
        );
        expect(repetido).toBeInstanceOf(Invalid);
        expect((repetido as Invalid).field).toBe("codigo");
        const corto = await rejection(w.admin.insert("departamentos", { nombre: "X", codigo: `${tag}-X` }));
        expect(corto).toBeInstanceOf(Invalid);
        expect((corto as Invalid).field).toBe("nombre");
        const fecha = await rejection(w.empleado.insert("gastos", { ...pick(gastos[0]!), fecha_gasto: "2999-01-01" }));
        expect(fecha).toBeInstanceOf(Invalid);
        expect((fecha as Invalid).field).toBe("fecha_gasto");
      });

      it("insert que la seguridad a nivel de fila no permite: Forbidden", async () => {
        expect(
          await rejection(w.empleado.insert("departamentos", { nombre: `${tag} Ajeno`, codigo: `${tag}-E` })),
        ).toBeInstanceOf(Forbidden);
        // Un gasto a nombre de otra persona: solo un administrador.
        expect(
          await rejection(w.empleado.insert("gastos", { ...pick(gastos[0]!), solicitante_id: w.adminId })),
        ).toBeInstanceOf(Forbidden);
      });
    });

    describe("list", () => {
      it("filtra, ordena, pagina y cuenta el total exacto", async () => {
        const page = await w.admin.list("departamentos_vista", {
          filters: inDeps(),
          order: [{ column: "nombre", ascending: false }],
          limit: 3,
          offset: 1,
          count: "exact",
        });
        expect(page.total).toBe(7);
        expect(page.estimated).toBe(false);
        // Descending by name: Ventas, Guion_bajo, Compras, Beta, Barra, Asterisco, Alfa.
        expect(names(page.rows)).toEqual(["Guion_bajo", 'Compras "centrales"', "Beta"]);
        const last = await w.admin.list("departamentos_vista", {
          filters: inDeps(),
          order: [{ column: "nombre", ascending: true }],
          limit: 25,
          offset: 6,
          count: "exact",
        });
        expect(names(last.rows)).toEqual(["Ventas 100% (norte), sur"]);
        expect(last.total).toBe(7);
      });

      it("operadores de filtro: eq, neq, gt, gte, lt, lte, in, is_null, not_null", async () => {
        const q = async (filters: ListQuery["filters"]) =>
          names(
            (
              await w.admin.list("departamentos_vista", {
                filters: inDeps(filters),
                order: [{ column: "nombre", ascending: true }],
                limit: 25,
                offset: 0,
              })
            ).rows,
          );
        expect(await q([{ column: "codigo", op: "eq", value: `${tag}-2` }])).toEqual(["Beta"]);
        expect(await q([{ column: "presupuesto_mensual", op: "gt", value: "1000" }])).toEqual(["Beta"]);
        expect(await q([{ column: "presupuesto_mensual", op: "gte", value: "1000.00" }])).toEqual(["Alfa", "Beta"]);
        expect(await q([{ column: "presupuesto_mensual", op: "lt", value: "1000" }])).toEqual([
          "Ventas 100% (norte), sur",
        ]);
        expect(await q([{ column: "presupuesto_mensual", op: "lte", value: "1000" }])).toEqual([
          "Alfa",
          "Ventas 100% (norte), sur",
        ]);
        expect(await q([{ column: "presupuesto_mensual", op: "neq", value: "0" }])).toEqual(["Alfa", "Beta"]);
        expect(await q([{ column: "centro_costo", op: "is_null" }])).toEqual([
          "Asterisco*",
          "Barra\\invertida",
          "Beta",
          'Compras "centrales"',
        ]);
        expect(await q([{ column: "centro_costo", op: "not_null" }])).toEqual([
          "Alfa",
          "Guion_bajo",
          "Ventas 100% (norte), sur",
        ]);
        expect(await q([{ column: "centro_costo", op: "in", value: ["CTR-1", "CTR-3", "(no, existe)"] }])).toEqual([
          "Alfa",
          "Guion_bajo",
        ]);
        expect(await q([{ column: "activo", op: "eq", value: true }])).toHaveLength(7);
      });

      it("`in` con una lista vacía o una comparación con null no encuentran nada", async () => {
        const empty = await w.admin.list("gastos_vista", {
          filters: [{ column: "id", op: "in", value: [] }],
          limit: 25,
          offset: 0,
          count: "exact",
          sum: ["importe"],
        });
        expect(empty).toEqual({ rows: [], total: 0, estimated: false, sums: { importe: "0" } });
        const nulo = await w.admin.list("departamentos", {
          filters: inDeps([{ column: "centro_costo", op: "eq", value: null }]),
          limit: 25,
          offset: 0,
          count: "exact",
        });
        expect(nulo.rows).toEqual([]);
        expect(nulo.total).toBe(0);
      });

      it("la búsqueda trata %, _, *, \\, comillas, comas, puntos y paréntesis como texto", async () => {
        const search = async (term: string) =>
          names(
            (
              await w.admin.list("departamentos_vista", {
                filters: inDeps(),
                search: { columns: ["nombre", "codigo", "centro_costo"], term },
                order: [{ column: "nombre", ascending: true }],
                limit: 25,
                offset: 0,
              })
            ).rows,
          );
        expect(await search("100% (norte), sur")).toEqual(["Ventas 100% (norte), sur"]);
        expect(await search("%")).toEqual(["Ventas 100% (norte), sur"]);
        expect(await search("_")).toEqual(["Guion_bajo"]);
        expect(await search('"centrales"')).toEqual(['Compras "centrales"']);
        expect(await search("a\\i")).toEqual(["Barra\\invertida"]);
        expect(await search("asterisco*")).toEqual(["Asterisco*"]);
        expect(await search("  beta  ")).toEqual(["Beta"]);
        expect(await search("ctr-2")).toEqual(["Ventas 100% (norte), sur"]);
        expect(await search(").,(")).toEqual([]);
        // A term that would be filter syntax if it were not escaped.
        expect(await search("x,id.not.is.null")).toEqual([]);
      });

      it("sin total: total = offset + filas, sin consultar el recuento", async () => {
        const r = await w.admin.list("departamentos", {
          filters: inDeps(),
          order: [{ column: "nombre", ascending: true }],
          limit: 2,
          offset: 4,
          count: "none",
        });
        expect(names(r.rows)).toEqual(['Compras "centrales"', "Guion_bajo"]);
        expect(r.total).toBe(6);
      });

      it("suma exacta en decimal sobre todo el filtro (no solo la página), con búsqueda", async () => {
        const base: ConsultaGastos = {
          filters: [{ column: "departamento_id", op: "eq", value: dep.alfa!.id }],
          limit: 1,
          offset: 0,
          count: "exact",
          sum: ["importe"],
        };
        const all = await w.admin.list("gastos_vista", base);
        expect(all.total).toBe(4);
        expect(all.rows).toHaveLength(1);
        expect(all.sums).toEqual({ importe: "135.35" });

        const filtered = await w.admin.list("gastos_vista", {
          ...base,
          filters: [
            ...base.filters!,
            { column: "importe", op: "gte", value: "20.25" },
            { column: "estado", op: "in", value: ["borrador", "pendiente"] },
          ],
        });
        expect(filtered.total).toBe(2);
        expect(filtered.sums).toEqual({ importe: "120.25" });

        const searched = await w.admin.list("gastos_vista", {
          ...base,
          search: { columns: ["descripcion", "folio"], term: "(50%)" },
        });
        expect(searched.total).toBe(1);
        expect(searched.sums).toEqual({ importe: "20.25" });

        const none = await w.admin.list("gastos_vista", {
          ...base,
          limit: 0,
          search: { columns: ["descripcion"], term: "no existe nada así" },
        });
        expect(none).toEqual({ rows: [], total: 0, estimated: false, sums: { importe: "0" } });

        const countOnly = await w.admin.list("gastos_vista", { ...base, limit: 0 });
        expect(countOnly.rows).toEqual([]);
        expect(countOnly.total).toBe(4);
        expect(countOnly.sums).toEqual({ importe: "135.35" });
      });

      it("columns: cada fila trae solo esas columnas, con el mismo filtro, orden, total y suma", async () => {
        const base: ConsultaGastos = {
          filters: [{ column: "departamento_id", op: "eq", value: dep.alfa!.id }],
          order: [{ column: "importe", ascending: true }],
          limit: 2,
          offset: 1,
          count: "exact",
          sum: ["importe"],
        };
        const all = await w.admin.list<Row>("gastos_vista", base);
        const some = await w.admin.list<Row>("gastos_vista", {
          ...base,
          columns: ["id", "importe", "proveedor_nombre"],
        });
        expect(some.rows).toEqual(
          all.rows.map((r) => ({ id: r.id, importe: r.importe, proveedor_nombre: r.proveedor_nombre })),
        );
        expect({ total: some.total, sums: some.sums }).toEqual({ total: all.total, sums: all.sums });
      });

      it("count «estimated» con pocas coincidencias: total y suma exactos, sin marcar como estimación", async () => {
        const query: ConsultaGastos = {
          filters: [{ column: "departamento_id", op: "eq", value: dep.alfa!.id }],
          limit: 2,
          offset: 0,
          count: "estimated",
          sum: ["importe"],
        };
        expect(await w.admin.list("gastos_vista", query)).toMatchObject({
          total: 4,
          estimated: false,
          sums: { importe: "135.35" },
        });
        expect(await w.empleado.list("gastos_vista", { ...query, offset: 2 })).toMatchObject({
          total: 3,
          estimated: false,
          sums: { importe: "130.35" },
        });
        const page = await w.admin.list("gastos_vista", { ...query, limit: 25, sum: undefined });
        expect(page).toMatchObject({ total: 4, estimated: false, sums: {} });
        expect(page.rows).toHaveLength(4);
      });

      it("lo que la seguridad a nivel de fila oculta no se lista, ni se cuenta, ni se suma", async () => {
        const mine = await w.empleado.list("gastos_vista", {
          filters: [{ column: "departamento_id", op: "eq", value: dep.alfa!.id }],
          order: [{ column: "importe", ascending: false }],
          limit: 25,
          offset: 0,
          count: "exact",
          sum: ["importe"],
        });
        expect(mine.rows.map((r) => r.importe)).toEqual(["100.00", "20.25", "10.10"]);
        expect(mine.total).toBe(3);
        expect(mine.sums).toEqual({ importe: "130.35" });
      });
    });

    describe("update", () => {
      it("con la versión vigente guarda y sube la versión", async () => {
        const updated = await w.admin.update("departamentos", dep.beta!.id as string, 1, {
          nombre: `${tag} Beta 2`,
          notas: undefined,
        });
        expect(updated).toMatchObject({ id: dep.beta!.id, nombre: `${tag} Beta 2`, version: 2 });
        dep.beta = updated;
      });

      it("con una versión antigua: Conflict, y nada cambia", async () => {
        expect(
          await rejection(w.admin.update("departamentos", dep.beta!.id as string, 1, { nombre: `${tag} Pisado` })),
        ).toBeInstanceOf(Conflict);
        expect(await w.admin.get("departamentos", dep.beta!.id as string)).toMatchObject({
          nombre: `${tag} Beta 2`,
          version: 2,
        });
      });

      it("de un registro que no existe (o que no ve): NotFound, no Conflict", async () => {
        expect(await rejection(w.admin.update("departamentos", MISSING, 1, { nombre: `${tag} Nadie` }))).toBeInstanceOf(
          NotFound,
        );
        expect(
          await rejection(w.admin.update("departamentos", "no-es-un-uuid", 1, { nombre: `${tag} Nadie` })),
        ).toBeInstanceOf(NotFound);
        // The admin's expense is invisible to the empleado: not found, whatever the version.
        expect(
          await rejection(w.empleado.update("gastos", gastoAdmin.id as string, 1, { descripcion: `${tag} Ajeno` })),
        ).toBeInstanceOf(NotFound);
      });

      it("de un registro que ve pero no puede cambiar: Forbidden", async () => {
        expect(
          await rejection(w.empleado.update("departamentos", dep.alfa!.id as string, 1, { nombre: `${tag} Mío` })),
        ).toBeInstanceOf(Forbidden);
        expect(await w.admin.get("departamentos", dep.alfa!.id as string)).toMatchObject({
          nombre: `${tag} Alfa`,
          version: 1,
        });
      });

      it("con un valor fuera de regla: Invalid con la columna, y nada cambia", async () => {
        const error = await rejection(
          w.admin.update("departamentos", dep.alfa!.id as string, 1, { codigo: "no válido!" }),
        );
        expect(error).toBeInstanceOf(Invalid);
        expect((error as Invalid).field).toBe("codigo");
      });
    });

    describe("remove", () => {
      it("de un registro al que otros apuntan: Referenced, y sigue ahí", async () => {
        expect(await rejection(w.admin.remove("departamentos", dep.alfa!.id as string, 1))).toBeInstanceOf(Referenced);
        expect(await w.admin.get("departamentos", dep.alfa!.id as string)).toMatchObject({ version: 1 });
      });

      it("con versión antigua: Conflict; inexistente: NotFound; sin permiso: Forbidden", async () => {
        expect(await rejection(w.admin.remove("departamentos", dep.beta!.id as string, 1))).toBeInstanceOf(Conflict);
        expect(await rejection(w.admin.remove("departamentos", MISSING, 1))).toBeInstanceOf(NotFound);
        expect(await rejection(w.admin.remove("departamentos", MISSING))).toBeInstanceOf(NotFound);
        expect(await rejection(w.empleado.remove("departamentos", dep.asterisco!.id as string))).toBeInstanceOf(
          Forbidden,
        );
      });

      it("con la versión vigente elimina; después, NotFound", async () => {
        await w.admin.remove("departamentos", dep.beta!.id as string, 2);
        expect(await rejection(w.admin.get("departamentos", dep.beta!.id as string))).toBeInstanceOf(NotFound);
        await w.admin.remove("departamentos", dep.asterisco!.id as string);
        expect(await rejection(w.admin.get("departamentos", dep.asterisco!.id as string))).toBeInstanceOf(NotFound);
        delete dep.beta;
        delete dep.asterisco;
      });
    });

    describe("rpc", () => {
      it("una función del flujo devuelve su valor; la transición repetida con la versión antigua es Conflict", async () => {
        const gasto = gastos[2]!;
        const sent = await w.empleado.rpc<Row>("enviar_gasto", { p_id: gasto.id, p_version: gasto.version });
        expect(sent).toMatchObject({ id: gasto.id, estado: "pendiente", version: 2, aviso: null });
        expect(
          await rejection(w.empleado.rpc("enviar_gasto", { p_id: gasto.id, p_version: gasto.version })),
        ).toBeInstanceOf(Conflict);
        expect(await w.empleado.get("gastos", gasto.id as string)).toMatchObject({ estado: "pendiente", version: 2 });
        // Only borradores may be edited: RLS refuses the visible, now pending, expense.
        expect(
          await rejection(w.empleado.update("gastos", gasto.id as string, 2, { descripcion: `${tag} Cambio` })),
        ).toBeInstanceOf(Forbidden);
      });

      it("los errores del flujo llegan tipados: NotFound, Forbidden, Invalid", async () => {
        expect(await rejection(w.empleado.rpc("enviar_gasto", { p_id: gastoAdmin.id, p_version: 1 }))).toBeInstanceOf(
          NotFound,
        );
        const pendiente = gastos[2]!;
        // The solicitante never approves their own expense.
        expect(await rejection(w.empleado.rpc("aprobar_gasto", { p_id: pendiente.id, p_version: 2 }))).toBeInstanceOf(
          Forbidden,
        );
        const motivo = await rejection(
          w.admin.rpc("rechazar_gasto", { p_id: pendiente.id, p_version: 2, p_motivo: "  " }),
        );
        expect(motivo).toBeInstanceOf(Invalid);
        expect((motivo as Invalid).field).toBe("motivo_rechazo");
      });

      it("una función de solo lectura (`reads`) también rechaza tipado: Forbidden, NotFound", async () => {
        const ninguna = "00000000-0000-4000-8000-000000000000";
        expect(await rejection(w.empleado.rpc("remesa_datos", { p_id: ninguna }, { reads: true }))).toBeInstanceOf(
          Forbidden,
        );
        expect(await rejection(w.admin.rpc("remesa_datos", { p_id: ninguna }, { reads: true }))).toBeInstanceOf(
          NotFound,
        );
      });

      it("una función que devuelve una tabla (el libro diario): filas con importes exactos, por páginas; errores tipados", async () => {
        const mes = { p_desde: `${today.slice(0, 7)}-01`, p_hasta: today };
        const filas = await w.admin.rpc<Record<string, unknown>[]>("libro_diario", mes);
        expect(Array.isArray(filas)).toBe(true);
        const apuntes = filas.map(normalizarApunte);
        const saldo = new Map<number, bigint>();
        for (const a of apuntes)
          saldo.set(a.asiento, (saldo.get(a.asiento) ?? 0n) + toCents(a.debe) - toCents(a.haber));
        expect([...saldo.values()].filter((d) => d !== 0n)).toEqual([]);
        expect(apuntes.every((a) => a.total === apuntes.length)).toBe(true);
        const pagina = await w.admin.rpc<unknown[]>("libro_diario", { ...mes, p_despues: 0, p_limite: 1 });
        expect(pagina.length).toBe(Math.min(1, apuntes.length));
        expect(await rejection(w.empleado.rpc("libro_diario", mes))).toBeInstanceOf(Forbidden);
        const periodo = await rejection(w.admin.rpc("libro_diario", { p_desde: today, p_hasta: "2000-01-01" }));
        expect(periodo).toBeInstanceOf(Invalid);
        expect((periodo as Invalid).field).toBe("hasta");
      });

      it("una función que devuelve jsonb da el mismo valor por cualquier adaptador", async () => {
        expect(await w.admin.rpc("referencias", { p_tabla: "departamentos", p_id: dep.alfa!.id })).toEqual([
          { tabla: "gastos", total: 4 },
        ]);
        expect(await w.admin.rpc("referencias", { p_tabla: "departamentos", p_id: dep.guion!.id })).toEqual([]);
      });
    });
  });
}

/** The writable values of an expense row, to insert a similar one. */
function pick(g: Row): Row {
  const { descripcion, fecha_gasto, categoria, importe, metodo_pago, departamento_id, sucursal_id } = g;
  return { descripcion, fecha_gasto, categoria, importe, metodo_pago, departamento_id, sucursal_id };
}
