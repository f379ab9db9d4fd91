import { readFileSync, writeFileSync } from "node:fs";
import ExcelJS from "exceljs";
import { sql } from "kysely";
import { CSV_BOM } from "~/lib/csv";
import { generateValidCif } from "~/lib/nif";
import { fromCents, toCents } from "~/lib/money";
import { sqlStore } from "~/data/sql/adapter.server";
import type { Store } from "~/data/store";
import { consultaLibro, paginasLibro } from "~/fiscal/libro.server";
import { leerPeriodo } from "~/fiscal/periodo";
import * as exportar from "~/routes/libro-iva.exportar";
import * as pantalla from "~/routes/libro-iva";
import { createTestApp, json, request, respond, type TestUser } from "../support/app";
import { insertDepartamento, insertProveedor, insertSucursal, setProfile } from "../support/fixtures";

/**
 * The libro registro de facturas recibidas (docs/producto.md «Datos fiscales»): a few gastos of
 * the first quarter of 2026 made in the database (their IVA breakdown computed by it from the
 * importe, or given line by line), others that must stay out (another estado, another quarter),
 * exported by the route as an administrador. The workbook, read back with exceljs, equals the
 * golden file cell by cell (values, number formats, dates, the bold totals row); its totals equal
 * the gastos' own lines added in cents; the CSV follows the lists' CSV conventions.
 *
 * ACTUALIZAR_GOLDEN=1 writes the golden file from the export instead (read it, and `npm run format`,
 * before committing).
 */
const GOLDEN = new URL("./golden/libro-iva-2026-1T.json", import.meta.url);
const TRIMESTRE = "periodo=trimestre&anio=2026&trimestre=1";

let app: Awaited<ReturnType<typeof createTestApp>>;
let admin: TestUser;
let aprobador: TestUser;
let empleado: TestUser;
let dep: string;
let suc: string;

type Gasto = {
  descripcion: string;
  fecha_gasto: string;
  categoria: string;
  importe: string;
  estado: "borrador" | "pendiente" | "aprobado" | "rechazado" | "pagado";
  tipo_documento?: string;
  proveedor_id?: string;
  emisor_nif?: string;
  emisor_nombre?: string;
  fecha_expedicion?: string;
  numero_factura?: string;
  factura_a_empresa?: boolean;
  inversion_sujeto_pasivo?: boolean;
  emisor_pais?: string;
  desglose_iva?: { tipo: string; base: string; cuota: string }[];
  otros_no_sujetos?: string;
  importe_impuestos?: string;
};

