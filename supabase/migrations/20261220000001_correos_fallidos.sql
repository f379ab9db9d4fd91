-- Correos no entregados, uno a uno: reintentar o descartar cada correo (o todos), y cuántos hay,
-- para la línea del panel de inicio de los administradores. Un correo descartado no se envía ya
-- ni aparece en la lista; su aviso sigue en la aplicación.

alter table interno.correos drop constraint correos_estado_check;
alter table interno.correos add constraint correos_estado_check
  check (estado in ('pendiente', 'enviado', 'fallido', 'descartado'));

create function interno.exigir_admin_correos() returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if not (select interno.es_admin()) then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Solo un administrador puede ver, reintentar o descartar los correos no entregados.';
  end if;
end
$$;
-- Only the security definer functions below call it (as the owner): nobody else needs it.
revoke all on function interno.exigir_admin_correos() from public, anon, authenticated;

-- p_ids: los indicados; null, todos los no entregados. Devuelve cuántos cambió.
drop function public.reintentar_correos_fallidos();
create function public.reintentar_correos_fallidos(p_ids uuid[] default null) returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  v_n integer;
begin
  perform interno.exigir_admin_correos();
  update interno.correos set estado = 'pendiente', intentos = 0, disponible_en = now(), reclamado_hasta = null
   where estado = 'fallido' and (p_ids is null or id = any (p_ids));
  get diagnostics v_n = row_count;
  return v_n;
end
$$;

create function public.descartar_correos_fallidos(p_ids uuid[]) returns integer
language plpgsql security definer
set search_path = ''
as $$
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

-- Cuántos correos no se entregaron (0 para quien no es administrador: la línea no se muestra).
create function public.correos_fallidos_pendientes() returns integer
language sql stable security definer
set search_path = ''
as $$
  select case when (select interno.es_admin())
              then (select count(*)::integer from interno.correos c where c.estado = 'fallido')
              else 0 end
$$;

revoke all on function public.reintentar_correos_fallidos(uuid[]), public.descartar_correos_fallidos(uuid[]),
  public.correos_fallidos_pendientes() from public, anon;
grant execute on function public.reintentar_correos_fallidos(uuid[]), public.descartar_correos_fallidos(uuid[]),
  public.correos_fallidos_pendientes() to authenticated, service_role;
