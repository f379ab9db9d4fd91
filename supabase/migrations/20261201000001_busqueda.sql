-- Oficina: la búsqueda sin acentos, sin mayúsculas y palabra a palabra (issue 18).
-- Decisión: docs/decisions/0019-busqueda.md.
--
-- Cada tabla con lista lleva `busqueda`: el texto de sus columnas buscables, en minúsculas y sin
-- acentos (interno.normalizar), escrito por la base de datos (columna generada; en gastos, un
-- disparador, porque incluye los nombres de su proveedor). La aplicación parte lo que se escribe
-- en palabras, las normaliza igual (app/lib/busqueda.ts) y pide que cada una esté en `busqueda`:
-- «hotel barcelona» encuentra «Hotel en Barcelona», «cafe» encuentra «Café». Es un
-- `ilike '%palabra%'` por palabra, que PostgREST también sabe pedir, así que los dos adaptadores
-- devuelven las mismas filas; un índice de trigramas por tabla lo sirve. Solo entran columnas que
-- ve quien ve la fila (nunca notas ni teléfonos): buscar no revela nada que la lista o la ficha no
-- muestren.

create extension if not exists unaccent with schema extensions;
create extension if not exists pg_trgm with schema extensions;

-- unaccent() es STABLE (lee su diccionario, que podría cambiar); con el diccionario escrito y
-- fijo se declara IMMUTABLE para poder usarla en columnas generadas e índices. Primero quita los
-- acentos y después pasa a minúsculas: así «É» da «e» sea cual sea la configuración regional.
create function interno.normalizar(p_texto text) returns text language sql immutable strict parallel safe set search_path = ''
as $$ select lower(extensions.unaccent('extensions.unaccent'::regdictionary, p_texto)) $$;

