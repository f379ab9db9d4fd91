import ExcelJS from "exceljs";
import type pg from "pg";
import { csvDiario, DiarioNoDisponible, paginasDiario, xdiario, xlsxDiario } from "~/contabilidad/diario.server";
import type { Apunte } from "~/contabilidad/diario";
import { XDIARIO, ancho, posiciones } from "~/contabilidad/contaplus";
import { sqlStore } from "~/data/sql/adapter.server";
import type { Store } from "~/data/store";
import { leerPeriodo, type Periodo } from "~/fiscal/periodo";
import { todayISO } from "~/lib/dates";
import { generateValidEsIban } from "~/lib/iban";
import { generateValidCif } from "~/lib/nif";
import { fromCents, toCents } from "~/lib/money";
import * as exportar from "~/routes/asientos.exportar";
import * as pantalla from "~/routes/asientos";
import { seedDemo } from "../../scripts/seed";
import { createTestApp, json, request, respond, type TestApp, type TestUser } from "../support/app";
import { asUser, connect, pgError } from "../support/as-user";

/**
 * The libro diario (docs/contabilidad.md) on the demo data and on a few gastos made for it: every
 * asiento of the demo data's year balances and its IVA is the libro de IVA's; non-deductible IVA
 * goes to the expense account; a confirmed remesa books 465/410 against the paying account's 572,
 * on the very subcuentas its gastos were credited to; the screen, its files and its refusals.
 */
let app: TestApp;
let owner: pg.Client;
let admin: TestUser;
let empleado: TestUser;
let aprobador: TestUser;
const HOY = todayISO();
const ANIO = HOY.slice(0, 4);

const periodoDe = (query: string): Periodo => leerPeriodo(new URLSearchParams(query), HOY).periodo!;
const store = () => sqlStore(app.db, admin.id);

async function todos(periodo: Periodo): Promise<Apunte[]> {
  const out: Apunte[] = [];
  for await (const p of paginasDiario(store(), periodo)) out.push(...p);
  return out;
}

const porAsiento = (apuntes: Apunte[]) => {
  const m = new Map<number, Apunte[]>();
  for (const a of apuntes) m.set(a.asiento, [...(m.get(a.asiento) ?? []), a]);
  return m;
};
const suma = (apuntes: Apunte[], lado: "debe" | "haber") =>
  fromCents(apuntes.reduce((s, a) => s + toCents(a[lado]), 0n));

beforeAll(async () => {
  app = await createTestApp();
  await seedDemo(app.db);
  owner = await connect(app.url);
  admin = await app.createUser({ nombre: "Ana", rol: "administrador" });
  aprobador = await app.createUser({ nombre: "Pablo", rol: "aprobador" });
  empleado = await app.createUser({ nombre: "Elena", rol: "empleado" });
  const { rows } = await owner.query<{ departamento_id: string; sucursal_id: string }>(
    "select departamento_id, sucursal_id from public.usuarios where departamento_id is not null limit 1",
  );
  await owner.query("update public.usuarios set departamento_id = $1, sucursal_id = $2 where id = any($3)", [
    rows[0]!.departamento_id,
    rows[0]!.sucursal_id,
    [admin.id, aprobador.id, empleado.id],
  ]);
  await owner.query("update public.usuarios set apellidos = 'Ruiz' where id = $1", [empleado.id]);
}, 120_000);

afterAll(async () => {
  await owner?.end();
  await app?.close();
});

/** A gasto of Elena's, written as the owner and approved by Pablo. */
async function gasto(v: Record<string, unknown>): Promise<{ id: string; folio: string }> {
  const valores: Record<string, unknown> = {
    descripcion: "Gasto de prueba",
    metodo_pago: "efectivo",
    solicitante_id: empleado.id,
    departamento_id: (await owner.query("select departamento_id from usuarios where id = $1", [empleado.id])).rows[0]
      .departamento_id,
    sucursal_id: (await owner.query("select sucursal_id from usuarios where id = $1", [empleado.id])).rows[0]
      .sucursal_id,
    ...v,
  };
  const cols = Object.keys(valores);
  const { rows } = await owner.query<{ id: string; folio: string }>(
    `insert into public.gastos (${cols.join(", ")}) values (${cols.map((_, i) => `$${i + 1}`).join(", ")})
     returning id, folio`,
    Object.values(valores),
  );
  await owner.query(
    `update public.gastos set estado = 'aprobado', aprobador_id = $2, aprobado_por_id = $2, fecha_aprobacion = now()
      where id = $1`,
    [rows[0]!.id, aprobador.id],
  );
  return rows[0]!;
}

