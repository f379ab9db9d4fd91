import { describe, expect, it } from "vitest";
import { motivoEntrega } from "./motivo-entrega";

describe("motivoEntrega: por qué no se entregó un correo, en castellano", () => {
  it.each([
    ["connect ECONNREFUSED 127.0.0.1:2599", /no acepta conexiones.*SMTP_URL/],
    ["getaddrinfo ENOTFOUND smtp.empresa.es", /No se encuentra el servidor/],
    ["Connection timeout", /no respondió a tiempo/],
    ["self-signed certificate in certificate chain", /conexión segura/],
    ["Invalid login: 535 5.7.8 Authentication failed", /usuario o la contraseña/],
    ["550 5.1.1 <x@empresa.es>: Recipient address rejected: User unknown", /dirección no existe/],
    ["552 5.2.2 Mailbox full", /buzón del destinatario está lleno/],
    ["550 5.2.2 Buzón lleno", /buzón del destinatario está lleno/],
    ["Can't send mail - all recipients were rejected: 550 5.1.1 <x@y.es>", /dirección no existe/],
    ["554 5.7.1 Message rejected as spam", /política/],
    ["451 4.7.1 Greylisted, try again later", /temporal/],
    ["algo raro", /vea el detalle técnico/],
  ])("%s", (error, esperado) => {
    expect(motivoEntrega(error)).toMatch(esperado);
  });

  it("sin error guardado lo dice", () => {
    expect(motivoEntrega(null)).toBe("Sin detalle del servidor de correo.");
  });
});
