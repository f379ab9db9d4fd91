import { json, redirect } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { archivoParaPersonas } from "./respuestas.server";

describe("archivoParaPersonas", () => {
  it("un rechazo con mensaje es una página que lo dice, con el mismo código", async () => {
    const loader = archivoParaPersonas(async () => {
      throw json({ message: "El archivo de <b>este</b> justificante no está disponible." }, { status: 404 });
    });
    const r = await loader({});
    expect(r.status).toBe(404);
    expect(r.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(r.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await r.text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('<link rel="stylesheet" href="/estilos.css">');
    expect(html).toContain("<title>No existe — Oficina</title>");
    expect(html).toContain("<p>El archivo de &lt;b&gt;este&lt;/b&gt; justificante no está disponible.</p>");
    expect(html).toContain('<a href="/">Ir al inicio</a>');
  });

  it("sin mensaje legible, una frase general; 403 y 422 con su título", async () => {
    const sinMensaje = await archivoParaPersonas(async () => {
      throw new Response("x", { status: 403 });
    })({});
    expect(sinMensaje.status).toBe(403);
    const html = await sinMensaje.text();
    expect(html).toContain("<h1>Sin permiso</h1>");
    expect(html).toContain("<p>No se ha podido obtener el archivo.</p>");
    const otro = await archivoParaPersonas(async () => {
      throw json({ message: "Demasiados asientos." }, { status: 422 });
    })({});
    expect(await otro.text()).toContain("<h1>No se puede descargar</h1>");
  });

  it("el archivo, una redirección (iniciar sesión) y un error del servidor pasan como son", async () => {
    const archivo = new Response("a;b\r\n", { headers: { "Content-Type": "text/csv" } });
    expect(await archivoParaPersonas(async () => archivo)({})).toBe(archivo);
    const aLogin = redirect("/login");
    await expect(
      archivoParaPersonas(async () => {
        throw aLogin;
      })({}),
    ).rejects.toBe(aLogin);
    const fallo = new Error("la base de datos no responde");
    await expect(
      archivoParaPersonas(async () => {
        throw fallo;
      })({}),
    ).rejects.toBe(fallo);
  });
});
