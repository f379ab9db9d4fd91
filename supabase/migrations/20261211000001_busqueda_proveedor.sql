-- Oficina: buscar el nombre de un proveedor cuesta lo mismo que buscar un folio.
-- Decisión: docs/decisions/0019-busqueda.md («Many matches»). Cifras: bench/README.md.
--
-- Un proveedor tiene miles de gastos, y su nombre está en el `busqueda` de cada uno: buscarlo da
-- más coincidencias de las que buscar_gastos devolvía por id (5·√filas), y la lista aplicaba
-- entonces la búsqueda como condición (ILIKE, que bajo RLS no usa índices) para recorrer el
-- índice de su orden. El planificador elegía ese plan por el patrón escrito: creyendo que casaban
-- unas pocas filas (con dos palabras, aún menos), leía y ordenaba la tabla entera antes del LIMIT.
-- Ahora la página de una búsqueda no depende de esa estimación:
--   * hasta el tope de la cuenta exacta, buscar_gastos devuelve los ids de todas las
--     coincidencias, ordenados como la lista (por una columna de gastos; la página es un trozo
--     de ellos); por el nombre de un registro relacionado, la lista ordena esas filas, leídas por
--     su clave primaria;
--   * por encima del tope, la página la da buscar_gastos_pagina, como propietaria: recorre el
--     índice del orden, o si las coincidencias no están al principio de él, las lee todas por el
--     índice de trigramas y las ordena; nunca la tabla entera;
--   * y los proveedores primero: si los gastos de los proveedores cuyos nombres tienen todas las
--     palabras ya pasan del tope, se sabe contándolos en el índice de proveedor_id.
-- Las filas, su orden, las cuentas y las sumas son los mismos. gastos no cambia: la vista no se
-- recrea.

-- ---------------------------------------------------------------------------------------------
-- La condición de una búsqueda, para las dos funciones
-- ---------------------------------------------------------------------------------------------
-- El WHERE (sobre `public.gastos g`) de p_palabras, ya normalizadas, con la visibilidad de la
-- política gastos_select escrita con sus valores: lo que buscar_gastos escribía en
-- 20261201000001_busqueda, ahora aquí para las dos. p_por_indice: las palabras de menos de tres
-- letras, si hay alguna más larga, escritas de forma que el índice de trigramas no las use (se
-- comprueban en las filas que encuentran las largas); si no, todas iguales (fila a fila).
create function interno.buscar_gastos_donde(p_palabras text[], p_por_indice boolean) returns text
language plpgsql stable set search_path = '' as $$
declare
  v_rol text := (select interno.rol_actual());
  v_yo uuid := (select auth.uid());
  v_departamentos uuid[];
  v_palabra text;
  v_larga boolean;
  v_patron text;
  v_donde text := 'true';
