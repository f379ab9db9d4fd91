-- Oficina: avisos del flujo de gastos (docs/producto.md «Avisos», issue 20).
--
-- Bandeja de salida transaccional: el disparador de gastos escribe los avisos EN LA MISMA
-- transacción que el cambio de estado. Un cambio sin su aviso, o un aviso de un cambio que se
-- deshizo, no pueden existir. Cada aviso se ve en la aplicación (public.avisos, cada cual los
-- suyos) y, si la persona lo quiere por correo, deja además una fila en interno.correos, que
-- solo el servidor reclama (FOR UPDATE SKIP LOCKED + un cerrojo por destinatario), envía y marca.
-- Un correo reintentado tras una caída lleva el mismo Message-ID: se reconoce como repetido.

-- ---------------------------------------------------------------------------------------------
-- Tablas
-- ---------------------------------------------------------------------------------------------

create table public.avisos (
  id uuid primary key default gen_random_uuid(),
  destinatario_id uuid not null
    constraint avisos_destinatario_id_fkey references public.usuarios (id) on delete cascade,
  -- 'cuenta': la cuenta de sus reembolsos ha cambiado (20261213000001_cuentas_bancarias);
  -- 'cuenta_proveedor': la de un proveedor (20261226000001_datos_por_necesidad). No son de un
  -- gasto ni se elige su canal.
  tipo text not null
    constraint avisos_tipo_check
    check (tipo in ('enviado', 'aprobado', 'rechazado', 'pagado', 'revertido', 'cuenta', 'cuenta_proveedor')),
  gasto_id uuid
    constraint avisos_gasto_id_fkey references public.gastos (id) on delete cascade,
  -- Lo que dice el aviso, tal como era al cambiar (folio, descripción, importe, solicitante,
  -- motivo, pago): el aviso no cambia si el gasto cambia después.
  datos jsonb not null,
  -- clock_timestamp: los avisos de una misma transacción quedan en el orden en que se escribieron.
  creado_en timestamptz not null default clock_timestamp(),
  leido_en timestamptz
);
create index avisos_destinatario_idx on public.avisos (destinatario_id, creado_en desc);
create index avisos_no_leidos_idx on public.avisos (destinatario_id) where leido_en is null;
create index avisos_gasto_idx on public.avisos (gasto_id);

-- Lo que alguien ve cambia al leerlos: avanza el contador de cambios como las demás tablas.
select interno.contar_cambios_de('avisos');

-- Canal de cada tipo: 'correo' (y en la aplicación), 'app' (solo en la aplicación), 'nada'.
create table public.avisos_predeterminados (
  tipo text primary key
    constraint avisos_predeterminados_tipo_check
    check (tipo in ('enviado', 'aprobado', 'rechazado', 'pagado', 'revertido')),
  canal text not null
    constraint avisos_predeterminados_canal_check check (canal in ('correo', 'app', 'nada'))
);
insert into public.avisos_predeterminados (tipo, canal) values
  ('enviado', 'correo'), ('aprobado', 'correo'), ('rechazado', 'correo'), ('pagado', 'correo'),
  ('revertido', 'correo');

-- Lo que cada persona eligió (sin fila: el predeterminado).
create table public.preferencias_avisos (
  usuario_id uuid not null
    constraint preferencias_avisos_usuario_id_fkey references public.usuarios (id) on delete cascade,
  tipo text not null
    constraint preferencias_avisos_tipo_check
    check (tipo in ('enviado', 'aprobado', 'rechazado', 'pagado', 'revertido')),
  canal text not null
    constraint preferencias_avisos_canal_check check (canal in ('correo', 'app', 'nada')),
  primary key (usuario_id, tipo)
);

-- Resumen diario (quien aprueba): a esa hora, un correo con sus pendientes en lugar de uno por
-- gasto. Sin fila: sin resumen.
create table public.resumen_diario (
  usuario_id uuid primary key
    constraint resumen_diario_usuario_id_fkey references public.usuarios (id) on delete cascade,
  hora smallint not null
    constraint resumen_diario_hora_check check (hora between 0 and 23)
);

