-- Oficina: cada cuenta (auth.users, de Supabase o de supabase/compat) tiene su perfil en
-- public.usuarios, que nace cuando la cuenta queda confirmada, no al darse de alta (issue 15).
--
-- Supabase Auth crea la fila de auth.users al darse de alta, sin confirmar, y se queda con la
-- contraseña de la primera alta de ese correo. Con el perfil creado en ese momento, quien se
-- diera de alta antes con el correo de otra persona tendría perfil, nombre y, en un sistema
-- vacío, «la primera cuenta» (administrador). Regla, igual en los dos backends:
--
--   * el perfil nace cuando la cuenta queda confirmada: al insertarla ya confirmada (backend
--     integrado, cuentas creadas confirmadas desde el panel) o cuando email_confirmed_at pasa de
--     null a una fecha (el enlace de Supabase Auth);
--   * una invitación es la única cuenta sin confirmar con perfil: lo escribe el administrador
--     que invita (public.invitar, 20261125000008_invitaciones.sql), y al confirmarse la cuenta
--     el perfil se queda como está;
--   * la primera cuenta confirmada de un sistema vacío es administrador; las demás, empleado;
--   * el perfil de un alta lleva `alta_propia` (la RLS solo le deja ver lo suyo hasta que un
--     administrador le ubique, interno.ubicado); el de la primera cuenta (la administradora) no,
--     ni el que escribe public.invitar (lo elige un administrador).
--
-- Aquí solo se crean disparadores sobre auth.users, nunca se borran: en Supabase solo el dueño
-- de auth.users puede borrarlos.

create function interno.crear_perfil_usuario() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_rol text;
  v_email text := lower(btrim(coalesce(new.email, '')));
  v_nombre text;
begin
  if new.email_confirmed_at is null or (tg_op = 'UPDATE' and old.email_confirmed_at is not null) then
    return null;
  end if;

  -- "La primera cuenta" sin carreras: dos confirmaciones simultáneas se serializan aquí.
  perform pg_advisory_xact_lock(hashtext('oficina.usuarios.primera_cuenta'));
  -- Invitada: su perfil lo escribió el administrador al invitarla.
  if exists (select 1 from public.usuarios u where u.id = new.id) then
    return null;
  end if;
  if exists (select 1 from public.usuarios u join auth.users a on a.id = u.id
             where a.email_confirmed_at is not null) then
    v_rol := 'empleado';
  else
    v_rol := 'administrador';
  end if;

  v_nombre := nullif(btrim(coalesce(new.raw_user_meta_data ->> 'nombre', '')), '');
  if v_nombre is null then
    v_nombre := nullif(split_part(v_email, '@', 1), '');
  end if;
  v_nombre := left(coalesce(v_nombre, 'Usuario'), 80);

  insert into public.usuarios (id, email, nombre, rol, alta_propia)
  values (new.id, v_email, v_nombre, v_rol, v_rol <> 'administrador');
  return null;
end
$$;

create trigger crear_perfil_usuario after insert on auth.users for each row execute function interno.crear_perfil_usuario();

create trigger crear_perfil_al_confirmar after update of email_confirmed_at on auth.users
  for each row
  when (old.email_confirmed_at is null and new.email_confirmed_at is not null)
  execute function interno.crear_perfil_usuario();

create function interno.sincronizar_email_usuario() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  update public.usuarios
     set email = lower(btrim(new.email))
   where id = new.id and email is distinct from lower(btrim(new.email));
  return null;
end
$$;

create trigger sincronizar_email_usuario after update of email on auth.users
  for each row
  when (old.email is distinct from new.email and new.email is not null)
  execute function interno.sincronizar_email_usuario();
