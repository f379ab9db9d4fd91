-- Oficina: un solo nombre para cada proveedor en todas partes (issue 18). La lista y la ficha de
-- gastos decían el nombre comercial y los filtros, los selectores y el historial la razón social:
-- el mismo proveedor con dos nombres. Ahora, en todas partes, «Nombre comercial (Razón social)»
-- si tiene un nombre comercial distinto de su razón social, y si no la razón social: se reconoce
-- por el nombre de la calle y se identifica por el legal.

create function interno.nombre_proveedor(p_razon_social text, p_nombre_comercial text) returns text
language sql immutable
set search_path = ''
as $$
  select case
    when nullif(btrim(p_nombre_comercial), '') is null
         or lower(btrim(p_nombre_comercial)) = lower(btrim(p_razon_social)) then p_razon_social
    else btrim(p_nombre_comercial) || ' (' || p_razon_social || ')'
  end
$$;
revoke execute on function interno.nombre_proveedor(text, text) from public, anon;
grant execute on function interno.nombre_proveedor(text, text) to authenticated, service_role;

-- Las opciones de los selectores y filtros de proveedor leen `nombre` de aquí (app/entities/proveedores.ts).
create or replace view public.proveedores_vista with (security_invoker = true) as
select p.*, interno.nombre_proveedor(p.razon_social, p.nombre_comercial) as nombre
from public.proveedores p;

create or replace view public.gastos_vista with (security_invoker = true) as
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
         false) as puede_aprobar
from public.gastos g
left join public.proveedores p on p.id = g.proveedor_id
left join public.usuarios so on so.id = g.solicitante_id
left join public.departamentos d on d.id = g.departamento_id
left join public.sucursales s on s.id = g.sucursal_id
left join public.usuarios ap on ap.id = g.aprobador_id
left join public.usuarios apr on apr.id = g.aprobado_por_id;
