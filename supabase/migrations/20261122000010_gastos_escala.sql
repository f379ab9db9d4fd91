-- Oficina: la lista de gastos a escala (1 000 000 de gastos). Decisiones y mediciones:
-- docs/decisions/0006-gastos-list-at-scale.md.
--
-- 1. Índices de orden. La lista ordena por la columna elegida y después por id (orden estable al
--    paginar). Descripción no tenía índice; categoría y estado lo tenían sin id detrás, y cada
--    grupo (70 000–700 000 filas) se ordenaba entero por id. (categoria) queda cubierto por
--    (categoria, id).
create index gastos_descripcion_id_idx on public.gastos (descripcion, id);
create index gastos_categoria_id_idx on public.gastos (categoria, id);
create index gastos_estado_id_idx on public.gastos (estado, id);
drop index public.gastos_categoria_idx;

-- 2. Búsqueda. Con RLS, PostgreSQL solo usa en un índice las condiciones con operadores
--    LEAKPROOF, y ILIKE (texticlike) no lo es: `descripcion ilike '%taxi%'` leía la tabla entera
--    (6–7 s con un millón de gastos) aunque existan los índices de trigramas. Esta función hace la
--    misma búsqueda como propietaria (sin RLS, con los índices gin_trgm) y aplica ella misma la
--    regla de visibilidad de la política gastos_select, así que solo devuelve ids de gastos que
--    quien la llama puede ver (lo mismo que obtendría con la búsqueda normal). La lista filtra
--    después con `id = any(...)` (uuid_eq sí es LEAKPROOF: usa la clave primaria) y la RLS de
--    siempre. Misma regla que la búsqueda por columnas: subcadena sin distinguir mayúsculas en
--    folio, descripción, número de factura y razón social o nombre comercial del proveedor.
create function public.buscar_gastos(p_termino text) returns uuid[]
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_patron text;
begin
  if (select interno.rol_actual()) is null or nullif(btrim(coalesce(p_termino, '')), '') is null then
    return '{}';
  end if;
  v_patron := '%' || replace(replace(replace(btrim(p_termino), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  return array(
    select g.id
    from public.gastos g
    where (
        g.folio ilike v_patron
        or g.descripcion ilike v_patron
        or g.numero_factura ilike v_patron
        or g.proveedor_id = any (array(
             select p.id from public.proveedores p
             where p.razon_social ilike v_patron or p.nombre_comercial ilike v_patron))
      )
      and (
        (select interno.es_admin())
        or g.solicitante_id = (select auth.uid())
        or g.aprobador_id = (select auth.uid())
        or ((select interno.rol_actual()) = 'aprobador'
            and g.departamento_id = (select interno.departamento_actual()))
        or g.departamento_id = any ((select interno.departamentos_a_cargo())::uuid[])
      )
  );
end
$$;

revoke execute on function public.buscar_gastos(text) from public, anon, authenticated;
grant execute on function public.buscar_gastos(text) to authenticated, service_role;
