-- Oficina: en la lista de gastos, dentro de una misma fecha, el más reciente primero.
--
-- La lista ordenada por fecha ordena después por creado_en (en el mismo sentido) y por último por
-- id (entities/gastos.ts `thenBy`): antes, los gastos de un día salían en el orden de sus ids, al
-- azar. Lo mismo en la búsqueda: buscar_gastos y las dos formas de buscar_gastos_pagina ordenan
-- así cuando el orden es fecha_gasto (redefinidas desde 20261211000001_busqueda_proveedor, con
-- solo ese cambio); por las demás columnas, como antes.

-- El orden de la lista, de un índice: la página sale de él sin ordenar las filas de una fecha.
-- Sustituye a los de (fecha_gasto, id) y (fecha_gasto desc, creado_en desc), que este cubre.
create index gastos_fecha_creado_id_idx on public.gastos (fecha_gasto, creado_en, id);
drop index public.gastos_fecha_gasto_id_idx;
drop index public.gastos_fecha_gasto_idx;

-- La clave que sigue a una columna del orden, antes de id: creado_en tras fecha_gasto; si no,
-- ninguna (un valor constante).
create function interno.buscar_gastos_despues(p_columna text) returns text
language sql immutable
set search_path = ''
as $$ select case when p_columna = 'fecha_gasto' then 'g.creado_en' else 'null::timestamptz' end $$;

revoke all on function interno.buscar_gastos_despues(text) from public, anon, authenticated;

create or replace function public.buscar_gastos(p_palabras text[], p_tope integer, p_orden text, p_ascendente boolean)
returns table (ids text, coincidencias bigint, exacto boolean, sumas jsonb)
language plpgsql stable security definer
set search_path = ''
-- Solo mapas de bits: sin esto, con LIMIT, el plan prefería leer la tabla en orden.
set enable_seqscan = off
set enable_indexscan = off
as $$
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

create or replace function interno.buscar_gastos_recorriendo(p_palabras text[], p_columna text, p_ascendente boolean,
  p_recorrer bigint, p_desde integer, p_cuantos integer, out ids text, out n bigint)
language plpgsql stable
set search_path = ''
set enable_seqscan = off
set enable_bitmapscan = off
set enable_sort = off
-- Unas miles de filas como mucho: arrancar procesos paralelos costaría más que leerlas.
set max_parallel_workers_per_gather = 0
as $$
declare
  v_sentido text := case when p_ascendente then 'asc' else 'desc' end;
begin
  execute format(
    'select string_agg(p.id::text, '','' order by p.o %2$s, p.o2 %2$s, p.id %2$s), count(*)
       from (select g.id, g.o, g.o2
               from (select g.*, g.%1$I as o, %7$s as o2 from public.gastos g
                      order by g.%1$I %2$s, %7$s %2$s, g.id %2$s limit %3$s) as g
              where %4$s order by g.o %2$s, g.o2 %2$s, g.id %2$s offset %5$s limit %6$s) p',
    p_columna, v_sentido, p_recorrer, interno.buscar_gastos_donde(p_palabras, false), p_desde, p_cuantos,
    interno.buscar_gastos_despues(p_columna))
    into ids, n;
end
$$;

create or replace function interno.buscar_gastos_ordenando(p_palabras text[], p_columna text, p_ascendente boolean,
  p_desde integer, p_cuantos integer) returns text
language plpgsql stable
set search_path = ''
set enable_seqscan = off
set enable_indexscan = off
as $$
declare
  v_sentido text := case when p_ascendente then 'asc' else 'desc' end;
  v_ids text;
begin
  execute format(
    'select string_agg(p.id::text, '','' order by p.o %2$s, p.o2 %2$s, p.id %2$s)
       from (select g.id, g.%1$I as o, %6$s as o2 from public.gastos g where %3$s
              order by g.%1$I %2$s, %6$s %2$s, g.id %2$s offset %4$s limit %5$s) p',
    p_columna, v_sentido, interno.buscar_gastos_donde(p_palabras, true), p_desde, p_cuantos,
    interno.buscar_gastos_despues(p_columna))
    into v_ids;
  return v_ids;
end
$$;