-- La cola de correo: solo el servidor (propietario o service_role).
create table interno.correos (
  id uuid primary key default gen_random_uuid(),
  destinatario_id uuid not null
    constraint correos_destinatario_id_fkey references public.usuarios (id) on delete cascade,
  aviso_id uuid
    constraint correos_aviso_id_fkey references public.avisos (id) on delete cascade,
  -- El resumen diario de ese día (uno por persona y día, aunque haya varios servidores).
  resumen_fecha date,
  creado_en timestamptz not null default now(),
  -- Una espera breve: los avisos de una acción en bloque salen en un solo correo por persona.
  disponible_en timestamptz not null default now(),
  -- 'descartado': un no entregado que un administrador descarta (20261220000001_correos_fallidos):
  -- no se envía ya ni aparece en la lista; su aviso sigue en la aplicación.
  estado text not null default 'pendiente'
    constraint correos_estado_check check (estado in ('pendiente', 'enviado', 'fallido', 'descartado')),
  intentos integer not null default 0,
  reclamado_hasta timestamptz,
  -- Se fija al reclamarlo por primera vez; los correos de un mismo envío lo comparten.
  mensaje_id text,
  ultimo_error text,
  enviado_en timestamptz,
  constraint correos_contenido_check check ((aviso_id is null) <> (resumen_fecha is null)),
  constraint correos_resumen_key unique (destinatario_id, resumen_fecha)
);
create index correos_pendientes_idx on interno.correos (disponible_en) where estado = 'pendiente';
create index correos_mensaje_idx on interno.correos (mensaje_id);

alter table interno.ajustes
  add column avisos_espera interval not null default interval '1 minute',
  add column avisos_reintento interval not null default interval '30 seconds',
  add column avisos_intentos integer not null default 8;

-- ---------------------------------------------------------------------------------------------
-- Escribir avisos (dentro de la transacción del cambio)
-- ---------------------------------------------------------------------------------------------

create function interno.canal_aviso(p_usuario uuid, p_tipo text) returns text
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select p.canal from public.preferencias_avisos p where p.usuario_id = p_usuario and p.tipo = p_tipo),
    (select d.canal from public.avisos_predeterminados d where d.tipo = p_tipo),
    'correo')
$$;

-- Un aviso para una persona: nadie recibe aviso de lo que hizo él mismo, ni una persona
-- desactivada; con canal 'correo' queda además en la cola (salvo el «enviado» de quien recibe
-- el resumen diario, que lo verá en el resumen). El de «pagado» lleva el folio de la remesa
-- cuando se paga al confirmarla (20261214000002_confirmar_remesa) y, si la transferencia fue al
-- proveedor, su nombre: quien lo pidió no cobra ese gasto (el texto lo escribe
-- app/avisos/mensajes.ts).
create function interno.avisar(p_destinatario uuid, p_tipo text, g public.gastos) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_canal text;
  v_aviso uuid;
  v_remesa text;
  v_proveedor text;
begin
  if p_destinatario is null or p_destinatario is not distinct from auth.uid() then
    return;
  end if;
  if not exists (select 1 from public.usuarios u where u.id = p_destinatario and u.activo) then
    return;
  end if;
  v_canal := interno.canal_aviso(p_destinatario, p_tipo);
  if v_canal = 'nada' then
    return;
  end if;
  -- Pagado al confirmar una remesa (confirmar_remesa lo dice con oficina.remesa_en_curso).
  if p_tipo = 'pagado' then
    select r.folio, case when rg.beneficiario = 'proveedor' then rg.nombre end into v_remesa, v_proveedor
      from public.remesa_gastos rg join public.remesas r on r.id = rg.remesa_id
     where rg.gasto_id = g.id and rg.remesa_id = nullif(current_setting('oficina.remesa_en_curso', true), '')::uuid;
  end if;
  insert into public.avisos (destinatario_id, tipo, gasto_id, datos)
  values (p_destinatario, p_tipo, g.id, jsonb_strip_nulls(jsonb_build_object(
    'folio', g.folio,
    'descripcion', g.descripcion,
    'importe', g.importe::text,
    'estado', g.estado,
    'solicitante', (select interno.nombre_completo(u.nombre, u.apellidos)
                      from public.usuarios u where u.id = g.solicitante_id),
    'motivo', case when p_tipo in ('rechazado', 'revertido') then g.motivo_rechazo end,
    'fecha_pago', case when p_tipo = 'pagado' then g.fecha_pago end,
    'referencia_pago', case when p_tipo = 'pagado' then g.referencia_pago end,
    'remesa', v_remesa,
    'proveedor', v_proveedor)))
  returning id into v_aviso;
  if v_canal = 'correo'
     and not (p_tipo = 'enviado' and exists (select 1 from public.resumen_diario r where r.usuario_id = p_destinatario)) then
    insert into interno.correos (destinatario_id, aviso_id, disponible_en)
    values (p_destinatario, v_aviso,
            now() + coalesce((select a.avisos_espera from interno.ajustes a where a.unica), interval '0'));
  end if;
