import { sql, type Insertable } from "kysely";
import type { Gastos } from "~/data/database";
import { sqlStore } from "~/data/sql/adapter.server";
import { Invalid } from "~/data/store";
import { todayISO } from "~/lib/dates";
import { generateValidCif } from "~/lib/nif";
import { createTestApp, json, ORIGIN, request, respond } from "../support/app";
import { countRows, insertDepartamento, insertProveedor, insertSucursal, setProfile } from "../support/fixtures";
import { ivaDeducible } from "~/gastos/FichaGasto";
import { gastosPage } from "../support/gastos";
import { pantallasDe } from "../support/pantallas";

const { loader: proveedoresLoader } = pantallasDe("proveedores").lista;

/**
 * A gasto's fiscal data through the «Nuevo gasto» form and straight into the database (both
 * must hold the same rules): the breakdown by IVA rate and its fast path, the document and its
 * issuer, the rates in force on the date of issue, and whether the IVA is deductible and why.
 */
let app: Awaited<ReturnType<typeof createTestApp>>;
type U = Awaited<ReturnType<typeof app.createUser>>;
let admin: U, empleado: U;
let proveedor: string;
const hoy = todayISO();
const NIF_HOTEL = generateValidCif(111);

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
  const dep = await insertDepartamento(app.db, { nombre: "Ventas", codigo: "VEN" });
  const suc = await insertSucursal(app.db);
  proveedor = await insertProveedor(app.db, {
    razon_social: "Hotel Sol S.L.",
    nif: NIF_HOTEL,
    tipo_persona: "empresa",
  });
  await setProfile(app.db, admin.id, { departamento_id: dep, sucursal_id: suc });
  await setProfile(app.db, empleado.id, { departamento_id: dep, sucursal_id: suc });
});
afterAll(() => app.close());

