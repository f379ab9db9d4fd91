-- Oficina: separación de funciones en la aprobación de gastos (SPEC §3, issue 15).
--
-- 1. Quién aprueba lo decide el SOLICITANTE, nunca el departamento (centro de coste) elegido en el
--    gasto: su aprobador_id, los responsables de su departamento y de los superiores, un
--    aprobador de su departamento; un administrador aprueba todo salvo lo suyo. El aprobador
--    asignado al enviar sale de esa misma regla.
-- 2. Solo aprueba quien, al actuar, está activo y tiene rol aprobador o administrador (leído aquí
--    de usuarios, no de la sesión). Un empleado no aprueba nada, aunque sea responsable de un
--    departamento (SPEC §4). Al bajar a alguien a empleado o desactivarlo, sus pendientes se
--    reasignan en el acto (disparador en usuarios: ningún camino se lo salta), con historial.
-- 3. Quien creó el gasto o lo editó el último en nombre de otra persona no lo aprueba ni lo
--    rechaza: gastos.creado_por_id y gastos.editado_por_id, puestos por disparador desde auth.uid().
-- 4. Quien lo aprobó no lo marca como pagado, salvo que la instalación lo permita
--    (interno.ajustes.permitir_admin_unico, PERMITIR_ADMIN_UNICO=1); entonces queda en el historial.
--    El ajuste vive en una tabla que solo el propietario escribe: ningún cliente (ni con su propio
--    JWT por PostgREST) puede decidirlo. El servidor SQL lo fija al arrancar
--    (app/gastos/ajustes.server.ts); en Supabase se fija a mano (docs/supabase.md).
--
-- La regla está escrita una vez en SQL para las funciones del flujo (interno.motivo_no_aprueba)
-- y, con los mismos términos, como expresión para las listas (gastos_vista.puede_aprobar, el
-- panel): tests/integration/separacion-funciones.test.ts comprueba que coinciden.

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

create function interno.permitir_admin_unico() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce((select a.permitir_admin_unico from interno.ajustes a where a.unica), false)
$$;

-- ---------------------------------------------------------------------------------------------
-- Historial: una nota opcional en la misma entrada (reasignaciones, pagos de quien aprobó)
-- ---------------------------------------------------------------------------------------------
-- Quien cambia un gasto por una regla (no por un formulario) deja el porqué en
-- `oficina.nota_historial` (local a la transacción) y lo vacía después; el disparador lo añade
-- como {"nota": {"antes": null, "despues": "…"}}.

create or replace function interno.registrar_historial() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_antes jsonb;
  v_despues jsonb;
  v_cambios jsonb;
  v_accion text;
  v_id uuid;
  v_nota text := nullif(current_setting('oficina.nota_historial', true), '');
  v_excluidas text[] := array['id', 'creado_en', 'actualizado_en', 'version'];
begin
  if tg_op = 'INSERT' then
    v_accion := 'alta';
    v_id := new.id;
    v_despues := to_jsonb(new);
    select coalesce(jsonb_object_agg(d.key, jsonb_build_object('antes', null, 'despues', d.value)), '{}'::jsonb)
      into v_cambios
    from jsonb_each(v_despues) d
    where d.value <> 'null'::jsonb and d.key <> all (v_excluidas);
  elsif tg_op = 'UPDATE' then
    v_accion := 'modificacion';
    v_id := new.id;
    v_antes := to_jsonb(old);
    v_despues := to_jsonb(new);
    select coalesce(jsonb_object_agg(d.key, jsonb_build_object('antes', v_antes -> d.key, 'despues', d.value)), '{}'::jsonb)
      into v_cambios
    from jsonb_each(v_despues) d
    where d.key <> all (v_excluidas) and (v_antes -> d.key) is distinct from d.value;
    if v_cambios = '{}'::jsonb then
      return null;
    end if;
  else
    v_accion := 'baja';
    v_id := old.id;
    v_antes := to_jsonb(old);
    select coalesce(jsonb_object_agg(d.key, jsonb_build_object('antes', d.value, 'despues', null)), '{}'::jsonb)
      into v_cambios
    from jsonb_each(v_antes) d
    where d.value <> 'null'::jsonb and d.key <> all (v_excluidas);
  end if;

  if v_nota is not null then
    v_cambios := v_cambios || jsonb_build_object('nota', jsonb_build_object('antes', null, 'despues', v_nota));
  end if;

  insert into public.historial (tabla, registro_id, accion, actor_id, cambios)
  values (tg_table_name, v_id, v_accion, (select auth.uid()), v_cambios);
  return null;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Autoría: quién creó el gasto y quién lo editó el último en nombre de otra persona
