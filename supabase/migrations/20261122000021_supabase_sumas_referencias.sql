-- Oficina: sumar_lista también busca en tablas relacionadas (ListQuery.search.refs).
--
-- La búsqueda de una lista puede incluir filas cuya clave foránea apunta a una fila de otra tabla
-- que contiene el término (p. ej. un gasto por la razón social de su proveedor). El adaptador SQL
-- lo hace con `columna = any(array(select x.id from tabla x where …))`; esta versión de
-- sumar_lista hace lo mismo, para que la suma del backend de Supabase cubra las mismas filas.
-- Misma firma, mismos privilegios (create or replace los conserva); sigue siendo SECURITY INVOKER:
-- la tabla relacionada también se lee con la seguridad a nivel de fila de quien llama.
--
--   p_busqueda  {"columns": […], "term": "…", "refs": [{"column": "proveedor_id",
--                "table": "proveedores", "columns": ["razon_social", "nombre_comercial"]}]}

create or replace function public.sumar_lista(
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
  v_ref jsonb;
  v_columna text;
  v_tabla text;
  v_op text;
  v_patron text;
  v_en_ref text[];
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

  -- Búsqueda: subcadena sin distinguir mayúsculas en las columnas o en las tablas relacionadas.
  if p_busqueda is not null and nullif(btrim(coalesce(p_busqueda ->> 'term', '')), '') is not null then
    v_patron := '%' || regexp_replace(btrim(p_busqueda ->> 'term'), '([\\%_])', '\\\1', 'g') || '%';
    for v_columna in select c from jsonb_array_elements_text(coalesce(p_busqueda -> 'columns', '[]'::jsonb)) as z (c) loop
      if v_columna !~ v_identificador then
        raise exception using errcode = 'OFINV', detail = '', message = 'Columna de búsqueda no válida.';
      end if;
      v_busqueda := v_busqueda || format('%I::text ilike %L', v_columna, v_patron);
    end loop;
    for v_ref in select r from jsonb_array_elements(coalesce(p_busqueda -> 'refs', '[]'::jsonb)) as w (r) loop
      v_columna := v_ref ->> 'column';
      v_tabla := v_ref ->> 'table';
      if v_columna is null or v_columna !~ v_identificador or v_tabla is null or v_tabla !~ v_identificador then
        raise exception using errcode = 'OFINV', detail = '', message = 'Referencia de búsqueda no válida.';
      end if;
      v_en_ref := '{}';
      for v_op in select c from jsonb_array_elements_text(coalesce(v_ref -> 'columns', '[]'::jsonb)) as q (c) loop
        if v_op !~ v_identificador then
          raise exception using errcode = 'OFINV', detail = '', message = 'Columna de búsqueda no válida.';
        end if;
        v_en_ref := v_en_ref || format('x.%I::text ilike %L', v_op, v_patron);
      end loop;
      if cardinality(v_en_ref) > 0 then
        v_busqueda := v_busqueda || format('%I = any(array(select x.id from public.%I x where %s))',
          v_columna, v_tabla, array_to_string(v_en_ref, ' or '));
      end if;
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
