-- Oficina: flujo de los gastos (docs/producto.md «El flujo»), separación de funciones (ADR 0012) y consulta de
-- referencias antes de eliminar.
--
-- Las funciones públicas son SECURITY DEFINER: `authenticated` no tiene privilegio para cambiar
-- estado, aprobador_id, aprobado_por_id, fecha_aprobacion, motivo_rechazo, fecha_pago ni
-- referencia_pago; solo estas funciones lo hacen, tras comprobar ellas mismas, con auth.uid(),
-- quién actúa, el estado de partida y la versión esperada (fila bloqueada con FOR UPDATE).
-- Devuelven {"id", "estado", "version", "aviso"}.
--
-- Separación de funciones:
-- 1. Quién aprueba lo decide el SOLICITANTE, nunca el departamento (centro de coste) elegido en el
--    gasto: su aprobador_id, los responsables de su departamento y de los superiores, un
--    aprobador de su departamento; un administrador aprueba todo salvo lo suyo. El aprobador
--    asignado al enviar sale de esa misma regla.
-- 2. Solo aprueba quien, al actuar, está activo y tiene rol aprobador o administrador (leído aquí
--    de usuarios, no de la sesión). Un empleado no aprueba nada, aunque sea responsable de un
--    departamento (docs/producto.md «Roles»). Al bajar a alguien a empleado o desactivarlo, sus pendientes se
--    reasignan en el acto (disparador en usuarios: ningún camino se lo salta), con historial.
-- 3. Quien creó el gasto o lo editó el último en nombre de otra persona no lo aprueba ni lo
--    rechaza (gastos.creado_por_id y gastos.editado_por_id, que pone gastos_validar).
-- 4. Ni quien lo pidió ni quien lo aprobó lo marca como pagado, salvo que la instalación lo permita
--    (interno.ajustes.permitir_admin_unico, PERMITIR_ADMIN_UNICO=1); entonces queda en el historial.
--    El ajuste vive en una tabla que solo el propietario escribe: ningún cliente (ni con su propio
--    JWT por PostgREST) puede decidirlo. El servidor SQL lo fija al arrancar
--    (app/data/ajustes.server.ts); en Supabase se fija a mano (docs/supabase.md).
--
-- La regla de quién aprueba está escrita una vez aquí para las funciones del flujo
-- (interno.motivo_no_aprueba) y, con los mismos términos, como expresión para las listas
-- (gastos_vista.puede_aprobar, el panel): tests/integration/separacion-funciones.test.ts comprueba
-- que coinciden.

-- ---------------------------------------------------------------------------------------------
-- Ajustes de la instalación (una fila; solo el propietario)
-- ---------------------------------------------------------------------------------------------

create table interno.ajustes (
  unica boolean primary key default true
    constraint ajustes_unica_check check (unica),
  permitir_admin_unico boolean not null default false,
  actualizado_en timestamptz not null default now()
);
insert into interno.ajustes default values;
alter table interno.ajustes enable row level security; -- sin políticas: nadie salvo el propietario
revoke all on interno.ajustes from public, anon, authenticated;

create function interno.permitir_admin_unico() returns boolean language sql stable security definer set search_path = '' as $$
  select coalesce((select a.permitir_admin_unico from interno.ajustes a where a.unica), false)
$$;

-- ---------------------------------------------------------------------------------------------
-- Quién ve y quién aprueba
-- ---------------------------------------------------------------------------------------------

-- ¿Ve el usuario actual este gasto? La misma regla que la política gastos_select (los borradores,
-- solo su solicitante y los administradores), para la fila bloqueada como propietario (una
-- política no se puede llamar). Nunca null.
create function interno.puede_ver_gasto(p_solicitante_id uuid, p_aprobador_id uuid, p_departamento_id uuid,
  p_estado text)
returns boolean language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select interno.rol_actual()) is not null
    and (
      (select interno.es_admin())
      or p_solicitante_id = (select auth.uid())
      or (p_estado <> 'borrador'
          and (p_aprobador_id = (select auth.uid())
               or ((select interno.rol_actual()) = 'aprobador'
                   and p_departamento_id = (select interno.departamento_actual()))
               or p_departamento_id = any ((select interno.departamentos_a_cargo())::uuid[])
               or p_solicitante_id = any ((select interno.solicitantes_a_cargo())::uuid[])))
    ),
    false)
