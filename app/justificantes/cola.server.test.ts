import { ColaLlena, colaDeTrabajo } from "./cola.server";

/** A job that runs until `soltar` is called. */
function trabajo() {
  let soltar!: () => void;
  const fin = new Promise<void>((resolve) => (soltar = resolve));
  let empezado = false;
  return {
    soltar,
    get empezado() {
      return empezado;
    },
    run: async () => {
      empezado = true;
      await fin;
      return "hecho";
    },
  };
}

it("uno a la vez, por orden de llegada; el siguiente empieza cuando acaba el anterior", async () => {
  const cola = colaDeTrabajo({ simultaneos: 1, maxEsperando: 5, maxEsperaMs: 60_000 });
  const a = trabajo();
  const b = trabajo();
  const ra = cola.en(a.run);
  const rb = cola.en(b.run);
  await Promise.resolve();
  expect([a.empezado, b.empezado, cola.activos, cola.esperando]).toEqual([true, false, 1, 1]);
  a.soltar();
  expect(await ra).toBe("hecho");
  await vi.waitFor(() => expect(b.empezado).toBe(true));
  b.soltar();
  expect(await rb).toBe("hecho");
  expect([cola.activos, cola.esperando]).toEqual([0, 0]);
});

it("con la espera llena, el siguiente se rechaza en el acto (ColaLlena) y no corre", async () => {
  const cola = colaDeTrabajo({ simultaneos: 1, maxEsperando: 2, maxEsperaMs: 60_000 });
  const t = [trabajo(), trabajo(), trabajo(), trabajo()];
  const r = t.slice(0, 3).map((x) => cola.en(x.run));
  await expect(cola.en(t[3]!.run)).rejects.toBeInstanceOf(ColaLlena);
  expect(t[3]!.empezado).toBe(false);
  for (const [i, x] of t.slice(0, 3).entries()) {
    await vi.waitFor(() => expect(x.empezado).toBe(true));
    x.soltar();
    expect(await r[i]).toBe("hecho");
  }
});

it("quien espera más del plazo se va (ColaLlena) sin quitar el turno a los demás; un trabajo que falla libera su turno", async () => {
  vi.useFakeTimers();
  try {
    const cola = colaDeTrabajo({ simultaneos: 1, maxEsperando: 5, maxEsperaMs: 1000 });
    const a = trabajo();
    const ra = cola.en(a.run);
    const tarde = cola.en(async () => "nunca");
    const rechazo = expect(tarde).rejects.toBeInstanceOf(ColaLlena);
    await vi.advanceTimersByTimeAsync(1001);
    await rechazo;
    expect(cola.esperando).toBe(0);
    const fallo = cola.en(async () => {
      throw new Error("roto");
    });
    a.soltar();
    expect(await ra).toBe("hecho");
    await expect(fallo).rejects.toThrow("roto");
    expect(await cola.en(async () => "otro")).toBe("otro");
    expect(cola.activos).toBe(0);
  } finally {
    vi.useRealTimers();
  }
});
