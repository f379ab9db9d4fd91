-- Qué puede hacer quien mira con un gasto y, si no puede, por qué: la misma regla con la que
-- interno.gasto_para rechaza la transición (interno.motivo_no_actua, 20261125000005_flujo), para
-- que la ficha ofrezca sus botones y explique los que faltan sin repetir la regla fuera de la base.

-- Para la ficha del gasto p_id: cada transición con el motivo por el que quien mira no puede
-- hacerla, o null si puede ({"aprobar": null, "pagar": "Solo un administrador…", …}). null si el
-- gasto no existe o no lo ve.
create function public.motivos_gasto(p_id uuid) returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  g public.gastos;
begin
  if (select interno.rol_actual()) is null then
    return null;
  end if;
  select * into g from public.gastos where id = p_id;
  if not found or not interno.puede_ver_gasto(g.solicitante_id, g.aprobador_id, g.departamento_id, g.estado) then
    return null;
  end if;
  return (
    -- Pagar o revertir un gasto que está en una remesa viva, tampoco (interno.motivo_remesa).
    select jsonb_object_agg(a.accion, coalesce(interno.motivo_no_actua(g, a.accion),
             case when a.accion in ('pagar', 'revertir') then interno.motivo_remesa(g.id) end))
    from unnest(array['enviar', 'retirar', 'reabrir', 'aprobar', 'rechazar', 'pagar', 'revertir']) as a(accion)
  );
end
$$;

revoke all on function public.motivos_gasto(uuid) from public, anon;
grant execute on function public.motivos_gasto(uuid) to authenticated, service_role;
