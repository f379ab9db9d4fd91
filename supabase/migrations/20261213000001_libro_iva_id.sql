-- El libro registro de facturas recibidas con un `id` por fila (gasto y línea del desglose): las
-- listas y exportaciones ordenan siempre por `id` al final (un orden estable, también al leer por
-- páginas con PostgREST). Se añade al final: la vista conserva sus columnas, sus permisos y su RLS.
create or replace view public.libro_facturas_recibidas with (security_invoker = true) as
select g.id as gasto_id,
       g.folio,
       g.fecha_expedicion,
       g.fecha_gasto as fecha_operacion,
       g.numero_factura,
       g.tipo_documento,
       g.emisor_nif_efectivo as emisor_nif,
       g.emisor_nombre_efectivo as emisor_nombre,
       g.categoria,
       g.estado,
       l.orden::integer as linea,
       l.value ->> 'tipo' as tipo_iva,
       interno.porcentaje_iva(l.value ->> 'tipo', g.fecha_expedicion) as porcentaje,
       (l.value ->> 'base')::numeric(14, 2) as base_imponible,
       (l.value ->> 'cuota')::numeric(14, 2) as cuota_soportada,
       case when g.iva_deducible > 0 then (l.value ->> 'cuota')::numeric(14, 2) else 0 end::numeric(14, 2)
         as cuota_deducible,
       case when l.orden = 1 then g.otros_no_sujetos else 0 end::numeric(14, 2) as otros_no_sujetos,
       ((l.value ->> 'base')::numeric + (l.value ->> 'cuota')::numeric
         + case when l.orden = 1 then g.otros_no_sujetos else 0 end)::numeric(14, 2) as total,
       g.iva_motivo,
       g.id::text || ':' || l.orden as id
  from public.gastos_vista g
  cross join lateral jsonb_array_elements(g.desglose_iva) with ordinality as l(value, orden)
 where g.estado in ('aprobado', 'pagado');