$$;

-- Por qué p_actor NO puede aprobar (p_accion 'aprobar') o rechazar ('rechazar') este gasto
-- ahora; null si puede. Rol y estado leídos aquí, al actuar. p_asignado: cuenta ser el aprobador
-- asignado (false para decidir a quién se asigna: ahí solo vale la regla del solicitante).
create function interno.motivo_no_aprueba(p_actor uuid, g public.gastos, p_accion text default 'aprobar', p_asignado boolean default true)
returns text language plpgsql stable security definer set search_path = '' as $$
declare
  v_rol text;
  v_solicitante text;
begin
  select u.rol into v_rol from public.usuarios u where u.id = p_actor and u.activo;
  if v_rol is null then
    return 'Su usuario no está activo o la sesión no es válida.';
  end if;
  if g.solicitante_id = p_actor then
    return 'No puede ' || p_accion || ' sus propios gastos.';
  end if;
  if v_rol not in ('aprobador', 'administrador') then
    return 'Su rol es empleado: no puede ' || p_accion || ' gastos. Si cree que debería, hable con un administrador.';
  end if;
  select coalesce(interno.nombre_completo(s.nombre, s.apellidos), s.email) into v_solicitante
    from public.usuarios s where s.id = g.solicitante_id;
  -- Never a null message: null means «may approve».
  v_solicitante := coalesce(v_solicitante, 'el solicitante');
  if g.creado_por_id = p_actor then
    return 'Usted creó este gasto en nombre de ' || v_solicitante || ': debe ' || p_accion || 'lo otra persona.';
  end if;
  if g.editado_por_id = p_actor then
    return 'Usted editó este gasto en nombre de ' || v_solicitante || ': debe ' || p_accion || 'lo otra persona.';
  end if;
  if v_rol = 'administrador'
     or (p_asignado and g.aprobador_id = p_actor)
     or g.solicitante_id = any (interno.solicitantes_de(p_actor)) then
    return null;
  end if;
  return 'No tiene permiso para ' || p_accion || ' este gasto: lo ' || case p_accion when 'aprobar' then 'aprueban' else 'rechazan' end
    || ' el aprobador de ' || v_solicitante || ', los responsables de su departamento o un administrador.';
end
$$;

-- Aprobador al enviar, por el solicitante: su aprobador_id → el responsable de SU departamento →
-- los de los superiores → el administrador activo más antiguo. Cada candidato, activo y con rol
-- aprobador o administrador; nunca el solicitante ni nadie de p_excluidos (quien creó o editó el
-- gasto en su nombre, o a quien se le quita). null si no hay nadie.
create function interno.elegir_aprobador(p_solicitante_id uuid, p_excluidos uuid[] default '{}')
returns uuid language plpgsql stable security definer set search_path = '' as $$
declare
  v_excluidos uuid[] := array_remove(coalesce(p_excluidos, '{}') || p_solicitante_id, null);
  v_aprobador uuid;
  v_departamento uuid;
  v_responsable uuid;
  v_padre uuid;
  v_vueltas integer := 0;
begin
  select a.id, s.departamento_id into v_aprobador, v_departamento
  from public.usuarios s
  left join public.usuarios a on a.id = s.aprobador_id and a.activo
    and a.rol in ('aprobador', 'administrador') and a.id <> all (v_excluidos)
  where s.id = p_solicitante_id;
  if v_aprobador is not null then
    return v_aprobador;
  end if;

  while v_departamento is not null and v_vueltas < 100 loop
    select d.responsable_id, d.departamento_padre_id into v_responsable, v_padre
    from public.departamentos d where d.id = v_departamento;
    if v_responsable is not null and v_responsable <> all (v_excluidos)
       and exists (select 1 from public.usuarios u where u.id = v_responsable and u.activo
                   and u.rol in ('aprobador', 'administrador')) then
      return v_responsable;
    end if;
    v_departamento := v_padre;
    v_vueltas := v_vueltas + 1;
  end loop;

  select u.id into v_aprobador
  from public.usuarios u
  where u.rol = 'administrador' and u.activo and u.id <> all (v_excluidos)
  order by u.creado_en, u.id
  limit 1;
  return v_aprobador;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Auxiliares de las transiciones