end
$$;

-- Qué cambio avisa a quién (docs/producto.md «Avisos»): enviado (o reasignado, o devuelto a pendiente) → quien
-- aprueba; aprobado, rechazado, pagado, revertido → quien lo pidió.
create function interno.gastos_avisar() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if new.estado is distinct from old.estado then
    case
      when old.estado = 'pendiente' and new.estado = 'aprobado' then
        perform interno.avisar(new.solicitante_id, 'aprobado', new);
      when old.estado = 'pendiente' and new.estado = 'rechazado' then
        perform interno.avisar(new.solicitante_id, 'rechazado', new);
      when old.estado = 'aprobado' and new.estado = 'pagado' then
        perform interno.avisar(new.solicitante_id, 'pagado', new);
      when old.estado = 'aprobado' and new.estado = 'pendiente' then
        perform interno.avisar(new.solicitante_id, 'revertido', new);
      else
        null;
    end case;
  end if;
  if new.estado = 'pendiente' and (old.estado <> 'pendiente' or new.aprobador_id is distinct from old.aprobador_id) then
    perform interno.avisar(new.aprobador_id, 'enviado', new);
  end if;
  return null;
end
$$;

create trigger gastos_avisar
  after update of estado, aprobador_id on public.gastos
  for each row execute function interno.gastos_avisar();

-- ---------------------------------------------------------------------------------------------
-- Entregar el correo (solo el servidor)
-- ---------------------------------------------------------------------------------------------

-- Reclama los correos que tocan: por destinatario, con un cerrojo de transacción por persona
-- (dos servidores nunca reparten el mismo envío) y SKIP LOCKED. Los avisos que no tenían
-- mensaje_id reciben uno por persona en esta llamada (un correo); el resumen diario, el suyo;
-- los reintentos conservan el que tenían.
create function interno.reclamar_correos(p_personas integer, p_plazo interval)
returns table (id uuid, mensaje_id text, destinatario_id uuid, intentos integer) language plpgsql set search_path = '' as $$
#variable_conflict use_column
declare
  v_persona uuid;
  v_nuevo text;
  v_reclamadas integer := 0;
begin
  for v_persona in
    select distinct c.destinatario_id from interno.correos c
     where c.estado = 'pendiente' and c.disponible_en <= now()
       and (c.reclamado_hasta is null or c.reclamado_hasta < now())
     limit p_personas * 4
  loop
    exit when v_reclamadas >= p_personas;
    continue when not pg_try_advisory_xact_lock(hashtextextended('oficina.correos:' || v_persona::text, 0));
    v_nuevo := gen_random_uuid()::text;
    return query
      with tomados as (
        select c.id from interno.correos c
         where c.destinatario_id = v_persona and c.estado = 'pendiente' and c.disponible_en <= now()
           and (c.reclamado_hasta is null or c.reclamado_hasta < now())
         for update skip locked
      )
      update interno.correos c
         set reclamado_hasta = now() + p_plazo, intentos = c.intentos + 1,
             mensaje_id = coalesce(c.mensaje_id, case when c.resumen_fecha is null then v_nuevo else gen_random_uuid()::text end)
        from tomados t
       where c.id = t.id
      returning c.id, c.mensaje_id, c.destinatario_id, c.intentos;
    v_reclamadas := v_reclamadas + 1;
  end loop;
end
$$;

