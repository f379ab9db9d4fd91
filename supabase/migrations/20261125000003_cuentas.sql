-- Oficina: cada cuenta nueva (auth.users, de Supabase o de supabase/compat) tiene su perfil en
-- public.usuarios. La primera cuenta de un sistema vacío es administrador; las demás, empleado.

create function interno.crear_perfil_usuario() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_rol text;
  v_email text := lower(btrim(coalesce(new.email, '')));
  v_nombre text;
begin
  -- "La primera cuenta" sin carreras: dos altas simultáneas se serializan aquí.
  perform pg_advisory_xact_lock(hashtext('oficina.usuarios.primera_cuenta'));
  if exists (select 1 from public.usuarios) then
    v_rol := 'empleado';
  else
    v_rol := 'administrador';
  end if;

  v_nombre := nullif(btrim(coalesce(new.raw_user_meta_data ->> 'nombre', '')), '');
  if v_nombre is null then
    v_nombre := nullif(split_part(v_email, '@', 1), '');
  end if;
  v_nombre := left(coalesce(v_nombre, 'Usuario'), 80);

  insert into public.usuarios (id, email, nombre, rol)
  values (new.id, v_email, v_nombre, v_rol);
  return null;
end
$$;

create trigger crear_perfil_usuario after insert on auth.users
  for each row execute function interno.crear_perfil_usuario();

create function interno.sincronizar_email_usuario() returns trigger
language plpgsql security definer
set search_path = ''
as $$
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
