-- Oficina: la lista de gastos a escala (1 000 000 de gastos): índices de orden y de filtro, la
-- búsqueda indexada, la suma de una lista para el backend de Supabase y el contador de cambios
-- que deja al adaptador SQL guardar la cuenta de una lista. Decisiones y mediciones:
-- docs/decisions/0006-gastos-list-at-scale.md y 0008-performance.md.

-- ---------------------------------------------------------------------------------------------
-- Índices de la lista
-- ---------------------------------------------------------------------------------------------

-- Orden: la lista ordena por la columna elegida y después por id (orden estable al paginar), así
-- que cada índice de orden lleva id detrás; con él la página sale en orden sin ordenar grupos
-- enteros (el de categoría cubre también el filtro por categoría).
create index gastos_descripcion_id_idx on public.gastos (descripcion, id);
create index gastos_categoria_id_idx on public.gastos (categoria, id);
create index gastos_estado_id_idx on public.gastos (estado, id);
create index gastos_fecha_gasto_id_idx on public.gastos (fecha_gasto, id);

-- Filtro por importe: importe_centimos (bigint, sus comparaciones son LEAKPROOF) se usa en un
-- índice bajo RLS; las de numeric no.
create index gastos_importe_centimos_idx on public.gastos (importe_centimos, id);

-- El filtro de quien aprueba o revisa un departamento (y el de los enlaces del panel), ordenado
-- por importe: lee la página y las anteriores, en orden, sin leer la tabla («index-only scan»):
-- incluye el rango de fechas y las columnas de la visibilidad (RLS) de quien mira.
create index gastos_estado_departamento_importe_idx on public.gastos (estado, departamento_id, importe, id)
  include (fecha_gasto, solicitante_id, aprobador_id);

-- ---------------------------------------------------------------------------------------------
-- La búsqueda de gastos
-- ---------------------------------------------------------------------------------------------
-- Con RLS, PostgreSQL solo usa en un índice las condiciones con operadores LEAKPROOF, y ILIKE no
-- lo es: `descripcion ilike '%taxi%'` leería la tabla entera aunque existan los índices de
-- trigramas. buscar_gastos(término, tope) hace la búsqueda como propietaria (sin RLS, con los
-- índices gin_trgm) y aplica ella misma la regla de visibilidad de la política gastos_select (los
-- borradores ajenos no cuentan), así que solo cuenta gastos que quien la llama puede ver. Misma regla que la búsqueda por columnas:
-- subcadena sin distinguir mayúsculas en folio, descripción, número de factura y razón social o
-- nombre comercial del proveedor. Lee como mucho p_tope + 1 coincidencias y responde:
--   * cuántas son y la suma de su importe, exactas, hasta p_tope; más allá, una estimación (una
--     muestra de unas 250 páginas) y sin suma (`exacto` lo dice);
--   * sus ids (texto 'a,b,c') solo si son pocas: menos de 5·√(filas de la tabla). Entonces la
--     lista filtra con `id = any(...)` (uuid_eq sí es LEAKPROOF) y ordena esas filas. Si son más,
--     sale más barato aplicar la búsqueda como condición y recorrer el índice del orden de la lista.
-- Sin p_tope devuelve todos los ids (la exportación). La consulta se planifica con el patrón
-- escrito (SQL dinámico): con el patrón como parámetro, el plan genérico con LIMIT recorría la
-- tabla entera para términos raros.

create function public.buscar_gastos(p_termino text, p_tope integer default null)
returns table (ids text, coincidencias bigint, exacto boolean, sumas jsonb)
language plpgsql stable security definer
set search_path = ''
-- Solo mapas de bits: sin esto, con LIMIT, el plan prefería leer la tabla en orden.
set enable_seqscan = off
set enable_indexscan = off
as $$
declare
  v_rol text := (select interno.rol_actual());
  v_yo uuid := (select auth.uid());
  v_departamentos uuid[];
  v_patron text;
  v_donde text;
  v_n bigint;
  v_suma text;
  v_ids text;
  v_pocas bigint;
  v_muestra bigint;
  v_porcentaje numeric;
