import ExcelJS from "exceljs";
import type { Store } from "~/data/store";
import { DescargaDetenida } from "~/lib/descarga.server";
import type { FilaLibro } from "./libro";
import { csvLibro, xlsxLibro } from "./libro.server";
import { leerPeriodo } from "./periodo";

/** The workbook's stream against a store that could give far more lines than anyone reads. */
const periodo = leerPeriodo(new URLSearchParams("periodo=anio&anio=2026"), "2026-11-28").periodo!;

const filas = (n: number, desde: number): FilaLibro[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `g${desde + i}:1`,
    folio: `GAS-2026-${String(desde + i).padStart(7, "0")}`,
    numero_recepcion: `REC-2026-${String(desde + i).padStart(7, "0")}`,
    fecha_expedicion: "2026-01-15",
    fecha_operacion: "2026-01-15",
    numero_factura: "F-1",
    tipo_documento: "factura_completa",
    emisor_nif: "B12345674",
    emisor_nombre: "Proveedor de pruebas SL",
    pais_expedidor: "ES",
    linea: 1,
    tipo_iva: "21",
    porcentaje: "21.00",
    base_imponible: "100.00",
    cuota_soportada: "21.00",
    cuota_deducible: "21.00",
    total: "121.00",
    inversion_sujeto_pasivo: false,
  }));

/** A store that gives the libro only as a stream: `servir` hands it its pages. */
const enFlujo = (
  servir: (onPage: (rows: FilaLibro[]) => Promise<void>) => Promise<void>,
): Pick<Store, "list" | "stream"> => ({
  list: () => Promise.reject(new Error("el libro se lee en flujo")),
  stream: <T>(_fuente: string, _consulta: unknown, onPage: (rows: T[]) => Promise<void>) =>
    servir(onPage as (rows: FilaLibro[]) => Promise<void>),
});

/**
 * A store that would give `paginas` pages of a thousand lines, a turn of the event loop apart (each
 * a round trip to the database), and says how many the download took and how the reading ended.
 */
function almacenDePaginas(paginas: number, de: (n: number, desde: number) => FilaLibro[] = filas) {
  const estado = { leidas: 0, fin: null as "completo" | "parado" | null };
  const store = enFlujo(async (onPage) => {
    try {
      for (let i = 0; i < paginas; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        await onPage(de(1000, i * 1000));
        estado.leidas += 1;
      }
      estado.fin = "completo";
    } catch (error) {
      estado.fin = "parado"; // as the SQL adapter: the transaction is rolled back, the error goes on
      throw error;
    }
  });
  return { store, estado };
}

describe("el libro en XLSX, en flujo", () => {
  it("una descarga abandonada deja de leer: la lectura del almacén termina sin llegar al final", async () => {
    const { store, estado } = almacenDePaginas(500);
    const lector = xlsxLibro(store, periodo).body!.getReader();
    // Some pages downloaded, then the client goes away.
    while (estado.leidas < 3) expect((await lector.read()).done).toBe(false);
    await lector.cancel();
    await expect.poll(() => estado.fin).toBe("parado");
    expect(estado.leidas).toBeLessThan(500);
  });
});

describe("el libro en XLSX, con un cliente que deja de leer sin cerrar", () => {
  afterEach(() => vi.useRealTimers());

  it("pasado el plazo suelta el cursor y la descarga termina con error, sin esperar a que lea", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    // Names that do not compress away: the compressed book fills the buffers, as a real one does.
    const { store, estado } = almacenDePaginas(500, (n, desde) =>
      filas(n, desde).map((f) => ({ ...f, emisor_nombre: crypto.randomUUID() })),
    );
    const lector = xlsxLibro(store, periodo).body!.getReader();
    let cuerpo: unknown = "abierto";
    lector.closed.then(
      () => (cuerpo = "completo"),
      (error: unknown) => (cuerpo = error),
    );
    while (estado.leidas < 3) expect((await lector.read()).done).toBe(false);
    // Until the writer waits for the client (the buffers full): no page more is read.
    let antes = -1;
    while (antes !== estado.leidas) {
      antes = estado.leidas;
      for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
    }
    await vi.advanceTimersByTimeAsync(30_000);
    expect(estado.fin).toBeNull();
    expect(cuerpo).toBe("abierto");
    await vi.advanceTimersByTimeAsync(60_000);
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(estado.fin).toBe("parado");
    expect(cuerpo).toBeInstanceOf(DescargaDetenida);
    expect(estado.leidas).toBeLessThan(500);
  });
});

describe("el libro en XLSX, con textos que escribe cualquiera", () => {
  it("un carácter que XML no admite (U+FFFE, U+FFFF) no deja el libro ilegible: se quita", async () => {
    const [fila] = filas(1, 1);
    const hostil = { ...fila!, emisor_nombre: "Hoteles\uFFFF del Sol\uFFFE SL", numero_factura: "F\uFFFF-1" };
    const store = enFlujo((onPage) => onPage([hostil]));
    const bytes = await new Response(xlsxLibro(store, periodo).body).arrayBuffer();
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(bytes);
    const valores = libro.getWorksheet("RECIBIDAS")!.getRow(2).values as unknown[];
    expect(valores).toContain("Hoteles del Sol SL");
    expect(valores).toContain("F-1");
  });
});

describe("el libro en CSV, en flujo", () => {
  afterEach(() => vi.useRealTimers());

  it("un cliente que deja de leer sin cerrar suelta el cursor pasado el plazo", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { store, estado } = almacenDePaginas(500);
    const lector = csvLibro(store, periodo, { locale: "es-ES", currency: "EUR" }).body!.getReader();
    while (estado.leidas < 3) expect((await lector.read()).done).toBe(false);
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(estado.fin).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(estado.fin).toBe("parado");
    expect(estado.leidas).toBeLessThan(500);
  });
});
