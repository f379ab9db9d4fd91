-- «Marcar como pagado» con la fecha valor del pago, que puede ser futura (una transferencia
-- programada, la fecha valor que dará el banco): como mucho un año después de hoy, para que una
-- errata en el año no deje el gasto pagado en otra década. Lo demás, como en 20261125000005_flujo.
create or replace function public.pagar_gasto(p_id uuid, p_version integer, p_fecha_pago date, p_referencia text)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.gastos := interno.gasto_para(p_id, 'pagar');
begin
  if p_fecha_pago is null then
    raise exception using errcode = 'OFINV', detail = 'fecha_pago',
      message = 'Indique la fecha de pago.';
  end if;
  if p_fecha_pago > (current_date + interval '1 year')::date then
    raise exception using errcode = 'OFINV', detail = 'fecha_pago',
      message = 'La fecha de pago puede ser futura (la fecha valor), pero como mucho dentro de un año.';
  end if;
  if p_fecha_pago < g.fecha_gasto then
    raise exception using errcode = 'OFINV', detail = 'fecha_pago',
      message = 'La fecha de pago no puede ser anterior a la fecha del gasto.';
  end if;
  return interno.transicion(g, p_version, 'aprobado', jsonb_build_object('estado', 'pagado',
    'fecha_pago', p_fecha_pago,
    'referencia_pago', interno.texto_requerido(p_referencia, 'referencia_pago', 100,
      'Escriba la referencia del pago, por ejemplo el número de la transferencia.')),
    case when g.aprobado_por_id = (select auth.uid()) then
      'Lo aprobó y lo marcó como pagado la misma persona: lo permite esta instalación (PERMITIR_ADMIN_UNICO=1).' end);
end
$$;
