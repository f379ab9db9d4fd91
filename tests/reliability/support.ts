import { randomUUID } from "node:crypto";
import { mkdirSync, appendFileSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import { hashPassword } from "~/auth/password.server";
import { todayISO } from "~/lib/dates";
import { ROOT, type Browser } from "../support/server-process";

/** Where the suites keep their data directories (one per run and suite) and the figures. */
export function workDir(name: string) {
  const dir = path.join(ROOT, ".tmp/reliability", `${name}-${process.pid}`);
  mkdirSync(path.dirname(dir), { recursive: true });
  return dir;
}

export const PASSWORD = "contraseña-de-fiabilidad-larga";

/** Prints a figure line and keeps it in .tmp/reliability/cifras.txt (docs/fiabilidad.md quotes them). */
export function figure(line: string) {
  console.info(`\n  ▶ ${line}\n`);
  const file = path.join(ROOT, ".tmp/reliability/cifras.txt");
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, `${new Date().toISOString()} ${line}\n`);
}

export type Account = { id: string; email: string; rol: "administrador" | "aprobador" | "empleado" };

/**
 * A small organisation, written as the owner: two departments, a branch, and accounts
 * (confirmed, with PASSWORD). `aprobador_de` gives an empleado their approver.
 */
export async function createOrganisation(
  client: pg.Client,
  people: { key: string; rol: Account["rol"]; departamento?: "ventas" | "compras"; aprobador?: string }[],
) {
  const tag = randomUUID().slice(0, 6).toUpperCase();
  const dep = async (nombre: string, codigo: string) =>
    (
      await client.query("insert into departamentos (nombre, codigo) values ($1, $2) returning id", [
        `${nombre} ${tag}`,
        `${codigo}-${tag}`,
      ])
    ).rows[0].id as string;
  const departamentos = { ventas: await dep("Ventas", "V"), compras: await dep("Compras", "C") };
  const sucursal = (
    await client.query(
      "insert into sucursales (nombre, codigo, direccion, ciudad) values ($1, $2, 'Gran Vía 1', 'Madrid') returning id",
      [`Madrid ${tag}`, `M-${tag}`],
    )
  ).rows[0].id as string;
  const hash = await hashPassword(PASSWORD);
  const accounts: Record<string, Account> = {};
  for (const p of people) {
    const email = `${p.key}-${tag.toLowerCase()}@fiabilidad.test`;
    const id = (
      await client.query(
        "insert into auth.users (email, encrypted_password, email_confirmed_at, raw_user_meta_data) values ($1, $2, now(), $3) returning id",
        [email, hash, JSON.stringify({ nombre: p.key })],
      )
    ).rows[0].id as string;
    await client.query(
      "update usuarios set rol = $2, departamento_id = $3, sucursal_id = $4, aprobador_id = $5 where id = $1",
      [id, p.rol, departamentos[p.departamento ?? "ventas"], sucursal, p.aprobador ? accounts[p.aprobador]!.id : null],
    );
    accounts[p.key] = { id, email, rol: p.rol };
  }
  return { departamentos, sucursal, accounts };
}

export function gastoForm(o: Record<string, string> = {}) {
  return {
    intent: "crear",
    descripcion: "Comida con cliente",
    fecha_gasto: todayISO(),
    categoria: "comidas",
    importe: "45,30",
    metodo_pago: "tarjeta_corporativa",
    _envio: randomUUID(),
    ...o,
  };
}

/** The «guardar» form of a borrador, as the panel posts it (fields of a non-admin). */
export function guardarForm(g: { id: string; version: number }, o: Record<string, string> = {}) {
  return {
    intent: "guardar",
    id: g.id,
    version: String(g.version),
    descripcion: "Comida con cliente",
    fecha_gasto: todayISO(),
    categoria: "comidas",
    importe: "45,30",
    importe_impuestos: "",
    metodo_pago: "tarjeta_corporativa",
    proveedor_id: "",
    numero_factura: "",
    departamento_id: "",
    sucursal_id: "",
    notas: "",
    ...o,
  };
}

/** The gasto id a create's redirect opens (`/gastos?gasto=…#gasto`). */
export function gastoIdOf(location: string | null) {
  return location ? new URL(location, "http://x").searchParams.get("gasto") : null;
}

/** The page after a redirect, with its flash message (the browser follows the redirect). */
export async function follow(browser: Browser, location: string | null) {
  if (!location) throw new Error("Sin redirección");
  const r = await browser.get(location);
  return r.text();
}

/** Text of an HTML page without tags (to look for messages). */
export function textOf(html: string) {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** What a stack trace or an internal error looks like on a page (none may reach it). */
export const LEAKS = [
  /\n\s+at [\w.<>]+ \(/,
  /node_modules\//,
  /ECONNREFUSED/,
  /\bSQLSTATE\b/,
  /terminating connection/i,
  /\berror: relation\b/i,
  /TypeError|ReferenceError/,
];
