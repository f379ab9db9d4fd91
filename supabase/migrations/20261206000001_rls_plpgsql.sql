-- Oficina: las funciones auxiliares de la RLS, en PL/pgSQL (issue 19, ADR 0008).
--
-- Una función SQL con SECURITY DEFINER no se puede incrustar en la consulta que la llama, y
-- PostgreSQL 17 vuelve a analizar y planificar su cuerpo en cada consulta que la usa: cada
-- `(select interno.rol_actual())` de una política se planificaba otra vez, y una página de gastos
-- hace diez (una por tabla de gastos_vista y de su subconsulta). Una función PL/pgSQL guarda el
-- plan de su consulta en la sesión. Mismo cuerpo, mismo resultado, mismos privilegios
-- (create or replace los conserva); el search_path sigue fijo y vacío.

create or replace function interno.rol_actual() returns text
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (select u.rol from public.usuarios u where u.id = (select auth.uid()) and u.activo);
end
$$;

create or replace function interno.es_admin() returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return coalesce(interno.rol_actual() = 'administrador', false);
end
$$;

create or replace function interno.departamento_actual() returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (select u.departamento_id from public.usuarios u where u.id = (select auth.uid()) and u.activo);
end
$$;

create or replace function interno.departamentos_a_cargo() returns uuid[]
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (select coalesce(array_agg(d.id), '{}')
            from public.departamentos d
            join public.usuarios u on u.id = d.responsable_id and u.activo
           where d.responsable_id = (select auth.uid()));
end
$$;

create or replace function interno.solicitantes_de(p_actor uuid) returns uuid[]
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
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
            or s.departamento_id in (select a.id from a_cargo a)));
end
$$;

create or replace function interno.solicitantes_a_cargo() returns uuid[]
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return interno.solicitantes_de(auth.uid());
end
$$;