-- ---------------------------------------------------------------------------------------------

alter table public.gastos
  add column creado_por_id uuid
    constraint gastos_creado_por_id_fkey references public.usuarios (id) on delete set null,
  add column editado_por_id uuid
    constraint gastos_editado_por_id_fkey references public.usuarios (id) on delete set null;

comment on column public.gastos.creado_por_id is
  'Quien dio de alta el gasto (auth.uid() al insertar; null en cargas del propietario).';
comment on column public.gastos.editado_por_id is
  'El último que editó los datos del gasto sin ser su solicitante (en su nombre); null si nadie.';

-- gastos_validar, con la autoría (en el mismo disparador: las cargas masivas de scripts/seed.ts lo
-- desactivan y dejan la autoría vacía, como corresponde a una carga del propietario). Nadie
-- escribe estas columnas: authenticated no tiene privilegio sobre ellas y, con un JWT, lo que
-- llegue se sustituye por lo que dice auth.uid().
create or replace function interno.gastos_validar() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_usuario record;
  v_uid uuid := (select auth.uid());
begin
  if tg_op = 'INSERT' then
    new.creado_en := coalesce(new.creado_en, now());
    -- Departamento y sucursal: por defecto, los del solicitante.
    if new.departamento_id is null or new.sucursal_id is null then
      select u.departamento_id, u.sucursal_id into v_usuario
      from public.usuarios u where u.id = new.solicitante_id;
      if found then
        new.departamento_id := coalesce(new.departamento_id, v_usuario.departamento_id);
        new.sucursal_id := coalesce(new.sucursal_id, v_usuario.sucursal_id);
      end if;
    end if;
    if v_uid is not null then
      new.creado_por_id := v_uid;
      new.editado_por_id := null;
    end if;
  else
    new.folio := old.folio;
    if v_uid is not null then
      new.creado_por_id := old.creado_por_id;
      new.editado_por_id := old.editado_por_id;
      -- Editar los datos (no una transición del flujo) por cuenta de otra persona.
      if v_uid <> new.solicitante_id
         and (new.descripcion, new.fecha_gasto, new.categoria, new.importe, new.importe_impuestos,
              new.metodo_pago, new.proveedor_id, new.numero_factura, new.solicitante_id,
              new.departamento_id, new.sucursal_id, new.notas)
             is distinct from
             (old.descripcion, old.fecha_gasto, old.categoria, old.importe, old.importe_impuestos,
              old.metodo_pago, old.proveedor_id, old.numero_factura, old.solicitante_id,
              old.departamento_id, old.sucursal_id, old.notas) then
        new.editado_por_id := v_uid;
      end if;
    end if;
  end if;

  -- Reglas de fecha solo para peticiones de usuarios (las cargas del propietario no tienen JWT).
  if v_uid is not null
     and (tg_op = 'INSERT' or new.fecha_gasto is distinct from old.fecha_gasto) then
    if new.fecha_gasto > current_date + 1 then
      raise exception using errcode = 'OFINV', detail = 'fecha_gasto',
        message = 'La fecha del gasto no puede ser futura.';
    end if;
    if new.fecha_gasto < current_date - 366 then
      raise exception using errcode = 'OFINV', detail = 'fecha_gasto',
        message = 'La fecha del gasto no puede tener más de un año de antigüedad.';
    end if;
  end if;

  if new.proveedor_id is not null
     and (tg_op = 'INSERT' or new.proveedor_id is distinct from old.proveedor_id)
     and exists (select 1 from public.proveedores p where p.id = new.proveedor_id and not p.activo) then
    raise exception using errcode = 'OFINV', detail = 'proveedor_id',
      message = 'El proveedor está desactivado: elija un proveedor activo.';
  end if;
  return new;
