-- Oficina: la lista de gastos a escala (1 000 000 de gastos): índices de orden y de filtro, la
-- suma de una lista para el backend de Supabase y el contador de cambios que deja al adaptador
-- SQL guardar la cuenta de una lista. Decisiones y mediciones:
-- docs/decisions/0006-gastos-list-at-scale.md y 0008-performance.md. La búsqueda indexada
-- (buscar_gastos) está en 20261201000001_busqueda, junto a la columna en la que busca.

-- ---------------------------------------------------------------------------------------------
-- Índices de la lista
-- ---------------------------------------------------------------------------------------------

-- Orden: la lista ordena por la columna elegida y después por id (orden estable al paginar), así
-- que cada índice de orden lleva id detrás; con él la página sale en orden sin ordenar grupos
-- enteros (el de categoría cubre también el filtro por categoría).
create index gastos_descripcion_id_idx on public.gastos (descripcion, id);
create index gastos_categoria_id_idx on public.gastos (categoria, id);
create index gastos_estado_id_idx on public.gastos (estado, id);
-- Por fecha, dentro de una misma fecha el más reciente primero (creado_en), y después id: la
-- página sale del índice sin ordenar las filas de una fecha
-- (20261231000001_orden_dentro_de_la_fecha).
create index gastos_fecha_creado_id_idx on public.gastos (fecha_gasto, creado_en, id);

-- Filtro por importe: importe_centimos (bigint, sus comparaciones son LEAKPROOF) se usa en un
-- índice bajo RLS; las de numeric no.
create index gastos_importe_centimos_idx on public.gastos (importe_centimos, id);

-- El filtro de quien aprueba o revisa un departamento (y el de los enlaces del panel), ordenado
-- por importe: lee la página y las anteriores, en orden, sin leer la tabla («index-only scan»):
-- incluye el rango de fechas y las columnas de la visibilidad (RLS) de quien mira.
create index gastos_estado_departamento_importe_idx on public.gastos (estado, departamento_id, importe, id)
  include (fecha_gasto, solicitante_id, aprobador_id);

-- ---------------------------------------------------------------------------------------------
-- Suma de columnas sobre el filtro de una lista, para el backend de Supabase
-- ---------------------------------------------------------------------------------------------
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
--   p_busqueda  {"columns": ["busqueda", …], "words": ["hotel", "barcelona"], "term": "…"} o null.
--               Cada palabra de `words` (sin ellas, el término entero) ha de estar en alguna
--               columna.
--
-- Devuelve {"importe": "1234.50", …}: cada suma como texto decimal exacto (0 si no hay filas).

create function public.sumar_lista(
  p_fuente text,
  p_columnas text[],
  p_filtros jsonb default '[]'::jsonb,
  p_busqueda jsonb default null
) returns jsonb language plpgsql stable security invoker set search_path = '' as $$
declare
  v_identificador constant text := '^[a-z_][a-z0-9_]*$';
  v_condiciones text[] := array['true'];
  v_sumas text[] := '{}';
  v_busqueda text[] := '{}';
  v_filtro jsonb;
  v_columna text;
  v_op text;
  v_patron text;
  v_palabras text[];
  v_palabra text;
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

  -- Búsqueda: cada palabra (`words`; sin ellas, el término entero) está, sin distinguir
  -- mayúsculas, en alguna de las columnas.
  if p_busqueda is not null then
    v_palabras := case
      when jsonb_typeof(p_busqueda -> 'words') = 'array' then
        array(select x from jsonb_array_elements_text(p_busqueda -> 'words') as y (x) where btrim(x) <> '')
      else array_remove(array[nullif(btrim(coalesce(p_busqueda ->> 'term', '')), '')], null)
    end;
    foreach v_palabra in array v_palabras loop
      v_patron := '%' || regexp_replace(v_palabra, '([\\%_])', '\\\1', 'g') || '%';
      v_busqueda := '{}';
      for v_columna in select c from jsonb_array_elements_text(coalesce(p_busqueda -> 'columns', '[]'::jsonb)) as z (c) loop
        if v_columna !~ v_identificador then
          raise exception using errcode = 'OFINV', detail = '', message = 'Columna de búsqueda no válida.';
        end if;
        v_busqueda := v_busqueda || format('%I::text ilike %L', v_columna, v_patron);
      end loop;
      if cardinality(v_busqueda) > 0 then
        v_condiciones := v_condiciones || ('(' || array_to_string(v_busqueda, ' or ') || ')');
      end if;
    end loop;
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

create function interno.contar_cambio() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if current_setting('oficina.cambio_contado', true) is distinct from 'si' then
    update interno.cambios set n = n + 1;
    perform set_config('oficina.cambio_contado', 'si', true);
  end if;
  return null;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Los disparadores comunes de una tabla de public, declarados una vez: cada tabla los pide con
-- una llamada en el archivo que la crea, en vez de repetirlos.
-- ---------------------------------------------------------------------------------------------

-- El contador de cambios: contar_cambio (de restricción, diferido: una vez por transacción, al
-- confirmar) y contar_vaciado. Toda tabla de public lo lleva (20261207000001_contar_todas).
create function interno.contar_cambios_de(p_tabla text) returns void language plpgsql set search_path = '' as $fn$
begin
  execute format('create constraint trigger contar_cambio after insert or update or delete on public.%I
    deferrable initially deferred for each row execute function interno.contar_cambio()', p_tabla);
  -- TRUNCATE (pruebas, mantenimiento) no admite triggers de restricción: avanza en el acto.
  execute format('create trigger contar_vaciado after truncate on public.%I
    for each statement execute function interno.contar_cambio()', p_tabla);
end
$fn$;

-- Una tabla con historial: registrar_historial (20261125000002_historial) y el contador de
-- cambios; con p_version (si tiene `version` y `actualizado_en`), también tocar_version, el
-- bloqueo optimista (20261125000001_esquema).
create function interno.tabla_con_historial(p_tabla text, p_version boolean default true) returns void
language plpgsql set search_path = '' as $fn$
begin
  if p_version then
    execute format('create trigger tocar_version before update on public.%I
      for each row execute function interno.tocar_version()', p_tabla);
  end if;
  execute format('create trigger registrar_historial after insert or update or delete on public.%I
    for each row execute function interno.registrar_historial()', p_tabla);
  perform interno.contar_cambios_de(p_tabla);
end
$fn$;
revoke all on function interno.contar_cambios_de(text), interno.tabla_con_historial(text, boolean)
  from public, anon, authenticated;

select interno.tabla_con_historial('departamentos');
select interno.tabla_con_historial('sucursales');
select interno.tabla_con_historial('usuarios');
select interno.tabla_con_historial('proveedores');
select interno.tabla_con_historial('gastos');

-- El valor, para cualquiera que haya iniciado sesión: no dice nada de ningún dato.
create function interno.cambios() returns bigint language sql stable security definer set search_path = ''
as $$ select n from interno.cambios $$;

revoke all on function interno.cambios() from public;
grant execute on function interno.cambios() to authenticated, service_role;
revoke all on function interno.contar_cambio() from public;