/** A gasto of the empleado, written as the owner, then taken to its estado as the workflow leaves it. */
async function gasto(g: Gasto): Promise<string> {
  const { estado, desglose_iva, ...values } = g;
  const { id } = await app.db
    .insertInto("gastos")
    .values({
      ...values,
      ...(desglose_iva ? { desglose_iva: JSON.stringify(desglose_iva) } : {}),
      metodo_pago: "tarjeta_corporativa",
      // The folio's year is its creation's: fixed, so the golden file does not age.
      creado_en: "2026-04-02T10:00:00Z",
      solicitante_id: empleado.id,
      departamento_id: dep,
      sucursal_id: suc,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (estado !== "borrador") {
    const aprobado = estado === "aprobado" || estado === "pagado";
    await app.db
      .updateTable("gastos")
      .set({
        estado,
        aprobador_id: aprobador.id,
        ...(aprobado ? { aprobado_por_id: aprobador.id, fecha_aprobacion: sql<string>`now()` } : {}),
        ...(estado === "pagado" ? { fecha_pago: "2026-04-10", referencia_pago: "TRF-1" } : {}),
        ...(estado === "rechazado" ? { motivo_rechazo: "Sin ticket" } : {}),
      })
      .where("id", "=", id)
      .execute();
  }
  return String(id);
}

beforeAll(async () => {
  app = await createTestApp();
  dep = await insertDepartamento(app.db, { nombre: "Administración", codigo: "ADM" });
  suc = await insertSucursal(app.db);
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Aurelio", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Eva", rol: "empleado" });
  for (const u of [admin, aprobador, empleado])
    await setProfile(app.db, u.id, { departamento_id: dep, sucursal_id: suc });
  const hotel = await insertProveedor(app.db, {
    razon_social: "Hoteles del Sol SL",
    nif: generateValidCif(11),
    tipo_persona: "empresa",
  });
  // Known by its trade name; the libro names it by its legal one.
  await app.db.updateTable("proveedores").set({ nombre_comercial: "Sol Sevilla" }).where("id", "=", hotel).execute();

  // In the quarter, approved or paid: what the libro holds.
  await gasto({
    descripcion: "Hotel en Sevilla",
    fecha_gasto: "2026-01-15",
    fecha_expedicion: "2026-01-14",
    categoria: "alojamiento",
    importe: "110.00", // one line at the category's usual 10 %, computed by the database
    estado: "aprobado",
    tipo_documento: "factura_completa",
    proveedor_id: hotel,
    numero_factura: "A-2026/0001",
    factura_a_empresa: true,
  });
  await gasto({
    descripcion: "Material y libros",
    fecha_gasto: "2026-02-27",
    categoria: "material_oficina",
    importe: "300.50",
    estado: "pagado",
    tipo_documento: "factura_completa",
    emisor_nif: "b12345674",
    emisor_nombre: "Papelería Núñez & Hijos",
    numero_factura: "F-77",
    factura_a_empresa: true,
    desglose_iva: [
      { tipo: "21", base: "200.00", cuota: "42.00" },
      { tipo: "4", base: "50.00", cuota: "2.00" },
    ],
    otros_no_sujetos: "6.50",
  });
  await gasto({
    descripcion: "Curso sin IVA",
    fecha_gasto: "2026-02-01",
    categoria: "formacion",
    importe: "40.00",
    importe_impuestos: "0.00", // exento
    estado: "pagado",
    tipo_documento: "factura_completa",
    emisor_nif: "G28000006",
    emisor_nombre: "Fundación Formación",
    numero_factura: "2026-15",
    factura_a_empresa: true,
  });
  await gasto({
    descripcion: "Comida con un cliente",
    fecha_gasto: "2026-03-10",
    categoria: "atenciones_clientes", // never deductible
    importe: "55.00",
    estado: "aprobado",
    tipo_documento: "factura_completa",
    proveedor_id: hotel,
    numero_factura: "A-2026/0107",
    factura_a_empresa: true,
  });
  await gasto({
    descripcion: "Menú del día",
    fecha_gasto: "2026-03-31",
    categoria: "comidas",
    importe: "12.10", // a ticket: its IVA is not deductible
    estado: "aprobado",
    tipo_documento: "ticket",
    emisor_nombre: "=SUMA(1;2) Bar Pepe",
  });
  await gasto({
    descripcion: "Suscripción de diseño",
    fecha_gasto: "2026-03-20",
    categoria: "software_suscripciones",
    importe: "100.00", // invoiced without IVA: the company declares 21,00 and deducts it
    estado: "aprobado",
    tipo_documento: "factura_completa",
    emisor_pais: "IE",
    emisor_nif: "IE6388047V",
    emisor_nombre: "Nube Software Ltd",
    numero_factura: "INV-2026-031",
    factura_a_empresa: true,
    inversion_sujeto_pasivo: true,
  });

  // Out of the libro, and said on the screen: taxes that fit no rate (an old load), to be reviewed.
  await gasto({
    descripcion: "Carga antigua",
    fecha_gasto: "2026-03-02",
    categoria: "otros",
    importe: "100.00",
    importe_impuestos: "7.77",
    estado: "aprobado",
  });
  // Out of the libro: another estado, or another quarter.
  for (const [estado, fecha_gasto] of [
    ["borrador", "2026-02-10"],
    ["pendiente", "2026-02-11"],
    ["rechazado", "2026-02-12"],
    ["aprobado", "2025-12-31"],
    ["pagado", "2026-04-01"],
  ] as const)
    await gasto({
      descripcion: `Fuera del libro (${estado})`,
      fecha_gasto,
      categoria: "otros",
      importe: "99.99",
      estado,
    });
}, 60_000);