revoke all on function interno.normalizar(text) from public;
grant execute on function interno.normalizar(text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- El texto buscable de cada tabla (lo que la lista dice que se busca: app/entities/*.ts)
-- ---------------------------------------------------------------------------------------------
-- Las columnas se unen con un espacio: una palabra (sin espacios) nunca empareja a caballo de dos.

alter table public.proveedores add column busqueda text not null generated always as (interno.normalizar(
  razon_social || ' ' || coalesce(nombre_comercial, '') || ' ' || nif || ' ' || coalesce(email, '') || ' '
  || coalesce(ciudad, ''))) stored;
alter table public.departamentos add column busqueda text not null generated always as (interno.normalizar(
  nombre || ' ' || codigo || ' ' || coalesce(centro_costo, ''))) stored;
alter table public.sucursales add column busqueda text not null generated always as (interno.normalizar(
  nombre || ' ' || codigo || ' ' || ciudad || ' ' || direccion || ' ' || coalesce(provincia, ''))) stored;
alter table public.usuarios add column busqueda text not null generated always as (interno.normalizar(
  nombre || ' ' || coalesce(apellidos, '') || ' ' || email || ' ' || coalesce(puesto, ''))) stored;

-- Un índice de trigramas por tabla sobre su texto buscable (ninguno por columna).
create index proveedores_busqueda_idx on public.proveedores using gin (busqueda extensions.gin_trgm_ops);
create index departamentos_busqueda_idx on public.departamentos using gin (busqueda extensions.gin_trgm_ops);
create index sucursales_busqueda_idx on public.sucursales using gin (busqueda extensions.gin_trgm_ops);
create index usuarios_busqueda_idx on public.usuarios using gin (busqueda extensions.gin_trgm_ops);

-- ---------------------------------------------------------------------------------------------
-- gastos.busqueda: su folio, descripción y número de factura, y los nombres de su proveedor
-- ---------------------------------------------------------------------------------------------
-- Una columna generada no puede leer otra tabla: la escribe un disparador. Con los nombres del
-- proveedor dentro, cada palabra es una condición sobre una columna con índice, en lugar de «en el
-- gasto o en su proveedor» (dos búsquedas por palabra, y la segunda, cuando la palabra es de un
-- proveedor con muchos gastos, una lista enorme de filas que cruzar). Del proveedor, solo sus dos
-- nombres (no su ciudad, correo ni NIF): lo que la lista de gastos muestra de él.
--
-- `oficina.solo_busqueda` = 'si' marca una actualización que solo rehace este texto (cuando un
-- proveedor cambia de nombre): no es una edición del gasto, así que no cambia su versión ni su
-- fecha de actualización (tocar_version), y el historial no la cuenta (interno.columnas_derivadas).

alter table public.gastos add column busqueda text not null default '';

create function interno.gastos_texto_busqueda() returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_proveedor text;
begin
  if tg_op = 'UPDATE' and current_setting('oficina.solo_busqueda', true) is distinct from 'si'
     and (new.folio, new.descripcion, new.numero_factura, new.proveedor_id)
         is not distinct from (old.folio, old.descripcion, old.numero_factura, old.proveedor_id) then
    new.busqueda := old.busqueda;
    return new;
  end if;
  -- Un gasto nuevo, o que cambia de proveedor, no lo ve el cambio de nombre que ese proveedor
  -- tenga en curso: FOR SHARE espera a que termine y lee los nombres nuevos. Los demás gastos ya
  -- los rehace ese cambio (espera a la fila del gasto).
  if tg_op = 'INSERT' or new.proveedor_id is distinct from old.proveedor_id then
    select p.razon_social || ' ' || coalesce(p.nombre_comercial, '') into v_proveedor
      from public.proveedores p where p.id = new.proveedor_id for share;
  else
    select p.razon_social || ' ' || coalesce(p.nombre_comercial, '') into v_proveedor
      from public.proveedores p where p.id = new.proveedor_id;
  end if;
  new.busqueda := interno.normalizar(
    new.folio || ' ' || new.descripcion || ' ' || coalesce(new.numero_factura, '') || ' ' || coalesce(v_proveedor, ''));
  return new;
end
$$;

-- Después de gastos_asignar_folio y gastos_validar (que fijan el folio): los disparadores BEFORE
-- se ejecutan por orden de nombre.
create trigger texto_busqueda before insert or update on public.gastos
  for each row execute function interno.gastos_texto_busqueda();

create function interno.proveedores_busqueda_gastos() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  perform set_config('oficina.solo_busqueda', 'si', true);
  -- El valor lo pone texto_busqueda, con los nombres nuevos.
  update public.gastos g set busqueda = default where g.proveedor_id = new.id;
  perform set_config('oficina.solo_busqueda', '', true);
  return null;
end
$$;

create trigger busqueda_gastos after update of razon_social, nombre_comercial on public.proveedores
  for each row
  when (old.razon_social is distinct from new.razon_social or old.nombre_comercial is distinct from new.nombre_comercial)
  execute function interno.proveedores_busqueda_gastos();

revoke all on function interno.gastos_texto_busqueda() from public;
revoke all on function interno.proveedores_busqueda_gastos() from public;

create index gastos_busqueda_idx on public.gastos using gin (busqueda extensions.gin_trgm_ops);

-- ---------------------------------------------------------------------------------------------
-- Las vistas de las listas, con `busqueda`
-- ---------------------------------------------------------------------------------------------
-- Su `*` se expande al crear la vista, así que se crean aquí, tras la columna, y no en
-- 20261125000004_rls con las demás (security_invoker: aplican la RLS de quien consulta). Las de
-- departamentos y proveedores leen además su dato reservado de una tabla aparte: están en
-- 20261226000001_datos_por_necesidad, con ella.

create view public.sucursales_vista with (security_invoker = true) as
select s.*,
       interno.nombre_completo(r.nombre, r.apellidos) as responsable_nombre
from public.sucursales s
left join public.usuarios r on r.id = s.responsable_id;

create view public.usuarios_vista with (security_invoker = true) as
select u.*,
       interno.nombre_completo(u.nombre, u.apellidos) as nombre_completo,
       d.nombre as departamento_nombre,
       s.nombre as sucursal_nombre,
       interno.nombre_completo(a.nombre, a.apellidos) as aprobador_nombre
from public.usuarios u
left join public.departamentos d on d.id = u.departamento_id
left join public.sucursales s on s.id = u.sucursal_id
left join public.usuarios a on a.id = u.aprobador_id;

revoke all on public.sucursales_vista, public.usuarios_vista from public, anon, authenticated;
grant select on public.sucursales_vista, public.usuarios_vista to authenticated, service_role;


-- ---------------------------------------------------------------------------------------------
-- buscar_gastos, palabra a palabra
-- ---------------------------------------------------------------------------------------------
-- Con RLS, PostgreSQL solo usa en un índice las condiciones con operadores LEAKPROOF, y ILIKE no
-- lo es: `busqueda ilike '%taxi%'` leería la tabla entera aunque exista el índice de trigramas.
-- buscar_gastos(palabras, tope) busca como propietaria (sin RLS, con el índice) y aplica ella
-- misma la regla de visibilidad de la política gastos_select (los borradores ajenos no cuentan),
-- así que solo cuenta gastos que quien la llama puede ver. Cada una de p_palabras (ya
-- normalizadas por quien llama, como en la condición de la lista) está en el texto del gasto, que
-- incluye los nombres de su proveedor. Las palabras de menos de tres letras no tienen trigramas:
-- si hay alguna más larga, se comprueban solo en las filas que esa encuentra (escritas de forma
-- que el índice no las use; la condición la escribe interno.buscar_gastos_donde,
-- 20261211000001_busqueda_proveedor). Lee como mucho p_tope + 1 coincidencias y responde:
--   * cuántas son y la suma de su importe, exactas, hasta p_tope; más allá, una estimación (una
--     muestra de unas 250 páginas) y sin suma (`exacto` lo dice);
--   * sus ids (texto 'a,b,c') siempre que las coincidencias no pasan del tope, ordenados como la
--     lista que los pide: por p_orden, una columna de gastos (fecha_gasto, importe, descripcion,
--     categoria, estado o folio), después por creado_en si es fecha_gasto
--     (interno.buscar_gastos_despues, 20261231000001_orden_dentro_de_la_fecha) y por último por id,
--     todos en el sentido de p_ascendente. La lista filtra con `id = any(...)` (uuid_eq sí es
--     LEAKPROOF) y su página es un trozo de ellos. Por encima del tope, la página la da
--     buscar_gastos_pagina (20261211000001_busqueda_proveedor);
--   * y los proveedores primero: si los gastos de los proveedores cuyos nombres tienen todas las
--     palabras ya pasan del tope, se sabe contándolos en el índice de proveedor_id
--     (interno.gastos_de_proveedores), sin leer tope + 1 filas de la tabla.
-- Sin p_tope devuelve todos los ids, sin ordenar (la exportación). La consulta se planifica con
-- los patrones escritos (SQL dinámico): con ellos como parámetros, el plan genérico con LIMIT
-- recorría la tabla entera para términos raros. La forma con un término (p_termino) busca ese
-- texto entero, como una sola palabra.
-- Con LIKE y cada palabra en minúsculas (lower, como interno.normalizar): `busqueda` ya lo está, y
-- ILIKE pasaría a minúsculas el texto de cada fila que comprueba; la respuesta es la misma.
-- Ordenada por fecha y sin más filtros, una página son 25 de los ids
-- (performance/search.server.ts).

create function public.buscar_gastos(p_palabras text[], p_tope integer, p_orden text, p_ascendente boolean)
returns table (ids text, coincidencias bigint, exacto boolean, sumas jsonb)
language plpgsql stable security definer set search_path = ''
-- Solo mapas de bits: sin esto, con LIMIT, el plan prefería leer la tabla en orden.
set enable_seqscan = off set enable_indexscan = off as $$
declare
  v_palabras text[];
  v_columna text := case when p_orden in ('fecha_gasto', 'importe', 'descripcion', 'categoria', 'estado', 'folio') then p_orden end;
  v_sentido text := case when p_ascendente then 'asc' else 'desc' end;
  v_n bigint;
  v_suma text;
  v_ids text;
  v_proveedores uuid[];
  v_muestra bigint;
  v_porcentaje numeric;
begin
  if p_tope is not null and v_columna is null then
    raise exception 'buscar_gastos no ordena por %', p_orden using errcode = '22023';
  end if;
  v_palabras := array(select x from unnest(coalesce(p_palabras, '{}')) as y (x) where btrim(x) <> '');
  if (select interno.rol_actual()) is null or cardinality(v_palabras) = 0 then
    return query select ''::text, 0::bigint, true, jsonb_build_object('importe', '0');
    return;
  end if;
  -- Los proveedores primero: los gastos de uno cuyos nombres tienen todas las palabras las tienen
  -- todas (sus nombres están en su busqueda). Si esos ya pasan del tope, la respuesta es la
  -- estimación, y contarlos es leer el índice de proveedor_id, no tope + 1 filas de la tabla. Con
  -- la visibilidad de quien no es administrador habría que leer las filas: solo para él.
  if p_tope is not null and (select interno.rol_actual()) = 'administrador' then
    v_proveedores := array(
      select p.id from public.proveedores p
       where interno.normalizar(p.razon_social || ' ' || coalesce(p.nombre_comercial, '')) like all (
         select lower('%' || replace(replace(replace(w, '\', '\\'), '%', '\%'), '_', '\_') || '%') from unnest(v_palabras) as z (w)));
    if cardinality(v_proveedores) > 0 and interno.gastos_de_proveedores(v_proveedores, p_tope + 1) > p_tope then
      v_n := p_tope + 1;
    end if;
  end if;
  if v_n is null then
    -- Con tope, los ids ordenados y solo si no pasan de él; sin tope, todos, como salen.
    execute format(
      'with x as materialized (select g.id, g.importe, %1$s as o, %6$s as o2 from public.gastos g where %2$s limit %3$s)
       select a.n, a.suma, case when %4$s then (select string_agg(x.id::text, '','' %5$s) from x) end
         from (select count(*) as n, coalesce(sum(x.importe), 0)::text as suma from x) a',
      case when p_tope is null then 'null::text' else 'g.' || v_columna end,
      interno.buscar_gastos_donde(v_palabras, true),
      coalesce((p_tope + 1)::text, 'all'),
      case when p_tope is null then 'true' else format('a.n <= %s', p_tope) end,
      case when p_tope is null then '' else format('order by x.o %1$s, x.o2 %1$s, x.id %1$s', v_sentido) end,
      interno.buscar_gastos_despues(v_columna))
      into v_n, v_suma, v_ids;
  end if;
  if p_tope is null then
    return query select coalesce(v_ids, ''), v_n, true, jsonb_build_object('importe', v_suma);
    return;
  end if;
  if v_n <= p_tope then
    return query select coalesce(v_ids, ''), v_n, true, jsonb_build_object('importe', v_suma);
    return;
  end if;
  -- Unas 250 páginas de la tabla (toda, si es pequeña).
  v_porcentaje := least(100, 25000.0 / greatest(1, (select c.relpages from pg_catalog.pg_class c where c.oid = 'public.gastos'::regclass)));
  execute format('select round(count(*) * 100 / %s) from public.gastos g tablesample system (%s) repeatable (0) where %s',
    v_porcentaje, v_porcentaje, interno.buscar_gastos_donde(v_palabras, true))
    into v_muestra;
  return query select null::text, greatest(p_tope + 1, v_muestra), false, null::jsonb;
end
$$;

revoke execute on function public.buscar_gastos(text[], integer, text, boolean) from public, anon, authenticated;
grant execute on function public.buscar_gastos(text[], integer, text, boolean) to authenticated, service_role;

-- La forma de la lista en su orden por defecto (fecha_gasto descendente, después creado_en e id).
create function public.buscar_gastos(p_palabras text[], p_tope integer default null)
returns table (ids text, coincidencias bigint, exacto boolean, sumas jsonb) language sql stable set search_path = ''
as $$ select * from public.buscar_gastos(p_palabras, p_tope, 'fecha_gasto', false) $$;


create function public.buscar_gastos(p_termino text, p_tope integer default null)
returns table (ids text, coincidencias bigint, exacto boolean, sumas jsonb) language sql stable set search_path = ''
as $$ select * from public.buscar_gastos(array[interno.normalizar(p_termino)], p_tope) $$;

revoke execute on function public.buscar_gastos(text[], integer) from public, anon, authenticated;
grant execute on function public.buscar_gastos(text[], integer) to authenticated, service_role;
revoke execute on function public.buscar_gastos(text, integer) from public, anon, authenticated;
grant execute on function public.buscar_gastos(text, integer) to authenticated, service_role;
