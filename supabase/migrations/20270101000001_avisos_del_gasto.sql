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

-- Una dieta paga las comidas del día: una comida del mismo día, de la misma persona, como gasto
-- ordinario (categoría «comidas», enviado y no rechazado) se pagaría dos veces. Se avisa en los
-- dos: en la comida, de la dieta; en la dieta, de las comidas. Como quien pregunta.
create function interno.aviso_comida_y_dieta(p_id uuid, p_solicitante_id uuid, p_fecha date, p_clase text,
  p_categoria text) returns text[] language plpgsql stable set search_path = '' as $$
declare
  v_dieta boolean := p_clase = 'dieta';
  v_folios text[];
begin
  if not v_dieta and not (p_clase = 'ordinario' and p_categoria = 'comidas') then
    return '{}';
  end if;
  v_folios := array(
    select g.folio from public.gastos g
     where g.solicitante_id = p_solicitante_id and g.fecha_gasto = p_fecha and g.id <> p_id
       and g.estado in ('pendiente', 'aprobado', 'pagado')
       and (case when v_dieta then g.clase = 'ordinario' and g.categoria = 'comidas' else g.clase = 'dieta' end)
     order by g.folio);
  if cardinality(v_folios) = 0 then
    return '{}';
  end if;
  return array['Ese día (' || to_char(p_fecha, 'DD/MM/YYYY') || ') tiene '
    || case when not v_dieta then 'una dieta, ' || v_folios[1] || ', que ya paga las comidas del día.'
            when cardinality(v_folios) = 1 then 'también una comida como gasto, ' || v_folios[1]
              || ': la dieta ya paga las comidas del día.'
            else 'también comidas como gastos, ' || array_to_string(v_folios, ', ')
              || ': la dieta ya paga las comidas del día.' end];
end
$$;
revoke all on function interno.aviso_comida_y_dieta(uuid, uuid, date, text, text) from public, anon;
grant execute on function interno.aviso_comida_y_dieta(uuid, uuid, date, text, text) to authenticated, service_role;

-- Un kilometraje con el mismo recorrido el mismo día, de la misma persona (enviado y no
-- rechazado), puede ser el mismo desplazamiento anotado dos veces. La vuelta (destino → origen)
-- es otro tramo, salvo que uno de los dos ya cuente la ida y la vuelta. Como quien pregunta.
create function interno.aviso_kilometraje_repetido(p_id uuid) returns text[]
language sql stable set search_path = '' as $$
  select coalesce((
    select array['Ese día (' || to_char(k.fecha_gasto, 'DD/MM/YYYY') || ') ya tiene '
             || case when count(*) = 1 then 'un kilometraje' else 'kilometrajes' end
             || ' con el mismo recorrido (' || k.km_origen || ' – ' || k.km_destino || '), '
             || string_agg(o.folio, ', ' order by o.folio) || ': compruebe que no es el mismo desplazamiento.']
      from public.gastos k
      join public.gastos o
        on o.solicitante_id = k.solicitante_id and o.fecha_gasto = k.fecha_gasto and o.id <> k.id
       and o.clase = 'kilometraje' and o.estado in ('pendiente', 'aprobado', 'pagado')
       and ((lower(btrim(o.km_origen)) = lower(btrim(k.km_origen))
             and lower(btrim(o.km_destino)) = lower(btrim(k.km_destino)))
            or ((o.km_ida_vuelta or k.km_ida_vuelta)
                and lower(btrim(o.km_origen)) = lower(btrim(k.km_destino))
                and lower(btrim(o.km_destino)) = lower(btrim(k.km_origen))))
     where k.id = p_id and k.clase = 'kilometraje'
     group by k.fecha_gasto, k.km_origen, k.km_destino), '{}')
$$;
revoke all on function interno.aviso_kilometraje_repetido(uuid) from public, anon;
grant execute on function interno.aviso_kilometraje_repetido(uuid) to authenticated, service_role;

