/** One HTTP request without a client that hides things (cookies, compression): status, headers and the raw body. */
import http from "node:http";

export type Respuesta = { status: number; headers: http.IncomingHttpHeaders; cuerpo: Buffer };

export function pedir(
  base: string,
  ruta: string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Respuesta> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(ruta, base), { method: o.method ?? "GET", headers: o.headers }, (res) => {
      const trozos: Buffer[] = [];
      res.on("data", (c: Buffer) => trozos.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, cuerpo: Buffer.concat(trozos) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    if (o.body) req.end(o.body);
    else req.end();
  });
}
