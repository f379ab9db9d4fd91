-- Oficina: los borradores son privados (issue 18). Un borrador es un gasto a medio escribir: lo
-- ven su solicitante y los administradores; nadie más, ni su aprobador, ni el responsable o el
-- aprobador de su departamento (antes lo veían, y un borrador no les pide nada). Al enviarlo
-- pasa a pendiente y lo ven quienes lo aprueban; si vuelve a borrador (retirar, reabrir) deja de
-- verse otra vez.
--
-- La misma regla en los tres sitios que la escriben: la política gastos_select, su copia para la
-- fila bloqueada de las transiciones (interno.puede_ver_gasto, ahora con el estado) y la
-- visibilidad escrita de la búsqueda indexada (buscar_gastos). gastos_vista, historial_vista y
-- el panel leen gastos con su RLS y la siguen solos.

drop policy gastos_select on public.gastos;
create policy gastos_select on public.gastos for select to authenticated
  using (
    (select interno.rol_actual()) is not null
    and (
      (select interno.es_admin())
      or solicitante_id = (select auth.uid())
      or (estado <> 'borrador'
          and (aprobador_id = (select auth.uid())
               or ((select interno.rol_actual()) = 'aprobador'
                   and departamento_id = (select interno.departamento_actual()))
               or departamento_id = any ((select interno.departamentos_a_cargo())::uuid[])
               or solicitante_id = any ((select interno.solicitantes_a_cargo())::uuid[])))
    )
  );

drop function interno.puede_ver_gasto(uuid, uuid, uuid);
create function interno.puede_ver_gasto(p_solicitante_id uuid, p_aprobador_id uuid, p_departamento_id uuid,
  p_estado text)
returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (select interno.rol_actual()) is not null
    and (
      (select interno.es_admin())
      or p_solicitante_id = (select auth.uid())
      or (p_estado <> 'borrador'
          and (p_aprobador_id = (select auth.uid())
               or ((select interno.rol_actual()) = 'aprobador'
                   and p_departamento_id = (select interno.departamento_actual()))
               or p_departamento_id = any ((select interno.departamentos_a_cargo())::uuid[])
               or p_solicitante_id = any ((select interno.solicitantes_a_cargo())::uuid[])))
    ),
    false)
$$;
revoke execute on function interno.puede_ver_gasto(uuid, uuid, uuid, text) from public, anon, authenticated;

-- Igual que en 20261125000005_flujo.sql, con el estado en puede_ver_gasto.
create or replace function interno.gasto_para(p_id uuid, p_accion text) returns public.gastos
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos;
  v_uid uuid := (select auth.uid());
  v_admin boolean := (select interno.es_admin());
  v_no text;
begin
  if (select interno.rol_actual()) is null then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Su usuario no está activo o la sesión no es válida.';
  end if;
  select * into g from public.gastos where id = p_id for update;
  if not found or not interno.puede_ver_gasto(g.solicitante_id, g.aprobador_id, g.departamento_id, g.estado) then
    raise exception using errcode = 'OFNTF', detail = '',
      message = 'El gasto no existe o no tiene acceso a él.';
  end if;
  v_no := case
    when p_accion in ('aprobar', 'rechazar') then interno.motivo_no_aprueba(v_uid, g, p_accion)
    when p_accion in ('enviar', 'retirar', 'reabrir') then
      case when not (g.solicitante_id = v_uid or v_admin) then
        case p_accion when 'enviar' then 'Solo el solicitante o un administrador pueden enviar este gasto a aprobación.'
                      else 'Solo el solicitante puede ' || p_accion || ' este gasto.' end
      end
    when p_accion = 'pagar' then
      case when not v_admin then 'Solo un administrador puede marcar gastos como pagados.'
           when g.aprobado_por_id = v_uid and not interno.permitir_admin_unico()
             then 'Usted aprobó este gasto: debe marcarlo como pagado otro administrador.'
      end
    when p_accion = 'revertir' then
      case when not v_admin then 'Solo un administrador puede revertir una aprobación.' end
    else 'Acción desconocida: ' || coalesce(p_accion, '')
  end;
  if v_no is not null then
    raise exception using errcode = 'OFPRM', detail = '', message = v_no;
  end if;
  return g;
end
$$;

-- La búsqueda indexada, igual que en 20261125000007_escala.sql salvo la visibilidad: los borradores
-- ajenos no cuentan.
create or replace function public.buscar_gastos(p_termino text, p_tope integer default null)
returns table (ids text, coincidencias bigint, exacto boolean, sumas jsonb)
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
  v_n bigint;
  v_suma text;
  v_ids text;
  v_pocas bigint;
  v_muestra bigint;
  v_porcentaje numeric;
begin
  if v_rol is null or nullif(btrim(coalesce(p_termino, '')), '') is null then
    return query select ''::text, 0::bigint, true, jsonb_build_object('importe', '0');
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
    v_donde := v_donde || format(' and (g.solicitante_id = %1$L or (g.estado <> %4$L and (g.aprobador_id = %1$L or g.departamento_id = any (%2$L::uuid[]) or g.solicitante_id = any (%3$L::uuid[]))))',
      v_yo, array_remove(v_departamentos, null), (select interno.solicitantes_a_cargo()), 'borrador');
  end if;
  v_pocas := case when p_tope is null then null
    else greatest(200, 5 * sqrt(greatest(0, (select c.reltuples from pg_catalog.pg_class c where c.oid = 'public.gastos'::regclass))))::bigint end;
  execute format(
    'select count(*), coalesce(sum(x.importe), 0)::text, case when %s then string_agg(x.id::text, %L) else null end
       from (select g.id, g.importe from public.gastos g where %s limit %s) x',
    case when v_pocas is null then 'true' else format('count(*) <= %s', v_pocas) end, ',', v_donde, coalesce((p_tope + 1)::text, 'all'))
    into v_n, v_suma, v_ids;
  if p_tope is null or v_n <= p_tope then
    return query select coalesce(v_ids, case when v_n = 0 then '' end), v_n, true, jsonb_build_object('importe', v_suma);
    return;
  end if;
  -- Unas 250 páginas de la tabla (toda, si es pequeña).
  v_porcentaje := least(100, 25000.0 / greatest(1, (select c.relpages from pg_catalog.pg_class c where c.oid = 'public.gastos'::regclass)));
  execute format('select round(count(*) * 100 / %s) from public.gastos g tablesample system (%s) repeatable (0) where %s', v_porcentaje, v_porcentaje, v_donde)
    into v_muestra;
  return query select null::text, greatest(p_tope + 1, v_muestra), false, null::jsonb;
end
$$;