-- ---------------------------------------------------------------------------------------------

-- interno.gasto_para: el gasto p_id, bloqueado (FOR UPDATE), para que el usuario actual haga
-- p_accion. OFPRM sin usuario activo; OFNTF si no existe o no lo ve; OFPRM si no es quien puede
-- hacer p_accion (interno.motivo_no_actua, más abajo):
--   enviar, retirar, reabrir   el solicitante o un administrador
--   aprobar, rechazar          interno.motivo_no_aprueba
--   pagar                      un administrador que ni lo pidió ni lo aprobó (o sí, si la instalación
--                              lo permite: interno.nota_pago_propio)
--   revertir                   un administrador
-- Por qué la persona actual no puede hacer p_accion con g ahora (null: puede). El estado del
-- gasto no cuenta aquí: lo comprueba cada transición. La misma regla rechaza la transición
-- (interno.gasto_para) y explica en la ficha los botones que faltan (public.motivos_gasto,
-- 20261228000001_motivos_del_flujo), sin repetirla fuera de la base.
create function interno.motivo_no_actua(g public.gastos, p_accion text) returns text
language plpgsql stable security definer set search_path = '' as $$
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
           when interno.permitir_admin_unico() then null
           when g.solicitante_id = v_uid then 'Es un gasto suyo: debe marcarlo como pagado otro administrador.'
           when g.aprobado_por_id = v_uid then 'Usted aprobó este gasto: debe marcarlo como pagado otro administrador.'
      end
    when p_accion = 'revertir' then
      case when not v_admin then 'Solo un administrador puede revertir una aprobación.' end
    else 'Acción desconocida: ' || coalesce(p_accion, '')
  end;
end
$$;

-- Quien llama tiene un usuario activo (interno.rol_actual); si no, OFPRM. Lo primero que
-- comprueban las funciones que actúan en su nombre (los gastos aquí; los viajes, las remesas y el
-- libro diario después), con el mismo mensaje.
create function interno.exigir_sesion() returns void language plpgsql stable security definer set search_path = '' as $$
begin
  if (select interno.rol_actual()) is null then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Su usuario no está activo o la sesión no es válida.';
  end if;
end
$$;
revoke all on function interno.exigir_sesion() from public, anon, authenticated;

create function interno.gasto_para(p_id uuid, p_accion text) returns public.gastos
language plpgsql security definer set search_path = '' as $$
declare
  g public.gastos;
  v_no text;
begin
  perform interno.exigir_sesion();
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

