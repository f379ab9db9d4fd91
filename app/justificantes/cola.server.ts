/**
 * Turns for the work of checking uploaded files (decoding images, reading PDFs): `simultaneos`
 * at a time in this process, at most `maxEsperando` waiting, none longer than `maxEsperaMs`. A
 * burst of uploads then waits its turn or is told to come back, instead of every request
 * decoding at once and leaving no processor for the pages.
 */
export class ColaLlena extends Error {
  constructor() {
    super("cola de procesamiento llena");
  }
}

export function colaDeTrabajo({
  simultaneos,
  maxEsperando,
  maxEsperaMs,
}: {
  simultaneos: number;
  maxEsperando: number;
  maxEsperaMs: number;
}) {
  let activos = 0;
  const esperando: { pasar: () => void }[] = [];
  const siguiente = () => {
    const turno = esperando.shift();
    if (turno) turno.pasar();
    else activos--;
  };
  return {
    get activos() {
      return activos;
    },
    get esperando() {
      return esperando.length;
    },
    /** Runs `trabajo` in its turn; ColaLlena when too many wait or the wait is too long. */
    async en<T>(trabajo: () => Promise<T>): Promise<T> {
      if (activos < simultaneos) activos++;
      else {
        if (esperando.length >= maxEsperando) throw new ColaLlena();
        await new Promise<void>((resolve, reject) => {
          const turno = {
            pasar: () => {
              clearTimeout(plazo);
              resolve();
            },
          };
          const plazo = setTimeout(() => {
            esperando.splice(esperando.indexOf(turno), 1);
            reject(new ColaLlena());
          }, maxEsperaMs);
          esperando.push(turno);
        });
        // The turn is handed over with the slot: `activos` stays as it was.
      }
      try {
        return await trabajo();
      } finally {
        siguiente();
      }
    },
  };
}
