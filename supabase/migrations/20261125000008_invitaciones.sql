-- Oficina: invitaciones (docs/producto.md «Cuentas»). Un administrador da de alta a una persona en /usuarios: su
-- cuenta (auth.users, sin confirmar, sin contraseña) y su perfil nacen al invitarla; esta tabla
-- dice quién la invitó y cuándo se envió el último enlace. La invitación está pendiente mientras
-- la cuenta siga sin confirmar (docs/decisions/0013-invitations.md).
--
-- RLS activada y sin políticas: ningún rol de la API la ve. El servidor integrado la lee y la
-- escribe como propietario; por PostgREST, un administrador llega a ella solo por las funciones
-- de más abajo.

create table public.invitaciones (
  usuario_id uuid primary key
    constraint invitaciones_usuario_id_fkey references public.usuarios (id) on delete cascade,
  invitada_por uuid
    constraint invitaciones_invitada_por_fkey references public.usuarios (id) on delete set null,
  creada_en timestamptz not null default now(),
  enviada_en timestamptz not null default now()
);

create index invitaciones_invitada_por_idx on public.invitaciones (invitada_por);

alter table public.invitaciones enable row level security;
revoke all on public.invitaciones from public, anon, authenticated;
grant all on public.invitaciones to service_role;

-- ---------------------------------------------------------------------------------------------
-- Funciones de las invitaciones (ADR 0013), las mismas en los dos backends. El servidor crea la
-- cuenta sin confirmar (el backend integrado como propietario; con Supabase, la API de
-- administración de Supabase Auth con la clave de servicio) y después, con la sesión del
-- administrador, llama a public.invitar: el perfil y la fila de invitaciones nacen ahí, y el rol,
-- el departamento, la sucursal y el aprobador los escribe el administrador bajo RLS y los
-- disparadores del perfil. Las demás funciones dan a un administrador, por PostgREST, lo que el
-- servidor integrado lee como propietario (public.invitaciones no tiene privilegios para la API).
-- ---------------------------------------------------------------------------------------------

-- Quien llama es un administrador activo; si no, OFPRM: primero la sesión (interno.exigir_sesion),
-- después p_mensaje («Solo un administrador puede …»). Cada parte solo para administradores la
-- llama con su frase: las invitaciones aquí; los correos no entregados, las remesas y el libro
-- diario después.
create function interno.exigir_admin(p_mensaje text) returns void
language plpgsql stable security definer set search_path = '' as $$
begin
  perform interno.exigir_sesion();
  if not (select interno.es_admin()) then
    raise exception using errcode = 'OFPRM', detail = '', message = p_mensaje;
  end if;
end
$$;
revoke all on function interno.exigir_admin(text) from public, anon, authenticated;

create function interno.exigir_admin_invitaciones() returns void
language sql stable security definer set search_path = '' as $$
  select interno.exigir_admin('Solo un administrador puede invitar a personas o gestionar las invitaciones.') $$;

-- Por qué no se puede invitar a un correo: 'cuenta' (confirmada, o con perfil que no es una
-- invitación pendiente), 'pendiente' (invitación sin aceptar) o null. Una cuenta sin confirmar y
-- sin perfil (un alta de Supabase sin confirmar) sí se puede invitar: la invitación la usa.
create function interno.correo_ocupado(p_email text) returns text language sql stable security definer set search_path = '' as $$
  select case
    when p.id is null then case when u.email_confirmed_at is null then null else 'cuenta' end
    when i.usuario_id is not null and u.email_confirmed_at is null and p.activo then 'pendiente'
    else 'cuenta'
  end
  from auth.users u
  left join public.usuarios p on p.id = u.id
  left join public.invitaciones i on i.usuario_id = u.id
  where u.email = lower(btrim(p_email))
$$;