begin
  if v_rol is null or nullif(btrim(coalesce(p_termino, '')), '') is null then
    return query select ''::text, 0::bigint, true, jsonb_build_object('importe', '0');
    return;
  end if;
  v_patron := quote_literal('%' || replace(replace(replace(btrim(p_termino), '\', '\\'), '%', '\%'), '_', '\_') || '%');
  v_donde := format($w$
      (g.folio ilike %1$s
        or g.descripcion ilike %1$s
        or g.numero_factura ilike %1$s
        or g.proveedor_id = any (array(
             select p.id from public.proveedores p
             where p.razon_social ilike %1$s or p.nombre_comercial ilike %1$s)))
    $w$, v_patron);
  -- La visibilidad con sus valores escritos: el plan cruza los índices de quien busca con los
  -- de trigramas en lugar de leer cada coincidencia.
  if v_rol <> 'administrador' then
    v_departamentos := (select interno.departamentos_a_cargo())
      || case when v_rol = 'aprobador' then array[(select interno.departamento_actual())] else '{}'::uuid[] end;
    v_donde := v_donde || format(' and (g.solicitante_id = %1$L or (g.estado <> %4$L and (g.aprobador_id = %1$L or g.departamento_id = any (%2$L::uuid[]) or g.solicitante_id = any (%3$L::uuid[]))))',
      v_yo, array_remove(v_departamentos, null), (select interno.solicitantes_a_cargo()), 'borrador');
  end if;
  v_pocas := case when p_tope is null then null
    else greatest(200, 5 * sqrt(greatest(0, (select c.reltuples from pg_catalog.pg_class c where c.oid = 'public.gastos'::regclass))))::bigint end;
  execute format(
    'select count(*), coalesce(sum(x.importe), 0)::text, case when %s then string_agg(x.id::text, %L) else null end
       from (select g.id, g.importe from public.gastos g where %s limit %s) x',
    case when v_pocas is null then 'true' else format('count(*) <= %s', v_pocas) end, ',', v_donde, coalesce((p_tope + 1)::text, 'all'))
    into v_n, v_suma, v_ids;
  if p_tope is null or v_n <= p_tope then
    return query select coalesce(v_ids, case when v_n = 0 then '' end), v_n, true, jsonb_build_object('importe', v_suma);
    return;
  end if;
  -- Unas 250 páginas de la tabla (toda, si es pequeña).
  v_porcentaje := least(100, 25000.0 / greatest(1, (select c.relpages from pg_catalog.pg_class c where c.oid = 'public.gastos'::regclass)));
  execute format('select round(count(*) * 100 / %s) from public.gastos g tablesample system (%s) repeatable (0) where %s', v_porcentaje, v_porcentaje, v_donde)
    into v_muestra;
  return query select null::text, greatest(p_tope + 1, v_muestra), false, null::jsonb;
end
$$;

revoke execute on function public.buscar_gastos(text, integer) from public, anon, authenticated;
grant execute on function public.buscar_gastos(text, integer) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Suma de columnas sobre el filtro de una lista, para el backend de Supabase
-- ---------------------------------------------------------------------------------------------
-- Los proyectos alojados de Supabase tienen desactivados los agregados de PostgREST
-- (`select=importe.sum()`), así que el adaptador de supabase-js pide la suma de `importe` sobre el
-- filtro de la lista de gastos con `rpc('sumar_lista', …)`, con los mismos filtros y la misma
-- búsqueda que la petición de las filas. El adaptador SQL no la usa (suma en su propia consulta).
--
-- SECURITY INVOKER: se ejecuta con los privilegios y la seguridad a nivel de fila de quien llama,
-- así que suma solo lo que ese usuario puede ver (lo mismo que obtendría pidiendo las filas), y
-- la tabla relacionada de la búsqueda también se lee con su RLS. Identificadores con %I, valores
-- con %L y operadores de una lista cerrada: nada del cliente se concatena sin citar.
--
--   p_fuente    tabla o vista de public (p. ej. 'gastos_vista')
--   p_columnas  columnas a sumar
--   p_filtros   [{"column": "estado", "op": "eq|neq|gt|gte|lt|lte|in|is_null|not_null|ilike", "value": …}]
--   p_busqueda  {"columns": ["descripcion", …], "term": "taxi", "refs": [{"column": "proveedor_id",
--                "table": "proveedores", "columns": ["razon_social", "nombre_comercial"]}]} o null
--               (refs: filas cuya clave foránea apunta a una fila de otra tabla que contiene el
--               término, como hace el adaptador SQL con `columna = any(array(select x.id …))`)
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

revoke execute on function public.sumar_lista(text, text[], jsonb, jsonb) from public, anon;
grant execute on function public.sumar_lista(text, text[], jsonb, jsonb) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Un contador de cambios confirmados en los datos (ADR 0008)
-- ---------------------------------------------------------------------------------------------
-- El adaptador SQL guarda la cuenta y la suma de una lista mientras este contador no se mueva.
-- Cualquier escritura en una tabla de la que dependa lo que alguien ve en una lista —los gastos,
-- y también usuarios y departamentos (la visibilidad bajo RLS) y proveedores (la búsqueda por su
-- nombre)— lo avanza.
--
-- Se avanza al confirmar (trigger de restricción diferido), una vez por transacción: así es el
-- último bloqueo que toma una transacción que escribe, y dos que escriben a la vez no pueden
-- bloquearse entre sí por él. Como la fila se actualiza dentro de la transacción, quien lee el
-- contador antes de contar nunca guarda una cuenta más vieja que el valor que leyó.

create table interno.cambios (
  unica boolean primary key default true check (unica),
  n bigint not null default 0
);
insert into interno.cambios default values;
alter table interno.cambios enable row level security;

create function interno.contar_cambio() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if current_setting('oficina.cambio_contado', true) is distinct from 'si' then
    update interno.cambios set n = n + 1;
    perform set_config('oficina.cambio_contado', 'si', true);
  end if;
  return null;
end
$$;

do $$
declare
  tabla text;
begin
  foreach tabla in array array['gastos', 'usuarios', 'departamentos', 'sucursales', 'proveedores'] loop
    execute format(
      'create constraint trigger contar_cambio after insert or update or delete on public.%I
         deferrable initially deferred for each row execute function interno.contar_cambio()', tabla);
    -- TRUNCATE (pruebas, mantenimiento) no admite triggers de restricción: avanza en el acto.
    execute format(
      'create trigger contar_vaciado after truncate on public.%I
         for each statement execute function interno.contar_cambio()', tabla);
  end loop;
end
$$;

-- El valor, para cualquiera que haya iniciado sesión: no dice nada de ningún dato.
create function interno.cambios() returns bigint
language sql stable security definer
set search_path = ''
as $$ select n from interno.cambios $$;

revoke all on function interno.cambios() from public;
grant execute on function interno.cambios() to authenticated, service_role;
revoke all on function interno.contar_cambio() from public;