afterAll(() => app?.close());

const exportarComo = (u: TestUser, search: string) =>
  respond(() =>
    exportar.loader({
      request: request(`/libro-iva/exportar?${search}`, { cookie: u.cookie }),
      context: app.context(),
      params: {},
    }),
  );
const pantallaComo = (u: TestUser, search: string) =>
  respond(() =>
    pantalla.loader({
      request: request(`/libro-iva?${search}`, { cookie: u.cookie }),
      context: app.context(),
      params: {},
    }),
  );

/** The lines the gastos hold themselves (approved or paid, dated in the quarter), read as the owner. */
async function lineasDeLosGastos(desde: string, hasta: string) {
  const { rows } = await sql<{
    base: string;
    cuota: string;
    otros: string;
    orden: string;
    deducible: boolean;
    isp: boolean;
  }>`
    select l.value ->> 'base' as base, l.value ->> 'cuota' as cuota, l.orden::text as orden,
           case when l.orden = 1 then g.otros_no_sujetos::text else '0.00' end as otros,
           g.iva_deducible > 0 as deducible, g.inversion_sujeto_pasivo as isp
      from public.gastos_vista g
     cross join lateral jsonb_array_elements(g.desglose_iva) with ordinality as l(value, orden)
     where g.estado in ('aprobado', 'pagado') and g.fecha_gasto between ${desde} and ${hasta}`.execute(app.db);
  const sum = (f: (r: (typeof rows)[number]) => string) => fromCents(rows.reduce((s, r) => s + toCents(f(r)), 0n));
  return {
    lineas: rows.length,
    base_imponible: sum((r) => r.base),
    cuota_soportada: sum((r) => r.cuota),
    cuota_deducible: sum((r) => (r.deducible ? r.cuota : "0")),
    // What the invoice says: without the cuota the company declares (inversión del sujeto pasivo).
    total: fromCents(
      rows.reduce((s, r) => s + toCents(r.base) + (r.isp ? 0n : toCents(r.cuota)) + toCents(r.otros), 0n),
    ),
  };
}

type Celda = null | { numero: number; formato?: string } | { texto: string } | { fecha: string; formato?: string };

/** A cell as the golden file writes it: its kind, its value, its number format. */
function celda(c: ExcelJS.Cell): Celda {
  const v = c.value;
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return { fecha: v.toISOString().slice(0, 10), formato: c.numFmt };
  if (typeof v === "number") return { numero: v, ...(c.numFmt ? { formato: c.numFmt } : {}) };
  if (typeof v === "string") return { texto: v };
  throw new Error(`Celda ${c.address} de un tipo inesperado: ${JSON.stringify(v)}`);
}

async function leerXlsx(r: Response) {
  const libro = new ExcelJS.Workbook();
  await libro.xlsx.load(Buffer.from(await r.arrayBuffer()) as unknown as ExcelJS.Buffer);
  const hoja = libro.getWorksheet("RECIBIDAS");
  if (!hoja) throw new Error("El libro no tiene la hoja RECIBIDAS");
  const filas: Celda[][] = [];
  const negrita: number[] = [];
  for (let n = 1; n <= hoja.rowCount; n++) {
    const fila = hoja.getRow(n);
    const celdas: Celda[] = [];
    for (let c = 1; c <= hoja.columnCount; c++) celdas.push(celda(fila.getCell(c)));
    filas.push(celdas);
    if (fila.getCell(1).font?.bold) negrita.push(n);
  }
  return { libro, hoja, filas, negrita };
}

const columna = (c: number) => String.fromCharCode(64 + c);

