-- Oficina: flujo de los gastos (SPEC §3) y consulta de referencias antes de eliminar.
--
-- Las funciones públicas son SECURITY DEFINER: `authenticated` no tiene privilegio para cambiar
-- estado, aprobador_id, aprobado_por_id, fecha_aprobacion, motivo_rechazo, fecha_pago ni
-- referencia_pago; solo estas funciones lo hacen, tras comprobar ellas mismas, con auth.uid(),
-- quién actúa, el estado de partida y la versión esperada (fila bloqueada con FOR UPDATE).
-- Devuelven {"id", "estado", "version", "aviso"}.

-- ---------------------------------------------------------------------------------------------
-- Auxiliares
-- ---------------------------------------------------------------------------------------------

-- ¿Ve el usuario actual este gasto? (misma regla que la política gastos_select). Nunca null.
create function interno.puede_ver_gasto(p_solicitante_id uuid, p_aprobador_id uuid, p_departamento_id uuid)
returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (select interno.rol_actual()) is not null
    and (
      (select interno.es_admin())
      or p_solicitante_id = (select auth.uid())
      or p_aprobador_id = (select auth.uid())
      or ((select interno.rol_actual()) = 'aprobador'
          and p_departamento_id = (select interno.departamento_actual()))
      or p_departamento_id = any ((select interno.departamentos_a_cargo())::uuid[])
    ),
    false)
$$;

-- ¿Puede el usuario actual aprobar o rechazar este gasto? Nunca el solicitante. Nunca null.
create function interno.puede_aprobar_gasto(p_solicitante_id uuid, p_aprobador_id uuid, p_departamento_id uuid)
returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (select interno.rol_actual()) is not null
    and p_solicitante_id <> (select auth.uid())
    and (
      (select interno.es_admin())
      or p_aprobador_id = (select auth.uid())
      or p_departamento_id = any ((select interno.departamentos_a_cargo())::uuid[])
      or ((select interno.rol_actual()) = 'aprobador'
          and p_departamento_id = (select interno.departamento_actual()))
    ),
    false)
$$;

-- Bloquea el gasto para una transición. OFPRM sin usuario activo; OFNTF si no existe o no lo ve.
create function interno.bloquear_gasto(p_id uuid) returns public.gastos
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos;
begin
  if (select interno.rol_actual()) is null then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Su usuario no está activo o la sesión no es válida.';
  end if;
  select * into g from public.gastos where id = p_id for update;
  if not found or not interno.puede_ver_gasto(g.solicitante_id, g.aprobador_id, g.departamento_id) then
    raise exception using errcode = 'OFNTF', detail = '',
      message = 'El gasto no existe o no tiene acceso a él.';
  end if;
  return g;
end
$$;

