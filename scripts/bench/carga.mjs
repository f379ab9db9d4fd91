/**
 * The load generator of `npm run bench`, run as its own process (never inside the server's):
 * `node scripts/bench/carga.mjs '<json>'`. One autocannon run — a short warm-up first, then the
 * measured run, bounded in time (`segundos`) and in count (`maximo` requests) — and one JSON
 * line on stdout: requests/s, p50/p95/p99 latency from every response's own time, status codes,
 * bytes.
 *
 * `crear` (POST of the «Nuevo gasto» form to `crear.path`, with `crear.campos` besides its own):
 * every request is a new valid expense with a fresh `_envio` token, so the double-submit guard
 * never answers from memory.
 */
import autocannon from "autocannon";
import { randomUUID } from "node:crypto";

const opciones = JSON.parse(process.argv[2] ?? "{}");
const { url, conexiones, segundos, calentamiento = 1, maximo, cabeceras = {}, crear } = opciones;

function peticiones() {
  if (!crear) return undefined;
  let n = 0;
  return [
    {
      method: "POST",
      setupRequest: (request) => {
        n++;
        const cuerpo = new URLSearchParams({
          // The screen's own fields (an IVA breakdown: pantallas.ts DESGLOSE_DOS_TIPOS).
          ...crear.campos,
          intent: "crear",
          _envio: randomUUID(),
          descripcion: `Gasto de prueba de carga ${n}`,
          fecha_gasto: crear.fecha,
          categoria: "comidas",
          // Different amounts, so the duplicate warning is the exception, as in real use.
          importe: `${10 + (n % 900)},${String(n % 100).padStart(2, "0")}`,
          metodo_pago: "tarjeta_credito",
          proveedor_id: crear.proveedorId,
          numero_factura: `B-${n}`,
        }).toString();
        return {
          ...request,
          method: "POST",
          path: crear.path,
          body: cuerpo,
          headers: { ...request.headers, "content-type": "application/x-www-form-urlencoded" },
        };
      },
    },
  ];
}

function correr(duracion, tope, medir) {
  return new Promise((resolve, reject) => {
    const tiempos = [];
    const codigos = {};
    let bytes = 0;
    const instancia = autocannon(
      {
        url,
        connections: conexiones,
        duration: duracion,
        maxOverallRequests: Math.max(tope, conexiones),
        headers: cabeceras,
        requests: peticiones(),
        timeout: 30,
      },
      (error, resultado) => (error ? reject(error) : resolve({ resultado, tiempos, codigos, bytes })),
    );
    if (medir)
      instancia.on("response", (_cliente, codigo, bytesRespuesta, tiempo) => {
        tiempos.push(tiempo);
        codigos[codigo] = (codigos[codigo] ?? 0) + 1;
        bytes += bytesRespuesta;
      });
  });
}

function percentil(ordenados, p) {
  if (!ordenados.length) return null;
  const i = Math.min(ordenados.length - 1, Math.max(0, Math.ceil((p / 100) * ordenados.length) - 1));
  return Math.round(ordenados[i] * 100) / 100;
}

if (calentamiento > 0) await correr(calentamiento, Math.max(50, Math.floor(maximo / 10)), false);
process.stderr.write("#midiendo\n");
const inicio = process.hrtime.bigint();
const { resultado, tiempos, codigos, bytes } = await correr(segundos, maximo, true);
const transcurrido = Number(process.hrtime.bigint() - inicio) / 1e9;
const ordenados = [...tiempos].sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    peticiones: tiempos.length,
    segundos: Math.round(transcurrido * 1000) / 1000,
    rps: Math.round((tiempos.length / transcurrido) * 10) / 10,
    p50: percentil(ordenados, 50),
    p95: percentil(ordenados, 95),
    p99: percentil(ordenados, 99),
    maxima: ordenados.length ? Math.round(ordenados[ordenados.length - 1] * 100) / 100 : null,
    codigos,
    erroresConexion: resultado.errors,
    // Sent but not answered when the run's time was up (a page slower than the run itself).
    sinRespuesta: Math.max(0, (resultado.requests?.sent ?? 0) - tiempos.length),
    timeouts: resultado.timeouts,
    bytesPorRespuesta: tiempos.length ? Math.round(bytes / tiempos.length) : 0,
  })}\n`,
);
