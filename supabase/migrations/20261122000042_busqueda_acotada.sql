-- Oficina: la búsqueda de gastos, acotada (ADR 0008, cuarta ronda).
--
-- buscar_gastos(término) devolvía todos los ids visibles que coinciden: con 1 000 000 de gastos,
-- una palabra frecuente son 22 000 ids, ~120 ms de PostgreSQL y un texto de 800 KB de ida y
-- vuelta en cada búsqueda, para mostrar 25. Ahora lee como mucho p_tope + 1 coincidencias (el
-- mapa de bits de los índices de trigramas se recorre hasta ahí y para) y responde:
--   * cuántas son y la suma de su importe, exactas, hasta p_tope; más allá, una estimación (una
--     muestra de unas 250 páginas) y sin suma (`exacto` lo dice);
--   * sus ids (texto 'a,b,c') solo si son pocas: menos de 5·√(filas de la tabla). Entonces la
--     lista lee y ordena esas filas por id. Si son más, sale más barato aplicar la búsqueda como
--     condición y recorrer el índice del orden de la lista: la página llega tras leer unas
--     25 · filas / coincidencias filas, menos que las coincidencias mismas.
-- Sin p_tope devuelve todos los ids (la exportación). La consulta se planifica con el patrón
-- escrito (SQL dinámico): con el patrón como parámetro, el plan genérico con LIMIT recorría la
-- tabla entera para términos raros (1,5–2,5 s). Misma regla de visibilidad que gastos_select.

drop function public.buscar_gastos(text);

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
    v_donde := v_donde || format(' and (g.solicitante_id = %1$L or g.aprobador_id = %1$L or g.departamento_id = any (%2$L::uuid[]))',
      v_yo, array_remove(v_departamentos, null));
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
  -- Unas 250 páginas de la tabla (el 1 % con 1 000 000 de gastos; toda, si es pequeña).
  v_porcentaje := least(100, 25000.0 / greatest(1, (select c.relpages from pg_catalog.pg_class c where c.oid = 'public.gastos'::regclass)));
  execute format('select round(count(*) * 100 / %s) from public.gastos g tablesample system (%s) repeatable (0) where %s', v_porcentaje, v_porcentaje, v_donde)
    into v_muestra;
  return query select null::text, greatest(p_tope + 1, v_muestra), false, null::jsonb;
end
$$;

revoke execute on function public.buscar_gastos(text, integer) from public, anon, authenticated;
grant execute on function public.buscar_gastos(text, integer) to authenticated, service_role;
