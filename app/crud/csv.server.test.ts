import type { Store } from "~/data/store";
import { usuarios } from "~/entities/usuarios";
import { csvResponse } from "./csv.server";

/**
 * A list's CSV holds one pooled connection (its cursor) while the client reads. A client that
 * stops reading without closing (a stalled network, a script) must not hold it for ever: ten of
 * them would leave everyone else without a connection.
 */
const f = { locale: "es-ES", currency: "EUR" };
const filas = (n: number) => Array.from({ length: n }, (_, i) => ({ nombre: `Persona ${i}`, email: `p${i}@x.es` }));

describe("el CSV de una lista, en flujo", () => {
  afterEach(() => vi.useRealTimers());

  it("un cliente que deja de leer sin cerrar suelta el cursor pasado el plazo", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let leidas = 0;
    let fin: "completo" | "parado" | null = null;
    const store = {
      list: () => Promise.reject(new Error("se lee en flujo")),
      async stream<T>(_fuente: string, _consulta: unknown, onPage: (rows: T[]) => Promise<void>) {
        try {
          for (let i = 0; i < 500; i++) {
            await new Promise((resolve) => setImmediate(resolve));
            await onPage(filas(1000) as T[]);
            leidas += 1;
          }
          fin = "completo";
        } catch (error) {
          fin = "parado"; // as the SQL adapter: the transaction is rolled back, the error goes on
          throw error;
        }
      },
    } satisfies Pick<Store, "list" | "stream">;
    const cuerpo = csvResponse(usuarios, store, { page: 1 } as never, f, "administrador").body!;
    const lector = cuerpo.getReader();
    // A few pages taken, then nothing more is read, and the download is not closed either.
    while (leidas < 3) expect((await lector.read()).done).toBe(false);
    // The store fills the stream's queue (its pages come a turn of the event loop apart), then waits.
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    const enCola = leidas;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(leidas).toBe(enCola);
    expect(fin).toBeNull(); // a slow client is not a stalled one
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fin).toBe("parado");
    expect(leidas).toBeLessThan(500);
    await expect(lector.read()).rejects.toThrow(/detenida/);
  });

  it("un cliente que lee despacio pero sin pararse llega al final", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let fin: "completo" | "parado" | null = null;
    const store = {
      list: () => Promise.reject(new Error("se lee en flujo")),
      async stream<T>(_fuente: string, _consulta: unknown, onPage: (rows: T[]) => Promise<void>) {
        try {
          for (let i = 0; i < 20; i++) await onPage(filas(1000) as T[]);
          fin = "completo";
        } catch {
          fin = "parado";
        }
      },
    } satisfies Pick<Store, "list" | "stream">;
    const lector = csvResponse(usuarios, store, { page: 1 } as never, f, "administrador").body!.getReader();
    for (;;) {
      await vi.advanceTimersByTimeAsync(40_000);
      if ((await lector.read()).done) break;
    }
    expect(fin).toBe("completo");
  });
});
