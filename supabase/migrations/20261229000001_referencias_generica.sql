-- Referencias leídas del catálogo: qué impide eliminar un registro son las claves foráneas que
-- apuntan a su tabla sin `on delete cascade` ni `set null`, así que una tabla nueva con su clave
-- foránea cuenta sin tocar esta función.

-- Devuelve, como antes, [{"tabla": "gastos", "total": 2}, …] con los totales > 0, una entrada por
-- tabla que apunta al registro (sus columnas que lo hacen, unidas con «o»), en orden de tabla;
-- las de otro esquema, con él delante. La tabla de p_tabla es de public y sus registros se
-- nombran por `id`.
--
-- Sigue siendo security definer y cuenta todas las filas, también las que quien pregunta no ve:
-- la clave foránea rechaza la eliminación por todas ellas, y el mensaje debe dar la razón real
-- (contar solo las visibles diría «0» ante un rechazo). Lo que revela es un número, de un
-- registro cuyo id ya conoce quien pregunta, y solo a usuarios activos. Para no ampliar eso a
-- tablas que su rol no puede leer de ningún modo (ni revelar sus nombres), solo cuentan las
-- tablas con permiso de lectura para authenticated.
create or replace function public.referencias(p_tabla text, p_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_tabla regclass;
  v_ref record;
  v_total bigint;
  v_cuentas jsonb := '[]'::jsonb;
begin
  if (select interno.rol_actual()) is null then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Su usuario no está activo o la sesión no es válida.';
  end if;
  select c.oid into v_tabla
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and c.relname = p_tabla and c.relkind in ('r', 'p');
  if v_tabla is null then
    raise exception using errcode = 'OFINV', detail = '',
      message = 'Tabla desconocida: ' || coalesce(p_tabla, '');
  end if;
  for v_ref in
    with claves as (
      select f.conrelid,
             format('(%s) in (select %s from %s t where t.id = $1)',
               (select string_agg(format('o.%I', a.attname), ', ' order by k.n)
                  from unnest(f.conkey) with ordinality k (attnum, n)
                  join pg_catalog.pg_attribute a on a.attrelid = f.conrelid and a.attnum = k.attnum),
               (select string_agg(format('t.%I', a.attname), ', ' order by k.n)
                  from unnest(f.confkey) with ordinality k (attnum, n)
                  join pg_catalog.pg_attribute a on a.attrelid = f.confrelid and a.attnum = k.attnum),
               v_tabla) as condicion
        from pg_catalog.pg_constraint f
       where f.contype = 'f' and f.confrelid = v_tabla and f.confdeltype in ('a', 'r')
         and pg_catalog.has_table_privilege('authenticated', f.conrelid, 'select')
    )
    select k.conrelid::regclass as origen,
           case when n.nspname = 'public' then r.relname::text else n.nspname || '.' || r.relname end as nombre,
           string_agg(k.condicion, ' or ' order by k.condicion) as condicion
      from claves k
      join pg_catalog.pg_class r on r.oid = k.conrelid
      join pg_catalog.pg_namespace n on n.oid = r.relnamespace
     group by k.conrelid, n.nspname, r.relname
     order by 2
  loop
    execute format('select count(*) from %s o where %s', v_ref.origen, v_ref.condicion) into v_total using p_id;
    if v_total > 0 then
      v_cuentas := v_cuentas || jsonb_build_object('tabla', v_ref.nombre, 'total', v_total);
    end if;
  end loop;
  return v_cuentas;
end
$$;
