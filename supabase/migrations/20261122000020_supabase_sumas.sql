-- Oficina: suma de columnas sobre el filtro de una lista, para el backend de Supabase.
--
-- Los proyectos alojados de Supabase tienen desactivados los agregados de PostgREST
-- (`select=importe.sum()`), así que el adaptador de supabase-js pide la suma de `importe` sobre el
-- filtro de la lista de gastos con `rpc('sumar_lista', …)`, con los mismos filtros y la misma
-- búsqueda que la petición de las filas. El adaptador SQL no la usa (suma en su propia consulta).
--
-- SECURITY INVOKER: se ejecuta con los privilegios y la seguridad a nivel de fila de quien llama,
-- así que suma solo lo que ese usuario puede ver (lo mismo que obtendría pidiendo las filas).
-- Identificadores con %I, valores con %L y operadores de una lista cerrada: nada del cliente se
-- concatena sin citar.
--
--   p_fuente    tabla o vista de public (p. ej. 'gastos_vista')
--   p_columnas  columnas a sumar
--   p_filtros   [{"column": "estado", "op": "eq|neq|gt|gte|lt|lte|in|is_null|not_null|ilike", "value": …}]
--   p_busqueda  {"columns": ["descripcion", …], "term": "taxi"} o null
--
-- Devuelve {"importe": "1234.50", …}: cada suma como texto decimal exacto (0 si no hay filas).

create function public.sumar_lista(
  p_fuente text,
  p_columnas text[],
  p_filtros jsonb default '[]'::jsonb,
  p_busqueda jsonb default null
) returns jsonb
language plpgsql stable security invoker
set search_path = ''
as $$
declare
  v_identificador constant text := '^[a-z_][a-z0-9_]*$';
  v_condiciones text[] := array['true'];
  v_sumas text[] := '{}';
  v_busqueda text[] := '{}';
  v_filtro jsonb;
  v_columna text;
  v_op text;
  v_patron text;
  v_resultado jsonb;
begin
  if p_fuente is null or p_fuente !~ v_identificador then
    raise exception using errcode = 'OFINV', detail = '', message = 'Origen de datos no válido.';
  end if;

  foreach v_columna in array coalesce(p_columnas, '{}') loop
    if v_columna !~ v_identificador then
      raise exception using errcode = 'OFINV', detail = '', message = 'Columna no válida: ' || v_columna;
    end if;
    v_sumas := v_sumas || format('%L, coalesce(sum(%I), 0)::text', v_columna, v_columna);
  end loop;
  if cardinality(v_sumas) = 0 then
    return '{}'::jsonb;
  end if;

  for v_filtro in select e from jsonb_array_elements(coalesce(p_filtros, '[]'::jsonb)) as x (e) loop
    v_columna := v_filtro ->> 'column';
    v_op := v_filtro ->> 'op';
    if v_columna is null or v_columna !~ v_identificador then
      raise exception using errcode = 'OFINV', detail = '', message = 'Columna de filtro no válida.';
    end if;
    v_condiciones := v_condiciones || case v_op
      when 'eq' then format('%I = %L', v_columna, v_filtro ->> 'value')
      when 'neq' then format('%I <> %L', v_columna, v_filtro ->> 'value')
      when 'gt' then format('%I > %L', v_columna, v_filtro ->> 'value')
      when 'gte' then format('%I >= %L', v_columna, v_filtro ->> 'value')
      when 'lt' then format('%I < %L', v_columna, v_filtro ->> 'value')
      when 'lte' then format('%I <= %L', v_columna, v_filtro ->> 'value')
      -- Como PostgREST: `= any('{…}')`, un literal de array que toma el tipo de la columna.
      when 'in' then format('%I = any(%L)', v_columna,
        coalesce((select array_agg(v)::text
                  from jsonb_array_elements_text(
                    case jsonb_typeof(v_filtro -> 'value') when 'array' then v_filtro -> 'value' else '[]'::jsonb end) as y (v)),
                 '{}'))
      when 'is_null' then format('%I is null', v_columna)
      when 'not_null' then format('%I is not null', v_columna)
      when 'ilike' then format('%I::text ilike %L', v_columna,
        '%' || regexp_replace(coalesce(v_filtro ->> 'value', ''), '([\\%_])', '\\\1', 'g') || '%')
      else null
    end;
    if v_condiciones[cardinality(v_condiciones)] is null then
      raise exception using errcode = 'OFINV', detail = '', message = 'Operador de filtro no válido: ' || coalesce(v_op, '');
    end if;
  end loop;

  -- Búsqueda: subcadena sin distinguir mayúsculas en cualquiera de las columnas (como el adaptador SQL).
  if p_busqueda is not null and nullif(btrim(coalesce(p_busqueda ->> 'term', '')), '') is not null then
    v_patron := '%' || regexp_replace(btrim(p_busqueda ->> 'term'), '([\\%_])', '\\\1', 'g') || '%';
    for v_columna in select c from jsonb_array_elements_text(coalesce(p_busqueda -> 'columns', '[]'::jsonb)) as z (c) loop
      if v_columna !~ v_identificador then
        raise exception using errcode = 'OFINV', detail = '', message = 'Columna de búsqueda no válida.';
      end if;
      v_busqueda := v_busqueda || format('%I::text ilike %L', v_columna, v_patron);
    end loop;
    if cardinality(v_busqueda) > 0 then
      v_condiciones := v_condiciones || ('(' || array_to_string(v_busqueda, ' or ') || ')');
    end if;
  end if;

  execute format('select jsonb_build_object(%s) from public.%I where %s',
    array_to_string(v_sumas, ', '), p_fuente, array_to_string(v_condiciones, ' and '))
  into v_resultado;
  return v_resultado;
end
$$;

revoke execute on function public.sumar_lista(text, text[], jsonb, jsonb) from public, anon;
grant execute on function public.sumar_lista(text, text[], jsonb, jsonb) to authenticated, service_role;
