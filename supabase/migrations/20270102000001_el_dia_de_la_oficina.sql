-- «Hoy» en la base de datos es el día de la oficina (Madrid), el mismo que usa la aplicación.
-- current_date sigue la zona horaria de la sesión, que es UTC en un Supabase alojado y en la base
-- embebida: entre la medianoche de Madrid y la de UTC, la base y la aplicación discrepaban en un
-- día (un pago con fecha valor justo a un año se rechazaba, una remesa podía ejecutarse «ayer»,
-- la antigüedad de un gasto contaba un día de menos; y lo creado en la primera hora del año
-- llevaba el folio del año anterior). Una prueba del catálogo exige lo mismo a cualquier función
-- nueva que use current_date o el año de creado_en.
--
-- Dos formas, según lo que haga la función:
-- - Las que solo cuentan días (validaciones, incumplimientos, folios) fijan la zona de la oficina
--   con SET: da igual la de la sesión que las llame.
-- - Las que además devuelven o escriben momentos como texto (un JSON con creado_en, el historial
--   de lo que cambian) no pueden cambiar de zona sin cambiar ese texto: preguntan interno.hoy().

create function interno.hoy() returns date
language sql stable parallel safe
as $$ select (now() at time zone 'Europe/Madrid')::date $$;

alter function interno.remesas_asignar_folio() set timezone to 'Europe/Madrid';

-- Como en 20261214000001_remesas, con interno.hoy() (1).
create or replace function public.crear_remesa(p_gasto_ids uuid[], p_cuenta_id uuid, p_fecha_ejecucion date,
  p_importe_total numeric default null)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  v_ids uuid[];
  v_cuenta public.cuentas_empresa;
  v_empresa public.empresa;
  v_excluidos text;
  v_n_excluidos integer;
  v_total numeric(14, 2);
  v_transferencias integer;
  v_id uuid;
  v_folio text;
begin
  perform interno.exigir_admin_remesas();
  select array_agg(distinct u.id order by u.id) into v_ids from unnest(p_gasto_ids) as u (id) where u.id is not null;
  if v_ids is null then
    raise exception using errcode = 'OFINV', detail = 'gastos', message = 'Elija al menos un gasto para la remesa.';
  end if;
  select * into v_cuenta from public.cuentas_empresa c where c.id = p_cuenta_id;
  if not found or not v_cuenta.activa then
    raise exception using errcode = 'OFINV', detail = 'cuenta_id',
      message = 'Elija una cuenta activa de la empresa desde la que pagar.';
  end if;
  if p_fecha_ejecucion is null then
    raise exception using errcode = 'OFINV', detail = 'fecha_ejecucion', message = 'Indique la fecha de ejecución.';
  end if;
  if p_fecha_ejecucion < interno.hoy() then
    raise exception using errcode = 'OFINV', detail = 'fecha_ejecucion',
      message = 'La fecha de ejecución no puede ser anterior a hoy.';
  end if;
  select * into v_empresa from public.empresa limit 1;
  if v_empresa.razon_social is null or v_empresa.nif is null then
    raise exception using errcode = 'OFINV', detail = 'empresa',
      message = 'Complete la razón social y el NIF de la empresa antes de generar una remesa: el banco identifica con ellos a quien paga.';
  end if;

  perform 1 from public.gastos g where g.id = any (v_ids) order by g.id for update;

  select string_agg(coalesce(l.folio, l.gasto_id::text) || ': ' || l.motivo, ' ' order by l.folio, l.gasto_id)
           filter (where l.motivo is not null),
         count(*) filter (where l.motivo is not null),
         sum(l.importe),
         count(distinct (l.beneficiario, l.beneficiario_id, l.iban))
    into v_excluidos, v_n_excluidos, v_total, v_transferencias
    from interno.remesa_lineas(v_ids) l;
  if v_n_excluidos > 0 then
    raise exception using errcode = 'OFINV', detail = 'gastos',
      message = case when v_n_excluidos = 1 then 'Un gasto no puede ir en la remesa' else v_n_excluidos || ' gastos no pueden ir en la remesa' end
        || ': quítelos o resuelva el motivo. ' || v_excluidos;
  end if;
  if p_importe_total is not null and p_importe_total <> v_total then
    raise exception using errcode = 'OFCNF', detail = 'importe_total',
      message = 'Los gastos han cambiado desde que los consultó: la remesa sumaría ' || interno.euros(v_total)
        || ' € y no ' || interno.euros(p_importe_total) || ' €. Revíselos y vuelva a intentarlo.';
  end if;

  insert into public.remesas (cuenta_id, fecha_ejecucion, num_transferencias, importe_total, creado_por_id)
  values (v_cuenta.id, p_fecha_ejecucion, v_transferencias, v_total, (select auth.uid()))
  returning id, folio into v_id, v_folio;

  begin
    insert into public.remesa_gastos (remesa_id, gasto_id, beneficiario, beneficiario_id, nombre, iban, importe,
                                      end_to_end_id)
    select v_id, l.gasto_id, l.beneficiario, l.beneficiario_id, l.nombre, l.iban, l.importe,
           v_folio || '-' || lpad(t.n::text, greatest(3, length(t.n::text)), '0')
      from interno.remesa_lineas(v_ids) l
      join (select k.beneficiario, k.beneficiario_id, k.iban,
                   row_number() over (order by k.nombre, k.beneficiario, k.beneficiario_id, k.iban) as n
              from (select distinct l2.beneficiario, l2.beneficiario_id, l2.iban, l2.nombre
                      from interno.remesa_lineas(v_ids) l2) k) t
        on (t.beneficiario, t.beneficiario_id, t.iban) = (l.beneficiario, l.beneficiario_id, l.iban);
  exception when unique_violation then
    raise exception using errcode = 'OFCNF', detail = 'gastos',
      message = 'Otro administrador acaba de incluir alguno de estos gastos en otra remesa. Revise la selección y vuelva a intentarlo.';
  end;
  return interno.remesa_json(v_id);
end
$$;

-- Como en 20261214000001_remesas, con interno.hoy() (1).
create or replace function public.confirmar_remesa(p_id uuid, p_version integer, p_referencia text default null)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
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
        || ': confírmela cuando el banco la haya pagado.';
  end if;
  perform set_config('oficina.remesa_en_curso', r.id::text, true);
  for g in
    select x.* from public.gastos x
      join public.remesa_gastos rg on rg.gasto_id = x.id and rg.remesa_id = r.id
     order by x.id
       for update of x
  loop
    if g.aprobado_por_id = v_uid and not v_unico then
      raise exception using errcode = 'OFPRM', detail = '',
        message = 'Usted aprobó el gasto ' || g.folio || ': debe confirmar la remesa otro administrador.';
    end if;
    perform interno.transicion(g, g.version, 'aprobado',
      jsonb_build_object('estado', 'pagado', 'fecha_pago', r.fecha_ejecucion, 'referencia_pago', r.folio),
      'Pagado con la remesa ' || r.folio || '.'
        || case when g.aprobado_por_id = v_uid then
             ' Lo aprobó y lo marcó como pagado la misma persona: lo permite esta instalación (PERMITIR_ADMIN_UNICO=1).'
           else '' end);
    v_n := v_n + 1;
  end loop;
  perform set_config('oficina.remesa_en_curso', '', true);
  update public.remesas
     set estado = 'confirmada', confirmada_por_id = v_uid, confirmada_en = now(), referencia = v_referencia
   where id = r.id returning * into r;
  return jsonb_build_object('id', r.id, 'folio', r.folio, 'estado', r.estado, 'version', r.version, 'gastos', v_n);
end
$$;
