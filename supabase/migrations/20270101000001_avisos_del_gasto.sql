-- Lo que un gasto dice antes de aprobarlo (fuera de la política y el motivo, sin justificante),
-- escrito una vez: avisos_antes_de_aprobar (la ficha) lo usa, y avisos_antes_de_aprobar_varios lo
-- da para los seleccionados de «Aprobar seleccionados», cuyo paso de confirmación lo repetía en
-- TypeScript. El presupuesto no: en bloque se cuenta por departamento y mes
-- (avisos_presupuesto_en_bloque), no gasto a gasto. avisos_antes_de_aprobar se redefine desde
-- 20261224000001_viajes con solo ese cambio.

create function interno.avisos_del_gasto(p_politica_incumplida text[], p_motivo_politica text,
  p_justificantes bigint, p_clase text) returns text[]
language sql immutable
set search_path = ''
as $$
  select array(select 'Fuera de la política de gastos: ' || f from unnest(coalesce(p_politica_incumplida, '{}')) as x (f))
      || case when p_motivo_politica is not null then array['Motivo de quien lo envía: «' || p_motivo_politica || '».'] else '{}' end
      || case when p_justificantes = 0 and p_clase = 'ordinario' then array['No lleva justificante.'] else '{}' end
$$;

revoke all on function interno.avisos_del_gasto(text[], text, bigint, text) from public, anon;
grant execute on function interno.avisos_del_gasto(text[], text, bigint, text) to authenticated, service_role;

create or replace function public.avisos_antes_de_aprobar(p_id uuid) returns text[]
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

-- Los seleccionados que quien pregunta puede aprobar ahora, cada uno con sus avisos (como
-- quien pregunta: los demás no salen, y su función los rechazará con su motivo).
create function public.avisos_antes_de_aprobar_varios(p_ids uuid[])
returns table (id uuid, avisos text[])
language sql stable security invoker
set search_path = ''
as $$
  select v.id, interno.avisos_del_gasto(v.politica_incumplida, v.motivo_politica, v.justificantes, v.clase)
    from public.gastos_vista v
   where v.id = any (p_ids) and v.estado = 'pendiente' and v.puede_aprobar
$$;

revoke all on function public.avisos_antes_de_aprobar_varios(uuid[]) from public, anon;
grant execute on function public.avisos_antes_de_aprobar_varios(uuid[]) to authenticated, service_role;