-- La transición de g (de gasto_para) desde el estado p_desde: OFCNF si el gasto ya no está en él
-- o su versión no es p_version; si no, aplica p_cambios (columnas del flujo → valor), con
-- p_nota en su entrada del historial. Al aprobar, avisa si el departamento supera su presupuesto.
-- Las columnas del flujo incluyen lo que se incumplía al enviarlo y su motivo
-- (20261219000001_politicas): solo enviar los cambia; en las demás, jsonb_populate_record deja
-- los que había.
create function interno.transicion(g public.gastos, p_version integer, p_desde text, p_cambios jsonb,
  p_nota text default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  n public.gastos := jsonb_populate_record(g, p_cambios);
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
  perform set_config('oficina.nota_historial', coalesce(p_nota, ''), true);
  update public.gastos
     set estado = n.estado, aprobador_id = n.aprobador_id, aprobado_por_id = n.aprobado_por_id,
         fecha_aprobacion = n.fecha_aprobacion, motivo_rechazo = n.motivo_rechazo,
         fecha_pago = n.fecha_pago, referencia_pago = n.referencia_pago,
         politica_incumplida = n.politica_incumplida, motivo_politica = n.motivo_politica
   where id = g.id
  returning * into n;
  perform set_config('oficina.nota_historial', '', true);
  return jsonb_build_object('id', n.id, 'estado', n.estado, 'version', n.version, 'aviso',
    case when n.estado = 'aprobado' then interno.aviso_presupuesto(n.departamento_id, n.fecha_gasto) end);
end
$$;

create function interno.texto_requerido(p_valor text, p_columna text, p_maximo integer, p_mensaje text)
returns text language plpgsql set search_path = '' as $$
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

-- El mes de una fecha, como lo dicen los avisos: «marzo de 2026».
create function interno.mes_y_anio(p_fecha date) returns text language sql immutable set search_path = '' as $$
  select (array['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre',
                'octubre', 'noviembre', 'diciembre'])[extract(month from p_fecha)::integer]
         || ' de ' || extract(year from p_fecha)::integer
$$;
revoke all on function interno.mes_y_anio(date) from public, anon, authenticated;
-- Los avisos antes de aprobar (20261215000001_antes_de_aprobar) son de quien los pide (security
-- invoker) y lo usan.
grant execute on function interno.mes_y_anio(date) to authenticated, service_role;

-- 1234.5 → «1.234,50», para los mensajes (que añaden « €»).
create function interno.euros(p_importe numeric) returns text language sql immutable set search_path = ''
as $$ select translate(to_char(p_importe, 'FM999,999,999,990.00'), ',.', '.,') $$;

-- Aviso si lo aprobado (aprobado + pagado) del departamento en el mes de fecha_gasto supera su
-- presupuesto mensual (en su tabla aparte, departamentos_presupuesto:
-- 20261226000001_datos_por_necesidad).
create function interno.aviso_presupuesto(p_departamento_id uuid, p_fecha date) returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  v_nombre text;
  v_presupuesto numeric;
  v_total numeric;
begin
  select d.nombre, dp.presupuesto_mensual into v_nombre, v_presupuesto
  from public.departamentos d
  left join public.departamentos_presupuesto dp on dp.id = d.id
  where d.id = p_departamento_id;
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
  return 'El departamento ' || v_nombre || ' supera su presupuesto mensual de ' || interno.mes_y_anio(p_fecha)
    || ': ' || interno.euros(v_total) || ' € aprobados frente a un presupuesto de '
    || interno.euros(v_presupuesto) || ' €.';
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Transiciones
-- ---------------------------------------------------------------------------------------------

-- borrador → pendiente: solicitante o administrador; asigna el aprobador (interno.elegir_aprobador).
-- Con justificante desde el importe que fije la instalación (salvo un kilometraje o una dieta, que
-- no lo llevan), con un motivo si uno de ellos está también en otro gasto (ADR 0018), y con un
-- motivo (p_motivo_politica) si el gasto se sale de la política de gastos, que queda en el gasto
-- para quien lo aprueba. Esas comprobaciones usan las tablas y las funciones de
-- 20261127000001_justificantes, 20261219000001_politicas y 20261224000001_viajes, posteriores:
-- plpgsql resuelve los nombres al ejecutarse.
create function public.enviar_gasto(p_id uuid, p_version integer, p_motivo_duplicado text default null,
  p_motivo_politica text default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  g public.gastos := interno.gasto_para(p_id, 'enviar');
  v_aprobador uuid := interno.elegir_aprobador(g.solicitante_id, array[g.creado_por_id, g.editado_por_id]);
  v_falta text := interno.falta_justificante(g.importe, g.clase,
    (select count(*) from public.justificantes j where j.gasto_id = g.id));
  v_motivo text := nullif(btrim(p_motivo_duplicado), '');
  v_motivo_politica text := nullif(btrim(p_motivo_politica), '');
  v_fuera text[];
  v_duplicado boolean;
  v_hecho jsonb;
begin
  if v_falta is not null then
    raise exception using errcode = 'OFINV', detail = 'justificantes', message = v_falta;
  end if;
  v_duplicado := exists (select 1 from public.justificantes j
                          where j.gasto_id = g.id and interno.contenido_en_otro_gasto(j.sha256, g.id));
  if v_duplicado and v_motivo is null then
    raise exception using errcode = 'OFINV', detail = 'motivo_duplicado',
      message = 'Un justificante de este gasto ya está adjunto a otro gasto: indique el motivo del duplicado para enviarlo a aprobación.';
  end if;
  if v_duplicado and char_length(v_motivo) > 500 then
    raise exception using errcode = 'OFINV', detail = 'motivo_duplicado',
      message = 'El motivo del duplicado admite como mucho 500 caracteres.';
  end if;
  v_fuera := interno.incumplimientos_politica(g);
  if cardinality(v_fuera) > 0 and v_motivo_politica is null then
    raise exception using errcode = 'OFINV', detail = 'motivo_politica',
      message = 'El gasto ' || g.folio || ' se sale de la política de gastos: ' || v_fuera[1]
        || ' Indique el motivo para enviarlo a aprobación.';
  end if;
  if cardinality(v_fuera) > 0 and char_length(v_motivo_politica) > 500 then
    raise exception using errcode = 'OFINV', detail = 'motivo_politica',
      message = 'El motivo admite como mucho 500 caracteres.';
  end if;
  if v_aprobador is null then
    raise exception using errcode = 'OFINV', detail = 'aprobador_id',
      message = 'No hay nadie que pueda aprobar este gasto: pida a un administrador que asigne un responsable al departamento.';
  end if;
  v_hecho := interno.transicion(g, p_version, 'borrador', jsonb_build_object('estado', 'pendiente',
    'aprobador_id', v_aprobador, 'aprobado_por_id', null, 'fecha_aprobacion', null, 'motivo_rechazo', null,
    'politica_incumplida', case when cardinality(v_fuera) > 0 then to_jsonb(v_fuera) end,
    'motivo_politica', case when cardinality(v_fuera) > 0 then v_motivo_politica end));
  if v_duplicado then
    insert into public.historial (tabla, registro_id, accion, actor_id, cambios)
    values ('gastos', g.id, 'modificacion', (select auth.uid()),
      jsonb_build_object('motivo_duplicado', jsonb_build_object('antes', null, 'despues', v_motivo)));
  end if;
  return v_hecho;
end
$$;

-- pendiente → borrador: solicitante (o administrador).
create function public.retirar_gasto(p_id uuid, p_version integer) returns jsonb
language sql security definer set search_path = '' as $$
  select interno.transicion(interno.gasto_para(p_id, 'retirar'), p_version, 'pendiente',
    '{"estado": "borrador", "aprobador_id": null}')
$$;

-- pendiente → aprobado: quien puede aprobarlo (interno.motivo_no_aprueba). Aviso si el
-- departamento supera su presupuesto.
create function public.aprobar_gasto(p_id uuid, p_version integer) returns jsonb
language sql security definer set search_path = '' as $$
  select interno.transicion(interno.gasto_para(p_id, 'aprobar'), p_version, 'pendiente',
    jsonb_build_object('estado', 'aprobado', 'aprobado_por_id', (select auth.uid()), 'fecha_aprobacion', now(),
      'motivo_rechazo', null))
$$;

-- pendiente → rechazado: quien puede aprobarlo; motivo obligatorio.
create function public.rechazar_gasto(p_id uuid, p_version integer, p_motivo text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  g public.gastos := interno.gasto_para(p_id, 'rechazar');
begin
  return interno.transicion(g, p_version, 'pendiente', jsonb_build_object('estado', 'rechazado',
    'motivo_rechazo', interno.texto_requerido(p_motivo, 'motivo_rechazo', 1000, 'Escriba el motivo del rechazo.'),
    'aprobado_por_id', null, 'fecha_aprobacion', null));
end
$$;

-- rechazado → borrador: solicitante (o administrador). Se conserva el motivo hasta reenviar.
create function public.reabrir_gasto(p_id uuid, p_version integer) returns jsonb
language sql security definer set search_path = '' as $$
  select interno.transicion(interno.gasto_para(p_id, 'reabrir'), p_version, 'rechazado',
    '{"estado": "borrador", "aprobador_id": null}')
$$;

-- La nota del historial cuando quien paga es quien pidió o aprobó el gasto: solo con
-- PERMITIR_ADMIN_UNICO (interno.motivo_no_actua lo rechaza si no), y así queda dicho.
create function interno.nota_pago_propio(g public.gastos) returns text
language sql stable security definer set search_path = '' as $$
  select case (select auth.uid())
           when g.solicitante_id then 'Lo pidió y lo marcó como pagado la misma persona'
           when g.aprobado_por_id then 'Lo aprobó y lo marcó como pagado la misma persona'
         end || ': lo permite esta instalación (PERMITIR_ADMIN_UNICO=1).'
$$;
revoke all on function interno.nota_pago_propio(public.gastos) from public, anon, authenticated;

-- aprobado → pagado: administrador que ni lo pidió ni lo aprobó (o, si la instalación lo permite,
-- también quien lo hizo, y queda dicho en el historial); fecha y referencia obligatorias. La fecha es la
-- fecha valor del pago, que puede ser futura (una transferencia programada, la fecha valor que dará
-- el banco): como mucho un año después de hoy (el día de la oficina, interno.hoy), para que una
-- errata en el año no deje el gasto pagado en otra década.
create function public.pagar_gasto(p_id uuid, p_version integer, p_fecha_pago date, p_referencia text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  g public.gastos := interno.gasto_para(p_id, 'pagar');
begin
  if p_fecha_pago is null then
    raise exception using errcode = 'OFINV', detail = 'fecha_pago',
      message = 'Indique la fecha de pago.';
  end if;
  if p_fecha_pago > (interno.hoy() + interval '1 year')::date then
    raise exception using errcode = 'OFINV', detail = 'fecha_pago',
      message = 'La fecha de pago puede ser futura (la fecha valor), pero como mucho dentro de un año.';
  end if;
  if p_fecha_pago < g.fecha_gasto then
    raise exception using errcode = 'OFINV', detail = 'fecha_pago',
      message = 'La fecha de pago no puede ser anterior a la fecha del gasto.';
  end if;
  return interno.transicion(g, p_version, 'aprobado', jsonb_build_object('estado', 'pagado',
    'fecha_pago', p_fecha_pago,
    'referencia_pago', interno.texto_requerido(p_referencia, 'referencia_pago', 100,
      'Escriba la referencia del pago, por ejemplo el número de la transferencia.')),
    interno.nota_pago_propio(g));
end
$$;

-- aprobado → pendiente: administrador; motivo obligatorio (queda en motivo_rechazo y en el
-- historial). Vuelve al mismo aprobador.
create function public.revertir_gasto(p_id uuid, p_version integer, p_motivo text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  g public.gastos := interno.gasto_para(p_id, 'revertir');
begin
  return interno.transicion(g, p_version, 'aprobado', jsonb_build_object('estado', 'pendiente',
    'motivo_rechazo', interno.texto_requerido(p_motivo, 'motivo_rechazo', 1000,
      'Escriba el motivo para revertir la aprobación.'),
    'aprobado_por_id', null, 'fecha_aprobacion', null));
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Reasignación al perder el derecho a aprobar (bajar a empleado o desactivar)
-- ---------------------------------------------------------------------------------------------

create function interno.reasignar_pendientes() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  g record;
  v_nuevo uuid;
  v_nombre text;
  v_quien text := coalesce(interno.nombre_completo(new.nombre, new.apellidos), new.email);
  v_porque text := case when not new.activo then 'se desactivó su usuario' else 'ahora es empleado' end;
begin
  for g in
    select x.id, x.solicitante_id, x.creado_por_id, x.editado_por_id
      from public.gastos x
     where x.aprobador_id = new.id and x.estado = 'pendiente'
     order by x.id
       for update
  loop
    v_nuevo := interno.elegir_aprobador(g.solicitante_id, array[g.creado_por_id, g.editado_por_id, new.id]);
    select coalesce(interno.nombre_completo(u.nombre, u.apellidos), u.email) into v_nombre
      from public.usuarios u where u.id = v_nuevo;
    perform set_config('oficina.nota_historial',
      'Reasignado: ' || v_quien || ' ya no puede aprobarlo (' || v_porque || '). '
      || coalesce('Lo aprueba ahora ' || v_nombre || '.', 'No queda nadie que pueda aprobarlo: un administrador debe revisarlo.'),
      true);
    update public.gastos set aprobador_id = v_nuevo where id = g.id;
  end loop;
  perform set_config('oficina.nota_historial', '', true);
  return null;
end
$$;

create trigger reasignar_pendientes after update of rol, activo on public.usuarios
  for each row
  when (old.activo and old.rol in ('aprobador', 'administrador') and (not new.activo or new.rol = 'empleado'))
  execute function interno.reasignar_pendientes();


-- ---------------------------------------------------------------------------------------------
-- Referencias: qué impide eliminar un registro («tiene N gastos asociados»), solo para quien puede
-- eliminarlo.
-- Devuelve un array jsonb [{"tabla": "gastos", "total": 2}, …] solo con totales > 0 ([] = se
-- puede eliminar), una entrada por tabla que apunta al registro, en orden de tabla; las de otro
-- esquema, con él delante. jsonb y no `returns table` para que `rpc` dé lo mismo por PostgREST que
-- por `select public.referencias(...)` en el adaptador SQL. La tabla de p_tabla es de public y sus
-- registros se nombran por `id`. Solo para usuarios activos.
-- ---------------------------------------------------------------------------------------------
-- Es de quien la llama (security invoker): intenta eliminar el registro con sus permisos y su
-- RLS, dentro de un bloque que siempre se deshace, y solo si eso choca con una clave foránea
-- cuenta (interno.referencias_contar, 20261230000001_referencias_de_quien_borra, como
-- propietaria: también filas que no ve, porque también ellas impiden la eliminación, y el mensaje
-- debe dar la razón real). Quien no puede eliminarlo (no lo ve, su RLS no se lo deja, o su rol no
-- tiene el permiso) recibe [] como ante un registro sin referencias; lo mismo si la eliminación se
-- rechaza por otro motivo (un disparador del flujo). La comprobación del usuario activo está
-- escrita aquí y no con interno.exigir_sesion, que authenticated no puede ejecutar.

create function public.referencias(p_tabla text, p_id uuid) returns jsonb
language plpgsql volatile security invoker set search_path = '' as $$
declare
  v_tabla regclass;
begin
  if (select interno.rol_actual()) is null then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Su usuario no está activo o la sesión no es válida.';
  end if;
  select c.oid into v_tabla
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and c.relname = p_tabla and c.relkind in ('r', 'p');
  if v_tabla is null then
    raise exception using errcode = 'OFINV', detail = '',
      message = 'Tabla desconocida: ' || coalesce(p_tabla, '');
  end if;
  begin
    execute format('delete from %s where id = $1', v_tabla) using p_id;
    -- Deleted (or nothing to delete for this caller): undone; nothing holds it.
    raise exception using errcode = 'OFDES';
  exception
    when foreign_key_violation then
      return interno.referencias_contar(v_tabla, p_id);
    when others then
      return '[]'::jsonb;
  end;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Privilegios: nada para public/anon; las funciones del flujo, para authenticated. (Las
-- auxiliares de la RLS conservan lo que les concede la migración rls.)
-- ---------------------------------------------------------------------------------------------

revoke execute on all functions in schema interno from public, anon;
revoke execute on all functions in schema public from public, anon, authenticated;

grant execute on function
  public.enviar_gasto(uuid, integer, text, text),
  public.retirar_gasto(uuid, integer),
  public.aprobar_gasto(uuid, integer),
  public.rechazar_gasto(uuid, integer, text),
  public.reabrir_gasto(uuid, integer),
  public.pagar_gasto(uuid, integer, date, text),
  public.revertir_gasto(uuid, integer, text)
  to authenticated, service_role;
-- referencias, solo a authenticated: es de quien la llama (security invoker).
grant execute on function public.referencias(text, uuid) to authenticated;