begin
  v_larga := p_por_indice and exists (select from unnest(p_palabras) as z (p) where char_length(p) >= 3);
  foreach v_palabra in array p_palabras loop
    v_patron := quote_literal(lower('%' || replace(replace(replace(v_palabra, '\', '\\'), '%', '\%'), '_', '\_') || '%'));
    v_donde := v_donde || format(' and %s like %s',
      case when v_larga and char_length(v_palabra) < 3 then '(g.busqueda || '''')' else 'g.busqueda' end, v_patron);
  end loop;
  if v_rol <> 'administrador' then
    v_departamentos := (select interno.departamentos_a_cargo())
      || case when v_rol = 'aprobador' then array[(select interno.departamento_actual())] else '{}'::uuid[] end;
    v_donde := v_donde || format(' and (g.solicitante_id = %1$L or (g.estado <> %4$L and (g.aprobador_id = %1$L or g.departamento_id = any (%2$L::uuid[]) or g.solicitante_id = any (%3$L::uuid[]))))',
      v_yo, array_remove(v_departamentos, null), (select interno.solicitantes_a_cargo()), 'borrador');
  end if;
  return v_donde;
end
$$;

revoke all on function interno.buscar_gastos_donde(text[], boolean) from public, anon, authenticated;

-- Cuántos gastos tienen uno de esos proveedores, hasta p_hasta: solo el índice de proveedor_id
-- (un «index-only scan», que las opciones de buscar_gastos, solo mapas de bits, no permiten).
create function interno.gastos_de_proveedores(p_proveedores uuid[], p_hasta bigint) returns bigint
language sql stable set search_path = '' set enable_indexscan = on set enable_bitmapscan = off
as $$ select count(*) from (select from public.gastos g where g.proveedor_id = any (p_proveedores) limit p_hasta) x $$;

revoke all on function interno.gastos_de_proveedores(uuid[], bigint) from public, anon, authenticated;

-- buscar_gastos, en el orden de la lista (los ids de todas las coincidencias hasta el tope), está
-- en su forma final en 20261201000001_busqueda.

-- ---------------------------------------------------------------------------------------------
-- buscar_gastos_pagina: una página de más coincidencias que el tope, en el orden de la lista
-- ---------------------------------------------------------------------------------------------
-- Cuando buscar_gastos no da los ids (pasan del tope), la lista ordenada por una de esas columnas
-- y sin más filtros pide aquí los de su página, como propietaria y con la visibilidad de
-- gastos_select. Siendo tantas, lo normal es que estén repartidas por el orden: se recorre el
-- índice de ese orden (el de importe_centimos para importe: el mismo orden) comprobando cada
-- fila hasta completar la página, como mucho unas filas por cada una de ella y las anteriores.
-- Si no se completa (las de un proveedor de hace un año, en orden de fecha descendente; o la
-- última página), se leen todas las coincidencias por el índice de trigramas y se ordenan: nunca
-- la tabla entera en su orden.
-- Por fecha_gasto, dentro de una misma fecha, el más reciente primero (creado_en,
-- interno.buscar_gastos_despues, 20261231000001_orden_dentro_de_la_fecha); después, por id.
-- Devuelve los ids de la página en ese orden, como texto 'a,b,c'. Cada forma de leer, en su
-- función: las opciones del planificador de una función valen mientras se ejecuta.

-- La página entre las que coinciden de las primeras p_recorrer filas del índice del orden (ni
-- mapas de bits ni ordenaciones: el recorrido se detiene al completarla), y cuántas tiene.
create function interno.buscar_gastos_recorriendo(p_palabras text[], p_columna text, p_ascendente boolean,
  p_recorrer bigint, p_desde integer, p_cuantos integer, out ids text, out n bigint)
language plpgsql stable set search_path = '' set enable_seqscan = off set enable_bitmapscan = off set enable_sort = off
-- Unas miles de filas como mucho: arrancar procesos paralelos costaría más que leerlas.
set max_parallel_workers_per_gather = 0 as $$
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

-- Todas las coincidencias por el índice de trigramas (solo mapas de bits), ordenadas, y la página.
create function interno.buscar_gastos_ordenando(p_palabras text[], p_columna text, p_ascendente boolean,
  p_desde integer, p_cuantos integer) returns text
language plpgsql stable set search_path = '' set enable_seqscan = off set enable_indexscan = off as $$
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

revoke all on function interno.buscar_gastos_recorriendo(text[], text, boolean, bigint, integer, integer) from public, anon, authenticated;
revoke all on function interno.buscar_gastos_ordenando(text[], text, boolean, integer, integer) from public, anon, authenticated;

create function public.buscar_gastos_pagina(p_palabras text[], p_orden text, p_ascendente boolean, p_desde integer, p_cuantos integer)
returns text language plpgsql stable security definer set search_path = '' as $$
declare
  v_palabras text[];
  v_columna text := case p_orden when 'importe' then 'importe_centimos'
    when 'fecha_gasto' then p_orden when 'descripcion' then p_orden when 'categoria' then p_orden
    when 'estado' then p_orden when 'folio' then p_orden end;
  v_desde integer := greatest(coalesce(p_desde, 0), 0);
  v_cuantos integer := greatest(coalesce(p_cuantos, 0), 0);
  -- Con las coincidencias repartidas, la página y las anteriores están en bastantes menos filas.
  v_recorrer bigint := greatest(5000, 50 * (v_desde + v_cuantos)::bigint);
  v_recorrido record;
begin
  if v_columna is null then
    raise exception 'buscar_gastos_pagina no ordena por %', p_orden using errcode = '22023';
  end if;
  v_palabras := array(select x from unnest(coalesce(p_palabras, '{}')) as y (x) where btrim(x) <> '');
  if (select interno.rol_actual()) is null or cardinality(v_palabras) = 0 or v_cuantos = 0 then
    return '';
  end if;
  v_recorrido := interno.buscar_gastos_recorriendo(v_palabras, v_columna, coalesce(p_ascendente, false), v_recorrer, v_desde, v_cuantos);
  -- La página entera entre las primeras filas del orden es la página; si no (tras la última
  -- coincidencia, o con las coincidencias más adelante en el orden), todas.
  if v_recorrido.n = v_cuantos then
    return v_recorrido.ids;
  end if;
  return coalesce(interno.buscar_gastos_ordenando(v_palabras, v_columna, coalesce(p_ascendente, false), v_desde, v_cuantos), '');
end
$$;

revoke execute on function public.buscar_gastos_pagina(text[], text, boolean, integer, integer) from public, anon, authenticated;
grant execute on function public.buscar_gastos_pagina(text[], text, boolean, integer, integer) to authenticated, service_role;