create function interno.correo_enviado(p_mensaje_id text) returns void language sql set search_path = '' as $$
  update interno.correos set estado = 'enviado', enviado_en = now(), reclamado_hasta = null, ultimo_error = null
   where mensaje_id = p_mensaje_id and estado = 'pendiente'
$$;

-- Un fallo: se reintenta con espera creciente (avisos_reintento, 30 s: 30 s, 1 min, 2 min… hasta 1 h); tras
-- interno.ajustes.avisos_intentos intentos queda 'fallido', visible para administradores.
create function interno.correo_fallido(p_mensaje_id text, p_error text) returns void language sql set search_path = '' as $$
  update interno.correos c
     set estado = case when c.intentos >= (select a.avisos_intentos from interno.ajustes a where a.unica)
                       then 'fallido' else 'pendiente' end,
         disponible_en = now() + least(interval '1 hour',
           (select a.avisos_reintento from interno.ajustes a where a.unica) * power(2, greatest(c.intentos - 1, 0))),
         reclamado_hasta = null,
         ultimo_error = left(p_error, 500)
   where c.mensaje_id = p_mensaje_id and c.estado = 'pendiente'
$$;

-- Los resúmenes diarios que tocan ya (la hora local de cada persona ha llegado, tiene pendientes
-- por aprobar y no tiene el de hoy): uno por persona y día, aunque lo llamen varios servidores.
create function interno.programar_resumenes(p_zona text) returns integer language plpgsql set search_path = '' as $$
declare
  v_ahora timestamp := now() at time zone p_zona;
  v_n integer;
begin
  insert into interno.correos (destinatario_id, resumen_fecha)
  select r.usuario_id, v_ahora::date
    from public.resumen_diario r
    join public.usuarios u on u.id = r.usuario_id and u.activo
   where r.hora <= extract(hour from v_ahora)
     and exists (select 1 from public.gastos g where g.aprobador_id = r.usuario_id and g.estado = 'pendiente')
  on conflict (destinatario_id, resumen_fecha) do nothing;
  get diagnostics v_n = row_count;
  return v_n;
end
$$;

-- La entrega, tal como la llama quien envía: el propietario de la base de datos (servidor SQL) o
-- service_role por PostgREST (Supabase, donde el servidor no tiene conexión a la base de datos).
-- Las mismas funciones en los dos casos; nadie más puede llamarlas.

-- Los resúmenes diarios que tocan ya (ver interno.programar_resumenes).
create function public.entrega_programar_resumenes(p_zona text) returns integer
language sql security definer set search_path = '' as $$
  select interno.programar_resumenes(p_zona)
$$;

-- Reclama lo que toca (interno.reclamar_correos) y devuelve un envío por mensaje_id con todo lo
-- que lleva el correo: a quién, los avisos en orden, o, si es un resumen diario, lo pendiente de
-- aprobar ahora (los 20 más antiguos y el total). Dos sentencias: la segunda ve lo reclamado.
create function public.entrega_reclamar(p_personas integer, p_plazo interval) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_mensajes text[];
begin
  select coalesce(array_agg(distinct r.mensaje_id), '{}') into v_mensajes
    from interno.reclamar_correos(p_personas, p_plazo) r;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'mensaje_id', e.mensaje_id,
             'destinatario_id', e.destinatario_id,
             'email', u.email,
             'nombre', u.nombre,
             'avisos', e.avisos,
             'pendientes', case when jsonb_array_length(e.avisos) = 0 then (
               select coalesce(jsonb_agg(p.fila order by p.actualizado_en, p.id), '[]'::jsonb)
                 from (select g.id, g.actualizado_en,
                              jsonb_build_object('id', g.id, 'folio', g.folio, 'descripcion', g.descripcion,
                                'importe', g.importe::text, 'fecha_gasto', g.fecha_gasto::text,
                                'solicitante', coalesce(interno.nombre_completo(s.nombre, s.apellidos), s.email)) as fila
                         from public.gastos g join public.usuarios s on s.id = g.solicitante_id
                        where g.aprobador_id = e.destinatario_id and g.estado = 'pendiente'
                        order by g.actualizado_en, g.id
                        limit 20) p) end,
             'total_pendientes', case when jsonb_array_length(e.avisos) = 0 then (
               select count(*) from public.gastos g
                where g.aprobador_id = e.destinatario_id and g.estado = 'pendiente') end)
           order by e.mensaje_id)
      from (select c.mensaje_id, min(c.destinatario_id::text)::uuid as destinatario_id,
                   coalesce(jsonb_agg(jsonb_build_object('tipo', a.tipo, 'gasto_id', a.gasto_id, 'datos', a.datos)
                                      order by c.creado_en, c.id) filter (where a.id is not null), '[]'::jsonb) as avisos
              from interno.correos c left join public.avisos a on a.id = c.aviso_id
             where c.mensaje_id = any (v_mensajes) and c.estado = 'pendiente'
             group by c.mensaje_id) e
      left join public.usuarios u on u.id = e.destinatario_id), '[]'::jsonb);
