-- Lo que un gasto dice antes de aprobarlo (fuera de la política y el motivo, sin justificante),
-- escrito una vez: avisos_antes_de_aprobar (la ficha) lo usa, y avisos_antes_de_aprobar_varios lo
-- da para los seleccionados de «Aprobar seleccionados», cuyo paso de confirmación lo repetía en
-- TypeScript. El presupuesto no: en bloque se cuenta por departamento y mes
-- (avisos_presupuesto_en_bloque), no gasto a gasto.

create function interno.avisos_del_gasto(p_politica_incumplida text[], p_motivo_politica text,
  p_justificantes bigint, p_clase text) returns text[] language sql immutable set search_path = '' as $$
  select array(select 'Fuera de la política de gastos: ' || f from unnest(coalesce(p_politica_incumplida, '{}')) as x (f))
      || case when p_motivo_politica is not null then array['Motivo de quien lo envía: «' || p_motivo_politica || '».'] else '{}' end
      || case when p_justificantes = 0 and p_clase = 'ordinario' then array['No lleva justificante.'] else '{}' end
$$;

revoke all on function interno.avisos_del_gasto(text[], text, bigint, text) from public, anon;
grant execute on function interno.avisos_del_gasto(text[], text, bigint, text) to authenticated, service_role;


-- Los seleccionados que quien pregunta puede aprobar ahora, cada uno con sus avisos (como
-- quien pregunta: los demás no salen, y su función los rechazará con su motivo).
create function public.avisos_antes_de_aprobar_varios(p_ids uuid[])
returns table (id uuid, avisos text[]) language sql stable security invoker set search_path = '' as $$
  select v.id, interno.avisos_del_gasto(v.politica_incumplida, v.motivo_politica, v.justificantes, v.clase)
    from public.gastos_vista v
   where v.id = any (p_ids) and v.estado = 'pendiente' and v.puede_aprobar
$$;

revoke all on function public.avisos_antes_de_aprobar_varios(uuid[]) from public, anon;
grant execute on function public.avisos_antes_de_aprobar_varios(uuid[]) to authenticated, service_role;
