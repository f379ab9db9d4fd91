-- ---------------------------------------------------------------------------------------------
-- El flujo de un viaje: sus gastos, juntos, por las funciones de cada gasto (todas sus
-- comprobaciones, su historial y sus avisos). Todo o nada: el primer gasto que no puede hacerlo
-- deshace los demás y el mensaje dice cuál y por qué.
-- ---------------------------------------------------------------------------------------------
create function interno.viaje_para(p_id uuid, p_version integer) returns public.viajes
language plpgsql security definer set search_path = '' as $$
declare
  v public.viajes;
begin
  perform interno.exigir_sesion();
  select * into v from public.viajes where id = p_id for update;
  if not found or not (
    (select interno.es_admin()) or v.solicitante_id = (select auth.uid())
    or v.solicitante_id = any ((select interno.solicitantes_a_cargo())::uuid[])
    or exists (select 1 from public.gastos g where g.viaje_id = v.id and g.estado <> 'borrador'
                and interno.puede_ver_gasto(g.solicitante_id, g.aprobador_id, g.departamento_id, g.estado))) then
    raise exception using errcode = 'OFNTF', detail = '', message = 'El viaje no existe o no tiene acceso a él.';
  end if;
  if p_version is null or v.version <> p_version then
    raise exception using errcode = 'OFCNF', detail = 'version',
      message = 'Otra persona modificó este viaje mientras lo consultaba. Revise los datos actuales y vuelva a intentarlo.';
  end if;
  return v;
end
$$;

-- Cada gasto del viaje en p_estado, por p_accion: enviar, aprobar o rechazar (con p_motivo).
create function interno.flujo_viaje(p_id uuid, p_version integer, p_accion text, p_estado text,
  p_motivo text default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v public.viajes := interno.viaje_para(p_id, p_version);
  g record;
  v_hecho jsonb;
  v_n integer := 0;
  v_avisos text[] := '{}';
  v_estado text;
  v_mensaje text;
  v_detalle text;
begin
  if p_accion = 'enviar' and not (v.solicitante_id = (select auth.uid()) or (select interno.es_admin())) then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Solo el solicitante o un administrador pueden enviar este viaje a aprobación.';
  end if;
  if p_accion = 'rechazar' then
    p_motivo := interno.texto_requerido(p_motivo, 'motivo_rechazo', 1000, 'Escriba el motivo del rechazo.');
  end if;
  for g in
    select x.id, x.version, x.folio from public.gastos x
     where x.viaje_id = v.id and x.estado = p_estado
     order by x.fecha_gasto, x.folio
  loop
    begin
      v_hecho := case p_accion
        when 'enviar' then public.enviar_gasto(g.id, g.version, null)
        when 'aprobar' then public.aprobar_gasto(g.id, g.version)
        when 'rechazar' then public.rechazar_gasto(g.id, g.version, p_motivo)
      end;
    exception when others then
      get stacked diagnostics v_estado = returned_sqlstate, v_mensaje = message_text, v_detalle = pg_exception_detail;
      -- A gasto that cannot is a refusal of the trip as it stands, not of the person: said as
      -- invalid (a message on the page, not a 403), unless someone else changed it first.
      raise exception using errcode = case when v_estado = 'OFCNF' then 'OFCNF' else 'OFINV' end,
        detail = coalesce(v_detalle, ''),
        message = 'Gasto ' || g.folio || ': ' || v_mensaje || ' No se ha cambiado ningún gasto del viaje.';
    end;
    v_n := v_n + 1;
    -- One warning per department and month: the latest total replaces the earlier ones.
    if v_hecho ->> 'aviso' is not null then
      v_avisos := array(select a from unnest(v_avisos) a
                         where split_part(a, ':', 1) <> split_part(v_hecho ->> 'aviso', ':', 1))
                  || (v_hecho ->> 'aviso');
    end if;
  end loop;
  if v_n = 0 then
    raise exception using errcode = 'OFINV', detail = '',
      message = case p_accion
        when 'enviar' then 'El viaje no tiene gastos en borrador que enviar.'
        else 'El viaje no tiene gastos pendientes de aprobación.' end;
  end if;
  return jsonb_build_object('id', v.id, 'gastos', v_n, 'avisos', to_jsonb(v_avisos));
end
$$;

create function public.enviar_viaje(p_id uuid, p_version integer) returns jsonb language sql security definer set search_path = ''
as $$ select interno.flujo_viaje(p_id, p_version, 'enviar', 'borrador') $$;

create function public.aprobar_viaje(p_id uuid, p_version integer) returns jsonb
language sql security definer set search_path = ''
as $$ select interno.flujo_viaje(p_id, p_version, 'aprobar', 'pendiente') $$;

create function public.rechazar_viaje(p_id uuid, p_version integer, p_motivo text) returns jsonb
language sql security definer set search_path = ''
as $$ select interno.flujo_viaje(p_id, p_version, 'rechazar', 'pendiente', p_motivo) $$;

revoke all on function interno.viaje_para(uuid, integer), interno.flujo_viaje(uuid, integer, text, text, text)
  from public, anon, authenticated;
revoke all on function public.enviar_viaje(uuid, integer), public.aprobar_viaje(uuid, integer),
  public.rechazar_viaje(uuid, integer, text) from public, anon;
grant execute on function public.enviar_viaje(uuid, integer), public.aprobar_viaje(uuid, integer),
  public.rechazar_viaje(uuid, integer, text) to authenticated, service_role;
