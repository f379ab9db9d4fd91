/**
 * Justificantes de demostración: tickets dibujados aquí con sharp (ningún archivo en el
 * repositorio), procesados como los de una subida (procesar.server.ts: sin metadatos, con
 * miniatura) y guardados en el almacén local de DATA_DIR. Van en los gastos recientes de la
 * cuenta de empleado de demostración y en algunos pendientes del aprobador de demostración;
 * otros pendientes se quedan sin él, para que el panel muestre a cuáles les falta.
 */
import { writeFile } from "node:fs/promises";
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { createReadStream } from "node:fs";
import { sql, type Transaction } from "kysely";
import sharp from "sharp";
import type { Database } from "../../app/data/database";
import { almacenLocal } from "../../app/justificantes/almacen.server";
import { procesar } from "../../app/justificantes/procesar.server";
import { DEMO_ACCOUNTS } from "./catalog/organization";

type Fila = {
  id: string;
  folio: string;
  descripcion: string;
  importe: string;
  fecha_gasto: string;
  solicitante_id: string;
  proveedor: string | null;
};

const escapar = (t: string) => t.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A till receipt as a JPEG: the supplier, the date, the concept and the total. */
async function ticket(g: Fila): Promise<Buffer> {
  const [y, m, d] = g.fecha_gasto.slice(0, 10).split("-");
  const total = `${Number(g.importe).toFixed(2).replace(".", ",")} €`;
  const lineas = [
    { t: (g.proveedor ?? "TICKET").slice(0, 28).toUpperCase(), y: 70, size: 30, weight: "bold" },
    { t: "NIF B-00000000 · Factura simplificada", y: 110, size: 18, weight: "normal" },
    { t: `Fecha: ${d}/${m}/${y}`, y: 170, size: 22, weight: "normal" },
    { t: g.descripcion.slice(0, 34), y: 240, size: 22, weight: "normal" },
    { t: `TOTAL  ${total}`, y: 330, size: 34, weight: "bold" },
    { t: "Gracias por su visita", y: 420, size: 18, weight: "normal" },
  ];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480">${lineas
    .map(
      (l) =>
        `<text x="240" y="${l.y}" font-family="DejaVu Sans, sans-serif" font-size="${l.size}" font-weight="${l.weight}" text-anchor="middle" fill="#222">${escapar(l.t)}</text>`,
    )
    .join("")}<line x1="30" y1="280" x2="450" y2="280" stroke="#555" stroke-dasharray="6 4"/></svg>`;
  return sharp({ create: { width: 480, height: 480, channels: 3, background: { r: 252, g: 250, b: 243 } } })
    .composite([{ input: Buffer.from(svg) }])
    .jpeg({ quality: 80 })
    .toBuffer();
}

export async function seedJustificantes(trx: Transaction<Database>, dataDir: string): Promise<number> {
  const { rows } = await sql<Fila & { orden: number }>`
    with elegidos as (
      (select g.id, 1 as grupo, row_number() over (order by g.fecha_gasto desc, g.folio) as orden
         from public.gastos g join auth.users u on u.id = g.solicitante_id
        where u.email = ${DEMO_ACCOUNTS.empleado} and g.estado <> 'borrador'
        order by g.fecha_gasto desc, g.folio limit 8)
      union all
      (select g.id, 2, row_number() over (order by g.fecha_gasto desc, g.folio)
         from public.gastos g join auth.users u on u.id = g.aprobador_id
        where u.email = ${DEMO_ACCOUNTS.aprobador} and g.estado = 'pendiente'
        order by g.fecha_gasto desc, g.folio limit 6)
    )
    select distinct on (g.id) g.id, g.folio, g.descripcion, g.importe::text as importe,
           g.fecha_gasto::text as fecha_gasto, g.solicitante_id,
           coalesce(p.nombre_comercial, p.razon_social) as proveedor, e.orden::int as orden
      from elegidos e
      join public.gastos g on g.id = e.id
      left join public.proveedores p on p.id = g.proveedor_id
     -- Every third pending one of the aprobador stays without a receipt (the panel says so).
     where not (e.grupo = 2 and e.orden % 3 = 0)
     order by g.id`.execute(trx);
  const almacen = almacenLocal(dataDir);
  for (const g of rows) {
    const temporal = await almacen.temporal();
    try {
      await writeFile(temporal, await ticket(g));
      const p = await procesar(temporal);
      if (!p.ok) throw new Error(`ticket de demostración rechazado: ${p.motivo}`);
      const contenido = await almacen.put(
        Buffer.isBuffer(p.contenido) ? Readable.from([p.contenido]) : createReadStream(p.contenido.archivo),
        { gasto: g.id, tipo: p.tipo },
      );
      const miniatura = p.miniatura
        ? await almacen.put(Readable.from([p.miniatura]), { gasto: g.id, tipo: "image/webp" })
        : null;
      await trx
        .insertInto("public.justificantes")
        .values({
          gasto_id: g.id,
          nombre: `ticket-${g.folio}.jpg`,
          tipo: p.tipo,
          bytes: contenido.bytes,
          sha256: contenido.sha256,
          miniatura: miniatura?.sha256 ?? null,
          subido_por_id: g.solicitante_id,
        })
        .execute();
    } finally {
      await rm(temporal, { force: true });
    }
  }
  return rows.length;
}
