-- Oficina: la búsqueda de gastos, acotada (ADR 0008, cuarta ronda).
--
-- buscar_gastos(término) devolvía todos los ids visibles que coinciden: con 1 000 000 de gastos,
-- una palabra frecuente son 22 000 ids, ~120 ms de PostgreSQL y un texto de 800 KB de ida y
-- vuelta en cada búsqueda, para mostrar 25. Ahora lee como mucho p_tope + 1 coincidencias (el
-- mapa de bits de los índices de trigramas se recorre hasta ahí y para):
--   * hasta p_tope: los ids (texto 'a,b,c') y cuántos son; la lista filtra por id, como antes;
--   * más de p_tope: ids nulo y una estimación de cuántos son (por una muestra de unas 250
--     páginas). La lista aplica entonces la búsqueda como condición y recorre el índice de su
--     orden: con tantas coincidencias, la página llega tras leer pocas filas.
-- Sin p_tope devuelve todos (la exportación). La consulta se planifica con el patrón escrito (SQL
-- dinámico): con el patrón como parámetro, el plan genérico con LIMIT recorría la tabla entera
-- para términos raros (1,5–2,5 s). Misma regla de visibilidad que la política gastos_select.
drop function public.buscar_gastos(text);

create function public.buscar_gastos(p_termino text, p_tope integer default null)
returns table (ids text, coincidencias bigint)
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
  v_ids uuid[];
  v_muestra bigint;
  v_porcentaje numeric;
begin
  if v_rol is null or nullif(btrim(coalesce(p_termino, '')), '') is null then
    return query select ''::text, 0::bigint;
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
  execute format('select array(select g.id from public.gastos g where %s limit %s)', v_donde, coalesce((p_tope + 1)::text, 'all'))
    into v_ids;
  if p_tope is null or cardinality(v_ids) <= p_tope then
    return query select array_to_string(v_ids, ','), cardinality(v_ids)::bigint;
    return;
  end if;
  -- Unas 250 páginas de la tabla (el 1 % con 1 000 000 de gastos; toda, si es pequeña).
  v_porcentaje := least(100, 25000.0 / greatest(1, (select c.relpages from pg_catalog.pg_class c where c.oid = 'public.gastos'::regclass)));
  execute format('select round(count(*) * 100 / %s) from public.gastos g tablesample system (%s) repeatable (0) where %s', v_porcentaje, v_porcentaje, v_donde)
    into v_muestra;
  return query select null::text, greatest(p_tope + 1, v_muestra);
end
$$;

revoke execute on function public.buscar_gastos(text, integer) from public, anon, authenticated;
grant execute on function public.buscar_gastos(text, integer) to authenticated, service_role;
