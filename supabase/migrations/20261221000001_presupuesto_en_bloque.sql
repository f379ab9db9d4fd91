-- Antes de aprobar en bloque («todos los que coinciden»): qué departamentos pasarían de su
-- presupuesto del mes si se aprueban todos, en euros, como avisa el panel de un gasto
-- (avisos_antes_de_aprobar). Como quien pregunta (security invoker): solo cuentan los pendientes
-- que ve y puede aprobar; lo ya aprobado del departamento, como propietario
-- (interno.presupuesto_del_mes).
create function public.avisos_presupuesto_en_bloque(p_ids uuid[]) returns text[]
language plpgsql stable security invoker set search_path = '' as $$
declare
  r record;
  v_avisos text[] := '{}';
begin
  for r in
    select g.departamento_id, date_trunc('month', g.fecha_gasto)::date as mes, sum(g.importe) as importe
      from public.gastos_vista g
     where g.id = any (coalesce(p_ids, '{}')) and g.estado = 'pendiente' and g.puede_aprobar
     group by g.departamento_id, date_trunc('month', g.fecha_gasto)
     order by mes, g.departamento_id
  loop
    v_avisos := v_avisos || interno.aviso_pasaria_presupuesto('Aprobados todos', r.departamento_id, r.mes, r.importe);
  end loop;
  return v_avisos;
end
$$;
revoke all on function public.avisos_presupuesto_en_bloque(uuid[]) from public, anon;
grant execute on function public.avisos_presupuesto_en_bloque(uuid[]) to authenticated, service_role;