describe("el libro diario de los datos de demostración", () => {
  it(`cada asiento del año ${ANIO} cuadra, y su IVA deducible es el del libro de IVA`, async () => {
    const periodo = periodoDe(`periodo=anio&anio=${ANIO}`);
    const apuntes = await todos(periodo);
    const asientos = porAsiento(apuntes);
    const { rows } = await owner.query<{ n: number; deducible: string }>(
      `select (select count(*)::int from public.gastos where estado in ('aprobado', 'pagado')
                 and fecha_gasto between $1 and $2) as n,
              (select coalesce(sum(cuota_deducible), 0)::text from public.libro_facturas_recibidas
                where fecha_operacion between $1 and $2) as deducible`,
      [periodo.desde, periodo.hasta],
    );
    // Hundreds of gastos: the test reads a real year, through several pages.
    expect(rows[0]!.n).toBeGreaterThan(500);
    expect(apuntes.length).toBeGreaterThan(1000);
    expect(asientos.size).toBe(rows[0]!.n);

    const descuadrados = [...asientos].filter(([, l]) => suma(l, "debe") !== suma(l, "haber"));
    expect(descuadrados.map(([n]) => n)).toEqual([]);
    // Numbered 1…N by date, apuntes in order, every subcuenta of 8 digits, one side per apunte.
    expect([...asientos.keys()]).toEqual(Array.from({ length: asientos.size }, (_, i) => i + 1));
    expect(apuntes.map((a) => a.n)).toEqual(Array.from({ length: apuntes.length }, (_, i) => i + 1));
    const fechas = [...asientos.values()].map((l) => l[0]!.fecha);
    expect([...fechas].sort()).toEqual(fechas);
    expect(apuntes.filter((a) => !/^\d{8}$/.test(a.subcuenta))).toEqual([]);
    expect(apuntes.filter((a) => (a.debe === "0.00") === (a.haber === "0.00"))).toEqual([]);

    const iva = apuntes.filter((a) => a.cuenta === "472");
    expect(suma(iva, "debe")).toBe(fromCents(toCents(rows[0]!.deducible)));
    expect(iva.length).toBeGreaterThan(0);

    const resumen = await store().rpc<Record<string, unknown>>("resumen_libro_diario", {
      p_desde: periodo.desde,
      p_hasta: periodo.hasta,
    });
    expect(resumen).toMatchObject({ asientos: asientos.size, apuntes: apuntes.length, descuadrados: 0 });
    expect(resumen.debe).toBe(suma(apuntes, "debe"));
    expect(resumen.haber).toBe(resumen.debe);
  });

  it("un servidor que acorta las respuestas (el max-rows de PostgREST) no acorta el diario", async () => {
    const real = store();
    const acortado: Store = {
      ...real,
      rpc: async <T>(fn: string, args: Record<string, unknown>) => {
        const r = await real.rpc<unknown>(fn, args);
        return (Array.isArray(r) ? r.slice(0, 50) : r) as T;
      },
    };
    const marzo = periodoDe(`periodo=mes&anio=${ANIO}&mes=3`);
    const leer = async (s: Store) => {
      const out: Apunte[] = [];
      for await (const p of paginasDiario(s, marzo)) out.push(...p);
      return out.map((a) => [a.n, a.asiento, a.subcuenta, a.debe, a.haber]);
    };
    const completo = await leer(real);
    expect(completo.length).toBeGreaterThan(200);
    expect(await leer(acortado)).toEqual(completo);
  });

  it("un mes que cambia entre dos páginas (una aprobación) se vuelve a leer entero: ni repetidos ni perdidos", async () => {
    const real = store();
    const marzo = periodoDe(`periodo=mes&anio=${ANIO}&mes=3`);
    let llamadas = 0;
    let nuevo: { folio: string } | null = null;
    // Pages of 50, as PostgREST's max-rows would give them; after the first, a gasto of the
    // month's first day is approved: every number after it moves.
    const acortado: Store = {
      ...real,
      rpc: async <T>(fn: string, args: Record<string, unknown>) => {
        const r = await real.rpc<unknown>(fn, args);
        if (fn === "libro_diario" && ++llamadas === 1)
          nuevo = await gasto({
            descripcion: "Aprobado mientras se leía",
            fecha_gasto: `${ANIO}-03-01`,
            categoria: "otros",
            importe: "10.00",
          });
        return (Array.isArray(r) ? r.slice(0, 50) : r) as T;
      },
    };
    const leidos: Apunte[] = [];
    for await (const p of paginasDiario(acortado, marzo)) leidos.push(...p);
    expect(llamadas).toBeGreaterThan(2);
    const completo: Apunte[] = [];
    for await (const p of paginasDiario(real, marzo)) completo.push(...p);
    const fila = (a: Apunte) => [a.n, a.asiento, a.linea, a.documento, a.subcuenta, a.debe, a.haber];
    expect(leidos.map(fila)).toEqual(completo.map(fila));
    expect(leidos.filter((a) => a.documento === nuevo!.folio)).toHaveLength(2);
    const descuadrados = [...porAsiento(leidos)].filter(([, l]) => suma(l, "debe") !== suma(l, "haber"));
    expect(descuadrados).toEqual([]);
  });

  it("un mes que no deja de cambiar no se da a medias: el diario no está disponible (503), en español", async () => {
    const real = store();
    let llamada = 0;
    const inquieto: Store = {
      ...real,
      rpc: async <T>(fn: string, args: Record<string, unknown>) => {
        const r = await real.rpc<unknown>(fn, args);
        if (fn !== "libro_diario" || !Array.isArray(r)) return r as T;
        llamada++;
        return r.slice(0, 50).map((a: Record<string, unknown>) => ({ ...a, huella: `h${llamada}` })) as T;
      },
    };
    const leer = async () => {
      for await (const _ of paginasDiario(inquieto, periodoDe(`periodo=mes&anio=${ANIO}&mes=3`)));
    };
    const error = await leer().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiarioNoDisponible);
    expect(error).toMatchObject({ status: 503, message: expect.stringMatching(/han cambiado mientras se leía/) });
  });

  it("los meses sin movimientos no se piden: un periodo de 24 meses con uno solo, una llamada por el mes", async () => {
    const unico = await gasto({
      descripcion: "El único del periodo",
      fecha_gasto: "2016-05-10",
      categoria: "otros",
      importe: "12.00",
    });
    const real = store();
    const llamadas: string[] = [];
    const contado: Store = {
      ...real,
      rpc: async <T>(fn: string, args: Record<string, unknown>) => {
        llamadas.push(fn);
        return real.rpc<T>(fn, args);
      },
    };
    const leidos: Apunte[] = [];
    for await (const p of paginasDiario(contado, periodoDe("periodo=fechas&desde=2015-01-01&hasta=2016-12-31")))
      leidos.push(...p);
    expect(leidos.map((a) => a.documento)).toEqual([unico.folio, unico.folio]);
    expect(llamadas.filter((f) => f === "libro_diario")).toHaveLength(1);
  });

  it("las subcuentas no cambian de una exportación a otra, aunque se pida antes otro periodo", async () => {
    const anio = periodoDe(`periodo=anio&anio=${ANIO}`);
    const antes = await todos(anio);
    await todos(periodoDe(`periodo=anio&anio=${Number(ANIO) - 1}`));
    const despues = await todos(anio);
    expect(despues.map((a) => a.subcuenta)).toEqual(antes.map((a) => a.subcuenta));
  });
});

