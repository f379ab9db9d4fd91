-- Una remesa generada (20261214000001_remesas): su fichero se guarda una vez y después se
-- confirma (sus gastos, pagados) o se anula (sus gastos, libres). Solo administradores.
-- Guarda el fichero generado, una sola vez: después se descarga siempre el mismo. Debe llevar el
-- identificador de mensaje de la remesa (que es el fichero de esta remesa y no de otra).
create function public.guardar_xml_remesa(p_id uuid, p_xml text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  r public.remesas := interno.remesa_para(p_id, null, false);
begin
  if r.xml is not null then
    raise exception using errcode = 'OFCNF', detail = 'xml',
      message = 'El fichero de esta remesa ya está guardado: no se sustituye.';
  end if;
  if nullif(btrim(p_xml), '') is null or position(r.mensaje_id in p_xml) = 0 then
    raise exception using errcode = 'OFINV', detail = 'xml',
      message = 'El fichero no corresponde a la remesa ' || r.folio || '.';
  end if;
  update public.remesas set xml = p_xml where id = r.id returning * into r;
  return jsonb_build_object('id', r.id, 'folio', r.folio, 'estado', r.estado, 'version', r.version);
end
$$;

-- generada → confirmada: el banco la ha pagado. En la misma transacción cada gasto pasa a
-- pagado con fecha_pago = fecha de ejecución y referencia_pago = folio de la remesa (con una nota
-- en su historial); si uno no puede, no cambia nada. Quien pidió o aprobó alguno de sus gastos no
-- la confirma (salvo PERMITIR_ADMIN_UNICO, y queda en el historial de ese gasto). p_referencia: la
-- del banco, si se conoce (se guarda en la remesa).
create function public.confirmar_remesa(p_id uuid, p_version integer, p_referencia text default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  r public.remesas := interno.remesa_para(p_id, p_version);
  g public.gastos;
  v_uid uuid := (select auth.uid());
  v_unico boolean := interno.permitir_admin_unico();
  v_n integer := 0;
  v_referencia text := nullif(btrim(p_referencia), '');
begin
  if char_length(v_referencia) > 100 then
    raise exception using errcode = 'OFINV', detail = 'referencia',
      message = 'La referencia del banco admite como mucho 100 caracteres.';
  end if;
  if r.xml is null then
    raise exception using errcode = 'OFINV', detail = 'xml',
      message = 'La remesa ' || r.folio || ' no tiene su fichero guardado: anúlela y genérela de nuevo.';
  end if;
  if r.fecha_ejecucion > interno.hoy() + 1 then
    raise exception using errcode = 'OFINV', detail = 'fecha_ejecucion',
      message = 'La remesa se ejecuta el ' || to_char(r.fecha_ejecucion, 'DD/MM/YYYY')
        || ': confírmela cuando el banco la haya ejecutado.';
  end if;
  perform set_config('oficina.remesa_en_curso', r.id::text, true);
  for g in
    select x.* from public.gastos x
      join public.remesa_gastos rg on rg.gasto_id = x.id and rg.remesa_id = r.id
     order by x.id
       for update of x
  loop
    if v_uid in (g.solicitante_id, g.aprobado_por_id) and not v_unico then
      raise exception using errcode = 'OFPRM', detail = '',
        message = case v_uid when g.solicitante_id then 'El gasto ' || g.folio || ' es suyo'
                             else 'Usted aprobó el gasto ' || g.folio end
          || ': debe confirmar la remesa otro administrador.';
    end if;
    perform interno.transicion(g, g.version, 'aprobado',
      jsonb_build_object('estado', 'pagado', 'fecha_pago', r.fecha_ejecucion, 'referencia_pago', r.folio),
      concat_ws(' ', 'Pagado con la remesa ' || r.folio || '.', interno.nota_pago_propio(g)));
    v_n := v_n + 1;
  end loop;
  perform set_config('oficina.remesa_en_curso', '', true);
  update public.remesas
     set estado = 'confirmada', confirmada_por_id = v_uid, confirmada_en = now(), referencia = v_referencia
   where id = r.id returning * into r;
  return jsonb_build_object('id', r.id, 'folio', r.folio, 'estado', r.estado, 'version', r.version, 'gastos', v_n);
end
$$;

-- generada → anulada (motivo obligatorio): sus gastos quedan libres para otra remesa o para
-- marcarlos como pagados uno a uno. Una remesa confirmada no se anula: sus gastos están pagados.
create function public.anular_remesa(p_id uuid, p_version integer, p_motivo text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  r public.remesas := interno.remesa_para(p_id, p_version);
  v_motivo text := interno.texto_requerido(p_motivo, 'motivo_anulacion', 500, 'Escriba el motivo de la anulación.');
begin
  update public.remesas
     set estado = 'anulada', anulada_por_id = (select auth.uid()), anulada_en = now(), motivo_anulacion = v_motivo
   where id = r.id returning * into r;
  return jsonb_build_object('id', r.id, 'folio', r.folio, 'estado', r.estado, 'version', r.version);
end
$$;

revoke all on function
  public.guardar_xml_remesa(uuid, text), public.confirmar_remesa(uuid, integer, text),
  public.anular_remesa(uuid, integer, text)
  from public, anon, authenticated;
grant execute on function
  public.guardar_xml_remesa(uuid, text), public.confirmar_remesa(uuid, integer, text),
  public.anular_remesa(uuid, integer, text)
  to authenticated, service_role;