const { post, created, row, list } = gastosPage(() => app);
let seq = 0;
/** «Nuevo gasto» as Elena; distinct importes so no duplicate warning gets in the way. */
const form = (o: Record<string, string> = {}) => {
  seq += 1;
  return {
    intent: "crear",
    descripcion: `Gasto fiscal ${seq}`,
    fecha_gasto: hoy,
    categoria: "comidas",
    importe: "12,10",
    metodo_pago: "efectivo",
    ...o,
  };
};
const linea = (i: number, tipo: string, base = "", cuota = "") => ({
  [`desglose_iva[${i}].tipo`]: tipo,
  [`desglose_iva[${i}].base`]: base,
  [`desglose_iva[${i}].cuota`]: cuota,
});
const vista = (id: string) =>
  app.db
    .selectFrom("gastos_vista")
    .select(["iva_deducible", "iva_motivo"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
/** The flash a redirect carries. */
async function flashOf(r: Response) {
  const cookie = r.headers.get("Set-Cookie")!.split(";")[0]!;
  return (await app.services.flash.take(new Request(ORIGIN, { headers: { Cookie: cookie } }))).flash;
}
/** An owner's load (no JWT: a bulk load, the migration's data): one of Elena's gastos, dated today. */
async function cargaSinSesion(
  valores: Omit<Insertable<Gastos>, "fecha_gasto" | "solicitante_id" | "departamento_id" | "sucursal_id">,
) {
  const perfil = await app.db
    .selectFrom("usuarios")
    .select(["departamento_id", "sucursal_id"])
    .where("id", "=", empleado.id)
    .executeTakeFirstOrThrow();
  const { id } = await app.db
    .insertInto("gastos")
    .values({
      ...valores,
      fecha_gasto: hoy,
      solicitante_id: empleado.id,
      departamento_id: perfil.departamento_id!,
      sucursal_id: perfil.sucursal_id!,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return String(id);
}
/** Amounts are formatted with no-break spaces before «€»: compared as plain spaces. */
const espacios = (s: unknown) => String(s).replace(/\s/g, " ");
/** A refused form: 400, its field errors, and no gasto written. */
async function rechazado(o: Record<string, string>) {
  const antes = await countRows(app.db, "gastos");
  const r = await post(form(o), empleado.cookie);
  expect(r.status, JSON.stringify(o)).toBe(400);
  expect(await countRows(app.db, "gastos")).toBe(antes);
  const errores = (await json(r)).result.error as Record<string, string[]>;
  return Object.fromEntries(Object.entries(errores).map(([k, v]) => [k, v.map(espacios)]));
}

describe("el desglose de IVA", () => {
  it("solo el importe: una línea al tipo habitual de la categoría, y el aviso dice lo calculado", async () => {
    const r = await post(form({ importe: "12,10" }), empleado.cookie);
    const g = await created(r);
    expect(g.desglose_iva).toEqual([{ tipo: "10", base: "11.00", cuota: "1.10" }]);
    expect(g.importe_impuestos).toBe("1.10");
    expect(g.tipo_documento).toBe("ticket");
    expect(g.fecha_expedicion).toBe(hoy);
    expect(espacios((await flashOf(r))?.message)).toContain("IVA calculado: 10 %: base 11,00 €, cuota 1,10 €.");
  });

  it("el tipo habitual lo decide el administrador: la vía rápida lo sigue", async () => {
    await sqlStore(app.db, admin.id).update(
      "categorias_fiscales",
      (
        await app.db
          .selectFrom("categorias_fiscales")
          .select("id")
          .where("categoria", "=", "material_oficina")
          .executeTakeFirstOrThrow()
      ).id,
      1,
      { tipo_iva: "4" },
    );
    const g = await created(await post(form({ categoria: "material_oficina", importe: "10,40" }), empleado.cookie));
    expect(g.desglose_iva).toEqual([{ tipo: "4", base: "10.00", cuota: "0.40" }]);
  });

  it("un ticket con dos tipos: la cuota sale de la base, la última línea del resto; los impuestos, la suma", async () => {
    // 21 % on 10,00 (2,10) and the rest at 10 %: 24,20 − 12,10 = 12,10 → 11,00 + 1,10.
    const r = await post(form({ importe: "24,20", ...linea(0, "21", "10,00"), ...linea(1, "10") }), empleado.cookie);
    const g = await created(r);
    expect(g.desglose_iva).toEqual([
      { tipo: "21", base: "10.00", cuota: "2.10" },
      { tipo: "10", base: "11.00", cuota: "1.10" },
    ]);
    expect(g.importe_impuestos).toBe("3.20");
    expect((await flashOf(r))?.message).not.toContain("IVA calculado");
  });

  it("propinas y tasas aparte: otros importes no sujetos", async () => {
    const g = await created(await post(form({ importe: "13,10", otros_no_sujetos: "1,00" }), empleado.cookie));
    expect(g.desglose_iva).toEqual([{ tipo: "10", base: "11.00", cuota: "1.10" }]);
    expect(g.otros_no_sujetos).toBe("1.00");
  });

  it("una sola línea escrita que no cuadra con el importe se recalcula con su tipo; una que cuadra se respeta", async () => {
    const recalculada = await created(
      await post(form({ importe: "12,10", ...linea(0, "21", "5,00", "1,05") }), empleado.cookie),
    );
    expect(recalculada.desglose_iva).toEqual([{ tipo: "21", base: "10.00", cuota: "2.10" }]);
    // The invoice's own rounding (one cent off the computed cuota) is kept as written.
    const tal = await created(
      await post(form({ importe: "12,00", ...linea(0, "10", "10,90", "1,10") }), empleado.cookie),
    );
    expect(tal.desglose_iva).toEqual([{ tipo: "10", base: "10.90", cuota: "1.10" }]);
  });

  it("lo que no cuadra se rechaza con su mensaje y no se escribe nada", async () => {
    expect(
      (await rechazado({ importe: "30,00", ...linea(0, "21", "10,00"), ...linea(1, "10", "10,00") })).desglose_iva?.[0],
    ).toMatch(/suman 23,10 € y el importe es 30,00 €/);
    expect(
      (await rechazado({ importe: "22,00", ...linea(0, "21", "10,00", "3,00"), ...linea(1, "10", "8,18") }))[
        "desglose_iva[0].cuota"
      ]?.[0],
    ).toMatch(/la cuota al 21 % de 10,00 € es 2,10 €, no 3,00 €/);
    expect(
      (await rechazado({ importe: "20,01", ...linea(0, "exento", "10,00", "0,01"), ...linea(1, "0", "10,00") }))[
        "desglose_iva[0].cuota"
      ]?.[0],
    ).toBe("Desglose de IVA, línea 1: una línea exenta no lleva cuota; escriba 0,00 €, no 0,01 €");
    expect(
      (await rechazado({ importe: "22,00", ...linea(0, "21", "10,00"), ...linea(1, "21", "5,00") }))[
        "desglose_iva[1].tipo"
      ]?.[0],
    ).toMatch(/ya está en otra línea/);
    expect((await rechazado({ ...linea(0, "", "10,00") }))["desglose_iva[0].tipo"]?.[0]).toMatch(/elija el tipo/);
    expect((await rechazado({ ...linea(0, "10", "diez") }))["desglose_iva[0].base"]?.[0]).toMatch(/en euros/);
    expect((await rechazado({ importe: "10,00", otros_no_sujetos: "10,01" })).otros_no_sujetos?.[0]).toMatch(
      /no pueden ser mayores que el importe/,
    );
  });

  it("el tipo debe estar en vigor en la fecha de expedición (una fila de tipos_iva, no una versión nueva)", async () => {
    // 5 % was temporary (2022–2024): refused today, by the database, next to the breakdown.
    const errores = await rechazado({ importe: "10,50", ...linea(0, "5", "10,00") });
    expect(errores.desglose_iva?.[0]).toMatch(/el tipo 5 % no estaba en vigor el \d\d\/\d\d\/\d{4}/);
    // A change of law is a row: the 5 % back from today, and the same gasto is accepted.
    await sqlStore(app.db, admin.id).insert("tipos_iva", {
      clave: "5",
      porcentaje: "5",
      nombre: "Reducido nuevo",
      desde: hoy,
    });
    const g = await created(await post(form({ importe: "10,50", ...linea(0, "5", "10,00") }), empleado.cookie));
    expect(g.desglose_iva).toEqual([{ tipo: "5", base: "10.00", cuota: "0.50" }]);
  });
});

describe("el documento y su emisor", () => {
  it("una factura completa lleva NIF del emisor y número: todos los errores a la vez", async () => {
    const errores = await rechazado({ tipo_documento: "factura_completa" });
    expect(errores.emisor_nif?.[0]).toMatch(/una factura completa lo lleva/);
    expect(errores.numero_factura?.[0]).toMatch(/una factura completa lo lleva/);
  });

  it("un emisor escrito a mano: NIF con su letra de control y su nombre; deducible a nombre de la empresa", async () => {
    const nif = generateValidCif(777);
    const malo = nif.slice(0, -1) + (nif.endsWith("1") ? "2" : "1");
    const errores = await rechazado({ emisor_nif: malo });
    expect(errores.emisor_nif?.[0]).toMatch(/^NIF del emisor: /);
    expect(errores.emisor_nombre?.[0]).toMatch(/escriba el nombre/);

    const g = await created(
      await post(
        form({
          tipo_documento: "factura_completa",
          emisor_nif: nif.toLowerCase(),
          emisor_nombre: "Taxi Pérez",
          numero_factura: "T-1",
          factura_a_empresa: "on",
          categoria: "viajes_transporte",
          importe: "22,00",
        }),
        empleado.cookie,
      ),
    );
    expect(g).toMatchObject({ emisor_nif: nif, emisor_nombre: "Taxi Pérez", factura_a_empresa: true });
    expect(await vista(g.id)).toEqual({ iva_deducible: "2.00", iva_motivo: null });
  });

  it("un NIF escrito que ya es de un proveedor: el gasto queda con ese proveedor, y el aviso lo dice", async () => {
    const r = await post(form({ emisor_nif: NIF_HOTEL.toLowerCase(), emisor_nombre: "Hotel" }), empleado.cookie);
    const g = await created(r);
    expect(g).toMatchObject({ proveedor_id: proveedor, emisor_nif: null, emisor_nombre: null });
    expect((await flashOf(r))?.message).toContain("queda como su proveedor");
  });

  it("un emisor escrito se da de alta como proveedor en un paso: el formulario llega relleno (solo a quien puede)", async () => {
    const nif = generateValidCif(778);
    const g = await created(await post(form({ emisor_nif: nif, emisor_nombre: "Cafetería Sur" }), empleado.cookie));
    const panel = async (u: U) => (await list(`?gasto=${g.id}`, u.cookie)).panel;
    expect((await panel(empleado)).altaProveedor).toBeNull();
    const { href } = (await panel(admin)).altaProveedor;
    const url = new URL(href, ORIGIN);
    expect(url.pathname).toBe("/proveedores");
    const data = await json(
      await respond(() =>
        proveedoresLoader({
          request: request(`${url.pathname}${url.search}`, { cookie: admin.cookie }),
          context: app.context(),
          params: {},
        }),
      ),
    );
    expect(data.nuevo.defaults).toMatchObject({
      razon_social: "Cafetería Sur",
      nif,
      pais: "ES",
      tipo_persona: "empresa",
    });
  });

  it("con proveedor, el emisor es el proveedor: lo escrito a mano no se guarda", async () => {
    const g = await created(
      await post(form({ proveedor_id: proveedor, emisor_nif: NIF_HOTEL, emisor_nombre: "Otro" }), empleado.cookie),
    );
    expect(g).toMatchObject({ emisor_nif: null, emisor_nombre: null });
    const libro = await app.db
      .selectFrom("gastos_vista")
      .select(["emisor_nif_efectivo", "emisor_nombre_efectivo"])
      .where("id", "=", g.id)
      .executeTakeFirstOrThrow();
    expect(libro).toEqual({ emisor_nif_efectivo: NIF_HOTEL, emisor_nombre_efectivo: "Hotel Sol S.L." });
  });
});

describe("deducibilidad", () => {
  it("cada motivo, con su importe", async () => {
    const base = { proveedor_id: proveedor, numero_factura: "F-9" };
    const casos: [Record<string, string>, string | null][] = [
      [{ ...base, tipo_documento: "factura_completa", factura_a_empresa: "on" }, null],
      [{ ...base, tipo_documento: "factura_completa" }, "Factura sin el NIF de la empresa como destinataria"],
      [{ ...base, tipo_documento: "factura_simplificada", factura_a_empresa: "on" }, null],
      [{ tipo_documento: "ticket" }, "Ticket sin NIF de la empresa"],
      [{ tipo_documento: "factura_simplificada", factura_a_empresa: "on" }, "Factura sin NIF del emisor"],
      [
        { ...base, categoria: "atenciones_clientes", tipo_documento: "factura_completa", factura_a_empresa: "on" },
        "Atenciones a clientes, empleados o terceros (Ley 37/1992, art. 96)",
      ],
      [{ ...linea(0, "exento") }, "Sin IVA soportado"],
      [
        {
          tipo_documento: "factura_completa",
          factura_a_empresa: "on",
          emisor_pais: "PT",
          emisor_nif: "PT509876541",
          emisor_nombre: "Hotel Lisboa Lda",
          numero_factura: "L-2026-17",
        },
        "IVA de otro país: se pide su devolución a ese país, no se deduce aquí",
      ],
    ];
    for (const [o, motivo] of casos) {
      const g = await created(await post(form(o), empleado.cookie));
      const v = await vista(g.id);
      expect(v, JSON.stringify(o)).toEqual({
        iva_deducible: motivo ? "0.00" : g.importe_impuestos,
        iva_motivo: motivo,
      });
      // The panel knows the database's reason for a foreign issuer: it recalls the reverse charge.
      if (o.emisor_pais === "PT")
        expect(ivaDeducible({ ...v, estado: "borrador" }, { locale: "es-ES", currency: "EUR" }).value).toContain(
          "es inversión del sujeto pasivo",
        );
    }
  });

  it("un vehículo de uso mixto: la mitad de cada cuota, redondeada línea a línea; el libro de IVA, igual", async () => {
    const categoria = (deducibilidad: string) =>
      app.db.updateTable("categorias_fiscales").set({ deducibilidad }).where("categoria", "=", "combustible").execute();
    await categoria("vehiculo_mixto");
    try {
      // 21 % on 10,05 (2,11) and the rest at 10 % (1,10): halves 1,055 → 1,06 and 0,55.
      const g = await created(
        await post(
          form({
            categoria: "combustible",
            importe: "24,27",
            proveedor_id: proveedor,
            numero_factura: "F-11",
            tipo_documento: "factura_completa",
            factura_a_empresa: "on",
            ...linea(0, "21", "10,05"),
            ...linea(1, "10"),
          }),
          empleado.cookie,
        ),
      );
      expect(g.desglose_iva).toEqual([
        { tipo: "21", base: "10.05", cuota: "2.11" },
        { tipo: "10", base: "11.01", cuota: "1.10" },
      ]);
      const motivo = "Vehículo de uso mixto: se deduce el 50 % (Ley 37/1992, art. 95.Tres)";
      expect(await vista(g.id)).toEqual({ iva_deducible: "1.61", iva_motivo: motivo });
      await app.db
        .updateTable("gastos")
        .set({ estado: "aprobado", aprobado_por_id: admin.id, fecha_aprobacion: sql<string>`now()` })
        .where("id", "=", g.id)
        .execute();
      await categoria("factura_empresa");
      const libro = await app.db
        .selectFrom("libro_facturas_recibidas")
        .select(["linea", "cuota_soportada", "cuota_deducible", "iva_motivo"])
        .where("gasto_id", "=", g.id)
        .orderBy("linea")
        .execute();
      expect(libro).toEqual([
        { linea: 1, cuota_soportada: "2.11", cuota_deducible: "1.06", iva_motivo: motivo },
        { linea: 2, cuota_soportada: "1.10", cuota_deducible: "0.55", iva_motivo: motivo },
      ]);
    } finally {
      await categoria("factura_empresa");
    }
  });

  it("lo aprobado queda con la deducibilidad de entonces: cambiar la de su categoría vale para lo que se aprueba después", async () => {
    const factura = { proveedor_id: proveedor, numero_factura: "F-10", tipo_documento: "factura_completa" };
    const nuevo = async () =>
      (
        await created(
          await post(form({ ...factura, factura_a_empresa: "on", categoria: "formacion" }), empleado.cookie),
        )
      ).id;
    const aprobar = (id: string) =>
      app.db
        .updateTable("gastos")
        .set({ estado: "aprobado", aprobado_por_id: admin.id, fecha_aprobacion: sql<string>`now()` })
        .where("id", "=", id)
        .execute();
    const [aprobado, pendiente] = [await nuevo(), await nuevo()];
    await aprobar(aprobado);
    const deducible = await vista(aprobado);
    expect(Number(deducible.iva_deducible)).toBeGreaterThan(0);
    const categoria = (deducibilidad: string) =>
      app.db.updateTable("categorias_fiscales").set({ deducibilidad }).where("categoria", "=", "formacion").execute();
    await categoria("no_deducible");
    try {
      const motivo = "Atenciones a clientes, empleados o terceros (Ley 37/1992, art. 96)";
      expect(await vista(aprobado)).toEqual(deducible);
      expect(await vista(pendiente)).toEqual({ iva_deducible: "0.00", iva_motivo: motivo });
      await aprobar(pendiente);
      await categoria("factura_empresa");
      expect(await vista(pendiente)).toEqual({ iva_deducible: "0.00", iva_motivo: motivo });
      // Back to pendiente (revocar): the rule of today again.
      await app.db
        .updateTable("gastos")
        .set({ estado: "pendiente", aprobado_por_id: null, fecha_aprobacion: null })
        .where("id", "=", pendiente)
        .execute();
      expect(await vista(pendiente)).toEqual(deducible);
    } finally {
      await categoria("factura_empresa");
    }
  });
});

describe("inversión del sujeto pasivo", () => {
  /** A software subscription invoiced from Ireland without IVA: the company declares it. */
  const irlanda = (o: Record<string, string> = {}) =>
    form({
      categoria: "software_suscripciones",
      tipo_documento: "factura_completa",
      factura_a_empresa: "on",
      emisor_pais: "IE",
      emisor_nif: "IE6388047V",
      emisor_nombre: "Nube Software Ltd",
      numero_factura: "INV-2026-881",
      metodo_pago: "transferencia",
      inversion_sujeto_pasivo: "on",
      ...o,
    });

  it("solo el importe: es la base, la cuota va aparte y se deduce aquí; el libro de IVA lo dice", async () => {
    const r = await post(irlanda({ importe: "100,00" }), empleado.cookie);
    const g = await created(r);
    expect(g).toMatchObject({
      inversion_sujeto_pasivo: true,
      importe: "100.00",
      desglose_iva: [{ tipo: "21", base: "100.00", cuota: "21.00" }],
      importe_impuestos: "21.00",
    });
    // Another country's IVA is not deducted here, but this one the company declares itself.
    expect(await vista(g.id)).toEqual({ iva_deducible: "21.00", iva_motivo: null });
    expect(espacios((await flashOf(r))?.message)).toContain("IVA calculado: 21 %: base 100,00 €, cuota 21,00 €.");
    // The issuer's country, whether typed or the supplier's, for the panel's check.
    const { emisor_pais_efectivo } = await app.db
      .selectFrom("gastos_vista")
      .select("emisor_pais_efectivo")
      .where("id", "=", g.id)
      .executeTakeFirstOrThrow();
    expect(emisor_pais_efectivo).toBe("IE");

    await app.db
      .updateTable("gastos")
      .set({ estado: "aprobado", aprobado_por_id: admin.id, fecha_aprobacion: sql<string>`now()` })
      .where("id", "=", g.id)
      .execute();
    const libro = await app.db
      .selectFrom("libro_facturas_recibidas")
      .select(["total", "base_imponible", "cuota_soportada", "cuota_deducible", "inversion_sujeto_pasivo"])
      .where("gasto_id", "=", g.id)
      .execute();
    expect(libro).toEqual([
      {
        total: "100.00",
        base_imponible: "100.00",
        cuota_soportada: "21.00",
        cuota_deducible: "21.00",
        inversion_sujeto_pasivo: true,
      },
    ]);
  });

  it("las líneas escritas suman sin su cuota; la que queda con solo el tipo toma la base restante", async () => {
    const g = await created(
      await post(irlanda({ importe: "150,00", ...linea(0, "21", "100,00"), ...linea(1, "10") }), empleado.cookie),
    );
    expect(g.desglose_iva).toEqual([
      { tipo: "21", base: "100.00", cuota: "21.00" },
      { tipo: "10", base: "50.00", cuota: "5.00" },
    ]);
    const errores = await rechazado(
      irlanda({ importe: "150,00", ...linea(0, "21", "100,00", "21,00"), ...linea(1, "10", "29,00") }),
    );
    expect(errores.desglose_iva?.[0]).toMatch(
      /con inversión del sujeto pasivo la cuota no es parte del importe; bases y otros importes suman 129,00 € y el importe es 150,00 €/,
    );
  });

  it("solo en una factura completa: un ticket con la casilla se rechaza y no se escribe nada", async () => {
    const errores = await rechazado({ inversion_sujeto_pasivo: "on" });
    expect(errores.inversion_sujeto_pasivo?.[0]).toMatch(/^Inversión del sujeto pasivo: solo en una factura completa/);
    const sinEmpresa = await rechazado(irlanda({ factura_a_empresa: "" }));
    expect(sinEmpresa.factura_a_empresa?.[0]).toMatch(/^A nombre de la empresa: con inversión del sujeto pasivo/);
  });

  it("una carga del propietario con sus impuestos: la cuota de todo el importe a su tipo, o exento con 0", async () => {
    const cargar = async (impuestos: string) =>
      row(
        await cargaSinSesion({
          descripcion: "Carga ISP",
          categoria: "servicios_profesionales",
          importe: "200.00",
          importe_impuestos: impuestos,
          metodo_pago: "transferencia",
          tipo_documento: "factura_completa",
          factura_a_empresa: true,
          emisor_pais: "IE",
          emisor_nif: "IE6388047V",
          emisor_nombre: "Nube Software Ltd",
          numero_factura: `L-${impuestos}`,
          inversion_sujeto_pasivo: true,
        }),
      );
    expect((await cargar("42.00")).desglose_iva).toEqual([{ tipo: "21", base: "200.00", cuota: "42.00" }]);
    expect((await cargar("0.00")).desglose_iva).toEqual([{ tipo: "exento", base: "200.00", cuota: "0.00" }]);
  });

  it("marcarla en un gasto anterior «por revisar» rehace su desglose (el diario no puede quedar descuadrado)", async () => {
    const id = await cargaSinSesion({
      descripcion: "Antiguo ISP",
      categoria: "software_suscripciones",
      importe: "100.00",
      importe_impuestos: "7.00",
      metodo_pago: "transferencia",
    });
    expect(await row(id)).toMatchObject({ desglose_revisar: true, desglose_iva: [] });
    const g = await row(id);
    await sqlStore(app.db, empleado.id).update("gastos", id, g.version, {
      tipo_documento: "factura_completa",
      factura_a_empresa: true,
      emisor_pais: "IE",
      emisor_nif: "IE6388047V",
      emisor_nombre: "Nube Software Ltd",
      numero_factura: "OLD-1",
      inversion_sujeto_pasivo: true,
    });
    expect(await row(id)).toMatchObject({
      desglose_revisar: false,
      desglose_iva: [{ tipo: "21", base: "100.00", cuota: "21.00" }],
      importe_impuestos: "21.00",
    });
  });

  it("en la base: las mismas reglas; marcar la casilla rehace la línea única sobre el importe sin IVA", async () => {
    const store = sqlStore(app.db, empleado.id);
    const valores = {
      descripcion: "Directo ISP",
      fecha_gasto: hoy,
      categoria: "software_suscripciones",
      importe: "200.00",
      metodo_pago: "transferencia",
      tipo_documento: "factura_completa",
      factura_a_empresa: true,
      emisor_pais: "IE",
      emisor_nif: "IE6388047V",
      emisor_nombre: "Nube Software Ltd",
      numero_factura: "INV-2026-900",
    };
    await expect(
      store.insert("gastos", { ...valores, tipo_documento: "ticket", inversion_sujeto_pasivo: true }),
    ).rejects.toMatchObject({ field: "inversion_sujeto_pasivo" });
    // The company declares that IVA because the invoice is addressed to it.
    await expect(
      store.insert("gastos", { ...valores, factura_a_empresa: false, inversion_sujeto_pasivo: true }),
    ).rejects.toMatchObject({ field: "factura_a_empresa" });
    await expect(
      store.insert("gastos", {
        ...valores,
        inversion_sujeto_pasivo: true,
        desglose_iva: [{ tipo: "21", base: "165.29", cuota: "34.71" }],
      }),
    ).rejects.toMatchObject({
      field: "desglose_iva",
      message: expect.stringMatching(/suman 165,29 € y el importe es 200,00 €/),
    });

    const g = await store.insert<{ id: string; version: number }>("gastos", { ...valores, desglose_iva: [] });
    expect(await vista(g.id)).toMatchObject({
      iva_motivo: "IVA de otro país: se pide su devolución a ese país, no se deduce aquí",
    });
    const marcado = await store.update<Record<string, unknown>>("gastos", g.id, g.version, {
      inversion_sujeto_pasivo: true,
    });
    expect(marcado.desglose_iva).toEqual([{ tipo: "21", base: "200.00", cuota: "42.00" }]);
    expect(await vista(g.id)).toEqual({ iva_deducible: "42.00", iva_motivo: null });
  });
});

describe("en la base de datos, sin pasar por el formulario", () => {
  it("la receta de un campo nuevo de gastos rehace su vista y el libro de IVA que se lee de ella", async () => {
    await sql`select interno.crear_gastos_vista()`.execute(app.db);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.libro_facturas_recibidas`.execute(
      app.db,
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(0);
    const { rows: permisos } = await sql<{ ok: boolean }>`
      select has_table_privilege('authenticated', 'public.libro_facturas_recibidas', 'select') as ok`.execute(app.db);
    expect(permisos[0]!.ok).toBe(true);
  });

  it("las mismas reglas para quien escribe directamente (como PostgREST)", async () => {
    const store = sqlStore(app.db, empleado.id);
    const valores = {
      descripcion: "Directo",
      fecha_gasto: hoy,
      categoria: "comidas",
      importe: "20.00",
      metodo_pago: "efectivo",
      desglose_iva: [{ tipo: "10", base: "10.00", cuota: "1.00" }],
    };
    await expect(store.insert("gastos", valores)).rejects.toThrow(Invalid);
    await expect(store.insert("gastos", valores)).rejects.toMatchObject({
      field: "desglose_iva",
      message: expect.stringMatching(/suman 11,00 € y el importe es 20,00 €/),
    });
    await expect(
      store.insert("gastos", {
        ...valores,
        desglose_iva: [{ tipo: "10", base: "10.00", cuota: "1.50" }],
        importe: "11.50",
      }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/la cuota al 10 % de 10,00 € es 1,00 €, no 1,50 €/) });
    // Exento: no rounding to forgive, not even a cent (it would be deducted, and booked).
    await expect(
      store.insert("gastos", {
        ...valores,
        desglose_iva: [
          { tipo: "exento", base: "50.00", cuota: "0.01" },
          { tipo: "21", base: "41.34", cuota: "8.67" },
        ],
        importe: "100.02",
      }),
    ).rejects.toMatchObject({
      message: "Desglose de IVA, línea 1: una línea exenta no lleva cuota; escriba 0,00 €, no 0,01 €.",
    });
    await expect(
      store.insert("gastos", { ...valores, tipo_documento: "factura_completa", desglose_iva: [] }),
    ).rejects.toMatchObject({ field: "emisor_nif" });

    // A single line nobody touched follows a new importe, at its own rate.
    const g = await store.insert<{ id: string; version: number }>("gastos", { ...valores, desglose_iva: [] });
    const editado = await store.update<Record<string, unknown>>("gastos", g.id, g.version, { importe: "33.00" });
    expect(editado.desglose_iva).toEqual([{ tipo: "10", base: "30.00", cuota: "3.00" }]);
    expect(editado.importe_impuestos).toBe("3.00");
  });

  it("datos anteriores cuyos impuestos no encajan en ningún tipo: «revisar», hasta que alguien escribe el desglose", async () => {
    // As the migration found them: 10,00 of which 3,33 were taxes.
    const id = await cargaSinSesion({
      descripcion: "Antiguo",
      categoria: "otros",
      importe: "10.00",
      importe_impuestos: "3.33",
      metodo_pago: "efectivo",
    });
    expect(await row(id)).toMatchObject({ desglose_revisar: true, importe_impuestos: "3.33", desglose_iva: [] });
    expect(await vista(id)).toEqual({ iva_deducible: "0.00", iva_motivo: "Desglose de IVA por revisar" });
    const store = sqlStore(app.db, empleado.id);
    const g = await row(id);
    await store.update("gastos", id, g.version, { desglose_iva: [{ tipo: "21", base: "8.26", cuota: "1.74" }] });
    expect(await row(id)).toMatchObject({ desglose_revisar: false, importe_impuestos: "1.74" });
  });
});