describe("reglas de los asientos", () => {
  // A quiet month, before the demo data: only what each test writes.
  const JUNIO = periodoDe("periodo=mes&anio=2021&mes=6");

  it("el IVA no deducible va a la cuenta de gasto; el deducible, a la 472 de su tipo; el haber, a quien se debe", async () => {
    const comida = await gasto({
      descripcion: "Comida con un cliente",
      fecha_gasto: "2021-06-10",
      categoria: "atenciones_clientes", // IVA never deductible
      importe: "55.00",
      tipo_documento: "factura_completa",
      emisor_nif: "B12345674",
      emisor_nombre: "Restaurante Casa Pepe SL",
      numero_factura: "R-10",
      factura_a_empresa: true,
    });
    const nif = generateValidCif(41);
    const papeleria = await gasto({
      descripcion: "Papel y tóner",
      fecha_gasto: "2021-06-20",
      categoria: "material_oficina",
      importe: "121.00",
      metodo_pago: "transferencia",
      tipo_documento: "factura_completa",
      emisor_nif: nif,
      emisor_nombre: "Papelería Núñez SL",
      numero_factura: "F-77",
      factura_a_empresa: true,
    });
    const apuntes = await todos(JUNIO);
    const [primero, segundo] = [...porAsiento(apuntes).values()];
    const fila = (a: Apunte) => [a.linea, a.subcuenta, a.debe, a.haber, a.documento];

    // 55 € at 10 %: 50 + 5, all of it to 627 (publicidad y relaciones públicas); Elena advanced it (465).
    const elena = primero!.find((a) => a.cuenta === "465")!.subcuenta;
    expect(primero!.map(fila)).toEqual([
      [1, "62700000", "55.00", "0.00", comida.folio],
      [2, elena, "0.00", "55.00", comida.folio],
    ]);
    expect(primero![1]!.titulo).toBe("Elena Ruiz");
    expect(primero![0]!.concepto).toBe(`${comida.folio} Comida con un cliente`);

    // 121 € at 21 %: 100 to 629, 21 to 472 at 21 %, owed to the issuer by NIF (410).
    const acreedor = segundo!.find((a) => a.cuenta === "410")!;
    expect(segundo!.map(fila)).toEqual([
      [1, "62900000", "100.00", "0.00", papeleria.folio],
      [2, "47200021", "21.00", "0.00", papeleria.folio],
      [3, acreedor.subcuenta, "0.00", "121.00", papeleria.folio],
    ]);
    expect(acreedor).toMatchObject({ titulo: "Papelería Núñez SL", nif });
    expect(segundo![1]).toMatchObject({
      base_imponible: "100.00",
      porcentaje_iva: "21.00",
      contrapartida: acreedor.subcuenta,
      numero_factura: "F-77",
    });
    expect(acreedor.subcuenta).toMatch(/^410\d{5}$/);
    expect(acreedor.subcuenta).not.toBe("41000000");
  });

  it("una dieta: lo exento de IRPF, a su cuenta de gasto; lo sujeto, retribución, a sueldos y salarios (640)", async () => {
    const { rows } = await owner.query<{ id: string }>(
      `insert into public.viajes (solicitante_id, destino_municipio, destino_pais, motivo, salida, regreso)
       values ($1, 'Bilbao', 'ES', 'Visita a un cliente', '2021-08-10 08:00', '2021-08-10 20:00') returning id`,
      [empleado.id],
    );
    const dieta = await gasto({
      descripcion: "Dieta en Bilbao",
      fecha_gasto: "2021-08-10",
      categoria: "comidas",
      clase: "dieta",
      viaje_id: rows[0]!.id,
    });
    const { rows: irpf } = await owner.query<{ importe: string; exento: string; sujeto: string }>(
      `select g.importe::text, (interno.irpf(g)).exento::text, (interno.irpf(g)).sujeto::text
         from public.gastos g where g.id = $1`,
      [dieta.id],
    );
    const { importe, exento, sujeto } = irpf[0]!;
    expect(Number(sujeto)).toBeGreaterThan(0);
    const lineas = (await todos(periodoDe("periodo=mes&anio=2021&mes=8"))).filter((a) => a.documento === dieta.folio);
    expect(lineas.map((a) => [a.linea, a.subcuenta, a.titulo, a.debe, a.haber])).toEqual([
      [1, "62900000", "Otros servicios", exento, "0.00"],
      [2, "64000000", "Sueldos y salarios", sujeto, "0.00"],
      [3, lineas[2]!.subcuenta, "Elena Ruiz", "0.00", importe],
    ]);
    expect(lineas[1]!.concepto).toBe(`${dieta.folio} Dieta en Bilbao (sujeto a IRPF)`);
  });

  it("lo sujeto a IRPF se fija al aprobar: corregir un límite después vale para lo que se apruebe desde entonces", async () => {
    const { rows } = await owner.query<{ id: string }>(
      `insert into public.viajes (solicitante_id, destino_municipio, destino_pais, motivo, salida, regreso)
       values ($1, 'Vitoria', 'ES', 'Auditoría', '2021-09-06 08:00', '2021-09-07 20:00') returning id`,
      [empleado.id],
    );
    const dieta = (fecha_gasto: string) =>
      gasto({
        descripcion: "Dieta en Vitoria",
        fecha_gasto,
        categoria: "comidas",
        clase: "dieta",
        viaje_id: rows[0]!.id,
      });
    const irpfDe = async (id: string) =>
      (
        await owner.query<{ exento: string; sujeto: string; explicacion: string }>(
          `select (interno.irpf(g)).exento::text, (interno.irpf(g)).sujeto::text, (interno.irpf(g)).explicacion
             from public.gastos g where g.id = $1`,
          [id],
        )
      ).rows[0]!;
    const sujetoEnElDiario = async (folio: string) =>
      (await todos(periodoDe("periodo=mes&anio=2021&mes=9"))).find((a) => a.documento === folio && a.cuenta === "640")
        ?.debe;
    const antes = await dieta("2021-09-06");
    const aprobado = await irpfDe(antes.id);
    expect(aprobado.exento).toBe("26.67");
    // A limit corrected in force (not a new dated row): 20 € from 2021-09-01.
    await owner.query(
      `insert into public.limites_exentos_irpf (tipo, vigente_desde, importe) values ('dieta_espana_sin_pernocta', '2021-09-01', 20)`,
    );
    try {
      const despues = await dieta("2021-09-07");
      expect((await irpfDe(despues.id)).exento).toBe("20.00");
      // Approved before the change: its split, the report and the journal stay as they were.
      expect(await irpfDe(antes.id)).toEqual(aprobado);
      expect(await sujetoEnElDiario(antes.folio)).toBe(aprobado.sujeto);
      // Back to pendiente (revocar) and approved again: the limit of that moment.
      await owner.query("update public.gastos set estado = 'pendiente' where id = $1", [antes.id]);
      expect((await irpfDe(antes.id)).exento).toBe("20.00");
      await owner.query("update public.gastos set estado = 'aprobado' where id = $1", [antes.id]);
      const otraVez = await irpfDe(antes.id);
      expect(otraVez.exento).toBe("20.00");
      expect(await sujetoEnElDiario(antes.folio)).toBe(otraVez.sujeto);
    } finally {
      await owner.query(
        `delete from public.limites_exentos_irpf where tipo = 'dieta_espana_sin_pernocta' and vigente_desde = '2021-09-01'`,
      );
    }
  });

  it("un vehículo de uso mixto: a la 472, la mitad de cada cuota; el resto, a la cuenta de gasto", async () => {
    await owner.query(
      "update public.categorias_fiscales set deducibilidad = 'vehiculo_mixto' where categoria = 'combustible'",
    );
    try {
      const gasoil = await gasto({
        descripcion: "Gasóleo",
        fecha_gasto: "2021-09-06",
        categoria: "combustible",
        importe: "60.50", // 50 + 10,50 at 21 %: 5,25 deducible
        metodo_pago: "tarjeta_corporativa",
        tipo_documento: "factura_completa",
        emisor_nif: generateValidCif(42),
        emisor_nombre: "Estación de Servicio Sur SL",
        numero_factura: "G-1",
        factura_a_empresa: true,
      });
      const lineas = (await todos(periodoDe("periodo=mes&anio=2021&mes=9"))).filter(
        (a) => a.documento === gasoil.folio,
      );
      expect(lineas.map((a) => [a.linea, a.subcuenta, a.debe, a.haber])).toEqual([
        [1, "62800000", "55.25", "0.00"],
        [2, "47200021", "5.25", "0.00"],
        [3, "55500001", "0.00", "60.50"],
      ]);
    } finally {
      await owner.query(
        "update public.categorias_fiscales set deducibilidad = 'factura_empresa' where categoria = 'combustible'",
      );
    }
  });

  it("inversión del sujeto pasivo: la cuota al debe de la 472 y al haber de la 477; al proveedor, lo facturado", async () => {
    const nube = await gasto({
      descripcion: "Suscripción anual",
      fecha_gasto: "2021-10-04",
      categoria: "software_suscripciones",
      importe: "1000.00",
      metodo_pago: "transferencia",
      tipo_documento: "factura_completa",
      emisor_pais: "IE",
      emisor_nif: "IE6388047V",
      emisor_nombre: "Nube Software Ltd",
      numero_factura: "INV-77",
      factura_a_empresa: true,
      inversion_sujeto_pasivo: true,
    });
    const apuntes = (await todos(periodoDe("periodo=mes&anio=2021&mes=10"))).filter((a) => a.documento === nube.folio);
    expect(apuntes.map((a) => [a.subcuenta, a.debe, a.haber, a.base_imponible, a.porcentaje_iva])).toEqual([
      ["62900000", "1000.00", "0.00", null, null],
      ["47200021", "210.00", "0.00", "1000.00", "21.00"],
      ["47710021", "0.00", "210.00", "1000.00", "21.00"],
      [expect.stringMatching(/^410\d{5}$/), "0.00", "1000.00", null, null],
    ]);
    expect(apuntes[2]!.titulo).toBe("H.P. IVA repercutido ISP 21 %");
    expect(suma(apuntes, "debe")).toBe(suma(apuntes, "haber"));

    // Not deductible (an event for clients organised by a French agency): the whole cuota is a
    // cost, and still declared. Paid with the corporate card: the IVA line still names its issuer.
    const evento = await gasto({
      descripcion: "Organización del encuentro con clientes",
      fecha_gasto: "2021-10-05",
      categoria: "atenciones_clientes",
      importe: "100.00",
      metodo_pago: "tarjeta_corporativa",
      tipo_documento: "factura_completa",
      emisor_pais: "FR",
      emisor_nif: "FR40303265045",
      emisor_nombre: "Agence Rencontres Paris SAS",
      numero_factura: "C-1",
      factura_a_empresa: true,
      inversion_sujeto_pasivo: true,
    });
    const deEvento = (await todos(periodoDe("periodo=mes&anio=2021&mes=10"))).filter(
      (a) => a.documento === evento.folio,
    );
    expect(deEvento.map((a) => [a.cuenta, a.debe, a.haber, a.nif])).toEqual([
      ["627", "110.00", "0.00", null],
      ["477", "0.00", "10.00", "FR40303265045"],
      ["555", "0.00", "100.00", null],
    ]);
  });

  it("lo que se debe a un emisor sin NIF va a la subcuenta común 41000000, titulada «Acreedores varios»", async () => {
    const fontaneria = await gasto({
      descripcion: "Arreglo del grifo",
      fecha_gasto: "2021-07-05",
      categoria: "mantenimiento_reparaciones",
      importe: "30.00",
      metodo_pago: "transferencia",
      tipo_documento: "ticket",
      emisor_nombre: "Fontanería Paco",
    });
    const acreedor = (await todos(periodoDe("periodo=mes&anio=2021&mes=7"))).find(
      (a) => a.documento === fontaneria.folio && a.cuenta === "410",
    );
    // The account is shared by every such issuer: titled after none of them (ContaPlus keeps one title).
    expect(acreedor).toMatchObject({ subcuenta: "41000000", titulo: "Acreedores varios", haber: "30.00" });
  });

  it("la cuenta de gasto de cada categoría la cambia un administrador (6xx, de 3 a 8 cifras): vale para lo que se aprueba después", async () => {
    const query = (u: TestUser, sql: string) => asUser(owner, u.id, (q) => q(sql));
    const subcuentaDe = async (folio: string) =>
      (await todos(JUNIO)).find((a) => a.documento === folio && a.cuenta.startsWith("6"))!.subcuenta;
    const antes = await gasto({
      descripcion: "Sobres",
      fecha_gasto: "2021-06-25",
      categoria: "material_oficina",
      importe: "12.10",
    });
    await query(
      admin,
      "update public.categorias_fiscales set cuenta_gasto = '62800001' where categoria = 'material_oficina'",
    );
    try {
      const mal = await pgError(
        query(admin, "update public.categorias_fiscales set cuenta_gasto = '7001' where categoria = 'otros'"),
      );
      expect(mal.constraint).toBe("categorias_fiscales_cuenta_gasto_check");
      const otro = await query(
        empleado,
        "update public.categorias_fiscales set cuenta_gasto = '629' where categoria = 'otros'",
      );
      expect(otro.rowCount).toBe(0);
      const despues = await gasto({
        descripcion: "Grapas",
        fecha_gasto: "2021-06-26",
        categoria: "material_oficina",
        importe: "6.05",
      });
      // Approved before the change: the journal already exported stays as it was.
      expect(await subcuentaDe(antes.folio)).toBe("62900000");
      expect(await subcuentaDe(despues.folio)).toBe("62800001");
      // Back to pendiente (revocar) and approved again: the account of that moment.
      await owner.query("update public.gastos set estado = 'pendiente' where id = $1", [antes.id]);
      await owner.query("update public.gastos set estado = 'aprobado' where id = $1", [antes.id]);
      expect(await subcuentaDe(antes.folio)).toBe("62800001");
    } finally {
      await owner.query(
        "update public.categorias_fiscales set cuenta_gasto = '629' where categoria = 'material_oficina'",
      );
    }
  });

  it("una remesa confirmada asienta lo pagado a cada persona y proveedor (465/410) contra el 572 de su cuenta", async () => {
    await owner.query("insert into public.datos_bancarios (usuario_id, iban) values ($1, $2)", [
      empleado.id,
      generateValidEsIban(71),
    ]);
    const { rows: prov } = await owner.query<{ id: string; nif: string }>(
      `insert into public.proveedores (razon_social, tipo_persona, nif, iban)
       values ('Mensajeros Rápidos SL', 'empresa', $1, $2) returning id, nif`,
      [generateValidCif(42), generateValidEsIban(72)],
    );
    const taxi = await gasto({
      descripcion: "Taxi",
      fecha_gasto: "2021-07-05",
      categoria: "viajes_transporte",
      importe: "22.00",
    });
    const tren = await gasto({
      descripcion: "Tren",
      fecha_gasto: "2021-07-06",
      categoria: "viajes_transporte",
      importe: "48.40",
    });
    const envio = await gasto({
      descripcion: "Envíos del mes",
      fecha_gasto: "2021-07-07",
      categoria: "mensajeria",
      importe: "60.50",
      metodo_pago: "transferencia",
      proveedor_id: prov[0]!.id,
      tipo_documento: "factura_completa",
      numero_factura: "M-3",
      factura_a_empresa: true,
    });
    const { rows: cuentas } = await owner.query<{ id: string; nombre: string }>(
      "select id, nombre from public.cuentas_empresa where activa limit 1",
    );
    const rpc = <T>(fn: string, args: Record<string, unknown>) => store().rpc<T>(fn, args);
    const remesa = await rpc<{ id: string; folio: string; mensaje_id: string }>("crear_remesa", {
      p_gasto_ids: [taxi.id, tren.id, envio.id],
      p_cuenta_id: cuentas[0]!.id,
      p_fecha_ejecucion: HOY,
    });
    const guardada = await rpc<{ version: number }>("guardar_xml_remesa", {
      p_id: remesa.id,
      p_xml: `<MsgId>${remesa.mensaje_id}</MsgId>`,
    });
    await rpc("confirmar_remesa", { p_id: remesa.id, p_version: guardada.version });

    const julio = await todos(periodoDe("periodo=mes&anio=2021&mes=7"));
    const acreditada = (folio: string) => julio.find((a) => a.documento === folio && a.haber !== "0.00")!.subcuenta;
    expect(acreditada(taxi.folio)).toBe(acreditada(tren.folio));
    expect(acreditada(envio.folio)).toMatch(/^410\d{5}$/);
    // Mensajería: 624 (transportes); 60.50 at 21 %: 50 + 10.50.
    expect(julio.filter((a) => a.documento === envio.folio).map((a) => [a.subcuenta, a.debe])).toEqual([
      ["62400000", "50.00"],
      ["47200021", "10.50"],
      [acreditada(envio.folio), "0.00"],
    ]);

    const hoy = await todos(periodoDe(`periodo=fechas&desde=${HOY}&hasta=${HOY}`));
    const asiento = hoy.filter((a) => a.documento === remesa.folio);
    expect(asiento.map((a) => [a.subcuenta, a.debe, a.haber])).toEqual(
      expect.arrayContaining([
        [acreditada(taxi.folio), "70.40", "0.00"],
        [acreditada(envio.folio), "60.50", "0.00"],
      ]),
    );
    expect(asiento).toHaveLength(3);
    const banco = asiento[2]!;
    expect(banco).toMatchObject({
      cuenta: "572",
      debe: "0.00",
      haber: "130.90",
      titulo: cuentas[0]!.nombre,
      fecha: HOY,
    });
    expect(banco.subcuenta).toMatch(/^572\d{5}$/);
    expect(suma(asiento, "debe")).toBe(suma(asiento, "haber"));
    expect(asiento[0]!.concepto).toMatch(new RegExp(`^Remesa ${remesa.folio}: `));
  });
});

