-- Referencias, solo para quien puede eliminar el registro: public.referencias
-- (20261125000005_flujo) intenta eliminarlo como quien la llama y, si eso choca con una clave
-- foránea, cuenta aquí.
--
-- Las referencias se leen del catálogo: qué impide eliminar un registro son las claves foráneas
-- que apuntan a su tabla sin `on delete cascade` ni `set null`, así que una tabla nueva con su
-- clave foránea cuenta sin tocar esta función. Cuenta todas las filas, también las que quien
-- pregunta no ve: la clave foránea rechaza la eliminación por todas ellas. Lo que revela es un
-- número, de un registro cuyo id ya conoce quien pregunta y que puede eliminar. Para no ampliar
-- eso a tablas que su rol no puede leer de ningún modo (ni revelar sus nombres), solo cuentan las
-- tablas con permiso de lectura para authenticated.

create function interno.referencias_contar(p_tabla regclass, p_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_ref record;
  v_total bigint;
  v_cuentas jsonb := '[]'::jsonb;
begin
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
               p_tabla) as condicion
        from pg_catalog.pg_constraint f
       where f.contype = 'f' and f.confrelid = p_tabla and f.confdeltype in ('a', 'r')
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

revoke execute on function interno.referencias_contar(regclass, uuid) from public, anon;
grant execute on function interno.referencias_contar(regclass, uuid) to authenticated;