end
$$;

-- Lo que ya cuenta el historial de los gastos existentes: el autor del alta y el último que editó
-- sus datos sin ser el solicitante. Sin disparadores (no es un cambio de nadie: ni versión ni
-- historial nuevos). Solo filas con actor (índice historial_actor_id_idx): las cargas del
-- propietario no tienen ninguno.
alter table public.gastos disable trigger user;

update public.gastos g
   set creado_por_id = h.actor_id
  from public.historial h
 where h.actor_id is not null and h.tabla = 'gastos' and h.accion = 'alta' and h.registro_id = g.id
   and exists (select 1 from public.usuarios u where u.id = h.actor_id);

update public.gastos g
   set editado_por_id = e.actor_id
  from (
    select distinct on (h.registro_id) h.registro_id, h.actor_id
      from public.historial h
      join public.gastos x on x.id = h.registro_id
     where h.actor_id is not null and h.tabla = 'gastos' and h.accion = 'modificacion'
       and h.actor_id <> x.solicitante_id
       and h.cambios ?| array['descripcion', 'fecha_gasto', 'categoria', 'importe', 'importe_impuestos',
                              'metodo_pago', 'proveedor_id', 'numero_factura', 'solicitante_id',
                              'departamento_id', 'sucursal_id', 'notas']
     order by h.registro_id, h.id desc
  ) e
 where e.registro_id = g.id
   and exists (select 1 from public.usuarios u where u.id = e.actor_id);

alter table public.gastos enable trigger user;
update interno.cambios set n = n + 1;

-- ---------------------------------------------------------------------------------------------
-- La regla: quién aprueba o rechaza
-- ---------------------------------------------------------------------------------------------

-- Las personas cuyos gastos aprueba p_actor por su relación con ellas (solo si está activo y es
-- aprobador; un administrador lo aprueba todo y un empleado nada): las que le tienen como
-- aprobador_id, las de su departamento, y las de los departamentos de los que es responsable y
-- de todos los que cuelgan de ellos. Nunca él mismo.
create function interno.solicitantes_de(p_actor uuid) returns uuid[]
language sql stable security definer
set search_path = ''
as $$
  with recursive yo as (
    select u.id, u.departamento_id from public.usuarios u
     where u.id = p_actor and u.activo and u.rol = 'aprobador'
  ), a_cargo (id) as (
    select d.id from public.departamentos d join yo on d.responsable_id = yo.id
    union
    select h.id from public.departamentos h join a_cargo c on h.departamento_padre_id = c.id
  )
  select coalesce(array_agg(s.id), '{}')
    from public.usuarios s cross join yo
   where s.id <> yo.id
     and (s.aprobador_id = yo.id
          or s.departamento_id = yo.departamento_id
          or s.departamento_id in (select a.id from a_cargo a))
$$;

-- Las del usuario actual (para la RLS y las listas: se evalúa una vez por consulta).
create function interno.solicitantes_a_cargo() returns uuid[]
language sql stable security definer
set search_path = ''
as $$
  select interno.solicitantes_de((select auth.uid()))
$$;

-- Por qué p_actor NO puede aprobar (p_accion 'aprobar') o rechazar ('rechazar') este gasto
-- ahora; null si puede. Rol y estado leídos aquí, al actuar. p_asignado: cuenta ser el aprobador
-- asignado (false para decidir a quién se asigna: ahí solo vale la regla del solicitante).
create function interno.motivo_no_aprueba(p_actor uuid, g public.gastos, p_accion text default 'aprobar', p_asignado boolean default true)
returns text
language plpgsql stable security definer
set search_path = ''
as $$
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
  select coalesce(nullif(btrim(concat_ws(' ', s.nombre, s.apellidos)), ''), s.email) into v_solicitante
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

-- ¿Ve el usuario actual este gasto? (misma regla que gastos_select): ahora también los de las
-- personas cuyos gastos aprueba, sea cual sea el departamento del gasto.
create or replace function interno.puede_ver_gasto(p_solicitante_id uuid, p_aprobador_id uuid, p_departamento_id uuid)
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
      or p_solicitante_id = any ((select interno.solicitantes_a_cargo())::uuid[])
    ),
    false)