end
$$;

create function public.entrega_enviado(p_mensaje_id text) returns void language sql security definer set search_path = '' as $$
  select interno.correo_enviado(p_mensaje_id)
$$;

create function public.entrega_fallido(p_mensaje_id text, p_error text) returns void
language sql security definer set search_path = '' as $$
  select interno.correo_fallido(p_mensaje_id, p_error)
$$;

-- Marcar como leídos los avisos propios (todos, o los indicados).
create function public.marcar_avisos_leidos(p_ids uuid[] default null) returns integer language sql set search_path = '' as $$
  with leidos as (
    update public.avisos a set leido_en = now()
     where a.destinatario_id = (select auth.uid()) and a.leido_en is null
       and (p_ids is null or a.id = any (p_ids))
    returning 1
  )
  select count(*)::integer from leidos
$$;

-- Lo que ve la pantalla de preferencias: el canal de cada tipo para quien pregunta (lo elegido o
-- el predeterminado), los predeterminados y la hora del resumen (null: sin resumen).
create function public.preferencias_avisos_propias() returns jsonb language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'canales', (select jsonb_object_agg(d.tipo, coalesce(p.canal, d.canal))
                  from public.avisos_predeterminados d
                  left join public.preferencias_avisos p on p.tipo = d.tipo and p.usuario_id = (select auth.uid())),
    'predeterminados', (select jsonb_object_agg(d.tipo, d.canal) from public.avisos_predeterminados d),
    'resumen_hora', (select r.hora from public.resumen_diario r where r.usuario_id = (select auth.uid())))
$$;

-- Las preferencias propias, de una vez (canal por tipo; hora del resumen diario o null).
create function public.guardar_preferencias_avisos(p_canales jsonb, p_resumen_hora integer) returns void
language plpgsql set search_path = '' as $$
begin
  delete from public.preferencias_avisos where usuario_id = (select auth.uid());
  insert into public.preferencias_avisos (usuario_id, tipo, canal)
  select (select auth.uid()), e.key, e.value #>> '{}' from jsonb_each(p_canales) e;
  delete from public.resumen_diario where usuario_id = (select auth.uid());
  if p_resumen_hora is not null then
    insert into public.resumen_diario (usuario_id, hora) values ((select auth.uid()), p_resumen_hora);
  end if;
end
$$;

-- Los predeterminados de la instalación (la política de la tabla: solo un administrador).
create function public.guardar_avisos_predeterminados(p_canales jsonb) returns integer language sql set search_path = '' as $$
  with cambiados as (
    update public.avisos_predeterminados d set canal = e.value #>> '{}'
      from jsonb_each(p_canales) e
     where d.tipo = e.key
    returning 1
  )
  select count(*)::integer from cambiados
$$;

-- Para administradores: los correos que no se pudieron entregar, con el último error.
create function public.correos_fallidos() returns jsonb language plpgsql stable security definer set search_path = '' as $$
begin
  perform interno.exigir_admin('Solo un administrador puede ver los correos no entregados.');
  return coalesce((
    select jsonb_agg(f order by f.creado_en desc)
      from (select c.id, u.email as destinatario, a.tipo, a.datos ->> 'folio' as folio,
                   c.resumen_fecha, c.intentos, c.ultimo_error, c.creado_en
              from interno.correos c
              join public.usuarios u on u.id = c.destinatario_id
              left join public.avisos a on a.id = c.aviso_id
             where c.estado = 'fallido'
             order by c.creado_en desc
             limit 100) f), '[]'::jsonb);