describe("libro registro de facturas recibidas: exportación de un trimestre", () => {
  it("XLSX: igual al fichero de referencia celda a celda (valores, formatos, fechas, fila de totales)", async () => {
    const r = await exportarComo(admin, `${TRIMESTRE}&formato=xlsx`);
    expect(r.status).toBe(200);
    expect(r.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(r.headers.get("Content-Disposition")).toBe('attachment; filename="libro-facturas-recibidas-2026-1T.xlsx"');
    const { hoja, filas, negrita } = await leerXlsx(r);
    const actual = {
      hoja: hoja.name,
      vista: { state: hoja.views[0]?.state, ySplit: (hoja.views[0] as { ySplit?: number } | undefined)?.ySplit },
      negrita,
      filas,
    };
    if (process.env.ACTUALIZAR_GOLDEN === "1") writeFileSync(GOLDEN, `${JSON.stringify(actual, null, 2)}\n`);
    const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as typeof actual;
    expect(actual.hoja).toBe(golden.hoja);
    expect(actual.vista).toEqual(golden.vista);
    expect(actual.negrita).toEqual(golden.negrita);
    expect(actual.filas.length, "filas").toBe(golden.filas.length);
    for (const [i, fila] of golden.filas.entries()) {
      expect(actual.filas[i]!.length, `fila ${i + 1}`).toBe(fila.length);
      for (const [j, esperada] of fila.entries())
        expect(actual.filas[i]![j], `${columna(j + 1)}${i + 1}`).toEqual(esperada);
    }
  });

  it("XLSX: la fila de totales es la suma exacta de las líneas de los gastos, y lo mismo dice la pantalla", async () => {
    const esperado = await lineasDeLosGastos("2026-01-01", "2026-03-31");
    expect(esperado.lineas).toBe(7);
    const { filas } = await leerXlsx(await exportarComo(admin, `${TRIMESTRE}&formato=xlsx`));
    const cabecera = filas[0]!.map((c) => (c && "texto" in c ? c.texto : null));
    const totales = filas.at(-1)!;
    expect(filas).toHaveLength(1 + esperado.lineas + 1);
    const total = (header: string) => {
      const c = totales[cabecera.indexOf(header)];
      return c && "numero" in c ? fromCents(BigInt(Math.round(c.numero * 100))) : null;
    };
    expect(totales[0]).toEqual({ texto: `Total (${esperado.lineas} líneas)` });
    expect(total("Base imponible")).toBe(esperado.base_imponible);
    expect(total("Cuota de IVA soportado")).toBe(esperado.cuota_soportada);
    expect(total("Cuota deducible")).toBe(esperado.cuota_deducible);
    expect(total("Total factura")).toBe(esperado.total);
    // The figures this world was built with, so that the oracle itself is checked.
    expect(esperado).toEqual({
      lineas: 7,
      base_imponible: "551.00",
      cuota_soportada: "81.10",
      cuota_deducible: "75.00",
      total: "617.60",
    });

    const r = await pantallaComo(admin, TRIMESTRE);
    expect(r.status).toBe(200);
    const datos = await json(r);
    expect(datos.errores).toEqual({});
    expect(datos.periodo).toMatchObject({
      desde: "2026-01-01",
      hasta: "2026-03-31",
      titulo: "Primer trimestre de 2026",
    });
    const { lineas, ...sumas } = esperado;
    expect(datos.resumen).toEqual({
      lineas,
      sumas,
      porRevisar: 1,
      inversion: { lineas: 1, base_imponible: "100.00", cuota_soportada: "21.00" },
    });
  });

  it("CSV: BOM, «;», CRLF, coma decimal, fechas como en pantalla y fórmulas neutralizadas; las mismas líneas", async () => {
    const r = await exportarComo(admin, `${TRIMESTRE}&formato=csv`);
    expect(r.status).toBe(200);
    expect(r.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(r.headers.get("Content-Disposition")).toBe('attachment; filename="libro-facturas-recibidas-2026-1T.csv"');
    const texto = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await r.arrayBuffer());
    expect(texto.startsWith(CSV_BOM)).toBe(true);
    const lineas = texto.slice(1).split("\r\n");
    expect(lineas.at(-1)).toBe("");
    expect(lineas).toHaveLength(1 + 7 + 1);
    expect(lineas[0]).toBe(
      [
        "Ejercicio",
        "Periodo",
        "Tipo de factura",
        "Fecha de expedición",
        "Fecha de operación",
        "Serie-número de la factura",
        "Número de recepción",
        "Código país del expedidor",
        "NIF del expedidor",
        "Nombre del expedidor",
        "Total factura",
        "Base imponible",
        "Tipo de IVA (%)",
        "Cuota de IVA soportado",
        "Cuota deducible",
        "Inversión del sujeto pasivo",
      ]
        .map((h) => `"${h}"`)
        .join(";"),
    );
    const hotel = lineas[1]!.split(";");
    expect(hotel.slice(0, 5)).toEqual(["2026", '"1T"', '"F1"', '"14/01/2026"', '"15/01/2026"']);
    expect(hotel.slice(7, 9)).toEqual(["", `"${generateValidCif(11)}"`]);
    expect(hotel.slice(10)).toEqual(["110,00", "100,00", "10,00", "10,00", "10,00", '"N"']);
    // Exempt: no rate (empty), not «0,00», which is a line at 0 %.
    const exenta = lineas.find((l) => l.includes("Fundación Formación"))!;
    expect(exenta.split(";").slice(-6)).toEqual(["40,00", "40,00", "", "0,00", "0,00", '"N"']);
    const ticket = lineas.find((l) => l.includes("Bar Pepe"))!;
    expect(ticket).toContain(`"'=SUMA(1;2) Bar Pepe"`);
    expect(ticket.split(";").slice(-6)).toEqual(["12,10", "11,00", "10,00", "1,10", "0,00", '"N"']);
    // Invoiced without IVA: the total is what the invoice says; the cuota, declared and deducted.
    const isp = lineas.find((l) => l.includes("Nube Software"))!;
    // A foreign issuer: its country beside its identifier.
    expect(isp.split(";").slice(7, 9)).toEqual(['"IE"', '"IE6388047V"']);
    expect(isp.split(";").slice(-6)).toEqual(["100,00", "100,00", "21,00", "21,00", "21,00", '"S"']);
  });

  it("un periodo de miles de líneas se exporta entero, página a página, con sus totales exactos", async () => {
    // 2,400 gastos (more than two of the store's pages) in June 2025, 0.01 € apart.
    await sql`
      insert into gastos (descripcion, fecha_gasto, categoria, importe, metodo_pago, solicitante_id, departamento_id,
                          sucursal_id, estado, aprobado_por_id, fecha_aprobacion)
      select 'Carga ' || n, date '2025-06-01' + (n % 30), 'comidas', 10 + n / 100.0, 'efectivo', ${empleado.id}, ${dep},
             ${suc}, 'aprobado', ${aprobador.id}, now()
        from generate_series(1, 2400) n`.execute(app.db);
    const esperado = await lineasDeLosGastos("2025-06-01", "2025-06-30");
    expect(esperado.lineas).toBe(2400);
    const { filas } = await leerXlsx(await exportarComo(admin, "periodo=mes&anio=2025&mes=6&formato=xlsx"));
    expect(filas).toHaveLength(2402);
    const folios = new Set(filas.slice(1, -1).map((f) => (f[6] && "texto" in f[6] ? f[6].texto : null)));
    expect(folios.size).toBe(2400);
    const totales = filas.at(-1)!;
    const cabecera = filas[0]!.map((c) => (c && "texto" in c ? c.texto : null));
    const total = (header: string) => {
      const c = totales[cabecera.indexOf(header)];
      return c && "numero" in c ? fromCents(BigInt(Math.round(c.numero * 100))) : null;
    };
    expect(total("Total factura")).toBe(esperado.total);
    expect(total("Base imponible")).toBe(esperado.base_imponible);
    expect(total("Cuota de IVA soportado")).toBe(esperado.cuota_soportada);

    const csv = await (
      await exportarComo(admin, "periodo=fechas&desde=2025-06-01&hasta=30/06/2025&formato=csv")
    ).text();
    expect(csv.split("\r\n").filter(Boolean)).toHaveLength(2401);

    // The same lines, in the same order, from a store without a stream (paged by offset, as over Supabase).
    const junio = leerPeriodo(new URLSearchParams("periodo=mes&anio=2025&mes=6"), "2026-11-28").periodo!;
    const ids = async (store: Store) => {
      const out: string[] = [];
      for await (const filas of paginasLibro(store, consultaLibro(junio))) out.push(...filas.map((f) => f.id));
      return out;
    };
    const conStream = sqlStore(app.db, admin.id);
    const porPaginas = await ids({ ...conStream, stream: undefined });
    expect(porPaginas).toHaveLength(2400);
    expect(await ids(conStream)).toEqual(porPaginas);
    // A download stopped after its first page ends the reading (no transaction left open).
    const paginas = paginasLibro(conStream, consultaLibro(junio));
    expect((await paginas.next()).value).toHaveLength(2000);
    await paginas.return(undefined);
    const abiertas = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
       where state like 'idle in transaction%' and datname = current_database()`.execute(app.db);
    expect(abiertas.rows[0]!.n).toBe(0);
  });
});

describe("libro registro de facturas recibidas: el número de recepción", () => {
  const numero = async (id: string) =>
    (await app.db.selectFrom("gastos").select("numero_recepcion").where("id", "=", id).executeTakeFirstOrThrow())
      .numero_recepcion;
  const estado = (id: string, e: "pendiente" | "aprobado") =>
    app.db
      .updateTable("gastos")
      .set({ estado: e, aprobado_por_id: aprobador.id, fecha_aprobacion: sql<string>`now()` })
      .where("id", "=", id)
      .execute();

  it("correlativo por ejercicio, en el orden en que se aprueban; revocar no lo suelta; fuera del libro, ninguno", async () => {
    // 2019 and 2018: years no other test writes, so each counter starts at 1.
    const ticket = { categoria: "material_oficina", importe: "12.10", tipo_documento: "ticket" } as const;
    const tarde = await gasto({ ...ticket, descripcion: "Sobres", fecha_gasto: "2019-03-01", estado: "pendiente" });
    const primero = await gasto({ ...ticket, descripcion: "Grapas", fecha_gasto: "2019-05-01", estado: "aprobado" });
    const otroAnio = await gasto({ ...ticket, descripcion: "Cinta", fecha_gasto: "2018-12-31", estado: "pagado" });
    expect(await numero(tarde)).toBeNull();
    expect(await numero(primero)).toBe("REC-2019-00001");
    expect(await numero(otroAnio)).toBe("REC-2018-00001");
    // Approved later though dated earlier in the year: the next number.
    await estado(tarde, "aprobado");
    expect(await numero(tarde)).toBe("REC-2019-00002");
    // Revoked (back to pendiente) and approved again: the same number, and none given twice.
    await estado(primero, "pendiente");
    expect(await numero(primero)).toBe("REC-2019-00001");
    await estado(primero, "aprobado");
    expect(await numero(primero)).toBe("REC-2019-00001");
    // Taxes that fit no rate: out of the libro until reviewed, and without a number.
    const revisar = await gasto({
      descripcion: "Carga antigua",
      fecha_gasto: "2019-06-01",
      categoria: "otros",
      importe: "100.00",
      importe_impuestos: "7.77",
      estado: "aprobado",
    });
    expect(await numero(revisar)).toBeNull();
    const siguiente = await gasto({ ...ticket, descripcion: "Clips", fecha_gasto: "2019-01-02", estado: "aprobado" });
    expect(await numero(siguiente)).toBe("REC-2019-00003");
    // The book lists them as they were booked, not by date.
    const csv = await (await exportarComo(admin, "periodo=anio&anio=2019&formato=csv")).text();
    expect(csv.match(/REC-2019-\d{5}/g)).toEqual(["REC-2019-00001", "REC-2019-00002", "REC-2019-00003"]);
  });
});

describe("libro registro de facturas recibidas: el periodo", () => {
  const errores = async (search: string) => (await json(await pantallaComo(admin, search))).errores;

  it("sin parámetros, el trimestre en curso", async () => {
    const datos = await json(await pantallaComo(admin, ""));
    expect(datos.valores.periodo).toBe("trimestre");
    expect(datos.periodo).not.toBeNull();
    expect(datos.errores).toEqual({});
  });

  it("lo que no se puede leer se dice por campo, en español, y no se muestra nada", async () => {
    expect(await errores("periodo=semana")).toEqual({
      periodo: "Elija el periodo: un trimestre, un mes, un año o entre dos fechas",
    });
    expect(await errores("periodo=trimestre&anio=26&trimestre=5")).toEqual({
      anio: "Escriba el año con cuatro cifras, por ejemplo 2026",
      trimestre: "Elija el trimestre de la lista",
    });
    expect(await errores("periodo=mes&anio=2026&mes=13")).toEqual({ mes: "Elija el mes de la lista" });
    expect(await errores("periodo=fechas&desde=31/02/2026&hasta=")).toEqual({
      desde: "Escriba la fecha «Desde» como una fecha real, por ejemplo 31/12/2026",
      hasta: "Escriba la fecha «Hasta», por ejemplo 31/12/2026",
    });
    expect(await errores("periodo=fechas&desde=2026-03-01&hasta=2026-01-01")).toEqual({
      hasta: "La fecha «Hasta» debe ser igual o posterior a la fecha «Desde»",
    });
    const datos = await json(await pantallaComo(admin, "periodo=semana"));
    expect(datos.periodo).toBeNull();
    expect(datos.resumen).toBeNull();
  });

  it("una descarga con un periodo que no se lee vuelve a la pantalla, que dice por qué", async () => {
    const r = await exportarComo(admin, "periodo=mes&anio=2026&mes=13&formato=xlsx");
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/libro-iva?periodo=mes&anio=2026&mes=13#resultado");
    const otro = await exportarComo(admin, `${TRIMESTRE}&formato=pdf`);
    expect(otro.status).toBe(302);
  });

  it("un mes, un año y dos fechas dan su rango y su nombre", async () => {
    const periodo = async (search: string) => (await json(await pantallaComo(admin, search))).periodo;
    expect(await periodo("periodo=mes&anio=2024&mes=2")).toMatchObject({
      desde: "2024-02-01",
      hasta: "2024-02-29",
      titulo: "Febrero de 2024",
      clave: "2024-02",
    });
    expect(await periodo("periodo=anio&anio=2026")).toMatchObject({ desde: "2026-01-01", hasta: "2026-12-31" });
    expect(await periodo("periodo=fechas&desde=01/10/2026&hasta=2026-11-15")).toMatchObject({
      desde: "2026-10-01",
      hasta: "2026-11-15",
      titulo: "Del 01/10/2026 al 15/11/2026",
    });
  });

  it("solo para administradores: a los demás, la negativa de siempre; sin sesión, al acceso", async () => {
    for (const u of [aprobador, empleado]) {
      expect((await pantallaComo(u, TRIMESTRE)).status).toBe(403);
      expect((await exportarComo(u, `${TRIMESTRE}&formato=csv`)).status).toBe(403);
    }
    const anonimo = await respond(() =>
      exportar.loader({
        request: request(`/libro-iva/exportar?${TRIMESTRE}&formato=xlsx`),
        context: app.context(),
        params: {},
      }),
    );
    expect(anonimo.status).toBe(302);
    expect(anonimo.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });
});