$$;

-- La regla antigua (por el departamento del gasto) ya no la usa nadie.
drop function interno.puede_aprobar_gasto(uuid, uuid, uuid);

-- Aprobador al enviar, por el solicitante: su aprobador_id → el responsable de SU departamento →
-- los de los superiores → el administrador activo más antiguo. Cada candidato, activo y con rol
-- aprobador o administrador; nunca el solicitante ni nadie de p_excluidos (quien creó o editó el
-- gasto en su nombre, o a quien se le quita). null si no hay nadie.
drop function interno.elegir_aprobador(uuid, uuid);
create function interno.elegir_aprobador(p_solicitante_id uuid, p_excluidos uuid[] default '{}')
returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
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
-- Transiciones que cambian
-- ---------------------------------------------------------------------------------------------

create or replace function public.enviar_gasto(p_id uuid, p_version integer) returns jsonb
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
  v_aprobador := interno.elegir_aprobador(g.solicitante_id, array[g.creado_por_id, g.editado_por_id]);
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

create or replace function public.aprobar_gasto(p_id uuid, p_version integer) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos := interno.bloquear_gasto(p_id);
  v_motivo text := interno.motivo_no_aprueba((select auth.uid()), g, 'aprobar');
begin
  if v_motivo is not null then
    raise exception using errcode = 'OFPRM', detail = '', message = v_motivo;
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

create or replace function public.rechazar_gasto(p_id uuid, p_version integer, p_motivo text) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos := interno.bloquear_gasto(p_id);
  v_no text := interno.motivo_no_aprueba((select auth.uid()), g, 'rechazar');
  v_motivo text;
begin
  if v_no is not null then
    raise exception using errcode = 'OFPRM', detail = '', message = v_no;
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

-- aprobado → pagado: administrador que no lo aprobó (o, si la instalación lo permite, también
-- quien lo aprobó, y queda dicho en el historial); fecha y referencia obligatorias.
create or replace function public.pagar_gasto(p_id uuid, p_version integer, p_fecha_pago date, p_referencia text)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos := interno.bloquear_gasto(p_id);
  v_referencia text;
  v_nota text;
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
  if g.aprobado_por_id = (select auth.uid()) then
    if not interno.permitir_admin_unico() then
      raise exception using errcode = 'OFPRM', detail = '',
        message = 'Usted aprobó este gasto: debe marcarlo como pagado otro administrador.';
    end if;
    v_nota := 'Lo aprobó y lo marcó como pagado la misma persona: lo permite esta instalación (PERMITIR_ADMIN_UNICO=1).';
  end if;
  perform set_config('oficina.nota_historial', coalesce(v_nota, ''), true);
  update public.gastos
     set estado = 'pagado', fecha_pago = p_fecha_pago, referencia_pago = v_referencia
   where id = g.id
  returning * into g;
  perform set_config('oficina.nota_historial', '', true);
  return interno.resultado_gasto(g, null);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Reasignación al perder el derecho a aprobar (bajar a empleado o desactivar)
-- ---------------------------------------------------------------------------------------------

create function interno.reasignar_pendientes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  g record;
  v_nuevo uuid;
  v_nombre text;
  v_quien text := coalesce(nullif(btrim(concat_ws(' ', new.nombre, new.apellidos)), ''), new.email);
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
    select coalesce(nullif(btrim(concat_ws(' ', u.nombre, u.apellidos)), ''), u.email) into v_nombre
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
-- Visibilidad (RLS): también los gastos de las personas cuyos gastos aprueba
-- ---------------------------------------------------------------------------------------------

alter policy gastos_select on public.gastos
  using (
    (select interno.rol_actual()) is not null
    and (
      (select interno.es_admin())
      or solicitante_id = (select auth.uid())
      or aprobador_id = (select auth.uid())
      or ((select interno.rol_actual()) = 'aprobador'
          and departamento_id = (select interno.departamento_actual()))
      or departamento_id = any ((select interno.departamentos_a_cargo())::uuid[])
      or solicitante_id = any ((select interno.solicitantes_a_cargo())::uuid[])
    )
  );

