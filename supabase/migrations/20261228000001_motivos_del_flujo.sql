-- Qué puede hacer quien mira con un gasto y, si no puede, por qué: la misma regla con la que
-- interno.gasto_para rechaza la transición, para que la ficha ofrezca sus botones y explique los
-- que faltan sin repetir la regla fuera de la base.

-- Por qué la persona actual no puede hacer p_accion con g ahora (null: puede). El estado del
-- gasto no cuenta aquí: lo comprueba cada transición.
create function interno.motivo_no_actua(g public.gastos, p_accion text) returns text
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_admin boolean := (select interno.es_admin());
begin
  return case
    when p_accion in ('aprobar', 'rechazar') then interno.motivo_no_aprueba(v_uid, g, p_accion)
    when p_accion in ('enviar', 'retirar', 'reabrir') then
      case when not (g.solicitante_id = v_uid or v_admin) then
        case p_accion when 'enviar' then 'Solo el solicitante o un administrador pueden enviar este gasto a aprobación.'
                      else 'Solo el solicitante puede ' || p_accion || ' este gasto.' end
      end
    when p_accion = 'pagar' then
      case when not v_admin then 'Solo un administrador puede marcar gastos como pagados.'
           when g.aprobado_por_id = v_uid and not interno.permitir_admin_unico()
             then 'Usted aprobó este gasto: debe marcarlo como pagado otro administrador.'
      end
    when p_accion = 'revertir' then
      case when not v_admin then 'Solo un administrador puede revertir una aprobación.' end
    else 'Acción desconocida: ' || coalesce(p_accion, '')
  end;
end
$$;

create or replace function interno.gasto_para(p_id uuid, p_accion text) returns public.gastos
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos;
  v_no text;
begin
  if (select interno.rol_actual()) is null then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Su usuario no está activo o la sesión no es válida.';
  end if;
  select * into g from public.gastos where id = p_id for update;
  if not found or not interno.puede_ver_gasto(g.solicitante_id, g.aprobador_id, g.departamento_id, g.estado) then
    raise exception using errcode = 'OFNTF', detail = '',
      message = 'El gasto no existe o no tiene acceso a él.';
  end if;
  v_no := interno.motivo_no_actua(g, p_accion);
  if v_no is not null then
    raise exception using errcode = 'OFPRM', detail = '', message = v_no;
  end if;
  return g;
end
$$;

-- Para la ficha del gasto p_id: cada transición con el motivo por el que quien mira no puede
-- hacerla, o null si puede ({"aprobar": null, "pagar": "Solo un administrador…", …}). null si el
-- gasto no existe o no lo ve.
create function public.motivos_gasto(p_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  g public.gastos;
begin
  if (select interno.rol_actual()) is null then
    return null;
  end if;
  select * into g from public.gastos where id = p_id;
  if not found or not interno.puede_ver_gasto(g.solicitante_id, g.aprobador_id, g.departamento_id, g.estado) then
    return null;
  end if;
  return (
    select jsonb_object_agg(a.accion, interno.motivo_no_actua(g, a.accion))
    from unnest(array['enviar', 'retirar', 'reabrir', 'aprobar', 'rechazar', 'pagar', 'revertir']) as a(accion)
  );
end
$$;

revoke all on function interno.motivo_no_actua(public.gastos, text) from public, anon, authenticated;
revoke all on function public.motivos_gasto(uuid) from public, anon;
grant execute on function public.motivos_gasto(uuid) to authenticated, service_role;

-- Lo que la aplicación calculaba con ella (a quién aprueba cada uno) lo dice ahora motivos_gasto.
drop function public.alcance_aprobacion();
