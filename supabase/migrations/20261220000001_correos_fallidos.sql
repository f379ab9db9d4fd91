-- Correos no entregados, uno a uno: reintentar o descartar cada correo (o todos), y cuántos hay,
-- para la línea del panel de inicio de los administradores. Un correo descartado no se envía ya
-- ni aparece en la lista; su aviso sigue en la aplicación.
-- public.reintentar_correos_fallidos (con p_ids) está en su forma final en 20261130000001_avisos.

create function interno.exigir_admin_correos() returns void language sql stable set search_path = '' as $$
  select interno.exigir_admin('Solo un administrador puede ver, reintentar o descartar los correos no entregados.') $$;
-- Solo la llaman funciones security definer (como propietario): nadie más la necesita.
revoke all on function interno.exigir_admin_correos() from public, anon, authenticated;


create function public.descartar_correos_fallidos(p_ids uuid[]) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_n integer;
begin
  perform interno.exigir_admin_correos();
  update interno.correos set estado = 'descartado', reclamado_hasta = null
   where estado = 'fallido' and id = any (coalesce(p_ids, '{}'));
  get diagnostics v_n = row_count;
  return v_n;
end
$$;

-- El panel de inicio de cada administrador los cuenta: un índice solo de esos, pocos, en una tabla
-- que crece con cada aviso.
create index correos_fallidos_idx on interno.correos (creado_en) where estado = 'fallido';

-- Cuántos correos no se entregaron (0 para quien no es administrador: la línea no se muestra).
create function public.correos_fallidos_pendientes() returns integer
language sql stable security definer set search_path = '' as $$
  select case when (select interno.es_admin())
              then (select count(*)::integer from interno.correos c where c.estado = 'fallido')
              else 0 end
$$;

revoke all on function public.descartar_correos_fallidos(uuid[]), public.correos_fallidos_pendientes()
  from public, anon;
grant execute on function public.descartar_correos_fallidos(uuid[]), public.correos_fallidos_pendientes()
  to authenticated, service_role;