describe("la pantalla y sus ficheros", () => {
  const TRIMESTRE = `periodo=trimestre&anio=${ANIO}&trimestre=1`;
  const args = (path: string, u: TestUser) => ({
    request: request(path, { cookie: u.cookie }),
    context: app.context(),
    params: {},
  });

  it("un administrador ve el periodo, sus sumas y sus primeros asientos", async () => {
    const r = await respond(() => pantalla.loader(args(`/asientos?${TRIMESTRE}`, admin)));
    expect(r.status).toBe(200);
    const data = await json(r);
    expect(data.periodo.titulo).toBe(`Primer trimestre de ${ANIO}`);
    expect(data.resumen.asientos).toBeGreaterThan(50);
    expect(data.resumen.debe).toBe(data.resumen.haber);
    expect(data.apuntes.length).toBeGreaterThan(0);
    expect(data.apuntes.length).toBeLessThanOrEqual(60);
    // Whole asientos only.
    const vistos = porAsiento(data.apuntes);
    for (const l of vistos.values()) expect(suma(l, "debe")).toBe(suma(l, "haber"));
  });

  it("un periodo que no se puede leer se dice en español, campo a campo, y no se descarga nada", async () => {
    const data = await json(
      await respond(() => pantalla.loader(args("/asientos?periodo=fechas&desde=2026-03-31&hasta=2026-03-01", admin))),
    );
    expect(data.periodo).toBeNull();
    expect(data.errores).toEqual({ hasta: "La fecha «Hasta» debe ser igual o posterior a la fecha «Desde»" });
    const anio = await json(await respond(() => pantalla.loader(args("/asientos?periodo=anio&anio=26", admin))));
    expect(anio.errores).toEqual({ anio: "Escriba el año con cuatro cifras, por ejemplo 2026" });
    const r = await respond(() => exportar.loader(args("/asientos/exportar?periodo=anio&anio=26&formato=csv", admin)));
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/asientos?periodo=anio&anio=26#resultado");
  });

  it("un año fuera de 2000 a 2999 se dice junto al año: ni la pantalla ni las descargas fallan", async () => {
    for (const q of [
      "periodo=anio&anio=9999",
      "periodo=trimestre&anio=9999&trimestre=4",
      "periodo=mes&anio=1999&mes=1",
    ]) {
      const data = await json(await respond(() => pantalla.loader(args(`/asientos?${q}`, admin))));
      expect(data.periodo).toBeNull();
      expect(data.errores).toEqual({ anio: "Escriba un año entre 2000 y 2999" });
      const r = await respond(() => exportar.loader(args(`/asientos/exportar?${q}&formato=xdiario`, admin)));
      expect(r.status).toBe(302);
      expect(r.headers.get("Location")).toBe(`/asientos?${q}#resultado`);
    }
  });

  it("el periodo abarca como mucho 24 meses: se dice junto a «Hasta», y la base de datos tampoco lo acepta", async () => {
    const largo = "periodo=fechas&desde=2025-01-15&hasta=2027-01-01";
    const data = await json(await respond(() => pantalla.loader(args(`/asientos?${largo}`, admin))));
    expect(data.periodo).toBeNull();
    expect(data.errores).toEqual({
      hasta:
        "El libro diario abarca como mucho 24 meses: elija una fecha «Hasta» anterior o descárguelo en varias veces",
    });
    const r = await respond(() => exportar.loader(args(`/asientos/exportar?${largo}&formato=xdiario`, admin)));
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe(`/asientos?${largo}#resultado`);
    // 24 months, from the first to the last: accepted.
    const justo = await json(
      await respond(() => pantalla.loader(args("/asientos?periodo=fechas&desde=2019-01-15&hasta=2020-12-31", admin))),
    );
    expect(justo.errores).toEqual({});
    expect(justo.periodo).not.toBeNull();
    const error = await store()
      .rpc("resumen_libro_diario", { p_desde: "2000-01-01", p_hasta: "2999-12-31" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      field: "hasta",
      message: "El libro diario abarca como mucho 24 meses: acorte el periodo.",
    });
  });

  it("la función del resumen no se llama como la tabla de los resúmenes diarios de los aprobadores", async () => {
    const { rows } = await owner.query<{ proname: string }>(
      `select proname from pg_proc where pronamespace = 'public'::regnamespace
          and proname in ('resumen_diario', 'resumen_libro_diario')`,
    );
    expect(rows.map((r) => r.proname)).toEqual(["resumen_libro_diario"]);
  });

  it("un XDiario que ContaPlus no puede leer se dice antes de empezar la descarga, no a medias", async () => {
    const real = store();
    // A percentage wider than ContaPlus's 5 characters, in the period's first month.
    const ancho: Store = {
      ...real,
      rpc: async <T>(fn: string, a: Record<string, unknown>) => {
        const r = await real.rpc<unknown>(fn, a);
        if (fn !== "libro_diario" || !Array.isArray(r)) return r as T;
        return r.map((x: Record<string, unknown>, i) => (i === 3 ? { ...x, porcentaje_iva: "100.00" } : x)) as T;
      },
    };
    const error = await xdiario(ancho, periodoDe(TRIMESTRE)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiarioNoDisponible);
    expect(error).toMatchObject({
      status: 422,
      message: expect.stringMatching(
        /^ContaPlus no admite el apunte \d+ del asiento \d+ \(.+\): IVA: 100\.00 no cabe en 5 caracteres\. No se ha generado XDiario\.txt\.$/,
      ),
    });
  });

  it("un fallo después de empezar la descarga la interrumpe: el fichero no termina como si estuviera completo", async () => {
    const real = store();
    const desde = periodoDe(TRIMESTRE).desde;
    // The database fails when the second month is asked for.
    const cae: Store = {
      ...real,
      rpc: async <T>(fn: string, a: Record<string, unknown>) => {
        if (fn === "libro_diario" && a.p_desde !== desde) throw new Error("conexión perdida");
        return real.rpc<T>(fn, a);
      },
    };
    for (const hacer of [
      () => csvDiario(cae, periodoDe(TRIMESTRE), { locale: "es-ES", currency: "EUR" }),
      () => xdiario(cae, periodoDe(TRIMESTRE)),
      () => xlsxDiario(cae, periodoDe(TRIMESTRE)),
    ]) {
      const r = await hacer();
      expect(r.status).toBe(200);
      await expect(r.arrayBuffer()).rejects.toThrow();
    }
    // In the first month, before the answer: no 200 at all.
    const primero: Store = { ...real, rpc: () => Promise.reject(new Error("conexión perdida")) };
    await expect(xdiario(primero, periodoDe(TRIMESTRE))).rejects.toThrow("conexión perdida");
  });

  it("un primer número de asiento opcional numera la pantalla y los ficheros desde él", async () => {
    const apuntes = await todos(periodoDe(TRIMESTRE));
    const asientos = porAsiento(apuntes).size;
    const data = await json(await respond(() => pantalla.loader(args(`/asientos?${TRIMESTRE}&primero=500`, admin))));
    expect(data.errorPrimero).toBeNull();
    expect(data.apuntes[0].asiento).toBe(500);
    expect(data.search).toBe(`${TRIMESTRE}&primero=500`);
    const bajar = (formato: string) =>
      respond(() => exportar.loader(args(`/asientos/exportar?${TRIMESTRE}&primero=500&formato=${formato}`, admin)));

    const registros = Buffer.from(await (await bajar("xdiario")).arrayBuffer())
      .toString("latin1")
      .split("\r\n")
      .filter(Boolean);
    expect(registros.map((r) => Number(r.slice(0, 6)))).toEqual(apuntes.map((a) => a.asiento + 499));
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(Buffer.from(await (await bajar("xlsx")).arrayBuffer()) as unknown as ExcelJS.Buffer);
    const hoja = libro.getWorksheet("Diario")!;
    expect(hoja.getRow(2).getCell(1).value).toBe(500);
    expect(hoja.getRow(apuntes.length + 2).getCell(1).value).toBe(`Total (${asientos} asientos)`);
  });

  it("un primer número que no se puede leer se dice junto a su campo; uno que no cabe en ContaPlus, antes de descargar", async () => {
    const mal = await json(await respond(() => pantalla.loader(args(`/asientos?${TRIMESTRE}&primero=0`, admin))));
    expect(mal.periodo).toBeNull();
    expect(mal.errorPrimero).toBe(
      "Escriba el primer número de asiento como un número entero de 1 a 999999, o déjelo vacío para empezar en 1",
    );
    const r = await respond(() =>
      exportar.loader(args(`/asientos/exportar?${TRIMESTRE}&primero=x&formato=csv`, admin)),
    );
    expect(r.status).toBe(302);

    const grande = await respond(() =>
      exportar.loader(args(`/asientos/exportar?${TRIMESTRE}&primero=999990&formato=xdiario`, admin)),
    );
    // A page that says why, for the person who followed the link.
    expect(grande.status).toBe(422);
    expect(grande.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await grande.text()).toMatch(
      /<p>Empezando en el 999990, el último de los \d+ asientos del periodo sería el 1\d{6}, y ContaPlus admite como mucho el 999999\. Elija un primer número menor\. No se ha generado XDiario\.txt\./,
    );
  });

  it("un empleado no ve el diario ni lo descarga", async () => {
    for (const run of [
      () => pantalla.loader(args(`/asientos?${TRIMESTRE}`, empleado)),
      () => exportar.loader(args(`/asientos/exportar?${TRIMESTRE}&formato=xlsx`, empleado)),
    ])
      expect((await respond(run)).status).toBe(403);
    await expect(
      sqlStore(app.db, empleado.id).rpc("libro_diario", { p_desde: "2026-01-01", p_hasta: "2026-03-31" }),
    ).rejects.toThrow("Solo un administrador puede ver y descargar el libro diario.");
  });

  it("textos que escribe cualquiera (un proveedor, una descripción) no estropean ningún fichero del diario", async () => {
    // A razón social and a description with what XML cannot hold, line breaks, a separator,
    // an emoji and letters Windows-1252 has not: every file still opens, every record its width.
    const { rows: prov } = await owner.query<{ id: string }>(
      `insert into public.proveedores (razon_social, tipo_persona, nif)
       values ($1, 'empresa', $2) returning id`,
      ["Envíos\uFFFF Őrsy\uFFFE SL", generateValidCif(43)],
    );
    await gasto({
      descripcion: "Mensajería\uFFFF;\r\n=1+1 \u{1F69A} «ŐŁ»",
      fecha_gasto: "2021-09-07",
      categoria: "mensajeria",
      importe: "60.50",
      metodo_pago: "transferencia",
      proveedor_id: prov[0]!.id,
      tipo_documento: "factura_completa",
      numero_factura: "M-9",
      factura_a_empresa: true,
    });
    const SEPTIEMBRE = "periodo=mes&anio=2021&mes=9";
    const apuntes = await todos(periodoDe(SEPTIEMBRE));
    expect(apuntes.length).toBeGreaterThan(0);
    const bajar = async (formato: string) => {
      const r = await respond(() =>
        exportar.loader(args(`/asientos/exportar?${SEPTIEMBRE}&formato=${formato}`, admin)),
      );
      expect(r.status).toBe(200);
      return Buffer.from(await r.arrayBuffer());
    };

    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load((await bajar("xlsx")) as unknown as ExcelJS.Buffer);
    const textos = (hoja: string) =>
      libro
        .getWorksheet(hoja)!
        .getSheetValues()
        .flatMap((fila) => (Array.isArray(fila) ? fila : []))
        .filter((v): v is string => typeof v === "string");
    expect(textos("Subcuentas")).toContain("Envíos Őrsy SL");
    expect(textos("Diario").some((t) => t.includes("Envíos Őrsy SL"))).toBe(true);

    const registros = (await bajar("xdiario")).toString("latin1").split("\r\n");
    expect(registros.pop()).toBe("");
    expect(registros).toHaveLength(apuntes.length);
    expect(registros.filter((r) => r.length !== ancho(XDIARIO))).toEqual([]);
    const subcuentas = (await bajar("xsubcta")).toString("latin1").split("\r\n");
    subcuentas.pop();
    expect(subcuentas.filter((r) => r.length !== 161)).toEqual([]);
    // What Windows-1252 cannot hold loses its accent (Ő → O) or is «?» (contaplus.ts).
    expect(subcuentas.some((r) => r.includes("Envíos? Orsy? SL"))).toBe(true);
  });

  it("XLSX (un libro de verdad), CSV y XDiario de ContaPlus dicen lo mismo", async () => {
    const apuntes = await todos(periodoDe(TRIMESTRE));
    const bajar = async (formato: string) => {
      const r = await respond(() => exportar.loader(args(`/asientos/exportar?${TRIMESTRE}&formato=${formato}`, admin)));
      expect(r.status).toBe(200);
      return r;
    };

    const xlsx = await bajar("xlsx");
    expect(xlsx.headers.get("Content-Disposition")).toBe(`attachment; filename="libro-diario-${ANIO}-1T.xlsx"`);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ExcelJS.Buffer);
    const hoja = libro.getWorksheet("Diario")!;
    expect((hoja.getRow(1).values as unknown[]).slice(1, 5)).toEqual(["Asiento", "Fecha", "Cuenta", "Subcuenta"]);
    expect(hoja.rowCount).toBe(apuntes.length + 2);
    const total = hoja.getRow(apuntes.length + 2);
    expect(total.getCell(1).value).toBe(`Total (${apuntes.at(-1)!.asiento} asientos)`);
    expect(total.getCell(7).value).toBe(Number(suma(apuntes, "debe")));
    expect(total.getCell(8).value).toBe(total.getCell(7).value);
    expect(hoja.getRow(2).getCell(2).value).toEqual(new Date(`${apuntes[0]!.fecha}T00:00:00Z`));
    const subcuentas = libro.getWorksheet("Subcuentas")!;
    expect(subcuentas.rowCount - 1).toBe(new Set(apuntes.map((a) => a.subcuenta)).size);

    const csv = await (await bajar("csv")).text();
    const lineas = csv
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter(Boolean);
    expect(
      lineas[0]!
        .split(";")
        .slice(0, 8)
        .map((c) => c.replace(/^"|"$/g, "")),
    ).toEqual(["Asiento", "Fecha", "Cuenta", "Subcuenta", "Descripción de la subcuenta", "Concepto", "Debe", "Haber"]);
    expect(lineas).toHaveLength(apuntes.length + 1);

    const txt = await bajar("xdiario");
    expect(txt.headers.get("Content-Disposition")).toBe('attachment; filename="XDiario.txt"');
    const bytes = Buffer.from(await txt.arrayBuffer());
    const registros = bytes.toString("latin1").split("\r\n");
    expect(registros.pop()).toBe("");
    expect(registros).toHaveLength(apuntes.length);
    expect(registros.filter((r) => r.length !== ancho(XDIARIO))).toEqual([]);
    const campo = (r: string, nombre: string) => {
      const p = posiciones(XDIARIO).find((x) => x.nombre === nombre)!;
      return r.slice(p.desde - 1, p.hasta);
    };
    registros.forEach((r, i) => {
      const a = apuntes[i]!;
      expect(Number(campo(r, "Asien"))).toBe(a.asiento);
      expect(campo(r, "Fecha")).toBe(a.fecha.replaceAll("-", ""));
      expect(campo(r, "SubCta").trimEnd()).toBe(a.subcuenta);
      expect(campo(r, "EuroDebe").trimStart()).toBe(a.debe);
      expect(campo(r, "EuroHaber").trimStart()).toBe(a.haber);
      expect(campo(r, "MonedaUso")).toBe("2");
    });

    const sub = Buffer.from(await (await bajar("xsubcta")).arrayBuffer())
      .toString("latin1")
      .split("\r\n");
    sub.pop();
    expect(sub.map((r) => r.slice(0, 12).trimEnd())).toEqual([...new Set(apuntes.map((a) => a.subcuenta))].sort());
  });
});
