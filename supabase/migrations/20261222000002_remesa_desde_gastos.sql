-- Pagar desde la lista de gastos: la vista «Aprobados pendientes de pago» necesita saber qué
-- gastos aprobados están ya en una remesa viva (gastos_vista.en_remesa); y el aviso de un gasto
-- pagado al confirmar su remesa dice que se pagó por transferencia y con qué remesa.

create or replace function interno.crear_gastos_vista() returns void
language plpgsql
set search_path = ''
as $fn$
begin
  drop view if exists public.libro_facturas_recibidas;
  drop view if exists public.gastos_vista;
  create view public.gastos_vista with (security_invoker = true) as
  select g.*,
         interno.nombre_proveedor(p.razon_social, p.nombre_comercial) as proveedor_nombre,
         nullif(btrim(concat_ws(' ', so.nombre, so.apellidos)), '') as solicitante_nombre,
         d.nombre as departamento_nombre,
         s.nombre as sucursal_nombre,
         nullif(btrim(concat_ws(' ', ap.nombre, ap.apellidos)), '') as aprobador_nombre,
         nullif(btrim(concat_ws(' ', apr.nombre, apr.apellidos)), '') as aprobado_por_nombre,
         coalesce(
           (select interno.rol_actual()) in ('aprobador', 'administrador')
           and g.solicitante_id <> (select auth.uid())
           and g.creado_por_id is distinct from (select auth.uid())
           and g.editado_por_id is distinct from (select auth.uid())
           and ((select interno.rol_actual()) = 'administrador'
                or g.aprobador_id = (select auth.uid())
                or g.solicitante_id = any ((select interno.solicitantes_a_cargo())::uuid[])),
           false) as puede_aprobar,
         (select count(*)::integer from public.justificantes j where j.gasto_id = g.id) as justificantes,
         coalesce(p.nif, g.emisor_nif) as emisor_nif_efectivo,
         coalesce(interno.nombre_proveedor(p.razon_social, p.nombre_comercial), g.emisor_nombre) as emisor_nombre_efectivo,
         (interno.deducibilidad(g)).importe as iva_deducible,
         (interno.deducibilidad(g)).motivo as iva_motivo,
         -- El folio de la remesa viva (generada o confirmada) en la que está; solo lo ven los
         -- administradores (RLS de remesa_gastos).
         (select r.folio from public.remesa_gastos rg join public.remesas r on r.id = rg.remesa_id
           where rg.gasto_id = g.id and rg.viva) as en_remesa
  from public.gastos g
  left join public.proveedores p on p.id = g.proveedor_id
  left join public.usuarios so on so.id = g.solicitante_id
  left join public.departamentos d on d.id = g.departamento_id
  left join public.sucursales s on s.id = g.sucursal_id
  left join public.usuarios ap on ap.id = g.aprobador_id
  left join public.usuarios apr on apr.id = g.aprobado_por_id;
  revoke all on public.gastos_vista from public, anon, authenticated;
  grant select on public.gastos_vista to authenticated, service_role;
  -- El libro registro de facturas recibidas: una fila por gasto aprobado o pagado y tipo de IVA
  -- (las columnas del libro de la AEAT), con un `id` por fila (gasto y línea) para un orden
  -- estable al leer por páginas. Depende de gastos_vista: se rehace con ella.
  create view public.libro_facturas_recibidas with (security_invoker = true) as
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
  revoke all on public.libro_facturas_recibidas from public, anon, authenticated;
  grant select on public.libro_facturas_recibidas to authenticated, service_role;
end
$fn$;
revoke all on function interno.crear_gastos_vista() from public, anon, authenticated;
select interno.crear_gastos_vista();

