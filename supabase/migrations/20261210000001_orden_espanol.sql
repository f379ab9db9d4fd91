-- Oficina: orden alfabético español en las listas (issue 31).
--
-- Con la intercalación por defecto de la base (a menudo "C" u otra que ordena por bytes),
-- «Álvaro» e «Íñigo» salían después de «Víctor». Las columnas de texto por las que se ordena una
-- lista o un selector pasan a la intercalación ICU española ("es-x-icu"): el ORDER BY de
-- cualquier consulta la usa sin decirlo (también el de PostgREST, que no puede pedir otra), los
-- índices de esas columnas se rehacen con ella y las columnas de las vistas que derivan de ellas
-- (nombre completo, responsable, proveedor) la heredan. Las mismas reglas en los dos backends.
--
-- PostgreSQL no cambia una columna de la que dependen vistas, columnas generadas o disparadores:
-- se quitan las vistas, las columnas `busqueda` y el disparador busqueda_gastos, se cambian las
-- columnas y se vuelven a crear igual que en 20261125000004_rls y 20261201000001_busqueda (con
-- sus índices y privilegios).

drop view public.gastos_vista;
drop view public.historial_vista;
drop view public.departamentos_vista, public.sucursales_vista, public.proveedores_vista, public.usuarios_vista;

drop trigger busqueda_gastos on public.proveedores;
alter table public.proveedores drop column busqueda;
alter table public.departamentos drop column busqueda;
alter table public.sucursales drop column busqueda;
alter table public.usuarios drop column busqueda;

alter table public.usuarios
  alter column nombre type text collate "es-x-icu",
  alter column apellidos type text collate "es-x-icu",
  alter column puesto type text collate "es-x-icu";
alter table public.departamentos
  alter column nombre type text collate "es-x-icu";
alter table public.sucursales
  alter column nombre type text collate "es-x-icu",
  alter column ciudad type text collate "es-x-icu",
  alter column provincia type text collate "es-x-icu";
alter table public.proveedores
  alter column razon_social type text collate "es-x-icu",
  alter column nombre_comercial type text collate "es-x-icu",
  alter column ciudad type text collate "es-x-icu";
alter table public.gastos
  alter column descripcion type text collate "es-x-icu";

-- Como en 20261201000001_busqueda.
alter table public.proveedores add column busqueda text not null generated always as (interno.normalizar(
  razon_social || ' ' || coalesce(nombre_comercial, '') || ' ' || nif || ' ' || coalesce(email, '') || ' '
  || coalesce(ciudad, ''))) stored;
alter table public.departamentos add column busqueda text not null generated always as (interno.normalizar(
  nombre || ' ' || codigo || ' ' || coalesce(centro_costo, ''))) stored;
alter table public.sucursales add column busqueda text not null generated always as (interno.normalizar(
  nombre || ' ' || codigo || ' ' || ciudad || ' ' || direccion || ' ' || coalesce(provincia, ''))) stored;
alter table public.usuarios add column busqueda text not null generated always as (interno.normalizar(
  nombre || ' ' || coalesce(apellidos, '') || ' ' || email || ' ' || coalesce(puesto, ''))) stored;

create index proveedores_busqueda_idx on public.proveedores using gin (busqueda extensions.gin_trgm_ops);
create index departamentos_busqueda_idx on public.departamentos using gin (busqueda extensions.gin_trgm_ops);
create index sucursales_busqueda_idx on public.sucursales using gin (busqueda extensions.gin_trgm_ops);
create index usuarios_busqueda_idx on public.usuarios using gin (busqueda extensions.gin_trgm_ops);

create trigger busqueda_gastos after update of razon_social, nombre_comercial on public.proveedores
  for each row
  when (old.razon_social is distinct from new.razon_social or old.nombre_comercial is distinct from new.nombre_comercial)
  execute function interno.proveedores_busqueda_gastos();

-- Como en 20261125000004_rls.
create view public.historial_vista with (security_invoker = true) as
select h.*,
       nullif(btrim(concat_ws(' ', u.nombre, u.apellidos)), '') as actor_nombre
from public.historial h
left join public.usuarios u on u.id = h.actor_id;

revoke all on public.historial_vista from public, anon, authenticated;
grant select on public.historial_vista to authenticated, service_role;

-- Como en 20261201000001_busqueda.
create view public.departamentos_vista with (security_invoker = true) as
select d.*,
       p.nombre as departamento_padre_nombre,
       nullif(btrim(concat_ws(' ', r.nombre, r.apellidos)), '') as responsable_nombre
from public.departamentos d
left join public.departamentos p on p.id = d.departamento_padre_id
left join public.usuarios r on r.id = d.responsable_id;

create view public.sucursales_vista with (security_invoker = true) as
select s.*,
       nullif(btrim(concat_ws(' ', r.nombre, r.apellidos)), '') as responsable_nombre
from public.sucursales s
left join public.usuarios r on r.id = s.responsable_id;

create view public.proveedores_vista with (security_invoker = true) as
select p.*, interno.nombre_proveedor(p.razon_social, p.nombre_comercial) as nombre
from public.proveedores p;

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

revoke all on public.departamentos_vista, public.sucursales_vista, public.proveedores_vista, public.usuarios_vista
  from public, anon, authenticated;
grant select on public.departamentos_vista, public.sucursales_vista, public.proveedores_vista, public.usuarios_vista
  to authenticated, service_role;

select interno.crear_gastos_vista();
