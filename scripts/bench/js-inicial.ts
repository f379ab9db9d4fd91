/**
 * JavaScript a page makes the browser download on first load: every `/build/….js` its HTML names
 * (modulepreload links and the inline module script), gzip-compressed as the server sends them,
 * and what each chunk is made of (from the build's source maps: bytes per package).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export type Trozo = { archivo: string; bytes: number; gzip: number; partes: Record<string, number> };
export type JsInicial = {
  totalBytes: number;
  totalGzip: number;
  trozos: Trozo[];
  /** gzip bytes per part (React, Remix, Sentry, app…) over all first-load chunks, in proportion. */
  partesGzip: Record<string, number>;
  /** Chunks not on the first load that contain Sentry's browser SDK (loaded later, only with a DSN). */
  sentryDiferido: { archivo: string; gzip: number }[];
};

/** `html`: the page; `publico`: the served public/ dir; `mapas`: where the `.map` files were moved to. */
export function jsInicial(html: string, publico: string, mapas: string): JsInicial {
  // What the browser fetches before the page is interactive: the modulepreload links and the
  // inline module script's imports (the inline route manifest names other routes' modules too:
  // those load only when navigating there).
  const preload = [...html.matchAll(/<link rel="modulepreload" href="(\/build\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const importados = [...html.matchAll(/import(?:\s*\*\s*as\s+\w+\s+from\s*|\s*\(\s*|\s+)"(\/build\/[^"]+\.js)"/g)].map(
    (m) => m[1]!,
  );
  const urls = [...new Set([...preload, ...importados])];
  const trozos = urls.map((url) => {
    const codigo = readFileSync(path.join(publico, url));
    const mapa = path.join(mapas, `${url}.map`);
    return {
      archivo: url,
      bytes: codigo.length,
      gzip: gzipSync(codigo).length,
      partes: existsSync(mapa) ? partesDe(codigo.toString("utf8"), readFileSync(mapa, "utf8")) : {},
    };
  });
  const partesGzip: Record<string, number> = {};
  for (const t of trozos) {
    const total = Object.values(t.partes).reduce((a, b) => a + b, 0) || 1;
    for (const [parte, bytes] of Object.entries(t.partes))
      partesGzip[parte] = (partesGzip[parte] ?? 0) + Math.round((t.gzip * bytes) / total);
  }
  // The lazily imported Sentry chunks: every other chunk of the build whose map names @sentry.
  const sentryDiferido: JsInicial["sentryDiferido"] = [];
  const dirMapas = path.join(mapas, "build");
  for (const archivo of listar(dirMapas)) {
    const url = `/build/${path.relative(dirMapas, archivo).replace(/\.map$/, "")}`;
    if (urls.includes(url) || !url.endsWith(".js")) continue;
    if (readFileSync(archivo, "utf8").includes("node_modules/@sentry"))
      sentryDiferido.push({ archivo: url, gzip: gzipSync(readFileSync(path.join(publico, url))).length });
  }
  return {
    totalBytes: trozos.reduce((a, t) => a + t.bytes, 0),
    totalGzip: trozos.reduce((a, t) => a + t.gzip, 0),
    trozos,
    partesGzip,
    sentryDiferido,
  };
}

function listar(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((nombre) => {
    const ruta = path.join(dir, nombre);
    return statSync(ruta).isDirectory() ? listar(ruta) : nombre.endsWith(".map") ? [ruta] : [];
  });
}

/** The part of the app a source file belongs to. */
export function parteDe(fuente: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(fuente);
  if (!m) return /(^|\/)app\//.test(fuente) ? "app (Oficina)" : "otros";
  const paquete = m[1]!;
  if (["react", "react-dom", "scheduler"].includes(paquete)) return "React (react, react-dom, scheduler)";
  if (paquete.startsWith("@remix-run/") || paquete.startsWith("react-router") || paquete === "turbo-stream")
    return "Remix + React Router";
  if (paquete.startsWith("@sentry")) return "Sentry";
  if (paquete.startsWith("@conform-to/")) return "Conform";
  if (paquete === "zod" || paquete.startsWith("@zod/")) return "zod";
  return paquete;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VALOR: Record<string, number> = Object.fromEntries([...B64].map((c, i) => [c, i]));

/** Bytes of the minified `codigo` per part, by decoding its source map's mappings (VLQ). */
export function partesDe(codigo: string, mapaJson: string): Record<string, number> {
  const mapa = JSON.parse(mapaJson) as { sources: string[]; mappings: string };
  const lineas = codigo.split("\n");
  const out: Record<string, number> = {};
  const sumar = (parte: string, n: number) => n > 0 && (out[parte] = (out[parte] ?? 0) + n);
  let fuente = 0;
  const lineasMapa = mapa.mappings.split(";");
  for (let l = 0; l < lineas.length; l++) {
    const texto = lineas[l]!;
    const segmentos: { col: number; fuente: number | null }[] = [];
    let col = 0;
    for (const seg of (lineasMapa[l] ?? "").split(",")) {
      if (!seg) continue;
      const campos = vlq(seg);
      col += campos[0]!;
      if (campos.length >= 4) {
        fuente += campos[1]!;
        segmentos.push({ col, fuente });
      } else segmentos.push({ col, fuente: null });
    }
    const bytes = (desde: number, hasta: number) => Buffer.byteLength(texto.slice(desde, hasta));
    if (!segmentos.length) {
      sumar("(sin mapa)", bytes(0, texto.length) + 1);
      continue;
    }
    sumar("(sin mapa)", bytes(0, segmentos[0]!.col));
    segmentos.forEach((s, i) => {
      const fin = i + 1 < segmentos.length ? segmentos[i + 1]!.col : texto.length;
      sumar(
        s.fuente === null ? "(sin mapa)" : parteDe(mapa.sources[s.fuente] ?? ""),
        bytes(s.col, fin) + (i + 1 === segmentos.length ? 1 : 0),
      );
    });
  }
  return out;
}

function vlq(segmento: string): number[] {
  const valores: number[] = [];
  let valor = 0;
  let desplazamiento = 0;
  for (const c of segmento) {
    const digito = VALOR[c]!;
    valor += (digito & 31) << desplazamiento;
    if (digito & 32) desplazamiento += 5;
    else {
      valores.push(valor & 1 ? -(valor >>> 1) : valor >>> 1);
      valor = 0;
      desplazamiento = 0;
    }
  }
  return valores;
}
