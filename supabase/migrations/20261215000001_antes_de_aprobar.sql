-- Lo que quien aprueba debe saber antes de aprobar un gasto, no después: si no lleva justificante
-- y si, aprobado, el departamento pasaría de su presupuesto del mes (en euros). La aprobación no
-- se impide: se avisa. Quien no puede aprobarlo (gastos_vista.puede_aprobar) no recibe nada.

-- Lo aprobado (aprobado + pagado) de un departamento en el mes de una fecha y su presupuesto los da
-- interno.presupuesto_del_mes (20261226000001_datos_por_necesidad, junto a la tabla aparte del
-- presupuesto, que lee).

-- Los avisos, en frases. Como quien pregunta (security invoker): solo de un gasto pendiente que
-- ve y puede aprobar. Primero lo que el gasto dice de sí mismo (interno.avisos_del_gasto,
-- 20270101000001_avisos_del_gasto: lo que se salía de la política al enviarlo y el motivo de quien
-- lo envió, y si no lleva justificante, salvo un kilometraje o una dieta, que no lo llevan);
-- después el presupuesto.
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
  select v.id, v.importe, v.departamento_id, v.fecha_gasto, v.justificantes, v.clase, v.politica_incumplida,
         v.motivo_politica
    into g from public.gastos_vista v
   where v.id = p_id and v.estado = 'pendiente' and v.puede_aprobar;
  if not found then
    return v_avisos;
  end if;
  v_avisos := interno.avisos_del_gasto(g.politica_incumplida, g.motivo_politica, g.justificantes, g.clase);
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
