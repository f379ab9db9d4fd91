-- Lo que quien aprueba debe saber antes de aprobar un gasto, no después: si no lleva justificante
-- y si, aprobado, el departamento pasaría de su presupuesto del mes (en euros). La aprobación no
-- se impide: se avisa. Quien no puede aprobarlo (gastos_vista.puede_aprobar) no recibe nada.

-- Lo aprobado (aprobado + pagado) de un departamento en el mes de una fecha y su presupuesto los da
-- interno.presupuesto_del_mes (20261226000001_datos_por_necesidad, junto a la tabla aparte del
-- presupuesto, que lee).

-- El aviso de que el departamento p_departamento_id pasaría de su presupuesto del mes de p_fecha
-- si se aprueba p_importe más (lo aprobado y el presupuesto, de interno.presupuesto_del_mes), o
-- ninguno. p_inicio dice qué se aprueba: el mismo aviso para un gasto («Aprobado») y, en bloque,
-- para los de un departamento en un mes («Aprobados todos», 20261221000001_presupuesto_en_bloque).
create function interno.aviso_pasaria_presupuesto(p_inicio text, p_departamento_id uuid, p_fecha date,
  p_importe numeric) returns text[] language plpgsql stable set search_path = '' as $$
declare
  p record := interno.presupuesto_del_mes(p_departamento_id, p_fecha);
begin
  if p.presupuesto is not null and p.aprobado + p_importe > p.presupuesto then
    return array[p_inicio || ', ' || p.nombre || ' pasaría de su presupuesto de ' || interno.mes_y_anio(p_fecha)
      || ' en ' || interno.euros(p.aprobado + p_importe - p.presupuesto) || ' € ('
      || interno.euros(p.aprobado + p_importe) || ' € de ' || interno.euros(p.presupuesto) || ' €).'];
  end if;
  return '{}';
end
$$;
revoke all on function interno.aviso_pasaria_presupuesto(text, uuid, date, numeric) from public, anon, authenticated;
-- Lo llaman, como quien pregunta, las funciones de los avisos (security invoker).
grant execute on function interno.aviso_pasaria_presupuesto(text, uuid, date, numeric) to authenticated, service_role;

-- Los avisos, en frases. Como quien pregunta (security invoker): solo de un gasto pendiente que
-- ve y puede aprobar. Primero lo que el gasto dice de sí mismo (interno.avisos_del_gasto,
-- 20270101000001_avisos_del_gasto: lo que se salía de la política al enviarlo y el motivo de quien
-- lo envió, y si no lleva justificante, salvo un kilometraje o una dieta, que no lo llevan), y
-- lo que dicen otros gastos del mismo día (interno.avisos_del_dia: una comida el día de una
-- dieta, un kilometraje repetido); después el presupuesto.
create function public.avisos_antes_de_aprobar(p_id uuid) returns text[]
language plpgsql stable security invoker set search_path = '' as $$
declare
  g record;
  v_avisos text[] := '{}';
begin
  select v.id, v.importe, v.departamento_id, v.fecha_gasto, v.justificantes, v.clase, v.politica_incumplida,
         v.motivo_politica, v.solicitante_id, v.categoria
    into g from public.gastos_vista v
   where v.id = p_id and v.estado = 'pendiente' and v.puede_aprobar;
  if not found then
    return v_avisos;
  end if;
  v_avisos := interno.avisos_del_gasto(g.politica_incumplida, g.motivo_politica, g.justificantes, g.clase)
    || interno.avisos_del_dia(g.id, g.solicitante_id, g.fecha_gasto, g.clase, g.categoria);
  v_avisos := v_avisos || interno.aviso_pasaria_presupuesto('Aprobado', g.departamento_id, g.fecha_gasto, g.importe);
  return v_avisos;
end
$$;
revoke all on function public.avisos_antes_de_aprobar(uuid) from public, anon;
grant execute on function public.avisos_antes_de_aprobar(uuid) to authenticated, service_role;