-- OFCNF si el gasto ya no está en el estado de partida o su versión no es la esperada.
create function interno.comprobar_transicion(g public.gastos, p_version integer, p_desde text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if g.estado <> p_desde then
    raise exception using errcode = 'OFCNF', detail = 'estado',
      message = 'El gasto ya no está ' || case p_desde
        when 'borrador' then 'en borrador'
        when 'pendiente' then 'pendiente de aprobación'
        else p_desde end
        || ': otra persona lo ha cambiado.';
  end if;
  if p_version is null or g.version <> p_version then
    raise exception using errcode = 'OFCNF', detail = 'version',
      message = 'Otra persona modificó este gasto mientras lo consultaba. Revise los datos actuales y vuelva a intentarlo.';
  end if;
end
$$;

create function interno.texto_requerido(p_valor text, p_columna text, p_maximo integer, p_mensaje text)
returns text
language plpgsql
set search_path = ''
as $$
declare
  v text := nullif(btrim(coalesce(p_valor, '')), '');
begin
  if v is null then
    raise exception using errcode = 'OFINV', detail = p_columna, message = p_mensaje;
  end if;
  if char_length(v) > p_maximo then
    raise exception using errcode = 'OFINV', detail = p_columna,
      message = 'El texto es demasiado largo: como máximo ' || p_maximo || ' caracteres.';
  end if;
  return v;
end
$$;

create function interno.resultado_gasto(g public.gastos, p_aviso text) returns jsonb
language sql immutable
set search_path = ''
as $$
  select jsonb_build_object('id', g.id, 'estado', g.estado, 'version', g.version, 'aviso', p_aviso)
$$;

-- Aprobador al enviar: aprobador_id del solicitante (activo, con rol aprobador o administrador)
-- → responsable del departamento del gasto → responsables de los departamentos superiores →
-- cualquier administrador activo. Nunca el propio solicitante; null si no hay nadie.
create function interno.elegir_aprobador(p_solicitante_id uuid, p_departamento_id uuid) returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_aprobador uuid;
  v_departamento uuid := p_departamento_id;
  v_responsable uuid;
  v_padre uuid;
  v_vueltas integer := 0;
begin
  select a.id into v_aprobador
  from public.usuarios s
  join public.usuarios a on a.id = s.aprobador_id
  where s.id = p_solicitante_id and a.id <> p_solicitante_id and a.activo
    and a.rol in ('aprobador', 'administrador');
  if v_aprobador is not null then
    return v_aprobador;
  end if;

  while v_departamento is not null and v_vueltas < 100 loop
    select d.responsable_id, d.departamento_padre_id into v_responsable, v_padre
    from public.departamentos d where d.id = v_departamento;
    if v_responsable is not null and v_responsable <> p_solicitante_id
       and exists (select 1 from public.usuarios u where u.id = v_responsable and u.activo) then
      return v_responsable;
    end if;
    v_departamento := v_padre;
    v_vueltas := v_vueltas + 1;
  end loop;

  select u.id into v_aprobador
  from public.usuarios u
  where u.rol = 'administrador' and u.activo and u.id <> p_solicitante_id
  order by u.creado_en, u.id
  limit 1;
  return v_aprobador;
end
$$;

create function interno.formato_importe(p_importe numeric) returns text
language sql immutable
set search_path = ''
as $$
  select translate(to_char(p_importe, 'FM999,999,999,990.00'), ',.', '.,')
$$;

-- Aviso si lo aprobado (aprobado + pagado) del departamento en el mes de fecha_gasto supera su
-- presupuesto mensual.
create function interno.aviso_presupuesto(p_departamento_id uuid, p_fecha date) returns text
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_nombre text;
  v_presupuesto numeric;
  v_total numeric;
  v_meses text[] := array['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio',
                          'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];
begin
  select d.nombre, d.presupuesto_mensual into v_nombre, v_presupuesto
  from public.departamentos d where d.id = p_departamento_id;
  if v_presupuesto is null then
    return null;
  end if;
  select coalesce(sum(g.importe), 0) into v_total
  from public.gastos g
  where g.departamento_id = p_departamento_id
    and g.estado in ('aprobado', 'pagado')
    and g.fecha_gasto >= date_trunc('month', p_fecha)::date
    and g.fecha_gasto < (date_trunc('month', p_fecha) + interval '1 month')::date;
  if v_total <= v_presupuesto then
    return null;
  end if;
  return 'El departamento ' || v_nombre || ' supera su presupuesto mensual de '
    || v_meses[extract(month from p_fecha)::integer] || ' de ' || extract(year from p_fecha)::integer
    || ': ' || interno.formato_importe(v_total) || ' aprobados frente a un presupuesto de '
    || interno.formato_importe(v_presupuesto) || '.';
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Transiciones
-- ---------------------------------------------------------------------------------------------

-- borrador → pendiente: solicitante o administrador; asigna el aprobador.
create function public.enviar_gasto(p_id uuid, p_version integer) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos := interno.bloquear_gasto(p_id);
  v_aprobador uuid;
begin
  if not (g.solicitante_id = (select auth.uid()) or (select interno.es_admin())) then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Solo el solicitante o un administrador pueden enviar este gasto a aprobación.';
  end if;
  perform interno.comprobar_transicion(g, p_version, 'borrador');
  v_aprobador := interno.elegir_aprobador(g.solicitante_id, g.departamento_id);
  if v_aprobador is null then
    raise exception using errcode = 'OFINV', detail = 'aprobador_id',
      message = 'No hay nadie que pueda aprobar este gasto: pida a un administrador que asigne un responsable al departamento.';
  end if;
  update public.gastos
     set estado = 'pendiente', aprobador_id = v_aprobador, aprobado_por_id = null,
         fecha_aprobacion = null, motivo_rechazo = null
   where id = g.id
  returning * into g;
  return interno.resultado_gasto(g, null);
end
$$;

-- pendiente → borrador: solicitante (o administrador).
create function public.retirar_gasto(p_id uuid, p_version integer) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos := interno.bloquear_gasto(p_id);
begin
  if not (g.solicitante_id = (select auth.uid()) or (select interno.es_admin())) then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Solo el solicitante puede retirar este gasto.';
  end if;
  perform interno.comprobar_transicion(g, p_version, 'pendiente');
  update public.gastos
     set estado = 'borrador', aprobador_id = null
   where id = g.id
  returning * into g;
  return interno.resultado_gasto(g, null);
end
$$;

-- pendiente → aprobado: aprobador asignado, responsable del departamento, aprobador del
-- departamento o administrador; nunca el solicitante. Aviso si se supera el presupuesto.
create function public.aprobar_gasto(p_id uuid, p_version integer) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos := interno.bloquear_gasto(p_id);
begin
  if g.solicitante_id = (select auth.uid()) then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'No puede aprobar sus propios gastos.';
  end if;
  if not interno.puede_aprobar_gasto(g.solicitante_id, g.aprobador_id, g.departamento_id) then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'No tiene permiso para aprobar este gasto.';
  end if;
  perform interno.comprobar_transicion(g, p_version, 'pendiente');
  update public.gastos
     set estado = 'aprobado', aprobado_por_id = (select auth.uid()), fecha_aprobacion = now(),
         motivo_rechazo = null
   where id = g.id
  returning * into g;
  return interno.resultado_gasto(g, interno.aviso_presupuesto(g.departamento_id, g.fecha_gasto));
end
$$;

-- pendiente → rechazado: mismos actores que aprobar; motivo obligatorio.
create function public.rechazar_gasto(p_id uuid, p_version integer, p_motivo text) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos := interno.bloquear_gasto(p_id);
  v_motivo text;
begin
  if g.solicitante_id = (select auth.uid()) then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'No puede rechazar sus propios gastos.';
  end if;
  if not interno.puede_aprobar_gasto(g.solicitante_id, g.aprobador_id, g.departamento_id) then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'No tiene permiso para rechazar este gasto.';
  end if;
  v_motivo := interno.texto_requerido(p_motivo, 'motivo_rechazo', 1000,
    'Escriba el motivo del rechazo.');
  perform interno.comprobar_transicion(g, p_version, 'pendiente');
  update public.gastos
     set estado = 'rechazado', motivo_rechazo = v_motivo, aprobado_por_id = null,
         fecha_aprobacion = null
   where id = g.id
  returning * into g;
  return interno.resultado_gasto(g, null);
end
$$;

-- rechazado → borrador: solicitante (o administrador). Se conserva el motivo hasta reenviar.
create function public.reabrir_gasto(p_id uuid, p_version integer) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos := interno.bloquear_gasto(p_id);
begin
  if not (g.solicitante_id = (select auth.uid()) or (select interno.es_admin())) then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Solo el solicitante puede reabrir este gasto.';
  end if;
  perform interno.comprobar_transicion(g, p_version, 'rechazado');
  update public.gastos
     set estado = 'borrador', aprobador_id = null
   where id = g.id
  returning * into g;
  return interno.resultado_gasto(g, null);
end
$$;

-- aprobado → pagado: administrador; fecha y referencia obligatorias.
create function public.pagar_gasto(p_id uuid, p_version integer, p_fecha_pago date, p_referencia text)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos := interno.bloquear_gasto(p_id);
  v_referencia text;
begin
  if not (select interno.es_admin()) then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Solo un administrador puede marcar gastos como pagados.';
  end if;
  if p_fecha_pago is null then
    raise exception using errcode = 'OFINV', detail = 'fecha_pago',
      message = 'Indique la fecha de pago.';
  end if;
  if p_fecha_pago > current_date + 1 then
    raise exception using errcode = 'OFINV', detail = 'fecha_pago',
      message = 'La fecha de pago no puede ser futura.';
  end if;
  if p_fecha_pago < g.fecha_gasto then
    raise exception using errcode = 'OFINV', detail = 'fecha_pago',
      message = 'La fecha de pago no puede ser anterior a la fecha del gasto.';
  end if;
  v_referencia := interno.texto_requerido(p_referencia, 'referencia_pago', 100,
    'Escriba la referencia del pago, por ejemplo el número de la transferencia.');
  perform interno.comprobar_transicion(g, p_version, 'aprobado');
  update public.gastos
     set estado = 'pagado', fecha_pago = p_fecha_pago, referencia_pago = v_referencia
   where id = g.id
  returning * into g;
  return interno.resultado_gasto(g, null);
end
$$;

-- aprobado → pendiente: administrador; motivo obligatorio (queda en motivo_rechazo y en el
-- historial). Vuelve al mismo aprobador.
create function public.revertir_gasto(p_id uuid, p_version integer, p_motivo text) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos := interno.bloquear_gasto(p_id);
  v_motivo text;
begin
  if not (select interno.es_admin()) then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Solo un administrador puede revertir una aprobación.';
  end if;
  v_motivo := interno.texto_requerido(p_motivo, 'motivo_rechazo', 1000,
    'Escriba el motivo para revertir la aprobación.');
  perform interno.comprobar_transicion(g, p_version, 'aprobado');
  update public.gastos
     set estado = 'pendiente', motivo_rechazo = v_motivo, aprobado_por_id = null,
         fecha_aprobacion = null
   where id = g.id
  returning * into g;
  return interno.resultado_gasto(g, null);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Referencias: qué impide eliminar un registro («tiene N gastos asociados»).
-- Devuelve un array jsonb [{"tabla": "gastos", "total": 2}, …] solo con totales > 0 ([] = se
-- puede eliminar). jsonb y no `returns table` para que `rpc` dé lo mismo por PostgREST que por
-- `select public.referencias(...)` en el adaptador SQL. Cuenta todas las filas (también las que
-- el usuario no ve): solo revela un número. Solo para usuarios activos.
-- ---------------------------------------------------------------------------------------------

create function public.referencias(p_tabla text, p_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_cuentas jsonb;
begin
  if (select interno.rol_actual()) is null then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Su usuario no está activo o la sesión no es válida.';
  end if;
  if p_tabla = 'departamentos' then
    v_cuentas := jsonb_build_array(
      jsonb_build_object('tabla', 'gastos', 'total', (select count(*) from public.gastos g where g.departamento_id = p_id)),
      jsonb_build_object('tabla', 'usuarios', 'total', (select count(*) from public.usuarios u where u.departamento_id = p_id)),
      jsonb_build_object('tabla', 'departamentos', 'total', (select count(*) from public.departamentos d where d.departamento_padre_id = p_id)));
  elsif p_tabla = 'sucursales' then
    v_cuentas := jsonb_build_array(
      jsonb_build_object('tabla', 'gastos', 'total', (select count(*) from public.gastos g where g.sucursal_id = p_id)),
      jsonb_build_object('tabla', 'usuarios', 'total', (select count(*) from public.usuarios u where u.sucursal_id = p_id)));
  elsif p_tabla = 'proveedores' then
    v_cuentas := jsonb_build_array(
      jsonb_build_object('tabla', 'gastos', 'total', (select count(*) from public.gastos g where g.proveedor_id = p_id)));
  elsif p_tabla = 'usuarios' then
    v_cuentas := jsonb_build_array(
      jsonb_build_object('tabla', 'gastos', 'total', (select count(*) from public.gastos g
        where g.solicitante_id = p_id or g.aprobador_id = p_id or g.aprobado_por_id = p_id)),
      jsonb_build_object('tabla', 'usuarios', 'total', (select count(*) from public.usuarios u where u.aprobador_id = p_id)),
      jsonb_build_object('tabla', 'departamentos', 'total', (select count(*) from public.departamentos d where d.responsable_id = p_id)),
      jsonb_build_object('tabla', 'sucursales', 'total', (select count(*) from public.sucursales s where s.responsable_id = p_id)));
  elsif p_tabla = 'gastos' then
    v_cuentas := '[]'::jsonb;
  else
    raise exception using errcode = 'OFINV', detail = '',
      message = 'Tabla desconocida: ' || coalesce(p_tabla, '');
  end if;
  return coalesce(
    (select jsonb_agg(e order by ord) from jsonb_array_elements(v_cuentas) with ordinality as x (e, ord)
     where (e ->> 'total')::bigint > 0),
    '[]'::jsonb);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Privilegios: nada para public/anon; las funciones del flujo, para authenticated.
-- ---------------------------------------------------------------------------------------------

revoke execute on all functions in schema interno from public, anon, authenticated;
revoke execute on all functions in schema public from public, anon, authenticated;

grant execute on function
  interno.rol_actual(), interno.es_admin(), interno.departamento_actual(), interno.departamentos_a_cargo()
  to authenticated, service_role;

grant execute on function
  public.enviar_gasto(uuid, integer),
  public.retirar_gasto(uuid, integer),
  public.aprobar_gasto(uuid, integer),
  public.rechazar_gasto(uuid, integer, text),
  public.reabrir_gasto(uuid, integer),
  public.pagar_gasto(uuid, integer, date, text),
  public.revertir_gasto(uuid, integer, text),
  public.referencias(text, uuid)
  to authenticated, service_role;