-- El perfil (empleado, activo) y la fila de invitaciones de la cuenta sin confirmar de p_email,
-- a nombre de quien invita. {"id": …} o {"ocupado": 'cuenta' | 'pendiente'}.
create function interno.alta_invitada(p_email text, p_nombre text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_id uuid;
  v_ocupado text;
begin
  perform interno.exigir_admin_invitaciones();
  -- Dos administradores invitando al mismo correo a la vez: el segundo ve la invitación del primero.
  perform pg_advisory_xact_lock(hashtext('oficina.invitar.' || v_email));
  select u.id into v_id from auth.users u where u.email = v_email;
  if v_id is null then
    raise exception using errcode = 'OFNTF', detail = 'email',
      message = 'No hay ninguna cuenta con ese correo: créela antes de invitar.';
  end if;
  v_ocupado := interno.correo_ocupado(v_email);
  if v_ocupado is not null then
    return jsonb_build_object('ocupado', v_ocupado);
  end if;
  insert into public.usuarios (id, email, nombre, rol)
  values (v_id, v_email, left(coalesce(nullif(btrim(p_nombre), ''), split_part(v_email, '@', 1)), 80), 'empleado');
  insert into public.invitaciones (usuario_id, invitada_por) values (v_id, (select auth.uid()));
  return jsonb_build_object('id', v_id);
end
$$;

-- security invoker: lo que elige el administrador se escribe con SUS privilegios (RLS, columnas y
-- disparadores del perfil, como en el formulario de edición). Todo o nada: una sola transacción.
create function public.invitar(
  p_email text, p_nombre text, p_apellidos text, p_rol text,
  p_departamento_id uuid, p_sucursal_id uuid, p_aprobador_id uuid
) returns jsonb language plpgsql set search_path = '' as $$
declare
  v_alta jsonb := interno.alta_invitada(p_email, p_nombre);
begin
  if v_alta ? 'ocupado' then
    return v_alta;
  end if;
  update public.usuarios
     set nombre = p_nombre, apellidos = p_apellidos, rol = p_rol,
         departamento_id = p_departamento_id, sucursal_id = p_sucursal_id, aprobador_id = p_aprobador_id
   where id = (v_alta ->> 'id')::uuid;
  if not found then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Solo un administrador puede invitar a personas.';
  end if;
  return v_alta;
end
$$;

create function public.invitacion_estado(p_email text) returns text
language plpgsql stable security definer set search_path = '' as $$
begin
  perform interno.exigir_admin_invitaciones();
  return interno.correo_ocupado(p_email);
end
$$;

-- Las invitaciones pendientes (la cuenta sin confirmar, el perfil activo), las más recientes
-- primero; con p_id, solo esa.
create function public.invitaciones_pendientes(p_limite integer default 200, p_id uuid default null)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
begin
  perform interno.exigir_admin_invitaciones();
  return (
    select coalesce(jsonb_agg(to_jsonb(x) order by x.enviada_en desc, x.email), '[]'::jsonb)
    from (
      select u.id, u.email,
             interno.nombre_completo(p.nombre, p.apellidos) as nombre_completo,
             p.rol, d.nombre as departamento_nombre, s.nombre as sucursal_nombre,
             interno.nombre_completo(a.nombre, a.apellidos) as invitada_por_nombre,
             i.enviada_en
      from public.invitaciones i
      join auth.users u on u.id = i.usuario_id
      join public.usuarios p on p.id = u.id
      left join public.departamentos d on d.id = p.departamento_id
      left join public.sucursales s on s.id = p.sucursal_id
      left join public.usuarios a on a.id = i.invitada_por
      where u.email_confirmed_at is null and p.activo and (p_id is null or u.id = p_id)
      order by i.enviada_en desc, u.email
      limit least(greatest(coalesce(p_limite, 200), 1), 1000)
    ) x
  );
end
$$;

create function public.invitacion_enviada(p_id uuid) returns void language plpgsql security definer set search_path = '' as $$
begin
  perform interno.exigir_admin_invitaciones();
  update public.invitaciones set enviada_en = now() where usuario_id = p_id;
end
$$;

-- Cancelar una invitación pendiente cuya cuenta nunca entró. Si otros registros ya mencionan la
-- cuenta (aprobador de alguien, responsable de un departamento…), el perfil se desactiva y la
-- invitación se da por cancelada: {"resultado": "desactivada"}. Si no, nada cambia aquí y la
-- respuesta es {"resultado": "eliminar"}: el servidor borra la cuenta en Supabase Auth y el perfil
-- y la invitación caen con ella (on delete cascade); si ese borrado falla, la invitación sigue
-- pendiente, sin cuentas a medias. Null si ya no está pendiente.
create function public.cancelar_invitacion(p_id uuid) returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v record;
begin
  perform interno.exigir_admin_invitaciones();
  select u.email, u.email_confirmed_at, u.last_sign_in_at into v
    from public.invitaciones i join auth.users u on u.id = i.usuario_id
   where i.usuario_id = p_id
   for update of i;
  if not found or v.email_confirmed_at is not null or v.last_sign_in_at is not null then
    return null;
  end if;
  begin
    -- Solo una prueba de si se puede borrar: se deshace siempre.
    delete from public.usuarios where id = p_id;
    raise exception using errcode = 'OFBOR';
  exception
    when sqlstate 'OFBOR' then
      return jsonb_build_object('email', v.email, 'resultado', 'eliminar');
    when foreign_key_violation then
      delete from public.invitaciones where usuario_id = p_id;
      update public.usuarios set activo = false where id = p_id;
      return jsonb_build_object('email', v.email, 'resultado', 'desactivada');
  end;
end
$$;

revoke execute on function
  interno.exigir_admin_invitaciones(), interno.correo_ocupado(text), interno.alta_invitada(text, text),
  public.invitar(text, text, text, text, uuid, uuid, uuid), public.invitacion_estado(text),
  public.invitaciones_pendientes(integer, uuid), public.invitacion_enviada(uuid), public.cancelar_invitacion(uuid)
  from public, anon, authenticated;
-- public.invitar (security invoker) llama a interno.alta_invitada con los privilegios de quien invita.
grant execute on function interno.alta_invitada(text, text) to authenticated, service_role;
grant execute on function
  public.invitar(text, text, text, text, uuid, uuid, uuid), public.invitacion_estado(text),
  public.invitaciones_pendientes(integer, uuid), public.invitacion_enviada(uuid), public.cancelar_invitacion(uuid)
  to authenticated, service_role;
