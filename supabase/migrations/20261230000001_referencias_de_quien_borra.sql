-- Referencias, solo para quien puede eliminar el registro. Hasta ahora cualquier usuario activo
-- obtenía, de un registro cuyo id conocía, cuántas filas de otras tablas lo nombran. Ahora
-- public.referencias es de quien la llama (security invoker): intenta eliminar el registro con
-- sus permisos y su RLS, dentro de un bloque que siempre se deshace, y solo si eso choca con una
-- clave foránea cuenta (interno.referencias_contar, como propietaria: también filas que no ve,
-- porque también ellas impiden la eliminación). Quien no puede eliminarlo (no lo ve, su RLS no se
-- lo deja, o su rol no tiene el permiso) recibe [] como ante un registro sin referencias; lo
-- mismo si la eliminación se rechaza por otro motivo (un disparador del flujo).
-- El recuento es el de 20261229000001_referencias_generica, sin cambios.

create function interno.referencias_contar(p_tabla regclass, p_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
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

drop function public.referencias(text, uuid);
create function public.referencias(p_tabla text, p_id uuid) returns jsonb
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_tabla regclass;
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
  begin
    execute format('delete from %s where id = $1', v_tabla) using p_id;
    -- Deleted (or nothing to delete for this caller): undone; nothing holds it.
    raise exception using errcode = 'OFDES';
  exception
    when foreign_key_violation then
      return interno.referencias_contar(v_tabla, p_id);
    when others then
      return '[]'::jsonb;
  end;
end
$$;

revoke execute on function public.referencias(text, uuid) from public, anon;
grant execute on function public.referencias(text, uuid) to authenticated;
