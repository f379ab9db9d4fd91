-- Oficina: quien se da de alta solo ve lo suyo hasta que un administrador le ubique (issue 28,
-- agujero 3). Igual en los dos backends: la regla está aquí, en la RLS, no solo en las pantallas.
--
-- Un alta abierta (o una cuenta creada confirmada desde el panel de Supabase) es una persona que
-- nadie ha comprobado todavía: con la RLS de siempre leía el directorio (correos y teléfonos de
-- todos), los proveedores y los departamentos. Ahora:
--
--   * el perfil que crea el disparador de auth.users para un alta lleva `alta_propia`; el de la
--     primera cuenta (la administradora) no, ni el que escribe public.invitar (lo elige un
--     administrador);
--   * mientras sea un empleado de alta propia sin departamento («pendiente»), solo ve sus gastos
--     (y lo que cuelga de ellos) y su propio perfil: ni el directorio, ni proveedores, ni
--     departamentos, ni sucursales, ni el historial de otras tablas;
--   * en cuanto un administrador le asigna un departamento (o le da otro rol), deja de estarlo.
--
-- `alta_propia` no se concede a `authenticated`: nadie se lo quita a sí mismo; y el departamento
-- propio solo lo cambia un administrador (interno.usuarios_proteger).

alter table public.usuarios add column alta_propia boolean not null default false;

create or replace function interno.crear_perfil_usuario() returns trigger
language plpgsql security definer
set search_path = ''
as $$
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

-- Quien consulta (activo) ya está ubicado: administrador, aprobador, invitado, o con departamento.
create function interno.ubicado() returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return coalesce((select not (u.alta_propia and u.departamento_id is null and u.rol = 'empleado')
                     from public.usuarios u
                    where u.id = (select auth.uid()) and u.activo), false);
end
$$;
revoke execute on function interno.ubicado() from public, anon;
grant execute on function interno.ubicado() to authenticated, service_role;

-- departamentos, sucursales y proveedores: ver, quien está ubicado.
alter policy departamentos_select on public.departamentos using ((select interno.ubicado()));
alter policy sucursales_select on public.sucursales using ((select interno.ubicado()));
alter policy proveedores_select on public.proveedores using ((select interno.ubicado()));

-- usuarios: el directorio, quien está ubicado; su propio perfil, cualquiera activo.
alter policy usuarios_select on public.usuarios
  using ((select interno.ubicado())
         or (id = (select auth.uid()) and (select interno.rol_actual()) is not null));

-- gastos: la regla de siempre; quien está pendiente, solo los suyos.
alter policy gastos_select on public.gastos
  using (
    (select interno.rol_actual()) is not null
    and (
      (select interno.es_admin())
      or solicitante_id = (select auth.uid())
      or ((select interno.ubicado())
          and estado <> 'borrador'
          and (aprobador_id = (select auth.uid())
               or ((select interno.rol_actual()) = 'aprobador'
                   and departamento_id = (select interno.departamento_actual()))
               or departamento_id = any ((select interno.departamentos_a_cargo())::uuid[])
               or solicitante_id = any ((select interno.solicitantes_a_cargo())::uuid[])))
    )
  );

-- historial: el de sus gastos y el de su perfil, quien está pendiente; el resto, como antes.
alter policy historial_select on public.historial
  using (
    (select interno.rol_actual()) is not null
    and (case
           when tabla = 'gastos' then exists (select 1 from public.gastos g where g.id = registro_id)
           when (select interno.ubicado()) then true
           else tabla = 'usuarios' and registro_id = (select auth.uid())
         end)
  );

-- usuarios_vista lleva `u.*`: se recrea (con sus privilegios) para que incluya la columna nueva.
drop view public.usuarios_vista;
create view public.usuarios_vista with (security_invoker = true) as
select u.*,
       nullif(btrim(concat_ws(' ', u.nombre, u.apellidos)), '') as nombre_completo,
       d.nombre as departamento_nombre,
       s.nombre as sucursal_nombre,
       nullif(btrim(concat_ws(' ', a.nombre, a.apellidos)), '') as aprobador_nombre
from public.usuarios u
left join public.departamentos d on d.id = u.departamento_id
left join public.sucursales s on s.id = u.sucursal_id
left join public.usuarios a on a.id = u.aprobador_id;

revoke all on public.usuarios_vista from public, anon, authenticated;
grant select on public.usuarios_vista to authenticated, service_role;