-- ---------------------------------------------------------------------------------------------
-- La lista: autoría y «puede aprobar» (la regla de motivo_no_aprueba, como expresión: las
-- funciones van en subconsultas sin correlación, calculadas una vez por consulta)
-- ---------------------------------------------------------------------------------------------

drop view public.gastos_vista;
create view public.gastos_vista with (security_invoker = true) as
select g.*,
       coalesce(nullif(btrim(p.nombre_comercial), ''), p.razon_social) as proveedor_nombre,
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
revoke all on public.gastos_vista from public, anon, authenticated;
grant select on public.gastos_vista to authenticated, service_role;

-- Los pendientes, con la autoría incluida: el panel y «Mis pendientes de aprobar» los filtran
-- desde el índice.
drop index public.gastos_pendientes_fecha_idx;
create index gastos_pendientes_fecha_idx on public.gastos (fecha_gasto, creado_en)
  include (importe, departamento_id, solicitante_id, aprobador_id, creado_por_id, editado_por_id)
  where estado = 'pendiente';

-- Para la ruta: a quién aprueba el usuario actual por su relación con él, y el ajuste de pago.
-- Así la ruta muestra los mismos botones que las funciones permiten (app/gastos/reglas.ts).
create function public.alcance_aprobacion() returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'solicitantes', to_jsonb((select interno.solicitantes_a_cargo())),
    'permitir_admin_unico', interno.permitir_admin_unico())
  where (select interno.rol_actual()) is not null
$$;

-- ---------------------------------------------------------------------------------------------
-- El panel: «Pendientes de aprobar» con la misma regla
-- ---------------------------------------------------------------------------------------------

create or replace function public.panel(p_hoy date) returns jsonb
language plpgsql stable security invoker
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_rol text := (select interno.rol_actual());
  v_hoy date := coalesce(p_hoy, current_date);
  v_mes date;
  v_siguiente date;
  v_inicio_12 date;
  v_inicio_90 date;
  v_solicitantes uuid[];
  v_resultado jsonb;
  v_seccion jsonb;