end
$$;

-- p_ids: los indicados; null, todos los no entregados. Devuelve cuántos cambió. Solo un
-- administrador (interno.exigir_admin_correos, 20261220000001_correos_fallidos).
create function public.reintentar_correos_fallidos(p_ids uuid[] default null) returns integer
language plpgsql security definer set search_path = '' as $$
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

-- ---------------------------------------------------------------------------------------------
-- Privilegios y RLS
-- ---------------------------------------------------------------------------------------------

revoke all on public.avisos, public.avisos_predeterminados, public.preferencias_avisos,
  public.resumen_diario from public, anon, authenticated;
revoke all on interno.correos from public, anon, authenticated;
revoke execute on function interno.canal_aviso(uuid, text), interno.avisar(uuid, text, public.gastos),
  interno.gastos_avisar(), interno.reclamar_correos(integer, interval), interno.correo_enviado(text),
  interno.correo_fallido(text, text), interno.programar_resumenes(text)
  from public, anon, authenticated;
revoke execute on function public.entrega_programar_resumenes(text), public.entrega_reclamar(integer, interval),
  public.entrega_enviado(text), public.entrega_fallido(text, text)
  from public, anon, authenticated;
grant execute on function public.entrega_programar_resumenes(text), public.entrega_reclamar(integer, interval),
  public.entrega_enviado(text), public.entrega_fallido(text, text)
  to service_role;
revoke execute on function public.marcar_avisos_leidos(uuid[]), public.guardar_preferencias_avisos(jsonb, integer),
  public.preferencias_avisos_propias(),
  public.guardar_avisos_predeterminados(jsonb), public.correos_fallidos(), public.reintentar_correos_fallidos(uuid[])
  from public, anon;
grant execute on function public.marcar_avisos_leidos(uuid[]), public.guardar_preferencias_avisos(jsonb, integer),
  public.preferencias_avisos_propias(),
  public.guardar_avisos_predeterminados(jsonb), public.correos_fallidos(), public.reintentar_correos_fallidos(uuid[])
  to authenticated, service_role;

grant select, update (leido_en) on public.avisos to authenticated;
grant select on public.avisos_predeterminados to authenticated;
grant update (canal) on public.avisos_predeterminados to authenticated;
grant select, insert, update, delete on public.preferencias_avisos, public.resumen_diario to authenticated;
grant all on public.avisos, public.avisos_predeterminados, public.preferencias_avisos,
  public.resumen_diario to service_role;
grant all on interno.correos to service_role;

alter table public.avisos enable row level security;
alter table public.avisos_predeterminados enable row level security;
alter table public.preferencias_avisos enable row level security;
alter table public.resumen_diario enable row level security;
alter table interno.correos enable row level security; -- sin políticas: solo el propietario

create policy avisos_select on public.avisos for select to authenticated
  using (destinatario_id = (select auth.uid()) and (select interno.rol_actual()) is not null);
create policy avisos_update on public.avisos for update to authenticated
  using (destinatario_id = (select auth.uid()) and (select interno.rol_actual()) is not null)
  with check (destinatario_id = (select auth.uid()));

create policy avisos_predeterminados_select on public.avisos_predeterminados for select to authenticated
  using ((select interno.rol_actual()) is not null);
create policy avisos_predeterminados_update on public.avisos_predeterminados for update to authenticated
  using ((select interno.es_admin()))
  with check ((select interno.es_admin()));

create policy preferencias_avisos_propias on public.preferencias_avisos for all to authenticated
  using (usuario_id = (select auth.uid()) and (select interno.rol_actual()) is not null)
  with check (usuario_id = (select auth.uid()) and (select interno.rol_actual()) is not null);
create policy resumen_diario_propio on public.resumen_diario for all to authenticated
  using (usuario_id = (select auth.uid()) and (select interno.rol_actual()) is not null)
  with check (usuario_id = (select auth.uid()) and (select interno.rol_actual()) in ('aprobador', 'administrador'));
