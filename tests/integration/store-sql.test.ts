import type pg from "pg";
import { sqlStore } from "~/data/sql/adapter.server";
import { createDatabase } from "~/data/sql/connection.server";
import type { ColumnOf, ListQuery } from "~/data/store";
import { sumArgs } from "~/data/supabase.server";
import { asUser, connect, createUser } from "../support/as-user";
import { createTestDatabase } from "../support/database";
import { storeContract } from "./store-contract";

/** A query of gastos_vista, its columns checked against the schema. */
type ConsultaGastos = ListQuery<ColumnOf<"gastos_vista">>;

/**
 * The store contract on the SQL adapter over a real Postgres (a fresh database cloned from the
 * migrated template), plus a check that `public.sumar_lista` — the function the Supabase
 * adapter calls for sums, since hosted PostgREST has aggregates off — sums exactly what the SQL
 * adapter sums, for the same ListQuery and under the same row-level security.
 */
let owner: pg.Client | undefined;

storeContract("adaptador SQL (Postgres real)", async () => {
  const url = await createTestDatabase();
  owner = await connect(url);
  const adminId = await createUser(owner, {
    email: "contrato-admin@oficina.test",
    nombre: "Ana",
    rol: "administrador",
  });
  const empleadoId = await createUser(owner, {
    email: "contrato-empleado@oficina.test",
    nombre: "Eva",
    rol: "empleado",
  });
  const db = createDatabase(url, 4);
  return {
    admin: sqlStore(db, adminId),
    adminId,
    empleado: sqlStore(db, empleadoId),
    empleadoId,
    close: async () => {
      await db.destroy();
    },
  };
});

describe("public.sumar_lista (la suma del backend de Supabase) suma lo mismo que el adaptador SQL", () => {
  let client: pg.Client;
  let admin: string;
  let empleado: string;
  let departamento: string;
  let db: ReturnType<typeof createDatabase>;

  beforeAll(async () => {
    const url = await createTestDatabase();
    client = await connect(url);
    db = createDatabase(url, 2);
    admin = await createUser(client, { email: "suma-admin@oficina.test", nombre: "Ana", rol: "administrador" });
    empleado = await createUser(client, { email: "suma-empleado@oficina.test", nombre: "Eva" });
    const { rows: d } = await client.query(
      "insert into departamentos (nombre, codigo) values ('Ventas', 'VEN') returning id",
    );
    departamento = d[0].id;
    const { rows: s } = await client.query(
      "insert into sucursales (nombre, codigo, direccion, ciudad) values ('Madrid', 'MAD', 'Gran Vía 1', 'Madrid') returning id",
    );
    const { rows: p } = await client.query(
      "insert into proveedores (razon_social, nombre_comercial, tipo_persona, nif) values ('Restaurantes Unidos SL', 'La Tasca', 'empresa', 'B12345674') returning id",
    );
    const today = new Date().toISOString().slice(0, 10);
    for (const [who, descripcion, importe, categoria, proveedor] of [
      [empleado, "Taxi 100% (aeropuerto)", "12.34", "viajes_transporte", null],
      [empleado, "Comida_equipo", "56.78", "comidas", p[0].id],
      [empleado, "Hotel \\ noche", "90.00", "alojamiento", null],
      [admin, "Material", "0.01", "material_oficina", p[0].id],
    ] as const)
      await client.query(
        `insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id, sucursal_id, proveedor_id)
         values ($1, $2, $3, $4, 'efectivo', $5, $6, $7, $8)`,
        [descripcion, today, categoria, importe, who, departamento, s[0].id, proveedor],
      );
  });

  afterAll(async () => {
    await client?.end();
    await db?.destroy();
  });

  const queries: [string, Omit<ConsultaGastos, "limit" | "offset">][] = [
    ["sin filtro", {}],
    [
      "eq + in",
      {
        filters: [
          { column: "departamento_id", op: "eq", value: "" },
          { column: "categoria", op: "in", value: ["comidas", "alojamiento"] },
        ],
      },
    ],
    [
      "gt/lte sobre dinero",
      {
        filters: [
          { column: "importe", op: "gt", value: "12.34" },
          { column: "importe", op: "lte", value: 90 },
        ],
      },
    ],
    [
      "neq, is_null, not_null",
      {
        filters: [
          { column: "categoria", op: "neq", value: "comidas" },
          { column: "proveedor_id", op: "is_null" },
          { column: "folio", op: "not_null" },
        ],
      },
    ],
    ["búsqueda con %", { search: { columns: ["descripcion", "folio"], term: "100%" } }],
    ["búsqueda con _", { search: { columns: ["descripcion"], term: "a_e" } }],
    ["búsqueda con \\", { search: { columns: ["descripcion"], term: " \\ " } }],
    ["ilike como filtro", { filters: [{ column: "descripcion", op: "ilike" as never, value: "OTEL" }] }],
    ["in vacío en la función", { filters: [{ column: "categoria", op: "in", value: [] }] }],
  ];

  for (const [label, partial] of queries) {
    it(label, async () => {
      const query: ConsultaGastos = {
        ...partial,
        filters: partial.filters?.map((f) => (f.column === "departamento_id" ? { ...f, value: departamento } : f)),
        limit: 1,
        offset: 0,
        count: "exact",
        sum: ["importe", "importe_impuestos"],
      };
      for (const user of [admin, empleado]) {
        const expected = (await sqlStore(db, user).list("gastos_vista", query)).sums;
        const args = sumArgs("gastos_vista", ["importe", "importe_impuestos"], query);
        const { rows } = await asUser(
          client,
          user,
          (q) =>
            q("select public.sumar_lista($1, $2, $3::jsonb, $4::jsonb) as r", [
              args.p_fuente,
              args.p_columnas,
              JSON.stringify(args.p_filtros),
              JSON.stringify(args.p_busqueda),
            ]),
          { rollback: true },
        );
        expect(rows[0].r).toEqual(expected);
      }
    });
  }

  it("suma solo lo que el usuario ve (security invoker) y rechaza nombres que no son identificadores", async () => {
    const sum = async (user: string, fuente: string, columnas: string[], filtros: unknown = []) =>
      (
        await asUser(
          client,
          user,
          (q) => q("select public.sumar_lista($1, $2, $3::jsonb) as r", [fuente, columnas, JSON.stringify(filtros)]),
          { rollback: true },
        )
      ).rows[0].r;
    expect(await sum(admin, "gastos", ["importe"])).toEqual({ importe: "159.13" });
    expect(await sum(empleado, "gastos", ["importe"])).toEqual({ importe: "159.12" });
    await expect(sum(admin, 'gastos" where false --', ["importe"])).rejects.toMatchObject({ code: "OFINV" });
    await expect(sum(admin, "gastos", ["importe) from gastos --"])).rejects.toMatchObject({ code: "OFINV" });
    await expect(
      sum(admin, "gastos", ["importe"], [{ column: "importe", op: "; drop table gastos", value: 1 }]),
    ).rejects.toMatchObject({ code: "OFINV" });
    // Values are literals, never SQL.
    expect(
      await sum(admin, "gastos", ["importe"], [{ column: "descripcion", op: "eq", value: "x' or true --" }]),
    ).toEqual({ importe: "0" });
    // anon may not call it at all.
    await expect(
      asUser(client, null, (q) => q("select public.sumar_lista('gastos', '{importe}')"), { rollback: true }),
    ).rejects.toMatchObject({ code: "42501" });
  });
});