begin
  if v_rol is null then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Su usuario no está activo o la sesión no es válida.';
  end if;
  v_mes := date_trunc('month', v_hoy)::date;
  v_siguiente := (v_mes + interval '1 month')::date;
  v_inicio_12 := (v_mes - interval '11 months')::date;
  v_inicio_90 := v_hoy - 89;

  v_resultado := jsonb_build_object(
    'rol', v_rol,
    'hoy', v_hoy,
    'mes', jsonb_build_object('desde', v_mes, 'hasta', v_siguiente - 1));

  -- Para todos: los propios por estado, los de este mes y los cinco últimos.
  select coalesce(jsonb_agg(jsonb_build_object(
           'estado', e.estado,
           'cuenta', coalesce(t.cuenta, 0),
           'importe', coalesce(t.importe, 0.00)::text) order by e.orden), '[]'::jsonb)
    into v_seccion
    from unnest(array['borrador', 'pendiente', 'aprobado', 'rechazado', 'pagado']) with ordinality as e (estado, orden)
    left join (
      select g.estado, count(*) as cuenta, sum(g.importe) as importe
        from public.gastos g
       where g.solicitante_id = v_uid
       group by g.estado
    ) t on t.estado = e.estado;
  v_resultado := v_resultado || jsonb_build_object('propios', v_seccion);

  select jsonb_build_object('cuenta', count(*), 'importe', coalesce(sum(g.importe), 0.00)::text)
    into v_seccion
    from public.gastos g
   where g.solicitante_id = v_uid
     and g.fecha_gasto >= v_mes and g.fecha_gasto < v_siguiente;
  v_resultado := v_resultado || jsonb_build_object('este_mes', v_seccion);

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', u.id, 'folio', u.folio, 'fecha_gasto', u.fecha_gasto, 'descripcion', u.descripcion,
           'importe', u.importe::text, 'estado', u.estado) order by u.fecha_gasto desc, u.creado_en desc, u.id), '[]'::jsonb)
    into v_seccion
    from (
      select g.id, g.folio, g.fecha_gasto, g.descripcion, g.importe, g.estado, g.creado_en
        from public.gastos g
       where g.solicitante_id = v_uid
       order by g.fecha_gasto desc, g.creado_en desc, g.id
       limit 5
    ) u;
  v_resultado := v_resultado || jsonb_build_object('ultimos', v_seccion);

  -- Aprobador y administrador: lo que puede aprobar (interno.motivo_no_aprueba, escrito para que
  -- use el índice de pendientes); la política gastos_select se aplica además, como a toda consulta.
  if v_rol in ('aprobador', 'administrador') then
    v_solicitantes := (select interno.solicitantes_a_cargo());
    select jsonb_build_object('cuenta', count(*), 'importe', coalesce(sum(g.importe), 0.00)::text)
      into v_seccion
      from public.gastos g
     where g.estado = 'pendiente'
       and g.solicitante_id <> v_uid
       and g.creado_por_id is distinct from v_uid and g.editado_por_id is distinct from v_uid
       and (v_rol = 'administrador' or g.aprobador_id = v_uid or g.solicitante_id = any (v_solicitantes));
    v_seccion := v_seccion || jsonb_build_object('mas_antiguos', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'id', a.id, 'folio', a.folio, 'fecha_gasto', a.fecha_gasto,
               'descripcion', a.descripcion, 'importe', a.importe::text,
               'solicitante_nombre', nullif(btrim(concat_ws(' ', s.nombre, s.apellidos)), ''))
               order by a.fecha_gasto, a.creado_en, a.id), '[]'::jsonb)
        from (
          select g.id, g.folio, g.fecha_gasto, g.creado_en, g.descripcion, g.importe, g.solicitante_id
            from public.gastos g
           where g.estado = 'pendiente'
             and g.solicitante_id <> v_uid
             and g.creado_por_id is distinct from v_uid and g.editado_por_id is distinct from v_uid
             and (v_rol = 'administrador' or g.aprobador_id = v_uid or g.solicitante_id = any (v_solicitantes))
           order by g.fecha_gasto, g.creado_en, g.id
           limit 10
        ) a
        left join public.usuarios s on s.id = a.solicitante_id));
    v_resultado := v_resultado || jsonb_build_object('pendientes', v_seccion);
  else
    v_resultado := v_resultado || jsonb_build_object('pendientes', null);
  end if;

  -- Administrador: lo aprobado (aprobado + pagado) del mes por departamento frente a su
  -- presupuesto, los últimos 12 meses y las categorías y proveedores de los últimos 90 días, de
  -- interno.gastos_aprobados_totales (su política: solo administradores).
  if v_rol <> 'administrador' then
    return v_resultado || jsonb_build_object(
      'presupuestos', null, 'meses', null, 'noventa_dias', null, 'categorias', null, 'proveedores', null);
  end if;

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', d.id, 'nombre', d.nombre,
           'presupuesto', d.presupuesto_mensual::text,
           'aprobado', coalesce(t.importe, 0.00)::text,
           'cuenta', coalesce(t.cuenta, 0),
           'excedido', coalesce(t.importe > d.presupuesto_mensual, false))
           order by d.nombre, d.id), '[]'::jsonb)
    into v_seccion
    from public.departamentos d
    left join interno.gastos_aprobados_totales t
      on t.tipo = 'departamento' and t.fecha = v_mes and t.clave = d.id::text and t.cuenta > 0
   where d.activo or t.cuenta is not null;
  v_resultado := v_resultado || jsonb_build_object('presupuestos', v_seccion);

  select jsonb_agg(jsonb_build_object(
           'mes', to_char(m.mes, 'YYYY-MM'),
           'cuenta', coalesce(t.cuenta, 0),
           'importe', coalesce(t.importe, 0.00)::text) order by m.mes)
    into v_seccion
    from (select (v_inicio_12 + make_interval(months => n))::date as mes from generate_series(0, 11) as n) m
    left join (
      select t.fecha, sum(t.cuenta) as cuenta, sum(t.importe) as importe
        from interno.gastos_aprobados_totales t
       where t.tipo = 'departamento' and t.fecha >= v_inicio_12 and t.fecha <= v_mes
       group by t.fecha
    ) t on t.fecha = m.mes;
  v_resultado := v_resultado || jsonb_build_object('meses', v_seccion);

  v_resultado := v_resultado || jsonb_build_object(
    'noventa_dias', jsonb_build_object('desde', v_inicio_90, 'hasta', v_hoy));

  select coalesce(jsonb_agg(jsonb_build_object(
           'categoria', c.clave, 'cuenta', c.cuenta, 'importe', c.importe::text)
           order by c.importe desc, c.clave), '[]'::jsonb)
    into v_seccion
    from (
      select t.clave, sum(t.cuenta) as cuenta, sum(t.importe) as importe
        from interno.gastos_aprobados_totales t
       where t.tipo = 'categoria' and t.fecha >= v_inicio_90 and t.fecha <= v_hoy
       group by t.clave
      having sum(t.cuenta) > 0
       order by importe desc, t.clave
       limit 8
    ) c;
  v_resultado := v_resultado || jsonb_build_object('categorias', v_seccion);

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', p.id,
           'nombre', coalesce(nullif(btrim(p.nombre_comercial), ''), p.razon_social),
           'cuenta', c.cuenta, 'importe', c.importe::text)
           order by c.importe desc, c.clave), '[]'::jsonb)
    into v_seccion
    from (
      select t.clave, sum(t.cuenta) as cuenta, sum(t.importe) as importe
        from interno.gastos_aprobados_totales t
       where t.tipo = 'proveedor' and t.fecha >= v_inicio_90 and t.fecha <= v_hoy
       group by t.clave
      having sum(t.cuenta) > 0
       order by importe desc, t.clave
       limit 8
    ) c
    join public.proveedores p on p.id = c.clave::uuid;
  v_resultado := v_resultado || jsonb_build_object('proveedores', v_seccion);

  return v_resultado;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- La búsqueda de gastos: la misma visibilidad que gastos_select (20261122000042, con el brazo nuevo)
