-- Lo que quien aprueba debe saber antes de aprobar un gasto, no después: si no lleva justificante
-- y si, aprobado, el departamento pasaría de su presupuesto del mes (en euros). La aprobación no
-- se impide: se avisa. Quien no puede aprobarlo (gastos_vista.puede_aprobar) no recibe nada.

-- Lo aprobado (aprobado + pagado) de un departamento en el mes de p_fecha, y su presupuesto: como
-- propietario, porque quien aprueba no tiene por qué ver todos los gastos del departamento.
create function interno.presupuesto_del_mes(p_departamento_id uuid, p_fecha date,
                                            out nombre text, out presupuesto numeric, out aprobado numeric)
language sql stable security definer
set search_path = ''
as $$
  select d.nombre, d.presupuesto_mensual,
         (select coalesce(sum(g.importe), 0) from public.gastos g
           where g.departamento_id = d.id and g.estado in ('aprobado', 'pagado')
             and g.fecha_gasto >= date_trunc('month', p_fecha)::date
             and g.fecha_gasto < (date_trunc('month', p_fecha) + interval '1 month')::date)
    from public.departamentos d where d.id = p_departamento_id
$$;
revoke all on function interno.presupuesto_del_mes(uuid, date) from public, anon, authenticated;
grant execute on function interno.presupuesto_del_mes(uuid, date) to authenticated, service_role;

-- Los avisos, en frases. Como quien pregunta (security invoker): solo de un gasto pendiente que
-- ve y puede aprobar.
create function public.avisos_antes_de_aprobar(p_id uuid) returns text[]
language plpgsql stable security invoker
set search_path = ''
as $$
declare
  g record;
  p record;
  v_meses text[] := array['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio',
                          'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];
  v_avisos text[] := '{}';
begin
  select v.id, v.importe, v.departamento_id, v.fecha_gasto, v.justificantes, v.iva_motivo
    into g from public.gastos_vista v
   where v.id = p_id and v.estado = 'pendiente' and v.puede_aprobar;
  if not found then
    return v_avisos;
  end if;
  if g.justificantes = 0 then
    v_avisos := v_avisos || 'No lleva justificante.'::text;
  end if;
  p := interno.presupuesto_del_mes(g.departamento_id, g.fecha_gasto);
  if p.presupuesto is not null and p.aprobado + g.importe > p.presupuesto then
    v_avisos := v_avisos || (
      'Aprobado, ' || p.nombre || ' pasaría de su presupuesto de '
      || v_meses[extract(month from g.fecha_gasto)::integer] || ' de ' || extract(year from g.fecha_gasto)::integer
      || ' en ' || interno.euros(p.aprobado + g.importe - p.presupuesto) || ' € ('
      || interno.euros(p.aprobado + g.importe) || ' € de ' || interno.euros(p.presupuesto) || ' €).');
  end if;
  return v_avisos;
end
$$;
revoke all on function public.avisos_antes_de_aprobar(uuid) from public, anon;
grant execute on function public.avisos_antes_de_aprobar(uuid) to authenticated, service_role;