-- Más de 1.000 km en coche en un día (este kilometraje y los enviados de esa persona ese día, ida
-- y vuelta contada dos veces): posible, pero raro; quien envía y quien aprueba lo miran dos veces.
create function interno.aviso_kilometros_del_dia(p_id uuid) returns text[]
language sql stable set search_path = '' as $$
  select coalesce((
    select array['Ese día (' || to_char(k.fecha_gasto, 'DD/MM/YYYY') || ') suma '
             || replace(to_char(round(sum(o.km * case when o.km_ida_vuelta then 2 else 1 end)), 'FM999,999'), ',', '.')
             || ' km en kilometrajes (' || string_agg(o.folio, ', ' order by o.folio)
             || '): compruebe los trayectos y los kilómetros.']
      from public.gastos k
      join public.gastos o
        on o.solicitante_id = k.solicitante_id and o.fecha_gasto = k.fecha_gasto and o.clase = 'kilometraje'
       and (o.id = k.id or o.estado in ('pendiente', 'aprobado', 'pagado'))
     where k.id = p_id and k.clase = 'kilometraje'
     group by k.fecha_gasto
    having sum(o.km * case when o.km_ida_vuelta then 2 else 1 end) > 1000), '{}')
$$;
revoke all on function interno.aviso_kilometros_del_dia(uuid) from public, anon;
grant execute on function interno.aviso_kilometros_del_dia(uuid) to authenticated, service_role;

-- Lo que otros gastos del mismo día dicen de este: una vez, para la ficha, el envío y la
-- aprobación (uno a uno o en bloque).
create function interno.avisos_del_dia(p_id uuid, p_solicitante_id uuid, p_fecha date, p_clase text,
  p_categoria text) returns text[] language sql stable set search_path = '' as $$
  select interno.aviso_comida_y_dieta(p_id, p_solicitante_id, p_fecha, p_clase, p_categoria)
      || interno.aviso_kilometraje_repetido(p_id) || interno.aviso_kilometros_del_dia(p_id)
$$;
revoke all on function interno.avisos_del_dia(uuid, uuid, date, text, text) from public, anon;
grant execute on function interno.avisos_del_dia(uuid, uuid, date, text, text) to authenticated, service_role;


-- Lo que conviene saber antes de enviar un borrador, que no pide motivo (lo que sí lo pide es
-- incumplimientos_politica): si no lleva justificante y una comida el día de una dieta. Quien lo
-- envía puede corregirlo antes que quien aprueba lo lea. Como quien pregunta: de un borrador que ve.
create function public.avisos_antes_de_enviar(p_id uuid) returns text[]
language sql stable security invoker set search_path = '' as $$
  select coalesce((
    -- Sin el justificante que se exige no se envía: dicho como lo rechazará enviar_gasto.
    select case when f.falta is not null then array[f.falta]
                else interno.avisos_del_gasto(null, null, v.justificantes, v.clase) end
           || interno.avisos_del_dia(v.id, v.solicitante_id, v.fecha_gasto, v.clase, v.categoria)
      from public.gastos_vista v
      cross join lateral (select interno.falta_justificante(v.importe, v.clase, v.justificantes) as falta) f
     where v.id = p_id and v.estado = 'borrador'), '{}')
$$;

revoke all on function public.avisos_antes_de_enviar(uuid) from public, anon;
grant execute on function public.avisos_antes_de_enviar(uuid) to authenticated, service_role;

-- Los seleccionados que quien pregunta puede aprobar ahora, cada uno con sus avisos (como
-- quien pregunta: los demás no salen, y su función los rechazará con su motivo).
create function public.avisos_antes_de_aprobar_varios(p_ids uuid[])
returns table (id uuid, avisos text[]) language sql stable security invoker set search_path = '' as $$
  select v.id, interno.avisos_del_gasto(v.politica_incumplida, v.motivo_politica, v.justificantes, v.clase)
           || interno.avisos_del_dia(v.id, v.solicitante_id, v.fecha_gasto, v.clase, v.categoria)
    from public.gastos_vista v
   where v.id = any (p_ids) and v.estado = 'pendiente' and v.puede_aprobar
$$;

revoke all on function public.avisos_antes_de_aprobar_varios(uuid[]) from public, anon;
grant execute on function public.avisos_antes_de_aprobar_varios(uuid[]) to authenticated, service_role;