-- ---------------------------------------------------------------------------------------------

create or replace function public.buscar_gastos(p_termino text, p_tope integer default null)
returns table (ids text, coincidencias bigint, exacto boolean, sumas jsonb)
language plpgsql stable security definer
set search_path = ''
set enable_seqscan = off
set enable_indexscan = off
as $$
declare
  v_rol text := (select interno.rol_actual());
  v_yo uuid := (select auth.uid());
  v_departamentos uuid[];
  v_patron text;
  v_donde text;
  v_n bigint;
  v_suma text;
  v_ids text;
  v_pocas bigint;
  v_muestra bigint;
  v_porcentaje numeric;
begin
  if v_rol is null or nullif(btrim(coalesce(p_termino, '')), '') is null then
    return query select ''::text, 0::bigint, true, jsonb_build_object('importe', '0');
    return;
  end if;
  v_patron := quote_literal('%' || replace(replace(replace(btrim(p_termino), '\', '\\'), '%', '\%'), '_', '\_') || '%');
  v_donde := format($w$
      (g.folio ilike %1$s
        or g.descripcion ilike %1$s
        or g.numero_factura ilike %1$s
        or g.proveedor_id = any (array(
             select p.id from public.proveedores p
             where p.razon_social ilike %1$s or p.nombre_comercial ilike %1$s)))
    $w$, v_patron);
  if v_rol <> 'administrador' then
    v_departamentos := (select interno.departamentos_a_cargo())
      || case when v_rol = 'aprobador' then array[(select interno.departamento_actual())] else '{}'::uuid[] end;
    v_donde := v_donde || format(' and (g.solicitante_id = %1$L or g.aprobador_id = %1$L or g.departamento_id = any (%2$L::uuid[]) or g.solicitante_id = any (%3$L::uuid[]))',
      v_yo, array_remove(v_departamentos, null), (select interno.solicitantes_a_cargo()));
  end if;
  v_pocas := case when p_tope is null then null
    else greatest(200, 5 * sqrt(greatest(0, (select c.reltuples from pg_catalog.pg_class c where c.oid = 'public.gastos'::regclass))))::bigint end;
  execute format(
    'select count(*), coalesce(sum(x.importe), 0)::text, case when %s then string_agg(x.id::text, %L) else null end
       from (select g.id, g.importe from public.gastos g where %s limit %s) x',
    case when v_pocas is null then 'true' else format('count(*) <= %s', v_pocas) end, ',', v_donde, coalesce((p_tope + 1)::text, 'all'))
    into v_n, v_suma, v_ids;
  if p_tope is null or v_n <= p_tope then
    return query select coalesce(v_ids, case when v_n = 0 then '' end), v_n, true, jsonb_build_object('importe', v_suma);
    return;
  end if;
  v_porcentaje := least(100, 25000.0 / greatest(1, (select c.relpages from pg_catalog.pg_class c where c.oid = 'public.gastos'::regclass)));
  execute format('select round(count(*) * 100 / %s) from public.gastos g tablesample system (%s) repeatable (0) where %s', v_porcentaje, v_porcentaje, v_donde)
    into v_muestra;
  return query select null::text, greatest(p_tope + 1, v_muestra), false, null::jsonb;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Privilegios: las funciones nuevas, para nadie salvo lo que usan la RLS, las vistas y la ruta
-- ---------------------------------------------------------------------------------------------

revoke execute on function
  interno.permitir_admin_unico(),
  interno.solicitantes_de(uuid),
  interno.solicitantes_a_cargo(),
  interno.motivo_no_aprueba(uuid, public.gastos, text, boolean),
  interno.elegir_aprobador(uuid, uuid[]),
  interno.reasignar_pendientes()
  from public, anon, authenticated;
revoke execute on function public.alcance_aprobacion() from public, anon;

grant execute on function interno.solicitantes_a_cargo() to authenticated, service_role;
grant execute on function public.alcance_aprobacion() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Reasignación única de los pendientes existentes
-- ---------------------------------------------------------------------------------------------

-- Los pendientes de hoy asignados a quien ya no los podría tener por la regla del solicitante
-- (inactivo, empleado, o elegido por el departamento del gasto): se reasignan una vez, con nota.
-- Al final del archivo: cada cambio deja un evento diferido de contar_cambio, y con eventos
-- pendientes PostgreSQL no admite más DDL sobre gastos en la misma transacción.
-- El alcance de cada aprobador se calcula una vez, no por gasto.
do $$
declare
  g record;
  v_nuevo uuid;
  v_nombre text;
begin
  for g in
    with asignados as (
      select a.id, a.rol, a.activo, interno.solicitantes_de(a.id) as alcance
        from public.usuarios a
       where a.id in (select x.aprobador_id from public.gastos x where x.estado = 'pendiente')
    )
    select x.id, x.solicitante_id, x.creado_por_id, x.editado_por_id, x.aprobador_id
      from public.gastos x
      join asignados a on a.id = x.aprobador_id
     where x.estado = 'pendiente'
       and not (a.activo and a.rol in ('aprobador', 'administrador')
                and x.solicitante_id <> a.id
                and x.creado_por_id is distinct from a.id and x.editado_por_id is distinct from a.id
                and (a.rol = 'administrador' or x.solicitante_id = any (a.alcance)))
     order by x.id
  loop
    v_nuevo := interno.elegir_aprobador(g.solicitante_id, array[g.creado_por_id, g.editado_por_id, g.aprobador_id]);
    select coalesce(nullif(btrim(concat_ws(' ', u.nombre, u.apellidos)), ''), u.email) into v_nombre
      from public.usuarios u where u.id = v_nuevo;
    perform set_config('oficina.nota_historial',
      'Reasignado al aplicar la separación de funciones: el aprobador anterior no puede aprobarlo. '
      || coalesce('Lo aprueba ahora ' || v_nombre || '.', 'No queda nadie que pueda aprobarlo: un administrador debe revisarlo.'),
      true);
    update public.gastos set aprobador_id = v_nuevo where id = g.id;
  end loop;
  perform set_config('oficina.nota_historial', '', true);
end
$$;
