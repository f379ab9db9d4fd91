-- Oficina: filtro por importe indexable con RLS. Decisiones y mediciones:
-- docs/decisions/0006-gastos-list-at-scale.md.
--
-- Con RLS, PostgreSQL solo usa en un índice las condiciones con operadores LEAKPROOF, y las
-- comparaciones de numeric (numeric_le, numeric_ge) no lo son: «importe entre 100 y 101» leía la
-- tabla entera (0,5–0,9 s con un millón de gastos) aunque exista gastos_importe_idx. Las de
-- bigint sí lo son: importe_centimos es una copia exacta del importe en céntimos (generada, nadie
-- la escribe), con su índice; la lista filtra por ella. El importe sigue siendo numeric(14,2) y es
-- el único que se muestra y se suma. (El historial la registra como cualquier columna; la ficha
-- del gasto no la enseña.)

alter table public.gastos
  add column importe_centimos bigint generated always as ((importe * 100)::bigint) stored;
create index gastos_importe_centimos_idx on public.gastos (importe_centimos, id);

-- La vista de la lista la expone (g.* se expande al crear la vista: hay que recrearla, igual).
drop view public.gastos_vista;
create view public.gastos_vista with (security_invoker = true) as
select g.*,
       coalesce(nullif(btrim(p.nombre_comercial), ''), p.razon_social) as proveedor_nombre,
       nullif(btrim(concat_ws(' ', so.nombre, so.apellidos)), '') as solicitante_nombre,
       d.nombre as departamento_nombre,
       s.nombre as sucursal_nombre,
       nullif(btrim(concat_ws(' ', ap.nombre, ap.apellidos)), '') as aprobador_nombre,
       nullif(btrim(concat_ws(' ', apr.nombre, apr.apellidos)), '') as aprobado_por_nombre
from public.gastos g
left join public.proveedores p on p.id = g.proveedor_id
left join public.usuarios so on so.id = g.solicitante_id
left join public.departamentos d on d.id = g.departamento_id
left join public.sucursales s on s.id = g.sucursal_id
left join public.usuarios ap on ap.id = g.aprobador_id
left join public.usuarios apr on apr.id = g.aprobado_por_id;
revoke all on public.gastos_vista from public, anon, authenticated;
grant select on public.gastos_vista to authenticated, service_role;
